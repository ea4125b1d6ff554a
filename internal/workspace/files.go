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
//   - every file access of the product goes through this file and stream.go (read, write,
//     list, stat, move, remove, streamed upload and download): a Path can only be made by
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
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Files are the files of the users' workspaces (the rules above), with stream.go (streamed
// uploads and downloads) and readmany.go (many files at once).
type Files struct{ r *Repos }

// Files is the file access of the workspaces.
func (r *Repos) Files() Files { return Files{r} }

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
func (fl Files) ReadFile(userID, portalID int64, p Path) ([]byte, Version, error) {
	root, err := fl.r.openRoot(userID, portalID)
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
// not exist). An existing file keeps its mode (an executable stays executable); a new one is
// made as git's 100644. It answers the new version and the workspace's new status (taken
// under the same lock, so events publish it without running git again; nil when git could
// not take it — the write stands). A stale base answers *ErrStale and writes nothing. Missing parent
// folders are made.
func (fl Files) WriteFile(ctx context.Context, userID, portalID int64, p Path, data []byte, base Version) (Version, *Status, error) {
	var version Version
	st, err := fl.r.inWorkspace(ctx, userID, portalID, func(root *os.Root, guard guardFunc) error {
		if p == Root || p.rel == "" {
			return ErrBadPath
		}
		if err := guard(p, false); err != nil {
			return err
		}
		if err := checkBase(root, p, base); err != nil {
			return err
		}
		// writeAll: the one way new content replaces a file (its mode kept, modes.go).
		one := make([]Version, 1)
		if err := writeAll(root, []FileWrite{{Path: p, Data: data, Base: base}}, one); err != nil {
			var fe *FileWriteError
			if errors.As(err, &fe) {
				return fe.Err
			}
			return err
		}
		version = VersionOf(data)
		return nil
	})
	if err != nil {
		return NoVersion, nil, err
	}
	return version, st, nil
}

// inWorkspace runs change on the user's workspace under the workspace lock (the lock git
// commands take), then takes the workspace's new status under the same lock. The status is
// nil when git could not take it; the change stands.
//
// guard refuses a change to a link, a submodule or an LFS pointer (special.go): every
// change calls it for each path it touches (folder: the path is a folder, so what it holds
// counts too) before writing.
func (r *Repos) inWorkspace(ctx context.Context, userID, portalID int64, change func(root *os.Root, guard guardFunc) error) (*Status, error) {
	dir, unlock, err := r.openWorkspace(ctx, userID, portalID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	guard := func(p Path, folder bool) error { return r.guard(ctx, dir, root, p, folder) }
	if err := change(root, guard); err != nil {
		return nil, err
	}
	st, err := r.status(ctx, portalID, dir)
	if err != nil {
		return nil, nil
	}
	return st, nil
}

// checkBase refuses a write based on another version of the file than the current one.
func checkBase(root *os.Root, p Path, base Version) error {
	current := NoVersion
	if old, err := readIn(root, p); err == nil {
		current = VersionOf(old)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if current != base {
		return &ErrStale{Current: current}
	}
	return nil
}

func mkParent(root *os.Root, p Path) error {
	if dir := path.Dir(p.rel); dir != "." {
		return root.MkdirAll(dir, 0o750)
	}
	return nil
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

func infoOf(p string, fi fs.FileInfo) FileInfo {
	return FileInfo{Path: p, Name: path.Base(p), Dir: fi.IsDir(), Size: fi.Size(), ModTime: fi.ModTime()}
}

// lstatIn is Lstat that refuses links.
func lstatIn(root *os.Root, p Path) (fs.FileInfo, error) {
	fi, err := root.Lstat(p.rel)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, ErrLink
	}
	return fi, nil
}

// readWorkspace runs read on the user's workspace under the workspace lock.
func (r *Repos) readWorkspace(ctx context.Context, userID, portalID int64, read func(root *os.Root) error) error {
	dir, unlock, err := r.openWorkspace(ctx, userID, portalID)
	if err != nil {
		return err
	}
	defer unlock()
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	return read(root)
}

// List lists a folder of the user's workspace (Root: the top), under the workspace lock:
// files and folders by name, without .git, links (never followed) or unfinished writes.
func (fl Files) List(ctx context.Context, userID, portalID int64, dir Path) ([]FileInfo, error) {
	var out []FileInfo
	specials := fl.r.specials(ctx, fl.r.WorkspaceDir(userID, portalID))
	err := fl.r.readWorkspace(ctx, userID, portalID, func(root *os.Root) error {
		if dir != Root {
			fi, err := lstatIn(root, dir)
			if err != nil {
				return err
			}
			if !fi.IsDir() {
				return ErrBadPath
			}
		}
		f, err := root.Open(dir.rel)
		if err != nil {
			return err
		}
		defer f.Close()
		entries, err := f.ReadDir(-1)
		if err != nil {
			return err
		}
		out = make([]FileInfo, 0, len(entries))
		for _, e := range entries {
			name := e.Name()
			if e.Type()&fs.ModeSymlink != 0 || strings.EqualFold(name, ".git") || strings.HasPrefix(name, ".pw-write-") {
				continue
			}
			fi, err := e.Info()
			if err != nil {
				continue // removed meanwhile
			}
			info := infoOf(path.Join(dir.rel, name), fi)
			describe(&info, specials, root)
			out = append(out, info)
		}
		return nil
	})
	return out, err
}

// Stat describes a file or folder of the user's workspace, under the workspace lock; a file
// comes with its version. A link is refused (ErrLink), a missing path is fs.ErrNotExist.
func (fl Files) Stat(ctx context.Context, userID, portalID int64, p Path) (FileInfo, error) {
	var info FileInfo
	specials := fl.r.specials(ctx, fl.r.WorkspaceDir(userID, portalID))
	err := fl.r.readWorkspace(ctx, userID, portalID, func(root *os.Root) error {
		fi, err := lstatIn(root, p)
		if err != nil {
			return err
		}
		info = infoOf(p.rel, fi)
		if fi.Mode().IsRegular() {
			data, err := root.ReadFile(p.rel)
			if err != nil {
				return err
			}
			info.Version = VersionOf(data)
		}
		describe(&info, specials, root)
		return nil
	})
	return info, err
}

// Move renames a file or folder of the user's workspace, under the workspace lock, and
// answers the workspace's new status. A file must still be at version base (a folder
// ignores base); the target must not exist (fs.ErrExist); its parent folders are made.
func (fl Files) Move(ctx context.Context, userID, portalID int64, from, to Path, base Version) (*Status, error) {
	return fl.r.inWorkspace(ctx, userID, portalID, func(root *os.Root, guard guardFunc) error {
		if from == Root || to == Root || from.rel == "" || to.rel == "" || strings.HasPrefix(to.rel+"/", from.rel+"/") {
			return ErrBadPath
		}
		fi, err := lstatIn(root, from)
		if err != nil {
			return err
		}
		if err := guard(from, fi.IsDir()); err != nil {
			return err
		}
		if err := guard(to, false); err != nil {
			return err
		}
		if fi.Mode().IsRegular() {
			if err := checkBase(root, from, base); err != nil {
				return err
			}
		}
		if _, err := root.Lstat(to.rel); err == nil {
			return fs.ErrExist
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err := mkParent(root, to); err != nil {
			return err
		}
		return root.Rename(from.rel, to.rel)
	})
}

// Remove deletes a file (still at version base) or a folder with all it holds from the
// user's workspace, under the workspace lock, and answers the workspace's new status.
func (fl Files) Remove(ctx context.Context, userID, portalID int64, p Path, base Version) (*Status, error) {
	return fl.r.inWorkspace(ctx, userID, portalID, func(root *os.Root, guard guardFunc) error {
		if p == Root || p.rel == "" {
			return ErrBadPath
		}
		if fi, err := root.Lstat(p.rel); err == nil {
			if err := guard(p, fi.IsDir()); err != nil {
				return err
			}
		}
		fi, err := lstatIn(root, p)
		if errors.Is(err, ErrLink) {
			return root.Remove(p.rel) // removing a link touches only the link
		}
		if err != nil {
			return err
		}
		if fi.IsDir() {
			return root.RemoveAll(p.rel)
		}
		if err := checkBase(root, p, base); err != nil {
			return err
		}
		return root.Remove(p.rel)
	})
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

// Writing several files of a user's workspace all or nothing (a translation save writes one
// file per language): either every file gets its new content, or none changes.

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

// beforeRename, when set (tests only), runs before the k-th file (from 0) is renamed into
// place, so a test can make that rename fail for real.
var beforeRename func(k int)

// WriteFiles replaces several files of the user's workspace all or nothing, under the
// workspace lock, and answers their new versions (in the order of files) and the workspace's
// new status (nil when git could not take it; the writes stand).
//
//  1. Every path is checked and every base compared first: one stale base (*ErrStale) or bad
//     path fails the call before anything is written.
//  2. Each new content goes to a temporary file beside its target (".pw-write-…", never
//     listed), missing parent folders made.
//  3. Each existing target is kept aside (a hard link, or a copy where links are refused),
//     then the temporary file is renamed over it with the target's mode (placeFile) (a Remove: the target is removed, its content
//     still kept aside). When the k-th rename fails, the files
//     1..k-1 are put back from what was kept (or removed when they did not exist), so the
//     workspace holds exactly what it held before. Empty folders made on the way may stay;
//     git does not track them.
//
// The error is a *FileWriteError naming the file.
func (fl Files) WriteFiles(ctx context.Context, userID, portalID int64, files []FileWrite) ([]Version, *Status, error) {
	versions := make([]Version, len(files))
	st, err := fl.r.inWorkspace(ctx, userID, portalID, func(root *os.Root, guard guardFunc) error {
		seen := map[string]bool{}
		for _, f := range files {
			if f.Path == Root || f.Path.rel == "" || seen[f.Path.rel] {
				return &FileWriteError{Path: f.Path, Err: ErrBadPath}
			}
			seen[f.Path.rel] = true
			if err := guard(f.Path, false); err != nil {
				return &FileWriteError{Path: f.Path, Err: err}
			}
			if err := checkBase(root, f.Path, f.Base); err != nil {
				return &FileWriteError{Path: f.Path, Err: err}
			}
		}
		return writeAll(root, files, versions)
	})
	if err != nil {
		return nil, nil, err
	}
	return versions, st, nil
}

// staged is one file of writeAll on its way into place.
type staged struct {
	target  string
	tmp     string // the new content, "" once renamed
	keep    string // the old content kept aside, "" when the file did not exist
	renamed bool
}

func writeAll(root *os.Root, files []FileWrite, versions []Version) (err error) {
	stamp := strconv.FormatInt(time.Now().UnixNano(), 36)
	list := make([]staged, len(files))
	defer func() {
		if err != nil {
			rollback(root, list)
		}
		for _, s := range list { // temporaries and kept copies never outlive the call
			if s.tmp != "" {
				_ = root.Remove(s.tmp)
			}
			if s.keep != "" {
				_ = root.Remove(s.keep)
			}
		}
	}()
	// The new contents, beside their targets.
	for i, f := range files {
		s := &list[i]
		s.target = f.Path.rel
		if f.Remove {
			continue
		}
		if err := mkParent(root, f.Path); err != nil {
			return &FileWriteError{Path: f.Path, Err: err}
		}
		tmp := path.Join(path.Dir(f.Path.rel), ".pw-write-"+stamp+"-"+strconv.Itoa(i))
		if err := root.WriteFile(tmp, f.Data, newFileMode); err != nil {
			_ = root.Remove(tmp)
			return &FileWriteError{Path: f.Path, Err: err}
		}
		s.tmp = tmp
	}
	// Into place, keeping each old file aside until every rename succeeded.
	for i, f := range files {
		s := &list[i]
		keep, err := keepAside(root, f.Path, stamp, i)
		if err != nil {
			return &FileWriteError{Path: f.Path, Err: err}
		}
		s.keep = keep
		if beforeRename != nil {
			beforeRename(i)
		}
		if f.Remove {
			versions[i] = NoVersion
			if keep == "" {
				continue // nothing there (checked against a NoVersion base)
			}
			if err := root.Remove(s.target); err != nil {
				return &FileWriteError{Path: f.Path, Err: err}
			}
			s.renamed = true
			continue
		}
		if err := placeFile(root, s.tmp, s.target); err != nil { // keeps the file's mode
			return &FileWriteError{Path: f.Path, Err: err}
		}
		s.tmp, s.renamed = "", true
		versions[i] = VersionOf(f.Data)
	}
	return nil
}

// keepAside keeps the current content of an existing file under a hidden name beside it (a
// hard link; a copy with the same mode when the file system refuses links) and answers that
// name, or "" when the file does not exist.
func keepAside(root *os.Root, p Path, stamp string, i int) (string, error) {
	fi, err := root.Lstat(p.rel)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", ErrBadPath
	}
	keep := path.Join(path.Dir(p.rel), ".pw-write-keep-"+stamp+"-"+strconv.Itoa(i))
	if err := root.Link(p.rel, keep); err == nil {
		return keep, nil
	}
	data, err := root.ReadFile(p.rel)
	if err != nil {
		return "", err
	}
	if err := root.WriteFile(keep, data, fi.Mode().Perm()); err != nil {
		_ = root.Remove(keep)
		return "", err
	}
	return keep, nil
}

// rollback puts back the files already renamed into place, last first.
func rollback(root *os.Root, list []staged) {
	for i := len(list) - 1; i >= 0; i-- {
		s := &list[i]
		if !s.renamed {
			continue
		}
		if s.keep != "" {
			// Should this rename fail too, the kept copy stays on disk rather than being lost.
			_ = root.Rename(s.keep, s.target)
			s.keep = ""
		} else {
			_ = root.Remove(s.target)
		}
	}
}

// WriteEach writes several files of the user's workspace each on its own, under one workspace
// lock, and takes the workspace's status once (a batch save: every item is written whole or
// not at all, and one failed item does not stop the others). It answers one version and one
// error per file, in the order of files (the error a *FileWriteError, nil for a file written),
// and the new status (nil when git could not take it or nothing was written). err is set only
// when the workspace itself could not be used (missing, lock): then nothing was written.
func (fl Files) WriteEach(ctx context.Context, userID, portalID int64, files []FileWrite) ([]Version, []error, *Status, error) {
	versions := make([]Version, len(files))
	errs := make([]error, len(files))
	wrote := false
	st, err := fl.r.inWorkspace(ctx, userID, portalID, func(root *os.Root, guard guardFunc) error {
		seen := map[string]bool{}
		for i, f := range files {
			if f.Path == Root || f.Path.rel == "" || seen[f.Path.rel] {
				errs[i] = &FileWriteError{Path: f.Path, Err: ErrBadPath}
				continue
			}
			seen[f.Path.rel] = true
			if err := guard(f.Path, false); err != nil {
				errs[i] = &FileWriteError{Path: f.Path, Err: err}
				continue
			}
			if err := checkBase(root, f.Path, f.Base); err != nil {
				errs[i] = &FileWriteError{Path: f.Path, Err: err}
				continue
			}
			one := make([]Version, 1)
			if err := writeAll(root, []FileWrite{f}, one); err != nil {
				errs[i] = err
				continue
			}
			versions[i], wrote = one[0], true
		}
		return nil
	})
	if err != nil {
		return nil, nil, nil, err
	}
	if !wrote {
		st = nil
	}
	return versions, errs, st, nil
}
