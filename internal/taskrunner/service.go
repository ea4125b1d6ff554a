package taskrunner

import (
	"context"
	"log/slog"
	"sort"
	"sync"

	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/notice"
	"portalwright/internal/portalaccess"
)

// EventState is the title of the task runner's state message (user and portal rooms).
const EventState = "TASK_RUNNER_STATE_CHANGE"

// StateChange is the data of EventState.
type StateChange struct {
	DomainID int64 `json:"domainId"`
	PortalID int64 `json:"portalId"`
	UserID   int64 `json:"userId"`
	State    State `json:"state"`
}

// Service is the task runner as the product runs it: the users' runs of their workspaces
// (states saved, every change published to the user's and the portal's rooms, kept in step
// with the workspace writes), and one-off builds of commits for previews and loadables
// (BuildCommit), which are nobody's run and are neither saved nor published.
type Service struct {
	runner    *Runner // the users' runs
	snapshots *Runner // one-off builds of commits
	ws        Workspaces
	states    *SQLStore
	notices   notice.Publisher
	portals   Domains
	builds    *Builds
	log       *slog.Logger

	mu      sync.Mutex // state changes are saved and published one at a time, the newest last
	domains sync.Map   // portal id → domain id, learnt from the checked portals the runs start with
}

// Domains finds a portal's domain (for a state change of a run restored at start, whose
// checked portal was never seen).
type Domains interface {
	DomainOf(ctx context.Context, portalID int64) (int64, error)
}

// ServiceDeps are what the service works with.
type ServiceDeps struct {
	Sandbox    Sandbox
	States     *SQLStore
	Workspaces Workspaces
	Snapshots  Snapshots
	Notices    notice.Publisher
	Portals    Domains
	Log        *slog.Logger
}

// NewService starts the runners over the sandbox and restores the saved states (none is left
// RUNNING: a run does not outlive its server).
func NewService(ctx context.Context, d ServiceDeps) (*Service, error) {
	if d.Log == nil {
		d.Log = slog.Default()
	}
	s := &Service{ws: d.Workspaces, states: d.States, notices: notice.Or(d.Notices), portals: d.Portals, log: d.Log}
	var err error
	if s.runner, err = New(Config{Sandbox: d.Sandbox, OnChange: s.changed}); err != nil {
		return nil, err
	}
	if s.snapshots, err = New(Config{Sandbox: d.Sandbox}); err != nil {
		s.runner.Close()
		return nil, err
	}
	s.builds = NewBuilds(d.Snapshots, s.snapshots)
	stored, err := d.States.All(ctx)
	if err != nil {
		d.Log.Warn("task runner: could not load the saved states", "error", err)
	}
	for _, st := range stored {
		s.runner.Restore(st.Key, st.State)
	}
	return s, nil
}

// Close cancels the runs and waits for them (before the database closes: their last states
// are saved).
func (s *Service) Close() { s.runner.Close(); s.snapshots.Close() }

// Handler is the /workspace-build routes over the users' runs.
func (s *Service) Handler(access *portalaccess.Checker) *Handler {
	return NewHandler(s.runner, s.ws, access)
}

// changed saves and publishes a run's state as it is now: a change reported late never
// overwrites a newer one.
func (s *Service) changed(k Key, _ State) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.runner.State(k)
	bg := context.Background()
	if err := s.states.Save(bg, k, st); err != nil {
		s.log.Warn("task runner: could not save the state", "user", k.UserID, "portal", k.PortalID, "error", err)
	}
	domainID, ok := s.domainOf(bg, k.PortalID)
	if !ok {
		return // the portal is gone
	}
	msg := StateChange{DomainID: domainID, PortalID: k.PortalID, UserID: k.UserID, State: st}
	s.notices.Publish(bg, notice.User(k.UserID), EventState, msg)
	s.notices.Publish(bg, notice.Portal(k.PortalID), EventState, msg)
}

func (s *Service) domainOf(ctx context.Context, portalID int64) (int64, bool) {
	if d, ok := s.domains.Load(portalID); ok {
		return d.(int64), true
	}
	if s.portals == nil {
		return 0, false
	}
	d, err := s.portals.DomainOf(ctx, portalID)
	if err != nil {
		return 0, false
	}
	s.domains.Store(portalID, d)
	return d, true
}

func (s *Service) seen(pa portalaccess.Portal) { s.domains.Store(pa.ID(), pa.DomainID()) }

