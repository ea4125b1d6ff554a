package app

import (
	"portalwright/internal/httpx"
	"portalwright/internal/language"
	"portalwright/internal/page"
	"portalwright/internal/translation"
)

// newTranslations builds the translation manager's, the language service's and the sitemap's
// handlers over the portal service's editing unit.
func (a *App) newTranslations() []httpx.Routes {
	ws := a.Portals.Workspace()
	return []httpx.Routes{
		translation.NewHandler(translation.NewService(ws), a.PortalAccess),
		language.NewHandler(),
		page.NewHandler(page.NewService(ws), a.PortalAccess),
	}
}
