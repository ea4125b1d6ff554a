package workspace

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

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
// held (removeStaleLocks): run every git command that writes the repository under it, through
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

// run runs git in dir.
func (r *Repos) run(ctx context.Context, dir string, c *gitcli.Cmd) (string, error) {
	out, err := r.git.Run(ctx, dir, c)
	return string(out), err
}

// The locks, and the lock files of crashes.
//
// A git process that dies (a crash of the server, kill -9, a power cut) leaves its lock
// files behind: `index.lock` in a workspace breaks every later command there, and
// `refs/heads/<branch>.lock` in a canonical repository breaks every commit to that branch
// for every author. The product removes them itself, safely:
//
//   - only while it holds its own lock for that repository (the workspace lock for a
//     workspace, the portal lock for a canonical repository; advisory locks in PostgreSQL
//     when several instances share the data dir), and every git command of ours that can
//     write a repository runs under that lock;
//   - gitcli kills a timed-out command's whole process group and waits for it, so when the
//     lock is ours no git process of ours is still running there.
//
// Under those two conditions a lock file is a leftover and is removed before the command
// runs (removeStaleLocks, as lock and wsLock take the lock).

// lock takes the portal's write lock. Holding it, any git lock file in the canonical
// repository is a crash's leftover and is removed (removeStaleLocks; the rules above).
func (r *Repos) lock(ctx context.Context, portalID int64) (func(), error) {
	unlock, err := r.locks.Lock(ctx, "portal-"+strconv.FormatInt(portalID, 10))
	if err != nil {
		return nil, err
	}
	removeStaleLocks(r.bare(portalID))
	return unlock, nil
}

// exists tells whether a file or folder is there.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// wsLock takes the user's workspace lock. Holding it, any git lock file in the workspace is
// a crash's leftover and is removed (removeStaleLocks; the rules above).
func (r *Repos) wsLock(ctx context.Context, userID, portalID int64) (func(), error) {
	unlock, err := r.locks.Lock(ctx, "ws-"+strconv.FormatInt(userID, 10)+"-"+strconv.FormatInt(portalID, 10))
	if err != nil {
		return nil, err
	}
	removeStaleLocks(filepath.Join(r.WorkspaceDir(userID, portalID), ".git"))
	// A hold that changes the workspace without a status after it leaves its status
	// record stale (statuscache.go).
	return r.holdWorkspace(userID, portalID, unlock), nil
}

// openWorkspace takes the user's workspace lock and finds the workspace; callers defer the
// unlock. Every command that may write the workspace's index runs this way.
func (r *Repos) openWorkspace(ctx context.Context, userID, portalID int64) (string, func(), error) {
	unlock, err := r.wsLock(ctx, userID, portalID)
	if err != nil {
		return "", nil, err
	}
	dir, err := r.workspace(userID, portalID)
	if err != nil {
		unlock()
		return "", nil, err
	}
	return dir, unlock, nil
}

// removeStaleLocks deletes git lock files in a git directory (top level and refs/); the
// caller holds the product's lock for the repository. While the background maintenance holds
// the repository (MaintenanceMarker, with a deadline), git's packed-refs.lock and the
// locks under refs/ may be its live ones: they are left alone until it is over.
func removeStaleLocks(gitDir string) []string {
	var removed []string
	drop := func(p string) {
		if err := os.Remove(p); err == nil {
			removed = append(removed, p)
		}
	}
	entries, err := os.ReadDir(gitDir)
	if err != nil {
		return nil
	}
	maintained := MaintenanceRunning(gitDir)
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".lock") && !(maintained && e.Name() == "packed-refs.lock") {
			drop(filepath.Join(gitDir, e.Name()))
		}
	}
	if !maintained {
		_ = filepath.WalkDir(filepath.Join(gitDir, "refs"), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(d.Name(), ".lock") {
				drop(p)
			}
			return nil
		})
	}
	if len(removed) > 0 {
		slog.Warn("removed stale git lock files left by an interrupted git command", "repository", gitDir, "files", removed)
	}
	return removed
}

// MaintenanceMarker is the file a background maintenance (workspace/upkeep) holds in the
// repository while it runs, with its deadline (Unix nanoseconds, decimal): removeStaleLocks
// leaves git's ref locks alone until it is gone or past it.
const MaintenanceMarker = "portalwright-maintenance"

// MaintenanceRunning tells whether a background maintenance holds the repository (its marker,
// before its deadline), so removeStaleLocks leaves its lock files alone.
func MaintenanceRunning(gitDir string) bool {
	data, err := os.ReadFile(filepath.Join(gitDir, MaintenanceMarker))
	if err != nil {
		return false
	}
	deadline, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	return err == nil && time.Now().UnixNano() < deadline
}

// maintainSoon hands a repository to the background maintenance, which packs it when due
// (Refs.SetPacker).
func (r *Repos) maintainSoon(gitDir string) {
	if r.maint != nil {
		r.maint(gitDir)
	}
}

func (r *Repos) bare(portalID int64) string {
	return filepath.Join(r.root, "repos", strconv.FormatInt(portalID, 10)+".git")
}

// WorkspaceDir is where a user's clone of a portal lives.
func (r *Repos) WorkspaceDir(userID, portalID int64) string {
	return filepath.Join(r.root, "workspaces", strconv.FormatInt(userID, 10), strconv.FormatInt(portalID, 10))
}

// tipOf is the commit a branch of a repository points at, "" when it has no such branch.
func tipOf(gitDir, branch string) string {
	t, err := refTables.current(gitDir)
	if err != nil {
		return readRef(gitDir, "refs/heads/"+branch)
	}
	return t.refs["refs/heads/"+branch]
}

// readRef reads a ref of a repository without running git: the loose ref file, else the
// packed-refs entry. "" when the ref does not exist. Status calls it on every refresh, so it
// saves a process per call; anything unexpected falls back to "" (callers then ask git).
func readRef(gitDir, ref string) string {
	if data, err := os.ReadFile(filepath.Join(gitDir, filepath.FromSlash(ref))); err == nil {
		if sha := strings.TrimSpace(string(data)); shaPattern.MatchString(sha) {
			return sha
		}
		return ""
	}
	f, err := os.Open(filepath.Join(gitDir, "packed-refs"))
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if sha, name, ok := strings.Cut(line, " "); ok && name == ref && shaPattern.MatchString(sha) {
			return sha
		}
	}
	return ""
}
