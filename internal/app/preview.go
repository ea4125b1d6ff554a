package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/preview"
)

// newPreview builds the preview frame's workspace files over the portal service's editing
// unit, with tokens keyed from the shared signing secret (every instance accepts them), and
// tickets in the database (any instance redeems them) for the frame origin.
func (a *App) newPreview(signingSecret string) *preview.Handler {
	a.frame = &preview.FrameOrigin{URL: a.Config.FrameURL, AppURL: a.publicURL(), Port: func() int { return int(a.framePort.Load()) }}
	a.frameTicks = preview.NewTickets(a.DB)
	return preview.NewHandler(a.Portals.Workspace(), preview.NewSigner(signingSecret), a.PortalAccess, previewRights{a}).
		WithFrameOrigin(a.frame, a.frameTicks)
}

// serveFrame serves the designer's frame on --frame-addr (an origin of its own) until the
// returned stop is called; without --frame-addr it does nothing.
func (a *App) serveFrame() (stop func(), err error) {
	if a.Config.FrameAddr == "" {
		return func() {}, nil
	}
	ln, err := net.Listen("tcp", a.Config.FrameAddr)
	if err != nil {
		return nil, fmt.Errorf("listen on frame-addr %s: %w", a.Config.FrameAddr, err)
	}
	srv := &http.Server{
		Handler:           a.HTTP.Frame,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(a.Log.Handler(), slog.LevelWarn),
	}
	go func() { _ = srv.Serve(ln) }()
	a.framePort.Store(int32(ln.Addr().(*net.TCPAddr).Port))
	a.Log.Info("the designer's frame is served on its own origin", "addr", ln.Addr().String())
	return func() {
		a.framePort.Store(0)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}, nil
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
