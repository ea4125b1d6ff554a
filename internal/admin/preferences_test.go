package admin

import (
	"context"
	"errors"
	"net/http"
	"portalwright/internal/notice"
	"portalwright/internal/notice/noticetest"
	"testing"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/store"
	"portalwright/internal/store/storetest"
)

func TestPreferences(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		out := &noticetest.Recorder{}
		p := NewPreferences(db, nil, out)
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
		if ev := out.Events(); len(ev) != 1 || ev[0].Title != EventPreference || ev[0].Room != notice.Everyone {
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
