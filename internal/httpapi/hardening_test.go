package httpapi

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"portalwright/internal/apperr"
	"portalwright/internal/httpx"
)

// A JSON body over the limit is a 413 with its own message, whether or not the client said
// its length up front; a body of exactly the limit is fine.
func TestJSONBodyOverTheLimitIs413(t *testing.T) {
	s := newTestServer(t, pinger{})
	filler := func(total int) string { // a valid JSON object of exactly total bytes
		return `{"a":"` + strings.Repeat("x", total-len(`{"a":""}`)) + `"}`
	}
	over := filler(httpx.MaxJSONBody + 10)
	rec, e := do(t, s, "POST", "/api/v1/echo", "", over)
	if rec.Code != http.StatusRequestEntityTooLarge || e.ErrorCode != "BODY_TOO_LARGE" || !strings.Contains(e.ErrorMessage, "larger than the limit") {
		t.Fatalf("over the limit with Content-Length: %d %s", rec.Code, rec.Body)
	}
	// Without a Content-Length (chunked): the limit is found while reading.
	req := httptest.NewRequest("POST", "/api/v1/echo", io.MultiReader(strings.NewReader(over)))
	req.Header.Set("Content-Type", "application/json")
	if req.ContentLength != 0 && req.ContentLength != -1 {
		t.Fatalf("the request must not know its length: %d", req.ContentLength)
	}
	rw := httptest.NewRecorder()
	s.ServeHTTP(rw, req)
	if rw.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rw.Body.String(), "BODY_TOO_LARGE") {
		t.Fatalf("over the limit without Content-Length: %d %s", rw.Code, rw.Body)
	}
	// Garbage over the limit is still "too large", not "not valid JSON".
	if rec, e := do(t, s, "POST", "/api/v1/echo", "", "{"+strings.Repeat(" ", httpx.MaxJSONBody)); rec.Code != 413 || e.ErrorCode != "BODY_TOO_LARGE" {
		t.Fatalf("long garbage: %d %s", rec.Code, e.ErrorCode)
	}
	if rec, _ := do(t, s, "POST", "/api/v1/echo", "", filler(httpx.MaxJSONBody)); rec.Code != http.StatusOK {
		t.Fatalf("a body of exactly the limit = %d %.200s", rec.Code, rec.Body)
	}
}

// A JSON null is refused (it decoded to the zero value: PUT /settings with null reset a
// portal's settings to the defaults).
func TestNullBodyIsRefused(t *testing.T) {
	s := newTestServer(t, pinger{})
	for _, body := range []string{"null", " null\n", "\tnull "} {
		rec, e := do(t, s, "POST", "/api/v1/echo", "", body)
		if rec.Code != http.StatusBadRequest || e.ErrorCode != "INVALID_JSON" || !strings.Contains(e.ErrorMessage, "null") {
			t.Errorf("body %q: %d %s", body, rec.Code, rec.Body)
		}
	}
	for _, body := range []string{"nul", "nullx", "null null"} {
		if rec, e := do(t, s, "POST", "/api/v1/echo", "", body); rec.Code != http.StatusBadRequest || e.ErrorCode != "INVALID_JSON" {
			t.Errorf("body %q: %d %s", body, rec.Code, rec.Body)
		}
	}
	if rec, _ := do(t, s, "POST", "/api/v1/echo", "", `{"a":null}`); rec.Code != http.StatusOK {
		t.Errorf("null inside an object = %d", rec.Code)
	}
}

