// Package workspacetest holds the fixtures the tests of the role packages under
// internal/workspace share: repositories in a temporary folder, a starter portal, a user's
// workspace with edits.
package workspacetest

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"portalwright/internal/gitcli"
	"portalwright/internal/workspace"
)

// Ann and Bob author the tests' commits.
var (
	Ann = workspace.Author{Name: "Ann Author", Email: "ann@example.com"}
	Bob = workspace.Author{Name: "Bob Builder", Email: "bob@example.com"}
)

// NewRepos makes repositories under a temporary folder. The tests' git servers listen on
// loopback, so private hosts are allowed, as an operator would for a git server on the
// internal network.
func NewRepos(t *testing.T) *workspace.Repos {
	t.Helper()
	g, err := gitcli.New(context.Background(), gitcli.Options{Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return workspace.NewRepos(g, gitcli.NewLocks(), t.TempDir()).AllowPrivateGitHosts(true)
}

// Starter is a small portal's files.
func Starter() fstest.MapFS {
	return fstest.MapFS{
		"portal.json":     {Data: []byte(`{"engineType":"PORTAL_ENGINE"}`)},
		"index.html":      {Data: []byte(`<html><img src="assets/logo.svg"></html>`)},
		"assets/logo.svg": {Data: []byte(`<svg/>`)},
		"pages/home.html": {Data: []byte("<p>home</p>\n")},
	}
}

// Portal makes portal 1 from the starter files.
func Portal(t *testing.T, r *workspace.Repos) {
	t.Helper()
	if err := r.Core().CreateFromFiles(context.Background(), 1, Starter(), "Create portal", workspace.SystemAuthor); err != nil {
		t.Fatal(err)
	}
}

// Write writes a file into the user's workspace of portal 1, behind git's back.
func Write(t *testing.T, r *workspace.Repos, user int64, name, content string) {
	t.Helper()
	p := filepath.Join(r.WorkspaceDir(user, 1), filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Open opens the user's workspace of portal 1 on branch.
func Open(t *testing.T, r *workspace.Repos, user int64, branch string) *workspace.Status {
	t.Helper()
	st, err := r.Open(context.Background(), user, 1, branch, false)
	if err != nil {
		t.Fatalf("open %d %s: %v", user, branch, err)
	}
	return st
}

// GitOut runs git in dir (arguments starting with "-" as flags) and answers its output,
// trimmed; a failure fails the test.
func GitOut(t *testing.T, r *workspace.Repos, dir string, args ...string) string {
	t.Helper()
	cmd := gitcli.Command(gitcli.Flag(args[0]))
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-") {
			cmd = cmd.Flags(gitcli.Flag(a))
		} else {
			cmd = cmd.Value(a)
		}
	}
	out, err := r.Core().Run(context.Background(), dir, cmd)
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return strings.TrimSpace(out)
}

// ServeDaemon serves the repositories in dir with a real git daemon on 127.0.0.1 and answers
// its port (flags: more of git daemon's, e.g. --enable=receive-pack).
func ServeDaemon(t *testing.T, dir string, flags ...string) string {
	t.Helper()
	port := FreePort(t)
	args := append([]string{"daemon", "--reuseaddr", "--export-all", "--listen=127.0.0.1", "--port=" + port, "--base-path=" + dir}, flags...)
	daemon := exec.Command("git", append(args, dir)...)
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { daemon.Process.Kill(); daemon.Wait() })
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if c, err := net.DialTimeout("tcp", "127.0.0.1:"+port, time.Second); err == nil {
			c.Close()
			break
		}
	}
	return port
}

// FreePort is a TCP port on 127.0.0.1 that nothing listens on (now).
func FreePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, port, _ := net.SplitHostPort(l.Addr().String())
	return port
}

// BareRepo makes a bare repository dir/name.git from a working tree built by fill, with the
// given default branch, and answers its path. The commit is made by the test's own git (not
// the product's, which never writes links), so the repository really carries symbolic links.
func BareRepo(t *testing.T, r *workspace.Repos, dir, name, branch string, fill func(work string)) string {
	t.Helper()
	work := filepath.Join(t.TempDir(), "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	fill(work)
	for _, args := range [][]string{{"init", "-q", "--initial-branch", branch}, {"add", "-A"}, {"commit", "-q", "--message", "upstream"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		cmd.Dir = work
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %v %s", args, err, out)
		}
	}
	bare := filepath.Join(dir, name+".git")
	if _, err := r.Core().Run(context.Background(), dir, gitcli.Command("clone", "-q", "--bare").Value(work, bare)); err != nil {
		t.Fatal(err)
	}
	return bare
}
