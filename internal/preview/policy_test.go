package preview

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
)

// Every answer carries the connection allowlist next to its policy: the answer's own origin,
// no WebRTC (which no CSP directive governs in Chromium); a document's takes in the
// whitelist's origins as URL patterns, as its policy does.
func TestPolicyHeaders(t *testing.T) {
	pol := appPolicy(sandboxFrame)
	w := httptest.NewRecorder()
	pol.setHeaders(w)
	h := w.Header()
	if got := h.Get("Connection-Allowlist"); got != "(response-origin);webrtc=block;redirects=allow" {
		t.Errorf("Connection-Allowlist: %q", got)
	}
	want := "sandbox allow-scripts allow-forms allow-modals; default-src 'self' 'unsafe-inline' 'unsafe-eval' data: blob:; " +
		"connect-src 'self'; frame-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'"
	if got := h.Get("Content-Security-Policy"); got != want {
		t.Errorf("Content-Security-Policy:\n got %s\nwant %s", got, want)
	}
	if h.Get("Referrer-Policy") != "no-referrer" || h.Get("X-DNS-Prefetch-Control") != "off" || h.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("headers: %v", h)
	}

	whitelist := func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(`{"whitelist":[{"url":"https://cdn.example.com/lib/a.js"},{"url":"https://*.tiles.example:8443/x"},` +
			`{"url":"https://evil.example\" \"https://*/*"}]}`)), nil
	}
	pol.withWhitelist(w, "text/html; charset=utf-8", whitelist)
	if got := h.Get("Connection-Allowlist"); got != `(response-origin "https://cdn.example.com/*" "https://*.tiles.example:8443/*");webrtc=block;redirects=allow` {
		t.Errorf("a document's Connection-Allowlist: %s", got)
	}
	if got := h.Get("Content-Security-Policy"); !strings.Contains(got, "connect-src 'self' https://cdn.example.com https://*.tiles.example:8443;") {
		t.Errorf("a document's Content-Security-Policy: %s", got)
	}

	// Not a document: the headers stay as they were set (no whitelist read).
	w = httptest.NewRecorder()
	pol.setHeaders(w)
	pol.withWhitelist(w, "application/json", whitelist)
	if got := w.Header().Get("Connection-Allowlist"); got != "(response-origin);webrtc=block;redirects=allow" {
		t.Errorf("not a document: %q", got)
	}
}
