package app

import (
	"context"
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"portalwright/internal/check"
	"portalwright/internal/config"
	"portalwright/internal/readiness"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
)

// Release readiness over HTTP (issue 29 items 2-4, docs/readiness.md): the report of a
// starter portal, a broken link saved by one author reaching the other's socket and "others",
// a one-file save re-reading one file, ignore and undo, the settings and their version, the
// commit report's cache, and the approval gate.
func TestReadiness(t *testing.T) { readinessSuite(t, testConfig(t)) }

func TestReadinessPostgres(t *testing.T) {
	cfg := testConfig(t)
	cfg.DatabaseURL = storetest.PostgresURL(t) // skips without TEST_DATABASE_URL
	readinessSuite(t, cfg)
}

type readinessReport struct {
	Source     string                 `json:"source"`
	Branch     string                 `json:"branch"`
	CommitID   string                 `json:"commitId"`
	Findings   []check.Finding        `json:"findings"`
	Ignored    []check.IgnoredFinding `json:"ignored"`
	Summary    check.Summary          `json:"summary"`
	CheckedAt  time.Time              `json:"checkedAt"`
	DurationMs *int64                 `json:"durationMs"`
}

func (r readinessReport) find(rule, path string) *check.Finding {
	for i, f := range r.Findings {
		if f.Rule == rule && f.Path == path {
			return &r.Findings[i]
		}
	}
	return nil
}

// readinessEvent waits on conn for READINESS_CHANGED of user with a finding of rule in added.
func readinessEvent(t *testing.T, conn *websocket.Conn, userID int64, rule string) readiness.Event {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		m := readJSON(t, conn)
		if m["title"] != readiness.EventChanged {
			continue
		}
		raw, _ := json.Marshal(m["data"])
		var ev readiness.Event
		_ = json.Unmarshal(raw, &ev)
		if ev.User.ID != userID {
			continue
		}
		for _, f := range ev.Added {
			if f.Rule == rule {
				return ev
			}
		}
	}
	t.Fatalf("no %s for user %d with %s added", readiness.EventChanged, userID, rule)
	return readiness.Event{}
}

