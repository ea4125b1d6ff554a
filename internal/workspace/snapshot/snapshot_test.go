package snapshot

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"portalwright/internal/workspace"
	"portalwright/internal/workspace/workspacetest"
)

// TestResolveTellsUnknownFromFailed: only git saying the object is not there is an unknown
// commit; a call cancelled because the server stops, or git failing, is reported as such (a
// loadable cut short by a stop is not "The commit could not be taken: unknown commit").
func TestResolveTellsUnknownFromFailed(t *testing.T) {
	ctx := context.Background()
	repos := workspacetest.NewRepos(t)
	workspacetest.Portal(t, repos)
	r := New(repos.Core())
	head, err := r.ResolveCommit(ctx, 1, "master")
	if err != nil || len(head) != 40 {
		t.Fatalf("master: %q %v", head, err)
	}
	if got, err := r.ResolveCommit(ctx, 1, head); err != nil || got != head {
		t.Fatalf("a full id: %q %v", got, err)
	}
	if _, err := r.ResolveCommit(ctx, 1, strings.Repeat("a", 40)); !errors.Is(err, workspace.ErrUnknownCommit) {
		t.Fatalf("an unknown commit: %v", err)
	}

	stopped, cancel := context.WithCancel(ctx)
	cancel()
	_, err = r.ResolveCommit(stopped, 1, head)
	if !errors.Is(err, context.Canceled) || errors.Is(err, workspace.ErrUnknownCommit) {
		t.Fatalf("a cancelled resolve: %v", err)
	}
	_, err = r.Snapshot(stopped, 1, head, filepath.Join(t.TempDir(), "snap"), 1<<20)
	if !errors.Is(err, context.Canceled) || errors.Is(err, workspace.ErrUnknownCommit) {
		t.Fatalf("a cancelled snapshot: %v", err)
	}

	// git failing (the repository's object store is gone): an error, not an unknown commit.
	if err := os.RemoveAll(filepath.Join(repos.Core().Bare(1), "objects")); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ResolveCommit(ctx, 1, head); err == nil || errors.Is(err, workspace.ErrUnknownCommit) {
		t.Fatalf("a broken repository: %v", err)
	}
}
