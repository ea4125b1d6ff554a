package app

import (
	"context"

	"portalwright/internal/editing"
	"portalwright/internal/httpx"
	"portalwright/internal/portal"
	"portalwright/internal/taskrunner"
	"portalwright/internal/workspace"
	"portalwright/internal/workspace/snapshot"
)

// newSandbox, when set (tests: a server on which no sandbox can start), replaces the
// bubblewrap sandbox of the configuration.
var newSandbox func(ctx context.Context, l taskrunner.Limits) (taskrunner.Sandbox, error)

// newTaskRunner builds the task runner (issue 13) over a bubblewrap sandbox with the
// configured budgets, and the commit builds previews and loadables share. Without a sandbox
// the server still starts: the routes answer 503 'Task runner is unavailable: …' and only
// portals without tasks can be previewed and packaged.
func (a *App) newTaskRunner(ctx context.Context, repos *workspace.Repos) httpx.Routes {
	snaps := snapshots{snapshot.New(repos.Core()), a.Portals} // a commit without portal.json builds with the settings kept outside it
	a.builds = taskrunner.NewBuilds(snaps, nil)
	tc := a.Config.Tasks
	lim := taskrunner.Limits{WallTime: tc.Timeout, MemoryBytes: int64(tc.MemoryMB) << 20, Processes: tc.Processes,
		DiskBytes: int64(tc.DiskMB) << 20, TmpBytes: int64(tc.TmpMB) << 20, ShmBytes: int64(tc.ShmMB) << 20}
	var sandbox taskrunner.Sandbox
	var err error
	if newSandbox != nil {
		sandbox, err = newSandbox(ctx, lim)
	} else {
		sandbox, err = taskrunner.NewBubblewrap(ctx, taskrunner.BubblewrapOptions{Limits: lim, Cgroup: tc.Cgroup, BuildUIDs: tc.BuildUIDs})
	}
	if err == nil {
		// One line tells how the builds' budgets are enforced here (docs/operations.md).
		a.Log.Info("task runner sandbox: " + sandbox.Mode())
		if sw, ok := sandbox.(interface{ Swept() int }); ok && sw.Swept() > 0 {
			a.Log.Info("task runner: removed the control groups of dead runs", "groups", sw.Swept())
		}
		a.tasks, err = taskrunner.NewService(ctx, taskrunner.ServiceDeps{Sandbox: sandbox, States: taskrunner.NewSQLStore(a.DB),
			Workspaces: taskrunner.WorkspacesOf(a.Portals.Workspace()), Snapshots: snaps, Notices: a.notices, Portals: a.Portals, Log: a.Log})
	}
	if err != nil {
		a.Log.Warn("the task runner is unavailable: portals' tasks cannot run on this server", "error", err)
		return taskrunner.Unavailable(err, a.PortalAccess)
	}
	a.builds = a.tasks.Builds()
	return a.tasks.Handler(a.PortalAccess)
}

// snapshots are the canonical repositories' snapshots with the settings the portal service
// keeps outside them (taskrunner.KeptSettings).
type snapshots struct {
	snaps   *snapshot.Snapshots
	portals *portal.Service
}

func (s snapshots) Snapshot(ctx context.Context, portalID int64, ref, dir string, maxBytes int64) (string, error) {
	return s.snaps.Snapshot(ctx, portalID, ref, dir, maxBytes)
}

func (s snapshots) KeptSettings(ctx context.Context, portalID int64) (*editing.Settings, error) {
	return s.portals.KeptSettings(ctx, portalID)
}
