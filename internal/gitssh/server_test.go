package gitssh

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"golang.org/x/crypto/ssh"

	"portalwright/internal/caller"
	"portalwright/internal/gitcli"
	"portalwright/internal/store"
	"portalwright/internal/workspace"
)

// The server on its own, with the product's repositories and locks but stand-ins for users,
// rights and portals (internal/app's TestGitOverSSH runs the whole product).

type fakeUsers struct{ key ssh.PublicKey }

func (f fakeUsers) KeyOwner(_ context.Context, login string, key ssh.PublicKey) (caller.Caller, bool, error) {
	if login != "alice" || !bytes.Equal(key.Marshal(), f.key.Marshal()) {
		return caller.Caller{}, false, nil
	}
	return caller.Caller{UserID: 7, Username: "alice"}, true, nil
}

type allowAll struct{}

func (allowAll) Allowed(context.Context, caller.Caller, string, string) (bool, error) {
	return true, nil
}

type onePortal struct{}

func (onePortal) DomainOf(_ context.Context, portalID int64) (int64, error) {
	if portalID != 1 {
		return 0, store.ErrNotFound
	}
	return 1, nil
}

type pushes struct {
	mu   sync.Mutex
	seen []string
}

func (p *pushes) Pushed(_ context.Context, c caller.Caller, d, pt int64, branch, commit string) {
	p.mu.Lock()
	p.seen = append(p.seen, c.Username+" "+branch+" "+commit)
	p.mu.Unlock()
}

type fixture struct {
	srv     *Server
	signer  ssh.Signer
	repos   *workspace.Repos
	addr    string
	keyFile string
	events  *pushes
	home    string
}

// newFixture serves portal 1 (domain 1), made from files, to alice over SSH.
func newFixture(t testing.TB, files fstest.MapFS) *fixture {
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Skip("the ssh client is not installed (Debian: apt-get install openssh-client)")
	}
	ctx := context.Background()
	data := t.TempDir()
	g, err := gitcli.New(ctx, gitcli.Options{Home: filepath.Join(data, "git-home")})
	if err != nil {
		t.Fatal(err)
	}
	repos := workspace.NewRepos(g, gitcli.NewLocks(), data)
	if files != nil {
		if err := repos.Core().CreateFromFiles(ctx, 1, files, "Start", workspace.SystemAuthor); err != nil {
			t.Fatal(err)
		}
	}
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	block, _ := ssh.MarshalPrivateKey(priv, "alice")
	keyFile := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	sshPub, _ := ssh.NewPublicKey(pub)
	hostKey, err := LoadOrCreateHostKey(filepath.Join(data, "ssh_host_ed25519_key"))
	if err != nil {
		t.Fatal(err)
	}
	ev := &pushes{}
	srv, err := New(Config{HostKey: hostKey, WorkDir: filepath.Join(data, "ssh"), Log: slog.New(slog.NewTextHandler(io.Discard, nil))},
		Deps{Users: fakeUsers{sshPub}, Access: allowAll{}, Portals: onePortal{}, Repos: repos.Core(), Events: ev})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	signer, _ := ssh.NewSignerFromKey(priv)
	return &fixture{srv: srv, signer: signer, repos: repos, addr: ln.Addr().String(), keyFile: keyFile, events: ev, home: t.TempDir()}
}

func (f *fixture) url() string { return "ssh://alice@" + f.addr + "/1/1.git" }

func (f *fixture) git(dir string, args ...string) *exec.Cmd {
	_, port, _ := net.SplitHostPort(f.addr)
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + f.home, "GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C",
		"GIT_AUTHOR_NAME=alice", "GIT_AUTHOR_EMAIL=alice@example.com", "GIT_COMMITTER_NAME=alice", "GIT_COMMITTER_EMAIL=alice@example.com",
		"GIT_SSH_COMMAND=ssh -i " + f.keyFile + " -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -p " + port}
	return cmd
}

func (f *fixture) must(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, err := f.git(dir, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// TestPushHoldsThePortalLock: a push waits while the portal's lock is held (a browser
// commit), then lands, and is announced once the lock is free.
func TestPushHoldsThePortalLock(t *testing.T) {
	f := newFixture(t, fstest.MapFS{"index.html": {Data: []byte("<p>hi</p>\n")}})
	work := t.TempDir()
	f.must(t, work, "clone", "-q", f.url(), "p")
	dir := filepath.Join(work, "p")
	f.must(t, dir, "commit", "-q", "--allow-empty", "-m", "over SSH")
	head := strings.TrimSpace(f.must(t, dir, "rev-parse", "HEAD"))

	unlock, err := f.repos.Core().LockPortal(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	push := f.git(dir, "push", "-q", "origin", "HEAD:master")
	var out bytes.Buffer
	push.Stdout, push.Stderr = &out, &out
	if err := push.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- push.Wait() }()
	select {
	case err := <-done:
		t.Fatalf("the push ended while the portal was locked: %v\n%s", err, out.String())
	case <-time.After(700 * time.Millisecond):
	}
	bare, _ := f.repos.Core().CanonicalRepo(1)
	if tip := strings.TrimSpace(f.must(t, bare, "rev-parse", "master")); tip == head {
		t.Fatal("master moved under the lock")
	}
	unlock()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("push: %v\n%s", err, out.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the push did not finish after the lock was freed")
	}
	if tip := strings.TrimSpace(f.must(t, bare, "rev-parse", "master")); tip != head {
		t.Fatalf("master %s, pushed %s", tip, head)
	}
	f.events.mu.Lock()
	defer f.events.mu.Unlock()
	if len(f.events.seen) != 1 || f.events.seen[0] != "alice master "+head {
		t.Fatalf("events %v", f.events.seen)
	}
}

// TestCloseEndsRunningCommands: closing the server ends a connection whose git command
// waits on the client (the portal's lock of a stalled push is freed the same way).
func TestCloseEndsRunningCommands(t *testing.T) {
	f := newFixture(t, fstest.MapFS{"index.html": {Data: []byte("<p>hi</p>\n")}})
	client, err := ssh.Dial("tcp", f.addr, &ssh.ClientConfig{User: "alice", Auth: []ssh.AuthMethod{ssh.PublicKeys(f.signer)},
		HostKeyCallback: ssh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	sess, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sess.StdinPipe(); err != nil { // never written: receive-pack waits for commands
		t.Fatal(err)
	}
	if err := sess.Start("git-receive-pack '/1/1.git'"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	closed := make(chan struct{})
	go func() { f.srv.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close waited for a stalled git command")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	unlock, err := f.repos.Core().LockPortal(ctx, 1)
	if err != nil {
		t.Fatalf("the portal's lock was not freed: %v", err)
	}
	unlock()
}
