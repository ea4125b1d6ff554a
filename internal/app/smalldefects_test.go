package app

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

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

type reply struct {
	status int
	header http.Header
	body   string
	code   string
	msg    string
}

func send(t *testing.T, method, url, token, body string, hdr ...string) reply {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, url, rd)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var e struct{ ErrorCode, ErrorMessage string }
	_ = json.Unmarshal(data, &e)
	return reply{resp.StatusCode, resp.Header, string(data), e.ErrorCode, e.ErrorMessage}
}

// Issue 8 item 8 over HTTP on a real server: git URLs to internal hosts, branch names git
// refuses, oversized and null JSON bodies, security headers and /metrics.
func TestSmallDefects(t *testing.T) {
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	cfg.MetricsAddr = freeAddr(t)
	srv := start(t, cfg)
	admin := login(t, srv.base, "admin", "admin-pass")
	api := srv.base + "/api/v1"

	t.Run("git URLs to internal hosts are refused", func(t *testing.T) {
		for _, url := range []string{"git://127.0.0.1:9/portal.git", "https://10.0.0.8/team/portal.git", "git://localhost:9/portal.git",
			"http://169.254.169.254/latest.git", "git@127.0.0.1:portal.git"} {
			got := send(t, "POST", api+"/portal_branch/branches/url/1", admin, `{"gitUrl":"`+url+`"}`)
			if got.status != 400 || got.code != "GIT_HOST_NOT_ALLOWED" ||
				got.msg != "This git URL points to a private or local network address, which this server does not fetch from. Ask your administrator to allow private git hosts." {
				t.Errorf("branches/url %s: %d %s", url, got.status, got.body)
			}
			got = send(t, "POST", api+"/portal/create_url/1", admin, `{"portal":{"name":"Remote","type":"CREW","scope":"FULL","url":"`+url+`"}}`)
			if got.status != 400 || got.code != "GIT_HOST_NOT_ALLOWED" {
				t.Errorf("create_url %s: %d %s", url, got.status, got.body)
			}
		}
		if got := send(t, "GET", api+"/portal/1", admin, ""); strings.Contains(got.body, `"Remote"`) {
			t.Fatalf("a refused import created a portal: %s", got.body)
		}
	})

	t.Run("branch names git refuses answer the spec's message", func(t *testing.T) {
		before := send(t, "GET", api+"/portal/1/1/branches", admin, "")
		for _, name := range []string{"HEAD", "FETCH_HEAD", "ORIG_HEAD", "MERGE_HEAD", "refs/heads/x", "origin/master", "remotes/x", "@", "a@{1}", "a.lock/b", "a/.b"} {
			body, _ := json.Marshal(map[string]string{"name": name})
			got := send(t, "POST", api+"/portal/1/1/branches", admin, string(body))
			if got.status != 400 || got.msg != validate.MsgBranchName {
				t.Errorf("create branch %q: %d %s", name, got.status, got.body)
			}
		}
		if after := send(t, "GET", api+"/portal/1/1/branches", admin, ""); after.body != before.body {
			t.Fatalf("branches changed: %s -> %s", before.body, after.body)
		}
		if got := send(t, "GET", api+"/portal/1/1/open?branch=HEAD", admin, ""); got.status != 400 || got.code != "INVALID_BRANCH_NAME" {
			t.Fatalf("open HEAD: %d %s", got.status, got.body)
		}
	})

	t.Run("a JSON body over the limit is a 413", func(t *testing.T) {
		big := `{"name":"` + strings.Repeat("x", 2<<20) + `"}`
		got := send(t, "POST", api+"/portal/1/1/branches", admin, big)
		if got.status != 413 || got.code != "BODY_TOO_LARGE" {
			t.Fatalf("2 MiB body: %d %.300s", got.status, got.body)
		}
	})

	t.Run("PUT /settings with null changes nothing", func(t *testing.T) {
		if got := send(t, "GET", api+"/portal/1/1/open", admin, ""); got.status != 200 {
			t.Fatalf("open: %d %s", got.status, got.body)
		}
		read := send(t, "GET", api+"/settings/1/1", admin, "")
		etag := read.header.Get("ETag")
		for _, body := range []string{"null", " null "} {
			got := send(t, "PUT", api+"/settings/1/1", admin, body, "If-Match", etag)
			if got.status != 400 || got.code != "INVALID_JSON" {
				t.Fatalf("PUT settings %q: %d %s", body, got.status, got.body)
			}
		}
		again := send(t, "GET", api+"/settings/1/1", admin, "")
		if again.body != read.body || again.header.Get("ETag") != etag {
			t.Fatalf("settings changed by a null body:\n%s\n%s", read.body, again.body)
		}
		if changes := send(t, "GET", api+"/portal/1/1/local-changes", admin, ""); strings.Contains(changes.body, "portal.json") {
			t.Fatalf("a null body left a local change: %s", changes.body)
		}
	})

	t.Run("security headers on the app, the API and errors", func(t *testing.T) {
		for _, path := range []string{"/", "/index.html", "/api/v1/user/profile", "/api/v1/nope", "/healthz"} {
			got := send(t, "GET", srv.base+path, admin, "")
			h := got.header
			if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") || !strings.Contains(csp, "script-src 'self'") {
				t.Errorf("%s: CSP %q", path, csp)
			}
			if h.Get("X-Frame-Options") != "DENY" || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") == "" {
				t.Errorf("%s: headers %v", path, h)
			}
		}
	})

	t.Run("metrics only on the operator's address", func(t *testing.T) {
		if got := send(t, "GET", srv.base+"/metrics", "", ""); got.status != 404 || strings.Contains(got.body, "portalwright_http_requests_total") {
			t.Fatalf("public /metrics: %d %.200s", got.status, got.body)
		}
		got := send(t, "GET", "http://"+cfg.MetricsAddr+"/metrics", "", "")
		if got.status != 200 || !strings.Contains(got.body, "portalwright_http_requests_total") {
			t.Fatalf("metrics address: %d %.200s", got.status, got.body)
		}
		if got := send(t, "GET", "http://"+cfg.MetricsAddr+"/healthz", "", ""); got.status != 404 {
			t.Fatalf("the metrics address serves only /metrics: %d", got.status)
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
	admin := login(t, srv.base, "admin", "admin-pass")
	port := strings.TrimPrefix(freeAddr(t), "127.0.0.1:")
	got := send(t, "POST", srv.base+"/api/v1/portal_branch/branches/url/1", admin, `{"gitUrl":"git://127.0.0.1:`+port+`/portal.git"}`)
	if got.status != 400 || got.code == "GIT_HOST_NOT_ALLOWED" || !strings.Contains(got.msg, "could not be reached") {
		t.Fatalf("allowed loopback URL: %d %s", got.status, got.body)
	}
}
