package workspace

// The files of a user's workspace: the names and versions every file access uses, and the
// rules of reading one. The access itself (read, write, list, stat, move, remove, streams,
// many at once) is workspace/files.
//
// Portal content is untrusted: a repository imported from a URL may carry symbolic links
// (to another user's workspace, to /etc, a linked engine/ folder). Two rules make following
// one impossible rather than checked by each caller:
//
//   - git never materialises a link: every git command runs with core.symlinks=false (see
//     internal/gitcli), so a link in the repository is checked out as a plain file holding
//     its target's text;
//   - every file access of the product goes through this file and workspace/files (read,
//     write, list, stat, move, remove, streamed upload and download): a Path can only be made
//     by CleanPath (relative, no "..", never inside .git) or Join (a name read from a folder),
//     and files are opened through an os.Root at the workspace (Clones.Root, Clones.Change),
//     which refuses any name that resolves outside it; a link found on disk anyway (made
//     before the rule, or by hand) is refused, not followed (ReadIn).

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
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

// Root is the workspace's top folder, for List. Write, Move and Remove refuse it.
var Root = Path{rel: "."}

// String is the slash-separated path.
func (p Path) String() string { return p.rel }

// Version identifies the content of a file for optimistic concurrency (an ETag): a write
// based on an older version is refused. NoVersion stands for a file that does not exist.
type Version string

// NoVersion is the version of a missing file.
const NoVersion Version = "0"

// Shown is the version as the API shows it: "" for a missing file.
func (v Version) Shown() string {
	if v == NoVersion {
		return ""
	}
	return string(v)
}

// BasedOn is the version a change says it is based on, as the API sends it ("" or "0": a
// missing file).
func BasedOn(v string) Version {
	if v == "" {
		return NoVersion
	}
	return Version(v)
}

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

// Name is the last element of the path.
func (p Path) Name() string { return path.Base(p.rel) }

// Join is the path of name inside the folder p (Root: the top); name is an entry read from
// that folder (no separator).
func (p Path) Join(name string) Path { return Path{rel: path.Join(p.rel, name)} }

// VersionOfReader is the version of the content r holds (VersionOf, streamed).
func VersionOfReader(r io.Reader) (Version, error) {
	sum := sha256.New()
	if _, err := io.Copy(sum, r); err != nil {
		return NoVersion, err
	}
	return Version(hex.EncodeToString(sum.Sum(nil)[:12])), nil
}

// openRoot opens the user's workspace as an os.Root.
func (r *Repos) openRoot(userID, portalID int64) (*os.Root, error) {
	dir, err := r.workspace(userID, portalID)
	if err != nil {
		return nil, err
	}
	return os.OpenRoot(dir)
}

// ReadIn reads a regular file through root; a link is refused, never followed.
func ReadIn(root *os.Root, p Path) ([]byte, error) {
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

// FileInfo describes a file or folder of a workspace. Version is set for files by Stat.
type FileInfo struct {
	Path    string    `json:"path"`
	Name    string    `json:"name"`
	Dir     bool      `json:"dir"`
	Size    int64     `json:"size"`
	ModTime time.Time `json:"modTime"`
	Version Version   `json:"version,omitempty"`
	// Kind marks what the product shows but never changes: KindLink (Target: the link's
	// target), KindSubmodule, KindLFS (Target: the object id, LFSSize: its real size).
	Kind    string `json:"kind,omitempty"`
	Target  string `json:"target,omitempty"`
	LFSSize int64  `json:"lfsSize,omitempty"`
}

// workspace finds the user's workspace of the portal: ErrNoWorkspace when it was never
// opened.
func (r *Repos) workspace(userID, portalID int64) (string, error) {
	dir := r.WorkspaceDir(userID, portalID)
	if !exists(filepath.Join(dir, ".git")) {
		return "", ErrNoWorkspace
	}
	return dir, nil
}

// FileWrite is one file of WriteFiles: its new content and the version the edit started from
// (NoVersion: the file must not exist). With Remove set the file is deleted instead (Data is
// ignored): Base must be its current version; a missing file with Base NoVersion is left as it
// is.
type FileWrite struct {
	Path   Path
	Data   []byte
	Base   Version
	Remove bool
}

// FileWriteError says which file of WriteFiles failed; Err is the cause (*ErrStale for a
// stale base, ErrBadPath, ErrLink, an os error).
type FileWriteError struct {
	Path Path
	Err  error
}

func (e *FileWriteError) Error() string { return e.Path.String() + ": " + e.Err.Error() }
func (e *FileWriteError) Unwrap() error { return e.Err }

// ErrTooLarge is returned by WriteStream when the source holds more than Limit bytes; nothing
// is stored.
type ErrTooLarge struct{ Limit int64 }

func (e *ErrTooLarge) Error() string {
	return fmt.Sprintf("the file is larger than the limit of %d bytes", e.Limit)
}

// ErrSource wraps a failure to read the source of WriteStream (a connection cut
// mid-upload), told apart from a failure to store it.
type ErrSource struct{ Err error }

func (e *ErrSource) Error() string { return "reading the upload: " + e.Err.Error() }
func (e *ErrSource) Unwrap() error { return e.Err }
