package app

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/http/cgi"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"portalwright/internal/caller"
	"portalwright/internal/config"
	"portalwright/internal/portal"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
)

// Upstream sync (issue 15 item 1) against real git servers on loopback: git's own
// http-backend behind Go's CGI handler with basic auth, and git daemon.

func TestUpstreamSync(t *testing.T) { upstreamSuite(t, testConfig(t)) }

func TestUpstreamSyncPostgres(t *testing.T) {
	cfg := testConfig(t)
	cfg.DatabaseURL = storetest.PostgresURL(t) // skips without TEST_DATABASE_URL
	upstreamSuite(t, cfg)
}

const (
	upUser     = "tester"
	upPassword = "s3cret-Pa55-for-upstream"
)

// gitT runs the git CLI as a person outside the product would (own HOME, no system config).
func gitT(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_NAME=Hostie", "GIT_AUTHOR_EMAIL=hostie@example.org", "GIT_COMMITTER_NAME=Hostie", "GIT_COMMITTER_EMAIL=hostie@example.org")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
	}
	return strings.TrimSpace(string(out))
}

// newUpstreamRepo makes a bare repository root/name with one commit on master.
func newUpstreamRepo(t *testing.T, root, name string) string {
	t.Helper()
	bare := filepath.Join(root, name)
	gitT(t, root, "init", "-q", "--bare", "--initial-branch=master", bare)
	work := filepath.Join(t.TempDir(), "seed")
	gitT(t, "", "clone", "-q", bare, work)
	os.WriteFile(filepath.Join(work, "index.html"), []byte("<h1>Upstream</h1>\n"), 0o644)
	os.WriteFile(filepath.Join(work, "notes.txt"), []byte("line one\n"), 0o644)
	gitT(t, work, "add", "-A")
	gitT(t, work, "commit", "-q", "-m", "Seed")
	gitT(t, work, "push", "-q", "origin", "master")
	return bare
}

// pushUpstream commits a file in a clone of bare and pushes it, as someone on the git host.
func pushUpstream(t *testing.T, bare, file, content, message string) string {
	t.Helper()
	work := filepath.Join(t.TempDir(), "c")
	gitT(t, "", "clone", "-q", bare, work)
	os.MkdirAll(filepath.Dir(filepath.Join(work, file)), 0o755)
	os.WriteFile(filepath.Join(work, file), []byte(content), 0o644)
	gitT(t, work, "add", "-A")
	gitT(t, work, "commit", "-q", "-m", message)
	gitT(t, work, "push", "-q", "origin", "master")
	return gitT(t, work, "rev-parse", "HEAD")
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startGitDaemon serves root over git:// with pushes allowed; stop ends it.
func startGitDaemon(t *testing.T, root string, port int) (base string, stop func()) {
	t.Helper()
	if port == 0 {
		port = freePort(t)
	}
	cmd := exec.Command("git", "daemon", "--export-all", "--enable=receive-pack", "--reuseaddr", "--base-path="+root,
		"--listen=127.0.0.1", "--port="+strconv.Itoa(port), root)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // stop ends the daemon's children too
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			cmd.Wait()
		})
	}
	t.Cleanup(stop)
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("git daemon did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}
	return "git://127.0.0.1:" + strconv.Itoa(port), stop
}

