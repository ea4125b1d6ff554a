package backup_test

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"portalwright/internal/store"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
)

// TestBackupDrill is the restore drill of issue 34, on the real binary: authors keep committing,
// uploading and generating loadables while `backup --include-workspaces` runs; the backup is
// verified and restored into a new data directory (and, on PostgreSQL, a new database); the
// restored server has every commit, upload and loadable acknowledged before the backup started,
// every repository passes `git fsck`, every author signs in and opens their portals, and an
// author's uncommitted work is back as uncommitted changes. SQLite writes a .tar.gz, PostgreSQL
// (TEST_DATABASE_URL) a folder.
func TestBackupDrill(t *testing.T) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("bubblewrap is not installed (loadables are built in its sandbox)")
	}
	t.Run("sqlite", func(t *testing.T) { drill(t, "", "backup.tar.gz") })
	t.Run("postgres", func(t *testing.T) { drill(t, storetest.PostgresURL(t), "backup") })
}

// ack is something the server acknowledged: a commit, a file written or uploaded, a loadable
// generated.
type ack struct {
	at                 time.Time
	user               string
	portal             int64
	commit             string // a commit on master
	path, sum          string // a file of the author's workspace and its SHA-256
	loadable           int64  // a generated loadable and its package's SHA-256
	loadableName, lsum string
}

type drillRig struct {
	t        *testing.T
	bin, tmp string
	dbURL    string
	mu       sync.Mutex
	acks     []ack
	errs     []string
}

func (r *drillRig) record(a ack) {
	r.mu.Lock()
	defer r.mu.Unlock()
	a.at = time.Now()
	r.acks = append(r.acks, a)
}

