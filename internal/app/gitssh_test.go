package app

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/crypto/ssh"

	"portalwright/internal/caller"
	"portalwright/internal/config"
	"portalwright/internal/identity"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
)

// TestGitOverSSH: the real git client clones and pushes the demo Crew Portal through the
// built-in SSH server with keys made by PUT /user/createkey; the API's rules hold (read to
// fetch, write to push, another domain's user sees no repository), the branch rules hold on
// push, a push reaches the browser as WORKSPACE_COMMIT, and a regenerated key stops the old
// one at once.
func TestGitOverSSH(t *testing.T) {
	testGitOverSSH(t, testConfig(t))
}

func TestGitOverSSHPostgres(t *testing.T) {
	cfg := testConfig(t)
	cfg.DatabaseURL = storetest.PostgresURL(t) // skips without TEST_DATABASE_URL
	testGitOverSSH(t, cfg)
}

// needSSH skips when the OpenSSH client is missing (Debian: openssh-client; make test
// installs it through scripts/check-deps.sh).
func needSSH(t testing.TB) {
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Skip("the ssh client is not installed (Debian: apt-get install openssh-client); skipping git over SSH")
	}
}

// sshUser is a signed-in user with a key made by the product, written for ssh -i.
type sshUser struct {
	name, keyFile string
	api           *testkit.Client
	signer        ssh.Signer
}

func newSSHUser(t *testing.T, base, name, pass string) *sshUser {
	t.Helper()
	u := &sshUser{name: name, api: testkit.SignIn(t, base, name, pass)}
	u.newKey(t)
	return u
}

// newKey makes (or replaces) the user's profile key through the API.
func (u *sshUser) newKey(t *testing.T) {
	t.Helper()
	var pair identity.KeyPair
	resp := u.api.Do("PUT", "/user/createkey", "")
	if resp.Status != 200 {
		t.Fatalf("createkey: %d %s", resp.Status, resp.Body)
	}
	resp.JSON(t, &pair)
	u.keyFile = filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(u.keyFile, []byte(pair.PrivateKey), 0o600); err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.ParsePrivateKey([]byte(pair.PrivateKey))
	if err != nil {
		t.Fatal(err)
	}
	u.signer = signer
}

// gitRunner runs the real git client as one user against the SSH server on port.
type gitRunner struct {
	t    *testing.T
	port string
	home string
}

