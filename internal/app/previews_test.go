package app

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"portalwright/internal/config"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
)

func TestSharedPreviews(t *testing.T) { sharedPreviewSuite(t, testConfig(t)) }

func TestSharedPreviewsPostgres(t *testing.T) {
	cfg := testConfig(t)
	cfg.DatabaseURL = storetest.PostgresURL(t) // skips without TEST_DATABASE_URL
	sharedPreviewSuite(t, cfg)
}

type sharedPreview struct {
	ID         int64  `json:"id"`
	Type       string `json:"type"`
	Status     string `json:"status"`
	Branch     string `json:"branch"`
	CommitID   string `json:"commitId"`
	PortalName string `json:"portalName"`
	DomainName string `json:"domainName"`
	Link       string `json:"link"`
	Error      *struct {
		ErrorTitle   string `json:"errorTitle"`
		ErrorMessage string `json:"errorMessage"`
	} `json:"error"`
}

// sharedPreviewSuite walks the shared previews over HTTP on the demo portals (issue 13 item 4):
// a live and a locked preview of the Crew Portal opened with no sign-in; after a new commit
// the locked one still shows the old page and the live one the new; a token opens its own
// preview only, expires, and stops with an inactive portal; the QR code holds the link.
func sharedPreviewSuite(t *testing.T, cfg config.Config) {
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	cfg.PreviewTTL = time.Hour
	srv := start(t, cfg)
	admin := testkit.SignIn(t, srv.base, "admin", "admin-pass")
	if r := admin.Do("GET", "/portal/1/1/open", ""); r.Status != 200 {
		t.Fatalf("open: %d %s", r.Status, r.Body)
	}
	create := func(body string) sharedPreview {
		t.Helper()
		r := admin.Do("POST", "/preview/1/1", body)
		if r.Status != http.StatusAccepted {
			t.Fatalf("create %s: %d %s", body, r.Status, r.Body)
		}
		var p sharedPreview
		if err := json.Unmarshal([]byte(r.Body), &p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ready := func(p sharedPreview) sharedPreview {
		t.Helper()
		for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			r := admin.Do("GET", "/preview/1/1/"+itoa(p.ID), "")
			if r.Status != 200 {
				t.Fatalf("get: %d %s", r.Status, r.Body)
			}
			_ = json.Unmarshal([]byte(r.Body), &p)
			if p.Status != "PROGRESS" {
				break
			}
		}
		if p.Status != "READY" || p.Link == "" {
			t.Fatalf("preview not ready: %+v", p)
		}
		return p
	}
	// open fetches a link as a phone would: no Authorization, a browser's Accept.
	open := func(link string) testkit.Reply {
		t.Helper()
		return testkit.Call(t, "GET", strings.Split(link, "#")[0], "", "", "Accept", "text/html")
	}

	live := create(`{"type":"PORTAL_LIVE","page":"home"}`)
	if live.Status != "READY" || !strings.Contains(live.Link, "/api/v1/preview/pwv1_") || !strings.Contains(live.Link, "/1/1/PORTAL_LIVE/master/index.html") ||
		!strings.HasSuffix(live.Link, "#/home") || live.PortalName != "Crew Portal" {
		t.Fatalf("live preview: %+v", live)
	}
	locked := ready(create(`{"type":"PORTAL_LOCKED"}`))
	if len(locked.CommitID) != 40 || !strings.Contains(locked.Link, "/PORTAL_LOCKED/"+locked.CommitID+"/") {
		t.Fatalf("locked preview: %+v", locked)
	}
	for _, link := range []string{live.Link, locked.Link} {
		r := open(link)
		if r.Status != 200 || !strings.Contains(r.Body, "portal-engine.js") {
			t.Fatalf("open %s: %d %.200s", link, r.Status, r.Body)
		}
		if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "sandbox allow-scripts") || strings.Contains(csp, "allow-same-origin") {
			t.Fatalf("preview answer not sandboxed: %q", csp)
		}
	}
	base := func(link string) string { return link[:strings.Index(link, "index.html")] }

	// A commit after both: the locked preview keeps the page it was made of, the live one
	// follows.
	before := open(base(locked.Link) + "pages/home.html").Body
	putWorkspaceFile(t, cfg.DataDir, 1, 1, "pages/home.html", []byte("<h1>Committed after the snapshot</h1>\n"))
	if r := admin.Do("POST", "/portal/1/1/commits", `{"message":"New home"}`); r.Status != 200 {
		t.Fatalf("commit: %d %s", r.Status, r.Body)
	}
	if got := open(base(locked.Link) + "pages/home.html").Body; got != before || strings.Contains(got, "Committed after") {
		t.Fatalf("the locked preview changed after a commit: %q", got)
	}
	if got := open(base(live.Link) + "pages/home.html").Body; !strings.Contains(got, "Committed after the snapshot") {
		t.Fatalf("the live preview did not follow: %q", got)
	}
	// A new locked preview shows the new commit; the live one keeps its link.
	if again := create(`{"type":"PORTAL_LIVE"}`); again.ID != live.ID || again.Link != strings.TrimSuffix(live.Link, "#/home") {
		t.Fatalf("a second live preview of the branch: %+v, want the same link as %+v", again, live)
	}
	locked2 := ready(create(`{"type":"PORTAL_LOCKED"}`))
	if locked2.CommitID == locked.CommitID || !strings.Contains(open(base(locked2.Link)+"pages/home.html").Body, "Committed after") {
		t.Fatalf("second locked preview: %+v", locked2)
	}

	// A token opens its own preview only: not with another preview's type or ref, not in
	// another portal or domain, not with a changed token, not above its folder.
	tok := strings.Split(strings.Split(locked.Link, "/preview/")[1], "/")[0]
	for _, path := range []string{
		"/preview/" + tok + "/1/1/PORTAL_LIVE/master/index.html",
		"/preview/" + tok + "/1/1/PORTAL_LOCKED/" + locked2.CommitID + "/index.html",
		"/preview/" + tok + "/1/2/PORTAL_LOCKED/" + locked.CommitID + "/index.html",
		"/preview/" + tok + "/2/1/PORTAL_LOCKED/" + locked.CommitID + "/index.html",
		"/preview/" + tok[:len(tok)-2] + "AA/1/1/PORTAL_LOCKED/" + locked.CommitID + "/index.html",
		"/preview/pwv1_x/1/1/PORTAL_LOCKED/" + locked.CommitID + "/index.html",
	} {
		if r := testkit.Call(t, "GET", srv.base+"/api/v1"+path, "", ""); r.Status != 404 {
			t.Errorf("GET %s = %d, want 404", path, r.Status)
		}
	}
	for _, path := range []string{"..%2fportal.json", ".git/config", "%2e%2e/%2e%2e/x"} {
		if r := testkit.Call(t, "GET", base(locked.Link)+path, "", ""); r.Status != 400 && r.Status != 404 {
			t.Errorf("GET %s = %d, want 400 or 404", path, r.Status)
		}
	}
	// The creator's calls need a sign-in; another user's preview is not found.
	if r := testkit.Call(t, "GET", srv.base+"/api/v1/preview/qrCode/"+itoa(locked.ID), "", ""); r.Status != 401 {
		t.Fatalf("qrCode without sign-in = %d", r.Status)
	}

	// The QR code is a PNG of the link.
	r := admin.Do("GET", "/preview/qrCode/"+itoa(live.ID), "")
	var qr struct {
		Link   string `json:"link"`
		QRCode string `json:"qrCode"`
	}
	if r.Status != 200 || json.Unmarshal([]byte(r.Body), &qr) != nil || qr.Link == "" {
		t.Fatalf("qrCode: %d %s", r.Status, r.Body)
	}
	raw, err := base64.StdEncoding.DecodeString(qr.QRCode)
	if err != nil {
		t.Fatal(err)
	}
	if img, err := png.Decode(bytes.NewReader(raw)); err != nil || img.Bounds().Dx() < 100 {
		t.Fatalf("qrCode is no PNG: %v", err)
	}

	// latest: the newest of a type, null for none.
	if r := admin.Do("GET", "/preview/1/1/latest?type=PORTAL_LOCKED", ""); r.Status != 200 || !strings.Contains(r.Body, `"id":`+itoa(locked2.ID)) {
		t.Fatalf("latest locked: %d %s", r.Status, r.Body)
	}
	if r := admin.Do("GET", "/preview/1/1/latest?type=LOADABLE", ""); r.Status != 200 || strings.TrimSpace(r.Body) != "null" {
		t.Fatalf("latest loadable: %d %s", r.Status, r.Body)
	}
	if r := admin.Do("POST", "/preview/1/1", `{"type":"PORTAL_PAST"}`); r.Status != 400 {
		t.Fatalf("bad type: %d", r.Status)
	}

	// Revoked: the link stops at once.
	if r := admin.Do("DELETE", "/preview/1/1/"+itoa(locked2.ID), ""); r.Status != 204 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if r := open(locked2.Link); r.Status != 404 || !strings.Contains(r.Body, "This preview link is not valid.") {
		t.Fatalf("revoked link: %d %s", r.Status, r.Body)
	}

	// A live preview whose workspace left its branch: 'Can't open live preview'.
	if r := admin.Do("POST", "/portal/1/1/branches", `{"name":"feature/x","source":"master"}`); r.Status/100 != 2 {
		t.Fatalf("create branch: %d %s", r.Status, r.Body)
	}
	if r := admin.Do("PUT", "/portal/1/1/reset/feature:x", ""); r.Status != 200 {
		t.Fatalf("switch branch: %d %s", r.Status, r.Body)
	}
	if r := open(live.Link); r.Status != 409 || !strings.Contains(r.Body, "Can&#39;t open live preview") || !strings.Contains(r.Body, "contact the Domain Administrator") {
		t.Fatalf("live preview of a workspace on another branch: %d %s", r.Status, r.Body)
	}
	if r := admin.Do("POST", "/preview/1/1", `{"type":"PORTAL_LIVE","branch":"master"}`); r.Status != 409 || !strings.Contains(r.Body, "LIVE_PREVIEW_UNAVAILABLE") {
		t.Fatalf("live preview of a branch the workspace is not on: %d %s", r.Status, r.Body)
	}

	// An inactive portal cannot be previewed, and its links stop.
	if r := admin.Do("PUT", "/portal/deactivate/1/1", `{"reason":"end of season"}`); r.Status/100 != 2 {
		t.Fatalf("deactivate: %d %s", r.Status, r.Body)
	}
	if r := admin.Do("POST", "/preview/1/1", `{"type":"PORTAL_LOCKED"}`); r.Status != 409 || !strings.Contains(r.Body, "An inactive portal cannot be previewed.") {
		t.Fatalf("preview of an inactive portal: %d %s", r.Status, r.Body)
	}
	time.Sleep(3100 * time.Millisecond) // the viewer's checks are trusted for 3 s
	if r := open(locked.Link); r.Status != 409 || !strings.Contains(r.Body, "An inactive portal cannot be previewed.") {
		t.Fatalf("link of an inactive portal: %d %s", r.Status, r.Body)
	}
	if r := admin.Do("PUT", "/portal/activate/1/1", ""); r.Status/100 != 2 {
		t.Fatalf("activate: %d %s", r.Status, r.Body)
	}

	// Expiry: with the clock an hour and a second on, the link is gone.
	srv.app.shares.WithClock(func() time.Time { return time.Now().Add(time.Hour + time.Second) })
	if r := open(locked.Link); r.Status != 410 || !strings.Contains(r.Body, "This preview link has expired.") {
		t.Fatalf("expired link: %d %s", r.Status, r.Body)
	}
	srv.app.shares.Sweep(t.Context())
	if r := admin.Do("GET", "/preview/1/1/"+itoa(locked.ID), ""); r.Status != 404 {
		t.Fatalf("swept preview: %d %s", r.Status, r.Body)
	}
}

