package workspace

import "context"

// What the built-in SSH server (internal/gitssh) needs of the repositories to serve
// git upload-pack and receive-pack on a canonical repository. The push and its rules live
// there; here are only the layout and the lock.

// CanonicalRepo is the path of a portal's canonical bare repository; ok is false when the
// portal has none (deleted, or never made).
func (r *Repos) CanonicalRepo(portalID int64) (path string, ok bool) {
	path = r.bare(portalID)
	return path, exists(path)
}

// LockPortal takes the portal's write lock, the one every commit, revert and branch change
// holds, so a push over SSH and a commit from the browser never interleave. As for those,
// stale git lock files of the canonical repository are removed once it is held (hygiene.go):
// run every git command that writes the repository under it, through gitcli.
func (r *Repos) LockPortal(ctx context.Context, portalID int64) (unlock func(), err error) {
	return r.lock(ctx, portalID)
}
