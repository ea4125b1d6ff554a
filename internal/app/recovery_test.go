package app

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"portalwright/internal/config"
	"portalwright/internal/loadable"
	"portalwright/internal/preview"
	"portalwright/internal/testkit"
)

// recoveryRig is the real server binary on one data dir, started again at will with a 1 s
// heartbeat and its own temp folder (the task runner's scratch root is
// <TMPDIR>/portalwright-taskrunner, passable by the build's uid).
type recoveryRig struct {
	t                 *testing.T
	bin, tmp, scratch string
	cfg               config.Config
	beat              time.Duration
}

func newRecoveryRig(t *testing.T) *recoveryRig {
	t.Helper()
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("bubblewrap is not installed")
	}
	cfg := testConfig(t)
	cfg.AdminPassword = "admin-pass"
	tmp, err := os.MkdirTemp("", "pw-recovery-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	if err := os.Chmod(tmp, 0o711); err != nil {
		t.Fatal(err)
	}
	return &recoveryRig{t: t, bin: testkit.Binary(t), tmp: tmp, scratch: filepath.Join(tmp, "portalwright-taskrunner"), cfg: cfg, beat: time.Second}
}

// serve starts the server and waits until it is ready; it is stopped (SIGINT) at the end of the
// test unless the test stopped it.
func (r *recoveryRig) serve() (*exec.Cmd, string) {
	t := r.t
	addr := freeAddr(t)
	cmd := exec.Command(r.bin, "serve", "--addr", addr, "--data-dir", r.cfg.DataDir, "--log-level", "warn", "--heartbeat", r.beat.String())
	cmd.Env = append(os.Environ(), "PORTALWRIGHT_ADMIN_PASSWORD="+r.cfg.AdminPassword, "TMPDIR="+r.tmp)
	out := &testkit.SyncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			testkit.StopProcess(cmd, 10*time.Second)
		}
		if t.Failed() {
			t.Logf("server %s output:\n%s", addr, out.String())
		}
	})
	waitReady(t, "http://"+addr)
	return cmd, "http://" + addr
}

// runs lists the task runner's run folders (one per build under way).
func (r *recoveryRig) runs() []string {
	entries, _ := os.ReadDir(r.scratch)
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "run-") {
			names = append(names, e.Name())
		}
	}
	return names
}

