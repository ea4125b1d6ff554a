package workspace

// Reading and writing the files of a user's workspace.
//
// Portal content is untrusted: a repository imported from a URL may carry symbolic links
// (to another user's workspace, to /etc, a linked engine/ folder). Two rules make following
// one impossible rather than checked by each caller:
//
//   - git never materialises a link: every git command runs with core.symlinks=false (see
//     internal/gitcli), so a link in the repository is checked out as a plain file holding
//     its target's text;
//   - every file access of the product goes through this file: a Path can only be made by
//     CleanPath (relative, no "..", never inside .git), and files are opened through an
//     os.Root at the workspace, which refuses any name that resolves outside it; a link
//     found on disk anyway (made before the rule, or by hand) is refused, not followed.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"time"
)

// Path is a checked file path inside a workspace: slash-separated, relative, clean, not in
// .git. The zero Path is invalid; CleanPath is the only way to make one.
type Path struct{ rel string }

// ErrBadPath is returned for a path that is not a plain path inside the workspace.
var ErrBadPath = errors.New("the path is not a file path inside the portal")

// ErrLink is returned when a path names a symbolic link: links are never followed.
var ErrLink = errors.New("the path is a symbolic link, which the product does not follow")

// CleanPath checks a user- or content-given path and makes it a Path.
func CleanPath(p string) (Path, error) {
	if p == "" || strings.ContainsRune(p, 0) || strings.Contains(p, "\\") || strings.HasPrefix(p, "/") {
		return Path{}, ErrBadPath
	}
	for _, part := range strings.Split(p, "/") {
		if part == "" || part == "." || part == ".." {
			return Path{}, ErrBadPath
		}
		if strings.EqualFold(part, ".git") {
			return Path{}, ErrBadPath
		}
	}
	return Path{rel: path.Clean(p)}, nil
}

// MustPath is CleanPath for constants of the code (portal.json): it panics on a bad one.
func MustPath(p string) Path {
	c, err := CleanPath(p)
	if err != nil {
		panic(fmt.Sprintf("workspace.MustPath(%q): %v", p, err))
	}
	return c
}

// String is the slash-separated path.
func (p Path) String() string { return p.rel }

// Version identifies the content of a file for optimistic concurrency (an ETag): a write
// based on an older version is refused. NoVersion stands for a file that does not exist.
type Version string

// NoVersion is the version of a missing file.
const NoVersion Version = "0"

// VersionOf is the version of some content.
func VersionOf(data []byte) Version {
	sum := sha256.Sum256(data)
	return Version(hex.EncodeToString(sum[:12]))
}

// ErrStale is returned by WriteFile when the file changed since the version the write was
// based on; Current says what it is now.
type ErrStale struct{ Current Version }

func (e *ErrStale) Error() string {
	return "the file changed since it was read (now at version " + string(e.Current) + ")"
}

// openRoot opens the user's workspace as an os.Root.
func (r *Repos) openRoot(userID, portalID int64) (*os.Root, error) {
	dir, err := r.workspace(userID, portalID)
	if err != nil {
		return nil, err
	}
	return os.OpenRoot(dir)
}

// readIn reads a regular file through root; a link is refused, never followed.
func readIn(root *os.Root, p Path) ([]byte, error) {
	fi, err := root.Lstat(p.rel)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, ErrLink
	}
	if !fi.Mode().IsRegular() {
		return nil, ErrBadPath
	}
	return root.ReadFile(p.rel)
}

// existsIn tells whether a path names a file or folder (not a link) inside root.
func existsIn(root *os.Root, p Path) bool {
	fi, err := root.Lstat(p.rel)
	return err == nil && fi.Mode()&fs.ModeSymlink == 0
}

// ReadFile reads a file of the user's workspace with its version. A missing file answers
// fs.ErrNotExist (and NoVersion); a missing workspace ErrNoWorkspace.
func (r *Repos) ReadFile(userID, portalID int64, p Path) ([]byte, Version, error) {
	root, err := r.openRoot(userID, portalID)
	if err != nil {
		return nil, NoVersion, err
	}
	defer root.Close()
	data, err := readIn(root, p)
	if err != nil {
		return nil, NoVersion, err
	}
	return data, VersionOf(data), nil
}

// WriteFile replaces a file of the user's workspace atomically (readers never see half of
// it), under the workspace lock, if the file is still at version base (NoVersion: it must
// not exist). It answers the new version; a stale base answers *ErrStale and writes nothing.
// Missing parent folders are made.
func (r *Repos) WriteFile(ctx context.Context, userID, portalID int64, p Path, data []byte, base Version) (Version, error) {
	_, unlock, err := r.openWorkspace(ctx, userID, portalID)
	if err != nil {
		return NoVersion, err
	}
	defer unlock()
	root, err := r.openRoot(userID, portalID)
	if err != nil {
		return NoVersion, err
	}
	defer root.Close()
	current := NoVersion
	if old, err := readIn(root, p); err == nil {
		current = VersionOf(old)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return NoVersion, err
	}
	if current != base {
		return NoVersion, &ErrStale{Current: current}
	}
	if dir := path.Dir(p.rel); dir != "." {
		if err := root.MkdirAll(dir, 0o750); err != nil {
			return NoVersion, err
		}
	}
	tmp := path.Join(path.Dir(p.rel), ".pw-write-"+strconv.FormatInt(time.Now().UnixNano(), 36))
	if err := root.WriteFile(tmp, data, 0o644); err != nil {
		_ = root.Remove(tmp)
		return NoVersion, err
	}
	if err := root.Rename(tmp, p.rel); err != nil {
		_ = root.Remove(tmp)
		return NoVersion, err
	}
	return VersionOf(data), nil
}