func (r *drillRig) fail(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func drill(t *testing.T, dbURL, target string) {
	rig := &drillRig{t: t, bin: testkit.Binary(t), dbURL: dbURL}
	// The task runner's scratch root must be passable by the builds' uid (recovery_test.go).
	tmp, err := os.MkdirTemp("", "pw-drill-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	if err := os.Chmod(tmp, 0o711); err != nil {
		t.Fatal(err)
	}
	rig.tmp = tmp
	work := t.TempDir()
	data := filepath.Join(work, "data")
	keyFile := filepath.Join(work, "secrets.key")
	key := make([]byte, 32)
	rand.Read(key)
	if err := os.WriteFile(keyFile, []byte(base64.StdEncoding.EncodeToString(key)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dropbox := filepath.Join(work, "dropbox")
	os.MkdirAll(data, 0o750)
	os.MkdirAll(dropbox, 0o750)
	handoverJSON := `{"targets":[{"name":"unity-drill","system":"unity","kind":"directory","dir":"` + dropbox + `"}]}`
	if err := os.WriteFile(filepath.Join(data, "handover.json"), []byte(handoverJSON), 0o600); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(data, "documents", "usr"), 0o750)
	os.WriteFile(filepath.Join(data, "documents", "usr", "user-guide.html"), []byte("<h1>Guide</h1>"), 0o644)

	base, stop := rig.serve(data, dbURL, "--secrets-key-file", keyFile)
	admin := testkit.SignIn(t, base, "admin", "admin-pass")
	mustDo(t, admin, "POST", "/permissions/createGroup/1", `{"groupName":"Authors","permissions":["portal:r","portal:w","asset:r","asset:c","asset:w","asset:d","code:w","loadable:r"]}`, 200, 201)
	users := map[string]int64{}
	for _, name := range []string{"alice", "bob", "carol"} {
		out := rig.cli("user", "create", "--data-dir", data, "--database-url", dbURL, "--username", name, "--password", name+"-pass")
		m := regexp.MustCompile(`\(id (\d+)\)`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("user create %s: %s", name, out)
		}
		var id int64
		fmt.Sscan(m[1], &id)
		users[name] = id
		mustDo(t, admin, "PUT", fmt.Sprintf("/permissions/updateRoles/%d/1/Authors", id), "", 200, 204)
	}
	token := map[string]string{"admin": admin.Token}
	for _, name := range []string{"alice", "bob", "carol"} {
		token[name] = testkit.Login(t, base, name, name+"-pass")
	}
	// Who works where: alice and bob commit to the Crew Portal (1), bob to the Legacy one (3)
	// too; carol leaves uncommitted work in the Crew Portal; admin generates loadables of the
	// Passenger Portal (2).
	portals := map[string][]int64{"alice": {1}, "bob": {1, 3}, "carol": {1}, "admin": {2}}
	for name, ps := range portals {
		for _, p := range ps {
			if st, body, _, err := call("GET", base, token[name], fmt.Sprintf("/portal/1/%d/open", p), "", nil); err != nil || st != 200 {
				t.Fatalf("%s opens portal %d: %d %s %v", name, p, st, body, err)
			}
		}
	}

	// carol: a committed file, then uncommitted work: that file changed, another deleted, a
	// new text file and an uploaded image.
	for _, f := range []string{"notes/base.txt", "notes/gone.txt"} {
		rig.saveFile(base, token["carol"], "carol", 1, f, "first version of "+f, "")
	}
	if c := rig.commit(base, token["carol"], "carol", 1, "Carol notes"); c == "" {
		t.Fatalf("carol's commit: %v", rig.errs)
	}
	_, _, hdr, _ := call("GET", base, token["carol"], "/assets/1/1/src/notes/base.txt?meta=1", "", nil)
	carolWork := map[string]string{ // path → content ("" deleted)
		"notes/base.txt":  "second version, not committed",
		"notes/gone.txt":  "",
		"notes/draft.txt": "a draft carol never committed",
	}
	rig.saveFile(base, token["carol"], "carol", 1, "notes/base.txt", carolWork["notes/base.txt"], strings.Trim(hdr.Get("ETag"), `"`))
	rig.saveFile(base, token["carol"], "carol", 1, "notes/draft.txt", carolWork["notes/draft.txt"], "")
	if st, body, _, err := call("POST", base, token["carol"], "/assets/1/1/delete", `["/notes/gone.txt"]`, nil); err != nil || st != 200 || strings.Contains(string(body), `"error"`) {
		t.Fatalf("carol deletes: %d %s %v", st, body, err)
	}
	carolImage := rig.upload(base, token["carol"], "carol", 1, "drill", "carol-photo.png")
	carolWork["drill/carol-photo.png"] = carolImage
	if len(rig.errs) > 0 {
		t.Fatalf("carol's work: %v", rig.errs)
	}

	// admin: a loadable generated, approved and handed over before anything else.
	first := rig.generate(base, token["admin"], "drill-first")
	if first == 0 {
		t.Fatalf("the first loadable: %v", rig.errs)
	}
	mustDo(t, admin, "POST", fmt.Sprintf("/loadable/1/2/approve/%d", first), "", 200)
	mustDo(t, admin, "POST", fmt.Sprintf("/loadable/1/2/unity/%d", first), `{"target":"unity-drill"}`, 202)
	rig.waitDelivered(admin, first)

	// Authors at work while the backup runs.
	stopWork := make(chan struct{})
	var wg sync.WaitGroup
	rounds := map[string]int{}
	var roundsMu sync.Mutex
	work1 := func(name string, p int64, n int) {
		tag := fmt.Sprintf("%s-%d-%d", name, p, n)
		rig.saveFile(base, token[name], name, p, "drill/"+tag+".txt", "written by "+tag, "")
		rig.upload(base, token[name], name, p, "drill", tag+".png")
		rig.commit(base, token[name], name, p, "Drill "+strings.ReplaceAll(tag, "-", " "))
	}
	keepGoing := func(round func(n int)) { // a worker: rounds until stopWork
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-stopWork:
					return
				default:
					round(n)
				}
			}
		}()
	}
	for name, ps := range map[string][]int64{"alice": portals["alice"], "bob": portals["bob"]} {
		keepGoing(func(n int) {
			for _, p := range ps {
				work1(name, p, n)
			}
			roundsMu.Lock()
			rounds[name]++
			roundsMu.Unlock()
		})
	}
	keepGoing(func(n int) { rig.generate(base, token["admin"], fmt.Sprintf("drill-%d", n)) })
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(100 * time.Millisecond) {
		roundsMu.Lock()
		ready := rounds["alice"] >= 2 && rounds["bob"] >= 2
		roundsMu.Unlock()
		if ready {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the authors did not get going: %v", rig.errs)
		}
	}
	backupDir := t.TempDir()
	to := filepath.Join(backupDir, target)
	started := time.Now()
	args := []string{"backup", "--data-dir", data, "--secrets-key-file", keyFile, "--to", to, "--include-workspaces"}
	if dbURL != "" {
		args = append(args, "--database-url", dbURL)
	}
	cmd := exec.Command(rig.bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		close(stopWork)
		wg.Wait()
		t.Fatalf("backup: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	t.Logf("backup while authors work, %s:\n%s", time.Since(started).Round(time.Millisecond), stderr.String())
	for _, want := range []string{"backup: database (", "backup: repositories: 3/3", "backup: workspaces: ", "backup: backup complete: "} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("the backup's progress has no %q", want)
		}
	}
	time.Sleep(time.Second) // authors go on after it
	close(stopWork)
	wg.Wait()
	stop()
	if len(rig.errs) > 0 {
		t.Fatalf("the authors' work failed: %s", strings.Join(rig.errs, "\n"))
	}
	var before, after int
	for _, a := range rig.acks {
		if a.at.Before(started) {
			before++
		} else {
			after++
		}
	}
	t.Logf("%d acknowledgements before the backup started, %d after", before, after)

	if out := rig.cli("verify-backup", to); !strings.HasPrefix(out, "OK: ") {
		t.Fatalf("verify-backup: %s", out)
	}

	// Restore into a new data directory (and database).
	restored := filepath.Join(work, "restored")
	restoredURL := ""
	rargs := []string{"restore", "--from", to, "--data-dir", restored}
	if dbURL != "" {
		restoredURL = newDatabase(t, dbURL)
		rargs = append(rargs, "--database-url", restoredURL)
	}
	if out := rig.cli(rargs...); !strings.Contains(out, "Restored the backup of "+data) {
		t.Fatalf("restore: %s", out)
	}
	for _, f := range []string{"handover.json", "secrets.key", "ssh_host_ed25519_key", "documents/usr/user-guide.html"} {
		a, _ := os.ReadFile(filepath.Join(data, f))
		if f == "secrets.key" {
			a, _ = os.ReadFile(keyFile)
		}
		b, err := os.ReadFile(filepath.Join(restored, f))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s is not restored as it was: %v", f, err)
		}
		if fi, err := os.Stat(filepath.Join(restored, f)); err == nil && f != "documents/usr/user-guide.html" && fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", f, fi.Mode().Perm())
		}
	}
	repos, _ := filepath.Glob(filepath.Join(restored, "repos", "*.git"))
	wss, _ := filepath.Glob(filepath.Join(restored, "workspaces", "*", "*"))
	if len(repos) != 3 || len(wss) < 5 {
		t.Fatalf("restored repositories %v, workspaces %v", repos, wss)
	}
	for _, dir := range append(repos, wss...) {
		if out, err := exec.Command("git", "-C", dir, "fsck", "--no-progress").CombinedOutput(); err != nil {
			t.Errorf("git fsck %s: %v\n%s", dir, err, out)
		}
	}

	base2, stop2 := rig.serve(restored, restoredURL, "--secrets-key-file", filepath.Join(restored, "secrets.key"))
	defer stop2()
	token2 := map[string]string{}
	for _, name := range []string{"admin", "alice", "bob", "carol"} {
		token2[name] = testkit.Login(t, base2, name, name+"-pass")
		for _, p := range portals[name] {
			if st, body, _, err := call("GET", base2, token2[name], fmt.Sprintf("/portal/1/%d/open", p), "", nil); err != nil || st != 200 {
				t.Errorf("%s opens portal %d on the restored server: %d %s %v", name, p, st, body, err)
			}
		}
	}
	// Everything acknowledged before the backup started is there.
	checked := 0
	for _, a := range rig.acks {
		if !a.at.Before(started) {
			continue
		}
		checked++
		switch {
		case a.commit != "":
			repo := filepath.Join(restored, "repos", fmt.Sprintf("%d.git", a.portal))
			if out, err := exec.Command("git", "-C", repo, "merge-base", "--is-ancestor", a.commit, "refs/heads/master").CombinedOutput(); err != nil {
				t.Errorf("%s's commit %s of portal %d is not on the restored master: %v %s", a.user, a.commit, a.portal, err, out)
			}
		case a.path != "":
			st, body, _, err := call("GET", base2, token2[a.user], fmt.Sprintf("/assets/1/%d/src/%s", a.portal, a.path), "", nil)
			if err != nil || st != 200 || sum(body) != a.sum {
				t.Errorf("%s's file %s of portal %d on the restored server: %d %v", a.user, a.path, a.portal, st, err)
			}
		case a.loadable != 0:
			st, body, hdr, err := call("GET", base2, token2["admin"], "/loadable/1/2/download/"+a.loadableName, "", nil)
			if err != nil || st != 200 || sum(body) != a.lsum || hdr.Get("X-Content-SHA256") != a.lsum {
				t.Errorf("loadable %d (%s) on the restored server: %d %v", a.loadable, a.loadableName, st, err)
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d acknowledgements before the backup: the drill proves little", checked)
	}
	// carol's uncommitted work is uncommitted work again.
	var lc struct{ Changes map[string]string }
	st, body, _, _ := call("GET", base2, token2["carol"], "/portal/1/1/local-changes", "", nil)
	json.Unmarshal(body, &lc)
	want := map[string]string{"notes/base.txt": "MODIFY", "notes/gone.txt": "DELETE", "notes/draft.txt": "ADD", "drill/carol-photo.png": "ADD"}
	for p, change := range want {
		if lc.Changes[p] != change {
			t.Errorf("carol's restored local changes: %d %s, want %s %s", st, body, p, change)
		}
	}
	for p, content := range carolWork {
		st, body, _, _ := call("GET", base2, token2["carol"], "/assets/1/1/src/"+p, "", nil)
		switch {
		case content == "" && st != 404:
			t.Errorf("carol's deleted %s is back: %d", p, st)
		case content != "" && p != "drill/carol-photo.png" && string(body) != content:
			t.Errorf("carol's %s: %d %q", p, st, body)
		case p == "drill/carol-photo.png" && sum(body) != content:
			t.Errorf("carol's upload: %d", st)
		}
	}
	// The hand-over queue names the package in the new data directory.
	db := openDB(t, restored, restoredURL)
	var archive string
	if err := db.QueryRowContext(t.Context(), "SELECT archive_path FROM handover_deliveries WHERE loadable_id = ?", first).Scan(&archive); err != nil || !strings.HasPrefix(archive, filepath.Join(restored, "loadables")+"/") {
		t.Errorf("the restored delivery's archive: %q %v", archive, err)
	}
}

// serve starts the binary on a data directory and waits until it is ready.
func (r *drillRig) serve(data, dbURL string, extra ...string) (string, func()) {
	t := r.t
	addr, ssh := freeAddr(t), freeAddr(t)
	args := append([]string{"serve", "--addr", addr, "--data-dir", data, "--log-level", "warn", "--ssh-addr", ssh, "--heartbeat", "1s"}, extra...)
	if dbURL != "" {
		args = append(args, "--database-url", dbURL)
	}
	cmd := exec.Command(r.bin, args...)
	cmd.Env = append(os.Environ(), "PORTALWRIGHT_ADMIN_PASSWORD=admin-pass", "TMPDIR="+r.tmp)
	out := &testkit.SyncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	stop := func() { once.Do(func() { testkit.StopProcess(cmd, 15*time.Second) }) }
	t.Cleanup(func() {
		stop()
		if t.Failed() {
			t.Logf("server %s output:\n%s", addr, out.String())
		}
	})
	base := "http://" + addr
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return base, stop
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server on %s did not get ready:\n%s", data, out.String())
		}
	}
}

