package app

import (
	"context"

	"portalwright/internal/access"
	"portalwright/internal/asset"
	"portalwright/internal/editing"
	"portalwright/internal/portal"
	"portalwright/internal/portalaccess"
	"portalwright/internal/realtime"
)

// newAssets builds the asset manager's handler over the portal service's editing unit.
func (a *App) newAssets() *asset.Handler {
	l := a.Config.AssetLimits
	limits := asset.Limits{Image: int64(l.Image), Video: int64(l.Video), PDF: int64(l.PDF), Default: int64(l.Default)}
	svc := asset.NewService(a.Portals.Workspace(), limits, portalNotices{a.Hub},
		assetNames{people: people{a.Identity}, access: a.Access, portals: a.Portals}).WithPermissions(a.Access)
	return asset.NewHandler(svc, a.PortalAccess)
}

// portalNotices publishes feature messages to a portal's room (asset.Notifier).
type portalNotices struct{ hub *realtime.Hub }

func (n portalNotices) NotifyPortal(ctx context.Context, portalID int64, title string, data any) {
	n.hub.Publish(ctx, realtime.Message{Room: realtime.PortalRoom(portalID), Title: title, Data: data, MessageType: realtime.TypeNotification})
}

// assetNames resolves the names of an upload notification (asset.Names).
type assetNames struct {
	people  people
	access  *access.Service
	portals *portal.Service
}

func (n assetNames) Person(ctx context.Context, id int64) (editing.Person, error) {
	return n.people.Person(ctx, id)
}

func (n assetNames) DomainName(ctx context.Context, id int64) string {
	name, _ := n.access.DomainName(ctx, id)
	return name
}

func (n assetNames) PortalName(ctx context.Context, pa portalaccess.Portal) (string, error) {
	p, err := n.portals.Portal(ctx, pa.DomainID(), pa.ID())
	if err != nil {
		return "", err
	}
	return p.Name, nil
}
