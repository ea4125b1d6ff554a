package workspace

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func TestHistoryListsCommitsWithFiles(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	if err := r.CreateFromFiles(ctx, 1, starter(), "Create portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	open(t, r, 10, DefaultBranch)
	write(t, r, 10, "pages/news page.html", "<p>news</p>")
	write(t, r, 10, "pages/home.html", "<p>home v2</p>")
	if err := os.Remove(filepath.Join(r.WorkspaceDir(10, 1), "index.html")); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Commit(ctx, 10, 1, "Update pages\x1eodd", ann); err != nil {
		t.Fatal(err)
	}

	got, err := r.History(ctx, 1, DefaultBranch, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("history = %+v", got)
	}
	c := got[0]
	if c.Author != ann.Name || c.Email != ann.Email || c.Message == "" || len(c.CommitID) != 40 || c.Time.IsZero() {
		t.Fatalf("newest commit %+v", c)
	}
	want := map[string]string{"pages/news page.html": ChangeAdd, "pages/home.html": ChangeModify, "index.html": ChangeDelete}
	if len(c.Files) != len(want) || c.FilesTotal != len(want) {
		t.Fatalf("files = %+v", c.Files)
	}
	for _, f := range c.Files {
		if want[f.Path] != f.Change {
			t.Fatalf("files = %+v, want %v", c.Files, want)
		}
	}
	if got[1].Message != "Create portal" || got[1].Author != SystemAuthor.Name || got[1].FilesTotal != len(starter()) {
		t.Fatalf("first commit %+v", got[1])
	}

	// The limit and the per-commit file cap.
	if one, _ := r.History(ctx, 1, DefaultBranch, 1); len(one) != 1 || one[0].CommitID != c.CommitID {
		t.Fatalf("limit 1: %+v", one)
	}
	for i := 0; i < MaxFilesPerCommit+5; i++ {
		write(t, r, 10, "bulk/f"+strconv.Itoa(i)+".txt", "x")
	}
	if _, err := r.Commit(ctx, 10, 1, "Bulk", ann); err != nil {
		t.Fatal(err)
	}
	got, _ = r.History(ctx, 1, DefaultBranch, 5)
	if len(got[0].Files) != MaxFilesPerCommit || got[0].FilesTotal != MaxFilesPerCommit+5 {
		t.Fatalf("bulk commit: %d files listed of %d", len(got[0].Files), got[0].FilesTotal)
	}

	// Missing branch, missing portal, a name git would read as an option.
	for _, tc := range []struct {
		portal int64
		branch string
	}{{1, "nope"}, {2, DefaultBranch}, {1, "--all"}} {
		if _, err := r.History(ctx, tc.portal, tc.branch, 5); !errors.Is(err, ErrBranchMissing) {
			t.Fatalf("History(%d, %q) = %v, want ErrBranchMissing", tc.portal, tc.branch, err)
		}
	}
}
