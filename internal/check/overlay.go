package check

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
)

// WithFile is tree with one more file at p whose content load gives (nil: no such file),
// unless the tree has its own file at p, which wins. It serves settings that live outside
// the tree — an imported portal's, kept by Portalwright instead of a portal.json in the
// project's repository (docs/decisions.md "Settings that stay ours") — so every rule reads them
// as the tree's portal.json. load is called each time the tree is listed or the file is read or
// described, so a change of the settings is seen at the next Refresh; its Version is the
// content's hash.
func WithFile(t Tree, p string, load func(ctx context.Context) ([]byte, error)) Tree {
	return &overlay{Tree: t, path: p, load: load}
}

type overlay struct {
	Tree
	path string
	load func(ctx context.Context) ([]byte, error)
}

// extra is the added file as listed, ok false when load has none.
func (o *overlay) extra(ctx context.Context) (File, []byte, bool, error) {
	data, err := o.load(ctx)
	if err != nil || data == nil {
		return File{}, nil, false, err
	}
	sum := sha256.Sum256(data)
	return File{Path: o.path, Size: int64(len(data)), Version: "kept-" + hex.EncodeToString(sum[:8])}, data, true, nil
}

func (o *overlay) Files(ctx context.Context) ([]File, error) {
	files, err := o.Tree.Files(ctx)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if f.Path == o.path {
			return files, nil
		}
	}
	f, _, ok, err := o.extra(ctx)
	if err != nil || !ok {
		return files, err
	}
	files = append(files, f)
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

func (o *overlay) Read(ctx context.Context, p string) ([]byte, error) {
	data, err := o.Tree.Read(ctx, p)
	if p != o.path || err == nil {
		return data, err
	}
	if _, own, ok, lerr := o.extra(ctx); lerr != nil {
		return nil, lerr
	} else if ok {
		return own, nil
	}
	return nil, fmt.Errorf("%w: %q", ErrNotInTree, p)
}

// Stat describes one file (Stater) when the tree can: the tree's own, else the added one.
func (o *overlay) Stat(ctx context.Context, p string) (File, bool, error) {
	st, ok := o.Tree.(Stater)
	if !ok {
		return File{}, false, fmt.Errorf("check: the tree cannot describe one file")
	}
	f, found, err := st.Stat(ctx, p)
	if err != nil || found || p != o.path {
		return f, found, err
	}
	f, _, found, err = o.extra(ctx)
	return f, found, err
}

// Close closes the tree when it can be closed (a GitTree).
func (o *overlay) Close() error {
	if c, ok := o.Tree.(interface{ Close() error }); ok {
		return c.Close()
	}
	return nil
}