// cli runs a command of the binary that must succeed and answers its output.
func (r *drillRig) cli(args ...string) string {
	r.t.Helper()
	var clean []string
	for i := 0; i < len(args); i++ {
		if args[i] == "--database-url" && args[i+1] == "" {
			i++
			continue
		}
		clean = append(clean, args[i])
	}
	out, err := exec.Command(r.bin, clean...).CombinedOutput()
	if err != nil {
		r.t.Fatalf("portalwright %s: %v\n%s", strings.Join(clean, " "), err, out)
	}
	return string(out)
}

// saveFile writes a text file into the author's workspace (ifMatch "" for a new file).
func (r *drillRig) saveFile(base, token, user string, portal int64, path, content, ifMatch string) {
	body, _ := json.Marshal(map[string]string{"data": content})
	var hdr []string
	if ifMatch != "" {
		hdr = []string{"If-Match", `"` + ifMatch + `"`}
	}
	st, resp, _, err := call("POST", base, token, fmt.Sprintf("/assets/1/%d/src/%s", portal, path), string(body), hdr)
	if err != nil || st/100 != 2 {
		r.fail("%s saves %s: %d %s %v", user, path, st, resp, err)
		return
	}
	if user != "carol" { // carol's files change again: her work is checked as a whole
		r.record(ack{user: user, portal: portal, path: path, sum: sum([]byte(content))})
	}
}

