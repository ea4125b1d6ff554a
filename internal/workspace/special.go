package workspace

// Entries of a repository the product shows but never changes (issue 24 items 1 and 8):
//
//   - symbolic links (git mode 120000): checked out as plain files holding their target's text
//     (core.symlinks=false), so an edit would push a link to a "target" full of content;
//   - submodules (mode 160000): an empty folder in the workspace;
//   - Git LFS pointer files: a small text that stands for a large object kept elsewhere; writing
//     anything else over one would replace the object with those bytes.
//
// Every write of the file layer (write, batch write, streamed upload, move, remove, mkdir)
// asks the workspace's guard first, so no caller can forget; listings and stats say what
// each entry is.

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"portalwright/internal/gitcli"
)

// Kinds of special entries (FileInfo.Kind).
const (
	KindLink      = "link"
	KindSubmodule = "submodule"
	KindLFS       = "lfs"
)

// ErrProtected is returned for a write to a link, a submodule or an LFS pointer (or a folder
// holding one).
type ErrProtected struct {
	Path string
	Kind string
}

func (e *ErrProtected) Error() string {
	return e.Path + " is a " + e.Kind + " entry, which the product does not change"
}

// lfsPrefix starts every Git LFS pointer file (git-lfs spec v1).
var lfsPrefix = []byte("version https://git-lfs.github.com/spec/v1\n")

// lfsMaxPointer bounds a pointer file's size (the spec says under 1024 bytes).
const lfsMaxPointer = 1024

// LFSPointer reads a Git LFS pointer: its object id and real size; ok false when data is not one.
func LFSPointer(data []byte) (oid string, size int64, ok bool) {
	if len(data) >= lfsMaxPointer || !bytes.HasPrefix(data, lfsPrefix) {
		return "", 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "oid "):
			oid = strings.TrimPrefix(line, "oid ")
		case strings.HasPrefix(line, "size "):
			size, _ = strconv.ParseInt(strings.TrimPrefix(line, "size "), 10, 64)
		}
	}
	return oid, size, oid != ""
}

// specialSet is the links and submodules of a workspace's index: path → kind.
type specialSet struct {
	stamp fileStamp
	paths map[string]string
}

var specialCache sync.Map // workspace dir → *specialSet

// specials lists the workspace's links and submodules from its index (`git ls-files -s`),
// read again only when the index file changed.
func (r *Repos) specials(ctx context.Context, dir string) map[string]string {
	stamp := stampOf(filepath.Join(dir, ".git", "index"))
	if v, ok := specialCache.Load(dir); ok && v.(*specialSet).stamp == stamp {
		return v.(*specialSet).paths
	}
	out, err := r.git.Run(ctx, dir, gitcli.Command("ls-files", "-s", "-z").Env("GIT_OPTIONAL_LOCKS", "0"))
	if err != nil {
		return nil
	}
	set := &specialSet{stamp: stamp, paths: map[string]string{}}
	for _, entry := range bytes.Split(out, []byte{0}) {
		meta, name, ok := strings.Cut(string(entry), "\t")
		if !ok {
			continue
		}
		switch {
		case strings.HasPrefix(meta, modeLink+" "):
			set.paths[name] = KindLink
		case strings.HasPrefix(meta, modeSubmodule+" "):
			set.paths[name] = KindSubmodule
		}
	}
	specialCache.Store(dir, set)
	return set.paths
}

// describe marks a listed entry that is a link, a submodule or an LFS pointer. data, when
// given, is the file's content (else it is read when small enough to be a pointer).
func describe(info *FileInfo, specials map[string]string, root *os.Root) {
	switch specials[info.Path] {
	case KindLink:
		info.Kind = KindLink
		if target, err := root.ReadFile(info.Path); err == nil && len(target) < 4096 {
			info.Target = string(target)
		}
		return
	case KindSubmodule:
		info.Kind = KindSubmodule
		return
	}
	if info.Dir || info.Size >= lfsMaxPointer || info.Size < int64(len(lfsPrefix)) {
		return
	}
	if data, err := root.ReadFile(info.Path); err == nil {
		if oid, size, ok := LFSPointer(data); ok {
			info.Kind, info.Target, info.LFSSize = KindLFS, oid, size
		}
	}
}

// guard refuses a write that would change a special entry: the path itself, a folder
// holding one (moving or removing it), or a path inside a submodule.
func (r *Repos) guard(ctx context.Context, dir string, root *os.Root, p Path, folder bool) error {
	specials := r.specials(ctx, dir)
	for sp, kind := range specials {
		if sp == p.rel || strings.HasPrefix(p.rel, sp+"/") && kind == KindSubmodule || folder && strings.HasPrefix(sp, p.rel+"/") {
			return &ErrProtected{Path: sp, Kind: kind}
		}
	}
	if !folder {
		if data, err := ReadIn(root, p); err == nil {
			if _, _, ok := LFSPointer(data); ok {
				return &ErrProtected{Path: p.rel, Kind: KindLFS}
			}
		}
	}
	return nil
}

// IsProtected tells whether err refuses a write to a special entry.
func IsProtected(err error) (*ErrProtected, bool) {
	var e *ErrProtected
	ok := errors.As(err, &e)
	return e, ok
}

// Guard refuses a change to a link, a submodule or an LFS pointer: a change under
// Clones.Change calls it for each path it touches (folder: the path is a folder, so what it
// holds counts too) before writing.
type Guard func(p Path, folder bool) error
