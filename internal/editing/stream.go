package editing

import (
	"context"
	"errors"
	"io"
	"os"

	"portalwright/internal/caller"
	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
)

// WriteStream stores src as the file p of the caller's workspace (an upload: replaces a file
// there), refusing more than limit bytes, and publishes the workspace's new status. Over the
// limit it answers *workspace.ErrTooLarge unmapped (the caller words it); a failed read of src
// (*workspace.ErrSource) or a cancelled ctx is answered as it is; nothing is stored either way.
func (f *Files) WriteStream(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path, src io.Reader, limit int64) error {
	st, err := f.files.WriteStream(ctx, c.UserID, pa.ID(), p, src, limit)
	if err != nil {
		var tooLarge *workspace.ErrTooLarge
		var source *workspace.ErrSource
		if errors.As(err, &tooLarge) || errors.As(err, &source) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return FileError(err, p.String())
	}
	f.publish(ctx, c, pa, st)
	return nil
}

// OpenFile opens a file of the caller's workspace for a streamed read, with its description and
// version; the caller closes it.
func (f *Files) OpenFile(_ context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path) (*os.File, workspace.FileInfo, error) {
	file, info, err := f.files.OpenFile(c.UserID, pa.ID(), p)
	if err != nil {
		return nil, info, FileError(err, p.String())
	}
	return file, info, nil
}

// Mkdir makes a folder (and its missing parents) and publishes the new status; an existing
// path is a 409.
func (f *Files) Mkdir(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path) error {
	st, err := f.files.Mkdir(ctx, c.UserID, pa.ID(), p)
	if err != nil {
		return FileError(err, p.String())
	}
	f.publish(ctx, c, pa, st)
	return nil
}

// Info describes a file or folder without reading it (no Version: use OpenFile and
// workspace.VersionOfReader for that).
func (f *Files) Info(_ context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path) (workspace.FileInfo, error) {
	info, err := f.files.Info(c.UserID, pa.ID(), p)
	if err != nil {
		return info, FileError(err, p.String())
	}
	return info, nil
}
