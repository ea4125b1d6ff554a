package app

import (
	"context"
	"fmt"
	"path/filepath"

	"portalwright/internal/handover"
	"portalwright/internal/loadable"
	"portalwright/internal/workspace/snapshot"
)

// newLoadables builds the loadables (issue 14): packages under data/loadables, built by the
// task runner's commit builds, GENERATE_LOADABLE cards to the creator's room, LOADABLE
// previews through the shared previews, approved packages handed over, approval behind
// release readiness's gate (a.readiness, built before).
func (a *App) newLoadables(ctx context.Context) (*loadable.Handler, error) {
	svc, err := loadable.New(ctx, loadable.Config{Dir: filepath.Join(a.Config.DataDir, "loadables"), Heartbeat: a.Config.Heartbeat}, loadable.Deps{
		Store: loadable.NewSQLStore(a.DB), Repos: snapshot.New(a.repos.Core()), Workspace: a.Portals.Workspace(), Builds: a.builds,
		Portals: a.PortalAccess, People: people{a.Identity}, Progress: a.notices, Log: a.Log,
		Gate: a.readiness, Audit: a.Audit, // approval asks release readiness's gate
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
	return loadable.NewHandler(svc, a.PortalAccess, a.shares), nil
}

// newHandOver builds the hand-over of approved loadables (issue 14 item 2): the targets file
// (--handover-config, else data/handover.json when present; a bad file stops the server), the
// durable queue's worker, UPLOAD_LOADABLE cards to the user's room.
func (a *App) newHandOver() (*handover.Service, error) {
	targets, err := handover.LoadFor(a.Config.HandoverConfig, a.Config.DataDir)
	if err != nil {
		return nil, fmt.Errorf("hand-over targets: %w", err)
	}
	svc := handover.New(a.DB, targets, a.Log, a.notices)
	a.handOver = svc
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); svc.Run(ctx) }()
	a.stopHandOver = func() { cancel(); <-done }
	return svc, nil
}
