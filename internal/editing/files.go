// Package editing is the unit every portal-scoped editing feature (settings, assets, pages,
// translations, links, the task runner) works through: the caller's workspace of a checked
// portal (portalaccess.Portal) — its local changes and commits, revert, content check — and
// its files, read, written, listed, described, moved and removed through the workspace file
// layer (internal/workspace/files, internal/workspace/paths.go: checked paths,
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
	wsfiles "portalwright/internal/workspace/files"
	"portalwright/internal/workspace/snapshot"
)

// Publisher announces a user's workspace after a change (the portal service's events).
type Publisher interface {
	WorkspaceChanged(ctx context.Context, c caller.Caller, pa portalaccess.Portal, st *workspace.Status)
	// Committed is called after a commit of the caller reached the portal's branch, with the
	// caller's workspace after it.
	Committed(ctx context.Context, c caller.Caller, pa portalaccess.Portal, st *workspace.Status, commitID string)
}

// The editing unit is four types over one state (unit), each a role of the caller's
// workspace of a checked portal, so no type carries every call:
//   - Workspace: its status (local changes), settings (settings.go), content check, its
//     directory and branch, the canonical repository's commits, other users' changes
//     (wschanges.go), the author of a commit; it hands out the other three.
//   - Files: its files, one at a time (this file, stream.go) and in batches (batch.go).
//   - Commits: open, commit, revert and reset of the workspace, and its local commits
//     (commits.go, workspace.go).
//   - Together: conflicts, discarded work, review and the merge of an unsaved edit
//     (together.go).

// unit is the state the editing types share: set while wiring, before serving.
type unit struct {
	repos   *workspace.Repos
	snaps   *snapshot.Snapshots // commits of the canonical repository
	files   *wsfiles.Files      // the workspace's files
	collab  workspace.Collab    // conflicts, discarded work, review (together.go)
	pub     Publisher
	records Records
	people  People

	upstream Upstream // the git host of imported portals (upstream.go); nil: none

	wsChanges wsChangesCache // the last other users' changes answers (wschanges.go)

	// The four roles, for the calls of one that use another (a commit announces the status
	// and reads the settings).
	ws       *Workspace
	fs       *Files
	commits  *Commits
	together *Together
}

// Workspace is the caller's workspace of a checked portal: its status, settings and content
// check, and the calls that need nothing of the portal but its id (workspace.go). Files,
// Commits and Together hand out its other roles.
type Workspace struct{ *unit }

// Files is the caller's workspace's files: read, written, listed, described, moved and
// removed through the workspace file layer, one at a time or in batches.
type Files struct{ *unit }

// Commits is the life of the caller's workspace: open, commit, revert, reset, its local
// commits.
type Commits struct{ *unit }

// Together is working together on the caller's workspace: conflicts, discarded work, review,
// the merge of an unsaved edit.
type Together struct{ *unit }

// New returns the editing unit over repos; pub may be nil (nothing announced).
func New(repos *workspace.Repos, pub Publisher) *Workspace {
	u := &unit{repos: repos, snaps: snapshot.New(repos.Core()), files: wsfiles.New(repos), collab: repos.Collab(), pub: pub}
	u.ws, u.fs, u.commits, u.together = &Workspace{u}, &Files{u}, &Commits{u}, &Together{u}
	return u.ws
}

// Files returns the workspace's files.
func (f *Workspace) Files() *Files { return f.fs }

// Commits returns the workspace's open, commit, revert and reset.
func (f *Workspace) Commits() *Commits { return f.commits }

// Together returns the workspace's conflicts, discarded work and review.
func (f *Workspace) Together() *Together { return f.together }

// WithRecords sets where the portal's record and people come from (the portal service and the
// app's people); the calls that need them (other users' changes) fail without.
func (f *Workspace) WithRecords(r Records, p People) *Workspace { f.records, f.people = r, p; return f }

func (f *unit) publish(ctx context.Context, c caller.Caller, pa portalaccess.Portal, st *workspace.Status) {
	if f.pub != nil && st != nil {
		f.pub.WorkspaceChanged(ctx, c, pa, st)
	}
}

// Read reads a file of the caller's workspace with its version (fs.ErrNotExist when it is
// missing, unmapped so callers can supply a default; other errors mapped).
func (f *Files) Read(_ context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path) ([]byte, workspace.Version, error) {
	return f.files.ReadFile(c.UserID, pa.ID(), p)
}

// Write replaces a file (atomic, versioned: base is the version the edit started from,
// workspace.NoVersion for a new file) and publishes the workspace's new status. A stale base
// is a 409 FILE_CHANGED naming the file as name.
func (f *Files) Write(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path, data []byte, base workspace.Version, name string) (workspace.Version, error) {
	version, st, err := f.files.WriteFile(ctx, c.UserID, pa.ID(), p, data, base)
	if err != nil {
		return base, FileError(err, name)
	}
	f.publish(ctx, c, pa, st)
	return version, nil
}

// List lists a folder of the caller's workspace (workspace.Root: the top).
func (f *Files) List(ctx context.Context, c caller.Caller, pa portalaccess.Portal, dir workspace.Path) ([]workspace.FileInfo, error) {
	list, err := f.files.List(ctx, c.UserID, pa.ID(), dir)
	if err != nil {
		return nil, FileError(err, dir.String())
	}
	return list, nil
}

// Stat describes a file (with its version) or folder of the caller's workspace.
func (f *Files) Stat(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path) (workspace.FileInfo, error) {
	info, err := f.files.Stat(ctx, c.UserID, pa.ID(), p)
	if err != nil {
		return info, FileError(err, p.String())
	}
	return info, nil
}

// Move renames a file (still at version base) or folder and publishes the new status.
func (f *Files) Move(ctx context.Context, c caller.Caller, pa portalaccess.Portal, from, to workspace.Path, base workspace.Version) error {
	st, err := f.files.Move(ctx, c.UserID, pa.ID(), from, to, base)
	if err != nil {
		return FileError(err, from.String()+" → "+to.String())
	}
	f.publish(ctx, c, pa, st)
	return nil
}

// Remove deletes a file (still at version base) or a folder and publishes the new status.
func (f *Files) Remove(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path, base workspace.Version) error {
	st, err := f.files.Remove(ctx, c.UserID, pa.ID(), p, base)
	if err != nil {
		return FileError(err, p.String())
	}
	f.publish(ctx, c, pa, st)
	return nil
}
