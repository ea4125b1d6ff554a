package httpapi

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"portalwright/internal/apperr"
	"portalwright/internal/httpx"
)

// RequestIDHeader carries the request id both ways.
const RequestIDHeader = "X-Request-Id"

var validRequestID = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// requestID takes a sane incoming X-Request-Id (from a proxy) or makes one, and echoes it.
func requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(RequestIDHeader)
		if !validRequestID.MatchString(id) {
			id = uuid.NewString()
		}
		w.Header().Set(RequestIDHeader, id)
		next.ServeHTTP(w, r.WithContext(httpx.WithRequestID(r.Context(), id)))
	})
}

// recoverer turns a panic into the JSON 500 body carrying the request id.
func recoverer(log *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				rec := recover()
				if rec == nil {
					return
				}
				if rec == http.ErrAbortHandler { // net/http's deliberate abort: let it through
					panic(rec)
				}
				log.ErrorContext(r.Context(), "panic", "request_id", httpx.RequestID(r.Context()),
					"method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(rec), "stack", string(debug.Stack()))
				httpx.WriteError(w, r, apperr.Internal(fmt.Errorf("panic: %v", rec)))
			}()
			next.ServeHTTP(w, r)
		})
	}
}

// logFields lets inner handlers add to the access log line (e.g. the user id).
type logFields struct{ userID int64 }

type logFieldsKey struct{}

func logFieldsFrom(ctx context.Context) *logFields {
	f, _ := ctx.Value(logFieldsKey{}).(*logFields)
	return f
}

// statusWriter records the status and size of a response.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer (flush, hijack for WebSocket).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

type metrics struct {
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
}

func newMetrics(reg *prometheus.Registry) *metrics {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "portalwright_http_requests_total",
			Help: "HTTP requests by method, route pattern and status code.",
		}, []string{"method", "route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "portalwright_http_request_duration_seconds",
			Help:    "HTTP request latency by method and route pattern.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"method", "route"}),
	}
	reg.MustRegister(m.requests, m.latency)
	// A registry may be shared by several servers in one process (tests); register the
	// runtime collectors once.
	_ = reg.Register(collectors.NewGoCollector())
	_ = reg.Register(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// accessLog writes one structured line per request and records the metrics, labelled by
// route pattern (not raw path) so ids in URLs do not explode the series.
func accessLog(log *slog.Logger, m *metrics) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			fields := &logFields{}
			sw := &statusWriter{ResponseWriter: w}
			next.ServeHTTP(sw, r.WithContext(context.WithValue(r.Context(), logFieldsKey{}, fields)))
			if sw.status == 0 {
				sw.status = http.StatusOK
			}
			elapsed := time.Since(start)
			route := routePattern(r)
			m.requests.WithLabelValues(r.Method, route, strconv.Itoa(sw.status)).Inc()
			m.latency.WithLabelValues(r.Method, route).Observe(elapsed.Seconds())
			attrs := []any{
				"request_id", httpx.RequestID(r.Context()), "method", r.Method, "path", redactedPath(r), "route", route,
				"status", sw.status, "bytes", sw.bytes, "duration_ms", float64(elapsed.Microseconds()) / 1000,
			}
			if fields.userID != 0 {
				attrs = append(attrs, "user_id", fields.userID)
			}
			level := slog.LevelInfo
			if sw.status >= 500 {
				level = slog.LevelError
			} else if route == "/healthz" || route == "/readyz" || route == "/metrics" {
				level = slog.LevelDebug
			}
			log.Log(r.Context(), level, "http request", attrs...)
		})
	}
}

// tokenKeep is how much of a URL token the log keeps: enough to correlate lines, far too
// little to use.
const tokenKeep = 6

// redactedPath is the request's path with every token URL parameter (a preview link's, a
// frame's read token or ticket) cut to its first characters: the log never holds a usable token.
func redactedPath(r *http.Request) string {
	p := r.URL.Path
	rc := chi.RouteContext(r.Context())
	if rc == nil {
		return p
	}
	for i, key := range rc.URLParams.Keys {
		if k := strings.ToLower(key); (!strings.Contains(k, "token") && !strings.Contains(k, "ticket")) || i >= len(rc.URLParams.Values) {
			continue
		}
		if v := rc.URLParams.Values[i]; len(v) > tokenKeep {
			p = strings.Replace(p, v, v[:tokenKeep]+"…", 1)
		}
	}
	return p
}

func routePattern(r *http.Request) string {
	if rc := chi.RouteContext(r.Context()); rc != nil {
		if p := rc.RoutePattern(); p != "" && p != "/*" {
			return p
		}
	}
	return "unmatched"
}

// clientAddr works out once where each request came from (httpx.ClientAddr).
func clientAddr(trusted []netip.Prefix) func(http.Handler) http.Handler {
	proxies := httpx.TrustedProxies(trusted)
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(w, proxies.WithClientAddr(r))
		})
	}
}
