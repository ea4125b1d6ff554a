package app

import (
	"portalwright/internal/asset"
)

// newAssets builds the asset manager's handler over the portal service's editing unit.
func (a *App) newAssets() *asset.Handler {
	l := a.Config.AssetLimits
	limits := asset.Limits{Image: int64(l.Image), Video: int64(l.Video), PDF: int64(l.PDF), Default: int64(l.Default)}
	svc := asset.NewService(a.Portals.Workspace(), limits, a.notices, people{a.Identity}).WithPermissions(a.Access)
	return asset.NewHandler(svc, a.PortalAccess)
}
