package app

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"portalwright/internal/config"
	"portalwright/internal/identity"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
)

// Issue 21 over HTTP with two authors' workspaces: structural merges at commit and at
// Reload Now, the conflict → resolution → commit flow, Reset → Recover discarded work, the
// review, an editor's merge, and presence.
func TestWorkingTogether(t *testing.T) { workingTogetherSuite(t, testConfig(t)) }

func TestWorkingTogetherPostgres(t *testing.T) {
	cfg := testConfig(t)
	cfg.DatabaseURL = storetest.PostgresURL(t) // skips without TEST_DATABASE_URL
	workingTogetherSuite(t, cfg)
}

type twoAuthors struct {
	t          *testing.T
	base       string
	ann, bob   string
	annID      int64
	bobID      int64
	translated string // translations/en_GB.json
}

func (w *twoAuthors) call(token, method, path, body string, hdr ...string) testkit.Reply {
	w.t.Helper()
	return testkit.Call(w.t, method, w.base+"/api/v1"+path, token, body, hdr...)
}

func (w *twoAuthors) must(r testkit.Reply, want int, what string) testkit.Reply {
	w.t.Helper()
	if r.Status != want {
		w.t.Fatalf("%s: %d %s", what, r.Status, r.Body)
	}
	return r
}

// read answers a file of token's workspace and its version.
func (w *twoAuthors) read(token, path string) (map[string]any, string) {
	w.t.Helper()
	r := w.must(w.call(token, "GET", "/assets/1/1/src/"+path, ""), 200, "read "+path)
	var doc map[string]any
	if err := json.Unmarshal([]byte(r.Body), &doc); err != nil {
		w.t.Fatalf("%s is not JSON: %v", path, err)
	}
	return doc, r.Header.Get("ETag")
}

// edit changes a file of token's workspace through the asset save (the editors' call).
func (w *twoAuthors) edit(token, path string, change func(doc map[string]any)) {
	w.t.Helper()
	doc, etag := w.read(token, path)
	change(doc)
	text, _ := json.MarshalIndent(doc, "", "  ")
	body, _ := json.Marshal(map[string]string{"data": string(text) + "\n"})
	w.must(w.call(token, "POST", "/assets/1/1/src/"+path, string(body), "If-Match", etag), 200, "save "+path)
}

func (w *twoAuthors) commit(token, message string) testkit.Reply {
	w.t.Helper()
	return w.call(token, "POST", "/portal/1/1/commits", `{"message":"`+message+`"}`)
}

func (w *twoAuthors) open(token string) testkit.Reply {
	w.t.Helper()
	return w.must(w.call(token, "GET", "/portal/1/1/open", ""), 200, "open")
}

func setKey(key, value string) func(map[string]any) {
	return func(doc map[string]any) { doc[key] = value }
}

