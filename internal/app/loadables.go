package app

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"

	"portalwright/internal/caller"
	"portalwright/internal/handover"
	"portalwright/internal/loadable"
	"portalwright/internal/portalaccess"
	"portalwright/internal/realtime"
	"portalwright/internal/workspace"
)

// newLoadables builds the loadables (issue 14): packages under data/loadables, built by the
// task runner's snapshot builds, GENERATE_LOADABLE cards to the creator's room, LOADABLE
// previews through the shared previews.
func (a *App) newLoadables(ctx context.Context, repos *workspace.Repos) (*loadable.Handler, error) {
	var builder loadable.Builder
	if a.tasks != nil {
		builder = a.tasks
	}
	svc, err := loadable.New(ctx, loadable.Config{Dir: filepath.Join(a.Config.DataDir, "loadables"), Heartbeat: a.Config.Heartbeat}, loadable.Deps{
		Store: loadable.NewSQLStore(a.DB), Repos: repos, Workspace: a.Portals.Workspace(), Builder: builder,
		Portals: loadablePortals{a}, People: loadablePeople{a}, Progress: hubEvents{a.Hub}, Log: a.Log,
	})
	if err != nil {
		return nil, err
	}
	h, err := a.newHandOver()
	if err != nil {
		svc.Close()
		return nil, err
	}
	a.loadables = svc.WithHandOver(h)
	return loadable.NewHandler(svc, a.PortalAccess, loadablePreviews{a}), nil
}

type loadablePortals struct{ a *App }

func (p loadablePortals) Names(ctx context.Context, domainID, portalID int64) (string, string, error) {
	row, err := p.a.Portals.Portal(ctx, domainID, portalID)
	if err != nil {
		return "", "", err
	}
	name, _ := p.a.Access.DomainName(ctx, domainID)
	return row.Name, name, nil
}

type loadablePeople struct{ a *App }

func (p loadablePeople) UserName(ctx context.Context, id int64) string {
	if u, err := p.a.Identity.User(ctx, id); err == nil {
		return u.UserName
	}
	return ""
}

// loadablePreviews makes LOADABLE previews through the shared previews.
type loadablePreviews struct{ a *App }

func (p loadablePreviews) CreateFromPackage(ctx context.Context, c caller.Caller, pa portalaccess.Portal, versionTag, emulator string,
	extract func(dest string) error, r *http.Request) (any, error) {
	return p.a.shares.CreateFromPackage(ctx, c, pa, versionTag, emulator, extract, r)
}

// newHandOver builds the hand-over of approved loadables (issue 14 item 2): the targets file
// (--handover-config, else data/handover.json when present; a bad file stops the server), the
// durable queue's worker, UPLOAD_LOADABLE cards to the user's room.
func (a *App) newHandOver() (*handover.Service, error) {
	targets, err := handover.LoadFor(a.Config.HandoverConfig, a.Config.DataDir)
	if err != nil {
		return nil, fmt.Errorf("hand-over targets: %w", err)
	}
	svc := handover.New(a.DB, targets, a.Log, handOverEvents{a.Hub})
	a.handOver = svc
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); svc.Run(ctx) }()
	a.stopHandOver = func() { cancel(); <-done }
	return svc, nil
}

// handOverEvents publishes hand-over progress to the user's room.
type handOverEvents struct{ hub *realtime.Hub }

func (h handOverEvents) Report(ctx context.Context, userID int64, n handover.Notification) {
	h.hub.Publish(ctx, realtime.Message{Room: realtime.UserRoom(userID), Title: n.MessageType, Data: n, MessageType: realtime.TypeProgress})
}
