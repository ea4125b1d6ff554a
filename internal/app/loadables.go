package app

import (
	"context"
	"net/http"
	"path/filepath"

	"portalwright/internal/caller"
	"portalwright/internal/loadable"
	"portalwright/internal/portalaccess"
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
	svc, err := loadable.New(ctx, loadable.Config{Dir: filepath.Join(a.Config.DataDir, "loadables")}, loadable.Deps{
		Store: loadable.NewSQLStore(a.DB), Repos: repos, Workspace: a.Portals.Workspace(), Builder: builder,
		Portals: loadablePortals{a}, People: loadablePeople{a}, Progress: hubEvents{a.Hub}, Log: a.Log,
	})
	if err != nil {
		return nil, err
	}
	a.loadables = svc
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
