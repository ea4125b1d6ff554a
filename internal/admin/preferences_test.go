package admin

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/store"
	"portalwright/internal/store/storetest"
)

func TestPreferences(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		p := NewPreferences(db, nil)
		var pushed []Preference
		p.OnChange(func(pr Preference) { pushed = append(pushed, pr) })
		all, err := p.All(ctx)
		if err != nil || len(all) != 1 || all[0].BannerStatus != BannerOff {
			t.Fatalf("initial preferences %+v %v", all, err)
		}
		by := caller.Caller{UserID: 1, Username: "admin", Admin: true}
		if _, err := p.Update(ctx, by, Preference{ID: 1, BannerStatus: "BANNER_ON", BannerMessage: "Maintenance at 18:00 <b>UTC</b>"}); err != nil {
			t.Fatal(err)
		}
		all, _ = p.All(ctx)
		if all[0].BannerStatus != BannerOn || all[0].BannerMessage != "Maintenance at 18:00 <b>UTC</b>" || all[0].UpdatedBy != "admin" {
			t.Fatalf("after update %+v", all[0])
		}
		if len(pushed) != 1 {
			t.Fatal("the change was not announced")
		}
		for _, bad := range []Preference{
			{BannerStatus: "MAYBE"},
			{BannerStatus: BannerOn, BannerMessage: " "},
			{BannerStatus: BannerOn, BannerMessage: string(make([]byte, 501))},
			{ID: 7, BannerStatus: BannerOff},
		} {
			_, err := p.Update(ctx, by, bad)
			var e *apperr.Error
			if !errors.As(err, &e) || (e.Status != http.StatusBadRequest && e.Status != http.StatusNotFound) {
				t.Errorf("Update(%+v) = %v", bad, err)
			}
		}
		all, _ = p.All(ctx)
		if all[0].BannerStatus != BannerOn {
			t.Fatal("a rejected update changed the record")
		}
	})
}
