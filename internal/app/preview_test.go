package app

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"portalwright/internal/caller"
	"portalwright/internal/identity"
	"portalwright/internal/portal"
	"portalwright/internal/preview"
	"portalwright/internal/testkit"
	"portalwright/internal/thumbnail"
)

// TestPreviewWorkspace walks the preview frame's files over HTTP (issue 12 item 1): a token
// of one user and one portal reads that user's workspace (uncommitted edits included) and
// nothing else — not another portal, not another user's workspace, not a path outside the
// workspace, not after it expires or the user loses page:r — and every answer is sandboxed.
func TestPreviewWorkspace(t *testing.T) {
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	ctx := context.Background()
	a, err := New(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	root := caller.Caller{UserID: 1, Username: "admin", Admin: true}
	if _, err := a.Access.Grants().CreateGroup(ctx, root, 1, "PageReaders", []string{"portal:r", "page:r"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Access.Grants().CreateGroup(ctx, root, 1, "NoPages", []string{"portal:r"}); err != nil {
		t.Fatal(err)
	}
	users := map[string]int64{}
	for name, group := range map[string]string{"ann": "PageReaders", "bob": "PageReaders", "nia": "NoPages"} {
		u, err := a.Identity.CreateUser(ctx, identity.NewUser{UserName: name, Password: name + "-pass-1"})
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Access.Grants().AssignRole(ctx, root, u.ID, 1, group); err != nil {
			t.Fatal(err)
		}
		users[name] = u.ID
	}
	second, err := a.Portals.CreateFromTemplate(ctx, root, 1, portal.NewPortal{Name: "Second", Type: portal.TypeCrew, Scope: portal.ScopeFull}, 0, "crew")
	if err != nil {
		t.Fatal(err)
	}
	ann := testkit.SignIn(t, srv.base, "ann", "ann-pass-1")
	bob := testkit.SignIn(t, srv.base, "bob", "bob-pass-1")
	nia := testkit.SignIn(t, srv.base, "nia", "nia-pass-1")
	for _, c := range []*testkit.Client{ann, bob, nia} {
		if got := c.Do("GET", "/portal/1/1/open", ""); got.Status != 200 {
			t.Fatalf("open: %d %s", got.Status, got.Body)
		}
	}
	if got := ann.Do("GET", "/portal/1/"+itoa(second.ID)+"/open", ""); got.Status != 200 {
		t.Fatalf("open second: %d %s", got.Status, got.Body)
	}
	// Uncommitted edits in each workspace, told apart by their text.
	putWorkspaceFile(t, cfg.DataDir, users["ann"], 1, "pages/home.html", []byte("<h1>Ann's draft</h1>\n"))
	putWorkspaceFile(t, cfg.DataDir, users["bob"], 1, "pages/home.html", []byte("<h1>Bob's draft</h1>\n"))

	type tokenAnswer struct {
		Token     string `json:"token"`
		ExpiresIn int    `json:"expiresIn"`
		Base      string `json:"base"`
	}
	mint := func(c *testkit.Client, portalID int64) tokenAnswer {
		t.Helper()
		r := c.Do("POST", "/workspace/1/"+itoa(portalID)+"/token", "")
		var out tokenAnswer
		r.JSON(t, &out)
		if r.Status != 200 || !strings.HasPrefix(out.Token, "pwp1.") || out.ExpiresIn != 1800 ||
			out.Base != "/api/v1/workspace/"+out.Token+"/1/"+itoa(portalID)+"/" || r.Header.Get("Cache-Control") != "no-store" {
			t.Fatalf("token: %d %s", r.Status, r.Body)
		}
		return out
	}
	fetch := func(path string) testkit.Reply {
		t.Helper()
		return testkit.Call(t, "GET", srv.base+path, "", "")
	}
	// An opaque origin (no allow-same-origin), no popups, and nothing reached but the app's own
	// origin: no fetch, image, frame or form to any other host.
	const framePolicy = "sandbox allow-scripts allow-forms allow-modals; default-src 'self' 'unsafe-inline' 'unsafe-eval' data: blob:; " +
		"connect-src 'self'; frame-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'"
	sandboxed := func(r testkit.Reply, what string) {
		t.Helper()
		if r.Header.Get("Content-Security-Policy") != framePolicy ||
			r.Header.Get("Referrer-Policy") != "no-referrer" || r.Header.Get("Access-Control-Allow-Origin") != "*" ||
			r.Header.Get("X-Content-Type-Options") != "nosniff" || r.Header.Get("X-Frame-Options") != "SAMEORIGIN" ||
			r.Header.Get("X-DNS-Prefetch-Control") != "off" || r.Header.Get("Connection-Allowlist") != "(response-origin);webrtc=block;redirects=allow" {
			t.Errorf("%s: not sandboxed: %v", what, r.Header)
		}
	}

	// Minting needs page:r.
	if got := nia.Do("POST", "/workspace/1/1/token", ""); got.Status != http.StatusForbidden {
		t.Errorf("mint without page:r: %d", got.Status)
	}
	annTok, bobTok := mint(ann, 1), mint(bob, 1)

	// Each token reads its own user's workspace, uncommitted edits included.
	r := fetch(annTok.Base + "pages/home.html")
	if r.Status != 200 || r.Body != "<h1>Ann's draft</h1>\n" || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") || r.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("ann's page: %d %v %s", r.Status, r.Header, r.Body)
	}
	sandboxed(r, "a page")
	if r := fetch(bobTok.Base + "pages/home.html"); r.Status != 200 || r.Body != "<h1>Bob's draft</h1>\n" {
		t.Errorf("bob's page: %d %s", r.Status, r.Body)
	}
	// The root and a folder answer their index.html; the engine and its data are there.
	for _, p := range []string{"", "index.html"} {
		if r := fetch(annTok.Base + p); r.Status != 200 || !strings.Contains(r.Body, "portal-engine.js") {
			t.Errorf("%q: %d %.200s", p, r.Status, r.Body)
		}
	}
	if r := fetch(annTok.Base + "sitemap.json"); r.Status != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		t.Errorf("sitemap: %d %v", r.Status, r.Header.Get("Content-Type"))
	}
	// Ranges (video).
	if r := testkit.Call(t, "GET", srv.base+annTok.Base+"pages/home.html", "", "", "Range", "bytes=4-8"); r.Status != http.StatusPartialContent || r.Body != "Ann's" {
		t.Errorf("range: %d %q", r.Status, r.Body)
	}

	// Not another portal: Ann's token on the second portal is refused, her own for it works.
	if r := fetch("/api/v1/workspace/" + annTok.Token + "/1/" + itoa(second.ID) + "/index.html"); r.Status != http.StatusForbidden {
		t.Errorf("another portal's token: %d %s", r.Status, r.Body)
	}
	if r := fetch(mint(ann, second.ID).Base + "index.html"); r.Status != 200 {
		t.Errorf("second portal: %d", r.Status)
	}
	// Not another domain's portal through this domain (404 like every portal route).
	if r := fetch("/api/v1/workspace/" + annTok.Token + "/2/1/index.html"); r.Status != http.StatusNotFound && r.Status != http.StatusForbidden {
		t.Errorf("another domain: %d", r.Status)
	}
	// Not a path outside the workspace, nor .git, nor a missing file.
	for _, c := range []struct {
		path   string
		status int
	}{
		{"..%2F..%2F" + itoa(users["bob"]) + "%2F1%2Fpages%2Fhome.html", 400},
		{"pages%2F..%2F..%2F..%2Fportalwright.db", 400},
		{".git/config", 400},
		{".git%2FHEAD", 400},
		{"pages/missing.html", 404},
	} {
		r := fetch(annTok.Base + c.path)
		if r.Status != c.status {
			t.Errorf("%s: %d, want %d: %s", c.path, r.Status, c.status, r.Body)
		}
		sandboxed(r, "an error")
	}
	// Not with another kind of token, a login token, a forged or an expired one.
	key, err := identity.NewSQLStore(a.DB).SigningKey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	thumbTok, _ := thumbnail.NewSigner(key).Mint(users["ann"], 1, 1)
	expired, _ := preview.NewSigner(key).WithClock(func() time.Time { return time.Now().Add(-31 * time.Minute) }).Mint(users["ann"], 1, 1)
	forged, _ := preview.NewSigner("guess").Mint(users["bob"], 1, 1)
	for name, c := range map[string]struct{ tok, code string }{
		"thumbnail token": {thumbTok, "INVALID_READ_TOKEN"},
		"login token":     {ann.Token, "INVALID_READ_TOKEN"},
		"forged":          {forged, "INVALID_READ_TOKEN"},
		"expired":         {expired, "READ_TOKEN_EXPIRED"},
	} {
		r := fetch("/api/v1/workspace/" + c.tok + "/1/1/pages/home.html")
		if r.Status != http.StatusUnauthorized || !strings.Contains(r.Body, c.code) {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
	fresh, _ := preview.NewSigner(key).Mint(users["ann"], 1, 1) // what another instance would mint
	if r := fetch("/api/v1/workspace/" + fresh + "/1/1/pages/home.html"); r.Status != 200 {
		t.Errorf("a token minted from the shared secret: %d", r.Status)
	}

	// The page fetch with the bearer token: the caller's workspace on the URL's branch.
	if r := ann.Do("GET", "/workspace/1/1/master/pages/home.html", ""); r.Status != 200 || r.Body != "<h1>Ann's draft</h1>\n" {
		t.Errorf("bearer page: %d %s", r.Status, r.Body)
	} else {
		sandboxed(r, "the bearer page")
	}
	if r := ann.Do("GET", "/workspace/1/1/other-branch/pages/home.html", ""); r.Status != http.StatusConflict {
		t.Errorf("another branch: %d %s", r.Status, r.Body)
	}
	if r := nia.Do("GET", "/workspace/1/1/master/pages/home.html", ""); r.Status != http.StatusForbidden {
		t.Errorf("bearer without page:r: %d", r.Status)
	}

	// The right goes: the token stops working at once.
	if err := a.Access.Grants().RemoveRole(ctx, root, users["ann"], 1, "PageReaders"); err != nil {
		t.Fatal(err)
	}
	if r := fetch(annTok.Base + "pages/home.html"); r.Status != http.StatusForbidden {
		t.Errorf("after losing page:r: %d %s", r.Status, r.Body)
	}
	if r := fetch(bobTok.Base + "pages/home.html"); r.Status != 200 {
		t.Errorf("bob still reads: %d", r.Status)
	}
}
