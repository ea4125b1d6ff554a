package app

import (
	"portalwright/internal/editing"
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
	svc := valuehistory.NewService(historyFiles{ws.Files(), ws}, gitlog.New(a.repos.Core()), valuehistory.Editors{
		Translations: translation.NewService(ws), Assets: a.assetService(), Pages: page.NewService(ws)})
	return valuehistory.NewHandler(svc, a.PortalAccess)
}

// historyFiles is the editing unit as the history's Files: the files read and written, the
// workspace's branch and author.
type historyFiles struct {
	*editing.Files
	*editing.Workspace
}
