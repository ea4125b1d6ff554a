package workspace

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"portalwright/internal/gitcli"
)

// serveGit serves the bare repositories below dir with a real git daemon on loopback and
// answers the URL of dir/name. The daemon stops with the test.
func serveGit(t *testing.T, dir, name string) string {
	t.Helper()
	port := freePort(t)
	daemon := exec.Command("git", "daemon", "--reuseaddr", "--export-all", "--listen=127.0.0.1", "--port="+port, "--base-path="+dir, dir)
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = daemon.Process.Kill(); _ = daemon.Wait() })
	url := "git://127.0.0.1:" + port + "/" + name
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if c, err := net.DialTimeout("tcp", "127.0.0.1:"+port, time.Second); err == nil {
			c.Close()
			break
		}
	}
	return url
}

// upstream makes a bare repository in dir/name.git from a working tree built by fill, with
// the given default branch.
func upstream(t *testing.T, r *Repos, dir, name, branch string, fill func(work string)) string {
	t.Helper()
	ctx := context.Background()
	work := filepath.Join(t.TempDir(), "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	fill(work)
	for _, c := range []*gitcli.Cmd{
		gitcli.Command("init", "-q").Option("--initial-branch", branch),
		gitcli.Command("add", "-A"),
		authorEnv(gitcli.Command("commit", "-q").Option("--message", "upstream"), ann),
	} {
		// A checkout in the test's own git (not the product's, which never writes links)
		// so that the repository really carries symbolic links.
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t"}, c.Args()...)...)
		cmd.Dir = work
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %v %s", c.Args(), err, out)
		}
	}
	bare := filepath.Join(dir, name+".git")
	if _, err := r.git.Run(ctx, dir, gitcli.Command("clone", "-q", "--bare").Value(work, bare)); err != nil {
		t.Fatal(err)
	}
	return bare
}

