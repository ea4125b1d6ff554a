package access_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"portalwright/internal/access"
	"portalwright/internal/audit"
	"portalwright/internal/caller"
	"portalwright/internal/identity"
	"portalwright/internal/store"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
)

func TestExpand(t *testing.T) {
	for in, want := range map[string]string{
		"asset:w": "asset_write", "asset:c": "asset_create", "page:r": "page_read", "portal:d": "portal_delete",
		"portal:t": "portal_deactivate", "loadable:a": "loadable_approve", "category:l": "category_link",
		"domain:u": "domain_user_create", "domain:k": "domain_user_delete", "portal:ac": "portal_activate",
		"domain_write": "domain_write", " Asset:W ": "asset_write", "odd:zz": "odd:zz",
	} {
		if got := access.Expand(in); got != want {
			t.Errorf("Expand(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAccess(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		auditLog := audit.New(db, slog.New(slog.NewTextHandler(io.Discard, nil)))
		svc := access.NewService(access.NewSQLStore(db), auditLog)
		ids, err := identity.NewService(ctx, identity.NewSQLStore(db), identity.Config{AccessTokenTTL: time.Hour, RefreshTokenTTL: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		admin := caller.Caller{UserID: 999, Username: "root", Admin: true}
		alice, _ := ids.CreateUser(ctx, identity.NewUser{UserName: "alice", Password: "secret1"})
		bob, _ := ids.CreateUser(ctx, identity.NewUser{UserName: "bob", Password: "secret1"})
		pa := caller.Caller{UserID: alice.ID, Username: "alice"}
		pb := caller.Caller{UserID: bob.ID, Username: "bob"}

		crew, err := svc.CreateDomain(ctx, admin, "Crew Air")
		if err != nil {
			t.Fatal(err)
		}
		other, _ := svc.CreateDomain(ctx, admin, "Other")

		t.Run("domain names", func(t *testing.T) {
			_, err := svc.CreateDomain(ctx, admin, "crew air")
			testkit.APIError(t, err, http.StatusConflict, "")
			_, err = svc.CreateDomain(ctx, admin, "bad-name!")
			testkit.APIError(t, err, http.StatusBadRequest, "")
			_, err = svc.CreateDomain(ctx, admin, "  ")
			testkit.APIError(t, err, http.StatusBadRequest, "")
			d, err := svc.RenameDomain(ctx, admin, other.ID, "Other Domain")
			if err != nil || d.Name != "Other Domain" {
				t.Fatalf("rename: %+v %v", d, err)
			}
			_, err = svc.RenameDomain(ctx, admin, other.ID, "Crew Air")
			testkit.APIError(t, err, http.StatusConflict, "")
		})

		t.Run("groups, roles and permissions", func(t *testing.T) {
			g, err := svc.Grants().CreateGroup(ctx, admin, crew.ID, "Editors", []string{"asset:w", "page:r", "asset_write", "domain:w"})
			if err != nil {
				t.Fatal(err)
			}
			if want := []string{"asset_write", "domain_write", "page_read"}; !slices.Equal(g.Permissions, want) {
				t.Fatalf("permissions = %v, want %v", g.Permissions, want)
			}
			_, err = svc.Grants().CreateGroup(ctx, admin, crew.ID, "editors", nil)
			testkit.APIError(t, err, http.StatusConflict, "")
			_, err = svc.Grants().CreateGroup(ctx, admin, crew.ID, "Bad", []string{"fly:w"})
			testkit.APIError(t, err, http.StatusBadRequest, "")
			if groups, _ := svc.Grants().Groups(ctx, crew.ID); len(groups) != 1 {
				t.Fatalf("a rejected group was stored: %+v", groups)
			}

			if ok, _ := svc.Allowed(ctx, pa, "asset:w", "1"); ok {
				t.Fatal("alice has no role yet")
			}
			if err := svc.Grants().AssignRole(ctx, admin, alice.ID, crew.ID, "Editors"); err != nil {
				t.Fatal(err)
			}
			if member, _ := svc.IsMember(ctx, pa, itoa(crew.ID)); !member {
				t.Fatal("assigning a role makes the user a member")
			}
			for perm, want := range map[string]bool{"asset:w": true, "asset_write": true, "page:r": true, "page:w": false, "ASSET:W": true} {
				if ok, _ := svc.Allowed(ctx, pa, perm, itoa(crew.ID)); ok != want {
					t.Errorf("Allowed(alice, %s) = %v, want %v", perm, ok, want)
				}
			}
			if ok, _ := svc.Allowed(ctx, pa, "asset:w", itoa(other.ID)); ok {
				t.Error("permissions must not leak into another domain")
			}
			if ok, _ := svc.Allowed(ctx, admin, "anything:w", itoa(other.ID)); !ok {
				t.Error("admins hold every permission")
			}

			roles, err := svc.Grants().UserRoles(ctx, pa, alice.ID, crew.ID, false)
			if err != nil || !slices.Equal(roles.Roles, []string{"Editors"}) || !slices.Contains(roles.Permissions, "asset_write") {
				t.Fatalf("UserRoles = %+v %v", roles, err)
			}
			_, err = svc.Grants().UserRoles(ctx, pb, alice.ID, crew.ID, false)
			testkit.APIError(t, err, http.StatusForbidden, "")

			writable, err := svc.DomainsWith(ctx, pa, alice.ID, "domain_write", false)
			if err != nil || len(writable) != 1 || writable[0].ID != crew.ID {
				t.Fatalf("writable = %+v %v", writable, err)
			}
			_, err = svc.DomainsWith(ctx, pb, alice.ID, "domain_write", false)
			testkit.APIError(t, err, http.StatusForbidden, "")

			if _, err := svc.Grants().SetPermissions(ctx, admin, crew.ID, "editors", []string{"page:r"}); err != nil {
				t.Fatal(err)
			}
			if ok, _ := svc.Allowed(ctx, pa, "asset:w", itoa(crew.ID)); ok {
				t.Error("replaced permissions must take effect")
			}
			_, err = svc.Grants().SetPermissions(ctx, admin, crew.ID, "nope", nil)
			testkit.APIError(t, err, http.StatusNotFound, "")

			info, _ := svc.UsersInfo(ctx, crew.ID)
			if len(info) != 1 || info[0].UserID != alice.ID || info[0].AccountGroups[0].GroupName != "Editors" {
				t.Fatalf("usersInfo = %+v", info)
			}
			if err := svc.Grants().RemoveRole(ctx, admin, alice.ID, crew.ID, "Editors"); err != nil {
				t.Fatal(err)
			}
			err = svc.Grants().RemoveRole(ctx, admin, alice.ID, crew.ID, "Editors")
			testkit.APIError(t, err, http.StatusNotFound, "")
			err = svc.Grants().AssignRole(ctx, admin, 424242, crew.ID, "Editors")
			testkit.APIError(t, err, http.StatusNotFound, "")
		})

		t.Run("members", func(t *testing.T) {
			if err := svc.AddMember(ctx, admin, other.ID, bob.ID); err != nil {
				t.Fatal(err)
			}
			if err := svc.AddMember(ctx, admin, other.ID, bob.ID); err != nil {
				t.Fatal("adding twice is harmless")
			}
			testkit.APIError(t, svc.AddMember(ctx, admin, other.ID, 424242), http.StatusNotFound, "")
			testkit.APIError(t, svc.AddMember(ctx, admin, 424242, bob.ID), http.StatusNotFound, "")
			mine, _ := svc.Domains(ctx, pb)
			if len(mine) != 1 || mine[0].ID != other.ID {
				t.Fatalf("bob's domains = %+v", mine)
			}
			all, _ := svc.Domains(ctx, admin)
			if len(all) != 2 {
				t.Fatalf("admin sees %d domains", len(all))
			}
			if err := svc.RemoveMember(ctx, admin, other.ID, bob.ID); err != nil {
				t.Fatal(err)
			}
			testkit.APIError(t, svc.RemoveMember(ctx, admin, other.ID, bob.ID), http.StatusNotFound, "")
		})

		t.Run("logo", func(t *testing.T) {
			png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde")
			if err := svc.SetLogo(ctx, admin, crew.ID, png); err != nil {
				t.Fatal(err)
			}
			data, ct, err := svc.Logo(ctx, crew.ID)
			if err != nil || ct != "image/png" || len(data) != len(png) {
				t.Fatalf("logo %q %d %v", ct, len(data), err)
			}
			testkit.APIError(t, svc.SetLogo(ctx, admin, crew.ID, []byte("<svg onload=alert(1)>")), http.StatusBadRequest, "")
			testkit.APIError(t, svc.SetLogo(ctx, admin, crew.ID, make([]byte, access.MaxLogoBytes+1)), http.StatusBadRequest, "")
		})

		t.Run("deleting a domain removes its groups and memberships", func(t *testing.T) {
			if err := svc.DeleteDomain(ctx, admin, crew.ID); err != nil {
				t.Fatal(err)
			}
			_, err := svc.Grants().Groups(ctx, crew.ID)
			testkit.APIError(t, err, http.StatusNotFound, "")
			if d, _ := svc.Domains(ctx, pa); len(d) != 0 {
				t.Fatalf("alice still sees %+v", d)
			}
		})

		t.Run("actions are audited", func(t *testing.T) {
			entries, err := auditLog.List(ctx, audit.Filter{Action: "ROLE_ASSIGNED"})
			if err != nil || len(entries) != 1 || entries[0].ActorName != "root" || entries[0].Details != "Editors" {
				t.Fatalf("audit = %+v %v", entries, err)
			}
		})
	})
}

func itoa(id int64) string { return strconv.FormatInt(id, 10) }
