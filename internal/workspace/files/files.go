// Package files is the access to the files of the users' workspaces (read, write, list,
// stat, move, remove; stream.go: streamed uploads and downloads; readmany.go: many files at
// once), over workspace.Clones: under the rules of workspace/paths.go (a checked workspace.Path, an
// os.Root at the workspace, links refused, never followed), and the workspace lock for every
// change, with the workspace's new status taken under it.
package files

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"portalwright/internal/workspace"
)

// Files are the files of the users' workspaces (the rules above).
type Files struct {
	repos  *workspace.Repos
	clones workspace.Clones
}

// New is the file access of the workspaces.
func New(repos *workspace.Repos) *Files { return &Files{repos: repos, clones: repos.Clones()} }

// ReadFile reads a file of the user's workspace with its version. A missing file answers
// fs.ErrNotExist (and workspace.NoVersion); a missing workspace workspace.ErrNoWorkspace.
func (fl *Files) ReadFile(userID, portalID int64, p workspace.Path) ([]byte, workspace.Version, error) {
	root, err := fl.clones.Root(userID, portalID)
	if err != nil {
		return nil, workspace.NoVersion, err
	}
	defer root.Close()
	data, err := workspace.ReadIn(root, p)
	if err != nil {
		return nil, workspace.NoVersion, err
	}
	return data, workspace.VersionOf(data), nil
}

// WriteFile replaces a file of the user's workspace atomically (readers never see half of
// it), under the workspace lock, if the file is still at version base (NoVersion: it must
// not exist). An existing file keeps its mode (an executable stays executable); a new one is
// made as git's 100644. It answers the new version and the workspace's new status (taken
// under the same lock, so events publish it without running git again; nil when git could
// not take it — the write stands). A stale base answers *workspace.ErrStale and writes nothing. Missing parent
// folders are made.
func (fl *Files) WriteFile(ctx context.Context, userID, portalID int64, p workspace.Path, data []byte, base workspace.Version) (workspace.Version, *workspace.Status, error) {
	var version workspace.Version
	st, err := fl.clones.Change(ctx, userID, portalID, func(root *os.Root, guard workspace.Guard) error {
		if p == workspace.Root || p.String() == "" {
			return workspace.ErrBadPath
		}
		if err := guard(p, false); err != nil {
			return err
		}
		if err := checkBase(root, p, base); err != nil {
			return err
		}
		// writeAll: the one way new content replaces a file (its mode kept, modes.go).
		one := make([]workspace.Version, 1)
		if err := writeAll(root, []workspace.FileWrite{{Path: p, Data: data, Base: base}}, one); err != nil {
			var fe *workspace.FileWriteError
			if errors.As(err, &fe) {
				return fe.Err
			}
			return err
		}
		version = workspace.VersionOf(data)
		return nil
	})
	if err != nil {
		return workspace.NoVersion, nil, err
	}
	return version, st, nil
}

// checkBase refuses a write based on another version of the file than the current one.
func checkBase(root *os.Root, p workspace.Path, base workspace.Version) error {
	current := workspace.NoVersion
	if old, err := workspace.ReadIn(root, p); err == nil {
		current = workspace.VersionOf(old)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if current != base {
		return &workspace.ErrStale{Current: current}
	}
	return nil
}

func mkParent(root *os.Root, p workspace.Path) error {
	if dir := path.Dir(p.String()); dir != "." {
		return root.MkdirAll(dir, 0o750)
	}
	return nil
}

func infoOf(p string, fi fs.FileInfo) workspace.FileInfo {
	return workspace.FileInfo{Path: p, Name: path.Base(p), Dir: fi.IsDir(), Size: fi.Size(), ModTime: fi.ModTime()}
}

// lstatIn is Lstat that refuses links.
func lstatIn(root *os.Root, p workspace.Path) (fs.FileInfo, error) {
	fi, err := root.Lstat(p.String())
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, workspace.ErrLink
	}
	return fi, nil
}

