package editing

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"portalwright/internal/apperr"
	"portalwright/internal/gitcli"

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
func (f *Commits) LocalCommits(ctx context.Context, c caller.Caller, pa portalaccess.Portal) ([]workspace.LocalCommit, error) {
	list, err := f.repos.LocalCommits(ctx, c.UserID, pa.ID())
	return list, GitError(err)
}

// RevertAll discards the caller's uncommitted changes and announces the clean workspace.
func (f *Commits) RevertAll(ctx context.Context, c caller.Caller, pa portalaccess.Portal) error {
	if err := f.repos.RevertAll(ctx, c.UserID, pa.ID()); err != nil {
		return GitError(err)
	}
	f.ws.Changed(ctx, c, pa)
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
// not opened). It exists for two readers of the whole tree that the file calls here (one path
// at a time, under the workspace's rules) do not serve:
//   - the task runner: a run copies the whole tree into its sandbox's scratch folder and swaps
//     its build output folder in atomically; it never writes anything else of the workspace;
//   - release readiness (internal/readiness): it only reads, through check.DirTree, which
//     lists regular files without ever following a link and reads through an os.Root.
//
// Every other feature goes through the file calls.
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

// HeadCommit is the commit the caller's workspace of the portal is on ("" without one).
func (f *Workspace) HeadCommit(c caller.Caller, pa portalaccess.Portal) string {
	return f.repos.HeadCommit(c.UserID, pa.ID())
}

// CommitSource is what reading one commit of a portal's canonical repository needs: the git
// runner, the repository's folder and the commit. Readers only read (git ls-tree, cat-file).
type CommitSource struct {
	Git    *gitcli.Git
	Dir    string
	Commit string
}

// fullCommitID is a whole commit id (SHA-1 or SHA-256): a branch or tag name, or a short id,
// is not one.
var fullCommitID = regexp.MustCompile(`^[0-9a-f]{40}([0-9a-f]{24})?$`)

// CanonicalCommit resolves commitID, a whole commit id, in the portal's canonical repository
// (404 UNKNOWN_COMMIT when it is not a commit of that repository: a workspace's commit that
// was never pushed is not one) and answers how to read it.
func (f *Workspace) CanonicalCommit(ctx context.Context, pa portalaccess.Portal, commitID string) (CommitSource, error) {
	unknown := apperr.NotFound("UNKNOWN_COMMIT", "There is no commit "+strconv.Quote(commitID)+" in this portal.")
	if !fullCommitID.MatchString(commitID) {
		return CommitSource{}, unknown
	}
	dir, ok := f.repos.Core().CanonicalRepo(pa.ID())
	if !ok {
		return CommitSource{}, unknown
	}
	id, err := f.snaps.ResolveCommit(ctx, pa.ID(), commitID)
	if errors.Is(err, workspace.ErrUnknownCommit) || errors.Is(err, workspace.ErrBranchMissing) {
		return CommitSource{}, unknown
	}
	if err != nil {
		return CommitSource{}, GitError(err)
	}
	return CommitSource{Git: f.repos.Git(), Dir: dir, Commit: id}, nil
}
