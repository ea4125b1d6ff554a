package app

import (
	"portalwright/internal/httpx"
	"portalwright/internal/page"
	"portalwright/internal/translation"
	"portalwright/internal/valuehistory"
	"portalwright/internal/workspace/gitlog"
)

// newValueHistory builds the history of one value over the portal service's editing unit and
// the repositories; restores go through the translation, asset and page saves.
func (a *App) newValueHistory() httpx.Routes {
	ws := a.Portals.Workspace()
	svc := valuehistory.NewService(ws, gitlog.New(a.repos.Core()), valuehistory.Editors{
		Translations: translation.NewService(ws), Assets: a.assetService(), Pages: page.NewService(ws)})
	return valuehistory.NewHandler(svc, a.PortalAccess)
}
