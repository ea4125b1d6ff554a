package editing

import (
	"context"
	"errors"
	"time"

	"portalwright/internal/caller"
	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
)

// WriteAll replaces several files of the caller's workspace all or nothing
// (workspace/files Files.WriteFiles: every base checked first, then written and renamed into place;
// a failure puts back what was already written) and publishes the workspace's new status once.
// It answers the new versions in the order of files. A stale base is a 409 FILE_CHANGED
// naming that file's path; nothing is written then.
func (f *Files) WriteAll(ctx context.Context, c caller.Caller, pa portalaccess.Portal, files []workspace.FileWrite) ([]workspace.Version, error) {
	if len(files) == 0 {
		return nil, nil
	}
	versions, st, err := f.files.WriteFiles(ctx, c.UserID, pa.ID(), files)
	if err != nil {
		var fe *workspace.FileWriteError
		if errors.As(err, &fe) {
			return nil, FileError(fe.Err, fe.Path.String())
		}
		return nil, FileError(err, "")
	}
	f.publish(ctx, c, pa, st)
	return versions, nil
}

// WriteEach writes several files of the caller's workspace each on its own (a batch save:
// workspace/files Files.WriteEach, one lock, every file whole or not at all) and publishes the
// workspace's new status once. It answers per file its new version and its error, mapped as
// FileError maps them (a stale base: 409 FILE_CHANGED naming the path). err is set only when
// the workspace could not be used; nothing was written then.
func (f *Files) WriteEach(ctx context.Context, c caller.Caller, pa portalaccess.Portal, files []workspace.FileWrite) ([]workspace.Version, []error, error) {
	if len(files) == 0 {
		return nil, nil, nil
	}
	versions, errs, st, err := f.files.WriteEach(ctx, c.UserID, pa.ID(), files)
	if err != nil {
		return nil, nil, FileError(err, "")
	}
	for i, e := range errs {
		if e != nil {
			errs[i] = FileError(e, files[i].Path.String())
		}
	}
	f.publish(ctx, c, pa, st)
	return versions, errs, nil
}

// ReadMany hands fn the files of the caller's workspace directly in the folders dirs whose
// names keep keeps (at most maxSize bytes each), read by a bounded pool of workers
// (workspace/files Files.ReadMany: links never followed); fn runs on several goroutines at once.
func (f *Files) ReadMany(ctx context.Context, c caller.Caller, pa portalaccess.Portal, dirs []workspace.Path, keep func(name string) bool, maxSize int64, fn func(p workspace.Path, data []byte) error) error {
	if err := f.files.ReadMany(ctx, c.UserID, pa.ID(), dirs, keep, maxSize, fn); err != nil {
		return FileError(err, "")
	}
	return nil
}

// GrepFiles lists the files of the caller's workspace that hold word, ignoring ASCII case,
// but those excluded (workspace/files Files.GrepFiles: one git grep over the working tree).
func (f *Files) GrepFiles(ctx context.Context, c caller.Caller, pa portalaccess.Portal, word string, excludeGlobs, excludeDirs []string, timeout time.Duration) ([]string, error) {
	return f.files.GrepFiles(ctx, c.UserID, pa.ID(), word, excludeGlobs, excludeDirs, timeout)
}

// ReadFiles reads the listed files of the caller's workspace under ReadTree's rules
// (workspace/files Files.ReadFiles).
func (f *Files) ReadFiles(ctx context.Context, c caller.Caller, pa portalaccess.Portal, paths []string, skip func(dir string) bool, keep func(name string) bool, maxSize int64, fn func(p workspace.Path, data []byte) error) error {
	if err := f.files.ReadFiles(ctx, c.UserID, pa.ID(), paths, skip, keep, maxSize, fn); err != nil {
		return FileError(err, "")
	}
	return nil
}

// ReadTree is ReadMany over every folder of the caller's workspace that skip does not skip
// (workspace/files Files.ReadTree).
func (f *Files) ReadTree(ctx context.Context, c caller.Caller, pa portalaccess.Portal, skip func(dir string) bool, keep func(name string) bool, maxSize int64, fn func(p workspace.Path, data []byte) error) error {
	if err := f.files.ReadTree(ctx, c.UserID, pa.ID(), skip, keep, maxSize, fn); err != nil {
		return FileError(err, "")
	}
	return nil
}
