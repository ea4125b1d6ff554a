package app

import (
	"context"
	"errors"
	"net/http"

	"portalwright/internal/httpx"
	"portalwright/internal/portal"
)

// domainPortals lets the access service delete a domain's portals through the portal
// service, exactly as the portal delete call does: an audit entry (PORTAL_DELETED) per
// portal, its canonical repository and every workspace removed.
type domainPortals struct{ svc *portal.Service }

func (d domainPortals) DeleteDomainPortals(ctx context.Context, p httpx.Principal, domainID int64, domainName string) ([]string, error) {
	list, err := d.svc.Portals(ctx, domainID)
	if err != nil {
		return nil, err
	}
	var deleted []string
	for _, pt := range list {
		err := d.svc.Delete(ctx, p, domainID, pt.ID, "deleted with the domain "+domainName)
		var gone *httpx.Error
		if errors.As(err, &gone) && gone.Status == http.StatusNotFound {
			continue // deleted by someone else meanwhile
		}
		if err != nil {
			return deleted, err
		}
		deleted = append(deleted, pt.Name)
	}
	return deleted, nil
}
