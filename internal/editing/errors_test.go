package editing

import (
	"errors"
	"fmt"
	"testing"

	"portalwright/internal/apperr"
	"portalwright/internal/workspace"
)

func TestDirtyWorkspaceNamesTheCurrentBranch(t *testing.T) {
	err := GitError(fmt.Errorf("open: %w", &workspace.DirtyError{Branch: "master"}))
	var apiErr *apperr.Error
	if !errors.As(err, &apiErr) {
		t.Fatalf("not an API error: %v", err)
	}
	want := "You have local changes on this branch (master). Commit or revert them before switching branch."
	if apiErr.Code != CodeLocalCommits || apiErr.Message != want {
		t.Fatalf("got %s %q, want %s %q", apiErr.Code, apiErr.Message, CodeLocalCommits, want)
	}
	if got := DirtyWorkspaceMessage(workspace.ErrDirtyWorkspace); got != MsgDirtyWorkspace {
		t.Fatalf("without a branch: %q", got)
	}
}
