package app

import (
	"context"
	"sort"
	"sync"
	"sync/atomic"

	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/httpx"
	"portalwright/internal/portal"
	"portalwright/internal/portalaccess"
	"portalwright/internal/realtime"
	"portalwright/internal/taskrunner"
)

// EventTaskRunnerState is the title of the task runner's state message (user and portal rooms).
const EventTaskRunnerState = "TASK_RUNNER_STATE_CHANGE"

// TaskRunnerStateChange is the data of EventTaskRunnerState.
type TaskRunnerStateChange struct {
	DomainID int64            `json:"domainId"`
	PortalID int64            `json:"portalId"`
	UserID   int64            `json:"userId"`
	State    taskrunner.State `json:"state"`
}

// newSandbox, when set (tests: a server on which no sandbox can start), replaces the
// bubblewrap sandbox of the configuration.
var newSandbox func(ctx context.Context, l taskrunner.Limits) (taskrunner.Sandbox, error)

// newTaskRunner builds the workspace build routes (issue 13): the runner over a bubblewrap
// sandbox, its states restored from the database (none left RUNNING), every state change saved
// and published to the user's and the portal's rooms, and the product's workspace writes made
// known to it (STALE, autoRun). Without a sandbox the server still starts: the routes answer
// 503 'Task runner is unavailable: …'.
func (a *App) newTaskRunner(ctx context.Context) httpx.Routes {
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
	if err != nil {
		a.Log.Warn("the task runner is unavailable: portals' tasks cannot run on this server", "error", err)
		return taskrunner.Unavailable(err, a.PortalAccess)
	}
	// One line tells how the builds' budgets are enforced here (docs/operations.md).
	a.Log.Info("task runner sandbox: " + sandbox.Mode())
	if sw, ok := sandbox.(interface{ Swept() int }); ok && sw.Swept() > 0 {
		a.Log.Info("task runner: removed the control groups of dead runs", "groups", sw.Swept())
	}
	states := taskrunner.NewSQLStore(a.DB)
	var runner *taskrunner.Runner
	var mu sync.Mutex // changes are saved and published one at a time, the newest state last
	onChange := func(k taskrunner.Key, _ taskrunner.State) {
		mu.Lock()
		defer mu.Unlock()
		st := runner.State(k) // the state now: a change reported late never overwrites a newer one
		bg := context.Background()
		if err := states.Save(bg, k, st); err != nil {
			a.Log.Warn("task runner: could not save the state", "user", k.UserID, "portal", k.PortalID, "error", err)
		}
		domainID, err := a.Portals.DomainOf(bg, k.PortalID)
		if err != nil {
			return // the portal is gone
		}
		msg := TaskRunnerStateChange{DomainID: domainID, PortalID: k.PortalID, UserID: k.UserID, State: st}
		for _, room := range []string{realtime.UserRoom(k.UserID), realtime.PortalRoom(k.PortalID)} {
			a.Hub.Publish(bg, realtime.Message{Room: room, Title: EventTaskRunnerState, Data: msg, MessageType: realtime.TypeNotification})
		}
	}
	runner, err = taskrunner.New(taskrunner.Config{Sandbox: sandbox, OnChange: onChange})
	if err != nil {
		a.Log.Warn("the task runner is unavailable", "error", err)
		return taskrunner.Unavailable(err, a.PortalAccess)
	}
	// Snapshots (locked previews) are built by a runner of their own: their states are no
	// user's, they are neither saved nor published.
	snapshots, err := taskrunner.New(taskrunner.Config{Sandbox: sandbox})
	if err != nil {
		return taskrunner.Unavailable(err, a.PortalAccess)
	}
	a.stopTasks = func() { runner.Close(); snapshots.Close() }
	a.tasks = &previewTasks{runner: runner, snapshots: snapshots, ws: taskWorkspaces{a.Portals.Workspace()}}
	stored, err := states.All(ctx)
	if err != nil {
		a.Log.Warn("task runner: could not load the saved states", "error", err)
	}
	for _, s := range stored {
		runner.Restore(s.Key, s.State)
	}
	// The workspace events the portal service sends also reach the runner (editing and portal
	// know nothing of it).
	a.Portals.WithEvents(taskRunnerEvents{Events: hubEvents{a.Hub}, runner: runner, access: a.PortalAccess,
		ws: taskWorkspaces{a.Portals.Workspace()}, app: a})
	return taskrunner.NewHandler(runner, taskWorkspaces{a.Portals.Workspace()}, a.PortalAccess)
}