// startTwoAuthors starts the demo on cfg with two signed-in authors, ann and bob (admins).
func startTwoAuthors(t *testing.T, cfg config.Config) (*twoAuthors, *running) {
	t.Helper()
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	ctx := context.Background()
	a, err := New(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	w := &twoAuthors{t: t, base: srv.base, translated: "translations/en_GB.json"}
	for _, name := range []string{"ann", "bob"} {
		u, err := a.Identity.CreateUser(ctx, identity.NewUser{UserName: name, Password: name + "-pass-1", Admin: true, FirstName: strings.ToUpper(name[:1]) + name[1:]})
		if err != nil {
			t.Fatal(err)
		}
		if name == "ann" {
			w.annID = u.ID
		} else {
			w.bobID = u.ID
		}
	}
	w.ann = testkit.Login(t, srv.base, "ann", "ann-pass-1")
	w.bob = testkit.Login(t, srv.base, "bob", "bob-pass-1")
	return w, srv
}

func workingTogetherSuite(t *testing.T, cfg config.Config) {
	w, _ := startTwoAuthors(t, cfg)
	w.open(w.ann)
	w.open(w.bob)

	t.Run("neighbouring keys commit without a conflict", func(t *testing.T) {
		w.t = t
		w.edit(w.ann, w.translated, setKey("TXT_ABOUT_TEXT", "Ann's about text"))
		w.edit(w.bob, w.translated, setKey("TXT_ABOUT_TITLE", "Bob's about title"))
		w.must(w.commit(w.bob, "Bob title"), 200, "bob's commit")
		w.must(w.commit(w.ann, "Ann text"), 200, "ann's commit")
		w.open(w.bob)
		doc, _ := w.read(w.bob, w.translated)
		if doc["TXT_ABOUT_TEXT"] != "Ann's about text" || doc["TXT_ABOUT_TITLE"] != "Bob's about title" {
			t.Fatalf("the branch must have both keys: %v / %v", doc["TXT_ABOUT_TEXT"], doc["TXT_ABOUT_TITLE"])
		}
	})

	t.Run("two appends to one array keep both", func(t *testing.T) {
		w.t = t
		appendItem := func(label string) func(map[string]any) {
			return func(doc map[string]any) {
				data := doc["data"].(map[string]any)
				data["items"] = append(data["items"].([]any), map[string]any{"label": label, "link": map[string]any{"type": "Internal", "value": "#/" + label}, "newTab": false})
			}
		}
		const file = "widgets/database/footer-links.json"
		w.edit(w.ann, file, appendItem("TXT_ANN"))
		w.edit(w.bob, file, appendItem("TXT_BOB"))
		w.must(w.commit(w.ann, "Ann menu entry"), 200, "ann's commit")
		w.must(w.commit(w.bob, "Bob menu entry"), 200, "bob's commit")
		w.open(w.ann)
		doc, _ := w.read(w.ann, file)
		body, _ := json.Marshal(doc)
		if !strings.Contains(string(body), "TXT_ANN") || !strings.Contains(string(body), "TXT_BOB") {
			t.Fatalf("both entries must be on the branch: %s", body)
		}
	})

	t.Run("Reload Now merges new commits under uncommitted edits", func(t *testing.T) {
		w.t = t
		w.edit(w.ann, w.translated, setKey("TXT_ABOUT_TEXT", "Ann's draft"))
		w.edit(w.bob, w.translated, setKey("TXT_ABOUT_TITLE", "Bob's second title"))
		w.must(w.commit(w.bob, "Bob second title"), 200, "bob's commit")
		var opened struct {
			Status struct {
				Behind  int               `json:"behindCount"`
				Changes map[string]string `json:"changes"`
			} `json:"status"`
		}
		_ = json.Unmarshal([]byte(w.open(w.ann).Body), &opened)
		if opened.Status.Behind != 0 || opened.Status.Changes[w.translated] != "MODIFY" {
			t.Fatalf("after Reload Now: %+v", opened.Status)
		}
		doc, _ := w.read(w.ann, w.translated)
		if doc["TXT_ABOUT_TEXT"] != "Ann's draft" || doc["TXT_ABOUT_TITLE"] != "Bob's second title" {
			t.Fatalf("the draft and the new commit must both be there: %v / %v", doc["TXT_ABOUT_TEXT"], doc["TXT_ABOUT_TITLE"])
		}
		w.must(w.commit(w.ann, "Ann draft"), 200, "ann's commit")
		w.open(w.bob)
	})

	t.Run("the review shows field changes", func(t *testing.T) {
		w.t = t
		w.edit(w.ann, w.translated, setKey("TXT_ABOUT_TITLE", "Reviewed title"))
		var files struct{ Files map[string]string }
		_ = json.Unmarshal([]byte(w.must(w.call(w.ann, "GET", "/workspace-review/1/1/files", ""), 200, "review files").Body), &files)
		if files.Files[w.translated] != "MODIFY" {
			t.Fatalf("review files: %v", files.Files)
		}
		var rv struct {
			Kind string
			Diff struct {
				Fields []struct {
					Pointer, Op string
					Old, New    *string
				}
			}
		}
		_ = json.Unmarshal([]byte(w.must(w.call(w.ann, "GET", "/workspace-review/1/1?path="+w.translated, ""), 200, "review").Body), &rv)
		if rv.Kind != "translation" || len(rv.Diff.Fields) != 1 || rv.Diff.Fields[0].Pointer != "/TXT_ABOUT_TITLE" || rv.Diff.Fields[0].New == nil || *rv.Diff.Fields[0].New != `"Reviewed title"` {
			t.Fatalf("review: %+v", rv)
		}
		// Bob sees Ann's uncommitted change the same way.
		other := w.must(w.call(w.bob, "GET", "/workspace-review/1/1?path="+w.translated+"&user="+itoa(w.annID), ""), 200, "review of ann's work")
		if !strings.Contains(other.Body, "Reviewed title") {
			t.Fatalf("bob's review of ann's work: %s", other.Body)
		}
		w.must(w.call(w.ann, "POST", "/portal/1/1/revert", `{}`), 204, "revert all")
		w.must(w.call(w.ann, "GET", "/workspace-review/1/1?path=pages/../x", ""), 400, "bad path")
	})

	t.Run("an overlapping key is resolved, the other edits stay", func(t *testing.T) {
		w.t = t
		w.edit(w.bob, w.translated, func(doc map[string]any) {
			doc["TXT_ABOUT_TITLE"] = "Bob's overlapping title"
			doc["TXT_ABOUT_TEXT"] = "Bob's other edit"
		})
		w.must(w.commit(w.bob, "Bob overlap"), 200, "bob's commit")
		w.edit(w.ann, w.translated, setKey("TXT_ABOUT_TITLE", "Ann's overlapping title"))
		got := w.commit(w.ann, "Ann overlap")
		if got.Status != 409 || !strings.Contains(got.Body, "GIT_CONFLICTS") {
			t.Fatalf("ann's commit: %d %s", got.Status, got.Body)
		}
		w.must(w.call(w.ann, "GET", "/portal/1/1/local-changes", ""), 200, "local changes in conflict")
		w.must(w.call(w.ann, "GET", "/portal/1/1/local-commits", ""), 200, "local commits in conflict")
		var state struct {
			InConflict bool
			Tip        string
			Files      []struct {
				Path      string
				Conflicts []struct {
					ID, Path     string
					Mine, Theirs *string
				}
			}
		}
		_ = json.Unmarshal([]byte(w.must(w.call(w.ann, "GET", "/workspace-conflicts/1/1", ""), 200, "conflicts").Body), &state)
		if !state.InConflict || len(state.Files) != 1 || state.Files[0].Path != w.translated || len(state.Files[0].Conflicts) != 1 ||
			state.Files[0].Conflicts[0].ID != "/TXT_ABOUT_TITLE" || *state.Files[0].Conflicts[0].Mine != `"Ann's overlapping title"` {
			t.Fatalf("conflicts: %+v", state)
		}
		// A reload loses nothing: the conflict is still there.
		w.open(w.ann)
		if again := w.call(w.ann, "GET", "/workspace-conflicts/1/1", ""); !strings.Contains(again.Body, `"inConflict":true`) {
			t.Fatalf("after a reload: %s", again.Body)
		}
		full := w.must(w.call(w.ann, "GET", "/workspace-conflicts/1/1/file?path="+w.translated, ""), 200, "conflict file")
		if !strings.Contains(full.Body, "Bob's other edit") {
			t.Fatalf("theirs must be in the full view: %s", full.Body)
		}
		// No choice: refused, nothing changes.
		w.must(w.call(w.ann, "POST", "/workspace-conflicts/1/1/resolve", `{"tip":"`+state.Tip+`","choices":{}}`), 400, "resolve without choices")
		w.must(w.call(w.ann, "POST", "/workspace-conflicts/1/1/resolve", `{"tip":"0000000","choices":{}}`), 409, "resolve at a stale tip")
		choice := `{"tip":"` + state.Tip + `","choices":{"` + w.translated + `":{"/TXT_ABOUT_TITLE":{"take":"mine"}}}}`
		w.must(w.call(w.ann, "POST", "/workspace-conflicts/1/1/resolve", choice), 200, "resolve")
		w.open(w.bob)
		doc, _ := w.read(w.bob, w.translated)
		if doc["TXT_ABOUT_TITLE"] != "Ann's overlapping title" || doc["TXT_ABOUT_TEXT"] != "Bob's other edit" {
			t.Fatalf("after resolving: %v / %v", doc["TXT_ABOUT_TITLE"], doc["TXT_ABOUT_TEXT"])
		}
		if again := w.call(w.ann, "GET", "/workspace-conflicts/1/1", ""); strings.Contains(again.Body, `"inConflict":true`) {
			t.Fatalf("resolved, still in conflict: %s", again.Body)
		}
	})

	t.Run("Reset keeps the work; Recover discarded work brings it back", func(t *testing.T) {
		w.t = t
		w.edit(w.bob, w.translated, setKey("TXT_ABOUT_TEXT", "Bob wins the race"))
		w.must(w.commit(w.bob, "Bob race"), 200, "bob's commit")
		w.edit(w.ann, w.translated, setKey("TXT_ABOUT_TEXT", "Ann's lost text"))
		w.must(w.commit(w.ann, "Ann race"), 409, "ann's conflicting commit")
		w.must(w.call(w.ann, "PUT", "/portal/1/1/reset/master", ""), 200, "reset")
		if doc, _ := w.read(w.ann, w.translated); doc["TXT_ABOUT_TEXT"] != "Bob wins the race" {
			t.Fatalf("after reset: %v", doc["TXT_ABOUT_TEXT"])
		}
		var list []struct {
			ID, Branch, Message string
			Files               map[string]string
		}
		_ = json.Unmarshal([]byte(w.must(w.call(w.ann, "GET", "/workspace-discarded/1/1", ""), 200, "discarded").Body), &list)
		if len(list) == 0 || list[0].Branch != "master" || list[0].Files[w.translated] != "MODIFY" {
			t.Fatalf("discarded work: %+v", list)
		}
		w.must(w.call(w.ann, "POST", "/workspace-discarded/1/1/12345/restore", ""), 404, "restore unknown")
		w.must(w.call(w.ann, "POST", "/workspace-discarded/1/1/"+list[0].ID+"/restore", ""), 200, "restore")
		if doc, _ := w.read(w.ann, w.translated); doc["TXT_ABOUT_TEXT"] != "Ann's lost text" {
			t.Fatalf("after restore: %v", doc["TXT_ABOUT_TEXT"])
		}
		w.must(w.call(w.ann, "POST", "/portal/1/1/revert", `{}`), 204, "revert all")
	})

	t.Run("an editor's stale save merges field by field", func(t *testing.T) {
		w.t = t
		base, _ := w.read(w.ann, w.translated)
		baseText, _ := json.MarshalIndent(base, "", "  ")
		w.edit(w.bob, w.translated, setKey("TXT_ABOUT_TITLE", "Bob saved first"))
		w.must(w.commit(w.bob, "Bob first"), 200, "bob's commit")
		w.open(w.ann)
		mine := map[string]any{}
		for k, v := range base {
			mine[k] = v
		}
		mine["TXT_ABOUT_TEXT"] = "Ann edited meanwhile"
		mineText, _ := json.MarshalIndent(mine, "", "  ")
		body, _ := json.Marshal(map[string]any{"path": "/" + w.translated, "base": string(baseText) + "\n", "mine": string(mineText) + "\n"})
		var merged struct {
			Merged     *string
			Version    string
			Unresolved int
		}
		_ = json.Unmarshal([]byte(w.must(w.call(w.ann, "POST", "/workspace-merge/1/1", string(body)), 200, "merge").Body), &merged)
		if merged.Unresolved != 0 || merged.Merged == nil || !strings.Contains(*merged.Merged, "Bob saved first") || !strings.Contains(*merged.Merged, "Ann edited meanwhile") {
			t.Fatalf("merge: %+v", merged)
		}
		save, _ := json.Marshal(map[string]string{"data": *merged.Merged})
		w.must(w.call(w.ann, "POST", "/assets/1/1/src/"+w.translated, string(save), "If-Match", `"`+merged.Version+`"`), 200, "save merged")
		w.must(w.call(w.ann, "POST", "/portal/1/1/revert", `{}`), 204, "revert all")
	})

	t.Run("presence", func(t *testing.T) {
		w.t = t
		w.must(w.call(w.ann, "PUT", "/presence/1/1", `{"path":"/`+w.translated+`","state":"viewing"}`), 204, "presence viewing")
		w.must(w.call(w.ann, "PUT", "/presence/1/1", `{"path":"`+w.translated+`","state":"editing"}`), 204, "presence editing")
		w.must(w.call(w.ann, "PUT", "/presence/1/1", `{"path":"","state":"editing"}`), 400, "presence without a path")
		w.must(w.call(w.ann, "PUT", "/presence/1/1", `{"path":"a.json","state":"typing"}`), 400, "presence with a bad state")
		var list []struct {
			User struct {
				ID       int64
				UserName string
			}
			Path  string
			State string
			Since time.Time
		}
		_ = json.Unmarshal([]byte(w.must(w.call(w.bob, "GET", "/presence/1/1", ""), 200, "presence list").Body), &list)
		if len(list) != 1 || list[0].User.UserName != "ann" || list[0].Path != w.translated || list[0].State != "editing" {
			t.Fatalf("presence: %+v", list)
		}
		w.must(w.call(w.ann, "DELETE", "/presence/1/1?path="+w.translated, ""), 204, "leave")
		if got := w.must(w.call(w.bob, "GET", "/presence/1/1", ""), 200, "presence list").Body; strings.TrimSpace(got) != "[]" {
			t.Fatalf("after leaving: %s", got)
		}
	})
	_ = http.StatusOK
}
