package files

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"portalwright/internal/workspace"
	"portalwright/internal/workspace/workspacetest"
)

// WriteFiles with a Remove: written and removed together; a stale base on the removed file
// changes nothing; a failure after the removal puts the removed file back byte for byte.
func TestWriteFilesRemove(t *testing.T) {
	ctx := context.Background()
	r := workspacetest.NewRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, workspacetest.Starter(), "Create", workspace.SystemAuthor); err != nil {
		t.Fatal(err)
	}
	workspacetest.Open(t, r, 2, "master")
	dir := r.WorkspaceDir(2, 1)
	at := func(name string) string { return filepath.Join(dir, filepath.FromSlash(name)) }
	a, b, c := workspace.MustPath("p/a.html"), workspace.MustPath("p/b.html"), workspace.MustPath("p/c.html")
	vs, _, err := New(r).WriteFiles(ctx, 2, 1, []workspace.FileWrite{{Path: a, Data: []byte("A1"), Base: workspace.NoVersion}, {Path: b, Data: []byte("B1"), Base: workspace.NoVersion}, {Path: c, Data: []byte("C1"), Base: workspace.NoVersion}})
	if err != nil {
		t.Fatal(err)
	}
	// Stale base on the file to remove: nothing changes.
	_, _, err = New(r).WriteFiles(ctx, 2, 1, []workspace.FileWrite{{Path: a, Data: []byte("A2"), Base: vs[0]}, {Path: b, Base: workspace.VersionOf([]byte("old")), Remove: true}})
	var stale *workspace.ErrStale
	if !errors.As(err, &stale) || stale.Current != vs[1] {
		t.Fatalf("stale remove: %v", err)
	}
	if got, _ := os.ReadFile(at("p/a.html")); string(got) != "A1" {
		t.Fatalf("a written: %q", got)
	}
	// The rename of c fails after b was removed: b comes back, a is put back.
	beforeRename = func(k int) {
		if k == 2 {
			os.Remove(at("p/c.html"))
			os.MkdirAll(at("p/c.html/x"), 0o755)
		}
	}
	_, _, err = New(r).WriteFiles(ctx, 2, 1, []workspace.FileWrite{{Path: a, Data: []byte("A3"), Base: vs[0]}, {Path: b, Base: vs[1], Remove: true}, {Path: c, Data: []byte("C3"), Base: vs[2]}})
	beforeRename = nil
	if err == nil {
		t.Fatal("a failed rename succeeded")
	}
	if got, _ := os.ReadFile(at("p/b.html")); !bytes.Equal(got, []byte("B1")) {
		t.Fatalf("b not restored: %q", got)
	}
	if got, _ := os.ReadFile(at("p/a.html")); string(got) != "A1" {
		t.Fatalf("a not restored: %q", got)
	}
	os.RemoveAll(at("p/c.html"))
	os.WriteFile(at("p/c.html"), []byte("C1"), 0o644)
	// Written and removed together; a missing file at workspace.NoVersion is a no-op.
	nv, st, err := New(r).WriteFiles(ctx, 2, 1, []workspace.FileWrite{{Path: a, Data: []byte("A4"), Base: vs[0]}, {Path: b, Base: vs[1], Remove: true}, {Path: workspace.MustPath("p/none.html"), Base: workspace.NoVersion, Remove: true}})
	if err != nil || nv[1] != workspace.NoVersion || st == nil {
		t.Fatalf("write+remove: %v %v", nv, err)
	}
	if _, err := os.Stat(at("p/b.html")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("b still there: %v", err)
	}
	if got, _ := os.ReadFile(at("p/a.html")); string(got) != "A4" {
		t.Fatalf("a: %q", got)
	}
	entries, _ := os.ReadDir(at("p"))
	for _, e := range entries {
		if e.Name() != "a.html" && e.Name() != "c.html" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// WriteEach: a stale item and a bad item are refused on their own, the others written.
func TestWriteEach(t *testing.T) {
	ctx := context.Background()
	r := workspacetest.NewRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, workspacetest.Starter(), "Create", workspace.SystemAuthor); err != nil {
		t.Fatal(err)
	}
	workspacetest.Open(t, r, 2, "master")
	dir := r.WorkspaceDir(2, 1)
	a, b := workspace.MustPath("w/a.json"), workspace.MustPath("w/b.json")
	vs, errs, st, err := New(r).WriteEach(ctx, 2, 1, []workspace.FileWrite{{Path: a, Data: []byte("A1"), Base: workspace.NoVersion}, {Path: b, Data: []byte("B1"), Base: workspace.NoVersion}})
	if err != nil || errs[0] != nil || errs[1] != nil || st == nil || vs[1] != workspace.VersionOf([]byte("B1")) {
		t.Fatalf("each: %v %v %v", vs, errs, err)
	}
	vs2, errs, _, err := New(r).WriteEach(ctx, 2, 1, []workspace.FileWrite{{Path: a, Data: []byte("A2"), Base: workspace.NoVersion}, {Path: b, Data: []byte("B2"), Base: vs[1]}, {Path: b, Data: []byte("B3"), Base: vs[1]}})
	var stale *workspace.ErrStale
	if err != nil || !errors.As(errs[0], &stale) || errs[1] != nil || !errors.Is(errs[2], workspace.ErrBadPath) || vs2[1] != workspace.VersionOf([]byte("B2")) {
		t.Fatalf("each 2: %v %v", errs, err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "w", "a.json")); string(got) != "A1" {
		t.Fatalf("stale item written: %q", got)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "w", "b.json")); string(got) != "B2" {
		t.Fatalf("b: %q", got)
	}
	// ReadMany reads the folder's files, skipping what keep refuses.
	seen := map[string]string{}
	var mu = make(chan struct{}, 1)
	err = New(r).ReadMany(ctx, 2, 1, []workspace.Path{workspace.MustPath("w"), workspace.MustPath("missing")}, func(n string) bool { return n != "b.json" }, 1<<20, func(p workspace.Path, data []byte) error {
		mu <- struct{}{}
		seen[p.String()] = string(data)
		<-mu
		return nil
	})
	if err != nil || len(seen) != 1 || seen["w/a.json"] != "A1" {
		t.Fatalf("read many: %v %v", seen, err)
	}
}
