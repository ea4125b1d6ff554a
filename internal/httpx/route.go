package httpx

import "net/http"

// AccessKind says who may call a route.
type AccessKind int

const (
	AccessPublic        AccessKind = iota // anyone, signed in or not
	AccessAuthenticated                   // any signed-in user
	AccessPermission                      // a signed-in user holding Permission in the route's domain (admins always)
	AccessAdmin                           // admins only
	AccessMember                          // a member of the route's domain (admins always)
	// AccessReadToken: no bearer token; the handler checks a short-lived read token in the
	// URL (query t=), minted by a route that required Permission in the domain (thumbnails,
	// which browsers load through <img src>, where no Authorization header can be set).
	AccessReadToken
)

// Access is the rule a route declares next to its registration.
type Access struct {
	Kind AccessKind
	// Permission is a spec short code or name (e.g. "asset:w", "domain_user_create").
	Permission string
	// DomainParam names the URL parameter that holds the domain id the permission is checked in.
	DomainParam string
	// TokenParam, for AccessReadToken, names the path parameter that carries the token (the
	// preview frame's files, whose relative URLs must keep it); empty means the query t=.
	TokenParam string
	// TokenCookie, for AccessReadToken, names the cookie that carries the token instead (the
	// frame origin's files, internal/preview/frame.go).
	TokenCookie string
}

var (
	Public        = Access{Kind: AccessPublic}
	Authenticated = Access{Kind: AccessAuthenticated}
	AdminOnly     = Access{Kind: AccessAdmin}
)

// Requires is a permission rule checked in the domain named by the URL parameter domainParam.
func Requires(permission, domainParam string) Access {
	return Access{Kind: AccessPermission, Permission: permission, DomainParam: domainParam}
}

// InDomain is Requires(permission, "domainId"): the permission in the domain of the route's
// {domainId}, as every domain-scoped route names it.
func InDomain(permission string) Access { return Requires(permission, "domainId") }

// Member is the rule "a member of the domain named by the URL parameter domainParam".
func Member(domainParam string) Access {
	return Access{Kind: AccessMember, DomainParam: domainParam}
}

// ReadToken is the rule of a route the browser loads without headers (an <img src>): the
// guard lets it through, and its handler refuses it unless the URL carries a read token that
// was minted under permission in the domain named by domainParam, for that URL's portal.
func ReadToken(permission, domainParam string) Access {
	return Access{Kind: AccessReadToken, Permission: permission, DomainParam: domainParam}
}

// PathReadToken is ReadToken with the token in the path parameter tokenParam instead of t=.
func PathReadToken(permission, domainParam, tokenParam string) Access {
	return Access{Kind: AccessReadToken, Permission: permission, DomainParam: domainParam, TokenParam: tokenParam}
}

// CookieReadToken is ReadToken with the token in the cookie named cookie.
func CookieReadToken(permission, domainParam, cookie string) Access {
	return Access{Kind: AccessReadToken, Permission: permission, DomainParam: domainParam, TokenCookie: cookie}
}

// Route is one API endpoint: method, chi pattern relative to /api/v1, access rule, handler,
// and what it takes and answers.
type Route struct {
	Method  string
	Pattern string
	Access  Access
	Handler HandlerFunc
	// In and Out name what the route reads from the request body and what it answers, for the
	// API description (internal/apidoc: docs/openapi.json, docs/api.md's tables, the browser's
	// types): the zero value of the Go type it decodes or encodes as JSON (In: SaveRequest{},
	// Out: []Domain{}), or a Body for what is not a JSON value (NoBody, PlainText, File, WebSocket…).
	// In is left out when the method carries no body (GET, HEAD, DELETE); every route has an
	// Out (internal/app's TestRoutesNameTheirTypes).
	In, Out any
	// Status is the answer's status when it is not 200: 201 Created, 202 Accepted (NoBody
	// answers 204).
	Status int
}

// AnswerOf is an Out that answers what another route answers (its Method and Pattern), for a
// route whose package may not import the type (loadable previews answer a shared preview).
type AnswerOf struct{ Method, Pattern string }

// Body is a request or answer body that is not a JSON value of a Go type.
type Body string

const (
	NoBody    Body = "none"                     // no body: a request without one; an answer 204 No Content
	PlainText Body = "text/plain"               // plain text
	HTML      Body = "text/html"                // an HTML page
	AnyJSON   Body = "application/json"         // a JSON document of no Go type of ours (the OpenAPI document)
	File      Body = "application/octet-stream" // a file, in its own media type (assets, images, packages)
	Upload    Body = "multipart/form-data"      // files sent as a multipart form
	Redirect  Body = "redirect"                 // an answer that sends the browser on (302/303)
	WebSocket Body = "websocket"                // the connection becomes a WebSocket (101)
)

// HandlerFunc serves one API call. A returned error is written by the router as the API's
// JSON error body (WriteError), in one place; a handler that wrote its answer returns nil.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) error

// ServeHTTP runs h and writes the error it returns: the one place a handler's error becomes
// the API's JSON error body.
func (h HandlerFunc) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := h(w, r); err != nil {
		WriteError(w, r, err)
	}
}

// Routes is implemented by every feature that serves API calls.
type Routes interface {
	Routes() []Route
}
