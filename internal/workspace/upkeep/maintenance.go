// Package upkeep keeps the repositories of internal/workspace in order: the background
// maintenance (this file) and the sweep after a crash (sweep.go), over workspace.Core.
//
// Background maintenance of canonical repositories and workspaces.
//
// Every commit leaves loose objects (a push of a few objects is unpacked), every fetch and
// new branch a loose ref; git's own `gc --auto` is off in canonical repositories (they must
// never prune: workspaces borrow their objects through --shared) and runs in nobody's request
// in workspaces. So the product packs them itself, in the background:
//
//   - when a workspace is opened (its folder and its portal's canonical repository) and after a
//     fetch from a git host (the canonical repository), a repository is maintained if it was
//     not for an interval (an hour; StartMaintenance), or at once when it has many loose
//     objects (git's gc.auto estimate: a 256th of the object folders) or, a workspace, many
//     loose refs (looseRefsDue);
//   - maintenance is `git pack-refs` (--all in workspaces; in canonical repositories only the
//     refs already packed: the portal's branches made from the host are written packed by
//     workspace.Refs.WritePacked, and the host's under refs/upstream/heads/ stay loose, because git's fetch
//     --prune deletes loose refs many times faster than packed ones), `git maintenance run
//     --task=loose-objects` (a pack of the loose objects) and `git prune-packed` (which only
//     deletes loose copies of objects that are in a pack: nothing is ever pruned), and in
//     canonical repositories also `--task=commit-graph`, so the ahead/behind counts of
//     upstream status walk a commit-graph;
//   - it takes no lock that users wait on (neither the portal lock nor the workspace lock):
//     git's own lock files (packed-refs.lock, a ref's .lock, objects/maintenance.lock)
//     serialise it with the commands of requests, as they do between any two git processes.
//     The one rule it needs from the product is that the core's stale-lock removal leaves its
//     lock files alone: while it runs, the repository holds workspace.MaintenanceMarker (its
//     deadline),
//     and removeStaleLocks skips packed-refs.lock and the locks under refs/ until the marker is
//     gone or past its deadline (a crash leaves it: it expires). The marker also keeps two
//     instances on a shared data dir from maintaining one repository at once.
//   - one repository at a time per instance (maintenanceSlots), with a time-out per command.
package upkeep

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"portalwright/internal/gitcli"
	"portalwright/internal/workspace"
)

const (
	maintenanceStamp   = "portalwright-maintained" // its modification time: the last maintenance
	maintenanceTimeout = 10 * time.Minute          // per git command, and the marker's lifetime
	looseRefsDue       = 100                       // loose refs that make maintenance due at once
	looseObjectsDue    = 6700                      // git's gc.auto default
	maintenanceSlots   = 1
)

// Upkeep keeps the repositories in order: the background maintenance (this file) and the
// sweep after a crash (sweep.go).
type Upkeep struct {
	repos *workspace.Repos
	core  workspace.Core
	refs  workspace.Refs
	maint *maintainer // nil: off
}

// New is the upkeep of the repositories.
func New(repos *workspace.Repos) *Upkeep {
	return &Upkeep{repos: repos, core: repos.Core(), refs: repos.Core().Refs()}
}

// maintainer runs the background maintenance of one Repos.
type maintainer struct {
	interval time.Duration
	ctx      context.Context
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	slots    chan struct{}

	mu      sync.Mutex
	stopped bool
	queued  map[string]bool
}

// StartMaintenance turns the background maintenance on: a repository is maintained at most
// once per interval (0: an hour), sooner when it has many loose refs or objects. Without it
// (tests, tools) nothing runs in the background. StopMaintenance ends it.
func (up *Upkeep) StartMaintenance(interval time.Duration) {
	if interval <= 0 {
		interval = time.Hour
	}
	ctx, cancel := context.WithCancel(context.Background())
	up.maint = &maintainer{interval: interval, ctx: ctx, cancel: cancel, slots: make(chan struct{}, maintenanceSlots), queued: map[string]bool{}}
	up.refs.SetPacker(up.maintainSoon)
}

// StopMaintenance stops the running maintenance (its git commands are killed; git's lock files
// and packs stay consistent) and waits for it.
func (up *Upkeep) StopMaintenance() {
	m := up.maint
	if m == nil {
		return
	}
	m.mu.Lock()
	m.stopped = true
	m.mu.Unlock()
	m.cancel()
	m.wg.Wait()
}

// maintenanceIdle waits until the maintenance queued so far is over (tests).
func (up *Upkeep) maintenanceIdle() {
	if up.maint != nil {
		up.maint.wg.Wait()
	}
}