// List lists a folder of the user's workspace (Root: the top), under the workspace lock:
// files and folders by name, without .git, links (never followed) or unfinished writes.
func (fl *Files) List(ctx context.Context, userID, portalID int64, dir workspace.Path) ([]workspace.FileInfo, error) {
	var out []workspace.FileInfo
	describe := fl.clones.Describer(ctx, userID, portalID)
	err := fl.clones.Read(ctx, userID, portalID, func(root *os.Root) error {
		if dir != workspace.Root {
			fi, err := lstatIn(root, dir)
			if err != nil {
				return err
			}
			if !fi.IsDir() {
				return workspace.ErrBadPath
			}
		}
		f, err := root.Open(dir.String())
		if err != nil {
			return err
		}
		defer f.Close()
		entries, err := f.ReadDir(-1)
		if err != nil {
			return err
		}
		out = make([]workspace.FileInfo, 0, len(entries))
		for _, e := range entries {
			name := e.Name()
			if e.Type()&fs.ModeSymlink != 0 || strings.EqualFold(name, ".git") || strings.HasPrefix(name, ".pw-write-") {
				continue
			}
			fi, err := e.Info()
			if err != nil {
				continue // removed meanwhile
			}
			info := infoOf(path.Join(dir.String(), name), fi)
			describe(&info, root)
			out = append(out, info)
		}
		return nil
	})
	return out, err
}

// Stat describes a file or folder of the user's workspace, under the workspace lock; a file
// comes with its version. A link is refused (workspace.ErrLink), a missing path is fs.ErrNotExist.
func (fl *Files) Stat(ctx context.Context, userID, portalID int64, p workspace.Path) (workspace.FileInfo, error) {
	var info workspace.FileInfo
	describe := fl.clones.Describer(ctx, userID, portalID)
	err := fl.clones.Read(ctx, userID, portalID, func(root *os.Root) error {
		fi, err := lstatIn(root, p)
		if err != nil {
			return err
		}
		info = infoOf(p.String(), fi)
		if fi.Mode().IsRegular() {
			data, err := root.ReadFile(p.String())
			if err != nil {
				return err
			}
			info.Version = workspace.VersionOf(data)
		}
		describe(&info, root)
		return nil
	})
	return info, err
}

