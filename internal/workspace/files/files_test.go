package files

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"portalwright/internal/workspace"
	"portalwright/internal/workspace/workspacetest"
)

// The file layer's list, stat, move and remove: on checked paths, under the workspace lock,
// refusing links and stale versions, and answering the workspace's new status.
func TestFileLayer(t *testing.T) {
	ctx := context.Background()
	r := workspacetest.NewRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, workspacetest.Starter(), "Create", workspace.SystemAuthor); err != nil {
		t.Fatal(err)
	}
	workspacetest.Open(t, r, 2, "master")

	v, st, err := New(r).WriteFile(ctx, 2, 1, workspace.MustPath("pages/news.html"), []byte("<h1>News</h1>"), workspace.NoVersion)
	if err != nil || st == nil || st.Changes["pages/news.html"] == "" {
		t.Fatalf("write: %v, status %+v", err, st)
	}
	list, err := New(r).List(ctx, 2, 1, workspace.Root)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, f := range list {
		names[f.Path] = f.Dir
	}
	if isDir, ok := names["pages"]; !ok || !isDir || names[".git"] {
		t.Fatalf("top folder: %+v", list)
	}
	in, err := New(r).List(ctx, 2, 1, workspace.MustPath("pages"))
	found := false
	for _, f := range in {
		found = found || f.Path == "pages/news.html"
	}
	if err != nil || !found {
		t.Fatalf("pages: %+v %v", in, err)
	}
	info, err := New(r).Stat(ctx, 2, 1, workspace.MustPath("pages/news.html"))
	if err != nil || info.Version != v || info.Dir || info.Size != int64(len("<h1>News</h1>")) {
		t.Fatalf("stat: %+v %v", info, err)
	}

	var stale *workspace.ErrStale
	if _, err := New(r).Move(ctx, 2, 1, workspace.MustPath("pages/news.html"), workspace.MustPath("pages/old.html"), workspace.NoVersion); !errors.As(err, &stale) {
		t.Fatalf("a move from a stale version: %v", err)
	}
	st, err = New(r).Move(ctx, 2, 1, workspace.MustPath("pages/news.html"), workspace.MustPath("archive/2026/news.html"), v)
	if err != nil || st == nil || st.Changes["archive/2026/news.html"] == "" || st.Changes["pages/news.html"] != "" {
		t.Fatalf("move: %v, status %+v", err, st)
	}
	if _, err := New(r).Move(ctx, 2, 1, workspace.MustPath("archive"), workspace.MustPath("portal.json"), workspace.NoVersion); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("a move onto an existing file: %v", err)
	}
	if _, err := New(r).Remove(ctx, 2, 1, workspace.Root, workspace.NoVersion); !errors.Is(err, workspace.ErrBadPath) {
		t.Fatalf("removing the workspace: %v", err)
	}
	st, err = New(r).Remove(ctx, 2, 1, workspace.MustPath("archive"), workspace.NoVersion)
	if err != nil || st == nil || st.HasChanges() {
		t.Fatalf("remove: %v, status %+v", err, st)
	}

	// A link found on disk is neither listed, described nor followed.
	if err := os.Symlink("/etc", filepath.Join(r.WorkspaceDir(2, 1), "etc")); err != nil {
		t.Fatal(err)
	}
	if _, err := New(r).Stat(ctx, 2, 1, workspace.MustPath("etc")); !errors.Is(err, workspace.ErrLink) {
		t.Fatalf("stat of a link: %v", err)
	}
	if _, err := New(r).List(ctx, 2, 1, workspace.MustPath("etc")); !errors.Is(err, workspace.ErrLink) {
		t.Fatalf("list through a link: %v", err)
	}
	list, _ = New(r).List(ctx, 2, 1, workspace.Root)
	for _, f := range list {
		if f.Name == "etc" {
			t.Fatal("a link was listed")
		}
	}
}
