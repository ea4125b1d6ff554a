package files

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"portalwright/internal/workspace"
	"portalwright/internal/workspace/workspacetest"
)

func TestSymlinksInPortalContentNeverEscape(t *testing.T) {
	ctx := context.Background()
	r := workspacetest.NewRepos(t)
	// What a link could reach: a JSON file on the host and another user's workspace.
	host := t.TempDir()
	secret := filepath.Join(host, "secret.json")
	os.WriteFile(secret, []byte(`{"secret":"host"}`), 0o644)
	os.MkdirAll(filepath.Join(host, "engine"), 0o755)
	os.WriteFile(filepath.Join(host, "engine", "portal-engine.js"), []byte(`VERSION = '9.9.9'`), 0o644)
	if err := r.Core().CreateFromFiles(ctx, 4, workspacetest.Starter(), "other portal", workspace.SystemAuthor); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Open(ctx, 5, 4, "master", false); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(r.WorkspaceDir(5, 4), "probe-settings.json"), []byte(`{"victim":true}`), 0o644)

	served := t.TempDir()
	workspacetest.BareRepo(t, r, served, "links", "main", func(w string) {
		os.WriteFile(filepath.Join(w, "index.html"), []byte("<p>x</p>"), 0o644)
		os.Symlink("../../5/4/probe-settings.json", filepath.Join(w, "probe-settings.json")) // relative, into another workspace
		os.Symlink(secret, filepath.Join(w, "portal.json"))                                  // absolute
		os.Symlink(filepath.Join(host, "engine"), filepath.Join(w, "engine"))                // a linked folder
	})
	url := "git://127.0.0.1:" + workspacetest.ServeDaemon(t, served) + "/links.git"
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
	data, _, err := New(r).ReadFile(2, 1, workspace.MustPath("portal.json"))
	if err != nil || strings.Contains(string(data), "host") || string(data) != secret {
		t.Fatalf("portal.json must hold the link's text, got %q %v", data, err)
	}
	data, _, err = New(r).ReadFile(2, 1, workspace.MustPath("probe-settings.json"))
	if err != nil || strings.Contains(string(data), "victim") {
		t.Fatalf("probe-settings.json leaked another workspace: %q %v", data, err)
	}
	if _, _, err := New(r).ReadFile(2, 1, workspace.MustPath("engine/portal-engine.js")); err == nil {
		t.Fatal("a file below a linked folder must not be readable")
	}

	// A link on disk anyway (made by hand, or before links were turned off) is refused,
	// whether it is the file itself or a folder on the way.
	os.Remove(filepath.Join(dir, "portal.json"))
	os.Symlink(secret, filepath.Join(dir, "portal.json"))
	if _, _, err := New(r).ReadFile(2, 1, workspace.MustPath("portal.json")); !errors.Is(err, workspace.ErrLink) {
		t.Fatalf("reading a link: %v", err)
	}
	if _, _, err := New(r).WriteFile(ctx, 2, 1, workspace.MustPath("portal.json"), []byte("{}"), workspace.VersionOf([]byte(`{"secret":"host"}`))); err == nil {
		t.Fatal("writing through a link must be refused")
	}
	if got, _ := os.ReadFile(secret); string(got) != `{"secret":"host"}` {
		t.Fatalf("the link's target was written: %s", got)
	}
	os.Remove(filepath.Join(dir, "engine"))
	os.Symlink(filepath.Join(host, "engine"), filepath.Join(dir, "engine"))
	if _, _, err := New(r).ReadFile(2, 1, workspace.MustPath("engine/portal-engine.js")); err == nil {
		t.Fatal("a linked folder on disk must not be followed out of the workspace")
	}
	if _, _, err := New(r).WriteFile(ctx, 2, 1, workspace.MustPath("engine/new.js"), []byte("x"), workspace.NoVersion); err == nil {
		t.Fatal("writing below a linked folder must be refused")
	}
	if _, err := os.Stat(filepath.Join(host, "engine", "new.js")); err == nil {
		t.Fatal("a file was written outside the workspace")
	}
}

func TestWriteFileRefusesStaleVersions(t *testing.T) {
	ctx := context.Background()
	r := workspacetest.NewRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, workspacetest.Starter(), "Create", workspace.SystemAuthor); err != nil {
		t.Fatal(err)
	}
	workspacetest.Open(t, r, 2, "master")
	p := workspace.MustPath("portal.json")
	_, v0, err := New(r).ReadFile(2, 1, p)
	if err != nil {
		t.Fatal(err)
	}
	v1, _, err := New(r).WriteFile(ctx, 2, 1, p, []byte(`{"a":1}`), v0)
	if err != nil {
		t.Fatal(err)
	}
	var stale *workspace.ErrStale
	if _, _, err := New(r).WriteFile(ctx, 2, 1, p, []byte(`{"a":2}`), v0); !errors.As(err, &stale) || stale.Current != v1 {
		t.Fatalf("stale write: %v", err)
	}
	if _, _, err := New(r).WriteFile(ctx, 2, 1, workspace.MustPath("new/deep/file.json"), []byte(`{}`), v1); !errors.As(err, &stale) || stale.Current != workspace.NoVersion {
		t.Fatalf("a new file must be based on NoVersion: %v", err)
	}
	if _, _, err := New(r).WriteFile(ctx, 2, 1, workspace.MustPath("new/deep/file.json"), []byte(`{}`), workspace.NoVersion); err != nil {
		t.Fatal(err)
	}
	data, _, _ := New(r).ReadFile(2, 1, p)
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
