package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"portalwright/internal/caller"
	"portalwright/internal/httpapi"
	"portalwright/internal/httpx"
	"portalwright/internal/identity"
	"portalwright/internal/portal"
	"portalwright/internal/preview"
	"portalwright/internal/thumbnail"
)

// TestAuthorizationMatrix walks every registered /api/v1 route, so routes added later are
// covered without editing this test:
//   - no token → 401 (unless the route is public);
//   - a user of another domain → 403 (routes scoped to a domain or admin-only);
//   - a member without the route's permission → 403 (permission and admin routes);
//   - an admin → neither 401 nor 403.
//
// Routes a browser loads without headers (httpx.AccessReadToken: thumbnails, the preview
// frame's files) are walked with a read token in the URL (or the frame origin's ticket, or its
// cookie) instead: none, a bearer header or a login token → 401; a read token of another
// portal → 403, of another domain's portal → 404. The frame origin's routes (a listener of
// their own) are walked on their own server.
func TestAuthorizationMatrix(t *testing.T) {
	cfg := testConfig(t)
	cfg.AdminPassword = "admin-pass"
	a, err := New(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	srv := httptest.NewServer(a.HTTP)
	defer srv.Close()
	frameSrv := httptest.NewServer(a.HTTP.Frame)
	defer frameSrv.Close()
	ctx := context.Background()

	root := caller.Caller{UserID: 1, Username: "admin", Admin: true}
	home, err := a.Access.CreateDomain(ctx, root, "Home")
	if err != nil {
		t.Fatal(err)
	}
	away, _ := a.Access.CreateDomain(ctx, root, "Away")
	member, _ := a.Identity.CreateUser(ctx, identity.NewUser{UserName: "member", Password: "member-pass"})
	outsider, _ := a.Identity.CreateUser(ctx, identity.NewUser{UserName: "outsider", Password: "outsider-pass"})
	// The member belongs to Home with a group that grants nothing; the outsider belongs to Away
	// with every permission there.
	if _, err := a.Access.Grants().CreateGroup(ctx, root, home.ID, "Nobodies", nil); err != nil {
		t.Fatal(err)
	}
	if err := a.Access.Grants().AssignRole(ctx, root, member.ID, home.ID, "Nobodies"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Access.Grants().CreateGroup(ctx, root, away.ID, "Everything", []string{"domain:w", "domain:u", "domain:k", "asset:w"}); err != nil {
		t.Fatal(err)
	}
	if err := a.Access.Grants().AssignRole(ctx, root, outsider.ID, away.ID, "Everything"); err != nil {
		t.Fatal(err)
	}

	values := map[string]string{
		"id": itoa(home.ID), "domain": itoa(home.ID), "domainId": itoa(home.ID), "d": itoa(home.ID),
		"user": itoa(member.ID), "userId": itoa(member.ID),
		"group": "Nobodies", "role": "Nobodies", "name": "terms", "category": "SIGN_IN",
		"entity": "ALL", "entityId": "0",
		"token":  "pw-not-a-token",  // a path token (preview): refused by its handler, not the router
		"ticket": "pw-not-a-ticket", // the frame origin's: refused by its handler too
	}
	param := regexp.MustCompile(`\{([^}:]+)(:[^}]*)?\}`)
	fill := func(pattern string) string {
		return param.ReplaceAllStringFunc(pattern, func(m string) string {
			name := param.FindStringSubmatch(m)[1]
			if v, ok := values[name]; ok {
				return v
			}
			return "1"
		})
	}
	// A redirect is an answer (the frame origin's exchange): not followed.
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	// callAt calls a route at base with a bearer token and a cookie (pw_frame), each when set.
	callAt := func(base, method, path, token, cookie string) int {
		var body io.Reader
		if method == http.MethodPost || method == http.MethodPut {
			body = strings.NewReader("{}")
		}
		req, _ := http.NewRequest(method, base+path, body)
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if cookie != "" {
			req.AddCookie(&http.Cookie{Name: preview.FrameCookie, Value: cookie})
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	call := func(method, path, token string) int { return callAt(srv.URL, method, path, token, "") }
	login := func(user, pass string) string {
		b, _ := json.Marshal(map[string]string{"username": user, "password": pass})
		resp, err := http.Post(srv.URL+"/api/v1/user/login", "application/json", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct {
			IDToken string `json:"id_token"`
		}
		json.NewDecoder(resp.Body).Decode(&out)
		if out.IDToken == "" {
			t.Fatalf("login %s failed: %d", user, resp.StatusCode)
		}
		return out.IDToken
	}
	memberToken := login("member", "member-pass")
	outsiderToken := login("outsider", "outsider-pass")

	routes := append([]httpapi.RouteInfo(nil), a.HTTP.Routes...)
	if len(routes) < 20 {
		t.Fatalf("only %d routes registered", len(routes))
	}
	frameRoutes := map[string]bool{}
	for _, rt := range a.HTTP.Frame.Routes {
		frameRoutes[rt.Method+" "+rt.Pattern] = true
		routes = append(routes, rt)
	}
	if len(frameRoutes) != 2 {
		t.Fatalf("frame origin routes: %v", a.HTTP.Frame.Routes)
	}
	// on is the server of a route: the frame origin's or the app's.
	on := func(rt httpapi.RouteInfo) string {
		if frameRoutes[rt.Method+" "+rt.Pattern] {
			return frameSrv.URL
		}
		return srv.URL
	}
	// Mutating admin calls run last, deletes at the very end, so earlier checks see the fixtures.
	sort.SliceStable(routes, func(i, j int) bool { return rank(routes[i].Method) < rank(routes[j].Method) })

	// Routes of kind AccessReadToken take no bearer token: their handler checks a read token in
	// the URL (t=), minted by thumbnail.Signer over the shared signing secret. readToken makes
	// one as the mint route would; withToken puts it in a path.
	signingKey, err := identity.NewSQLStore(a.DB).SigningKey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// A route with Access.TokenParam carries the token in that path parameter instead (the
	// preview frame's files, minted by preview's signer; on the frame origin a ticket), one
	// with Access.TokenCookie in that cookie (the frame origin's files).
	readToken := func(rt httpapi.RouteInfo, userID, domainID, portalID int64) string {
		if frameRoutes[rt.Method+" "+rt.Pattern] && rt.Access.TokenParam != "" {
			ticket, err := a.frameTicks.Issue(ctx, userID, domainID, portalID)
			if err != nil {
				t.Fatal(err)
			}
			return ticket
		}
		signer := thumbnail.NewSigner(signingKey)
		if rt.Access.TokenParam != "" || rt.Access.TokenCookie != "" {
			signer = preview.NewSigner(signingKey)
		}
		tok, _ := signer.Mint(userID, domainID, portalID)
		return tok
	}
	// tokenURL fills pattern with the token where the route takes it.
	tokenURL := func(rt httpapi.RouteInfo, pattern, tok string) string {
		switch {
		case rt.Access.TokenCookie != "":
			return fill(pattern)
		case rt.Access.TokenParam == "":
			return fill(pattern) + "?t=" + url.QueryEscape(tok)
		}
		return fill(strings.Replace(pattern, "{"+rt.Access.TokenParam+param.FindStringSubmatch(pattern[strings.Index(pattern, "{"+rt.Access.TokenParam):])[2]+"}", url.PathEscape(tok), 1))
	}
	// callToken calls a read token route with tok where it takes it (URL or cookie).
	callToken := func(rt httpapi.RouteInfo, pattern, tok, bearer string) int {
		cookie := ""
		if rt.Access.TokenCookie != "" {
			cookie = tok
		}
		return callAt(on(rt), rt.Method, tokenURL(rt, pattern, tok), bearer, cookie)
	}

	// The API's description is public, like docs/api.md: anyone may read it, signed in or not.
	if got := call(http.MethodGet, "/api/v1/openapi.json", ""); got != http.StatusOK {
		t.Errorf("GET /api/v1/openapi.json without a token = %d, want 200", got)
	}
	for _, rt := range routes {
		path := fill(rt.Pattern)
		name := rt.Method + " " + rt.Pattern
		if rt.Access.Kind == httpx.AccessPublic {
			continue
		}
		if got := callAt(on(rt), rt.Method, path, "", ""); got != http.StatusUnauthorized {
			t.Errorf("%s without a token = %d, want 401", name, got)
		}
		if rt.Access.Kind == httpx.AccessReadToken {
			// The bearer header counts for nothing, and a login token is no read token.
			if got := callAt(on(rt), rt.Method, path, memberToken, ""); got != http.StatusUnauthorized {
				t.Errorf("%s with a bearer token only = %d, want 401", name, got)
			}
			if got := callToken(rt, rt.Pattern, memberToken, ""); got != http.StatusUnauthorized {
				t.Errorf("%s with the login token as t = %d, want 401", name, got)
			}
		}
		switch rt.Access.Kind {
		case httpx.AccessPermission, httpx.AccessMember, httpx.AccessAdmin:
			if got := call(rt.Method, path, outsiderToken); got != http.StatusForbidden {
				t.Errorf("%s as a user of another domain = %d, want 403", name, got)
			}
		}
		switch rt.Access.Kind {
		case httpx.AccessPermission, httpx.AccessAdmin:
			if got := call(rt.Method, path, memberToken); got != http.StatusForbidden {
				t.Errorf("%s as a member without %q = %d, want 403", name, rt.Access.Permission, got)
			}
		}
	}
	// Every route that names a portal checks that the portal belongs to the URL's domain
	// before anything else (portalaccess): even an admin asking for another domain's portal
	// through this domain is answered 404.
	awayPortal, err := a.Portals.CreateFromTemplate(ctx, root, away.ID, portal.NewPortal{Name: "Away", Type: portal.TypeCrew, Scope: portal.ScopeFull}, 0, "crew")
	if err != nil {
		t.Fatal(err)
	}
	adminToken := login("admin", "admin-pass")
	portalScoped := 0
	for _, rt := range routes {
		if !strings.Contains(rt.Pattern, "{domainId}") || !strings.Contains(rt.Pattern, "{portalId}") {
			continue
		}
		portalScoped++
		awayPattern := strings.Replace(rt.Pattern, "{portalId}", itoa(awayPortal.ID), 1)
		if rt.Access.Kind == httpx.AccessReadToken {
			// A genuine read token of the other domain's portal, used through this domain: 404.
			if got := callToken(rt, awayPattern, readToken(rt, root.UserID, away.ID, awayPortal.ID), adminToken); got != http.StatusNotFound {
				t.Errorf("%s %s with another domain's portal = %d, want 404", rt.Method, rt.Pattern, got)
			}
			// A read token used on a portal it was not minted for: 403 (or 404 when the portal
			// is not in the URL's domain either).
			other := strings.Replace(awayPattern, "{domainId}", itoa(away.ID), 1)
			if got := callToken(rt, other, readToken(rt, root.UserID, home.ID, 1), ""); got != http.StatusForbidden {
				t.Errorf("%s %s with another portal's read token = %d, want 403", rt.Method, rt.Pattern, got)
			}
			continue
		}
		if got := call(rt.Method, fill(awayPattern), adminToken); got != http.StatusNotFound {
			t.Errorf("%s %s with another domain's portal = %d, want 404", rt.Method, rt.Pattern, got)
		}
	}
	if portalScoped < 20 {
		t.Fatalf("only %d portal-scoped routes", portalScoped)
	}

	for _, rt := range routes {
		if rt.Access.Kind == httpx.AccessPublic {
			continue
		}
		// A fresh admin session per call: a logout route ends the session it is called with.
		token := login("admin", "admin-pass")
		got := 0
		if rt.Access.Kind == httpx.AccessReadToken {
			got = callToken(rt, rt.Pattern, readToken(rt, root.UserID, home.ID, 1), token)
		} else {
			got = call(rt.Method, fill(rt.Pattern), token)
		}
		if got == http.StatusUnauthorized || got == http.StatusForbidden {
			t.Errorf("%s %s as admin = %d", rt.Method, rt.Pattern, got)
		}
	}
}

func rank(method string) int {
	switch method {
	case http.MethodGet, http.MethodHead:
		return 0
	case http.MethodPost, http.MethodPut, http.MethodPatch:
		return 1
	default:
		return 2
	}
}

func itoa(id int64) string { return strconv.FormatInt(id, 10) }
