package workspace

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"portalwright/internal/gitcli"
)

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
