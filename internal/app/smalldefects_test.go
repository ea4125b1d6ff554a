package app

import (
	"encoding/json"
	"net"
	"strings"
	"testing"

	"portalwright/internal/testkit"
	"portalwright/internal/validate"
)

// freeAddr is a loopback address that was free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// Issue 8 item 8 over HTTP on a real server: git URLs to internal hosts, branch names git
// refuses, oversized and null JSON bodies, security headers and /metrics.
func TestSmallDefects(t *testing.T) {
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	cfg.MetricsAddr = freeAddr(t)
	srv := start(t, cfg)
	admin := testkit.Login(t, srv.base, "admin", "admin-pass")
	api := srv.base + "/api/v1"

	t.Run("git URLs to internal hosts are refused", func(t *testing.T) {
		for _, url := range []string{"git://127.0.0.1:9/portal.git", "https://10.0.0.8/team/portal.git", "git://localhost:9/portal.git",
			"http://169.254.169.254/latest.git", "git@127.0.0.1:portal.git"} {
			got := testkit.Call(t, "POST", api+"/portal_branch/branches/url/1", admin, `{"gitUrl":"`+url+`"}`)
			if got.Status != 400 || got.Code != "GIT_HOST_NOT_ALLOWED" ||
				got.Message != "This git URL points to a private or local network address, which this server does not fetch from. Ask your administrator to allow private git hosts." {
				t.Errorf("branches/url %s: %d %s", url, got.Status, got.Body)
			}
			got = testkit.Call(t, "POST", api+"/portal/create_url/1", admin, `{"portal":{"name":"Remote","type":"CREW","scope":"FULL","url":"`+url+`"}}`)
			if got.Status != 400 || got.Code != "GIT_HOST_NOT_ALLOWED" {
				t.Errorf("create_url %s: %d %s", url, got.Status, got.Body)
			}
		}
		if got := testkit.Call(t, "GET", api+"/portal/1", admin, ""); strings.Contains(got.Body, `"Remote"`) {
			t.Fatalf("a refused import created a portal: %s", got.Body)
		}
	})

	t.Run("branch names git refuses answer the spec's message", func(t *testing.T) {
		before := testkit.Call(t, "GET", api+"/portal/1/1/branches", admin, "")
		for _, name := range []string{"HEAD", "FETCH_HEAD", "ORIG_HEAD", "MERGE_HEAD", "refs/heads/x", "origin/master", "remotes/x", "@", "a@{1}", "a.lock/b", "a/.b"} {
			body, _ := json.Marshal(map[string]string{"name": name})
			got := testkit.Call(t, "POST", api+"/portal/1/1/branches", admin, string(body))
			if got.Status != 400 || got.Message != validate.MsgBranchName {
				t.Errorf("create branch %q: %d %s", name, got.Status, got.Body)
			}
		}
		if after := testkit.Call(t, "GET", api+"/portal/1/1/branches", admin, ""); after.Body != before.Body {
			t.Fatalf("branches changed: %s -> %s", before.Body, after.Body)
		}
		if got := testkit.Call(t, "GET", api+"/portal/1/1/open?branch=HEAD", admin, ""); got.Status != 400 || got.Code != "INVALID_BRANCH_NAME" {
			t.Fatalf("open HEAD: %d %s", got.Status, got.Body)
		}
	})

	t.Run("a JSON body over the limit is a 413", func(t *testing.T) {
		big := `{"name":"` + strings.Repeat("x", 2<<20) + `"}`
		got := testkit.Call(t, "POST", api+"/portal/1/1/branches", admin, big)
		if got.Status != 413 || got.Code != "BODY_TOO_LARGE" {
			t.Fatalf("2 MiB body: %d %.300s", got.Status, got.Body)
		}
	})

	t.Run("PUT /settings with null changes nothing", func(t *testing.T) {
		if got := testkit.Call(t, "GET", api+"/portal/1/1/open", admin, ""); got.Status != 200 {
			t.Fatalf("open: %d %s", got.Status, got.Body)
		}
		read := testkit.Call(t, "GET", api+"/settings/1/1", admin, "")
		etag := read.Header.Get("ETag")
		for _, body := range []string{"null", " null "} {
			got := testkit.Call(t, "PUT", api+"/settings/1/1", admin, body, "If-Match", etag)
			if got.Status != 400 || got.Code != "INVALID_JSON" {
				t.Fatalf("PUT settings %q: %d %s", body, got.Status, got.Body)
			}
		}
		again := testkit.Call(t, "GET", api+"/settings/1/1", admin, "")
		if again.Body != read.Body || again.Header.Get("ETag") != etag {
			t.Fatalf("settings changed by a null body:\n%s\n%s", read.Body, again.Body)
		}
		if changes := testkit.Call(t, "GET", api+"/portal/1/1/local-changes", admin, ""); strings.Contains(changes.Body, "portal.json") {
			t.Fatalf("a null body left a local change: %s", changes.Body)
		}
	})

	t.Run("security headers on the app, the API and errors", func(t *testing.T) {
		for _, path := range []string{"/", "/index.html", "/api/v1/user/profile", "/api/v1/nope", "/healthz"} {
			got := testkit.Call(t, "GET", srv.base+path, admin, "")
			h := got.Header
			if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") || !strings.Contains(csp, "script-src 'self'") {
				t.Errorf("%s: CSP %q", path, csp)
			}
			if h.Get("X-Frame-Options") != "DENY" || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") == "" {
				t.Errorf("%s: headers %v", path, h)
			}
		}
	})

	t.Run("metrics only on the operator's address", func(t *testing.T) {
		if got := testkit.Call(t, "GET", srv.base+"/metrics", "", ""); got.Status != 404 || strings.Contains(got.Body, "portalwright_http_requests_total") {
			t.Fatalf("public /metrics: %d %.200s", got.Status, got.Body)
		}
		got := testkit.Call(t, "GET", "http://"+cfg.MetricsAddr+"/metrics", "", "")
		if got.Status != 200 || !strings.Contains(got.Body, "portalwright_http_requests_total") {
			t.Fatalf("metrics address: %d %.200s", got.Status, got.Body)
		}
		if got := testkit.Call(t, "GET", "http://"+cfg.MetricsAddr+"/healthz", "", ""); got.Status != 404 {
			t.Fatalf("the metrics address serves only /metrics: %d", got.Status)
		}
	})
}

