package workspace

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// WriteFiles: all written with their versions; a stale base writes nothing; a failure while
// renaming the third file puts the first two back byte for byte.
func TestWriteFilesAllOrNothing(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	open(t, r, 2, "master")
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
	a, b, c := MustPath("tr/a.json"), MustPath("tr/b.json"), MustPath("tr/sub/c.json")

	// All three written (none existed), with their versions and one status.
	vs, st, err := r.Files().WriteFiles(ctx, 2, 1, []FileWrite{{a, []byte("A1"), NoVersion, false}, {b, []byte("B1"), NoVersion, false}, {c, []byte("C1"), NoVersion, false}})
	if err != nil || len(vs) != 3 || vs[0] != VersionOf([]byte("A1")) || vs[2] != VersionOf([]byte("C1")) || st == nil || st.Changes["tr/sub/c.json"] == "" {
		t.Fatalf("write: %v %v %+v", vs, err, st)
	}
	noLeftovers()

	// A stale base on the last file: nothing written, the error names it.
	_, _, err = r.Files().WriteFiles(ctx, 2, 1, []FileWrite{{a, []byte("A2"), vs[0], false}, {b, []byte("B2"), vs[1], false}, {c, []byte("C2"), NoVersion, false}})
	var stale *ErrStale
	var fe *FileWriteError
	if !errors.As(err, &stale) || !errors.As(err, &fe) || fe.Path != c || stale.Current != vs[2] {
		t.Fatalf("stale: %v", err)
	}
	if string(read("tr/a.json")) != "A1" || string(read("tr/b.json")) != "B1" {
		t.Fatal("a stale save wrote something")
	}
	// The same path twice is refused.
	if _, _, err := r.Files().WriteFiles(ctx, 2, 1, []FileWrite{{a, []byte("x"), vs[0], false}, {a, []byte("y"), vs[0], false}}); !errors.Is(err, ErrBadPath) {
		t.Fatalf("twice: %v", err)
	}

	// The third file's folder is a file: refused before anything moves.
	_, _, err = r.Files().WriteFiles(ctx, 2, 1, []FileWrite{{a, []byte("A3"), vs[0], false}, {b, []byte("B3"), vs[1], false}, {MustPath("tr/a.json/c.json"), []byte("C3"), NoVersion, false}})
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
	_, _, err = r.Files().WriteFiles(ctx, 2, 1, []FileWrite{{a, []byte("A4 new content"), vs[0], false}, {b, []byte("B4"), vs[1], false}, {c, []byte("C4"), vs[2], false}})
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
	_, _, err = r.Files().WriteFiles(ctx, 2, 1, []FileWrite{{MustPath("tr/new.json"), []byte("N"), NoVersion, false}, {b, []byte("B5"), NoVersion, false}})
	beforeRename = nil
	if err == nil {
		t.Fatal("a rename onto a non-empty folder succeeded")
	}
	if _, err := os.Stat(filepath.Join(dir, "tr", "new.json")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("new file left after a failed save: %v", err)
	}
	noLeftovers()
}
