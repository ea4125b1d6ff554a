package backups

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"portalwright/internal/gitcli"
	"portalwright/internal/workspace"
	"portalwright/internal/workspace/workspacetest"
)

// TestBackupRoundTrip: a canonical repository and three workspaces go through a bundle and
// back into another data directory: a workspace with unpushed commits, discarded work and
// uncommitted changes (added, changed, deleted files) gets every one back as it was, without the
// backup having changed it; one on a branch deleted from the portal keeps that branch; a clean
// one needs no bundle. A commit the caller keeps that no ref reaches is in the bundle under
// ReferencedRefs.
func TestBackupRoundTrip(t *testing.T) {
	ctx := context.Background()
	r := workspacetest.NewRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, workspacetest.Starter(), "Create portal", workspace.SystemAuthor); err != nil {
		t.Fatal(err)
	}
	git := func(dir string, args ...string) string { t.Helper(); return workspacetest.GitOut(t, r, dir, args...) }
	commitAll := func(dir, message string) {
		t.Helper()
		git(dir, "add", "-A")
		if _, err := r.Core().Run(ctx, dir, workspacetest.Ann.Env(gitcli.Command("commit", "-q").Option("--message", message))); err != nil {
			t.Fatal(err)
		}
	}
	// A commit only a deleted branch had (a loadable's, say).
	if err := r.Core().CreateBranch(ctx, 1, "gone", workspace.DefaultBranch); err != nil {
		t.Fatal(err)
	}
	workspacetest.Open(t, r, 30, "gone")
	workspacetest.Write(t, r, 30, "pages/gone.html", "<p>only on gone</p>")
	res, err := r.Commit(ctx, 30, 1, "On gone", workspacetest.Ann)
	if err != nil {
		t.Fatal(err)
	}
	lost := res.CommitID
	if _, err := r.Reset(ctx, 30, 1, workspace.DefaultBranch, workspace.DefaultBranch); err != nil {
		t.Fatal(err)
	}
	if err := r.Core().DeleteBranch(ctx, 1, "gone"); err != nil {
		t.Fatal(err)
	}

	// Ann: unpushed commits, discarded work, uncommitted changes.
	workspacetest.Open(t, r, 10, workspace.DefaultBranch)
	ws := r.WorkspaceDir(10, 1)
	workspacetest.Write(t, r, 10, "pages/local.html", "<p>committed locally, never pushed</p>")
	commitAll(ws, "Local only")
	git(ws, "update-ref", workspace.KeptRefs+workspace.DefaultBranch+"/1", git(ws, "rev-parse", "HEAD")) // as a reset keeps work
	workspacetest.Write(t, r, 10, "pages/home.html", "<p>home, not committed</p>")
	workspacetest.Write(t, r, 10, "pages/new.html", "<p>new, not committed</p>")
	if err := os.Remove(filepath.Join(ws, "index.html")); err != nil {
		t.Fatal(err)
	}
	st, _ := r.Status(ctx, 10, 1)
	statusBefore := git(ws, "status", "--porcelain")
	indexBefore, _ := os.ReadFile(filepath.Join(ws, ".git", "index"))
	headBefore := git(ws, "rev-parse", "HEAD")

	// Bob: on a branch deleted from the portal meanwhile, with a commit on it.
	if err := r.Core().CreateBranch(ctx, 1, "feature", workspace.DefaultBranch); err != nil {
		t.Fatal(err)
	}
	workspacetest.Open(t, r, 20, "feature")
	bobWS := r.WorkspaceDir(20, 1)
	workspacetest.Write(t, r, 20, "pages/feature.html", "<p>feature</p>")
	commitAll(bobWS, "Feature work")
	bobHead := git(bobWS, "rev-parse", "HEAD")

	// Carol: clean.
	workspacetest.Open(t, r, 40, workspace.DefaultBranch)

	scratch := t.TempDir()
	snap, err := New(r).BundleCanonical(ctx, 1, scratch, filepath.Join(scratch, "1.bundle"), []string{lost, "not-a-sha", strings.Repeat("ab", 20)})
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Kept) != 1 || snap.Kept[0] != lost || snap.Refs[ReferencedRefs+lost] != lost || len(snap.Missing) != 1 {
		t.Fatalf("kept %v, missing %v, refs %v", snap.Kept, snap.Missing, snap.Refs)
	}
	// Bob's branch leaves the repository (as a git host's sync can make it) with his commit
	// still only in his workspace.
	git(r.Core().Bare(1), "update-ref", "-d", "refs/heads/feature")
	snap, err = New(r).BundleCanonical(ctx, 1, scratch, filepath.Join(scratch, "1.bundle"), []string{lost})
	if err != nil {
		t.Fatal(err)
	}
	exports := map[int64]*WorkspaceSnapshot{}
	for _, u := range []int64{10, 20, 40} {
		ws, err := New(r).ExportWorkspace(ctx, u, 1, scratch, filepath.Join(scratch, "ws.bundle."+string(rune('0'+u/10))), snap.Tips())
		if err != nil {
			t.Fatal(err)
		}
		exports[u] = ws
	}
	if got := git(ws, "status", "--porcelain"); got != statusBefore {
		t.Errorf("the backup changed workspacetest.Ann's status: %q, was %q", got, statusBefore)
	}
	if idx, _ := os.ReadFile(filepath.Join(ws, ".git", "index")); string(idx) != string(indexBefore) {
		t.Error("the backup changed workspacetest.Ann's index")
	}
	a, b, c := exports[10], exports[20], exports[40]
	if a.Branch != workspace.DefaultBranch || a.Head != headBefore || a.Worktree == "" || len(a.Refs) != 1 || !a.Bundled {
		t.Fatalf("workspacetest.Ann's snapshot %+v", a)
	}
	if b.Branch != "feature" || b.Head != bobHead || b.Worktree != "" || !b.Bundled {
		t.Fatalf("bob's snapshot %+v", b)
	}
	if c.Bundled || c.Worktree != "" {
		t.Fatalf("carol's clean workspace %+v", c)
	}

	// Restore into another data directory.
	r2 := workspacetest.NewRepos(t)
	if err := New(r2).RestoreCanonical(ctx, 1, filepath.Join(scratch, "1.bundle"), snap); err != nil {
		t.Fatal(err)
	}
	for u, s := range exports {
		bundle := ""
		if s.Bundled {
			bundle = filepath.Join(scratch, "ws.bundle."+string(rune('0'+u/10)))
		}
		if err := New(r2).RestoreWorkspace(ctx, u, 1, bundle, s); err != nil {
			t.Fatal(err)
		}
	}
	if got := git(r2.Core().Bare(1), "rev-parse", ReferencedRefs+lost); got != lost {
		t.Errorf("the kept commit: %q", got)
	}
	ws2 := r2.WorkspaceDir(10, 1)
	if got := git(ws2, "status", "--porcelain"); got != statusBefore {
		t.Errorf("workspacetest.Ann's restored status %q, want %q", got, statusBefore)
	}
	st2, err := r2.Status(ctx, 10, 1)
	if err != nil || st2.Ahead != st.Ahead || st2.Branch != st.Branch || len(st2.Changes) != len(st.Changes) {
		t.Errorf("workspacetest.Ann's restored status %+v, was %+v (%v)", st2, st, err)
	}
	for _, f := range []string{"pages/home.html", "pages/new.html", "pages/local.html"} {
		x, _ := os.ReadFile(filepath.Join(ws, f))
		y, _ := os.ReadFile(filepath.Join(ws2, f))
		if string(x) != string(y) {
			t.Errorf("%s: %q, was %q", f, y, x)
		}
	}
	if _, err := os.Stat(filepath.Join(ws2, "index.html")); err == nil {
		t.Error("the deleted index.html is back")
	}
	if got, want := git(ws2, "for-each-ref", "--format=%(refname) %(objectname)", workspace.KeptRefs), git(ws, "for-each-ref", "--format=%(refname) %(objectname)", workspace.KeptRefs); got != want || got == "" {
		t.Errorf("discarded work %q, want %q", got, want)
	}
	if got := git(r2.WorkspaceDir(20, 1), "rev-parse", "--abbrev-ref", "HEAD"); got != "feature" {
		t.Errorf("bob is on %q", got)
	}
	if got := git(r2.WorkspaceDir(20, 1), "rev-parse", "HEAD"); got != bobHead {
		t.Errorf("bob's head %s, want %s", got, bobHead)
	}
	if got := git(r2.WorkspaceDir(40, 1), "status", "--porcelain"); got != "" {
		t.Errorf("carol's restored workspace is not clean: %q", got)
	}
	for _, dir := range []string{r2.Core().Bare(1), ws2, r2.WorkspaceDir(20, 1), r2.WorkspaceDir(40, 1)} {
		git(dir, "fsck", "--no-progress")
	}
}
