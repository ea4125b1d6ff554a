// Package editing is the unit every portal-scoped editing feature (settings, assets, pages,
// translations, links, the task runner) works through: the caller's workspace of a checked
// portal (portalaccess.Portal) — its local changes and commits, revert, content check — and
// its files, read, written, listed, described, moved and removed through the workspace file
// layer (internal/workspace/files.go: checked paths,
// links refused, atomic versioned writes under the workspace lock), with every change
// published to the portal's room with the status the write already took — no second git
// status. It maps workspace errors to the API's codes (errors.go).
//
// A feature imports editing, portalaccess and workspace (for Path and Version), never the
// portal package.
package editing

import (
	"context"

	"portalwright/internal/caller"
	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
	"portalwright/internal/workspace/snapshot"
)

// Publisher announces a user's workspace after a change (the portal service's events).
type Publisher interface {
	WorkspaceChanged(ctx context.Context, c caller.Caller, pa portalaccess.Portal, st *workspace.Status)
	// Committed is called after a commit of the caller reached the portal's branch, with the
	// caller's workspace after it.
	Committed(ctx context.Context, c caller.Caller, pa portalaccess.Portal, st *workspace.Status, commitID string)
}

// Workspace is the caller's workspace of a checked portal: its files (this file) and the
// workspace calls that need nothing of the portal but its id (workspace.go).
type Workspace struct {
	repos   *workspace.Repos
	snaps   *snapshot.Snapshots // commits of the canonical repository
	files   workspace.Files     // the workspace's files
	collab  workspace.Collab    // conflicts, discarded work, review (together.go)
	pub     Publisher
	records Records
	people  People

	upstream Upstream // the git host of imported portals (upstream.go); nil: none

	wsChanges wsChangesCache // the last other users' changes answers (wschanges.go)
}

// New returns the editing unit over repos; pub may be nil (nothing announced).
func New(repos *workspace.Repos, pub Publisher) *Workspace {
	return &Workspace{repos: repos, snaps: snapshot.New(repos.Core()), files: repos.Files(), collab: repos.Collab(), pub: pub}
}

// WithRecords sets where the portal's record and people come from (the portal service and the
// app's people); the calls that need them (other users' changes) fail without.
func (f *Workspace) WithRecords(r Records, p People) *Workspace { f.records, f.people = r, p; return f }

func (f *Workspace) publish(ctx context.Context, c caller.Caller, pa portalaccess.Portal, st *workspace.Status) {
	if f.pub != nil && st != nil {
		f.pub.WorkspaceChanged(ctx, c, pa, st)
	}
}

// Read reads a file of the caller's workspace with its version (fs.ErrNotExist when it is
// missing, unmapped so callers can supply a default; other errors mapped).
func (f *Workspace) Read(_ context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path) ([]byte, workspace.Version, error) {
	return f.files.ReadFile(c.UserID, pa.ID(), p)
}

// Write replaces a file (atomic, versioned: base is the version the edit started from,
// workspace.NoVersion for a new file) and publishes the workspace's new status. A stale base
// is a 409 FILE_CHANGED naming the file as name.
func (f *Workspace) Write(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path, data []byte, base workspace.Version, name string) (workspace.Version, error) {
	version, st, err := f.files.WriteFile(ctx, c.UserID, pa.ID(), p, data, base)
	if err != nil {
		return base, FileError(err, name)
	}
	f.publish(ctx, c, pa, st)
	return version, nil
}

// List lists a folder of the caller's workspace (workspace.Root: the top).
func (f *Workspace) List(ctx context.Context, c caller.Caller, pa portalaccess.Portal, dir workspace.Path) ([]workspace.FileInfo, error) {
	list, err := f.files.List(ctx, c.UserID, pa.ID(), dir)
	if err != nil {
		return nil, FileError(err, dir.String())
	}
	return list, nil
}

// Stat describes a file (with its version) or folder of the caller's workspace.
func (f *Workspace) Stat(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path) (workspace.FileInfo, error) {
	info, err := f.files.Stat(ctx, c.UserID, pa.ID(), p)
	if err != nil {
		return info, FileError(err, p.String())
	}
	return info, nil
}

// Move renames a file (still at version base) or folder and publishes the new status.
func (f *Workspace) Move(ctx context.Context, c caller.Caller, pa portalaccess.Portal, from, to workspace.Path, base workspace.Version) error {
	st, err := f.files.Move(ctx, c.UserID, pa.ID(), from, to, base)
	if err != nil {
		return FileError(err, from.String()+" → "+to.String())
	}
	f.publish(ctx, c, pa, st)
	return nil
}

// Remove deletes a file (still at version base) or a folder and publishes the new status.
func (f *Workspace) Remove(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path, base workspace.Version) error {
	st, err := f.files.Remove(ctx, c.UserID, pa.ID(), p, base)
	if err != nil {
		return FileError(err, p.String())
	}
	f.publish(ctx, c, pa, st)
	return nil
}