func readinessSuite(t *testing.T, cfg config.Config) {
	w, srv := startTwoAuthors(t, cfg)
	bob := testkit.SignIn(t, srv.base, "bob", "bob-pass-1") // bob's socket; his earlier session ends
	w.bob = bob.Token
	w.open(w.ann)
	w.open(w.bob)
	svc := srv.app.readiness
	report := func(token, path string) readinessReport {
		t.Helper()
		var rep readinessReport
		w.must(w.call(token, "GET", path, ""), 200, "GET "+path).JSON(t, &rep)
		return rep
	}

	t.Run("a starter portal as shipped has no errors", func(t *testing.T) {
		w.t = t
		rep := report(w.ann, "/readiness/1/1")
		if rep.Source != "workspace" || rep.Branch != "master" || len(rep.CommitID) != 40 || rep.Summary.Errors != 0 || rep.Summary.Files < 10 ||
			rep.CheckedAt.IsZero() || rep.DurationMs == nil || rep.Findings == nil || rep.Ignored == nil {
			t.Fatalf("report: %+v", rep)
		}
		if st, full := svc.LastRefresh(w.annID, 1); !full || !st.Full || st.Reads < 10 {
			t.Fatalf("the first check reads the tree (opening a workspace without changes does not): %+v", st)
		}
	})

	conn := joinPortalRoom(t, srv.base, bob, 1)
	const page = "pages/about.html"
	var broken check.Finding
	t.Run("a broken link saved reaches the other author, re-reading one file", func(t *testing.T) {
		w.t = t
		r := w.must(w.call(w.ann, "GET", "/assets/1/1/src/"+page, ""), 200, "read page")
		html := strings.Replace(r.Body, "</article>", `  <p><a href="#/no-such-page">Gone</a></p>`+"\n</article>", 1)
		body, _ := json.Marshal(map[string]string{"data": html})
		saved := time.Now()
		w.must(w.call(w.ann, "POST", "/assets/1/1/src/"+page, string(body), "If-Match", r.Header.Get("ETag")), 200, "save page")
		ev := readinessEvent(t, conn, w.annID, check.RuleLinkPageMissing)
		t.Logf("READINESS_CHANGED reached the other author %v after the save", time.Since(saved).Round(time.Millisecond))
		if ev.PortalID != 1 || ev.DomainID != 1 || ev.Branch != "master" || ev.User.UserName != "ann" || ev.Summary.Errors < 1 ||
			len(ev.Findings) == 0 || ev.Findings[0].Path != page {
			t.Fatalf("event: %+v", ev)
		}
		st, _ := svc.LastRefresh(w.annID, 1)
		if st.Full || st.Listed || !slices.Equal(st.Changed, []string{page}) || st.Reads != 1 {
			t.Fatalf("a one-file save must re-read that file only, without listing the tree: %+v", st)
		}
		t.Logf("incremental check after a one-file save: %v", st.Took)
		rep := report(w.ann, "/readiness/1/1")
		f := rep.find(check.RuleLinkPageMissing, page)
		if f == nil || f.Target != "no-such-page" || f.Severity != check.Error {
			t.Fatalf("the link is not reported: %+v", rep.Findings)
		}
		broken = *f
		one := report(w.ann, "/readiness/1/1?path=/"+page)
		if len(one.Findings) != 1 || one.Summary.Errors != 1 || one.Summary.Files != 1 {
			t.Fatalf("?path keeps one file: %+v", one)
		}
		if bobs := report(w.bob, "/readiness/1/1"); bobs.find(check.RuleLinkPageMissing, page) != nil {
			t.Fatal("bob's workspace does not have ann's change")
		}
		var others []readiness.Others
		w.must(w.call(w.bob, "GET", "/readiness/1/1/others", ""), 200, "others").JSON(t, &others)
		if len(others) != 1 || others[0].User.ID != w.annID || others[0].User.FirstName != "Ann" || len(others[0].Findings) != 1 ||
			others[0].Findings[0].ID != broken.ID || others[0].Summary.Errors != 1 {
			t.Fatalf("others: %+v", others)
		}
		var mine []readiness.Others
		w.must(w.call(w.ann, "GET", "/readiness/1/1/others", ""), 200, "others").JSON(t, &mine)
		if len(mine) != 0 {
			t.Fatalf("bob has no changes with findings: %+v", mine)
		}
	})

	t.Run("ignore with a reason, then undo", func(t *testing.T) {
		w.t = t
		ignore := func(id, reason string) testkit.Reply {
			b, _ := json.Marshal(map[string]string{"findingId": id, "reason": reason})
			return w.call(w.ann, "POST", "/readiness/1/1/ignore", string(b))
		}
		for _, bad := range []struct {
			r    testkit.Reply
			want int
			msg  string
		}{
			{ignore(broken.ID, "   "), 400, "A reason is required to ignore a finding."},
			{ignore(broken.ID, strings.Repeat("é", 501)), 400, "The reason is longer than 500 characters."},
			{ignore("0123456789abcdef", "why not"), 404, "The finding 0123456789abcdef is no longer reported."},
		} {
			if bad.r.Status != bad.want || bad.r.Message != bad.msg {
				t.Fatalf("bad ignore: %d %s", bad.r.Status, bad.r.Body)
			}
		}
		if r := w.call(w.ann, "GET", "/assets/1/1/src/readiness.json", ""); r.Status != 404 {
			t.Fatalf("a refused ignore writes nothing: %d %s", r.Status, r.Body)
		}
		var rep readinessReport
		w.must(ignore(broken.ID, "  The page comes with the next release.  "), 200, "ignore").JSON(t, &rep)
		if rep.find(check.RuleLinkPageMissing, page) != nil || len(rep.Ignored) != 1 || rep.Ignored[0].ID != broken.ID ||
			rep.Ignored[0].Reason != "The page comes with the next release." || rep.Ignored[0].By != "ann" || rep.Summary.Ignored != 1 {
			t.Fatalf("after the ignore: %+v", rep)
		}
		file := w.must(w.call(w.ann, "GET", "/assets/1/1/src/readiness.json", ""), 200, "readiness.json").Body
		if !strings.Contains(file, "\n  \"ignored\": [\n    {\n      \"id\": \""+broken.ID+"\"") {
			t.Fatalf("readiness.json: %s", file)
		}
		var changes struct {
			Changes map[string]string `json:"changes"`
		}
		w.must(w.call(w.ann, "GET", "/portal/1/1/local-changes", ""), 200, "local changes").JSON(t, &changes)
		if changes.Changes[check.ConfigFile] != "ADD" {
			t.Fatalf("readiness.json is a local change: %+v", changes)
		}
		w.must(w.call(w.ann, "DELETE", "/readiness/1/1/ignore/"+broken.ID, ""), 200, "unignore").JSON(t, &rep)
		if rep.find(check.RuleLinkPageMissing, page) == nil || len(rep.Ignored) != 0 {
			t.Fatalf("after the undo: %+v", rep)
		}
		if r := w.call(w.ann, "DELETE", "/readiness/1/1/ignore/"+broken.ID, ""); r.Status != 404 || r.Code != "IGNORE_NOT_FOUND" {
			t.Fatalf("undo twice: %d %s", r.Status, r.Body)
		}
	})

	t.Run("settings: gate and budgets, all or nothing, at a version", func(t *testing.T) {
		w.t = t
		var set readiness.Settings
		w.must(w.call(w.ann, "GET", "/readiness/1/1/settings", ""), 200, "settings").JSON(t, &set)
		if !set.Gate || len(set.LengthBudgets) != 0 || set.SizeBudgetBytes != 0 || set.Version == "" || set.Version == "0" {
			t.Fatalf("a new portal's settings: %+v", set)
		}
		put := func(body string) testkit.Reply { return w.call(w.ann, "PUT", "/readiness/1/1/settings", body) }
		for _, bad := range []struct {
			body, code string
			status     int
		}{
			{`{"gate":false,"lengthBudgets":[{"pattern":"TXT_*","maxChars":40}],"sizeBudgetBytes":0,"version":"stale"}`, "FILE_CHANGED", 409},
			{`{"gate":false,"lengthBudgets":[{"pattern":"TXT_[","maxChars":40}],"sizeBudgetBytes":0,"version":"` + set.Version + `"}`, "VALIDATION_ERROR", 400},
			{`{"gate":false,"lengthBudgets":[{"pattern":"TXT_*","maxChars":0}],"sizeBudgetBytes":0,"version":"` + set.Version + `"}`, "VALIDATION_ERROR", 400},
			{`{"gate":false,"lengthBudgets":[],"sizeBudgetBytes":-1,"version":"` + set.Version + `"}`, "VALIDATION_ERROR", 400},
		} {
			if r := put(bad.body); r.Status != bad.status || (bad.code != "VALIDATION_ERROR" && r.Code != bad.code) {
				t.Fatalf("bad settings %s: %d %s", bad.body, r.Status, r.Body)
			}
		}
		var after readiness.Settings
		w.must(w.call(w.ann, "GET", "/readiness/1/1/settings", ""), 200, "settings").JSON(t, &after)
		if !after.Gate || after.Version != set.Version {
			t.Fatalf("refused settings changed something: %+v", after)
		}
		w.must(put(`{"gate":false,"lengthBudgets":[{"pattern":" TXT_SEAT_* ","maxChars":40}],"sizeBudgetBytes":5000000,"version":"`+set.Version+`"}`),
			200, "save settings").JSON(t, &after)
		if after.Gate || len(after.LengthBudgets) != 1 || after.LengthBudgets[0].Pattern != "TXT_SEAT_*" || after.SizeBudgetBytes != 5000000 || after.Version == set.Version {
			t.Fatalf("saved settings: %+v", after)
		}
		file := w.must(w.call(w.ann, "GET", "/assets/1/1/src/readiness.json", ""), 200, "readiness.json").Body
		if !strings.Contains(file, `"sizeBudgetBytes": 5000000`) || !strings.Contains(file, `"pattern": "TXT_SEAT_*"`) {
			t.Fatalf("readiness.json: %s", file)
		}
		var n int
		if err := srv.app.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM audit_log WHERE action = ? AND entity_id = ?`,
			readiness.ActionGateChanged, "1").Scan(&n); err != nil || n != 1 {
			t.Fatalf("audit of the gate: %d %v", n, err)
		}
		w.must(put(`{"gate":true,"lengthBudgets":[],"sizeBudgetBytes":0,"version":"`+after.Version+`"}`), 200, "gate back on")
	})

	t.Run("a commit's report is cached by its id", func(t *testing.T) {
		w.t = t
		head := report(w.ann, "/readiness/1/1").CommitID
		for _, bad := range []string{"master", strings.Repeat("0", 40), head[:12]} {
			if r := w.call(w.ann, "GET", "/readiness/1/1/commit/"+bad, ""); r.Status != 404 || r.Code != "UNKNOWN_COMMIT" {
				t.Fatalf("commit %s: %d %s", bad, r.Status, r.Body)
			}
		}
		runs := svc.CommitRuns()
		var wg sync.WaitGroup
		reps := make([]readinessReport, 4)
		for i := range reps {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := testkit.Call(t, "GET", srv.base+"/api/v1/readiness/1/1/commit/"+head, w.bob, "")
				_ = json.Unmarshal([]byte(r.Body), &reps[i])
			}()
		}
		wg.Wait()
		again := report(w.ann, "/readiness/1/1/commit/"+head)
		if svc.CommitRuns() != runs+1 {
			t.Fatalf("the commit was checked %d times", svc.CommitRuns()-runs)
		}
		for _, rep := range append(reps, again) {
			if rep.Source != "commit" || rep.CommitID != head || rep.Summary.Errors != 0 || !rep.CheckedAt.Equal(again.CheckedAt) {
				t.Fatalf("commit report: %+v", rep)
			}
		}
	})

	t.Run("a commit moves the workspace: checked again in full, nothing left for others", func(t *testing.T) {
		w.t = t
		before := report(w.ann, "/readiness/1/1").CommitID
		w.must(w.commit(w.ann, "A link to a page to come"), 200, "commit")
		deadline := time.Now().Add(10 * time.Second)
		for {
			var others []readiness.Others
			w.must(w.call(w.bob, "GET", "/readiness/1/1/others", ""), 200, "others").JSON(t, &others)
			if len(others) == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("ann has nothing uncommitted: %+v", others)
			}
			time.Sleep(20 * time.Millisecond)
		}
		rep := report(w.ann, "/readiness/1/1")
		if rep.CommitID == before || rep.find(check.RuleLinkPageMissing, page) == nil {
			t.Fatalf("after the commit: %s %+v", rep.CommitID, rep.Findings)
		}
		if st, _ := svc.LastRefresh(w.annID, 1); !st.Listed {
			t.Fatalf("git moved the workspace: the tree is listed again: %+v", st)
		}
		committed := report(w.ann, "/readiness/1/1/commit/"+rep.CommitID)
		if committed.find(check.RuleLinkPageMissing, page) == nil || committed.Summary.Errors != rep.Summary.Errors {
			t.Fatalf("the commit's report: %+v", committed)
		}
	})

	t.Run("the approval gate", func(t *testing.T) {
		w.t = t
		if _, err := exec.LookPath("bwrap"); err != nil {
			t.Skip("bwrap is not installed: the passenger portal's loadables build in the sandbox")
		}
		approvalGate(t, w, srv)
	})
}

// approvalGate: on the demo's Passenger Portal (created with the gate on), a commit with a
// missing image in a style sheet; its loadable's approval is refused, then allowed with a reason (kept on the
// loadable and in the audit history); with the gate off it is approved as before.
func approvalGate(t *testing.T, w *twoAuthors, srv *running) {
	const base = "/loadable/1/2"
	w.must(w.call(w.ann, "GET", "/portal/1/2/open", ""), 200, "open")
	// The portal's build checks its content's images, not a style sheet's: the build passes
	// and readiness finds the missing image.
	css, _ := json.Marshal(map[string]string{"data": "body { background: url(../img/nowhere.png); }\n"})
	w.must(w.call(w.ann, "POST", "/assets/1/2/src/assets/css/extra.css", string(css), "If-Match", "0"), 200, "save")
	w.must(w.call(w.ann, "POST", "/portal/1/2/commits", `{"message":"A missing image"}`), 200, "commit")

	generated := func(name string) loadableView {
		t.Helper()
		b, _ := json.Marshal(map[string]any{"name": name, "partNumber": "PW-POR-NEWS", "versionPrefix": "1.0", "type": "PORTAL",
			"gitRef": "master", "copyrightData": map[string]any{"metaData": map[string]any{"accept": true}}})
		var l loadableView
		w.must(w.call(w.ann, "POST", base, string(b)), 201, "create").JSON(t, &l)
		w.must(w.call(w.ann, "POST", base+"/generate/"+itoa(l.ID), ""), 202, "generate")
		for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			var list []loadableView
			w.call(w.ann, "GET", base, "").JSON(t, &list)
			for _, x := range list {
				if x.ID == l.ID && x.Status != "GENERATING" && x.Status != "PENDING" {
					if x.Status != "GENERATED" {
						t.Fatalf("generation: %+v %+v", x, x.Error)
					}
					return x
				}
			}
		}
		t.Fatal("generation did not finish")
		return l
	}
	one, two := generated("gated"), generated("ungated")

	approve := func(id int64, body string) testkit.Reply {
		return w.call(w.ann, "POST", base+"/approve/"+itoa(id), body)
	}
	refused := approve(one.ID, "")
	var refusal struct {
		Data struct {
			Summary check.Summary `json:"summary"`
		} `json:"data"`
	}
	refused.JSON(t, &refusal)
	if refused.Status != 409 || refused.Code != "READINESS_ERRORS" || refusal.Data.Summary.Errors < 1 ||
		!strings.HasPrefix(refused.Message, "The commit of this loadable has ") ||
		!strings.HasSuffix(refused.Message, " readiness error(s). Fix them, or approve with a reason to override the check.") {
		t.Fatalf("approval with errors: %d %s", refused.Status, refused.Body)
	}
	errs := refusal.Data.Summary.Errors
	if r := approve(one.ID, `{"overrideReason":"   "}`); r.Status != 409 || r.Code != "READINESS_ERRORS" {
		t.Fatalf("a blank reason: %d %s", r.Status, r.Body)
	}
	if r := approve(one.ID, `{"overrideReason":"`+strings.Repeat("x", 1001)+`"}`); r.Status != 400 {
		t.Fatalf("a long reason: %d %s", r.Status, r.Body)
	}
	var approved struct {
		Status           string `json:"status"`
		ApprovalOverride *struct {
			Reason string `json:"reason"`
			Errors int    `json:"errors"`
		} `json:"approvalOverride"`
	}
	w.must(approve(one.ID, `{"overrideReason":"The image ships with the next content drop."}`), 200, "approve over the gate").JSON(t, &approved)
	if approved.Status != "APPROVED" || approved.ApprovalOverride == nil || approved.ApprovalOverride.Reason != "The image ships with the next content drop." ||
		approved.ApprovalOverride.Errors != errs {
		t.Fatalf("approved over the gate: %+v", approved)
	}
	var details string
	if err := srv.app.DB.QueryRowContext(context.Background(), `SELECT details FROM audit_log WHERE action = ? AND entity_id = ?`,
		"LOADABLE_APPROVED_OVER_READINESS", itoa(one.ID)).Scan(&details); err != nil || !strings.Contains(details, "The image ships with the next content drop.") {
		t.Fatalf("audit: %q %v", details, err)
	}

	var set readiness.Settings
	w.must(w.call(w.ann, "GET", "/readiness/1/2/settings", ""), 200, "settings").JSON(t, &set)
	set.Gate = false
	b, _ := json.Marshal(set)
	w.must(w.call(w.ann, "PUT", "/readiness/1/2/settings", string(b)), 200, "gate off")
	w.must(approve(two.ID, ""), 200, "approve without the gate").JSON(t, &approved)
	if approved.Status != "APPROVED" || approved.ApprovalOverride != nil {
		t.Fatalf("approved without the gate: %+v", approved)
	}
}
