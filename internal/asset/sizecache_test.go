package asset_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"portalwright/internal/workspace"
)

func pngOf(t *testing.T, w, h int) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Image sizes are read from the header once per file version (size and mtime): a listing
// of unchanged images answers from the cache, a changed file is read again.
func TestImageSizeCache(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	file := filepath.Join(f.dir, "images", "p.png")
	mod := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	folderTime := mod
	write := func(data []byte, mod time.Time) {
		t.Helper()
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(file, mod, mod); err != nil {
			t.Fatal(err)
		}
		// The folder's listing is reused while the folder is unchanged (foldercache.go): give
		// the folder a new time so each listing here is built again and reads the size cache.
		folderTime = folderTime.Add(time.Second)
		if err := os.Chtimes(filepath.Dir(file), folderTime, folderTime); err != nil {
			t.Fatal(err)
		}
	}
	dims := func() string {
		t.Helper()
		a, err := f.svc.Get(ctx, f.ann, f.pa, workspace.MustPath("images"))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range a.Children {
			if c.Name == "p.png" {
				return c.Dimensions
			}
		}
		t.Fatal("p.png not listed")
		return ""
	}
	info := func() string {
		t.Helper()
		sz, err := f.svc.ImageSize(ctx, f.ann, f.pa, workspace.MustPath("images/p.png"))
		if err != nil {
			t.Fatal(err)
		}
		return formatSize(sz.Width, sz.Height)
	}
	img := pngOf(t, 10, 20)
	write(img, mod)
	if d := dims(); d != "10x20" {
		t.Fatalf("first listing: %q", d)
	}
	// Same size and mtime: the header is not read again (here it no longer is an image).
	write(bytes.Repeat([]byte{'x'}, len(img)), mod)
	if d, i := dims(), info(); d != "10x20" || i != "10x20" {
		t.Fatalf("unchanged file: listing %q, info %q (want the cached 10x20)", d, i)
	}
	// A new mtime: read again.
	write(bytes.Repeat([]byte{'x'}, len(img)), mod.Add(time.Second))
	if d, i := dims(), info(); d != "" || i != "0x0" {
		t.Fatalf("not an image any more: listing %q, info %q", d, i)
	}
	// Another size (same mtime): read again.
	write(pngOf(t, 30, 40), mod.Add(time.Second))
	if d, i := info(), dims(); d != "30x40" || i != "30x40" {
		t.Fatalf("replaced image: info %q, listing %q", d, i)
	}
}

func formatSize(w, h int) string { return strconv.Itoa(w) + "x" + strconv.Itoa(h) }