// maintainSoon maintains a repository (a canonical repository or a workspace's .git) in the
// background if it is due.
func (up *Upkeep) maintainSoon(gitDir string) {
	m := up.maint
	if m == nil || !up.maintenanceDue(gitDir, m.interval) {
		return
	}
	m.mu.Lock()
	if m.stopped || m.queued[gitDir] {
		m.mu.Unlock()
		return
	}
	m.queued[gitDir] = true
	m.wg.Add(1)
	m.mu.Unlock()
	go func() {
		defer m.wg.Done()
		defer func() {
			m.mu.Lock()
			delete(m.queued, gitDir)
			m.mu.Unlock()
		}()
		select {
		case m.slots <- struct{}{}:
		case <-m.ctx.Done():
			return
		}
		defer func() { <-m.slots }()
		if err := up.maintain(m.ctx, gitDir); err != nil && m.ctx.Err() == nil {
			slog.Warn("git maintenance failed (it is tried again later)", "repository", gitDir, "error", err)
		}
	}()
}

// maintenanceDue tells whether a repository should be maintained now: not for interval, or
// many loose refs or objects. A repository seen for the first time starts its interval.
func (up *Upkeep) maintenanceDue(gitDir string, interval time.Duration) bool {
	fi, err := os.Stat(filepath.Join(gitDir, maintenanceStamp))
	if errors.Is(err, fs.ErrNotExist) {
		if _, err := os.Stat(filepath.Join(gitDir, "HEAD")); err != nil {
			return false // not a repository (any more)
		}
		_ = os.WriteFile(filepath.Join(gitDir, maintenanceStamp), nil, 0o644)
	} else if err != nil {
		return false
	} else if time.Since(fi.ModTime()) >= interval {
		return true
	}
	if filepath.Base(gitDir) != ".git" {
		// a canonical repository: its loose refs are the fetch's (below)
	} else if t := up.refs.Files(gitDir); t != nil && t.Loose >= looseRefsDue {
		return true // a workspace's loose refs (a canonical repository's are the fetch's: below)
	}
	entries, _ := os.ReadDir(filepath.Join(gitDir, "objects", "17"))
	return len(entries)*256 >= looseObjectsDue
}

// maintain packs a repository's loose refs and objects (and writes the commit-graph of a
// canonical repository) without taking the product's locks; see above.
func (up *Upkeep) maintain(ctx context.Context, gitDir string) error {
	marker := filepath.Join(gitDir, workspace.MaintenanceMarker)
	deadline := strconv.FormatInt(time.Now().Add(maintenanceTimeout+time.Minute).UnixNano(), 10)
	for attempt := 0; ; attempt++ {
		f, err := os.OpenFile(marker, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, werr := f.WriteString(deadline)
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil {
				os.Remove(marker)
				return werr
			}
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
		if attempt > 0 || workspace.MaintenanceRunning(gitDir) {
			return nil // another maintenance has it
		}
		os.Remove(marker) // past its deadline: a crash left it
	}
	defer os.Remove(marker)
	now := time.Now()
	_ = os.Chtimes(filepath.Join(gitDir, maintenanceStamp), now, now)
	// Our marker is held, so these lock files are a crashed maintenance's leftovers.
	for _, p := range []string{filepath.Join("objects", "maintenance.lock"), filepath.Join("objects", "info", "commit-graphs", "commit-graph-chain.lock")} {
		if fi, err := os.Stat(filepath.Join(gitDir, p)); err == nil && time.Since(fi.ModTime()) > maintenanceTimeout {
			os.Remove(filepath.Join(gitDir, p))
		}
	}
	var cmds []*gitcli.Cmd
	if filepath.Base(gitDir) != ".git" {
		// A canonical repository: refs already packed are packed again, the loose ones stay
		// (the host's branches under refs/upstream/heads/ are the fetch's; git's --prune
		// deletes loose refs much faster than packed ones).
		cmds = append(cmds, gitcli.Command("pack-refs"),
			gitcli.Command("maintenance", "run", "--quiet", "--task=loose-objects", "--task=commit-graph"))
	} else {
		cmds = append(cmds, gitcli.Command("pack-refs", "--all"),
			gitcli.Command("maintenance", "run", "--quiet", "--task=loose-objects"))
	}
	// The loose-objects task packs the loose objects after removing the loose copies of
	// packed ones: remove the copies of what it just packed too.
	cmds = append(cmds, gitcli.Command("prune-packed", "-q"))
	var errs []error
	for _, c := range cmds {
		if _, err := up.core.Run(ctx, gitDir, c.Timeout(maintenanceTimeout)); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
