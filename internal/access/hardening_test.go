package access_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/access"
	"portalwright/internal/apperr"
	"portalwright/internal/audit"
	"portalwright/internal/caller"
	"portalwright/internal/identity"
	"portalwright/internal/store"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
)

type hardening struct {
	ctx                 context.Context
	svc                 *access.Service
	log                 *audit.Log
	admin, mgr          caller.Caller
	crew, other, third  *access.Domain
	victim, outsider    *identity.User
	stranger, carol     *identity.User
	adminUser           *identity.User
	managerPermissions  []string
	everythingGroupName string
}

// setup: mgr manages the users of Crew (domain_user_create, domain_user_delete, domain_write,
// page_read) and of Other; victim is a plain member of Crew; outsider a member of Other;
// carol a member of Third, where mgr is a member without rights; stranger and a second
// administrator belong to no domain.
func newHardening(t *testing.T, db *store.DB) *hardening {
	t.Helper()
	ctx := context.Background()
	h := &hardening{ctx: ctx, everythingGroupName: "Everything",
		managerPermissions: []string{"domain_user_create", "domain_user_delete", "domain_write", "page_read"}}
	h.log = audit.New(db, slog.New(slog.NewTextHandler(io.Discard, nil)))
	h.svc = access.NewService(access.NewSQLStore(db), h.log)
	ids, err := identity.NewService(ctx, identity.NewSQLStore(db), identity.Config{AccessTokenTTL: time.Hour, RefreshTokenTTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	user := func(name string, admin bool) *identity.User {
		u, err := ids.CreateUser(ctx, identity.NewUser{UserName: name, Password: "secret1", Email: name + "@example.com", Admin: admin})
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	h.adminUser = user("root", true)
	h.admin = caller.Caller{UserID: h.adminUser.ID, Username: "root", Admin: true}
	m := user("mgr", false)
	h.mgr = caller.Caller{UserID: m.ID, Username: "mgr"}
	h.victim, h.outsider, h.stranger, h.carol = user("victim", false), user("outsider", false), user("stranger", false), user("carol", false)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	h.crew, err = h.svc.CreateDomain(ctx, h.admin, "Crew")
	must(err)
	h.other, err = h.svc.CreateDomain(ctx, h.admin, "Other")
	must(err)
	h.third, err = h.svc.CreateDomain(ctx, h.admin, "Third")
	must(err)
	for _, d := range []*access.Domain{h.crew, h.other} {
		_, err = h.svc.Grants().CreateGroup(ctx, h.admin, d.ID, "Managers", h.managerPermissions)
		must(err)
		must(h.svc.Grants().AssignRole(ctx, h.admin, h.mgr.UserID, d.ID, "Managers"))
	}
	_, err = h.svc.Grants().CreateGroup(ctx, h.admin, h.crew.ID, h.everythingGroupName, access.Catalogue)
	must(err)
	_, err = h.svc.Grants().CreateGroup(ctx, h.admin, h.crew.ID, "Readers", []string{"page_read"})
	must(err)
	must(h.svc.AddMember(ctx, h.admin, h.crew.ID, h.victim.ID))
	must(h.svc.AddMember(ctx, h.admin, h.other.ID, h.outsider.ID))
	must(h.svc.AddMember(ctx, h.admin, h.third.ID, h.carol.ID))
	must(h.svc.AddMember(ctx, h.admin, h.third.ID, h.mgr.UserID))
	return h
}

func (h *hardening) perms(t *testing.T, userID int64) []string {
	t.Helper()
	r, err := h.svc.Grants().UserRoles(h.ctx, h.admin, userID, h.crew.ID, false)
	if err != nil {
		t.Fatal(err)
	}
	return r.Permissions
}

// TestNoSelfEscalation (issue 8, item 2): nobody gives a permission they do not hold, nobody
// but an admin changes their own roles, and every change and refusal is audited.
func TestNoSelfEscalation(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHardening(t, db)
		ctx, svc := h.ctx, h.svc
		before := h.perms(t, h.mgr.UserID)

		t.Run("a user manager cannot put themselves in the group with every permission", func(t *testing.T) {
			e := testkit.APIError(t, svc.Grants().AssignRole(ctx, h.mgr, h.mgr.UserID, h.crew.ID, h.everythingGroupName), http.StatusForbidden, access.CodeOwnRoles)
			if e.Message != access.MsgOwnRoles {
				t.Fatalf("message %q", e.Message)
			}
			// Not even a group below their rights: their own roles are someone else's call.
			testkit.APIError(t, svc.Grants().AssignRole(ctx, h.mgr, h.mgr.UserID, h.crew.ID, "Readers"), http.StatusForbidden, access.CodeOwnRoles)
			testkit.APIError(t, svc.Grants().RemoveRole(ctx, h.mgr, h.mgr.UserID, h.crew.ID, "Managers"), http.StatusForbidden, access.CodeOwnRoles)
			if ok, _ := svc.Allowed(ctx, h.mgr, "portal:d", itoa(h.crew.ID)); ok {
				t.Fatal("the manager gained portal_delete")
			}
			if got := h.perms(t, h.mgr.UserID); !slices.Equal(got, before) {
				t.Fatalf("permissions changed: %v → %v", before, got)
			}
		})

		t.Run("nor give another user a group with permissions they lack", func(t *testing.T) {
			e := testkit.APIError(t, svc.Grants().AssignRole(ctx, h.mgr, h.victim.ID, h.crew.ID, h.everythingGroupName), http.StatusForbidden, access.CodeNotHeld)
			if !strings.HasPrefix(e.Message, "You cannot give permissions you do not hold yourself (") || !strings.Contains(e.Message, "portal_delete") {
				t.Fatalf("message %q", e.Message)
			}
			if got := h.perms(t, h.victim.ID); len(got) != 0 {
				t.Fatalf("victim gained %v", got)
			}
			// A group within their own rights is fine.
			if err := svc.Grants().AssignRole(ctx, h.mgr, h.victim.ID, h.crew.ID, "Readers"); err != nil {
				t.Fatal(err)
			}
			if got := h.perms(t, h.victim.ID); !slices.Equal(got, []string{"page_read"}) {
				t.Fatalf("victim holds %v", got)
			}
		})

		t.Run("a domain writer cannot add a permission they lack to a group", func(t *testing.T) {
			_, err := svc.Grants().SetPermissions(ctx, h.mgr, h.crew.ID, "Managers", append([]string{"portal_delete"}, h.managerPermissions...))
			testkit.APIError(t, err, http.StatusForbidden, access.CodeNotHeld)
			if g, _ := svc.Grants().GroupPermissions(ctx, h.crew.ID, "Managers"); !slices.Equal(g, h.managerPermissions) {
				t.Fatalf("Managers = %v", g)
			}
			_, err = svc.Grants().SetPermissions(ctx, h.mgr, h.crew.ID, "Readers", []string{"page_read", "asset:w"})
			testkit.APIError(t, err, http.StatusForbidden, access.CodeNotHeld)
			_, err = svc.Grants().CreateGroup(ctx, h.mgr, h.crew.ID, "Sneaky", []string{"portal:d"})
			testkit.APIError(t, err, http.StatusForbidden, access.CodeNotHeld)
			if _, err := svc.Grants().GroupPermissions(ctx, h.crew.ID, "Sneaky"); err == nil {
				t.Fatal("a refused group was created")
			}
			// Permissions they hold may be added; ones the group had already may stay while
			// others are removed (the UI sends the whole list).
			if _, err := svc.Grants().SetPermissions(ctx, h.mgr, h.crew.ID, "Readers", []string{"page_read", "domain_write"}); err != nil {
				t.Fatal(err)
			}
			less := slices.DeleteFunc(slices.Clone(access.Catalogue), func(p string) bool { return p == "page_read" })
			if _, err := svc.Grants().SetPermissions(ctx, h.mgr, h.crew.ID, h.everythingGroupName, less); err != nil {
				t.Fatalf("keeping permissions the group had is not a grant: %v", err)
			}
			if _, err := svc.Grants().CreateGroup(ctx, h.mgr, h.crew.ID, "Helpers", []string{"page:r"}); err != nil {
				t.Fatal(err)
			}
		})

		t.Run("admins hold everything and may change any roles, their own too", func(t *testing.T) {
			if err := svc.AddMember(ctx, h.admin, h.crew.ID, h.adminUser.ID); err != nil {
				t.Fatal(err)
			}
			if err := svc.Grants().AssignRole(ctx, h.admin, h.adminUser.ID, h.crew.ID, h.everythingGroupName); err != nil {
				t.Fatal(err)
			}
			if err := svc.Grants().RemoveRole(ctx, h.admin, h.adminUser.ID, h.crew.ID, h.everythingGroupName); err != nil {
				t.Fatal(err)
			}
		})

		t.Run("changes and refusals are audited", func(t *testing.T) {
			refused, _ := h.log.List(ctx, audit.Filter{Action: "PERMISSION_CHANGE_REFUSED"})
			if len(refused) != 7 {
				t.Fatalf("%d refusals recorded: %+v", len(refused), refused)
			}
			for _, e := range refused {
				if e.ActorName != "mgr" || e.Category != "GROUP" || e.DomainID == nil || *e.DomainID != h.crew.ID {
					t.Errorf("refusal entry %+v", e)
				}
			}
			updated, _ := h.log.List(ctx, audit.Filter{Action: "GROUP_PERMISSIONS_UPDATED", EntityID: "Readers"})
			if len(updated) != 1 || !strings.Contains(updated[0].Details, "added domain_write") {
				t.Fatalf("GROUP_PERMISSIONS_UPDATED = %+v", updated)
			}
			assigned, _ := h.log.List(ctx, audit.Filter{Action: "ROLE_ASSIGNED", ActorID: &h.mgr.UserID})
			if len(assigned) != 1 || assigned[0].Details != "Readers" || assigned[0].EntityID != itoa(h.victim.ID) {
				t.Fatalf("ROLE_ASSIGNED = %+v", assigned)
			}
			removed, _ := h.log.List(ctx, audit.Filter{Action: "ROLE_REMOVED"})
			if len(removed) != 1 || removed[0].ActorName != "root" {
				t.Fatalf("ROLE_REMOVED = %+v", removed)
			}
		})
	})
}

// TestNoCrossDomainUserEnumeration (issue 8, item 3): a domain manager can add only users
// they can already see (members of another domain whose users they manage); any other id —
// existing, an administrator's, or none at all — gets one and the same answer, and nothing is
// added that would then show the user's name and e-mail in the member list.
func TestNoCrossDomainUserEnumeration(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHardening(t, db)
		ctx, svc := h.ctx, h.svc
		members := func() []int64 {
			m, err := svc.Members(ctx, h.crew.ID)
			if err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, u := range m {
				ids = append(ids, u.ID)
			}
			return ids
		}
		start := members()

		var answers []*apperr.Error
		for _, id := range []int64{h.stranger.ID, h.adminUser.ID, h.carol.ID, 424242} {
			answers = append(answers, testkit.APIError(t, svc.AddMember(ctx, h.mgr, h.crew.ID, id), http.StatusNotFound, "USER_NOT_FOUND"))
			answers = append(answers, testkit.APIError(t, svc.Grants().AssignRole(ctx, h.mgr, id, h.crew.ID, "Readers"), http.StatusNotFound, "USER_NOT_FOUND"))
			answers = append(answers, testkit.APIError(t, svc.Grants().CanReadRoles(ctx, h.mgr, id, h.crew.ID), http.StatusNotFound, "USER_NOT_FOUND"))
		}
		for _, a := range answers {
			if a.Message != access.MsgUserNotAddable || a.Data != nil {
				t.Fatalf("answers differ: %+v", a)
			}
		}
		if got := members(); !slices.Equal(got, start) {
			t.Fatalf("members changed: %v → %v", start, got)
		}

		// Someone without the right to manage users learns nothing either: 403 whoever is named.
		pv := caller.Caller{UserID: h.victim.ID, Username: "victim"}
		testkit.APIError(t, svc.Grants().CanReadRoles(ctx, pv, h.stranger.ID, h.crew.ID), http.StatusForbidden, "FORBIDDEN")
		testkit.APIError(t, svc.Grants().CanReadRoles(ctx, pv, 424242, h.crew.ID), http.StatusForbidden, "FORBIDDEN")

		// Members of another domain whose users the manager manages can be added.
		cands, err := svc.Candidates(ctx, h.mgr, h.crew.ID)
		if err != nil || len(cands) != 1 || cands[0].ID != h.outsider.ID {
			t.Fatalf("candidates = %+v, %v", cands, err)
		}
		if err := svc.AddMember(ctx, h.mgr, h.crew.ID, h.outsider.ID); err != nil {
			t.Fatal(err)
		}
		if err := svc.AddMember(ctx, h.mgr, h.crew.ID, h.victim.ID); err != nil {
			t.Fatalf("re-adding a member is harmless: %v", err)
		}
		if err := svc.Grants().CanReadRoles(ctx, h.mgr, h.victim.ID, h.crew.ID); err != nil {
			t.Fatal(err)
		}

		// Admins keep full power.
		all, _ := svc.Candidates(ctx, h.admin, h.crew.ID)
		if len(all) != 3 { // root, stranger, carol
			t.Fatalf("admin candidates = %+v", all)
		}
		if err := svc.AddMember(ctx, h.admin, h.crew.ID, h.stranger.ID); err != nil {
			t.Fatal(err)
		}
		e := testkit.APIError(t, svc.AddMember(ctx, h.admin, h.crew.ID, 424242), http.StatusNotFound, "USER_NOT_FOUND")
		if e.Message != access.MsgUserNotFound {
			t.Fatalf("admin message %q", e.Message)
		}
	})
}

