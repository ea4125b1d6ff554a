package httpapi

import (
	"crypto/sha256"
	"crypto/subtle"
	"io"
	"net/http"
	"strings"
	"time"

	"portalwright/internal/apperr"
	"portalwright/internal/httpx"
)

// appCSP is the content security policy of the web app and of every API answer. Scripts come
// only from the app's own files (Vite emits no inline script); styles may be inline because
// MUI (emotion) injects <style> elements at run time; images may be data: or blob: URLs
// (icons, previews of files being uploaded); the app talks only to its own origin, the
// WebSocket included ('self' covers ws:/wss: to the same host in CSP 3 browsers); nothing may
// frame the app.
const appCSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
	"font-src 'self' data:; connect-src 'self'; frame-src 'self'; worker-src 'self' blob:; manifest-src 'self'; " +
	"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// appHeaders are the security headers of the app and the API.
var appHeaders = map[string]string{
	"Content-Security-Policy": appCSP,
	"X-Frame-Options":         "DENY",
	"X-Content-Type-Options":  "nosniff",
	"Referrer-Policy":         "strict-origin-when-cross-origin",
	"Permissions-Policy":      "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
}

// securityHeaders sets the security headers before the handler runs, so every answer carries
// them: API JSON, errors, static files, panics. Answers that need a policy of their own
// (documents, thumbnails, the preview frame's files) replace the header in their handler,
// which runs after this, rather than loosening appHeaders. frameSrc, when it names an origin
// for a request, is the frame origin (--frame-addr) the app's pages may frame besides their own.
func securityHeaders(frameSrc func(*http.Request) string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			for k, v := range appHeaders {
				h.Set(k, v)
			}
			if frameSrc != nil {
				if o := frameSrc(r); o != "" {
					h.Set("Content-Security-Policy", strings.Replace(appCSP, "frame-src 'self'", "frame-src 'self' "+o, 1))
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

// frameOriginHeaders are the frame origin's own defaults (its handlers set the frame's policy):
// nothing loads, nothing frames it, no referrer.
func frameOriginHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; sandbox")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		next.ServeHTTP(w, r)
	})
}

// DefaultBodyReadTimeout is how long the server waits for the next piece of a request body.
const DefaultBodyReadTimeout = 30 * time.Second

// bodyReadTimeout bounds how long a request body may stall, not how long it may take: the
// read deadline is set to now+d when the handler starts and moved to now+d again each time
// data arrives. A JSON call (at most 1 MiB) that stops sending for d ends with 408, while an
// upload of any size that keeps sending is never cut off. When the body has been read to the
// end the deadline is cleared, so a handler that works long afterwards (an import) is not
// disturbed by net/http's background read of the connection. Requests without a body are
// untouched; connection upgrades (the WebSocket at /api/v1/ws) get every deadline cleared,
// since they live for hours and keep themselves alive with pings. Header and idle time-outs
// are the http.Server's (internal/app).
func bodyReadTimeout(d time.Duration) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rc := http.NewResponseController(w)
			switch {
			case isUpgrade(r):
				_ = rc.SetReadDeadline(time.Time{})
				_ = rc.SetWriteDeadline(time.Time{})
			case d > 0 && r.Body != nil && r.Body != http.NoBody:
				// A writer that cannot set deadlines (tests' recorders) just gets no time-out.
				if rc.SetReadDeadline(time.Now().Add(d)) == nil {
					r.Body = &deadlineBody{ReadCloser: r.Body, rc: rc, d: d}
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

func isUpgrade(r *http.Request) bool {
	for _, v := range r.Header.Values("Connection") {
		for _, t := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), "upgrade") {
				return r.Header.Get("Upgrade") != ""
			}
		}
	}
	return false
}

// deadlineBody moves the connection's read deadline forward as the body arrives.
type deadlineBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	d    time.Duration
	done bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	switch {
	case b.done:
	case err == io.EOF:
		b.done = true
		_ = b.rc.SetReadDeadline(time.Time{})
	case n > 0 && err == nil:
		_ = b.rc.SetReadDeadline(time.Now().Add(b.d))
	}
	return n, err
}

// metricsAuth lets through requests that carry the metrics token as a bearer token.
func metricsAuth(token string, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte("Bearer " + token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := sha256.Sum256([]byte(r.Header.Get("Authorization")))
		if subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
			httpx.WriteError(w, r, apperr.Unauthorized("UNAUTHORIZED",
				"The metrics are for operators: send the metrics token (PORTALWRIGHT_METRICS_TOKEN) as a bearer token."))
			return
		}
		next.ServeHTTP(w, r)
	})
}