// Every answer — API JSON, API errors, health, static files — carries the security headers.
func TestSecurityHeaders(t *testing.T) {
	s := newTestServer(t, pinger{})
	for _, c := range []struct{ method, path, token string }{
		{"GET", "/api/v1/open", ""},
		{"GET", "/api/v1/mine", ""},
		{"GET", "/api/v1/nope", ""},
		{"GET", "/api/v1/boom", ""},
		{"GET", "/healthz", ""},
		{"GET", "/", ""},
		{"GET", "/index.html", ""},
		{"GET", "/assets/index-AbCd1234.js", ""},
		{"GET", "/nope.js", ""},
	} {
		rec, _ := do(t, s, c.method, c.path, c.token, "")
		h := rec.Header()
		csp := h.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'",
			"img-src 'self' data: blob:", "connect-src 'self'", "frame-ancestors 'none'", "base-uri 'self'",
			"form-action 'self'", "object-src 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s %s: CSP %q lacks %q", c.method, c.path, csp, want)
			}
		}
		for _, dir := range strings.Split(csp, ";") {
			if d := strings.TrimSpace(dir); strings.HasPrefix(d, "script-src") && d != "script-src 'self'" {
				t.Errorf("%s %s: scripts only from the app's files: %q", c.method, c.path, d)
			}
		}
		if strings.Contains(csp, "unsafe-eval") {
			t.Errorf("%s %s: no eval: %q", c.method, c.path, csp)
		}
		for k, want := range map[string]string{"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff",
			"Referrer-Policy": "strict-origin-when-cross-origin"} {
			if got := h.Get(k); got != want {
				t.Errorf("%s %s: %s = %q, want %q", c.method, c.path, k, got, want)
			}
		}
	}
}

// /metrics is not on the public address without its token; with a token it needs the token;
// Server.Metrics serves them for a separate operator address.
func TestMetricsAreForOperatorsOnly(t *testing.T) {
	s := newTestServer(t, pinger{})
	if rec, _ := do(t, s, "GET", "/metrics", "", ""); rec.Code != http.StatusNotFound || strings.Contains(rec.Body.String(), "go_goroutines") {
		t.Fatalf("public /metrics without a token = %d %.200s", rec.Code, rec.Body)
	}
	rec := httptest.NewRecorder()
	s.Metrics.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "go_goroutines") {
		t.Fatalf("Server.Metrics = %d", rec.Code)
	}

	const token = "metrics-token-0123456789"
	s = newTestServerWith(t, pinger{}, func(d *Deps) { d.MetricsToken = token })
	for _, bad := range []string{"", "user", "admin", token + "x", token[:10]} {
		rec, e := do(t, s, "GET", "/metrics", bad, "")
		if rec.Code != http.StatusUnauthorized || e.ErrorCode != "UNAUTHORIZED" || strings.Contains(rec.Body.String(), "go_goroutines") {
			t.Errorf("token %q: %d %.200s", bad, rec.Code, rec.Body)
		}
	}
	if rec, _ := do(t, s, "GET", "/metrics", token, ""); rec.Code != 200 || !strings.Contains(rec.Body.String(), "go_goroutines") {
		t.Fatalf("with the token: %d", rec.Code)
	}
}

// slowServer is a real HTTP server (the time-outs live on the connection) around the test
// router with a short body time-out and routes for the cases below.
func slowServer(t *testing.T, timeout time.Duration) *httptest.Server {
	t.Helper()
	s := newTestServerWith(t, pinger{}, func(d *Deps) {
		d.BodyReadTimeout = timeout
		d.Features = append(d.Features, fakeFeature{
			// Reads the body, then works for longer than the time-out: it must not be cancelled.
			{Method: http.MethodPost, Pattern: "/slow-work", Access: httpx.Public, Handler: func(w http.ResponseWriter, r *http.Request) error {
				var body map[string]any
				if err := httpx.Decode(r, &body); err != nil {
					return err
				}
				select {
				case <-time.After(3 * timeout):
					return httpx.JSON(w, http.StatusOK, map[string]any{"done": true})
				case <-r.Context().Done():
					return fmt.Errorf("cancelled: %w", r.Context().Err())
				}
			}},
			// An upload-like handler: reads everything, however long it takes.
			{Method: http.MethodPut, Pattern: "/upload", Access: httpx.Public, Handler: func(w http.ResponseWriter, r *http.Request) error {
				n, err := io.Copy(io.Discard, r.Body)
				if err != nil {
					return apperr.NewError(http.StatusRequestTimeout, "REQUEST_TIMEOUT", "Request Timeout", err.Error())
				}
				return httpx.JSON(w, http.StatusOK, map[string]int64{"bytes": n})
			}},
			// A long-lived upgraded connection (as the WebSocket): echoes lines.
			{Method: http.MethodGet, Pattern: "/echo-socket", Access: httpx.Public, Handler: func(w http.ResponseWriter, r *http.Request) error {
				conn, brw, err := http.NewResponseController(w).Hijack()
				if err != nil {
					return err
				}
				defer conn.Close()
				brw.WriteString("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n")
				brw.Flush()
				for {
					line, err := brw.ReadString('\n')
					if err != nil {
						return nil
					}
					brw.WriteString(line)
					brw.Flush()
				}
			}},
		})
	})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return srv
}

