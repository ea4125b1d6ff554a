package gitcli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func newGit(t *testing.T) *Git {
	t.Helper()
	g, err := New(context.Background(), Options{Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestVersionCheck(t *testing.T) {
	g := newGit(t)
	if !versionAtLeast(g.Version(), MinVersion) {
		t.Fatalf("version %s", g.Version())
	}
	for have, want := range map[string]bool{"2.30": true, "2.30.1": true, "2.29.9": false, "3.0": true, "2.4": false, "2.39.5": true} {
		if got := versionAtLeast(have, "2.30"); got != want {
			t.Errorf("versionAtLeast(%s) = %v", have, got)
		}
	}
	if v, ok := parseVersion("git version 2.39.5.windows.1\n"); !ok || v != "2.39.5" {
		t.Errorf("parseVersion = %q %v", v, ok)
	}
	_, err := New(context.Background(), Options{Binary: "definitely-not-git", Home: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "git is not installed") {
		t.Fatalf("missing git: %v", err)
	}
}

func TestUserInputNeverBecomesAnOption(t *testing.T) {
	g := newGit(t)
	dir := t.TempDir()
	if _, err := g.Run(context.Background(), dir, Command("init", "-q").Value("repo")); err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(dir, "repo")
	for _, bad := range []string{"--upload-pack=touch /tmp/pwned", "-h", "", "a\x00b"} {
		_, err := g.Run(context.Background(), repo, Command("checkout").Value(bad))
		if err == nil || !strings.Contains(err.Error(), "refused") {
			t.Errorf("Value(%q) ran: %v", bad, err)
		}
	}
	// A path that looks like an option is just a path after "--".
	if err := os.WriteFile(filepath.Join(repo, "-rf"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Run(context.Background(), repo, Command("add").Paths("-rf")); err != nil {
		t.Fatalf("add -- -rf: %v", err)
	}
	out, err := g.Run(context.Background(), repo, Command("status", "--porcelain"))
	if err != nil || !strings.Contains(string(out), "A  -rf") {
		t.Fatalf("status = %q %v", out, err)
	}
	// Option keeps a dash-leading value a value.
	c := Command("log").Option("--grep", "-v")
	if got := c.Args(); got[1] != "--grep=-v" {
		t.Fatalf("Option args %v", got)
	}
	if _, err := g.Run(context.Background(), repo, Command("log").Option("-n", "1")); err == nil {
		t.Fatal("a short option name must be refused")
	}
}

func TestCleanEnvironment(t *testing.T) {
	t.Setenv("GIT_DIR", "/nonexistent") // the machine's git variables must not leak in
	home := t.TempDir()
	// A user config that would break commits if it were read.
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tname = Wrong\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home) // the process's own HOME, which gitcli must not use
	g, err := New(context.Background(), Options{Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ctx := context.Background()
	if _, err := g.Run(ctx, dir, Command("init", "-q")); err != nil {
		t.Fatal(err)
	}
	out, err := g.Run(ctx, dir, Command("config", "--get").Value("user.name"))
	if err == nil {
		t.Fatalf("a user name leaked into the environment: %q", out)
	}
	var ge *Error
	if !errors.As(err, &ge) || ge.ExitCode != 1 {
		t.Fatalf("err = %v", err)
	}
	_, err = g.Run(ctx, dir, Command("commit", "-q", "--allow-empty", "-m", "x").
		Env("GIT_AUTHOR_NAME", "Ann").Env("GIT_AUTHOR_EMAIL", "ann@example.com").
		Env("GIT_COMMITTER_NAME", "Portalwright").Env("GIT_COMMITTER_EMAIL", "pw@example.com"))
	if err != nil {
		t.Fatal(err)
	}
	out, _ = g.Run(ctx, dir, Command("log", "-1", "--format=%an <%ae>"))
	if strings.TrimSpace(string(out)) != "Ann <ann@example.com>" {
		t.Fatalf("author %q", out)
	}
}

func TestErrorsCarryStderrAndTimeouts(t *testing.T) {
	g := newGit(t)
	_, err := g.Run(context.Background(), t.TempDir(), Command("rev-parse", "HEAD"))
	var ge *Error
	if !errors.As(err, &ge) || ge.ExitCode == 0 || !strings.Contains(ge.Stderr, "not a git repository") {
		t.Fatalf("err = %#v", err)
	}
	// A command that waits for stdin forever is stopped by its time-out.
	r, w, _ := os.Pipe()
	defer w.Close()
	_, err = g.Run(context.Background(), t.TempDir(), Command("hash-object", "--stdin").Stdin(r).Timeout(200*time.Millisecond))
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("timeout err = %v", err)
	}
}

func TestLocksSerialisePerKey(t *testing.T) {
	l := NewLocks()
	ctx := context.Background()
	var inside, maxInside int32
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			unlock, err := l.Lock(ctx, "portal-1")
			if err != nil {
				t.Error(err)
				return
			}
			n := atomic.AddInt32(&inside, 1)
			for {
				m := atomic.LoadInt32(&maxInside)
				if n <= m || atomic.CompareAndSwapInt32(&maxInside, m, n) {
					break
				}
			}
			time.Sleep(time.Millisecond)
			atomic.AddInt32(&inside, -1)
			unlock()
			unlock() // a second unlock is harmless
		}()
	}
	wg.Wait()
	if maxInside != 1 {
		t.Fatalf("%d holders at once", maxInside)
	}
	// Other keys do not wait; a waiter gives up with its context.
	unlock, _ := l.Lock(ctx, "a")
	other, err := l.Lock(ctx, "b")
	if err != nil {
		t.Fatal(err)
	}
	other()
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := l.Lock(short, "a"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("waiter err = %v", err)
	}
	unlock()
	if len(l.locks) != 0 {
		t.Fatalf("unused locks kept: %d", len(l.locks))
	}
}