func (g gitRunner) run(u *sshUser, dir string, args ...string) (string, error) {
	g.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + g.home, "GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C",
		"GIT_AUTHOR_NAME=" + u.name, "GIT_AUTHOR_EMAIL=" + u.name + "@example.com",
		"GIT_COMMITTER_NAME=" + u.name, "GIT_COMMITTER_EMAIL=" + u.name + "@example.com",
		"GIT_SSH_COMMAND=ssh -i " + u.keyFile + " -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=no" +
			" -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -p " + g.port,
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (g gitRunner) must(u *sshUser, dir string, args ...string) string {
	g.t.Helper()
	out, err := g.run(u, dir, args...)
	if err != nil {
		g.t.Fatalf("git %v as %s: %v\n%s", args, u.name, err, out)
	}
	return out
}

func (g gitRunner) refused(u *sshUser, dir, want string, args ...string) string {
	g.t.Helper()
	out, err := g.run(u, dir, args...)
	if err == nil || !strings.Contains(out, want) {
		g.t.Fatalf("git %v as %s: want a refusal with %q, got %v\n%s", args, u.name, want, err, out)
	}
	g.t.Logf("git %v as %s: refused:\n%s", args, u.name, out)
	return out
}

func testGitOverSSH(t *testing.T, cfg config.Config) {
	needSSH(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	cfg.SSHAddr = "127.0.0.1:0"
	srv := start(t, cfg)
	a := srv.app
	ctx := context.Background()
	root := caller.Caller{UserID: 1, Username: "admin", Admin: true}

	// writer may read and write the demo domain's portals, reader only read them; the
	// outsider has every right, in another domain.
	mk := func(name string, domainID int64, group string, perms []string) {
		u, err := a.Identity.CreateUser(ctx, identity.NewUser{UserName: name, Password: name + "-pass"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.Access.Grants().CreateGroup(ctx, root, domainID, group, perms); err != nil {
			t.Fatal(err)
		}
		if err := a.Access.Grants().AssignRole(ctx, root, u.ID, domainID, group); err != nil {
			t.Fatal(err)
		}
	}
	away, err := a.Access.CreateDomain(ctx, root, "Away")
	if err != nil {
		t.Fatal(err)
	}
	mk("writer", 1, "Writers", []string{"portal:r", "portal:w", "portal_settings_read"})
	mk("reader", 1, "Readers", []string{"portal:r"})
	mk("outsider", away.ID, "Everything", []string{"portal:r", "portal:w", "portal:c", "branch:c"})
	writer := newSSHUser(t, srv.base, "writer", "writer-pass")
	reader := newSSHUser(t, srv.base, "reader", "reader-pass")
	outsider := newSSHUser(t, srv.base, "outsider", "outsider-pass")
	admin := newSSHUser(t, srv.base, "admin", "admin-pass")

	addr := a.gitSSH.Addr().String()
	_, port, _ := net.SplitHostPort(addr)
	g := gitRunner{t: t, port: port, home: t.TempDir()}

	// The portal settings give each user their URL.
	var urls []string
	writer.api.Do("GET", "/settings/1/1/gitUrls", "").JSON(t, &urls)
	want := "ssh://writer@127.0.0.1:" + port + "/1/1.git"
	if len(urls) != 1 || urls[0] != want {
		t.Fatalf("gitUrls %v, want [%s]", urls, want)
	}

	// A browser watching the portal (the reader's socket in portal-1).
	conn := joinPortalRoom(t, srv.base, reader.api, 1)

	work := t.TempDir()
	g.must(writer, work, "clone", "-q", want, "crew")
	crew := filepath.Join(work, "crew")
	if err := os.WriteFile(filepath.Join(crew, "pages", "from-ssh.html"), []byte("<p>pushed over SSH</p>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g.must(writer, crew, "add", "-A")
	g.must(writer, crew, "commit", "-q", "-m", "A page pushed over SSH")
	g.must(writer, crew, "push", "-q", "origin", "HEAD:master")
	head := strings.TrimSpace(g.must(writer, crew, "rev-parse", "HEAD"))
	bare := filepath.Join(cfg.DataDir, "repos", "1.git")
	if tip := strings.TrimSpace(g.must(writer, bare, "rev-parse", "refs/heads/master")); tip != head {
		t.Fatalf("canonical master %s, pushed %s", tip, head)
	}
	waitCommit(t, conn, 1, "master", head)

	// The reader can clone and fetch, not push.
	rwork := t.TempDir()
	g.must(reader, rwork, "clone", "-q", "ssh://reader@"+addr+"/1/1.git", "crew")
	rcrew := filepath.Join(rwork, "crew")
	g.must(reader, rcrew, "commit", "-q", "--allow-empty", "-m", "reader's commit")
	g.refused(reader, rcrew, "permission to push", "push", "origin", "HEAD:master")

	// Another domain's user sees no repository, with the answer a missing one gets.
	owork := t.TempDir()
	theirs := g.refused(outsider, owork, "not found", "clone", "-q", "ssh://outsider@"+addr+"/1/1.git", "x")
	missing := g.refused(outsider, owork, "not found", "clone", "-q", "ssh://outsider@"+addr+"/1/999.git", "y")
	if strings.ReplaceAll(missing, "999", "1") != theirs {
		t.Fatalf("another domain's portal and a missing one answer differently:\n%s\n%s", theirs, missing)
	}
	// …and a portal named under the wrong domain is missing too, even for the admin.
	g.refused(admin, owork, "not found", "clone", "-q", "ssh://admin@"+addr+"/"+strconv.FormatInt(away.ID, 10)+"/1.git", "z")

	// A branch that moved: a rewritten history is refused even when forced.
	g.must(writer, crew, "commit", "-q", "--amend", "-m", "Rewritten")
	g.refused(writer, crew, "non-fast-forward", "push", "--force", "origin", "HEAD:master")
	if tip := strings.TrimSpace(g.must(writer, bare, "rev-parse", "refs/heads/master")); tip != head {
		t.Fatalf("a refused push moved master to %s", tip)
	}
	g.must(writer, crew, "reset", "-q", "--hard", head)

	// Branch rules: names, tags, deletion, creation without branch:c.
	g.refused(writer, crew, "Alphanumeric", "push", "origin", "HEAD:refs/heads/_bad")
	g.refused(writer, crew, "only branches", "push", "origin", "HEAD:refs/tags/v1")
	g.refused(writer, crew, "refusing to delete", "push", "origin", ":master")
	g.refused(writer, crew, "branch:c", "push", "origin", "HEAD:refs/heads/feature")
	g.must(admin, crew, "push", "-q", "ssh://admin@"+addr+"/1/1.git", "HEAD:refs/heads/feature/ssh")
	if out, _ := g.run(writer, bare, "show-ref"); strings.Contains(out, "_bad") || strings.Contains(out, "refs/tags/v1") ||
		strings.Contains(out, "refs/heads/feature\n") || !strings.Contains(out, "refs/heads/feature/ssh") {
		t.Fatalf("canonical refs after the refused pushes:\n%s", out)
	}

	// A regenerated key stops the old one at once.
	old := *writer
	writer.newKey(t)
	g.refused(&old, crew, "Permission denied", "fetch", "-q", "origin")
	g.must(writer, crew, "fetch", "-q", "origin")

	// No password, no shell, no other command, no forwarding.
	if _, err := ssh.Dial("tcp", addr, &ssh.ClientConfig{User: "writer", Auth: []ssh.AuthMethod{ssh.Password("writer-pass")},
		HostKeyCallback: ssh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second}); err == nil {
		t.Fatal("password authentication was accepted")
	}
	client, err := ssh.Dial("tcp", addr, &ssh.ClientConfig{User: "writer", Auth: []ssh.AuthMethod{ssh.PublicKeys(writer.signer)},
		HostKeyCallback: ssh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	for _, command := range []string{"ls /", "git-upload-pack '/1/1.git' ; ls", "git-upload-archive '/1/1.git'", "git-upload-pack '../../etc'", "git upload-pack '/1/1.git'"} {
		sess, err := client.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		sess.Stderr = &stderr
		err = sess.Run(command)
		var exit *ssh.ExitError
		if !errors.As(err, &exit) || exit.ExitStatus() != 1 || !strings.Contains(stderr.String(), "Portalwright") {
			t.Fatalf("%q: %v, stderr %q", command, err, stderr.String())
		}
	}
	sess, _ := client.NewSession()
	if err := sess.RequestPty("xterm", 24, 80, ssh.TerminalModes{}); err == nil {
		t.Fatal("a pty was granted")
	}
	if err := sess.Setenv("LD_PRELOAD", "/tmp/x.so"); err == nil {
		t.Fatal("an environment variable was accepted")
	}
	sess.Close()
	if _, err := client.Dial("tcp", srv.base[len("http://"):]); err == nil {
		t.Fatal("port forwarding was allowed")
	}

	// The host key was made once and kept, private.
	if st, err := os.Stat(cfg.SSHHostKeyPath()); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("host key file: %v %v", st, err)
	}
}

// joinPortalRoom opens a WebSocket as the client and joins the portal's room.
func joinPortalRoom(t *testing.T, base string, c *testkit.Client, portalID int64) *websocket.Conn {
	t.Helper()
	var tk struct{ Ticket string }
	c.Do("POST", "/ws/ticket", "").JSON(t, &tk)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/api/v1/ws?ticket="+tk.Ticket, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.CloseNow() })
	room := "portal-" + strconv.FormatInt(portalID, 10)
	conn.Write(ctx, websocket.MessageText, []byte(`{"type":"join","room":"`+room+`","ack":1}`))
	for {
		m := readJSON(t, conn)
		if m["ack"] == float64(1) {
			if m["ok"] != true {
				t.Fatalf("join %s: %v", room, m)
			}
			return conn
		}
	}
}

// waitCommit waits for WORKSPACE_COMMIT of the branch and commit in the portal's room.
func waitCommit(t *testing.T, conn *websocket.Conn, portalID int64, branch, commit string) {
	t.Helper()
	room := "portal-" + strconv.FormatInt(portalID, 10)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		m := readJSON(t, conn)
		if m["room"] == room && m["title"] == "WORKSPACE_COMMIT" {
			data := m["data"].(map[string]any)
			if data["branch"] == branch && data["commitId"] == commit {
				return
			}
		}
	}
	t.Fatalf("no WORKSPACE_COMMIT for %s at %s", branch, commit)
}
