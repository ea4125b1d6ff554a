package app

import (
	"portalwright/internal/httpx"
	"portalwright/internal/whitelist"
)

// newWhitelist builds the whitelist's routes (issue 14 item 4) over the portal service's
// editing unit: whitelist.json of the caller's workspace and the portal check.
func (a *App) newWhitelist() httpx.Routes {
	return whitelist.NewHandler(whitelist.NewService(a.Portals.Workspace()), a.PortalAccess)
}
