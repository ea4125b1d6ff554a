package portal

import (
	"context"

	"portalwright/internal/caller"
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

// Events receives what happens in workspaces so other users see it live.
type Events interface {
	// WorkspaceChanged is called after a write to a user's workspace, with its new state.
	WorkspaceChanged(ctx context.Context, domainID, portalID int64, change WorkspaceChange)
	// Committed is called after a commit reached the portal's branch.
	Committed(ctx context.Context, domainID, portalID int64, by Person, branch, commitID string)
	// TemplateCreated is called after a domain got a new template.
	TemplateCreated(ctx context.Context, domainID int64, t Template)
}

// WithEvents sets where workspace events go.
func (s *Service) WithEvents(e Events) *Service { s.events = e; return s }

// DomainOf returns the domain of a portal (for room authorisation).
func (s *Service) DomainOf(ctx context.Context, portalID int64) (int64, error) {
	return s.store.DomainOf(ctx, portalID)
}

// publisher announces the writes of the file layer (editing.Publisher) with the status the
// write took under the workspace lock: no second git status.
type publisher struct{ s *Service }

func (p publisher) Committed(ctx context.Context, c caller.Caller, pa portalaccess.Portal, st *workspace.Status, commitID string) {
	if p.s.events == nil {
		return
	}
	person, err := p.s.people.Person(ctx, c.UserID)
	if err != nil {
		return
	}
	p.s.events.Committed(ctx, pa.DomainID(), pa.ID(), person, st.Branch, commitID)
	p.s.announce(ctx, c.UserID, pa.ID(), st)
}

func (p publisher) WorkspaceChanged(ctx context.Context, c caller.Caller, pa portalaccess.Portal, st *workspace.Status) {
	if p.s.events != nil {
		p.s.announce(ctx, c.UserID, pa.ID(), st)
	}
}

// announce publishes a user's workspace state to the portal's room.
func (s *Service) announce(ctx context.Context, userID, portalID int64, st *workspace.Status) {
	domainID, err := s.store.DomainOf(ctx, portalID)
	if err != nil {
		return
	}
	pt, err := s.store.Portal(ctx, domainID, portalID)
	if err != nil {
		return
	}
	person, err := s.people.Person(ctx, userID)
	if err != nil {
		return
	}
	s.events.WorkspaceChanged(ctx, domainID, portalID, WorkspaceChange{User: person, AheadCount: st.Ahead, BehindCount: st.Behind,
		HasChanges: st.HasChanges(), Branch: st.Branch, PortalName: pt.Name, Changes: st.Changes})
}

// records is what the editing unit reads of a checked portal's record (editing.Records).
type records struct{ s *Service }

func (r records) PortalName(ctx context.Context, pa portalaccess.Portal) (string, error) {
	pt, err := r.s.Checked(ctx, pa)
	if err != nil {
		return "", err
	}
	return pt.Name, nil
}

func (r records) ActiveBranch(ctx context.Context, pa portalaccess.Portal) (string, error) {
	pt, err := r.s.Checked(ctx, pa)
	if err != nil {
		return "", err
	}
	return r.s.ActiveBranch(ctx, pt), nil
}

func (r records) Touch(ctx context.Context, pa portalaccess.Portal) {
	_ = r.s.store.Touch(ctx, pa.ID())
}

// Touched records that the portal's content changed outside the product's own commits (a push
// over SSH): its last-modified time moves on, as after a commit.
func (s *Service) Touched(ctx context.Context, pa portalaccess.Portal) {
	_ = s.store.Touch(ctx, pa.ID())
}