// The operator's switch: with private git hosts allowed, a loopback URL reaches git (here a
// closed port: unreachable) instead of being refused.
func TestAllowPrivateGitHosts(t *testing.T) {
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	cfg.AllowPrivateGitHosts = true
	srv := start(t, cfg)
	admin := testkit.Login(t, srv.base, "admin", "admin-pass")
	port := strings.TrimPrefix(freeAddr(t), "127.0.0.1:")
	got := testkit.Call(t, "POST", srv.base+"/api/v1/portal_branch/branches/url/1", admin, `{"gitUrl":"git://127.0.0.1:`+port+`/portal.git"}`)
	if got.Status != 400 || got.Code == "GIT_HOST_NOT_ALLOWED" || !strings.Contains(got.Message, "could not be reached") {
		t.Fatalf("allowed loopback URL: %d %s", got.Status, got.Body)
	}
}

// Issue 24 item 9 over HTTP: a path through a file names nothing (404, not a git error), ids
// are digits only (DELETE /domain/+1 deleted domain 1).
func TestPathsThroughFilesAndSignedIDs(t *testing.T) {
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	admin := testkit.Login(t, srv.base, "admin", "admin-pass")
	api := srv.base + "/api/v1"
	if got := testkit.Call(t, "GET", api+"/portal/1/1/open", admin, ""); got.Status != 200 {
		t.Fatalf("open: %d %s", got.Status, got.Body)
	}
	for _, p := range []string{"/assets/1/1/src/index.html/x", "/assets/1/1/src/index.html/x?meta=1", "/assets/1/1/src/info/index.html/x"} {
		if got := testkit.Call(t, "GET", api+p, admin, ""); got.Status != 404 && got.Status != 400 {
			t.Errorf("GET %s: %d %s", p, got.Status, got.Body)
		}
	}
	if got := testkit.Call(t, "POST", api+"/assets/1/1/src/index.html/x.css", admin, `{"data":"a"}`); got.Status == 200 || got.Status >= 500 {
		t.Errorf("save through a file: %d %s", got.Status, got.Body)
	}
	for _, id := range []string{"+1", "%2B1", "01x", "1e0"} {
		if got := testkit.Call(t, "DELETE", api+"/domain/"+id, admin, ""); got.Status != 400 {
			t.Errorf("DELETE /domain/%s: %d %s", id, got.Status, got.Body)
		}
	}
	if got := testkit.Call(t, "GET", api+"/portal/1", admin, ""); got.Status != 200 {
		t.Fatalf("domain 1 must still be there: %d %s", got.Status, got.Body)
	}
}
