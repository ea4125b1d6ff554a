package portal

import (
	"context"

	"portalwright/internal/caller"
	"portalwright/internal/notice"
	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
)

// Event names of the realtime channel (spec 3 §4 Realtime channel and notifications).
const (
	EventLocalChanges = "WORKSPACE_LOCAL_CHANGES" // a user's workspace changed (portal room)
	EventCommit       = "WORKSPACE_COMMIT"        // a user committed to a branch (portal room)
	EventLocalCommits = "WORKSPACE_LOCAL_COMMITS" // a user's local commits changed (their room)
	EventTemplate     = "TEMPLATE_CREATED"        // a domain got a template (domain room)
)

// Listener reacts, in process, to what happens in workspaces (the task runner marks builds
// stale and follows Auto run; live previews follow commits). The notices to the rooms are
// sent by the service itself; a listener never sends them again.
type Listener interface {
	// WorkspaceChanged is called after a write to a user's workspace, with its new state.
	WorkspaceChanged(ctx context.Context, pa portalaccess.Portal, change WorkspaceChange)
	// Committed is called after a commit reached the portal's branch.
	Committed(ctx context.Context, pa portalaccess.Portal, by Person, branch, commitID string)
}

// Listen adds in-process listeners to workspace events. Call it while wiring, before the
// server serves.
func (s *Service) Listen(l ...Listener) *Service { s.listeners = append(s.listeners, l...); return s }

// DomainOf returns the domain of a portal (for room authorisation).
func (s *Service) DomainOf(ctx context.Context, portalID int64) (int64, error) {
	return s.store.DomainOf(ctx, portalID)
}

// publisher announces the writes of the file layer (editing.Publisher) with the status the
// write took under the workspace lock: no second git status, and no second read of the
// portal (the checked portal carries its names).
type publisher struct{ s *Service }

func (p publisher) Committed(ctx context.Context, c caller.Caller, pa portalaccess.Portal, st *workspace.Status, commitID string) {
	person, err := p.s.people.Person(ctx, c.UserID)
	if err != nil {
		return
	}
	p.s.committed(ctx, pa, person, st.Branch, commitID)
	p.s.announce(ctx, pa, person, st)
}

func (p publisher) WorkspaceChanged(ctx context.Context, c caller.Caller, pa portalaccess.Portal, st *workspace.Status) {
	person, err := p.s.people.Person(ctx, c.UserID)
	if err != nil {
		return
	}
	p.s.announce(ctx, pa, person, st)
}

// Committed announces a commit that reached a portal's branch by another way than the
// product's own commit (a push over SSH, commits fetched from the portal's git host), as a
// browser commit is announced: WORKSPACE_COMMIT in the portal's room, and the listeners.
func (s *Service) Committed(ctx context.Context, pa portalaccess.Portal, by Person, branch, commitID string) {
	s.committed(ctx, pa, by, branch, commitID)
}

func (s *Service) committed(ctx context.Context, pa portalaccess.Portal, by Person, branch, commitID string) {
	s.notices.Publish(ctx, notice.Portal(pa.ID()), EventCommit,
		map[string]any{"domainId": pa.DomainID(), "portalId": pa.ID(), "branch": branch, "commitId": commitID, "user": by})
	for _, l := range s.listeners {
		l.Committed(ctx, pa, by, branch, commitID)
	}
}

// announce publishes a user's workspace state: the change to the portal's room, the count of
// local commits to the user's own room, then the listeners.
func (s *Service) announce(ctx context.Context, pa portalaccess.Portal, by Person, st *workspace.Status) {
	change := WorkspaceChange{User: by, AheadCount: st.Ahead, BehindCount: st.Behind, HasChanges: st.HasChanges(),
		Branch: st.Branch, DomainName: pa.DomainName(), PortalName: pa.Name(), Changes: st.Changes}
	s.notices.Publish(ctx, notice.Portal(pa.ID()), EventLocalChanges, change)
	s.notices.Publish(ctx, notice.User(by.ID), EventLocalCommits,
		map[string]any{"domainId": pa.DomainID(), "portalId": pa.ID(), "branch": st.Branch, "aheadCount": st.Ahead})
	for _, l := range s.listeners {
		l.WorkspaceChanged(ctx, pa, change)
	}
}

// records is what the editing unit reads of a checked portal's record (editing.Records).
type records struct{ s *Service }

func (r records) ActiveBranch(ctx context.Context, pa portalaccess.Portal) (string, error) {
	return r.s.activeBranch(ctx, pa.ID(), pa.Record().ActiveBranch), nil
}

func (r records) Touch(ctx context.Context, pa portalaccess.Portal) {
	_ = r.s.store.Touch(ctx, pa.ID())
}

// Pushed announces a branch a user pushed over SSH as a commit (WORKSPACE_COMMIT, so authors
// in the browser get the reload toast), marks the portal modified, and sends the branch on to
// an imported portal's git host at once, as a browser commit does (gitssh.Events).
func (s *Service) Pushed(ctx context.Context, c caller.Caller, domainID, portalID int64, branch, commitID string) {
	pa, err := portalaccess.NewChecker(s).Check(ctx, domainID, portalID)
	if err != nil {
		return
	}
	if person, err := s.people.Person(ctx, c.UserID); err == nil {
		s.committed(ctx, pa, person, branch, commitID)
	}
	s.Touched(ctx, pa)
	if s.upstreams != nil {
		s.upstreams.Push(ctx, pa, branch) // a failure is on the portal's upstream status
	}
}

// Touched records that the portal's content changed outside the product's own commits (a push
// over SSH): its last-modified time moves on, as after a commit.
func (s *Service) Touched(ctx context.Context, pa portalaccess.Portal) {
	_ = s.store.Touch(ctx, pa.ID())
}
