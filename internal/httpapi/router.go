// Package httpapi builds the HTTP handler: /api/v1 with every feature's routes behind one
// authentication and permission check, health and metrics endpoints, and the web app.
package httpapi

import (
	"context"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"sort"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/httpx"
)

// APIPrefix is where the API lives.
const APIPrefix = "/api/v1"

// Authenticator resolves a bearer token to the caller.
type Authenticator interface {
	Authenticate(ctx context.Context, token string) (caller.Caller, error)
}

// Authorizer decides permission rules for non-admin callers (the access feature).
type Authorizer interface {
	// Allowed tells whether p holds permission in the domain given by domainID (a URL value).
	Allowed(ctx context.Context, p caller.Caller, permission, domainID string) (bool, error)
	// IsMember tells whether p belongs to the domain.
	IsMember(ctx context.Context, p caller.Caller, domainID string) (bool, error)
}

// Pinger reports whether the database answers.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Deps is what the router is built from.
type Deps struct {
	Logger     *slog.Logger
	DB         Pinger
	Auth       Authenticator
	Authorizer Authorizer // nil: permission routes are for admins only
	Features   []httpx.Routes
	Web        fs.FS // the built web app (index.html, assets); nil serves no web app
	Registry   *prometheus.Registry
	// MetricsToken, when set, serves /metrics on this handler to requests that carry it as a
	// bearer token; otherwise /metrics is only Server.Metrics, for a separate operator address.
	MetricsToken string
	// BodyReadTimeout is how long a request body may stall (0: DefaultBodyReadTimeout;
	// negative: no time-out).
	BodyReadTimeout time.Duration
	// TrustedProxies are the peers whose X-Forwarded-For names the client (httpx.ClientAddr).
	TrustedProxies []netip.Prefix
	// FrameSource is the frame origin as a request's browser reaches it, "" when there is
	// none: the app's pages may frame it (frame-src).
	FrameSource func(*http.Request) string
	// FrameRoutes are the frame origin's routes (NewFrame), on the frame origin only.
	FrameRoutes []httpx.Route
}

// RouteInfo describes one registered API route (for docs and the authorization matrix test).
type RouteInfo struct {
	Method  string
	Pattern string // full path, e.g. /api/v1/user/profile
	Access  httpx.Access
	// In, Out and Status are the route's (httpx.Route): what it takes and answers.
	In, Out any
	Status  int
}

// Server is the built handler and what was registered on it.
type Server struct {
	http.Handler
	Routes []RouteInfo
	// Metrics serves the Prometheus metrics, for an operator-only listener (--metrics-addr).
	Metrics http.Handler
	// Frame is the frame origin's handler (--frame-addr): Deps.FrameRoutes under /api/v1 and
	// nothing else, so no page of the app is ever served with a portal's origin.
	Frame *Server
}

// New builds the handler.
func New(d Deps) *Server {
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.Registry == nil {
		d.Registry = prometheus.NewRegistry()
	}
	if d.BodyReadTimeout == 0 {
		d.BodyReadTimeout = DefaultBodyReadTimeout
	}
	m := newMetrics(d.Registry)
	r := chi.NewRouter()
	r.Use(clientAddr(d.TrustedProxies), securityHeaders(d.FrameSource), requestID, accessLog(d.Logger, m), recoverer(d.Logger), bodyReadTimeout(d.BodyReadTimeout))

	r.Get("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		httpx.JSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	r.Get("/readyz", readyz(d.DB))
	// /metrics is for operators: on the public address only with its own token; otherwise on
	// a separate address (Server.Metrics) or not at all.
	metrics := promhttp.HandlerFor(d.Registry, promhttp.HandlerOpts{Registry: d.Registry})
	if d.MetricsToken != "" {
		r.Method(http.MethodGet, "/metrics", metricsAuth(d.MetricsToken, metrics))
	}

	s := &Server{Handler: r, Metrics: metrics}
	guard := &guard{auth: d.Auth, authz: d.Authorizer}
	var routes []httpx.Route
	for _, f := range d.Features {
		routes = append(routes, f.Routes()...)
	}
	s.Routes = mountAPI(r, guard, routes)

	// The frame origin: the same logs and metrics, its own defaults, only its routes.
	frame := chi.NewRouter()
	frame.Use(clientAddr(d.TrustedProxies), frameOriginHeaders, requestID, accessLog(d.Logger, m), recoverer(d.Logger), bodyReadTimeout(d.BodyReadTimeout))
	s.Frame = &Server{Handler: frame, Routes: mountAPI(frame, guard, d.FrameRoutes)}
	frame.NotFound(notFound)

	static := staticHandler(d.Web)
	r.NotFound(static)
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		httpx.WriteError(w, r, apperr.NewError(http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "Method Not Allowed",
			"The method "+r.Method+" is not allowed for "+r.URL.Path+"."))
	})
	return s
}

// mountAPI registers routes under APIPrefix behind guard and lists them, sorted.
func mountAPI(r chi.Router, guard *guard, routes []httpx.Route) []RouteInfo {
	var infos []RouteInfo
	r.Route(APIPrefix, func(api chi.Router) {
		api.NotFound(notFound)
		api.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
			httpx.WriteError(w, r, apperr.NewError(http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "Method Not Allowed",
				"The method "+r.Method+" is not allowed for "+r.URL.Path+"."))
		})
		for _, rt := range routes {
			api.Method(rt.Method, rt.Pattern, guard.wrap(rt))
			infos = append(infos, RouteInfo{Method: rt.Method, Pattern: APIPrefix + rt.Pattern, Access: rt.Access, In: rt.In, Out: rt.Out, Status: rt.Status})
		}
	})
	sort.Slice(infos, func(i, j int) bool {
		if infos[i].Pattern != infos[j].Pattern {
			return infos[i].Pattern < infos[j].Pattern
		}
		return infos[i].Method < infos[j].Method
	})
	return infos
}

func notFound(w http.ResponseWriter, r *http.Request) {
	httpx.WriteError(w, r, apperr.NotFound("ROUTE_NOT_FOUND", "No API call exists at "+r.URL.Path+"."))
}

func readyz(db Pinger) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if db == nil {
			httpx.JSON(w, http.StatusOK, map[string]string{"status": "ready"})
			return
		}
		if err := db.Ping(ctx); err != nil {
			httpx.WriteError(w, r, apperr.NewError(http.StatusServiceUnavailable, "DATABASE_UNAVAILABLE", "Service Unavailable",
				"The database is not reachable.").WithCause(err))
			return
		}
		httpx.JSON(w, http.StatusOK, map[string]string{"status": "ready"})
	}
}