// taskRunnerEvents passes the workspace events on and tells the runner which files of a user's
// workspace changed. The event carries the workspace's uncommitted changes (every path that
// differs from the branch, not only the one just written), so a write can mark STALE a state
// whose listed files were already changed before its run: a run too many, never one too few.
type taskRunnerEvents struct {
	portal.Events
	runner *taskrunner.Runner
	access *portalaccess.Checker
	ws     taskWorkspaces
	app    *App // its shares (built after the runner): who has a live preview
}

// Committed passes the event on and keeps the committer's live preview following the branch:
// when they have one and their build is not up to date with what they committed (STALE, never
// built, cleared), the tasks run again (Auto run or not), so the live preview's link serves the
// new commit once the run ends (meanwhile the task runner shows the run: VALIDATING, RUNNING).
func (e taskRunnerEvents) Committed(ctx context.Context, domainID, portalID int64, by portal.Person, branch, commitID string) {
	e.Events.Committed(ctx, domainID, portalID, by, branch, commitID)
	if e.app == nil || e.app.shares == nil {
		return
	}
	pa, err := e.access.Check(ctx, domainID, portalID)
	if err != nil {
		return
	}
	c := caller.Caller{UserID: by.ID}
	if live, err := e.app.shares.HasLive(ctx, c, pa); err != nil || !live {
		return
	}
	k := taskrunner.Key{UserID: by.ID, PortalID: portalID}
	dir, settings, err := e.ws.Workspace(ctx, c, pa)
	if err != nil || !settings.Active {
		return
	}
	if e.runner.Current(k) != nil {
		return // a run under way (Auto run) builds it
	}
	switch e.runner.State(k).Phase {
	case taskrunner.Stable, taskrunner.Unstable:
		return // built from these very files (a STABLE after the last change, or a failure to fix)
	}
	if _, err := e.runner.Start(taskrunner.Request{Key: k, Workspace: dir, Settings: settings}); err != nil {
		e.app.Log.Warn("task runner: could not rebuild a live preview after a commit", "portal", portalID, "error", err)
	}
}

