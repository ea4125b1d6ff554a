package app

import (
	"portalwright/internal/asset"
)

// newAssets builds the asset manager's handler over the portal service's editing unit.
func (a *App) newAssets() *asset.Handler {
	return asset.NewHandler(a.assetService(), a.PortalAccess)
}

// assetService is the asset manager with the operator's limits (its saves serve restores too).
func (a *App) assetService() *asset.Service {
	l := a.Config.AssetLimits
	limits := asset.Limits{Image: int64(l.Image), Video: int64(l.Video), PDF: int64(l.PDF), Default: int64(l.Default)}
	return asset.NewService(a.Portals.Workspace(), limits, a.notices, people{a.Identity}).WithPermissions(a.Access)
}
