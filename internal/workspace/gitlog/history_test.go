package gitlog

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"portalwright/internal/workspace"
	"portalwright/internal/workspace/workspacetest"
)

func TestHistoryListsCommitsWithFiles(t *testing.T) {
	ctx := context.Background()
	r := workspacetest.NewRepos(t)
	workspacetest.Portal(t, r)
	l := New(r.Core())
	workspacetest.Open(t, r, 10, workspace.DefaultBranch)
	workspacetest.Write(t, r, 10, "pages/news page.html", "<p>news</p>")
	workspacetest.Write(t, r, 10, "pages/home.html", "<p>home v2</p>")
	if err := os.Remove(filepath.Join(r.WorkspaceDir(10, 1), "index.html")); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Commit(ctx, 10, 1, "Update pages\x1eodd", workspacetest.Ann); err != nil {
		t.Fatal(err)
	}

	got, err := l.History(ctx, 1, workspace.DefaultBranch, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("history = %+v", got)
	}
	c := got[0]
	if c.Author != workspacetest.Ann.Name || c.Email != workspacetest.Ann.Email || c.Message == "" || len(c.CommitID) != 40 || c.Time.IsZero() {
		t.Fatalf("newest commit %+v", c)
	}
	want := map[string]string{"pages/news page.html": workspace.ChangeAdd, "pages/home.html": workspace.ChangeModify, "index.html": workspace.ChangeDelete}
	if len(c.Files) != len(want) || c.FilesTotal != len(want) {
		t.Fatalf("files = %+v", c.Files)
	}
	for _, f := range c.Files {
		if want[f.Path] != f.Change {
			t.Fatalf("files = %+v, want %v", c.Files, want)
		}
	}
	if got[1].Message != "Create portal" || got[1].Author != workspace.SystemAuthor.Name || got[1].FilesTotal != len(workspacetest.Starter()) {
		t.Fatalf("first commit %+v", got[1])
	}

	// The limit and the per-commit file cap.
	if one, _ := l.History(ctx, 1, workspace.DefaultBranch, 1); len(one) != 1 || one[0].CommitID != c.CommitID {
		t.Fatalf("limit 1: %+v", one)
	}
	for i := 0; i < MaxFilesPerCommit+5; i++ {
		workspacetest.Write(t, r, 10, "bulk/f"+strconv.Itoa(i)+".txt", "x")
	}
	if _, err := r.Commit(ctx, 10, 1, "Bulk", workspacetest.Ann); err != nil {
		t.Fatal(err)
	}
	got, _ = l.History(ctx, 1, workspace.DefaultBranch, 5)
	if len(got[0].Files) != MaxFilesPerCommit || got[0].FilesTotal != MaxFilesPerCommit+5 {
		t.Fatalf("bulk commit: %d files listed of %d", len(got[0].Files), got[0].FilesTotal)
	}

	// Missing branch, missing portal, a name git would read as an option.
	for _, tc := range []struct {
		portal int64
		branch string
	}{{1, "nope"}, {2, workspace.DefaultBranch}, {1, "--all"}} {
		if _, err := l.History(ctx, tc.portal, tc.branch, 5); !errors.Is(err, workspace.ErrBranchMissing) {
			t.Fatalf("History(%d, %q) = %v, want workspace.ErrBranchMissing", tc.portal, tc.branch, err)
		}
	}
}
