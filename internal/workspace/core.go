package workspace

import (
	"context"
	"errors"
	"fmt"

	"portalwright/internal/gitcli"
)

// Core is the canonical repositories, and all that the role packages under internal/workspace
// (snapshot, gitlog, …) and the built-in SSH server (internal/gitssh) may use of this package:
// the layout of the data directory, running git, the portal's write lock and the canonical
// repository's refs (this file), and a portal's repository made, imported, copied or deleted
// and its branches (repos.go). The rules stay here: a canonical repository is written only
// under its portal's lock (LockPortal), and refs are read from the ref files and packed refs
// without a git process (refs.go, packedrefs.go). The users' workspaces are Repos.
type Core struct{ r *Repos }

// Core is the canonical repositories the workspaces and the roles are built over
// (snapshot.New(repos.Core()), …).
func (r *Repos) Core() Core { return Core{r} }

// Git is the runner.
func (c Core) Git() *gitcli.Git { return c.r.git }

// Bare is the folder of the portal's canonical bare repository.
func (c Core) Bare(portalID int64) string { return c.r.bare(portalID) }

// CanonicalRepo is the path of a portal's canonical bare repository; ok is false when the
// portal has none (deleted, or never made).
func (c Core) CanonicalRepo(portalID int64) (path string, ok bool) {
	path = c.r.bare(portalID)
	return path, exists(path)
}

// Run runs git in dir and answers its output.
func (c Core) Run(ctx context.Context, dir string, cmd *gitcli.Cmd) (string, error) {
	return c.r.run(ctx, dir, cmd)
}

// LockPortal takes the portal's write lock, the one every commit, revert and branch change
// holds, so that (for one) a push over SSH (internal/gitssh) and a commit from the browser
// never interleave. Stale git lock files of the canonical repository are removed once it is
// held (hygiene.go): run every git command that writes the repository under it, through
// gitcli.
func (c Core) LockPortal(ctx context.Context, portalID int64) (unlock func(), err error) {
	return c.r.lock(ctx, portalID)
}

// Tip is the commit a branch of the portal's canonical repository points at, "" when it has no
// such branch (read from the ref files).
func (c Core) Tip(portalID int64, branch string) string { return tipOf(c.r.bare(portalID), branch) }

// MissingOr is what a failed `rev-parse --verify --quiet` means: missing when git says the
// name is no object of that kind (exit 1), else the failure itself — a cancelled call (the
// server stopping) or git failing (128, killed) is not an unknown commit.
func MissingOr(ctx context.Context, err, missing error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w: %w", ctx.Err(), err)
	}
	var ge *gitcli.Error
	if errors.As(err, &ge) && ge.ExitCode == 1 {
		return missing
	}
	return err
}
