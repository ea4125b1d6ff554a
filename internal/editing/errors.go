package editing

import (
	"errors"
	"io/fs"
	"syscall"

	"portalwright/internal/apperr"
	"portalwright/internal/workspace"
)

// Spec messages and codes of workspace calls (spec 1 §4.2, spec 3 §8).
const (
	MsgNothingToCommit   = "There are no changes to commit."
	MsgNothingLeft       = "Nothing was left to commit: your changes are already on the branch. Your local commit is kept under Recover discarded work."
	MsgConflict          = "Your changes conflict with changes another user committed. Resolve the conflicts to continue; your local commit is kept until you do."
	MsgCouldNotCommit    = "Could not commit changes"
	MsgCouldNotRevert    = "Could not revert portal"
	MsgDirtyWorkspace    = "You have local changes on this branch. Commit or revert them before switching branch."
	MsgBranchMissing     = "The branch does not exist in this portal."
	MsgBadBranch         = "The Selected branch name contains special characters and could not be opened"
	MsgValidationWarn    = "Content Validation Warning: Some files that were committed produced content validation warnings. Proceed with caution."
	CodeWarnings         = "CONTENT_VALIDATION_PASS_WITH_WARNINGS"
	CodeConflicts        = "GIT_CONFLICTS"
	CodeGitError         = "GIT_ERROR"
	CodeInvalidWS        = "GIT_INVALID_WORKSPACE"
	CodeBranchMissing    = "BRANCH_DOES_NOT_EXIST_IN_PORTAL"
	CodeLocalCommits     = "GIT_LOCAL_COMMITS_ERROR"
	CodeMergeError       = "PORTAL_MERGE_ERROR"
	CodeRebaseError      = "PORTAL_REBASE_ERROR"
	CodeNothingToCommit  = "NOTHING_TO_COMMIT"
	CodeBranchCheckedOut = "BRANCH_CHECKED_OUT"
	MsgBranchCheckedOut  = "The branch cannot be deleted: an author has it open with changes that are not committed to the portal yet. Ask them to commit or revert first."
	MsgUnpushed          = "You have commits that are not on any branch of the portal yet (a commit that did not go through, or a branch deleted after it). Commit again to publish them, or Reset the workspace (your commits are kept in its history), before opening another branch."
)

// SettingsFile is the portal's settings file; its conflicts are told in the settings' words.
const SettingsFile = "portal.json"

// CodeFileChanged answers a whole-file save based on an outdated version.
const CodeFileChanged = "FILE_CHANGED"

// FileError maps errors of the workspace file layer: a stale version to FILE_CHANGED with
// the current version, a link or a bad path to a 400, a missing workspace to its git code.
func FileError(err error, name string) error {
	var stale *workspace.ErrStale
	switch {
	case errors.As(err, &stale):
		msg := "The file " + name + " was changed since you opened it (by a reload, a revert, a branch switch or another save). Reload it, then apply your change again."
		if name == SettingsFile {
			msg = "Portal settings were changed since you opened them (by a reload, a revert, a branch switch or another save). Reload them, then apply your change again."
		}
		return apperr.Conflict(CodeFileChanged, msg).WithData(map[string]string{"path": name, "currentVersion": string(stale.Current)})
	case isProtected(err):
		e, _ := workspace.IsProtected(err)
		what := map[string]string{workspace.KindLink: "a symbolic link", workspace.KindSubmodule: "a submodule", workspace.KindLFS: "a Git LFS pointer"}[e.Kind]
		return apperr.Conflict("FILE_PROTECTED", "The file "+e.Path+" is "+what+" in the portal's repository. The product shows it but never changes it; change it with git.").
			WithData(map[string]string{"path": e.Path, "kind": e.Kind})
	case errors.Is(err, workspace.ErrLink):
		return apperr.BadRequest("FILE_IS_LINK", "The file "+name+" is a symbolic link in the portal's content; links are not followed. Replace it with a plain file.")
	case errors.Is(err, workspace.ErrNoWorkspace):
		return GitError(err)
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR): // a path through a file names nothing
		return apperr.NotFound("FILE_NOT_FOUND", "The file "+name+" does not exist in your workspace.")
	case errors.Is(err, fs.ErrExist):
		return apperr.Conflict("FILE_EXISTS", "A file or folder "+name+" exists already.")
	case errors.Is(err, workspace.ErrBadPath):
		return apperr.BadRequest("INVALID_PATH", "The path "+name+" is not a file path inside the portal.")
	}
	return GitError(err)
}

// GitError maps workspace errors to the spec's codes; the UI offers Reset for these codes.
func GitError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, workspace.ErrConflict):
		paths := []string{}
		var ce *workspace.ConflictError
		if errors.As(err, &ce) {
			paths = ce.Paths
		}
		return apperr.Conflict(CodeConflicts, MsgConflict).WithData(map[string]any{"paths": paths}).WithCause(err)
	case errors.Is(err, workspace.ErrBranchMissing):
		return apperr.NotFound(CodeBranchMissing, MsgBranchMissing)
	case errors.Is(err, workspace.ErrDirtyWorkspace):
		return apperr.Conflict(CodeLocalCommits, DirtyWorkspaceMessage(err))
	case errors.Is(err, workspace.ErrLocalCommits):
		return apperr.Conflict(CodeLocalCommits, MsgUnpushed)
	case errors.Is(err, workspace.ErrNothingToCommit):
		return apperr.BadRequest(CodeNothingToCommit, MsgNothingToCommit)
	case errors.Is(err, workspace.ErrMergeConflict):
		return apperr.Conflict(CodeMergeError, "The branches could not be merged: they change the same lines. Nothing was changed.")
	case errors.Is(err, workspace.ErrInvalidWorkspace), errors.Is(err, workspace.ErrNoWorkspace):
		return apperr.Conflict(CodeInvalidWS, "The workspace is not usable. Reset it to continue.").WithCause(err)
	case errors.Is(err, workspace.ErrPush):
		return apperr.Conflict(CodeRebaseError, MsgCouldNotCommit+": the portal's branch could not be updated. Try again; Reset the workspace if it persists.").WithCause(err)
	}
	var inUse *workspace.BranchInUse
	if errors.As(err, &inUse) {
		return apperr.Conflict(CodeBranchCheckedOut, MsgBranchCheckedOut)
	}
	var apiErr *apperr.Error
	if errors.As(err, &apiErr) {
		return err
	}
	return apperr.NewError(500, CodeGitError, "Error", "A git operation failed. Reset the workspace if the problem persists.").WithCause(err)
}

// DirtyWorkspaceMessage names the branch that has the changes: the one the workspace is on.
func DirtyWorkspaceMessage(err error) string {
	var dirty *workspace.DirtyError
	if errors.As(err, &dirty) && dirty.Branch != "" {
		return "You have local changes on this branch (" + dirty.Branch + "). Commit or revert them before switching branch."
	}
	return MsgDirtyWorkspace
}

func isProtected(err error) bool { _, ok := workspace.IsProtected(err); return ok }
