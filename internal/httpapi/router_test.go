package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/httpx"
)

type fakeFeature []httpx.Route

func (f fakeFeature) Routes() []httpx.Route { return f }

// tokenAuth accepts "admin" and "user" as tokens.
type tokenAuth struct{}

func (tokenAuth) Authenticate(_ context.Context, token string) (caller.Caller, error) {
	switch token {
	case "admin":
		return caller.Caller{UserID: 1, Username: "admin", Admin: true}, nil
	case "user":
		return caller.Caller{UserID: 2, Username: "user"}, nil
	case "":
		return caller.Caller{}, apperr.Unauthorized("UNAUTHORIZED", "No JWT present")
	}
	return caller.Caller{}, apperr.Unauthorized("UNAUTHORIZED", "bad token")
}

type pinger struct{ err error }

func (p pinger) Ping(context.Context) error { return p.err }

func newTestServer(t *testing.T, db Pinger) *Server {
	t.Helper()
	return newTestServerWith(t, db, nil)
}

// newTestServerWith lets a test change the dependencies (metrics token, time-outs, routes).
func newTestServerWith(t *testing.T, db Pinger, change func(*Deps)) *Server {
	t.Helper()
	ok := func(w http.ResponseWriter, r *http.Request) error {
		p, _ := caller.From(r.Context())
		return httpx.JSON(w, http.StatusOK, map[string]any{"user": p.Username})
	}
	feature := fakeFeature{
		{Method: http.MethodGet, Pattern: "/open", Access: httpx.Public, Handler: ok},
		{Method: http.MethodGet, Pattern: "/mine", Access: httpx.Authenticated, Handler: ok},
		{Method: http.MethodGet, Pattern: "/admin-only", Access: httpx.AdminOnly, Handler: ok},
		{Method: http.MethodGet, Pattern: "/domains/{domain}/thing", Access: httpx.Requires("asset:w", "domain"), Handler: ok},
		{Method: http.MethodPost, Pattern: "/echo", Access: httpx.Public, Handler: func(w http.ResponseWriter, r *http.Request) error {
			var body map[string]any
			if err := httpx.Decode(r, &body); err != nil {
				return err
			}
			return httpx.JSON(w, http.StatusOK, body)
		}},
		{Method: http.MethodGet, Pattern: "/boom", Access: httpx.Public, Handler: func(http.ResponseWriter, *http.Request) error {
			panic("kaboom")
		}},
		{Method: http.MethodGet, Pattern: "/fails", Access: httpx.Public, Handler: func(w http.ResponseWriter, r *http.Request) error {
			return errors.New("database on fire")
		}},
	}
	web := fstest.MapFS{
		"index.html":                      {Data: []byte("<html>app</html>")},
		"version.json":                    {Data: []byte(`{"version":"3.4.10"}`)},
		"assets/index-AbCd1234.js":        {Data: []byte("console.log(1)")},
		"assets/config/probe.config.json": {Data: []byte("{}")},
	}
	d := Deps{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), DB: db, Auth: tokenAuth{}, Features: []httpx.Routes{feature}, Web: web}
	if change != nil {
		change(&d)
	}
	return New(d)
}

type errBody struct {
	ErrorTitle, ErrorMessage, ErrorCode, ErrorCodeDesc, RequestID string
	HTTPStatus                                                    int
}

func do(t *testing.T, h http.Handler, method, path, token, body string, hdr ...string) (*httptest.ResponseRecorder, errBody) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, rd)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var e errBody
	if rec.Code >= 400 {
		if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Fatalf("%s %s: error with content type %q", method, path, ct)
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
			t.Fatalf("%s %s: error body not JSON: %s", method, path, rec.Body)
		}
		if e.HTTPStatus != rec.Code || e.ErrorTitle == "" || e.ErrorMessage == "" || e.RequestID == "" {
			t.Fatalf("%s %s: incomplete error body: %s", method, path, rec.Body)
		}
		if e.RequestID != rec.Header().Get(RequestIDHeader) {
			t.Fatalf("error requestId %q differs from header %q", e.RequestID, rec.Header().Get(RequestIDHeader))
		}
	}
	return rec, e
}