// TestEnumerationOverHTTP: the same rule seen through the calls the spec names. Before the
// fix an existing id answered 204 (addUser) or 200 (getUserRoles) and an unknown one 404.
func TestEnumerationOverHTTP(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHardening(t, db)
		router := chi.NewRouter()
		for _, rt := range access.NewHandler(h.svc, identity.NewSQLStore(db)).Routes() {
			router.Method(rt.Method, rt.Pattern, rt.Handler)
		}
		call := func(p caller.Caller, method, path, body string) (int, string) {
			req := httptest.NewRequest(method, path, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req = req.WithContext(caller.With(req.Context(), p))
			rec := httptest.NewRecorder()
			router.ServeHTTP(rec, req)
			return rec.Code, rec.Body.String()
		}
		pv := caller.Caller{UserID: h.victim.ID, Username: "victim"}
		for _, c := range []struct {
			who          caller.Caller
			method, path string
			body         func(id int64) string
			status       int
		}{
			{h.mgr, "POST", "/domain/" + itoa(h.crew.ID) + "/addUser", func(id int64) string { return `{"id":` + itoa(id) + `}` }, 404},
			{h.mgr, "GET", "/permissions/getUserRoles/%d/" + itoa(h.crew.ID), nil, 404},
			{pv, "GET", "/permissions/getUserRoles/%d/" + itoa(h.crew.ID), nil, 403},
			{h.mgr, "PUT", "/permissions/updateRoles/%d/" + itoa(h.crew.ID) + "/Readers", nil, 404},
		} {
			var bodies []string
			for _, id := range []int64{h.stranger.ID, h.adminUser.ID, 424242} {
				path, body := strings.Replace(c.path, "%d", itoa(id), 1), ""
				if c.body != nil {
					body = c.body(id)
				}
				status, got := call(c.who, c.method, path, body)
				if status != c.status {
					t.Fatalf("%s %s as %s = %d %s, want %d", c.method, path, c.who.Username, status, got, c.status)
				}
				bodies = append(bodies, got)
			}
			if bodies[0] != bodies[1] || bodies[1] != bodies[2] {
				t.Fatalf("%s %s: answers differ:\n%s", c.method, c.path, strings.Join(bodies, "\n"))
			}
		}
		if status, body := call(h.mgr, "GET", "/domain/"+itoa(h.crew.ID)+"/candidates", ""); status != 200 || !strings.Contains(body, `"userName":"outsider"`) || strings.Contains(body, "stranger") {
			t.Fatalf("candidates = %d %s", status, body)
		}
	})
}