func (e taskRunnerEvents) WorkspaceChanged(ctx context.Context, domainID, portalID int64, change portal.WorkspaceChange) {
	e.Events.WorkspaceChanged(ctx, domainID, portalID, change)
	paths := make([]string, 0, len(change.Changes))
	for p := range change.Changes {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	// The runner follows the settings as they are now in the user's workspace (Auto run and the
	// extensions may have been changed since the last state read; portal.json may be the file
	// just saved), so that a save starts the run Auto run promises.
	if pa, err := e.access.Check(ctx, domainID, portalID); err == nil {
		c := caller.Caller{UserID: change.User.ID}
		if dir, settings, err := e.ws.Workspace(ctx, c, pa); err == nil {
			e.runner.Watch(taskrunner.Request{Key: taskrunner.Key{UserID: change.User.ID, PortalID: portalID}, Workspace: dir, Settings: settings})
		}
	}
	e.runner.Changed(taskrunner.Key{UserID: change.User.ID, PortalID: portalID}, paths)
}

// taskWorkspaces finds the caller's workspace folder and task runner settings
// (taskrunner.Workspaces) through the editing unit.
type taskWorkspaces struct{ ws *editing.Workspace }

func (w taskWorkspaces) Workspace(ctx context.Context, c caller.Caller, pa portalaccess.Portal) (string, taskrunner.Settings, error) {
	dir, err := w.ws.Dir(ctx, c, pa)
	if err != nil {
		return "", taskrunner.Settings{}, err
	}
	s, _, err := w.ws.Settings(ctx, c, pa)
	if err != nil {
		return "", taskrunner.Settings{}, err
	}
	return dir, taskrunner.Settings(s.TaskRunnerSettings), nil
}

// previewTasks is what the shared previews need of the task runner (preview.Tasks).
type previewTasks struct {
	runner    *taskrunner.Runner
	snapshots *taskrunner.Runner
	ws        taskWorkspaces
	next      atomic.Int64 // keys of one-off snapshot builds
}

func (t *previewTasks) State(c caller.Caller, pa portalaccess.Portal) taskrunner.State {
	return t.runner.State(taskrunner.Key{UserID: c.UserID, PortalID: pa.ID()})
}

// Refresh waits for a run under way, then runs the tasks when the output is not up to date
// (never built, stale, cleared, or from inactive settings), and answers the final state.
func (t *previewTasks) Refresh(ctx context.Context, c caller.Caller, pa portalaccess.Portal, s taskrunner.Settings) (taskrunner.State, error) {
	k := taskrunner.Key{UserID: c.UserID, PortalID: pa.ID()}
	started := false
	for range 5 { // a run superseded by another user action is waited for again, a few times
		if run := t.runner.Current(k); run != nil {
			if err := waitRun(ctx, run, false); err != nil {
				return taskrunner.State{}, err
			}
			continue
		}
		st := t.runner.State(k)
		if st.Phase == taskrunner.Stable || st.Phase == taskrunner.Unstable || started {
			return st, nil
		}
		dir, _, err := t.ws.Workspace(ctx, c, pa)
		if err != nil {
			return taskrunner.State{}, err
		}
		if _, err := t.runner.Start(taskrunner.Request{Key: k, Workspace: dir, Settings: s}); err != nil {
			return taskrunner.State{}, err
		}
		started = true
	}
	return t.runner.State(k), nil
}

// Build runs the tasks on a snapshot folder and answers the final state.
func (t *previewTasks) Build(ctx context.Context, dir string, s taskrunner.Settings) (taskrunner.State, error) {
	k := taskrunner.Key{UserID: -1, PortalID: t.next.Add(1)}
	defer t.snapshots.Forget(k)
	run, err := t.snapshots.Start(taskrunner.Request{Key: k, Workspace: dir, Settings: s})
	if err != nil {
		return taskrunner.State{}, err
	}
	if err := waitRun(ctx, run, true); err != nil {
		return taskrunner.State{}, err
	}
	return run.Wait(), nil
}

// NewWorkdir is a folder of the snapshot runner's to fill and build in place (loadables).
func (t *previewTasks) NewWorkdir() (*taskrunner.Workdir, error) { return t.snapshots.NewWorkdir() }

// BuildIn runs the tasks in a filled Workdir; the output stays in it.
func (t *previewTasks) BuildIn(ctx context.Context, w *taskrunner.Workdir, s taskrunner.Settings) (taskrunner.State, error) {
	k := taskrunner.Key{UserID: -1, PortalID: t.next.Add(1)}
	defer t.snapshots.Forget(k)
	run, err := t.snapshots.Start(taskrunner.Request{Key: k, Workdir: w, Settings: s})
	if err != nil {
		return taskrunner.State{}, err
	}
	if err := waitRun(ctx, run, true); err != nil {
		return taskrunner.State{}, err
	}
	return run.Wait(), nil
}

// waitRun waits for a run to end or ctx to be done (then cancelling the run when it is ours).
func waitRun(ctx context.Context, run *taskrunner.Run, ours bool) error {
	select {
	case <-run.Done():
		return nil
	case <-ctx.Done():
		if ours {
			run.Cancel()
			<-run.Done()
		}
		return ctx.Err()
	}
}
