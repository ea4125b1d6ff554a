package app

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"portalwright/internal/config"
	"portalwright/internal/store/storetest"
	"portalwright/internal/taskrunner"
	"portalwright/internal/testkit"
)

func TestTaskRunner(t *testing.T) { taskRunnerSuite(t, testConfig(t)) }

func TestTaskRunnerPostgres(t *testing.T) {
	cfg := testConfig(t)
	cfg.DatabaseURL = storetest.PostgresURL(t) // skips without TEST_DATABASE_URL
	taskRunnerSuite(t, cfg)
}

type trState struct {
	Phase        string     `json:"phase"`
	LastRunDate  *time.Time `json:"lastRunDate"`
	Output       string     `json:"output"`
	LintWarnings []struct {
		Rule, Message, URL string
		Line               int
	} `json:"lintWarnings"`
	Error *struct {
		ErrorTitle   string `json:"errorTitle"`
		ErrorMessage string `json:"errorMessage"`
	} `json:"error"`
}

// taskRunnerSuite walks the workspace build calls over HTTP on the demo Passenger Portal
// (portal 2 of domain 1, UNIVERSAL, its task runner active in the starter's portal.json), with
// the real bubblewrap sandbox, then restarts the server over a stored RUNNING state.
func taskRunnerSuite(t *testing.T, cfg config.Config) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("bwrap is not installed (Debian: apt-get install bubblewrap)")
	}
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	admin := testkit.SignIn(t, srv.base, "admin", "admin-pass")
	const p = "/workspace-build/1/2"
	get := func(path string) testkit.Reply { t.Helper(); return admin.Do("GET", p+path, "") }
	state := func() trState {
		t.Helper()
		r := get("/state")
		if r.Status != 200 {
			t.Fatalf("state: %d %s", r.Status, r.Body)
		}
		var st trState
		r.JSON(t, &st)
		return st
	}
	settle := func() trState { // polls until no run is under way
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			st := state()
			if st.Phase != "VALIDATING" && st.Phase != "RUNNING" {
				return st
			}
			if time.Now().After(deadline) {
				t.Fatalf("still %s", st.Phase)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}

	// Before the portal is opened there is no workspace to build.
	if r := get("/state"); r.Status != 409 || !strings.Contains(r.Body, "GIT_INVALID_WORKSPACE") {
		t.Fatalf("state without a workspace: %d %s", r.Status, r.Body)
	}
	if r := admin.Do("GET", "/portal/1/2/open", ""); r.Status != 200 {
		t.Fatalf("open: %d %s", r.Status, r.Body)
	}
	wsDir := filepath.Join(cfg.DataDir, "workspaces", "1", "2")
	if st := state(); st.Phase != "UNINITIATED" {
		t.Fatalf("first state %+v", st)
	}

	// The admin's room gets every state change.
	var tk struct{ Ticket string }
	admin.Do("POST", "/ws/ticket", "").JSON(t, &tk)
	ctx := context.Background()
	dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(dctx, "ws"+strings.TrimPrefix(srv.base, "http")+"/api/v1/ws?ticket="+tk.Ticket, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	conn.Write(ctx, websocket.MessageText, []byte(`{"type":"join","room":"user-1","ack":1}`))
	conn.Write(ctx, websocket.MessageText, []byte(`{"type":"join","room":"portal-2","ack":2}`))
	for acks := 0; acks < 2; {
		m := readJSON(t, conn)
		if _, ok := m["ack"]; ok {
			if m["ok"] != true {
				t.Fatalf("join refused: %v", m)
			}
			acks++
		}
	}

	// Templates.
	var tpls []struct{ Name, Description, DockerFileContent string }
	if r := get("/templates"); r.Status != 200 {
		t.Fatalf("templates: %d", r.Status)
	} else {
		r.JSON(t, &tpls)
	}
	if len(tpls) == 0 || tpls[0].Name != "node-build" || !strings.Contains(tpls[0].DockerFileContent, "RUN node build.js") {
		t.Fatalf("templates %+v", tpls)
	}
	if r := get("/dockerfile/node-build"); r.Status != 200 || r.Body != tpls[0].DockerFileContent || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("dockerfile: %d %s", r.Status, r.Body)
	}
	if r := get("/dockerfile/nope"); r.Status != 404 || !strings.Contains(r.Body, "DOCKERFILE_TEMPLATE_NOT_FOUND") {
		t.Fatalf("unknown dockerfile: %d %s", r.Status, r.Body)
	}

	// Build: VALIDATING → RUNNING → STABLE, the output in the workspace.
	if r := admin.Do("PUT", p+"/build", ""); r.Status != 200 || !strings.Contains(r.Body, `"phase"`) {
		t.Fatalf("build: %d %s", r.Status, r.Body)
	}
	st := settle()
	if st.Phase != "STABLE" || st.LastRunDate == nil || st.Error != nil {
		t.Fatalf("after build %+v", st)
	}
	for _, f := range []string{"index.html", "en_GB/index.html", "de_DE/data.json"} {
		if _, err := os.Stat(filepath.Join(wsDir, "pw-dist", f)); err != nil {
			t.Fatalf("output %s: %v", f, err)
		}
	}
	if r := get("/output"); r.Status != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/plain") || !strings.Contains(r.Body, "built pw-dist/") {
		t.Fatalf("output: %d %s %s", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
	// The messages: user and portal rooms, RUNNING then STABLE, with the ids.
	seen := map[string]bool{}
	deadline := time.Now().Add(10 * time.Second)
	for !(seen["user-1 STABLE"] && seen["portal-2 STABLE"] && seen["user-1 RUNNING"]) && time.Now().Before(deadline) {
		m := readJSON(t, conn)
		if m["title"] != taskrunner.EventState {
			continue
		}
		data := m["data"].(map[string]any)
		if data["domainId"] != 1.0 || data["portalId"] != 2.0 || data["userId"] != 1.0 || m["messageType"] != "NOTIFICATION" {
			t.Fatalf("message %v", m)
		}
		seen[m["room"].(string)+" "+data["state"].(map[string]any)["phase"].(string)] = true
	}
	if !seen["user-1 STABLE"] || !seen["portal-2 STABLE"] || !seen["user-1 RUNNING"] {
		t.Fatalf("messages seen: %v", seen)
	}

	// A content change through the asset API makes it STALE; the output folder is not content.
	meta := admin.Do("GET", "/assets/1/2/src/content/en_GB/menu.json?meta=1", "")
	menu, err := os.ReadFile(filepath.Join(wsDir, "content", "en_GB", "menu.json"))
	if err != nil || meta.Status != 200 {
		t.Fatalf("menu: %v %d", err, meta.Status)
	}
	edited := strings.Replace(string(menu), `"Freshly brewed."`, `"Freshly brewed, twice."`, 1)
	body, _ := json.Marshal(map[string]string{"data": edited})
	if r := admin.Do("POST", "/assets/1/2/src/content/en_GB/menu.json", string(body), "If-Match", meta.ETag()); r.Status != 200 {
		t.Fatalf("save menu: %d %s", r.Status, r.Body)
	}
	if st := state(); st.Phase != "STALE" {
		t.Fatalf("after a content change: %s", st.Phase)
	}

	// Lint: the settings' Dockerfile, BuildKit's rules.
	portalJSON := filepath.Join(wsDir, "portal.json")
	original, err := os.ReadFile(portalJSON)
	if err != nil {
		t.Fatal(err)
	}
	withSettings := func(s taskrunner.Settings) {
		t.Helper()
		var doc map[string]any
		if err := json.Unmarshal(original, &doc); err != nil {
			t.Fatal(err)
		}
		doc["taskRunnerSettings"] = s
		data, _ := json.MarshalIndent(doc, "", "  ")
		if err := os.WriteFile(portalJSON, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if r := get("/lint"); r.Status != 200 || strings.TrimSpace(r.Body) != "[]" {
		t.Fatalf("lint of the default template: %d %s", r.Status, r.Body)
	}
	withSettings(taskrunner.Settings{Active: true, Extensions: []string{"json"}, OutputPath: "pw-dist",
		DockerFileContent: "FROM node:20 as Build\nMAINTAINER someone\nWORKDIR /workspace\nCOPY . .\nRUN echo boom && exit 3\n"})
	var warnings []struct{ Rule, Message, URL string }
	if r := get("/lint"); r.Status != 200 {
		t.Fatalf("lint: %d %s", r.Status, r.Body)
	} else {
		r.JSON(t, &warnings)
	}
	rules := ""
	for _, w := range warnings {
		rules += w.Rule + ","
	}
	if !strings.Contains(rules, "MaintainerDeprecated") || !strings.Contains(rules, "StageNameCasing") {
		t.Fatalf("lint warnings %+v", warnings)
	}

	// A failing build: UNSTABLE with its output and error; the last good output stays.
	admin.Do("PUT", p+"/build", "")
	st = settle()
	if st.Phase != "UNSTABLE" || st.Error == nil || !strings.Contains(st.Output, "boom") || len(st.LintWarnings) == 0 {
		t.Fatalf("failing build %+v", st)
	}
	if r := get("/output"); !strings.Contains(r.Body, "boom") {
		t.Fatalf("output of the failed run: %s", r.Body)
	}
	if _, err := os.Stat(filepath.Join(wsDir, "pw-dist", "index.html")); err != nil {
		t.Fatal("a failed run removed the last good output")
	}

	// Clear removes the output.
	if r := admin.Do("POST", p+"/clear", ""); r.Status != 200 || !strings.Contains(r.Body, `"UNINITIATED"`) {
		t.Fatalf("clear: %d %s", r.Status, r.Body)
	}
	if _, err := os.Stat(filepath.Join(wsDir, "pw-dist")); !os.IsNotExist(err) {
		t.Fatalf("clear left the output: %v", err)
	}

	// Inactive settings: INACTIVE, and a build runs nothing.
	withSettings(taskrunner.Settings{Active: false, Extensions: []string{"json"}})
	if st := state(); st.Phase != "INACTIVE" {
		t.Fatalf("inactive: %s", st.Phase)
	}
	if r := admin.Do("PUT", p+"/build", ""); r.Status != 200 || !strings.Contains(r.Body, `"INACTIVE"`) {
		t.Fatalf("inactive build: %d %s", r.Status, r.Body)
	}
	if err := os.WriteFile(portalJSON, original, 0o644); err != nil {
		t.Fatal(err)
	}
	if st := state(); st.Phase != "UNINITIATED" {
		t.Fatalf("active again: %s", st.Phase)
	}

	// A restart over a state saved RUNNING (a run the old server did not finish): it comes
	// back STALE with the restart noted, never RUNNING.
	if err := srv.stop(); err != nil {
		t.Fatal(err)
	}
	db, err := OpenStore(ctx, cfg, srv.app.Log)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if err := taskrunner.NewSQLStore(db).Save(ctx, taskrunner.Key{UserID: 1, PortalID: 2},
		taskrunner.State{Phase: taskrunner.Running, LastRunDate: &now, Output: "step 1/1\n"}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	srv = start(t, cfg)
	admin = testkit.SignIn(t, srv.base, "admin", "admin-pass")
	st = state()
	if st.Phase != "STALE" || st.Error == nil || st.Error.ErrorTitle != "Task run interrupted" || !strings.Contains(st.Output, "restarted") {
		t.Fatalf("after a restart %+v", st)
	}
	// And it runs again.
	admin.Do("PUT", p+"/build", "")
	if st := settle(); st.Phase != "STABLE" {
		t.Fatalf("build after the restart %+v", st)
	}
}

// TestTaskRunnerWithoutSandbox: a server on which no sandbox can start still starts; the
// runner's calls answer 503 with the reason, the templates are served.
func TestTaskRunnerWithoutSandbox(t *testing.T) {
	saved := newSandbox
	newSandbox = func(context.Context, taskrunner.Limits) (taskrunner.Sandbox, error) {
		return nil, errors.New("the task runner needs bubblewrap (on Debian: apt-get install bubblewrap)")
	}
	t.Cleanup(func() { newSandbox = saved })
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	admin := testkit.SignIn(t, srv.base, "admin", "admin-pass")
	admin.Do("GET", "/portal/1/2/open", "")
	for _, c := range [][2]string{{"GET", "/state"}, {"PUT", "/build"}, {"GET", "/lint"}, {"POST", "/clear"}, {"GET", "/output"}} {
		r := admin.Do(c[0], "/workspace-build/1/2"+c[1], "")
		if r.Status != 503 || !strings.Contains(r.Body, "Task runner is unavailable: the task runner needs bubblewrap") || !strings.Contains(r.Body, "TASK_RUNNER_UNAVAILABLE") {
			t.Fatalf("%s %s: %d %s", c[0], c[1], r.Status, r.Body)
		}
	}
	if r := admin.Do("GET", "/workspace-build/1/2/templates", ""); r.Status != 200 {
		t.Fatalf("templates: %d", r.Status)
	}
	// The portal is checked first: another domain's portal is 404, not 503.
	if r := admin.Do("GET", "/workspace-build/1/99/state", ""); r.Status != 404 {
		t.Fatalf("unknown portal: %d", r.Status)
	}
}
