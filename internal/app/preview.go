package app

import (
	"context"
	"errors"
	"strconv"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/preview"
)

// newPreview builds the preview frame's workspace files over the portal service's editing
// unit, with tokens keyed from the shared signing secret (every instance accepts them).
func (a *App) newPreview(signingSecret string) *preview.Handler {
	return preview.NewHandler(a.Portals.Workspace(), preview.NewSigner(signingSecret), a.PortalAccess, previewRights{a})
}

// previewRights checks a preview token's user again on every file (preview.Rights): the
// user still exists and holds the permission in the domain (admins hold every one).
type previewRights struct{ a *App }

func (r previewRights) Holds(ctx context.Context, userID, domainID int64, permission string) (bool, error) {
	u, err := r.a.Identity.User(ctx, userID)
	if err != nil {
		var e *apperr.Error
		if errors.As(err, &e) && e.Status == 404 {
			return false, nil
		}
		return false, err
	}
	return r.a.Access.Allowed(ctx, caller.Caller{UserID: u.ID, Admin: u.Admin}, permission, strconv.FormatInt(domainID, 10))
}
