package portal

import (
	"context"
	"log/slog"
	"time"

	"portalwright/internal/workspace/upkeep"
)

// SweepDataDir cleans what crashes left in the data dir (staging folders, stale git lock
// files) and the repositories and workspaces of portals that no longer exist. It runs once
// at start, in the background. started is when this instance started; exclusive is true
// when no other instance shares the data dir (SQLite): everything left before the start is
// then removed, otherwise only what is more than an hour old.
func (s *Service) SweepDataDir(ctx context.Context, started time.Time, exclusive bool) {
	ids, err := s.store.AllIDs(ctx)
	if err != nil {
		slog.Warn("data dir sweep skipped: cannot list portals", "error", err)
		return
	}
	alive := make(map[int64]bool, len(ids))
	for _, id := range ids {
		alive[id] = true
	}
	opts := upkeep.SweepOptions{Alive: func(id int64) bool { return alive[id] }}
	if exclusive {
		opts.Before = started
	}
	rep, err := upkeep.New(s.repos).Sweep(ctx, opts)
	if err != nil {
		slog.Warn("data dir sweep stopped", "error", err)
	}
	if rep != (upkeep.SweepReport{}) {
		slog.Info("data dir sweep removed leftovers", "staging_folders", rep.StagingFolders,
			"orphan_repositories", rep.OrphanRepositories, "orphan_workspaces", rep.OrphanWorkspaces)
	}
}