// startGitHTTP serves root with git http-backend behind basic auth (upUser / upPassword).
func startGitHTTP(t *testing.T, root string) string {
	t.Helper()
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	backend := &cgi.Handler{Path: gitBin, Args: []string{"http-backend"}, Env: []string{
		"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=http.receivepack", "GIT_CONFIG_VALUE_0=true"}}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, ok := r.BasicAuth()
		if !ok || u != upUser || p != upPassword {
			w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
			http.Error(w, "authentication required", http.StatusUnauthorized)
			return
		}
		backend.ServeHTTP(w, r)
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

// upstreamStatus is GET /upstream/{d}/{p}.
type upstreamStatus struct {
	Configured     bool
	URL            string
	State          string
	Ahead, Behind  int
	Error          string
	AuthKind       string
	HasCredentials bool
	PublicKey      string
	WebhookURL     string
	LastSyncAt     *time.Time
}

func upstreamSuite(t *testing.T, cfg config.Config) {
	key := make([]byte, 32)
	rand.Read(key)
	cfg.SecretsKey = base64.StdEncoding.EncodeToString(key)
	cfg.AllowPrivateGitHosts = true // the test's git servers are on loopback
	cfg.AdminPassword = "admin-pass"
	cfg.UpstreamFetchTimeout = 5 * time.Second
	logs := &testkit.SyncBuffer{}
	srv := startLogged(t, cfg, logs)
	ctx := context.Background()
	root := caller.Caller{UserID: 1, Username: "admin", Admin: true}
	dom, err := srv.app.Access.CreateDomain(ctx, root, "Git Hosts")
	if err != nil {
		t.Fatal(err)
	}
	d := strconv.FormatInt(dom.ID, 10)
	admin := testkit.SignIn(t, srv.base, "admin", "admin-pass")
	hosts := t.TempDir()

	// --- Over HTTP with basic auth: credentials in the URL are taken out of it and sealed.
	httpBare := newUpstreamRepo(t, hosts, "web.git")
	httpBase := startGitHTTP(t, hosts)
	httpURL := httpBase + "/web.git"
	withCreds := strings.Replace(httpURL, "http://", "http://"+upUser+":"+upPassword+"@", 1)
	resp := admin.Do("POST", "/portal/create_url/"+d, `{"portal":{"name":"Web","url":"`+withCreds+`"}}`)
	if resp.Status != http.StatusCreated {
		t.Fatalf("create from URL: %d %s", resp.Status, resp.Body)
	}
	var created struct {
		ID  int64
		URL string
	}
	resp.JSON(t, &created)
	if created.URL != httpURL {
		t.Fatalf("portal url = %q, want %q (no credentials)", created.URL, httpURL)
	}
	p := strconv.FormatInt(created.ID, 10)
	at := "/" + d + "/" + p
	var urls []string
	admin.Do("GET", "/settings"+at+"/gitUrls", "").JSON(t, &urls)
	if len(urls) == 0 || urls[0] != httpURL {
		t.Fatalf("gitUrls = %v", urls)
	}
	var sealed string
	if err := srv.app.DB.QueryRowContext(ctx, "SELECT sealed_credentials FROM portal_upstreams WHERE portal_id = ?", created.ID).Scan(&sealed); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(sealed, "v1:") || strings.Contains(sealed, upPassword) || strings.Contains(sealed, base64.StdEncoding.EncodeToString([]byte(upPassword))) {
		t.Fatalf("stored credentials are not sealed: %q", sealed)
	}
	status := func() upstreamStatus {
		t.Helper()
		var st upstreamStatus
		r := admin.Do("GET", "/upstream"+at, "")
		if r.Status != 200 || strings.Contains(r.Body, upPassword) {
			t.Fatalf("upstream status: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &st)
		return st
	}
	if st := status(); !st.Configured || st.State != "IN_SYNC" || st.AuthKind != "PASSWORD" || !st.HasCredentials || st.URL != httpURL || st.LastSyncAt == nil {
		t.Fatalf("after import: %+v", st)
	}
	if r := admin.Do("GET", "/portal"+at+"/open", ""); r.Status != 200 || strings.Contains(r.Body, "upstreamWarning") {
		t.Fatalf("open: %d %s", r.Status, r.Body)
	}
	wsDir := filepath.Join(cfg.DataDir, "workspaces", "1", p)
	canonical := filepath.Join(cfg.DataDir, "repos", p+".git")

	// A commit through the product reaches the host.
	os.WriteFile(filepath.Join(wsDir, "product.html"), []byte("<p>from the product</p>\n"), 0o644)
	if r := admin.Do("POST", "/portal"+at+"/commits", `{"message":"From the product"}`); r.Status != 200 || strings.Contains(r.Body, "upstreamWarning") {
		t.Fatalf("commit: %d %s", r.Status, r.Body)
	}
	if got := gitT(t, httpBare, "log", "-1", "--format=%s", "master"); got != "From the product" {
		t.Fatalf("upstream's last commit = %q", got)
	}
	if got, want := gitT(t, canonical, "rev-parse", "refs/upstream/heads/master"), gitT(t, httpBare, "rev-parse", "master"); got != want {
		t.Fatalf("the portal's record of the host's master is %s, the host has %s", got, want)
	}

	// A commit made on the host arrives with the next open.
	pushUpstream(t, httpBare, "pages/host.html", "<p>from the host</p>\n", "From the host")
	if r := admin.Do("GET", "/portal"+at+"/open", ""); r.Status != 200 {
		t.Fatalf("open: %d %s", r.Status, r.Body)
	}
	if _, err := os.Stat(filepath.Join(wsDir, "pages", "host.html")); err != nil {
		t.Fatalf("the host's commit is not in the workspace after open: %v", err)
	}

	// The webhook: a bad signature is refused and fetches nothing; a good one fetches and
	// announces WORKSPACE_COMMIT to the portal's room.
	var tk struct{ Ticket string }
	admin.Do("POST", "/ws/ticket", "").JSON(t, &tk)
	dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(dctx, "ws"+strings.TrimPrefix(srv.base, "http")+"/api/v1/ws?ticket="+tk.Ticket, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	conn.Write(ctx, websocket.MessageText, []byte(`{"type":"join","room":"portal-`+p+`","ack":1}`))
	for m := readJSON(t, conn); m["ack"] == nil; m = readJSON(t, conn) {
	}
	hostCommit := pushUpstream(t, httpBare, "pages/hook.html", "<p>hook</p>\n", "Through the webhook")
	before := gitT(t, canonical, "rev-parse", "refs/heads/master", "refs/upstream/heads/master")
	var hook struct{ URL, Secret, SignatureHeader string }
	admin.Do("GET", "/upstream"+at+"/webhook", "").JSON(t, &hook)
	if hook.Secret == "" || !strings.HasSuffix(hook.URL, "/api/v1/upstream/webhook/"+p) || hook.SignatureHeader != "X-Hub-Signature-256" {
		t.Fatalf("webhook info: %+v", hook)
	}
	body := `{"ref":"refs/heads/master","after":"` + hostCommit + `"}`
	sign := func(secret, body string) string {
		m := hmac.New(sha256.New, []byte(secret))
		m.Write([]byte(body))
		return "sha256=" + hex.EncodeToString(m.Sum(nil))
	}
	hookURL := srv.base + "/api/v1/upstream/webhook/" + p
	for _, bad := range []testkit.Reply{
		testkit.Call(t, "POST", hookURL, "", body, "X-Hub-Signature-256", sign("wrong-secret", body)),
		testkit.Call(t, "POST", hookURL, "", body),
		testkit.Call(t, "POST", hookURL, "", body, "X-Gitlab-Token", "wrong-secret"),
		testkit.Call(t, "POST", srv.base+"/api/v1/upstream/webhook/999999", "", body, "X-Hub-Signature-256", sign(hook.Secret, body)),
	} {
		if bad.Status != http.StatusUnauthorized || bad.Code != "WEBHOOK_SIGNATURE" {
			t.Fatalf("webhook with a bad signature: %d %s", bad.Status, bad.Body)
		}
	}
	if after := gitT(t, canonical, "rev-parse", "refs/heads/master", "refs/upstream/heads/master"); after != before {
		t.Fatal("a webhook with a bad signature fetched")
	}
	if r := testkit.Call(t, "POST", hookURL, "", body, "X-Hub-Signature-256", sign(hook.Secret, body)); r.Status != 200 || !strings.Contains(r.Body, `"master"`) {
		t.Fatalf("webhook: %d %s", r.Status, r.Body)
	}
	if got := gitT(t, canonical, "rev-parse", "refs/heads/master"); got != hostCommit {
		t.Fatalf("canonical master = %s, want the host's %s", got, hostCommit)
	}
	sawCommit := false
	for deadline := time.Now().Add(5 * time.Second); !sawCommit && time.Now().Before(deadline); {
		m := readJSON(t, conn)
		if m["room"] == "portal-"+p && m["title"] == "WORKSPACE_COMMIT" {
			data := m["data"].(map[string]any)
			sawCommit = data["branch"] == "master" && data["commitId"] == hostCommit
		}
	}
	if !sawCommit {
		t.Fatal("no WORKSPACE_COMMIT after the webhook")
	}
	// The GitLab form: the secret itself in X-Gitlab-Token.
	if r := testkit.Call(t, "POST", hookURL, "", body, "X-Gitlab-Token", hook.Secret); r.Status != 200 {
		t.Fatalf("webhook (token): %d %s", r.Status, r.Body)
	}

	// Wrong credentials give a clear message; the right ones put it back in sync.
	r := admin.Do("PUT", "/upstream"+at+"/credentials", `{"kind":"PASSWORD","userName":"tester","password":"not-the-password"}`)
	var st upstreamStatus
	r.JSON(t, &st)
	if r.Status != 200 || st.State != "ERROR" || !strings.Contains(st.Error, "refused the credentials") {
		t.Fatalf("wrong credentials: %d %s", r.Status, r.Body)
	}
	if r := admin.Do("POST", "/upstream"+at+"/sync", "{}"); r.Status != http.StatusConflict || r.Code != "UPSTREAM_CREDENTIALS" {
		t.Fatalf("sync with wrong credentials: %d %s", r.Status, r.Body)
	}
	if r := admin.Do("PUT", "/upstream"+at+"/credentials", `{"kind":"SSH_KEY"}`); r.Status != 400 {
		t.Fatalf("a deploy key for an http URL: %d %s", r.Status, r.Body)
	}
	r = admin.Do("PUT", "/upstream"+at+"/credentials", `{"kind":"PASSWORD","userName":"tester","password":"`+upPassword+`"}`)
	r.JSON(t, &st)
	if r.Status != 200 || st.State != "IN_SYNC" || st.Error != "" || strings.Contains(r.Body, upPassword) {
		t.Fatalf("right credentials: %d %s", r.Status, r.Body)
	}

	// --- Over git daemon: a push the host refuses keeps the commit; Sync now sends it later.
	daemonBare := newUpstreamRepo(t, hosts, "daemon.git")
	daemonBase, stopDaemon := startGitDaemon(t, hosts, 0)
	resp = admin.Do("POST", "/portal/create_url/"+d, `{"portal":{"name":"Daemon","url":"`+daemonBase+`/daemon.git"}}`)
	if resp.Status != http.StatusCreated {
		t.Fatalf("create from git://: %d %s", resp.Status, resp.Body)
	}
	resp.JSON(t, &created)
	p2 := strconv.FormatInt(created.ID, 10)
	at2 := "/" + d + "/" + p2
	if r := admin.Do("GET", "/portal"+at2+"/open", ""); r.Status != 200 {
		t.Fatalf("open: %d %s", r.Status, r.Body)
	}
	ws2 := filepath.Join(cfg.DataDir, "workspaces", "1", p2)
	hook2 := filepath.Join(daemonBare, "hooks", "pre-receive")
	os.WriteFile(hook2, []byte("#!/bin/sh\necho 'pushes are frozen for the release' >&2\nexit 1\n"), 0o755)
	os.WriteFile(filepath.Join(ws2, "frozen.html"), []byte("<p>frozen</p>\n"), 0o644)
	r = admin.Do("POST", "/portal"+at2+"/commits", `{"message":"During the freeze"}`)
	var ans struct {
		CommitID        string
		UpstreamWarning string
	}
	r.JSON(t, &ans)
	if r.Status != 200 || ans.CommitID == "" || !strings.Contains(ans.UpstreamWarning, "pushes are frozen for the release") {
		t.Fatalf("commit refused upstream: %d %s", r.Status, r.Body)
	}
	if got := gitT(t, filepath.Join(cfg.DataDir, "repos", p2+".git"), "rev-parse", "refs/heads/master"); got != ans.CommitID {
		t.Fatalf("the commit is not kept in the portal: %s vs %s", got, ans.CommitID)
	}
	var st2 upstreamStatus
	admin.Do("GET", "/upstream"+at2, "").JSON(t, &st2)
	if st2.State != "AHEAD" || st2.Ahead != 1 || !strings.Contains(st2.Error, "pushes are frozen for the release") {
		t.Fatalf("after a refused push: %+v", st2)
	}
	if r := admin.Do("POST", "/upstream"+at2+"/sync", "{}"); r.Status != http.StatusConflict || r.Code != "PORTAL_REBASE_ERROR" {
		t.Fatalf("sync while refused: %d %s", r.Status, r.Body)
	}
	// The freeze ends, and someone pushes to the host meanwhile: both sides moved. Sync now
	// merges the host's commit into the portal's branch (nothing rewritten) and pushes.
	os.Remove(hook2)
	hostOnly := pushUpstream(t, daemonBare, "pages/other.html", "<p>other</p>\n", "Meanwhile on the host")
	r = admin.Do("POST", "/upstream"+at2+"/sync", "{}")
	r.JSON(t, &st2)
	if r.Status != 200 || st2.State != "IN_SYNC" || st2.Error != "" {
		t.Fatalf("sync now: %d %s", r.Status, r.Body)
	}
	parents := gitT(t, daemonBare, "log", "-1", "--format=%P", "master")
	if !strings.Contains(parents, ans.CommitID) || !strings.Contains(parents, hostOnly) {
		t.Fatalf("upstream master's parents = %s, want the portal's %s and the host's %s", parents, ans.CommitID, hostOnly)
	}
	if got, want := gitT(t, filepath.Join(cfg.DataDir, "repos", p2+".git"), "rev-parse", "refs/heads/master"), gitT(t, daemonBare, "rev-parse", "master"); got != want {
		t.Fatalf("portal master %s != host master %s after Sync now", got, want)
	}
	if r := admin.Do("GET", "/portal"+at2+"/open", ""); r.Status != 200 {
		t.Fatalf("open after the merge: %d %s", r.Status, r.Body)
	}

	// The host moved with a change that does not conflict: the commit, sent to the host first,
	// is refused there as a non-fast-forward; it is rebased on the host's commit and sent
	// again, so the history stays a line and the portal is in sync.
	hostPage := pushUpstream(t, daemonBare, "pages/host2.html", "<p>host 2</p>\n", "Host adds a page")
	os.WriteFile(filepath.Join(ws2, "product2.html"), []byte("<p>product 2</p>\n"), 0o644)
	r = admin.Do("POST", "/portal"+at2+"/commits", `{"message":"Product adds a page"}`)
	ans.CommitID, ans.UpstreamWarning = "", ""
	r.JSON(t, &ans)
	if r.Status != 200 || ans.CommitID == "" || ans.UpstreamWarning != "" {
		t.Fatalf("commit after the host moved: %d %s", r.Status, r.Body)
	}
	if got := gitT(t, daemonBare, "log", "-1", "--format=%H %P", "master"); got != ans.CommitID+" "+hostPage {
		t.Fatalf("upstream master (commit parent) = %s, want %s %s", got, ans.CommitID, hostPage)
	}
	admin.Do("GET", "/upstream"+at2, "").JSON(t, &st2)
	if st2.State != "IN_SYNC" || st2.Ahead != 0 || st2.Error != "" {
		t.Fatalf("state after a commit rebased on the host's: %+v", st2)
	}

	// The host moved with a change that conflicts with the author's: the same 409 as a
	// conflicting commit of another author, and the author's work is kept.
	pushUpstream(t, daemonBare, "notes.txt", "changed on the host\n", "Host edits notes")
	os.WriteFile(filepath.Join(ws2, "notes.txt"), []byte("changed in the product\n"), 0o644)
	if r := admin.Do("POST", "/portal"+at2+"/commits", `{"message":"Product edits notes"}`); r.Status != http.StatusConflict || r.Code != "GIT_CONFLICTS" {
		t.Fatalf("conflicting commit: %d %s", r.Status, r.Body)
	}
	var local []struct{ Message string }
	admin.Do("GET", "/portal"+at2+"/local-commits", "").JSON(t, &local)
	if len(local) != 1 || local[0].Message != "Product edits notes" {
		t.Fatalf("local commits after the conflict: %+v", local)
	}

	// The host is down: the portal still opens, with a warning, and the state says ERROR.
	stopDaemon()
	if r := admin.Do("PUT", "/portal"+at2+"/reset/master", ""); r.Status != 200 {
		t.Fatalf("reset: %d %s", r.Status, r.Body)
	}
	r = admin.Do("GET", "/portal"+at2+"/open", "")
	var opened struct{ UpstreamWarning string }
	r.JSON(t, &opened)
	if r.Status != 200 || !strings.Contains(opened.UpstreamWarning, "could not be reached") {
		t.Fatalf("open with the host down: %d %s", r.Status, r.Body)
	}
	admin.Do("GET", "/upstream"+at2, "").JSON(t, &st2)
	if st2.State != "ERROR" || st2.Error == "" {
		t.Fatalf("state with the host down: %+v", st2)
	}
	// A commit while the host is down is kept; Sync now sends it when the host is back.
	os.WriteFile(filepath.Join(ws2, "offline.html"), []byte("<p>offline</p>\n"), 0o644)
	r = admin.Do("POST", "/portal"+at2+"/commits", `{"message":"While the host is down"}`)
	r.JSON(t, &ans)
	if r.Status != 200 || !strings.Contains(ans.UpstreamWarning, "saved in the portal") {
		t.Fatalf("commit with the host down: %d %s", r.Status, r.Body)
	}
	port, _ := strconv.Atoi(daemonBase[strings.LastIndex(daemonBase, ":")+1:])
	startGitDaemon(t, hosts, port)
	r = admin.Do("POST", "/upstream"+at2+"/sync", "{}")
	r.JSON(t, &st2)
	if r.Status != 200 || st2.State != "IN_SYNC" {
		t.Fatalf("sync now after the host came back: %d %s", r.Status, r.Body)
	}
	if got := gitT(t, daemonBare, "rev-parse", "master"); got != ans.CommitID {
		t.Fatalf("upstream master = %s, want the commit made while it was down %s", got, ans.CommitID)
	}

	// Credentials never show in the logs, the git configuration or any file of the data dir
	// (the database holds them sealed only).
	if strings.Contains(logs.String(), upPassword) {
		t.Fatal("the password is in the log")
	}
	for _, repo := range []string{canonical, wsDir} {
		if cfgList := gitT(t, repo, "config", "--list"); strings.Contains(cfgList, upPassword) || strings.Contains(cfgList, upUser+":") {
			t.Fatalf("credentials in the git configuration of %s:\n%s", repo, cfgList)
		}
	}
	basic := base64.StdEncoding.EncodeToString([]byte(upUser + ":" + upPassword))
	filepath.WalkDir(cfg.DataDir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return nil
		}
		data, _ := os.ReadFile(path)
		if bytes.Contains(data, []byte(upPassword)) || bytes.Contains(data, []byte(basic)) {
			t.Errorf("credentials in %s", path)
		}
		return nil
	})
}

// TestUpstreamWithoutSecretsKey: the import works, but the credentials are not kept, and
// storing new ones says what the administrator must do.
func TestUpstreamWithoutSecretsKey(t *testing.T) {
	cfg := testConfig(t)
	cfg.AllowPrivateGitHosts = true
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	ctx := context.Background()
	dom, err := srv.app.Access.CreateDomain(ctx, caller.Caller{UserID: 1, Username: "admin", Admin: true}, "Keyless")
	if err != nil {
		t.Fatal(err)
	}
	d := strconv.FormatInt(dom.ID, 10)
	admin := testkit.SignIn(t, srv.base, "admin", "admin-pass")
	hosts := t.TempDir()
	newUpstreamRepo(t, hosts, "web.git")
	url := startGitHTTP(t, hosts) + "/web.git"
	resp := admin.Do("POST", "/portal/create_url/"+d, fmt.Sprintf(`{"portal":{"name":"Keyless","url":%q},"userName":%q,"password":%q}`, url, upUser, upPassword))
	if resp.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Status, resp.Body)
	}
	var created struct{ ID int64 }
	resp.JSON(t, &created)
	at := "/" + d + "/" + strconv.FormatInt(created.ID, 10)
	var st upstreamStatus
	admin.Do("GET", "/upstream"+at, "").JSON(t, &st)
	if st.State != "ERROR" || st.HasCredentials || !strings.Contains(st.Error, "secrets key") {
		t.Fatalf("status without a key: %+v", st)
	}
	r := admin.Do("PUT", "/upstream"+at+"/credentials", fmt.Sprintf(`{"kind":"PASSWORD","userName":%q,"password":%q}`, upUser, upPassword))
	if r.Status != http.StatusServiceUnavailable || r.Code != "SECRETS_KEY_MISSING" || !strings.Contains(r.Message, "--secrets-key-file") {
		t.Fatalf("credentials without a key: %d %s", r.Status, r.Body)
	}
	// A portal not created from a git URL has no upstream.
	var none upstreamStatus
	pt, err := srv.app.Portals.CreateFromTemplate(ctx, caller.Caller{UserID: 1, Username: "admin", Admin: true}, dom.ID, portal.NewPortal{Name: "Plain", Type: portal.TypeCrew, Scope: portal.ScopeFull}, 0, "crew")
	if err != nil {
		t.Fatal(err)
	}
	admin.Do("GET", "/upstream/"+d+"/"+strconv.FormatInt(pt.ID, 10), "").JSON(t, &none)
	if none.Configured {
		t.Fatalf("a template portal has an upstream: %+v", none)
	}
}

