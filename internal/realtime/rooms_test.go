package realtime

import (
	"context"
	"testing"

	"portalwright/internal/caller"
)

type policy struct{ domains, portals map[int64]bool }

func (p policy) MayJoinDomain(_ context.Context, _ caller.Caller, id int64) (bool, error) {
	return p.domains[id], nil
}

func (p policy) MayJoinPortal(_ context.Context, _ caller.Caller, id int64) (bool, error) {
	return p.portals[id], nil
}

// The hub asks the policy for domain and portal rooms; a user's room is theirs alone, and
// unknown room names are refused without asking.
func TestPolicyAuthorizer(t *testing.T) {
	authz := PolicyAuthorizer(policy{domains: map[int64]bool{1: true}, portals: map[int64]bool{7: true}})
	me := caller.Caller{UserID: 5}
	for room, want := range map[string]bool{
		"user-5": true, "user-6": false, "domain-1": true, "domain-2": false,
		"portal-7": true, "portal-8": false, "team-1": false, "portal-x": false,
	} {
		if got, err := authz(context.Background(), me, room); got != want || err != nil {
			t.Errorf("%s: %v %v, want %v", room, got, err, want)
		}
	}
}
