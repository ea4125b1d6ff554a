package asset_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"portalwright/internal/asset"
	"portalwright/internal/workspace"
)

// A folder's listing is built once and shared while the folder is unchanged; every change the
// product makes shows at once (it changes the folder), and a file rewritten in place by
// another program shows once the listing is FolderFresh old.
func TestFolderListingIsReusedUntilTheFolderChanges(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	now := time.Now()
	asset.SetClock(f.svc, func() time.Time { return now })
	list := func() *asset.Asset {
		t.Helper()
		a, err := f.svc.Get(ctx, f.ann, f.pa, workspace.MustPath("images"))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	sizeOf := func(a *asset.Asset, name string) int64 {
		for _, c := range a.Children {
			if c.Name == name {
				return c.Size
			}
		}
		return -1
	}

	first := list()
	if again := list(); again != first {
		t.Fatal("an unchanged folder was listed again")
	}
	// An upload through the product: listed at once.
	if _, err := f.svc.Upload(ctx, f.ann, f.pa, workspace.MustPath("images"),
		multipartOf(t, map[string][]byte{"new.txt": []byte("hello")}, "new.txt")); err != nil {
		t.Fatal(err)
	}
	if got := list(); sizeOf(got, "new.txt") != 5 {
		t.Fatalf("the uploaded file is not listed: %+v", got.Children)
	}
	// Rewritten in place by another program (the folder does not change): within FolderFresh.
	if err := os.WriteFile(filepath.Join(f.dir, "images", "new.txt"), []byte("hello, world"), 0o644); err != nil {
		t.Fatal(err)
	}
	now = now.Add(asset.FolderFresh)
	if got := list(); sizeOf(got, "new.txt") != 12 {
		t.Fatalf("a file rewritten in place is still listed with its old size after %v", asset.FolderFresh)
	}
}
