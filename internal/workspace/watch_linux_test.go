//go:build linux

package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

// A workspace too large to walk answers its status from the record while the kernel saw no
// change, and asks git again after any change made outside the product: a write, a new
// folder and a file in it, a mode change, a rename, a deleted folder.
func TestLargeWorkspaceStatusFollowsTheWatch(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	files := starter()
	for i := 0; i < treeLimit+100; i++ {
		files[fmt.Sprintf("pages/%02d/p%d.html", i%40, i)] = &fstest.MapFile{Data: []byte(fmt.Sprintf("<p>%d</p>\n", i))}
	}
	if err := r.Core().CreateFromFiles(ctx, 1, files, "Create portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	open(t, r, 10, DefaultBranch)
	ws := r.WorkspaceDir(10, 1)
	if treeOf(ws) != nil {
		t.Fatal("the workspace should be too large to walk")
	}
	status := func() *Status {
		t.Helper()
		st, err := r.Status(ctx, 10, 1)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	fromRecord := func() bool {
		_, ok := r.unchangedStatus(ctx, 10, 1)
		return ok
	}
	status()
	if !fromRecord() {
		t.Fatal("an unchanged large workspace should answer from its record")
	}
	steps := []struct {
		name   string
		change func() error
		path   string
		kind   string
	}{
		{"write", func() error {
			return os.WriteFile(filepath.Join(ws, "pages/07/p7.html"), []byte("<p>seven</p>\n"), 0o644)
		}, "pages/07/p7.html", ChangeModify},
		{"new folder", func() error { return os.MkdirAll(filepath.Join(ws, "pages/new/deep"), 0o755) }, "", ""},
		{"file in the new folder", func() error { return os.WriteFile(filepath.Join(ws, "pages/new/deep/n.html"), []byte("n"), 0o644) }, "pages/new/deep/n.html", ChangeAdd},
		{"mode", func() error { return os.Chmod(filepath.Join(ws, "pages/03/p3.html"), 0o755) }, "pages/03/p3.html", ChangeModify},
		{"rename", func() error {
			return os.Rename(filepath.Join(ws, "pages/05/p5.html"), filepath.Join(ws, "pages/05/moved.html"))
		}, "pages/05/moved.html", ChangeAdd},
		{"deleted folder", func() error { return os.RemoveAll(filepath.Join(ws, "pages/11")) }, "pages/11/p11.html", ChangeDelete},
	}
	for _, s := range steps {
		if err := s.change(); err != nil {
			t.Fatal(err)
		}
		if fromRecord() {
			t.Fatalf("%s: answered from the record after a change", s.name)
		}
		st := status()
		if s.path != "" && st.Changes[s.path] != s.kind {
			t.Fatalf("%s: changes %v", s.name, st.Changes)
		}
		if !fromRecord() {
			t.Fatalf("%s: not answered from the record once the status was taken", s.name)
		}
	}

	// Another instance on the same data dir never trusts this one's watch.
	other := NewRepos(r.git, r.locks, r.root)
	if _, ok := other.unchangedStatus(ctx, 10, 1); ok {
		t.Fatal("another instance trusted this one's watch")
	}
	// A workspace moved away and back is watched afresh.
	if err := os.Rename(ws, ws+".away"); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(ws+".away", ws); err != nil {
		t.Fatal(err)
	}
	if fromRecord() {
		t.Fatal("a moved workspace answered from its record")
	}
	status()
	if !fromRecord() {
		t.Fatal("not watched again after its next status")
	}
}