func TestSymlinksInPortalContentNeverEscape(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	// What a link could reach: a JSON file on the host and another user's workspace.
	host := t.TempDir()
	secret := filepath.Join(host, "secret.json")
	os.WriteFile(secret, []byte(`{"secret":"host"}`), 0o644)
	os.MkdirAll(filepath.Join(host, "engine"), 0o755)
	os.WriteFile(filepath.Join(host, "engine", "portal-engine.js"), []byte(`VERSION = '9.9.9'`), 0o644)
	if err := r.Core().CreateFromFiles(ctx, 4, starter(), "other portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Open(ctx, 5, 4, "master", false); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(r.WorkspaceDir(5, 4), "probe-settings.json"), []byte(`{"victim":true}`), 0o644)

	served := t.TempDir()
	upstream(t, r, served, "links", "main", func(w string) {
		os.WriteFile(filepath.Join(w, "index.html"), []byte("<p>x</p>"), 0o644)
		os.Symlink("../../5/4/probe-settings.json", filepath.Join(w, "probe-settings.json")) // relative, into another workspace
		os.Symlink(secret, filepath.Join(w, "portal.json"))                                  // absolute
		os.Symlink(filepath.Join(host, "engine"), filepath.Join(w, "engine"))                // a linked folder
	})
	url := serveGit(t, served, "links.git")
	if err := r.Core().ImportURL(ctx, 1, url, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Open(ctx, 2, 1, "main", false); err != nil {
		t.Fatal(err)
	}
	dir := r.WorkspaceDir(2, 1)
	for _, name := range []string{"probe-settings.json", "portal.json", "engine"} {
		fi, err := os.Lstat(filepath.Join(dir, name))
		if err != nil || fi.Mode()&fs.ModeSymlink != 0 || !fi.Mode().IsRegular() {
			t.Fatalf("%s must be checked out as a plain file, got %v %v", name, fi.Mode(), err)
		}
	}
	data, _, err := r.Files().ReadFile(2, 1, MustPath("portal.json"))
	if err != nil || strings.Contains(string(data), "host") || string(data) != secret {
		t.Fatalf("portal.json must hold the link's text, got %q %v", data, err)
	}
	data, _, err = r.Files().ReadFile(2, 1, MustPath("probe-settings.json"))
	if err != nil || strings.Contains(string(data), "victim") {
		t.Fatalf("probe-settings.json leaked another workspace: %q %v", data, err)
	}
	if _, _, err := r.Files().ReadFile(2, 1, MustPath("engine/portal-engine.js")); err == nil {
		t.Fatal("a file below a linked folder must not be readable")
	}

	// A link on disk anyway (made by hand, or before links were turned off) is refused,
	// whether it is the file itself or a folder on the way.
	os.Remove(filepath.Join(dir, "portal.json"))
	os.Symlink(secret, filepath.Join(dir, "portal.json"))
	if _, _, err := r.Files().ReadFile(2, 1, MustPath("portal.json")); !errors.Is(err, ErrLink) {
		t.Fatalf("reading a link: %v", err)
	}
	if _, _, err := r.Files().WriteFile(ctx, 2, 1, MustPath("portal.json"), []byte("{}"), VersionOf([]byte(`{"secret":"host"}`))); err == nil {
		t.Fatal("writing through a link must be refused")
	}
	if got, _ := os.ReadFile(secret); string(got) != `{"secret":"host"}` {
		t.Fatalf("the link's target was written: %s", got)
	}
	os.Remove(filepath.Join(dir, "engine"))
	os.Symlink(filepath.Join(host, "engine"), filepath.Join(dir, "engine"))
	if _, _, err := r.Files().ReadFile(2, 1, MustPath("engine/portal-engine.js")); err == nil {
		t.Fatal("a linked folder on disk must not be followed out of the workspace")
	}
	if _, _, err := r.Files().WriteFile(ctx, 2, 1, MustPath("engine/new.js"), []byte("x"), NoVersion); err == nil {
		t.Fatal("writing below a linked folder must be refused")
	}
	if _, err := os.Stat(filepath.Join(host, "engine", "new.js")); err == nil {
		t.Fatal("a file was written outside the workspace")
	}
}

func TestCleanPath(t *testing.T) {
	for _, bad := range []string{"", "/etc/passwd", "../x", "a/../../x", "a//b", "./a", "a/.", ".git/config", "x/.GIT/HEAD", "a\\b", "a\x00b"} {
		if _, err := CleanPath(bad); err == nil {
			t.Errorf("CleanPath(%q) must be refused", bad)
		}
	}
	for _, good := range []string{"portal.json", "pages/home.html", "assets/a b/c.png", ".gitignore", "..hidden"} {
		if p, err := CleanPath(good); err != nil || p.String() != good {
			t.Errorf("CleanPath(%q) = %v %v", good, p, err)
		}
	}
}

func TestWriteFileRefusesStaleVersions(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	open(t, r, 2, "master")
	p := MustPath("portal.json")
	_, v0, err := r.Files().ReadFile(2, 1, p)
	if err != nil {
		t.Fatal(err)
	}
	v1, _, err := r.Files().WriteFile(ctx, 2, 1, p, []byte(`{"a":1}`), v0)
	if err != nil {
		t.Fatal(err)
	}
	var stale *ErrStale
	if _, _, err := r.Files().WriteFile(ctx, 2, 1, p, []byte(`{"a":2}`), v0); !errors.As(err, &stale) || stale.Current != v1 {
		t.Fatalf("stale write: %v", err)
	}
	if _, _, err := r.Files().WriteFile(ctx, 2, 1, MustPath("new/deep/file.json"), []byte(`{}`), v1); !errors.As(err, &stale) || stale.Current != NoVersion {
		t.Fatalf("a new file must be based on NoVersion: %v", err)
	}
	if _, _, err := r.Files().WriteFile(ctx, 2, 1, MustPath("new/deep/file.json"), []byte(`{}`), NoVersion); err != nil {
		t.Fatal(err)
	}
	data, _, _ := r.Files().ReadFile(2, 1, p)
	if string(data) != `{"a":1}` {
		t.Fatalf("content %s", data)
	}
	entries, _ := os.ReadDir(r.WorkspaceDir(2, 1))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".pw-") {
			t.Fatalf("a temporary file was left: %s", e.Name())
		}
	}
}

func TestStaleGitLockFilesAreRemoved(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	open(t, r, 2, "master")
	// What a kill -9 during a commit and during a status leaves behind.
	os.WriteFile(filepath.Join(r.bare(1), "refs", "heads", "master.lock"), nil, 0o644)
	os.WriteFile(filepath.Join(r.WorkspaceDir(2, 1), ".git", "index.lock"), nil, 0o644)
	write(t, r, 2, "pages/new.html", "<p>new</p>")
	if _, err := r.Commit(ctx, 2, 1, "After a crash", ann); err != nil {
		t.Fatalf("commit after a crash: %v", err)
	}
	os.WriteFile(filepath.Join(r.WorkspaceDir(2, 1), ".git", "index.lock"), nil, 0o644)
	if _, err := r.Reset(ctx, 2, 1, "", ""); err != nil {
		t.Fatalf("reset after a crash: %v", err)
	}
	os.WriteFile(filepath.Join(r.WorkspaceDir(2, 1), ".git", "HEAD.lock"), nil, 0o644)
	if _, err := r.Open(ctx, 2, 1, "master", false); err != nil {
		t.Fatalf("open after a crash: %v", err)
	}
}