func TestErrorPathsAnswerTheJSONErrorBody(t *testing.T) {
	s := newTestServer(t, pinger{})
	cases := []struct {
		name, method, path, token, body string
		status                          int
		code                            string
	}{
		{"unknown route", "GET", "/api/v1/nope", "", "", 404, "ROUTE_NOT_FOUND"},
		{"wrong method", "DELETE", "/api/v1/open", "", "", 405, "METHOD_NOT_ALLOWED"},
		{"bad JSON", "POST", "/api/v1/echo", "", "{bad", 400, "INVALID_JSON"},
		{"trailing JSON", "POST", "/api/v1/echo", "", `{"a":1} {"b":2}`, 400, "INVALID_JSON"},
		{"empty body", "POST", "/api/v1/echo", "", "", 400, "INVALID_JSON"},
		{"panic", "GET", "/api/v1/boom", "", "", 500, "INTERNAL_ERROR"},
		{"plain error", "GET", "/api/v1/fails", "", "", 500, "INTERNAL_ERROR"},
		{"no token", "GET", "/api/v1/mine", "", "", 401, "UNAUTHORIZED"},
		{"bad token", "GET", "/api/v1/mine", "forged", "", 401, "UNAUTHORIZED"},
		{"admin route as user", "GET", "/api/v1/admin-only", "user", "", 403, "FORBIDDEN"},
		{"permission route as user without authorizer", "GET", "/api/v1/domains/1/thing", "user", "", 403, "FORBIDDEN"},
		{"unknown static file", "GET", "/nope.js", "", "", 404, "NOT_FOUND"},
		{"static with POST", "POST", "/index.html", "", "", 405, "METHOD_NOT_ALLOWED"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, e := do(t, s, c.method, c.path, c.token, c.body)
			if rec.Code != c.status || e.ErrorCode != c.code {
				t.Fatalf("got %d %q, want %d %q: %s", rec.Code, e.ErrorCode, c.status, c.code, rec.Body)
			}
		})
	}
}

func TestPanicDoesNotLeakDetails(t *testing.T) {
	s := newTestServer(t, pinger{})
	rec, _ := do(t, s, "GET", "/api/v1/boom", "", "")
	if strings.Contains(rec.Body.String(), "kaboom") {
		t.Fatalf("panic value leaked to the client: %s", rec.Body)
	}
}

func TestAccessRules(t *testing.T) {
	s := newTestServer(t, pinger{})
	for _, c := range []struct {
		path, token string
		status      int
	}{
		{"/api/v1/open", "", 200},
		{"/api/v1/mine", "user", 200},
		{"/api/v1/admin-only", "admin", 200},
		{"/api/v1/domains/7/thing", "admin", 200}, // the admin flag bypasses permissions
	} {
		if rec, _ := do(t, s, "GET", c.path, c.token, ""); rec.Code != c.status {
			t.Errorf("GET %s as %q = %d, want %d", c.path, c.token, rec.Code, c.status)
		}
	}
}

func TestRegisteredRoutesAreListed(t *testing.T) {
	s := newTestServer(t, pinger{})
	found := false
	for _, r := range s.Routes {
		if r.Pattern == "/api/v1/domains/{domain}/thing" && r.Access.Permission == "asset:w" {
			found = true
		}
	}
	if !found || len(s.Routes) != 7 {
		t.Fatalf("routes = %+v", s.Routes)
	}
}

func TestRequestIDIsKeptOrMade(t *testing.T) {
	s := newTestServer(t, pinger{})
	rec, _ := do(t, s, "GET", "/api/v1/open", "", "", RequestIDHeader, "proxy-id-1")
	if got := rec.Header().Get(RequestIDHeader); got != "proxy-id-1" {
		t.Fatalf("incoming id not kept: %q", got)
	}
	rec, _ = do(t, s, "GET", "/api/v1/open", "", "", RequestIDHeader, "bad id with spaces")
	if got := rec.Header().Get(RequestIDHeader); got == "" || strings.Contains(got, " ") {
		t.Fatalf("unsafe incoming id not replaced: %q", got)
	}
}

