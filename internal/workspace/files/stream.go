package files

// Streamed writes and reads of workspace files (uploads and downloads of assets), under the
// same rules as files.go: a checked workspace.Path, an os.Root at the workspace, links refused.
//
// An upload is copied first into a temporary file inside the workspace's .git folder
// (.git/pw-uploads: the same file system, so the final rename is atomic, and invisible to git
// status and to List), without the workspace lock: a slow upload does not hold up the
// workspace's other users. Only the rename into place and the status run under the lock.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"time"

	"portalwright/internal/workspace"
)

// uploadDir holds the unfinished uploads of a workspace, inside .git.
const uploadDir = ".git/pw-uploads"

// limitedReader fails with *workspace.ErrTooLarge as soon as more than limit bytes arrive, and with the
// context's error once it is done.
type limitedReader struct {
	ctx   context.Context
	r     io.Reader
	left  int64
	limit int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if err := l.ctx.Err(); err != nil {
		return 0, err
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1] // one byte more tells a source of exactly the limit from a longer one
	}
	n, err := l.r.Read(p)
	if err != nil && err != io.EOF {
		err = &workspace.ErrSource{Err: err}
	}
	if int64(n) > l.left {
		return 0, &workspace.ErrTooLarge{Limit: l.limit}
	}
	l.left -= int64(n)
	return n, err
}

// uploadChunk is how much of an upload is gathered before each write: a multipart part hands
// over at most a few KB per read, and writing each of those costs more than the copy itself.
const uploadChunk = 256 << 10

// copyInChunks copies src to dst in writes of up to uploadChunk bytes.
func copyInChunks(dst io.Writer, src io.Reader) error {
	buf := make([]byte, uploadChunk)
	for {
		n, err := io.ReadFull(src, buf)
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return werr
			}
		}
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF: // the end of src (a last, short chunk)
			return nil
		case err != nil:
			return err
		}
	}
}

// WriteStream stores src as the file p of the user's workspace (no version is computed: an
// upload's answer does not need one, and hashing cost a fifth of its time; Stat or
// VersionOfReader give it when asked) (replacing a file there; a
// folder or a link at p is refused), failing with *workspace.ErrTooLarge once more than limit bytes
// arrive. The bytes are copied without the workspace lock into a temporary file in
// .git/pw-uploads; under the lock it is renamed into place (missing parent folders made) and
// the workspace's new status is taken, as WriteFile does. On any failure, a cancelled ctx
// included, the temporary file is removed: nothing is left behind.
func (fl *Files) WriteStream(ctx context.Context, userID, portalID int64, p workspace.Path, src io.Reader, limit int64) (*workspace.Status, error) {
	if p == workspace.Root || p.String() == "" {
		return nil, workspace.ErrBadPath
	}
	root, err := fl.clones.Root(userID, portalID)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	if err := root.MkdirAll(uploadDir, 0o750); err != nil {
		return nil, err
	}
	sweepUploads(root)
	var rnd [12]byte
	_, _ = rand.Read(rnd[:])
	tmp := uploadDir + "/" + hex.EncodeToString(rnd[:])
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, workspace.NewFileMode)
	if err != nil {
		return nil, err
	}
	placed := false
	defer func() {
		if !placed {
			_ = root.Remove(tmp)
		}
	}()
	in := &limitedReader{ctx: ctx, r: src, left: limit, limit: limit}
	err = copyInChunks(f, in)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	st, err := fl.clones.Change(ctx, userID, portalID, func(ws *os.Root, guard workspace.Guard) error {
		if err := guard(p, false); err != nil {
			return err
		}
		if fi, err := ws.Lstat(p.String()); err == nil {
			if fi.Mode()&fs.ModeSymlink != 0 {
				return workspace.ErrLink
			}
			if !fi.Mode().IsRegular() {
				return fs.ErrExist
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err := mkParent(ws, p); err != nil {
			return err
		}
		if err := workspace.PlaceFile(ws, tmp, p.String()); err != nil { // a replaced file keeps its mode
			return err
		}
		placed = true
		return nil
	})
	if err != nil && !placed {
		return nil, err
	}
	return st, nil
}

// staleUpload is the age after which an unfinished upload is a leftover (of a process that
// stopped mid-upload): removed by the next upload into the workspace.
const staleUpload = 24 * time.Hour

func sweepUploads(root *os.Root) {
	d, err := root.Open(uploadDir)
	if err != nil {
		return
	}
	defer d.Close()
	entries, _ := d.ReadDir(-1)
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > staleUpload {
			_ = root.Remove(uploadDir + "/" + e.Name())
		}
	}
}

// OpenFile opens a regular file of the user's workspace for a streamed read, with its
// description (without Version: VersionOfReader hashes the content when it is needed). A link is refused (workspace.ErrLink),
// a folder is workspace.ErrBadPath, a missing file fs.ErrNotExist. The caller closes the file.
func (fl *Files) OpenFile(userID, portalID int64, p workspace.Path) (*os.File, workspace.FileInfo, error) {
	root, err := fl.clones.Root(userID, portalID)
	if err != nil {
		return nil, workspace.FileInfo{}, err
	}
	defer root.Close()
	fi, err := lstatIn(root, p)
	if err != nil {
		return nil, workspace.FileInfo{}, err
	}
	if !fi.Mode().IsRegular() {
		return nil, workspace.FileInfo{}, workspace.ErrBadPath
	}
	f, err := root.Open(p.String())
	if err != nil {
		return nil, workspace.FileInfo{}, err
	}
	// The file opened must be the one described (not swapped for a link meanwhile).
	ofi, err := f.Stat()
	if err != nil || !os.SameFile(fi, ofi) {
		f.Close()
		if err == nil {
			err = workspace.ErrLink
		}
		return nil, workspace.FileInfo{}, err
	}
	info := infoOf(p.String(), ofi)
	return f, info, nil
}

// Info describes a file or folder of the user's workspace without reading it (no workspace.Version),
// through os.Root; a link is refused (workspace.ErrLink), a missing path is fs.ErrNotExist.
func (fl *Files) Info(userID, portalID int64, p workspace.Path) (workspace.FileInfo, error) {
	root, err := fl.clones.Root(userID, portalID)
	if err != nil {
		return workspace.FileInfo{}, err
	}
	defer root.Close()
	fi, err := lstatIn(root, p)
	if err != nil {
		return workspace.FileInfo{}, err
	}
	return infoOf(p.String(), fi), nil
}

// Mkdir makes a folder of the user's workspace (and its missing parents), under the
// workspace lock, and answers the workspace's new status. An existing file or folder at p is
// fs.ErrExist.
func (fl *Files) Mkdir(ctx context.Context, userID, portalID int64, p workspace.Path) (*workspace.Status, error) {
	return fl.clones.Change(ctx, userID, portalID, func(root *os.Root, guard workspace.Guard) error {
		if p == workspace.Root || p.String() == "" {
			return workspace.ErrBadPath
		}
		if err := guard(p, false); err != nil {
			return err
		}
		if _, err := root.Lstat(p.String()); err == nil {
			return fs.ErrExist
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return root.MkdirAll(p.String(), 0o750)
	})
}