// slowBuild makes the Passenger Portal's build wait until a moment a few seconds away (long
// enough to stop the server in, short enough for the retries to finish soon) and commits it.
func (r *recoveryRig) slowBuild(admin *testkit.Client) (until int64) {
	t := r.t
	if res := admin.Do("GET", "/portal/1/2/open", ""); res.Status != 200 {
		t.Fatalf("open: %d %s", res.Status, res.Body)
	}
	until = time.Now().Add(5 * time.Second).UnixMilli()
	buildJS := filepath.Join(r.cfg.DataDir, "workspaces", "1", "2", "build.js")
	src, err := os.ReadFile(buildJS)
	if err != nil {
		t.Fatal(err)
	}
	wait := "'use strict';\n{ const ms = " + strconv.FormatInt(until, 10) +
		" - Date.now(); if (ms > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms); }\n"
	if err := os.WriteFile(buildJS, []byte(strings.Replace(string(src), "'use strict';\n", wait, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if res := admin.Do("POST", "/portal/1/2/commits", `{"message":"A slow build"}`); res.Status != 200 {
		t.Fatalf("commit: %d %s", res.Status, res.Body)
	}
	return until
}

// recoveryLoadable is a loadable as the tests read it.
type recoveryLoadable struct {
	ID     int64
	Status string
	Error  *struct{ ErrorTitle, ErrorMessage, ErrorCode string }
}

// generate creates a loadable of the Passenger Portal's master and starts its generation.
func (r *recoveryRig) generate(admin *testkit.Client) recoveryLoadable {
	t := r.t
	body, _ := json.Marshal(map[string]any{"name": "recovery", "partNumber": "PW-POR-NEWS", "versionPrefix": "1.0", "type": "PORTAL",
		"gitRef": "master", "copyrightData": map[string]any{"metaData": map[string]any{"accept": true}}})
	var l recoveryLoadable
	if res := admin.Do("POST", "/loadable/1/2", string(body)); res.Status != 201 || json.Unmarshal([]byte(res.Body), &l) != nil {
		t.Fatalf("create loadable: %d %s", res.Status, res.Body)
	}
	if res := admin.Do("POST", "/loadable/1/2/generate/"+itoa(l.ID), ""); res.Status != 202 {
		t.Fatalf("generate: %d %s", res.Status, res.Body)
	}
	return l
}

// loadable reads a loadable of the Passenger Portal from the list.
func (r *recoveryRig) loadable(admin *testkit.Client, id int64) recoveryLoadable {
	t := r.t
	t.Helper()
	var list []recoveryLoadable
	res := admin.Do("GET", "/loadable/1/2", "")
	if res.Status != 200 || json.Unmarshal([]byte(res.Body), &list) != nil {
		t.Fatalf("loadables: %d %s", res.Status, res.Body)
	}
	for _, l := range list {
		if l.ID == id {
			return l
		}
	}
	t.Fatalf("no loadable %d in %s", id, res.Body)
	return recoveryLoadable{}
}

// waitBuilds waits until n builds are in the sandbox, early enough to stop them while they wait.
func (r *recoveryRig) waitBuilds(n int, until int64) {
	t := r.t
	for deadline := time.Now().Add(5 * time.Second); len(r.runs()) < n; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the builds did not start: runs %v", r.runs())
		}
	}
	time.Sleep(200 * time.Millisecond)
	if time.Now().UnixMilli() > until-500 {
		t.Fatal("the builds started too late to be stopped while they wait (a very loaded machine)")
	}
}

// TestRecoveryAfterKill: a loadable generation and a locked preview build are under way (the
// Passenger Portal's build made to wait) when the server is killed with SIGKILL; a server
// started at once on the same data marks both FAILED, with the reason, within one heartbeat
// interval of being ready, and leaves no scratch copy of the dead runs; Retry (generate again,
// create the preview again) works and ends GENERATED and READY.
func TestRecoveryAfterKill(t *testing.T) {
	rig := newRecoveryRig(t)
	cfg, beat := rig.cfg, rig.beat
	first, base := rig.serve()
	admin := testkit.SignIn(t, base, "admin", "admin-pass")
	until := rig.slowBuild(admin)

	// A generation and a locked preview build, both under way.
	l := rig.generate(admin)
	var p struct {
		ID     int64
		Status string
		Error  *struct{ ErrorTitle, ErrorMessage string }
	}
	if r := admin.Do("POST", "/preview/1/2", `{"type":"PORTAL_LOCKED","branch":"master"}`); r.Status >= 300 || json.Unmarshal([]byte(r.Body), &p) != nil {
		t.Fatalf("locked preview: %d %s", r.Status, r.Body)
	}
	// Both builds are in the sandbox: two run folders in the scratch root.
	rig.waitBuilds(2, until)

	// kill -9, and a new server at once.
	if err := first.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()
	_, base = rig.serve()
	ready := time.Now()
	admin = testkit.SignIn(t, base, "admin", "admin-pass")
	loadableNow := func() { l = rig.loadable(admin, l.ID) }
	previewNow := func(id int64) {
		t.Helper()
		r := admin.Do("GET", "/preview/1/2/"+itoa(id), "")
		if r.Status != 200 || json.Unmarshal([]byte(r.Body), &p) != nil {
			t.Fatalf("preview: %d %s", r.Status, r.Body)
		}
	}
	for {
		loadableNow()
		previewNow(p.ID)
		if l.Status == "FAILED" && p.Status == "FAILED" {
			break
		}
		if time.Since(ready) > beat {
			t.Fatalf("%v after the restart: loadable %s, preview %s (want both FAILED within one heartbeat interval)", time.Since(ready), l.Status, p.Status)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if l.Error == nil || l.Error.ErrorCode != "LOADABLE_INTERRUPTED" || l.Error.ErrorMessage == "" {
		t.Fatalf("the loadable's reason: %+v", l.Error)
	}
	if p.Error == nil || !strings.Contains(p.Error.ErrorMessage, "Retry") {
		t.Fatalf("the preview's reason: %+v", p.Error)
	}
	// No scratch of the dead runs: sandbox copies, the preview's snapshot, loadable work folders.
	if left := rig.runs(); len(left) != 0 {
		t.Fatalf("scratch left in the task runner's folder: %v", left)
	}
	if _, err := os.Stat(filepath.Join(cfg.DataDir, "previews", itoa(p.ID))); !os.IsNotExist(err) {
		t.Fatalf("the failed preview's snapshot is still there: %v", err)
	}
	if m, _ := filepath.Glob(filepath.Join(cfg.DataDir, "loadables", "2", ".work-*")); len(m) != 0 {
		t.Fatalf("loadable work folders left: %v", m)
	}

	// Retry: generate again (no 409), create the preview again; both finish.
	if r := admin.Do("POST", "/loadable/1/2/generate/"+itoa(l.ID), ""); r.Status != 202 {
		t.Fatalf("generate again: %d %s", r.Status, r.Body)
	}
	failed := p.ID
	if r := admin.Do("POST", "/preview/1/2", `{"type":"PORTAL_LOCKED","branch":"master"}`); r.Status >= 300 || json.Unmarshal([]byte(r.Body), &p) != nil {
		t.Fatalf("locked preview again: %d %s", r.Status, r.Body)
	}
	if p.ID == failed {
		t.Fatal("the retry reused the failed preview")
	}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		loadableNow()
		previewNow(p.ID)
		if l.Status != "GENERATING" && p.Status != "PROGRESS" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the retries did not finish: loadable %s, preview %s", l.Status, p.Status)
		}
	}
	if l.Status != "GENERATED" || p.Status != "READY" {
		t.Fatalf("after the retries: loadable %s %+v, preview %s %+v", l.Status, l.Error, p.Status, p.Error)
	}
}

// TestLoadableAfterStop: a server stopped normally (SIGTERM) while a generation and a locked
// preview build run records them interrupted at once (LOADABLE_INTERRUPTED; the preview's
// "Retry to prepare it again") — not "context canceled" or "unknown commit" — so a server
// started again on the same data shows the reason with Retry, and Retry ends GENERATED.
func TestLoadableAfterStop(t *testing.T) {
	rig := newRecoveryRig(t)
	first, base := rig.serve()
	admin := testkit.SignIn(t, base, "admin", "admin-pass")
	until := rig.slowBuild(admin)
	l := rig.generate(admin)
	var p struct {
		ID     int64
		Status string
		Error  *struct{ ErrorTitle, ErrorMessage string }
	}
	if r := admin.Do("POST", "/preview/1/2", `{"type":"PORTAL_LOCKED","branch":"master"}`); r.Status >= 300 || json.Unmarshal([]byte(r.Body), &p) != nil {
		t.Fatalf("locked preview: %d %s", r.Status, r.Body)
	}
	rig.waitBuilds(2, until)

	if err := first.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := first.Wait(); err != nil {
		t.Fatalf("the server's stop: %v", err)
	}
	_, base = rig.serve()
	admin = testkit.SignIn(t, base, "admin", "admin-pass")
	l = rig.loadable(admin, l.ID)
	if l.Status != "FAILED" || l.Error == nil || l.Error.ErrorCode != "LOADABLE_INTERRUPTED" ||
		!strings.Contains(l.Error.ErrorMessage, "Generate it again") {
		t.Fatalf("after the stop: %s %+v", l.Status, l.Error)
	}
	// The locked preview's build was cut short too: interrupted, with Retry, not "context canceled".
	if r := admin.Do("GET", "/preview/1/2/"+itoa(p.ID), ""); r.Status != 200 || json.Unmarshal([]byte(r.Body), &p) != nil {
		t.Fatalf("preview: %d %s", r.Status, r.Body)
	}
	if p.Status != "FAILED" || p.Error == nil || !strings.Contains(p.Error.ErrorMessage, "Retry to prepare it again") {
		t.Fatalf("the locked preview after the stop: %s %+v", p.Status, p.Error)
	}
	if r := admin.Do("POST", "/loadable/1/2/generate/"+itoa(l.ID), ""); r.Status != 202 {
		t.Fatalf("generate again: %d %s", r.Status, r.Body)
	}
	for deadline := time.Now().Add(60 * time.Second); l.Status != "GENERATED"; time.Sleep(200 * time.Millisecond) {
		if l = rig.loadable(admin, l.ID); l.Status == "FAILED" || time.Now().After(deadline) {
			t.Fatalf("the retry: %s %+v", l.Status, l.Error)
		}
	}
}

// TestRecoverySweepsWhileRunning: work another instance (another host) stopped beating for
// more than two heartbeat intervals is marked FAILED by a running server's sweep, without a
// restart; work that still beats is left alone.
func TestRecoverySweepsWhileRunning(t *testing.T) {
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	cfg.Heartbeat = 200 * time.Millisecond
	srv := start(t, cfg)
	ctx := t.Context()
	db := srv.app.DB
	st := loadable.NewSQLStore(db)
	mk := func(name string) *loadable.Loadable {
		l := &loadable.Loadable{DomainID: 1, PortalID: 2, Name: name, PartNumber: "PW-SWEEP", VersionPrefix: "1.0", Type: "PORTAL",
			GitRef: "master", CommitID: strings.Repeat("c", 40), Status: loadable.Generating, CreatedBy: loadable.Person{ID: 1}, CreatedAt: time.Now()}
		if err := st.Insert(ctx, l); err != nil {
			t.Fatal(err)
		}
		return l
	}
	stopped, beating := mk("stopped"), mk("beating")
	ps := preview.NewShareStore(db)
	p := &preview.Preview{Type: preview.Locked, Status: preview.StatusProgress, DomainID: 1, PortalID: 2, UserID: 1, Branch: "master",
		CreatedAt: time.Now(), ExpiresAt: time.Now().Add(time.Hour)}
	if err := ps.Insert(ctx, p); err != nil {
		t.Fatal(err)
	}
	// On another host, last seen now: alive until its beats stop.
	if _, err := db.ExecContext(ctx, `UPDATE loadables SET owner = 'elsewhere/1.1', generated_at = ? WHERE id IN (?, ?)`, time.Now().UTC(), stopped.ID, beating.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `UPDATE previews SET owner = 'elsewhere/1.1', heartbeat_at = ? WHERE id = ?`, time.Now().UTC(), p.ID); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	for {
		_ = st.Heartbeat(ctx, beating.ID, time.Now().UTC()) // this one keeps beating
		a, _ := st.Get(ctx, 2, stopped.ID)
		b, _ := ps.Get(ctx, p.ID)
		if a != nil && b != nil && a.Status == loadable.Failed && b.Status == preview.StatusFailed {
			if a.Error == nil || a.Error.Code != "LOADABLE_INTERRUPTED" || b.Error == nil || b.Error.Message == "" {
				t.Fatalf("reasons: %+v %+v", a.Error, b.Error)
			}
			break
		}
		if time.Since(began) > 3*time.Second {
			t.Fatalf("not swept: loadable %+v, preview %+v", a, b)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if took := time.Since(began); took < 2*cfg.Heartbeat {
		t.Fatalf("swept after %v, before two heartbeat intervals", took)
	}
	if l, _ := st.Get(ctx, 2, beating.ID); l == nil || l.Status != loadable.Generating {
		t.Fatalf("a generation that beats was swept: %+v", l)
	}
}