// State is the state of the caller's run of the portal.
func (s *Service) State(c caller.Caller, pa portalaccess.Portal) State {
	return s.runner.State(Key{UserID: c.UserID, PortalID: pa.ID()})
}

// Refresh brings the caller's workspace build up to date and answers the final state: it
// waits for a run under way, then runs the tasks when the output is not up to date (never
// built, stale, cleared, or from inactive settings). A run superseded by another action of
// the user is waited for again, a few times.
func (s *Service) Refresh(ctx context.Context, c caller.Caller, pa portalaccess.Portal, set Settings) (State, error) {
	s.seen(pa)
	k := Key{UserID: c.UserID, PortalID: pa.ID()}
	started := false
	for range 5 {
		if run := s.runner.Current(k); run != nil {
			if err := waitRun(ctx, run, false); err != nil {
				return State{}, err
			}
			continue
		}
		st := s.runner.State(k)
		if st.Phase == Stable || st.Phase == Unstable || started {
			return st, nil
		}
		dir, _, err := s.ws.Workspace(ctx, c, pa)
		if err != nil {
			return State{}, err
		}
		if _, err := s.runner.Start(Request{Key: k, Workspace: dir, Settings: set}); err != nil {
			return State{}, err
		}
		started = true
	}
	return s.runner.State(k), nil
}

// RebuildStale runs the caller's tasks again when their build is not up to date with their
// workspace (STALE, never built, cleared) and no run is under way: a live preview follows
// the commits of its author, Auto run or not.
func (s *Service) RebuildStale(ctx context.Context, c caller.Caller, pa portalaccess.Portal) {
	s.seen(pa)
	k := Key{UserID: c.UserID, PortalID: pa.ID()}
	dir, set, err := s.ws.Workspace(ctx, c, pa)
	if err != nil || !set.Active || s.runner.Current(k) != nil {
		return // no workspace, no tasks, or a run under way (Auto run) builds it
	}
	switch s.runner.State(k).Phase {
	case Stable, Unstable:
		return // built from these very files (a STABLE after the last change, or a failure to fix)
	}
	if _, err := s.runner.Start(Request{Key: k, Workspace: dir, Settings: set}); err != nil {
		s.log.Warn("task runner: could not rebuild a live preview after a commit", "portal", pa.ID(), "error", err)
	}
}

// WorkspaceChanged tells the runner which files of a user's workspace changed (portal.Listener).
// The change carries the workspace's uncommitted changes (every path that differs from the
// branch, not only the one just written), so a write can mark STALE a state whose listed files
// were already changed before its run: a run too many, never one too few. The runner follows
// the settings as they are now in the workspace (Auto run and the extensions may have been
// changed; portal.json may be the file just saved), so a save starts the run Auto run promises.
func (s *Service) WorkspaceChanged(ctx context.Context, pa portalaccess.Portal, change editing.WorkspaceChange) {
	s.seen(pa)
	paths := make([]string, 0, len(change.Changes))
	for p := range change.Changes {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	k := Key{UserID: change.User.ID, PortalID: pa.ID()}
	if dir, set, err := s.ws.Workspace(ctx, caller.Caller{UserID: change.User.ID}, pa); err == nil {
		s.runner.Watch(Request{Key: k, Workspace: dir, Settings: set})
	}
	s.runner.Changed(k, paths)
}

// Committed does nothing: a commit leaves the committer's files as they were (portal.Listener;
// live previews ask for RebuildStale themselves).
func (s *Service) Committed(context.Context, portalaccess.Portal, editing.Person, string, string) {}

// Builds are the one-off builds of commits, over this service's sandbox.
func (s *Service) Builds() *Builds { return s.builds }

// WorkspacesOf finds the caller's workspace folder and its task runner settings through the
// editing unit.
func WorkspacesOf(ws *editing.Workspace) Workspaces { return editingWorkspaces{ws} }

type editingWorkspaces struct{ ws *editing.Workspace }

func (w editingWorkspaces) Workspace(ctx context.Context, c caller.Caller, pa portalaccess.Portal) (string, Settings, error) {
	dir, err := w.ws.Dir(ctx, c, pa)
	if err != nil {
		return "", Settings{}, err
	}
	s, _, err := w.ws.Settings(ctx, c, pa)
	if err != nil {
		return "", Settings{}, err
	}
	return dir, Settings(s.TaskRunnerSettings), nil
}

// waitRun waits for a run to end or ctx to be done (then cancelling the run when it is ours).
func waitRun(ctx context.Context, run *Run, ours bool) error {
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
