package realtime

import (
	"context"

	"portalwright/internal/caller"
)

// RoomPolicy says who may join the rooms of domains and portals; it is the API's access rules
// (internal/access implements it), so a socket sees what the calls would show. Realtime
// parses the room name and keeps the one rule that is its own: a user's room is theirs alone.
type RoomPolicy interface {
	// MayJoinDomain: the caller belongs to the domain.
	MayJoinDomain(ctx context.Context, c caller.Caller, domainID int64) (bool, error)
	// MayJoinPortal: the caller may read the portal in its domain (false when it does not exist).
	MayJoinPortal(ctx context.Context, c caller.Caller, portalID int64) (bool, error)
}

// PolicyAuthorizer is the hub's Authorizer over a RoomPolicy.
func PolicyAuthorizer(p RoomPolicy) Authorizer {
	return func(ctx context.Context, c caller.Caller, room string) (bool, error) {
		kind, id, err := ParseRoom(room)
		if err != nil {
			return false, nil
		}
		switch kind {
		case "user":
			return id == c.UserID, nil
		case "domain":
			return p.MayJoinDomain(ctx, c, id)
		case "portal":
			return p.MayJoinPortal(ctx, c, id)
		}
		return false, nil
	}
}
