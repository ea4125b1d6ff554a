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
	svc      Rules
	domainOf PortalDomain
}

// NewRoomPolicy builds the room rules over the permission rules and the portals' domains.
func NewRoomPolicy(rules Rules, domainOf PortalDomain) RoomPolicy {
	return RoomPolicy{svc: rules, domainOf: domainOf}
}

// Rules answers who holds which permission in a domain, from the store alone: the checks
// behind the API's guard, the realtime rooms and the Service. Built before the services that
// publish to rooms (the hub's room policy needs it), it depends on nothing else.
type Rules struct {
	store  *SQLStore
	grants *GrantStore
}

// NewRules returns the permission rules over the store.
func NewRules(st *SQLStore) Rules { return Rules{store: st, grants: st.grants()} }

// Allowed tells whether the caller holds the permission in the domain (admins hold every one).
func (r Rules) Allowed(ctx context.Context, p caller.Caller, permission, domain string) (bool, error) {
	if p.Admin {
		return true, nil
	}
	id, ok := ParseID(domain)
	if !ok {
		return false, nil
	}
	return r.grants.HasPermission(ctx, id, p.UserID, Expand(permission))
}

// IsMember tells whether the caller belongs to the domain (admins belong to every one).
func (r Rules) IsMember(ctx context.Context, p caller.Caller, domain string) (bool, error) {
	if p.Admin {
		return true, nil
	}
	id, ok := ParseID(domain)
	if !ok {
		return false, nil
	}
	return r.store.IsMember(ctx, id, p.UserID)
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
