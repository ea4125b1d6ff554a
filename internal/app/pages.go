package app

import (
	"portalwright/internal/httpx"
	"portalwright/internal/page"
)

// newPages builds the page designer's handler (pages API, batch save, search, master page)
// over the portal service's editing unit; the sitemap call is in newTranslations.
func (a *App) newPages() httpx.Routes {
	return page.NewDesigner(page.NewService(a.Portals.Workspace()), a.PortalAccess)
}
