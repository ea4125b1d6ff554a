package app

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"portalwright/internal/caller"
	"portalwright/internal/identity"
	"portalwright/internal/portal"
	"portalwright/internal/testkit"
)

// TestFrameOrigin walks the designer's frame on its own origin (--frame-addr, issue 31 item 3):
// the frame's first URL carries a single-use ticket that the frame origin exchanges for an
// HttpOnly, SameSite=Strict cookie scoped to the portal's files, redirecting to a URL without
// it; a second use is refused; every answer's policy keeps the frame's requests to that
// portal's files on the frame origin; and the app's and the frame origin's routes never mix.
func TestFrameOrigin(t *testing.T) {
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	cfg.FrameAddr = "127.0.0.1:0"
	srv := start(t, cfg)
	a := srv.app
	ctx := context.Background()
	root := caller.Caller{UserID: 1, Username: "admin", Admin: true}
	if _, err := a.Access.Grants().CreateGroup(ctx, root, 1, "PageReaders", []string{"portal:r", "page:r"}); err != nil {
		t.Fatal(err)
	}
	ann, err := a.Identity.CreateUser(ctx, identity.NewUser{UserName: "ann", Password: "ann-pass-1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Access.Grants().AssignRole(ctx, root, ann.ID, 1, "PageReaders"); err != nil {
		t.Fatal(err)
	}
	second, err := a.Portals.CreateFromTemplate(ctx, root, 1, portal.NewPortal{Name: "Second", Type: portal.TypeCrew, Scope: portal.ScopeFull}, 0, "crew")
	if err != nil {
		t.Fatal(err)
	}
	client := testkit.SignIn(t, srv.base, "ann", "ann-pass-1")
	for _, p := range []int64{1, second.ID} {
		if got := client.Do("GET", "/portal/1/"+itoa(p)+"/open", ""); got.Status != 200 {
			t.Fatalf("open %d: %d %s", p, got.Status, got.Body)
		}
	}
	putWorkspaceFile(t, cfg.DataDir, ann.ID, 1, "pages/home.html", []byte("<h1>Ann's draft</h1>\n"))
	// A whitelist with a CDN, and entries that would rewrite the policy if copied as they are.
	putWorkspaceFile(t, cfg.DataDir, ann.ID, 1, "whitelist.json", []byte(`{"whitelist":[{"url":"https://cdn.example.com/lib/x.js"},`+
		`{"url":"https://evil.example;script-src *"},{"url":"javascript:alert(1)"},{"url":"https://a b.example"}]}`))

	type tokenAnswer struct {
		Token     string `json:"token"`
		ExpiresIn int    `json:"expiresIn"`
		Base      string `json:"base"`
	}
	mint := func(portalID int64) tokenAnswer {
		t.Helper()
		r := client.Do("POST", "/workspace/1/"+itoa(portalID)+"/token", "")
		var out tokenAnswer
		r.JSON(t, &out)
		if r.Status != 200 || r.Header.Get("Cache-Control") != "no-store" {
			t.Fatalf("token: %d %s", r.Status, r.Body)
		}
		return out
	}
	tok := mint(1)
	frameOrigin := "http://127.0.0.1:" + itoa(int64(a.framePort.Load()))
	if a.framePort.Load() == 0 || !strings.HasPrefix(tok.Token, "pwf1.") || tok.ExpiresIn != 1800 ||
		tok.Base != frameOrigin+"/api/v1/workspace/"+tok.Token+"/1/1/" {
		t.Fatalf("a ticket on the frame origin: %+v (frame origin %s)", tok, frameOrigin)
	}
	// The app's pages may frame the frame origin (and nothing else).
	if csp := testkit.Call(t, "GET", srv.base+"/healthz", "", "").Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-src 'self' "+frameOrigin+";") {
		t.Errorf("app policy: %q", csp)
	}

	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(u string, cookies ...*http.Cookie) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", u, nil)
		for _, c := range cookies {
			req.AddCookie(c)
		}
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp, string(body)
	}

	// The exchange: a cookie and a redirect to the same file without the ticket.
	first := tok.Base + "index.html?designMode=1&parentOrigin=" + url.QueryEscape(srv.base)
	resp, body := get(first)
	scope := "/api/v1/workspace/frame/1/1/"
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != scope+"index.html?designMode=1&parentOrigin="+url.QueryEscape(srv.base) {
		t.Fatalf("exchange: %d %q %s", resp.StatusCode, resp.Header.Get("Location"), body)
	}
	if strings.Contains(resp.Header.Get("Location"), "pwf1") || resp.Header.Get("Referrer-Policy") != "no-referrer" || resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("the redirect names the ticket or leaks it: %v", resp.Header)
	}
	cookies := resp.Cookies()
	if len(cookies) != 1 {
		t.Fatalf("cookies: %v", resp.Header.Values("Set-Cookie"))
	}
	c := cookies[0]
	if c.Name != "pw_frame" || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != scope || c.MaxAge != 1800 || c.Secure || c.Domain != "" ||
		!strings.HasPrefix(c.Value, "pwp1.") || strings.Contains(c.Value, tok.Token) {
		t.Errorf("cookie: %+v", c)
	}
	// Single use: the same ticket again is refused, and sets nothing.
	if resp, body := get(first); resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "INVALID_FRAME_TICKET") || len(resp.Cookies()) != 0 {
		t.Errorf("the ticket used twice: %d %s", resp.StatusCode, body)
	}

	// The frame's files with the cookie: the workspace, uncommitted edits included.
	resp, body = get(frameOrigin+scope+"pages/home.html", c)
	if resp.StatusCode != 200 || body != "<h1>Ann's draft</h1>\n" {
		t.Fatalf("the page with the cookie: %d %s", resp.StatusCode, body)
	}
	own := frameOrigin + scope
	policy := func(whitelist string) string {
		return "sandbox allow-scripts allow-forms allow-modals allow-same-origin; default-src " + own + " 'unsafe-inline' 'unsafe-eval' data: blob:" + whitelist +
			"; connect-src " + own + whitelist + "; frame-src " + own + whitelist + "; worker-src " + own + " blob:; object-src 'none'; base-uri " + own +
			"; form-action " + own + "; frame-ancestors " + a.publicURL() + " http://127.0.0.1:*"
	}
	if got := resp.Header.Get("Content-Security-Policy"); got != policy(" https://cdn.example.com") {
		t.Errorf("a page's policy:\n got %s\nwant %s", got, policy(" https://cdn.example.com"))
	}
	if got := resp.Header.Get("Connection-Allowlist"); got != `(response-origin "https://cdn.example.com/*");webrtc=block;redirects=allow` {
		t.Errorf("a page's connection allowlist: %s", got)
	}
	if resp.Header.Get("Referrer-Policy") != "no-referrer" || resp.Header.Get("X-Frame-Options") != "" || resp.Header.Get("Access-Control-Allow-Origin") != "" ||
		resp.Header.Get("X-DNS-Prefetch-Control") != "off" || resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("a page's headers: %v", resp.Header)
	}
	if resp, body := get(frameOrigin+scope+"sitemap.json", c); resp.StatusCode != 200 || resp.Header.Get("Content-Security-Policy") != policy("") {
		t.Errorf("not a document, no whitelist: %d %q %.100s", resp.StatusCode, resp.Header.Get("Content-Security-Policy"), body)
	}

	// Without the cookie, with it on another portal's files, with a forged one: refused.
	if resp, _ := get(frameOrigin + scope + "pages/home.html"); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("no cookie: %d", resp.StatusCode)
	}
	if resp, _ := get(frameOrigin+"/api/v1/workspace/frame/1/"+itoa(second.ID)+"/index.html", c); resp.StatusCode != http.StatusForbidden {
		t.Errorf("the cookie on another portal: %d", resp.StatusCode)
	}
	if resp, _ := get(frameOrigin+scope+"index.html", &http.Cookie{Name: "pw_frame", Value: client.Token}); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a login token as the cookie: %d", resp.StatusCode)
	}
	// A ticket works for its own portal only.
	other := mint(second.ID)
	if resp, _ := get(strings.Replace(other.Base, "/1/"+itoa(second.ID)+"/", "/1/1/", 1) + "index.html"); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a ticket of another portal: %d", resp.StatusCode)
	}

	// The frame origin serves nothing of the app; the app's origin does not take the cookie.
	for _, p := range []string{"/", "/index.html", "/api/v1/user/profile", "/healthz"} {
		if resp, _ := get(frameOrigin + p); resp.StatusCode != http.StatusNotFound {
			t.Errorf("frame origin %s: %d", p, resp.StatusCode)
		}
	}
	if resp, _ := get(srv.base+scope+"index.html", c); resp.StatusCode != http.StatusUnauthorized ||
		strings.Contains(resp.Header.Get("Content-Security-Policy"), "allow-same-origin") {
		t.Errorf("the app's origin with the frame cookie: %d %q", resp.StatusCode, resp.Header.Get("Content-Security-Policy"))
	}
}
