package app

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"portalwright/internal/caller"
	"portalwright/internal/identity"
	"portalwright/internal/testkit"
)

// Issue 30 items 1 and 5 over HTTP on a real repository served by git daemon: every write
// path (save, batch, upload, move, restore of discarded work, the merge of two authors'
// commits) keeps an executable file executable on the host, the review shows a mode change,
// and a resolution that keeps theirs everywhere pushes no empty commit.

const (
	modeEN     = "{\n  \"privacyPolicy\": \"Privacy\",\n  \"title\": \"Welcome\",\n  \"footer\": \"Footer\"\n}\n"
	modeWidget = "{\n  \"type\": \"text\",\n  \"data\": {\n    \"text\": \"hello\"\n  }\n}\n"
)

// newModeRepo makes root/site.git whose files are executable (100755), as some real
// repositories' Markdown and locale files are.
func newModeRepo(t *testing.T, root string) string {
	t.Helper()
	bare := filepath.Join(root, "site.git")
	gitT(t, root, "init", "-q", "--bare", "--initial-branch=master", bare)
	work := filepath.Join(t.TempDir(), "seed")
	gitT(t, "", "clone", "-q", bare, work)
	for name, content := range map[string]string{
		"index.html":                 "<h1>Site</h1>\n",
		"docs/v11.0.0.md":            "# v11.0.0\n",
		"docs/batch.md":              "# batch\n",
		"docs/upload.md":             "# upload\n",
		"docs/move.md":               "# move\n",
		"docs/restore.md":            "# restore\n",
		"docs/review.md":             "# review\n",
		"locales/en.json":            modeEN,
		"widgets/database/hero.json": modeWidget,
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(work, name)), 0o755)
		if err := os.WriteFile(filepath.Join(work, name), []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(work, "index.html"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitT(t, work, "add", "-A")
	gitT(t, work, "commit", "-q", "-m", "Seed")
	gitT(t, work, "push", "-q", "origin", "master")
	return bare
}

// hostMode is the mode of name on the host's master ("" when absent).
func hostMode(t *testing.T, bare, name string) string {
	t.Helper()
	out := gitT(t, bare, "ls-tree", "master", "--", name)
	if f := strings.Fields(out); len(f) == 4 {
		return f[0]
	}
	return ""
}

func TestRealRepoFileModesAndEmptyCommits(t *testing.T) {
	cfg := testConfig(t)
	cfg.AllowPrivateGitHosts = true
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	ctx := context.Background()
	dom, err := srv.app.Access.CreateDomain(ctx, caller.Caller{UserID: 1, Username: "admin", Admin: true}, "Modes")
	if err != nil {
		t.Fatal(err)
	}
	d := strconv.FormatInt(dom.ID, 10)
	hosts := t.TempDir()
	bare := newModeRepo(t, hosts)
	base, _ := startGitDaemon(t, hosts, 0)
	// Two authors (admins) besides the administrator who imports.
	a, err := New(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	ids := map[string]int64{}
	for _, name := range []string{"ann", "bob"} {
		u, err := a.Identity.CreateUser(ctx, identity.NewUser{UserName: name, Password: name + "-pass-1", Admin: true, FirstName: name})
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = u.ID
	}
	admin := testkit.Login(t, srv.base, "admin", "admin-pass")
	ann := testkit.Login(t, srv.base, "ann", "ann-pass-1")
	bob := testkit.Login(t, srv.base, "bob", "bob-pass-1")
	call := func(token, method, path, body string, hdr ...string) testkit.Reply {
		t.Helper()
		return testkit.Call(t, method, srv.base+"/api/v1"+path, token, body, hdr...)
	}
	must := func(r testkit.Reply, want int, what string) testkit.Reply {
		t.Helper()
		if r.Status != want {
			t.Fatalf("%s: %d %s", what, r.Status, r.Body)
		}
		return r
	}
	created := call(admin, "POST", "/portal/create_url/"+d, `{"portal":{"name":"Site","url":"`+base+`/site.git"}}`)
	if created.Status != 200 && created.Status != 201 {
		t.Fatalf("import: %d %s", created.Status, created.Body)
	}
	var pt struct{ ID int64 }
	_ = json.Unmarshal([]byte(created.Body), &pt)
	p := d + "/" + strconv.FormatInt(pt.ID, 10)
	for _, tok := range []string{ann, bob} {
		must(call(tok, "GET", "/portal/"+p+"/open", ""), 200, "open")
	}
	etag := func(tok, name string) string {
		t.Helper()
		return must(call(tok, "GET", "/assets/"+p+"/src/"+name+"?meta=1", ""), 200, "meta "+name).Header.Get("ETag")
	}
	save := func(tok, name, data string) {
		t.Helper()
		body, _ := json.Marshal(map[string]string{"data": data})
		must(call(tok, "POST", "/assets/"+p+"/src/"+name, string(body), "If-Match", etag(tok, name)), 200, "save "+name)
	}
	commit := func(tok, message string) testkit.Reply {
		t.Helper()
		return call(tok, "POST", "/portal/"+p+"/commits", `{"message":"`+message+`"}`)
	}
	hostCommits := func() int {
		n, _ := strconv.Atoi(gitT(t, bare, "rev-list", "--count", "master"))
		return n
	}

	// --- Item 1: every write path keeps the mode.
	save(ann, "docs/v11.0.0.md", "# v11.0.0\n\nEdited.\n") // save
	items, _ := json.Marshal([]map[string]any{{"file": "hero", "type": "widget", "version": strings.Trim(etag(ann, "widgets/database/hero.json"), `"`),
		"data": map[string]any{"type": "text", "data": map[string]any{"text": "batch saved"}}}})
	got := must(call(ann, "POST", "/portal/"+p+"/batch", string(items)), 200, "batch") // batch
	if strings.Contains(got.Body, `"error"`) {
		t.Fatalf("batch: %s", got.Body)
	}
	ct, body := multipartBody(upFile{"upload.md", []byte("# uploaded\n")}, upFile{"new.md", []byte("# new\n")})
	var up struct{ Success []string }
	_ = json.Unmarshal([]byte(must(call(ann, "POST", "/assets/"+p+"/multi/src/docs", string(body), "Content-Type", ct), 200, "upload").Body), &up) // upload
	if len(up.Success) != 2 {
		t.Fatalf("upload: %+v", up)
	}
	must(call(ann, "PUT", "/assets/"+p+"/file/rename", `{"oldPath":"/docs/move.md","newPath":"/docs/moved.md"}`), 200, "move") // move
	// restore: an edit reset away, then restored from Recover discarded work
	save(ann, "docs/restore.md", "# restore\n\nKept.\n")
	must(call(ann, "PUT", "/portal/"+p+"/reset/master", ""), 200, "reset")
	var discarded []struct{ ID string }
	_ = json.Unmarshal([]byte(must(call(ann, "GET", "/workspace-discarded/"+p, ""), 200, "discarded").Body), &discarded)
	if len(discarded) != 1 {
		t.Fatalf("discarded: %+v", discarded)
	}
	// The reset dropped the other edits too: they come back with it.
	must(call(ann, "POST", "/workspace-discarded/"+p+"/"+discarded[0].ID+"/restore", ""), 200, "restore")
	// The review of a saved executable shows no mode change; a real one is shown.
	if got := must(call(ann, "GET", "/workspace-review/"+p+"?path=docs/v11.0.0.md", ""), 200, "review"); strings.Contains(got.Body, "modeChange") {
		t.Fatalf("review of a save: %s", got.Body)
	}
	annDir := filepath.Join(cfg.DataDir, "workspaces", strconv.FormatInt(ids["ann"], 10), strconv.FormatInt(pt.ID, 10))
	if err := os.Chmod(filepath.Join(annDir, "docs", "review.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	var review struct {
		ModeChange *struct{ Old, New string } `json:"modeChange"`
	}
	_ = json.Unmarshal([]byte(must(call(ann, "GET", "/workspace-review/"+p+"?path=docs/review.md", ""), 200, "review").Body), &review)
	if review.ModeChange == nil || review.ModeChange.Old != "100755" || review.ModeChange.New != "100644" {
		t.Fatalf("review of a mode change: %+v", review.ModeChange)
	}
	if err := os.Chmod(filepath.Join(annDir, "docs", "review.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := commit(ann, "Edit docs"); got.Status != 200 || strings.Contains(got.Body, "upstreamWarning") {
		t.Fatalf("commit: %d %s", got.Status, got.Body)
	}
	for name, mode := range map[string]string{
		"docs/v11.0.0.md": "100755", "widgets/database/hero.json": "100755", "docs/upload.md": "100755",
		"docs/moved.md": "100755", "docs/restore.md": "100755", "docs/review.md": "100755",
		"docs/new.md": "100644", "index.html": "100644",
	} {
		if got := hostMode(t, bare, name); got != mode {
			t.Errorf("on the host %s is %q, want %s", name, got, mode)
		}
	}
	if show := gitT(t, bare, "show", "--summary", "--format=%s", "master"); strings.Contains(show, "mode change") {
		t.Errorf("the host's commit changed a mode:\n%s", show)
	}
	for name, want := range map[string]string{"docs/v11.0.0.md": "Edited.", "docs/restore.md": "Kept.", "docs/upload.md": "uploaded", "widgets/database/hero.json": "batch saved"} {
		if !strings.Contains(gitT(t, bare, "show", "master:"+name), want) {
			t.Errorf("%s on the host lacks %q", name, want)
		}
	}

	// merge: two authors edit different keys of one executable file; the second commit is
	// merged by key and the file stays executable.
	must(call(bob, "GET", "/portal/"+p+"/open", ""), 200, "bob opens")
	must(call(ann, "GET", "/portal/"+p+"/open", ""), 200, "ann opens")
	save(ann, "locales/en.json", strings.Replace(modeEN, `"Welcome"`, `"Welcome, Ann"`, 1))
	save(bob, "locales/en.json", strings.Replace(modeEN, `"Footer"`, `"Footer by Bob"`, 1))
	must(commit(ann, "Ann edits the title"), 200, "ann commits")
	must(commit(bob, "Bob edits the footer"), 200, "bob commits (merged)")
	if en := gitT(t, bare, "show", "master:locales/en.json"); !strings.Contains(en, "Welcome, Ann") || !strings.Contains(en, "Footer by Bob") {
		t.Fatalf("merged en.json on the host: %s", en)
	}
	if got := hostMode(t, bare, "locales/en.json"); got != "100755" {
		t.Fatalf("merged en.json is %q on the host", got)
	}

	// --- Item 5: the same key, the second author keeps theirs: no commit reaches the host.
	save(ann, "locales/en.json", strings.Replace(gitT(t, bare, "show", "master:locales/en.json")+"\n", `"Privacy"`, `"Privacy (Ann)"`, 1))
	save(bob, "locales/en.json", strings.Replace(gitT(t, bare, "show", "master:locales/en.json")+"\n", `"Privacy"`, `"Privacy (Bob)"`, 1))
	must(commit(ann, "i18n A changes privacyPolicy"), 200, "ann commits")
	must(commit(bob, "i18n B changes privacyPolicy"), 409, "bob's commit conflicts")
	before := hostCommits()
	var state struct {
		Tip   string
		Files []struct {
			Path      string
			Conflicts []struct{ ID string }
		}
	}
	_ = json.Unmarshal([]byte(must(call(bob, "GET", "/workspace-conflicts/"+p, ""), 200, "conflicts").Body), &state)
	if len(state.Files) != 1 || len(state.Files[0].Conflicts) != 1 {
		t.Fatalf("conflicts: %+v", state)
	}
	choice, _ := json.Marshal(map[string]any{"tip": state.Tip, "choices": map[string]any{
		state.Files[0].Path: map[string]any{state.Files[0].Conflicts[0].ID: map[string]string{"take": "theirs"}}}})
	var answer struct {
		Committed bool
		Discarded string
		Message   string
		CommitID  string
	}
	_ = json.Unmarshal([]byte(must(call(bob, "POST", "/workspace-conflicts/"+p+"/resolve", string(choice)), 200, "resolve with theirs").Body), &answer)
	if answer.Committed || answer.Discarded == "" || !strings.Contains(answer.Message, "Nothing was left to commit") || answer.CommitID != state.Tip {
		t.Fatalf("resolve answer: %+v", answer)
	}
	if n := hostCommits(); n != before {
		t.Fatalf("the host got %d commits from keeping theirs", n-before)
	}
	if subject := gitT(t, bare, "log", "-1", "--format=%s", "master"); subject != "i18n A changes privacyPolicy" {
		t.Fatalf("the host's last commit: %q", subject)
	}
	var kept []struct{ ID, Message string }
	_ = json.Unmarshal([]byte(must(call(bob, "GET", "/workspace-discarded/"+p, ""), 200, "discarded").Body), &kept)
	if len(kept) == 0 || kept[0].ID != answer.Discarded || kept[0].Message != "i18n B changes privacyPolicy" {
		t.Fatalf("bob's discarded work: %+v", kept)
	}
	var status struct {
		Ahead   int               `json:"aheadCount"`
		Behind  int               `json:"behindCount"`
		Changes map[string]string `json:"changes"`
	}
	_ = json.Unmarshal([]byte(must(call(bob, "GET", "/portal/"+p+"/local-changes", ""), 200, "local changes").Body), &status)
	if status.Ahead != 0 || status.Behind != 0 || len(status.Changes) != 0 {
		t.Fatalf("bob's workspace after: %+v", status)
	}
}
