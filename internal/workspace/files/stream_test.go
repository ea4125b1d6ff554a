package files

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"portalwright/internal/workspace"
	"portalwright/internal/workspace/workspacetest"
)

// uploadsLeft lists what is left in the workspace's unfinished-uploads folder.
func uploadsLeft(t *testing.T, r *workspace.Repos, userID, portalID int64) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(r.WorkspaceDir(userID, portalID), filepath.FromSlash(uploadDir)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// failingReader gives some bytes, then fails (a connection cut mid-upload).
type failingReader struct{ left int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.left <= 0 {
		return 0, io.ErrUnexpectedEOF
	}
	n := min(len(p), f.left)
	for i := range p[:n] {
		p[i] = 'x'
	}
	f.left -= n
	return n, nil
}

func TestWriteStream(t *testing.T) {
	ctx := context.Background()
	r := workspacetest.NewRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, workspacetest.Starter(), "Create", workspace.SystemAuthor); err != nil {
		t.Fatal(err)
	}
	workspacetest.Open(t, r, 2, "master")
	dir := r.WorkspaceDir(2, 1)
	p := workspace.MustPath("images/new/a.png")

	// Over the limit: refused as soon as the limit is passed, nothing left.
	var tooLarge *workspace.ErrTooLarge
	if _, err := New(r).WriteStream(ctx, 2, 1, p, bytes.NewReader(make([]byte, 1001)), 1000); !errors.As(err, &tooLarge) || tooLarge.Limit != 1000 {
		t.Fatalf("over the limit: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "images", "new", "a.png")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a refused upload was stored: %v", err)
	}
	if left := uploadsLeft(t, r, 2, 1); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}

	// A leftover of a stopped process is swept by the next upload; a recent one is kept.
	old := filepath.Join(dir, ".git", "pw-uploads", "leftover")
	os.WriteFile(old, []byte("x"), 0o644)
	os.Chtimes(old, time.Now().Add(-48*time.Hour), time.Now().Add(-48*time.Hour))
	if _, err := New(r).WriteStream(ctx, 2, 1, p, strings.NewReader("x"), 0); err == nil {
		t.Fatal("over a zero limit")
	}
	if left := uploadsLeft(t, r, 2, 1); len(left) != 0 {
		t.Fatalf("leftover not swept: %v", left)
	}

	// The reader fails mid-way: nothing left.
	var source *workspace.ErrSource
	if _, err := New(r).WriteStream(ctx, 2, 1, p, &failingReader{left: 70000}, 1<<20); !errors.Is(err, io.ErrUnexpectedEOF) || !errors.As(err, &source) {
		t.Fatalf("a cut upload: %v", err)
	}
	if left := uploadsLeft(t, r, 2, 1); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
	if _, err := os.Stat(filepath.Join(dir, "images", "new")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a cut upload made folders: %v", err)
	}

	// A cancelled context: nothing left.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := New(r).WriteStream(cctx, 2, 1, p, strings.NewReader("data"), 1000); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled upload: %v", err)
	}
	if left := uploadsLeft(t, r, 2, 1); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}

	// Exactly the limit: stored whole, with the new status.
	data := bytes.Repeat([]byte("png"), 333)
	st, err := New(r).WriteStream(ctx, 2, 1, p, bytes.NewReader(data), int64(len(data)))
	if err != nil || st == nil || st.Changes["images/new/a.png"] == "" {
		t.Fatalf("upload: %v, status %+v", err, st)
	}
	if got, _, err := New(r).ReadFile(2, 1, p); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read back: %v", err)
	}
	if left := uploadsLeft(t, r, 2, 1); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
	// Replacing a file is allowed; a folder is not replaced.
	if _, err := New(r).WriteStream(ctx, 2, 1, p, strings.NewReader("v2"), 10); err != nil {
		t.Fatal(err)
	}
	if _, err := New(r).WriteStream(ctx, 2, 1, workspace.MustPath("images/new"), strings.NewReader("x"), 10); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("an upload onto a folder: %v", err)
	}
	if _, err := New(r).WriteStream(ctx, 2, 1, workspace.Root, strings.NewReader("x"), 10); !errors.Is(err, workspace.ErrBadPath) {
		t.Fatalf("an upload onto the root: %v", err)
	}
	if left := uploadsLeft(t, r, 2, 1); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
	st, err = r.Status(ctx, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	for path := range st.Changes {
		if strings.Contains(path, "pw-uploads") {
			t.Fatalf("git status sees the uploads folder: %v", st.Changes)
		}
	}

	// OpenFile streams the file with its version; links and folders are refused.
	f, info, err := New(r).OpenFile(2, 1, p)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(f)
	f.Seek(0, io.SeekStart)
	v2, _ := workspace.VersionOfReader(f)
	f.Close()
	if string(got) != "v2" || v2 != workspace.VersionOf([]byte("v2")) || info.Size != 2 || info.Name != "a.png" {
		t.Fatalf("open: %q %+v", got, info)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "images", "link.png")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := New(r).OpenFile(2, 1, workspace.MustPath("images/link.png")); !errors.Is(err, workspace.ErrLink) {
		t.Fatalf("open of a link: %v", err)
	}
	if _, err := New(r).WriteStream(ctx, 2, 1, workspace.MustPath("images/link.png"), strings.NewReader("x"), 10); !errors.Is(err, workspace.ErrLink) {
		t.Fatalf("an upload onto a link: %v", err)
	}
	if b, err := os.ReadFile("/etc/passwd"); err == nil && string(b) == "x" {
		t.Fatal("an upload followed a link")
	}
	if _, _, err := New(r).OpenFile(2, 1, workspace.MustPath("images")); !errors.Is(err, workspace.ErrBadPath) {
		t.Fatalf("open of a folder: %v", err)
	}
	if _, _, err := New(r).OpenFile(2, 1, workspace.MustPath("images/missing.png")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("open of a missing file: %v", err)
	}
	if st, err := New(r).Mkdir(ctx, 2, 1, workspace.MustPath("docs/a/b")); err != nil || st == nil {
		t.Fatalf("mkdir: %v", err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "docs", "a", "b")); err != nil || !fi.IsDir() {
		t.Fatalf("mkdir made nothing: %v", err)
	}
	if _, err := New(r).Mkdir(ctx, 2, 1, workspace.MustPath("docs/a")); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("mkdir of an existing folder: %v", err)
	}
}
