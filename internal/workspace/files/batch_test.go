package files

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"portalwright/internal/workspace"
	"portalwright/internal/workspace/workspacetest"
)

// WriteFiles: all written with their versions; a stale base writes nothing; a failure while
// renaming the third file puts the first two back byte for byte.
func TestWriteFilesAllOrNothing(t *testing.T) {
	ctx := context.Background()
	r := workspacetest.NewRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, workspacetest.Starter(), "Create", workspace.SystemAuthor); err != nil {
		t.Fatal(err)
	}
	workspacetest.Open(t, r, 2, "master")
	dir := r.WorkspaceDir(2, 1)
	read := func(name string) []byte {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	noLeftovers := func() {
		t.Helper()
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && strings.HasPrefix(d.Name(), ".pw-write-") {
				t.Errorf("left behind: %s", p)
			}
			return nil
		})
	}
	a, b, c := workspace.MustPath("tr/a.json"), workspace.MustPath("tr/b.json"), workspace.MustPath("tr/sub/c.json")

	// All three written (none existed), with their versions and one status.
	vs, st, err := New(r).WriteFiles(ctx, 2, 1, []workspace.FileWrite{{Path: a, Data: []byte("A1"), Base: workspace.NoVersion, Remove: false}, {Path: b, Data: []byte("B1"), Base: workspace.NoVersion, Remove: false}, {Path: c, Data: []byte("C1"), Base: workspace.NoVersion, Remove: false}})
	if err != nil || len(vs) != 3 || vs[0] != workspace.VersionOf([]byte("A1")) || vs[2] != workspace.VersionOf([]byte("C1")) || st == nil || st.Changes["tr/sub/c.json"] == "" {
		t.Fatalf("write: %v %v %+v", vs, err, st)
	}
	noLeftovers()

	// A stale base on the last file: nothing written, the error names it.
	_, _, err = New(r).WriteFiles(ctx, 2, 1, []workspace.FileWrite{{Path: a, Data: []byte("A2"), Base: vs[0], Remove: false}, {Path: b, Data: []byte("B2"), Base: vs[1], Remove: false}, {Path: c, Data: []byte("C2"), Base: workspace.NoVersion, Remove: false}})
	var stale *workspace.ErrStale
	var fe *workspace.FileWriteError
	if !errors.As(err, &stale) || !errors.As(err, &fe) || fe.Path != c || stale.Current != vs[2] {
		t.Fatalf("stale: %v", err)
	}
	if string(read("tr/a.json")) != "A1" || string(read("tr/b.json")) != "B1" {
		t.Fatal("a stale save wrote something")
	}
	// The same path twice is refused.
	if _, _, err := New(r).WriteFiles(ctx, 2, 1, []workspace.FileWrite{{Path: a, Data: []byte("x"), Base: vs[0], Remove: false}, {Path: a, Data: []byte("y"), Base: vs[0], Remove: false}}); !errors.Is(err, workspace.ErrBadPath) {
		t.Fatalf("twice: %v", err)
	}

	// The third file's folder is a file: refused before anything moves.
	_, _, err = New(r).WriteFiles(ctx, 2, 1, []workspace.FileWrite{{Path: a, Data: []byte("A3"), Base: vs[0], Remove: false}, {Path: b, Data: []byte("B3"), Base: vs[1], Remove: false}, {Path: workspace.MustPath("tr/a.json/c.json"), Data: []byte("C3"), Base: workspace.NoVersion, Remove: false}})
	if err == nil || string(read("tr/a.json")) != "A1" || string(read("tr/b.json")) != "B1" {
		t.Fatalf("a third file under a file: %v", err)
	}
	noLeftovers()

	// The rename of the third file fails for real: just before it, its folder is replaced by a
	// plain file (the temporary file inside goes with it). The first two, already renamed into
	// place, are put back byte for byte.
	oldA, oldB := read("tr/a.json"), read("tr/b.json")
	beforeRename = func(k int) {
		if k == 2 {
			if err := os.RemoveAll(filepath.Join(dir, "tr", "sub")); err != nil {
				t.Error(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "tr", "sub"), []byte("not a folder"), 0o644); err != nil {
				t.Error(err)
			}
		}
	}
	defer func() { beforeRename = nil }()
	_, _, err = New(r).WriteFiles(ctx, 2, 1, []workspace.FileWrite{{Path: a, Data: []byte("A4 new content"), Base: vs[0], Remove: false}, {Path: b, Data: []byte("B4"), Base: vs[1], Remove: false}, {Path: c, Data: []byte("C4"), Base: vs[2], Remove: false}})
	beforeRename = nil
	if !errors.As(err, &fe) || fe.Path != c {
		t.Fatalf("failed rename: %v", err)
	}
	if !bytes.Equal(read("tr/a.json"), oldA) || !bytes.Equal(read("tr/b.json"), oldB) {
		t.Fatalf("not restored: %q %q", read("tr/a.json"), read("tr/b.json"))
	}
	noLeftovers()

	// A new file renamed before the failure is removed again.
	if err := os.Remove(filepath.Join(dir, "tr", "sub")); err != nil {
		t.Fatal(err)
	}
	beforeRename = func(k int) {
		if k == 1 {
			os.MkdirAll(filepath.Join(dir, "tr", "b.json", "x"), 0o755) // b.json becomes a non-empty folder
			os.Remove(filepath.Join(dir, "tr", "b.json"))
		}
	}
	os.Remove(filepath.Join(dir, "tr", "b.json"))
	_, _, err = New(r).WriteFiles(ctx, 2, 1, []workspace.FileWrite{{Path: workspace.MustPath("tr/new.json"), Data: []byte("N"), Base: workspace.NoVersion, Remove: false}, {Path: b, Data: []byte("B5"), Base: workspace.NoVersion, Remove: false}})
	beforeRename = nil
	if err == nil {
		t.Fatal("a rename onto a non-empty folder succeeded")
	}
	if _, err := os.Stat(filepath.Join(dir, "tr", "new.json")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("new file left after a failed save: %v", err)
	}
	noLeftovers()
}