func dial(t *testing.T, srv *httptest.Server) (net.Conn, *bufio.Reader) {
	t.Helper()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.SetDeadline(time.Now().Add(20 * time.Second)) // the test's own safety net
	return conn, bufio.NewReader(conn)
}

// A body that stops arriving is answered 408 after the time-out (before, the server waited
// for ever); a body that keeps arriving is read to the end however long it takes in total.
func TestSlowBodiesTimeOutPerChunk(t *testing.T) {
	const timeout = 300 * time.Millisecond
	srv := slowServer(t, timeout)

	t.Run("stalled JSON body", func(t *testing.T) {
		conn, rd := dial(t, srv)
		start := time.Now()
		fmt.Fprintf(conn, "POST /api/v1/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{\"a\":")
		res, err := http.ReadResponse(rd, nil)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(body), "REQUEST_TIMEOUT") {
			t.Fatalf("stalled body: %d %s", res.StatusCode, body)
		}
		if el := time.Since(start); el < timeout || el > 10*timeout {
			t.Fatalf("answered after %s, want about %s", el, timeout)
		}
	})

	t.Run("steady upload longer than the time-out", func(t *testing.T) {
		conn, rd := dial(t, srv)
		chunks := 8 // 8 × timeout/3 ≈ 2.7 × the time-out in total
		fmt.Fprintf(conn, "PUT /api/v1/upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n", chunks*1000)
		start := time.Now()
		for i := 0; i < chunks; i++ {
			time.Sleep(timeout / 3)
			if _, err := conn.Write([]byte(strings.Repeat("u", 1000))); err != nil {
				t.Fatalf("chunk %d: %v", i, err)
			}
		}
		res, err := http.ReadResponse(rd, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]int64
		json.NewDecoder(res.Body).Decode(&got)
		if res.StatusCode != 200 || got["bytes"] != int64(chunks*1000) || time.Since(start) < 2*timeout {
			t.Fatalf("steady upload: %d %v after %s", res.StatusCode, got, time.Since(start))
		}
	})

	t.Run("work after the body is not cancelled", func(t *testing.T) {
		res, err := http.Post(srv.URL+"/api/v1/slow-work", "application/json", strings.NewReader(`{"a":1}`))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !strings.Contains(string(body), `"done":true`) {
			t.Fatalf("long handler after the body: %d %s", res.StatusCode, body)
		}
	})

	t.Run("an upgraded connection lives past every time-out", func(t *testing.T) {
		conn, rd := dial(t, srv)
		fmt.Fprintf(conn, "GET /api/v1/echo-socket HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n")
		res, err := http.ReadResponse(rd, nil)
		if err != nil || res.StatusCode != http.StatusSwitchingProtocols {
			t.Fatalf("upgrade: %v %v", res, err)
		}
		for i := 0; i < 2; i++ {
			time.Sleep(2 * timeout)
			fmt.Fprintf(conn, "ping %d\n", i)
			line, err := rd.ReadString('\n')
			if err != nil || line != fmt.Sprintf("ping %d\n", i) {
				t.Fatalf("echo after %d idle periods: %q %v", i+1, line, err)
			}
		}
	})

	t.Run("a keep-alive connection serves the next request normally", func(t *testing.T) {
		conn, rd := dial(t, srv)
		for i := 0; i < 2; i++ {
			fmt.Fprintf(conn, "POST /api/v1/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}")
			res, err := http.ReadResponse(rd, nil)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, res.Body)
			if res.StatusCode != 200 {
				t.Fatalf("request %d: %d", i, res.StatusCode)
			}
			time.Sleep(2 * timeout) // longer than the body time-out, shorter than the idle time-out
		}
	})
}
