package preview

import (
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/apperr"
	"portalwright/internal/httpx"
)

// The frame origin (--frame-addr): the designer's frame served from an origin of its own, so
// that no key is in a URL its scripts can read.
//
// On the app's origin the frame must run in an opaque origin (no allow-same-origin: else the
// portal's scripts would read the app's storage), and a browser sends no cookie on the
// requests of an opaque origin; so the frame's files carry the read token in their path, where
// the portal's scripts read it (location). On an origin of its own the frame may keep its
// origin, and a cookie works:
//
//  1. the designer gets a single-use ticket (POST /workspace/{d}/{p}/token) and loads
//     <frame origin>/api/v1/workspace/<ticket>/{d}/{p}/…;
//  2. the frame origin redeems the ticket (a second use is a 401), sets the read token as an
//     HttpOnly, SameSite=Strict cookie whose Path is that portal's files,
//     /api/v1/workspace/frame/{d}/{p}/, and redirects (303) there, without the ticket;
//  3. every file of the frame is read with the cookie. The answers' policy names the frame
//     origin with that path: a portal's frame cannot read another portal's files.
//
// The ticket is in the iframe's src only (the app's document, which the frame cannot read); the
// frame's location, its referrer and its requests never carry a key.

// FrameCookie holds the frame's read token on the frame origin.
const FrameCookie = "pw_frame"

// frameRoot is where the frame's files are on the frame origin, below /api/v1.
const frameRoot = "/workspace/frame/"

// FrameOrigin says where the frame origin is.
type FrameOrigin struct {
	// URL is how browsers reach the frame listener (scheme://host[:port], --frame-url); empty:
	// the scheme and host name of the app's request with Port's port.
	URL string
	// Port is the frame listener's port once it listens; nil or 0: no frame origin (the frame
	// is served on the app's origin).
	Port func() int
	// AppURL is the app's public URL: its pages frame the frame origin's.
	AppURL string
}

// For is the frame origin as the browser of the app request r reaches it, "" when off.
func (o *FrameOrigin) For(r *http.Request) string {
	if o == nil || o.Port == nil || o.Port() == 0 {
		return ""
	}
	if o.URL != "" {
		return strings.TrimRight(o.URL, "/")
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(r.Host); err == nil {
		host = h
	}
	return scheme(r) + "://" + net.JoinHostPort(strings.Trim(host, "[]"), strconv.Itoa(o.Port()))
}

func scheme(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	return "http"
}

// self is the frame origin as its own request r names it (a source expression, or 'none').
func (o *FrameOrigin) self(r *http.Request) string {
	if o.URL != "" {
		if u, err := url.Parse(o.URL); err == nil && cspHost.MatchString(strings.ToLower(u.Host)) {
			return u.Scheme + "://" + strings.ToLower(u.Host)
		}
	}
	if !cspHost.MatchString(strings.ToLower(r.Host)) {
		return "'none'"
	}
	return scheme(r) + "://" + strings.ToLower(r.Host)
}

// ancestors are who may frame the frame origin's answers: the app's public URL and any port
// of the request's host (the app on the same host: the same site, which the cookie needs).
func (o *FrameOrigin) ancestors(r *http.Request) string {
	var out []string
	if u, err := url.Parse(o.AppURL); err == nil && cspHost.MatchString(strings.ToLower(u.Host)) {
		out = append(out, u.Scheme+"://"+strings.ToLower(u.Host))
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(r.Host); err == nil {
		host = net.JoinHostPort(h, "*")
	} else {
		host += ":*"
	}
	if host = strings.ToLower(host); cspHost.MatchString(strings.Replace(host, ":*", ":1", 1)) {
		out = append(out, scheme(r)+"://"+host)
	}
	if len(out) == 0 {
		return "'none'"
	}
	return strings.Join(out, " ")
}

// FrameRoutes are the frame origin's routes (its own listener: never on the app's origin,
// whose pages must not run portal scripts with an origin of their own).
func (h *Handler) FrameRoutes() []httpx.Route {
	return []httpx.Route{
		{Method: http.MethodGet, Pattern: "/workspace/{ticket:[^0-9/][^/]*}/{domainId}/{portalId}/*", Access: httpx.PathReadToken(Permission, "domainId", "ticket"), Handler: h.exchange, Out: httpx.Redirect},
		{Method: http.MethodGet, Pattern: frameRoot + "{domainId}/{portalId}/*", Access: httpx.CookieReadToken(Permission, "domainId", FrameCookie), Handler: h.frameFile, Out: httpx.File},
	}
}

// framePolicy is the policy of a frame origin answer: its own origin (allow-same-origin),
// limited to the URL's portal.
func (h *Handler) framePolicy(r *http.Request) policy {
	own := "'none'"
	d, okD := httpx.ParseID(chi.URLParam(r, "domainId"))
	p, okP := httpx.ParseID(chi.URLParam(r, "portalId"))
	if self := h.origin.self(r); okD && okP && self != "'none'" {
		own = self + "/api/v1" + frameRoot + portalPath(d, p)
	}
	return policy{sandbox: sandboxFrame + " allow-same-origin", own: own, ancestors: h.origin.ancestors(r)}
}

// exchange redeems the ticket of the frame's first URL for the cookie and sends the browser to
// the same file without the ticket.
func (h *Handler) exchange(w http.ResponseWriter, r *http.Request) error {
	h.framePolicy(r).setHeaders(w)
	w.Header().Set("Cache-Control", "no-store")
	claims, err := h.tickets.Redeem(r.Context(), chi.URLParam(r, "ticket"))
	if err != nil {
		return err
	}
	pa, err := h.claimed(r, claims)
	if err != nil {
		return err
	}
	token, ttl := h.signer.Mint(claims.UserID, pa.DomainID(), pa.ID())
	scope := "/api/v1" + frameRoot + portalPath(pa.DomainID(), pa.ID())
	http.SetCookie(w, &http.Cookie{
		Name: FrameCookie, Value: token, Path: scope, MaxAge: int(ttl.Seconds()),
		HttpOnly: true, Secure: strings.HasPrefix(h.origin.self(r), "https:"), SameSite: http.SameSiteStrictMode,
	})
	// The rest of the path as it came (still escaped), and the query (designMode, parentOrigin).
	target := scope
	if parts := strings.SplitN(r.URL.EscapedPath(), "/", 8); len(parts) == 8 {
		target += parts[7]
	}
	if r.URL.RawQuery != "" {
		target += "?" + r.URL.RawQuery
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
	return nil
}

// frameFile serves a file of the frame with the cookie's read token.
func (h *Handler) frameFile(w http.ResponseWriter, r *http.Request) error {
	pol := h.framePolicy(r)
	pol.setHeaders(w)
	c, err := r.Cookie(FrameCookie)
	if err != nil || c.Value == "" {
		return apperr.Unauthorized("UNAUTHORIZED", "No frame cookie present: open the designer again.")
	}
	claims, err := h.signer.Verify(c.Value)
	if err != nil {
		return err
	}
	return h.serveClaimed(w, r, claims, pol)
}
