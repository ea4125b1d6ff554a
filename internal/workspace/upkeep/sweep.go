package upkeep

// Recovering from crashes. The git lock files a dead git process leaves are removed as the
// product takes its own lock for the repository (workspace/core.go: the rules, removeStaleLocks).
// Crashes also leave staging folders (.stage-*, .merge-*, clone .tmp-*) and, before domain
// deletion removed them, repositories of portals that no longer exist: Sweep removes both
// at start.

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// SweepOptions say what Sweep may remove.
type SweepOptions struct {
	// Alive tells whether a portal still exists; repositories and workspaces of other
	// portals are removed.
	Alive func(portalID int64) bool
	// Before: only leftovers last modified before this time are removed, so that a portal
	// being created right now (by this instance after it started, or by another instance
	// on a shared data dir) is left alone. Zero: an hour ago.
	Before time.Time
}

// SweepReport counts what Sweep removed.
type SweepReport struct {
	StagingFolders, OrphanRepositories, OrphanWorkspaces int
}

// Sweep cleans the data dir after a crash: staging folders, repositories and workspaces of
// deleted portals, and stale git lock files (each taken under the repository's lock); it
// also removes the remote an older version left in a canonical repository (workspace/noremote.go).
func (up *Upkeep) Sweep(ctx context.Context, opts SweepOptions) (SweepReport, error) {
	var rep SweepReport
	if opts.Before.IsZero() {
		opts.Before = time.Now().Add(-time.Hour)
	}
	old := func(p string) bool {
		fi, err := os.Stat(p)
		return err == nil && fi.ModTime().Before(opts.Before)
	}
	entries, _ := os.ReadDir(up.repos.DataDir())
	for _, e := range entries {
		if e.IsDir() && (strings.HasPrefix(e.Name(), ".stage-") || strings.HasPrefix(e.Name(), ".merge-")) && old(filepath.Join(up.repos.DataDir(), e.Name())) {
			if os.RemoveAll(filepath.Join(up.repos.DataDir(), e.Name())) == nil {
				rep.StagingFolders++
			}
		}
	}
	repos, _ := os.ReadDir(filepath.Join(up.repos.DataDir(), "repos"))
	for _, e := range repos {
		id, err := strconv.ParseInt(strings.TrimSuffix(e.Name(), ".git"), 10, 64)
		if err != nil || !strings.HasSuffix(e.Name(), ".git") {
			continue
		}
		if opts.Alive != nil && !opts.Alive(id) {
			if old(up.core.Bare(id)) && os.RemoveAll(up.core.Bare(id)) == nil {
				rep.OrphanRepositories++
			}
			continue
		}
		unlock, err := up.core.LockPortal(ctx, id) // cleans the canonical repository's lock files
		if err != nil {
			return rep, err
		}
		_ = up.core.DropOrigin(ctx, id) // made before repositories kept no remote (workspace/noremote.go)
		unlock()
	}
	users, _ := os.ReadDir(filepath.Join(up.repos.DataDir(), "workspaces"))
	for _, u := range users {
		userID, err := strconv.ParseInt(u.Name(), 10, 64)
		if err != nil {
			continue
		}
		userDir := filepath.Join(up.repos.DataDir(), "workspaces", u.Name())
		portals, _ := os.ReadDir(userDir)
		for _, p := range portals {
			full := filepath.Join(userDir, p.Name())
			if strings.Contains(p.Name(), ".tmp-") {
				if old(full) && os.RemoveAll(full) == nil {
					rep.StagingFolders++
				}
				continue
			}
			portalID, err := strconv.ParseInt(p.Name(), 10, 64)
			if err != nil {
				continue
			}
			if opts.Alive != nil && !opts.Alive(portalID) {
				if old(full) && os.RemoveAll(full) == nil {
					rep.OrphanWorkspaces++
				}
				continue
			}
			unlock, err := up.repos.Clones().Lock(ctx, userID, portalID) // cleans the workspace's lock files
			if err != nil {
				return rep, err
			}
			unlock()
		}
	}
	return rep, nil
}