// upload uploads a small PNG into a folder of the author's workspace; its SHA-256.
func (r *drillRig) upload(base, token, user string, portal int64, folder, name string) string {
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	var seed [4]byte
	rand.Read(seed[:])
	for i := range 16 {
		img.Set(i, i, color.RGBA{seed[0], seed[1], seed[2], 255})
	}
	var pngData bytes.Buffer
	png.Encode(&pngData, img)
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, _ := mw.CreateFormFile("files", name)
	w.Write(pngData.Bytes())
	mw.Close()
	st, resp, _, err := call("POST", base, token, fmt.Sprintf("/assets/1/%d/multi/src/%s", portal, folder), body.String(), []string{"Content-Type", mw.FormDataContentType()})
	if err != nil || st != 200 || !strings.Contains(string(resp), name) || strings.Contains(string(resp), `"filename"`) {
		r.fail("%s uploads %s: %d %s %v", user, name, st, resp, err)
		return ""
	}
	s := sum(pngData.Bytes())
	r.record(ack{user: user, portal: portal, path: folder + "/" + name, sum: s})
	return s
}

// commit commits the author's work; the commit's id ("" when it failed).
func (r *drillRig) commit(base, token, user string, portal int64, message string) string {
	body, _ := json.Marshal(map[string]string{"message": message})
	st, resp, _, err := call("POST", base, token, fmt.Sprintf("/portal/1/%d/commits", portal), string(body), nil)
	var res struct {
		CommitID  string
		Committed bool
	}
	json.Unmarshal(resp, &res)
	if err != nil || st != 200 || !res.Committed {
		r.fail("%s commits to portal %d: %d %s %v", user, portal, st, resp, err)
		return ""
	}
	r.record(ack{user: user, portal: portal, commit: res.CommitID})
	return res.CommitID
}

