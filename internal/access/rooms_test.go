package access_test

import (
	"context"
	"testing"

	"portalwright/internal/access"
	"portalwright/internal/caller"
	"portalwright/internal/store"
	"portalwright/internal/store/storetest"
)

// The room rules are the API's: members join their domain's room, admins pass, an unknown
// portal's room is refused.
func TestRoomPolicy(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc := access.NewService(access.NewSQLStore(db), nil)
		admin := caller.Caller{UserID: 1, Username: "admin", Admin: true}
		d, err := svc.CreateDomain(ctx, admin, "Sky")
		if err != nil {
			t.Fatal(err)
		}
		domainOf := func(_ context.Context, portalID int64) (int64, error) {
			if portalID == 7 {
				return d.ID, nil
			}
			return 0, store.ErrNotFound
		}
		rooms := access.NewRoomPolicy(access.NewRules(access.NewSQLStore(db)), domainOf)
		stranger := caller.Caller{UserID: 99, Username: "nobody"}
		for name, c := range map[string]struct {
			got  func() (bool, error)
			want bool
		}{
			"admin domain":    {func() (bool, error) { return rooms.MayJoinDomain(ctx, admin, d.ID) }, true},
			"admin portal":    {func() (bool, error) { return rooms.MayJoinPortal(ctx, admin, 7) }, true},
			"unknown portal":  {func() (bool, error) { return rooms.MayJoinPortal(ctx, admin, 8) }, false},
			"stranger domain": {func() (bool, error) { return rooms.MayJoinDomain(ctx, stranger, d.ID) }, false},
			"stranger portal": {func() (bool, error) { return rooms.MayJoinPortal(ctx, stranger, 7) }, false},
		} {
			if got, err := c.got(); got != c.want || err != nil {
				t.Errorf("%s: %v %v, want %v", name, got, err, c.want)
			}
		}
	})
}