func TestUnpushedCommitsAreNeverDroppedSilently(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	if err := r.Core().CreateBranch(ctx, 1, "feature", "master"); err != nil {
		t.Fatal(err)
	}
	open(t, r, 2, "feature")
	write(t, r, 2, "pages/feature.html", "<p>f</p>")

	// The branch cannot be deleted under uncommitted work …
	var inUse *BranchInUse
	if err := r.Core().DeleteBranch(ctx, 1, "feature"); !errors.As(err, &inUse) || len(inUse.Users) != 1 || inUse.Users[0] != 2 {
		t.Fatalf("delete with uncommitted work: %v", err)
	}
	// … nor under a commit that did not reach the portal.
	dir := r.WorkspaceDir(2, 1)
	if _, err := r.run(ctx, dir, gitcli.Command("add", "-A")); err != nil {
		t.Fatal(err)
	}
	if _, err := r.run(ctx, dir, authorEnv(gitcli.Command("commit", "-q").Option("--message", "Local only"), ann)); err != nil {
		t.Fatal(err)
	}
	if err := r.Core().DeleteBranch(ctx, 1, "feature"); !errors.As(err, &inUse) {
		t.Fatalf("delete with a local commit: %v", err)
	}
	head, _ := r.run(ctx, dir, gitcli.Command("rev-parse", "HEAD"))

	// If the branch goes anyway (an older server, git by hand), opening another branch
	// refuses to drop the commit, and Reset keeps a copy and lands on the active branch.
	if _, err := r.run(ctx, r.bare(1), gitcli.Command("branch", "-D").Value("feature")); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Open(ctx, 2, 1, "master", false); !errors.Is(err, ErrLocalCommits) {
		t.Fatalf("open master over an unpushed commit: %v", err)
	}
	if _, err := r.Commit(ctx, 2, 1, "Again", ann); !errors.Is(err, ErrBranchMissing) {
		t.Fatalf("commit to a deleted branch: %v", err)
	}
	write(t, r, 2, "pages/more.html", "<p>more</p>")
	if _, err := r.Commit(ctx, 2, 1, "More", ann); !errors.Is(err, ErrBranchMissing) {
		t.Fatalf("commit with changes to a deleted branch: %v", err)
	}
	if n, _ := r.unpushed(ctx, dir); n != 1 {
		t.Fatalf("a refused commit must not commit locally: %d local commits", n)
	}
	os.Remove(filepath.Join(dir, "pages", "more.html"))
	st, err := r.Reset(ctx, 2, 1, "feature", "master")
	if err != nil || st.Branch != "master" || st.HasChanges() {
		t.Fatalf("reset to the active branch: %+v %v", st, err)
	}
	kept, _ := r.run(ctx, dir, gitcli.Command("for-each-ref", "--format=%(objectname)").Value(KeptRefs))
	if strings.TrimSpace(kept) != strings.TrimSpace(head) {
		t.Fatalf("the discarded commit must be kept under %s: %q want %q", KeptRefs, kept, head)
	}
	// A branch nobody works on is deleted as before.
	if err := r.Core().CreateBranch(ctx, 1, "spare", "master"); err != nil {
		t.Fatal(err)
	}
	if err := r.Core().DeleteBranch(ctx, 1, "spare"); err != nil {
		t.Fatal(err)
	}
}

func TestImportOpensOnTheRemoteDefaultBranch(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	served := t.TempDir()
	bare := upstream(t, r, served, "site", "main", func(w string) {
		os.WriteFile(filepath.Join(w, "index.html"), []byte("<p>site</p>"), 0o644)
	})
	if _, err := r.git.Run(ctx, bare, gitcli.Command("branch").Value("feature/dark-mode", "main")); err != nil {
		t.Fatal(err)
	}
	url := serveGit(t, served, "site.git")
	st, err := r.Core().StageURL(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Discard()
	if b, err := st.StartBranch(ctx, ""); err != nil || b != "main" {
		t.Fatalf("default branch %q %v", b, err)
	}

	// Failures say why.
	var re *RemoteError
	if _, err := r.Core().StageURL(ctx, "git://127.0.0.1:"+freePort(t)+"/none.git", nil); !errors.As(err, &re) || re.Failure != RemoteUnreachable {
		t.Fatalf("closed port: %v", err)
	}
	if _, err := r.Core().StageURL(ctx, strings.TrimSuffix(url, "site.git")+"missing.git", nil); !errors.As(err, &re) || re.Failure != RemoteNotRepository {
		t.Fatalf("missing repository: %v", err)
	}
	empty := filepath.Join(served, "empty.git")
	if _, err := r.git.Run(ctx, served, gitcli.Command("init", "-q", "--bare").Value(empty)); err != nil {
		t.Fatal(err)
	}
	st2, err := r.Core().StageURL(ctx, strings.TrimSuffix(url, "site.git")+"empty.git", nil)
	if err == nil {
		defer st2.Discard()
		_, err = st2.StartBranch(ctx, "")
	}
	if !errors.As(err, &re) || re.Failure != RemoteEmpty {
		t.Fatalf("empty repository: %v", err)
	}
}
