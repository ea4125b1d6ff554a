package workspace

// Writing several files of a user's workspace all or nothing (a translation save writes one
// file per language): either every file gets its new content, or none changes.

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"strconv"
	"time"
)

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
func (r *Repos) WriteFiles(ctx context.Context, userID, portalID int64, files []FileWrite) ([]Version, *Status, error) {
	versions := make([]Version, len(files))
	st, err := r.inWorkspace(ctx, userID, portalID, func(root *os.Root, guard guardFunc) error {
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
func (r *Repos) WriteEach(ctx context.Context, userID, portalID int64, files []FileWrite) ([]Version, []error, *Status, error) {
	versions := make([]Version, len(files))
	errs := make([]error, len(files))
	wrote := false
	st, err := r.inWorkspace(ctx, userID, portalID, func(root *os.Root, guard guardFunc) error {
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
