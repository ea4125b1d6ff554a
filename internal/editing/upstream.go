package editing

import (
	"context"

	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
)

// Upstream is the git host of a portal created from a git URL (internal/upstream implements
// it): fetched before an open and before a commit, pushed after a commit reached the portal's
// branch. Its answers are warnings for the user ("" when all went well or the portal has no
// upstream); the host being unreachable or refusing never fails the open or the commit.
type Upstream interface {
	// Pull fetches the upstream (with a time-out) and brings its new commits onto the
	// portal's branches.
	Pull(ctx context.Context, pa portalaccess.Portal) string
	// Push sends a branch of the portal to the upstream; on failure the portal records that
	// it is ahead, and why.
	Push(ctx context.Context, pa portalaccess.Portal, branch string) string
	// SendFirst is a commit's gate that pushes it to the host before it lands, and done, which
	// records what the host said and answers the author's warning ("" when all went well);
	// the gate answers workspace.ErrHostMoved when the host may have moved. ok is false when
	// the commit must take the usual way (pull, commit, push).
	SendFirst(ctx context.Context, pa portalaccess.Portal) (gate workspace.LandingGate, done func() string, ok bool)
}

// WithUpstream sets the portals' upstream sync (nil: none). Set it while wiring, before
// serving.
func (f *Workspace) WithUpstream(u Upstream) *Workspace { f.upstream = u; return f }

func (f *unit) pullUpstream(ctx context.Context, pa portalaccess.Portal) string {
	if f.upstream == nil {
		return ""
	}
	return f.upstream.Pull(ctx, pa)
}

func (f *unit) pushUpstream(ctx context.Context, pa portalaccess.Portal, branch string) string {
	if f.upstream == nil || branch == "" {
		return ""
	}
	return f.upstream.Push(ctx, pa, branch)
}
