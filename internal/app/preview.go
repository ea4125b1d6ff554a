package app

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"time"

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

// newShares builds the shared previews (issue 13 item 4): snapshots under data/previews, links
// made from the public URL, progress cards to the creator's room, commits built by the task
// runner's commit builds, expired previews swept every hour.
func (a *App) newShares() *preview.Shares {
	var tasks preview.Tasks
	if a.tasks != nil {
		tasks = a.tasks
	}
	a.shares = preview.NewShares(preview.Config{
		Dir:              filepath.Join(a.Config.DataDir, "previews"),
		TTL:              a.Config.PreviewTTL,
		MaxSnapshotBytes: int64(a.Config.PreviewMaxMB) << 20,
		PublicURL:        strings.TrimRight(a.Config.PublicURL, "/"),
		Heartbeat:        a.Config.Heartbeat,
	}, preview.SharesDeps{
		Store: preview.NewShareStore(a.DB), Workspace: a.Portals.Workspace(), Builds: a.builds, Tasks: tasks,
		Progress: a.notices, Access: a.PortalAccess, Rights: previewRights{a}, Log: a.Log,
	})
	a.shares.Janitor(time.Hour)
	a.shares.Watch() // preparations that stopped beating (a kill, a crash; any instance): FAILED
	return a.shares
}