// startLogged is start with the server's log kept in logs.
func startLogged(t *testing.T, cfg config.Config, logs io.Writer) *running {
	t.Helper()
	console := &testkit.SyncBuffer{}
	a, err := New(context.Background(), cfg, slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})), console)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.ServeListener(ctx, ln) }()
	r := &running{app: a, base: "http://" + ln.Addr().String(), console: console}
	var once sync.Once
	r.stop = func() error {
		once.Do(func() { cancel(); <-done; a.Close() })
		return nil
	}
	t.Cleanup(func() { _ = r.stop() })
	waitReady(t, r.base)
	return r
}

// importPortal imports a portal named name from url into domain d over HTTP (call is a signed-in
// admin's) and opens it; it answers "<d>/<id>" and the id.
func importPortal(t *testing.T, call func(method, path, body string) testkit.Reply, d, name, url string) (string, int64) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"portal": map[string]string{"name": name, "url": url}})
	created := call("POST", "/portal/create_url/"+d, string(body))
	if created.Status != 200 && created.Status != 201 {
		t.Fatalf("import %s: %d %s", url, created.Status, created.Body)
	}
	var pt struct{ ID int64 }
	created.JSON(t, &pt)
	p := d + "/" + strconv.FormatInt(pt.ID, 10)
	if got := call("GET", "/portal/"+p+"/open", ""); got.Status != 200 {
		t.Fatalf("open %s: %d %s", url, got.Status, got.Body)
	}
	return p, pt.ID
}

