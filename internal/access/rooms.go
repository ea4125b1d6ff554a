package access

import (
	"context"
	"errors"
	"strconv"

	"portalwright/internal/caller"
	"portalwright/internal/store"
)

// PortalDomain answers the domain of a portal (store.ErrNotFound when there is none): the
// portal service's DomainOf.
type PortalDomain func(ctx context.Context, portalID int64) (int64, error)

// RoomPolicy is who may join the realtime rooms of domains and portals (realtime.RoomPolicy),
// by the same rules as the API calls: a domain's room for its members, a portal's room for
// those who may read it (portal:r in its domain).
type RoomPolicy struct {
	svc      *Service
	domainOf PortalDomain
}

// NewRoomPolicy builds the room rules over the access service and the portals' domains.
func NewRoomPolicy(svc *Service, domainOf PortalDomain) RoomPolicy {
	return RoomPolicy{svc: svc, domainOf: domainOf}
}

// MayJoinDomain: the caller belongs to the domain.
func (r RoomPolicy) MayJoinDomain(ctx context.Context, c caller.Caller, domainID int64) (bool, error) {
	return r.svc.IsMember(ctx, c, strconv.FormatInt(domainID, 10))
}

// MayJoinPortal: the caller has portal:r in the portal's domain; an unknown portal is refused.
func (r RoomPolicy) MayJoinPortal(ctx context.Context, c caller.Caller, portalID int64) (bool, error) {
	domainID, err := r.domainOf(ctx, portalID)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return r.svc.Allowed(ctx, c, "portal:r", strconv.FormatInt(domainID, 10))
}