// TestSharedPreviewUniversal: a locked preview of the Passenger Portal (UNIVERSAL) is built
// in the sandbox from the snapshot and serves the build's output folder; a live one waits for
// the workspace's build.
func TestSharedPreviewUniversal(t *testing.T) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("bwrap is not installed (Debian: apt-get install bubblewrap)")
	}
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	admin := testkit.SignIn(t, srv.base, "admin", "admin-pass")
	if r := admin.Do("GET", "/portal/1/2/open", ""); r.Status != 200 {
		t.Fatalf("open: %d %s", r.Status, r.Body)
	}
	for _, typ := range []string{"PORTAL_LOCKED", "PORTAL_LIVE"} {
		r := admin.Do("POST", "/preview/1/2", `{"type":"`+typ+`"}`)
		if r.Status != http.StatusAccepted {
			t.Fatalf("create %s: %d %s", typ, r.Status, r.Body)
		}
		var p sharedPreview
		_ = json.Unmarshal([]byte(r.Body), &p)
		for deadline := time.Now().Add(2 * time.Minute); p.Status == "PROGRESS" && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			_ = json.Unmarshal([]byte(admin.Do("GET", "/preview/1/2/"+itoa(p.ID), "").Body), &p)
		}
		if p.Status != "READY" {
			t.Fatalf("%s preview: %+v", typ, p)
		}
		page := testkit.Call(t, "GET", strings.Split(p.Link, "#")[0], "", "")
		if page.Status != 200 || !strings.Contains(page.Body, "<html") {
			t.Fatalf("%s preview page: %d %.300s", typ, page.Status, page.Body)
		}
	}
}