// generate makes a loadable of the Passenger Portal's master and waits until it is generated;
// its id (0 when that failed).
func (r *drillRig) generate(base, token, name string) int64 {
	body := `{"name":"` + name + `","partNumber":"PW-DRILL","versionPrefix":"1.0","type":"PORTAL","gitRef":"master","copyrightData":{"metaData":{"accept":true}}}`
	var l struct {
		ID                       int64
		Status, FileName, SHA256 string
	}
	st, resp, _, err := call("POST", base, token, "/loadable/1/2", body, nil)
	if err != nil || st != 201 || json.Unmarshal(resp, &l) != nil {
		r.fail("create loadable %s: %d %s %v", name, st, resp, err)
		return 0
	}
	if st, resp, _, err := call("POST", base, token, fmt.Sprintf("/loadable/1/2/generate/%d", l.ID), "", nil); err != nil || st != 202 {
		r.fail("generate loadable %s: %d %s %v", name, st, resp, err)
		return 0
	}
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		var list []struct {
			ID                       int64
			Status, FileName, SHA256 string
		}
		st, resp, _, err := call("GET", base, token, "/loadable/1/2", "", nil)
		if err != nil || st != 200 || json.Unmarshal(resp, &list) != nil {
			r.fail("list loadables: %d %s %v", st, resp, err)
			return 0
		}
		for _, x := range list {
			if x.ID != l.ID {
				continue
			}
			switch x.Status {
			case "GENERATED":
				r.record(ack{user: "admin", portal: 2, loadable: x.ID, loadableName: x.FileName, lsum: x.SHA256})
				return x.ID
			case "FAILED":
				r.fail("loadable %s failed: %s", name, resp)
				return 0
			}
		}
	}
	r.fail("loadable %s was not generated in 3 minutes", name)
	return 0
}

// waitDelivered waits until the loadable's hand-over is delivered.
func (r *drillRig) waitDelivered(admin *testkit.Client, id int64) {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if res := admin.Do("GET", fmt.Sprintf("/loadable/1/2/handover/%d", id), ""); strings.Contains(res.Body, `"DELIVERED"`) {
			return
		}
	}
	r.t.Fatalf("the hand-over of loadable %d was not delivered", id)
}

// call sends one API request without failing the test (workers run it off the test's goroutine).
func call(method, base, token, path, body string, hdr []string) (int, []byte, http.Header, error) {
	req, err := http.NewRequest(method, base+"/api/v1"+path, strings.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp.StatusCode, data, resp.Header, err
}

func mustDo(t *testing.T, c *testkit.Client, method, path, body string, want ...int) {
	t.Helper()
	res := c.Do(method, path, body)
	for _, w := range want {
		if res.Status == w {
			return
		}
	}
	t.Fatalf("%s %s: %d %s", method, path, res.Status, res.Body)
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// newDatabase creates an empty database on the TEST_DATABASE_URL server (dropped at the end)
// and answers a URL of it with the same search_path as dbURL: a restore's target.
func newDatabase(t *testing.T, dbURL string) string {
	admin, err := sql.Open("pgx", os.Getenv(storetest.EnvPostgres))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	var b [6]byte
	rand.Read(b[:])
	name := "pwrestore_" + hex.EncodeToString(b[:])
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Exec("DROP DATABASE " + name + " WITH (FORCE)") })
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// openDB opens the restored database.
func openDB(t *testing.T, data, dbURL string) *store.DB {
	dsn := "sqlite:" + filepath.Join(data, "portalwright.db")
	if dbURL != "" {
		dsn = dbURL
	}
	db, err := store.Open(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
