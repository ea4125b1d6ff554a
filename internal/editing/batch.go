package editing

import (
	"context"
	"errors"

	"portalwright/internal/caller"
	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
)

// WriteAll replaces several files of the caller's workspace all or nothing
// (workspace.Repos.WriteFiles: every base checked first, then written and renamed into place;
// a failure puts back what was already written) and publishes the workspace's new status once.
// It answers the new versions in the order of files. A stale base is a 409 FILE_CHANGED
// naming that file's path; nothing is written then.
func (f *Workspace) WriteAll(ctx context.Context, c caller.Caller, pa portalaccess.Portal, files []workspace.FileWrite) ([]workspace.Version, error) {
	if len(files) == 0 {
		return nil, nil
	}
	versions, st, err := f.repos.WriteFiles(ctx, c.UserID, pa.ID(), files)
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