func TestHealthReadinessAndMetrics(t *testing.T) {
	s := newTestServer(t, pinger{})
	if rec, _ := do(t, s, "GET", "/healthz", "", ""); rec.Code != 200 {
		t.Fatalf("healthz = %d", rec.Code)
	}
	if rec, _ := do(t, s, "GET", "/readyz", "", ""); rec.Code != 200 {
		t.Fatalf("readyz = %d", rec.Code)
	}
	down := newTestServer(t, pinger{err: errors.New("db down")})
	if rec, e := do(t, down, "GET", "/readyz", "", ""); rec.Code != 503 || e.ErrorCode != "DATABASE_UNAVAILABLE" {
		t.Fatalf("readyz with the database down = %d %s", rec.Code, e.ErrorCode)
	}

	s = newTestServerWith(t, pinger{}, func(d *Deps) { d.MetricsToken = "metrics-token-0123456789" })
	do(t, s, "GET", "/api/v1/open", "", "")
	do(t, s, "GET", "/api/v1/mine", "", "")
	rec, _ := do(t, s, "GET", "/metrics", "metrics-token-0123456789", "")
	body := rec.Body.String()
	for _, want := range []string{
		`portalwright_http_requests_total{method="GET",route="/api/v1/open",status="200"} 1`,
		`portalwright_http_requests_total{method="GET",route="/api/v1/mine",status="401"} 1`,
		`portalwright_http_request_duration_seconds_bucket{method="GET",route="/api/v1/open"`,
		`go_goroutines`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

func TestStaticCaching(t *testing.T) {
	s := newTestServer(t, pinger{})
	for path, want := range map[string]string{
		"/":                                "no-cache",
		"/index.html":                      "no-cache",
		"/version.json":                    "no-cache",
		"/assets/config/probe.config.json": "no-cache",
		"/assets/index-AbCd1234.js":        "public, max-age=31536000, immutable",
	} {
		rec, _ := do(t, s, "GET", path, "", "")
		if rec.Code != 200 || rec.Header().Get("Cache-Control") != want {
			t.Errorf("GET %s = %d, Cache-Control %q, want %q", path, rec.Code, rec.Header().Get("Cache-Control"), want)
		}
	}
	if rec, _ := do(t, s, "GET", "/../../etc/passwd", "", ""); rec.Code != 404 {
		t.Errorf("path traversal answered %d", rec.Code)
	}
}

func TestAccessLogRedactsURLTokens(t *testing.T) {
	var logged bytes.Buffer
	feature := fakeFeature{{Method: http.MethodGet, Pattern: "/preview/{token}/{domainId}/x", Access: httpx.Public,
		Handler: func(w http.ResponseWriter, r *http.Request) error { return httpx.NoContent(w) }}}
	h := newTestServerWith(t, pinger{}, func(d *Deps) {
		d.Logger = slog.New(slog.NewTextHandler(&logged, nil))
		d.Features = []httpx.Routes{feature}
	})
	const token = "pwp_SECRETSECRETSECRETSECRET"
	do(t, h, "GET", "/api/v1/preview/"+token+"/1/x", "", "")
	if strings.Contains(logged.String(), token) || !strings.Contains(logged.String(), "pwp_SE…") {
		t.Fatalf("the log must hold a short prefix only: %s", logged.String())
	}
}

// /api/docs sends the browser to the API page of the web build, relative to where it is.
func TestAPIDocsPageRedirect(t *testing.T) {
	s := newTestServer(t, pinger{})
	rec, _ := do(t, s, http.MethodGet, "/api/docs", "", "")
	if rec.Code != http.StatusFound || rec.Header().Get("Location") != "../api-docs.html" {
		t.Fatalf("GET /api/docs = %d %q", rec.Code, rec.Header().Get("Location"))
	}
	if rec, _ := do(t, s, http.MethodGet, "/api/docsx", "", ""); rec.Code != http.StatusNotFound {
		t.Fatalf("GET /api/docsx = %d, want 404", rec.Code)
	}
}