// gitHosted is a server that may import portals from git hosts on loopback, a domain of it, a
// folder whose bare repositories a git daemon serves at base (newHostRepo makes them; the daemon
// serves what is there when asked), and the administrator's calls.
type gitHosted struct {
	srv   *running
	d     string // the domain's id
	hosts string
	base  string
	call  func(method, path, body string, hdr ...string) testkit.Reply
}

func startGitHosted(t *testing.T, cfg config.Config, domain string) gitHosted {
	t.Helper()
	cfg.AllowPrivateGitHosts = true
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	dom, err := srv.app.Access.CreateDomain(context.Background(), caller.Caller{UserID: 1, Username: "admin", Admin: true}, domain)
	if err != nil {
		t.Fatal(err)
	}
	h := gitHosted{srv: srv, d: strconv.FormatInt(dom.ID, 10), hosts: t.TempDir()}
	h.base, _ = startGitDaemon(t, h.hosts, 0)
	admin := testkit.Login(t, srv.base, "admin", "admin-pass")
	h.call = func(method, path, body string, hdr ...string) testkit.Reply {
		t.Helper()
		return testkit.Call(t, method, srv.base+"/api/v1"+path, admin, body, hdr...)
	}
	return h
}

// importPortal imports the host repository repo as a portal named name and opens it.
func (h gitHosted) importPortal(t *testing.T, name, repo string) (string, int64) {
	t.Helper()
	return importPortal(t, func(m, path, body string) testkit.Reply { return h.call(m, path, body) }, h.d, name, h.base+"/"+repo)
}
