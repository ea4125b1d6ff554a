package editing

import (
	"context"
	"os"
	"path/filepath"

	"portalwright/internal/caller"
	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
)

// The workspace calls that need only the caller and the checked portal. Those that need the
// portal's record or people (open, commit, revert to, reset, other users' changes) are in
// commits.go and wschanges.go, through the Records and People interfaces (people.go).

// LocalChanges lists the caller's uncommitted changes.
func (f *Workspace) LocalChanges(ctx context.Context, c caller.Caller, pa portalaccess.Portal) (*workspace.Status, error) {
	st, err := f.repos.Status(ctx, c.UserID, pa.ID())
	return st, GitError(err)
}

// LocalCommits lists the caller's commits not yet on the portal's branch.
func (f *Workspace) LocalCommits(ctx context.Context, c caller.Caller, pa portalaccess.Portal) ([]workspace.LocalCommit, error) {
	list, err := f.repos.LocalCommits(ctx, c.UserID, pa.ID())
	return list, GitError(err)
}

// RevertAll discards the caller's uncommitted changes and announces the clean workspace.
func (f *Workspace) RevertAll(ctx context.Context, c caller.Caller, pa portalaccess.Portal) error {
	if err := f.repos.RevertAll(ctx, c.UserID, pa.ID()); err != nil {
		return GitError(err)
	}
	f.Changed(ctx, c, pa)
	return nil
}

// Changed takes the caller's workspace status after a change git made (open, reset, revert)
// and announces it. The status is taken even when nobody listens: it records the workspace's
// state for other users' changes.
func (f *Workspace) Changed(ctx context.Context, c caller.Caller, pa portalaccess.Portal) {
	if st, err := f.repos.Status(ctx, c.UserID, pa.ID()); err == nil {
		f.publish(ctx, c, pa, st)
	}
}

// ContentCheck is the answer of check-content.
type ContentCheck struct {
	Branch       string   `json:"branch"`
	RuleWarnings []string `json:"ruleWarnings"`
}

// CheckContent runs the commit-time content check over every file of the caller's workspace.
func (f *Workspace) CheckContent(ctx context.Context, c caller.Caller, pa portalaccess.Portal) (*ContentCheck, error) {
	st, err := f.repos.Status(ctx, c.UserID, pa.ID())
	if err != nil {
		return nil, GitError(err)
	}
	warnings, err := f.repos.CheckAll(ctx, c.UserID, pa.ID())
	if err != nil {
		return nil, GitError(err)
	}
	return &ContentCheck{Branch: st.Branch, RuleWarnings: warnings}, nil
}

// Dir is the caller's workspace folder of the checked portal (GIT_INVALID_WORKSPACE when it is
// not opened). It exists for the task runner only: a run copies the whole tree into its
// sandbox's scratch folder and swaps its build output folder in atomically, which the file
// calls here (one path at a time, under the workspace's rules) do not offer. The runner never
// writes anything else of the workspace. Every other feature goes through the file calls.
func (f *Workspace) Dir(_ context.Context, c caller.Caller, pa portalaccess.Portal) (string, error) {
	dir := f.repos.WorkspaceDir(c.UserID, pa.ID())
	if fi, err := os.Stat(filepath.Join(dir, ".git")); err != nil || !fi.IsDir() {
		return "", GitError(workspace.ErrNoWorkspace)
	}
	return dir, nil
}

// Branch is the branch the caller's workspace of the portal is on ("" without a workspace):
// a read of one small file, for calls made on every request (a live preview's files).
func (f *Workspace) Branch(c caller.Caller, pa portalaccess.Portal) string {
	return f.repos.CurrentBranch(c.UserID, pa.ID())
}