// Move renames a file or folder of the user's workspace, under the workspace lock, and
// answers the workspace's new status. A file must still be at version base (a folder
// ignores base); the target must not exist (fs.ErrExist); its parent folders are made.
func (fl *Files) Move(ctx context.Context, userID, portalID int64, from, to workspace.Path, base workspace.Version) (*workspace.Status, error) {
	return fl.clones.Change(ctx, userID, portalID, func(root *os.Root, guard workspace.Guard) error {
		if from == workspace.Root || to == workspace.Root || from.String() == "" || to.String() == "" || strings.HasPrefix(to.String()+"/", from.String()+"/") {
			return workspace.ErrBadPath
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
		if _, err := root.Lstat(to.String()); err == nil {
			return fs.ErrExist
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err := mkParent(root, to); err != nil {
			return err
		}
		return root.Rename(from.String(), to.String())
	})
}

// Remove deletes a file (still at version base) or a folder with all it holds from the
// user's workspace, under the workspace lock, and answers the workspace's new status.
func (fl *Files) Remove(ctx context.Context, userID, portalID int64, p workspace.Path, base workspace.Version) (*workspace.Status, error) {
	return fl.clones.Change(ctx, userID, portalID, func(root *os.Root, guard workspace.Guard) error {
		if p == workspace.Root || p.String() == "" {
			return workspace.ErrBadPath
		}
		if fi, err := root.Lstat(p.String()); err == nil {
			if err := guard(p, fi.IsDir()); err != nil {
				return err
			}
		}
		fi, err := lstatIn(root, p)
		if errors.Is(err, workspace.ErrLink) {
			return root.Remove(p.String()) // removing a link touches only the link
		}
		if err != nil {
			return err
		}
		if fi.IsDir() {
			return root.RemoveAll(p.String())
		}
		if err := checkBase(root, p, base); err != nil {
			return err
		}
		return root.Remove(p.String())
	})
}

// Writing several files of a user's workspace all or nothing (a translation save writes one
// file per language): either every file gets its new content, or none changes.

// beforeRename, when set (tests only), runs before the k-th file (from 0) is renamed into
// place, so a test can make that rename fail for real.
var beforeRename func(k int)

// WriteFiles replaces several files of the user's workspace all or nothing, under the
// workspace lock, and answers their new versions (in the order of files) and the workspace's
// new status (nil when git could not take it; the writes stand).
//
//  1. Every path is checked and every base compared first: one stale base (*workspace.ErrStale) or bad
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
// The error is a *workspace.FileWriteError naming the file.
func (fl *Files) WriteFiles(ctx context.Context, userID, portalID int64, files []workspace.FileWrite) ([]workspace.Version, *workspace.Status, error) {
	versions := make([]workspace.Version, len(files))
	st, err := fl.clones.Change(ctx, userID, portalID, func(root *os.Root, guard workspace.Guard) error {
		seen := map[string]bool{}
		for _, f := range files {
			if f.Path == workspace.Root || f.Path.String() == "" || seen[f.Path.String()] {
				return &workspace.FileWriteError{Path: f.Path, Err: workspace.ErrBadPath}
			}
			seen[f.Path.String()] = true
			if err := guard(f.Path, false); err != nil {
				return &workspace.FileWriteError{Path: f.Path, Err: err}
			}
			if err := checkBase(root, f.Path, f.Base); err != nil {
				return &workspace.FileWriteError{Path: f.Path, Err: err}
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

func writeAll(root *os.Root, files []workspace.FileWrite, versions []workspace.Version) (err error) {
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
		s.target = f.Path.String()
		if f.Remove {
			continue
		}
		if err := mkParent(root, f.Path); err != nil {
			return &workspace.FileWriteError{Path: f.Path, Err: err}
		}
		tmp := path.Join(path.Dir(f.Path.String()), ".pw-write-"+stamp+"-"+strconv.Itoa(i))
		if err := root.WriteFile(tmp, f.Data, workspace.NewFileMode); err != nil {
			_ = root.Remove(tmp)
			return &workspace.FileWriteError{Path: f.Path, Err: err}
		}
		s.tmp = tmp
	}
	// Into place, keeping each old file aside until every rename succeeded.
	for i, f := range files {
		s := &list[i]
		keep, err := keepAside(root, f.Path, stamp, i)
		if err != nil {
			return &workspace.FileWriteError{Path: f.Path, Err: err}
		}
		s.keep = keep
		if beforeRename != nil {
			beforeRename(i)
		}
		if f.Remove {
			versions[i] = workspace.NoVersion
			if keep == "" {
				continue // nothing there (checked against a workspace.NoVersion base)
			}
			if err := root.Remove(s.target); err != nil {
				return &workspace.FileWriteError{Path: f.Path, Err: err}
			}
			s.renamed = true
			continue
		}
		if err := workspace.PlaceFile(root, s.tmp, s.target); err != nil { // keeps the file's mode
			return &workspace.FileWriteError{Path: f.Path, Err: err}
		}
		s.tmp, s.renamed = "", true
		versions[i] = workspace.VersionOf(f.Data)
	}
	return nil
}

// keepAside keeps the current content of an existing file under a hidden name beside it (a
// hard link; a copy with the same mode when the file system refuses links) and answers that
// name, or "" when the file does not exist.
func keepAside(root *os.Root, p workspace.Path, stamp string, i int) (string, error) {
	fi, err := root.Lstat(p.String())
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", workspace.ErrBadPath
	}
	keep := path.Join(path.Dir(p.String()), ".pw-write-keep-"+stamp+"-"+strconv.Itoa(i))
	if err := root.Link(p.String(), keep); err == nil {
		return keep, nil
	}
	data, err := root.ReadFile(p.String())
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
// error per file, in the order of files (the error a *workspace.FileWriteError, nil for a file written),
// and the new status (nil when git could not take it or nothing was written). err is set only
// when the workspace itself could not be used (missing, lock): then nothing was written.
func (fl *Files) WriteEach(ctx context.Context, userID, portalID int64, files []workspace.FileWrite) ([]workspace.Version, []error, *workspace.Status, error) {
	versions := make([]workspace.Version, len(files))
	errs := make([]error, len(files))
	wrote := false
	st, err := fl.clones.Change(ctx, userID, portalID, func(root *os.Root, guard workspace.Guard) error {
		seen := map[string]bool{}
		for i, f := range files {
			if f.Path == workspace.Root || f.Path.String() == "" || seen[f.Path.String()] {
				errs[i] = &workspace.FileWriteError{Path: f.Path, Err: workspace.ErrBadPath}
				continue
			}
			seen[f.Path.String()] = true
			if err := guard(f.Path, false); err != nil {
				errs[i] = &workspace.FileWriteError{Path: f.Path, Err: err}
				continue
			}
			if err := checkBase(root, f.Path, f.Base); err != nil {
				errs[i] = &workspace.FileWriteError{Path: f.Path, Err: err}
				continue
			}
			one := make([]workspace.Version, 1)
			if err := writeAll(root, []workspace.FileWrite{f}, one); err != nil {
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
