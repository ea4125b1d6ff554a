package httpx

import (
	"context"
	"net/http"
)

type ctxKey int

const (
	requestIDKey ctxKey = iota
	principalKey
)

// WithRequestID stores the request id in ctx.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey, id)
}

// RequestID returns the id of the request being served, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}

// Principal is the signed-in caller of a request.
type Principal struct {
	UserID    int64
	Username  string
	Admin     bool
	SessionID string
}

// WithPrincipal stores the caller in ctx.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey, p)
}

// PrincipalFrom returns the caller; ok is false for anonymous requests.
func PrincipalFrom(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey).(Principal)
	return p, ok
}

// MustPrincipal returns the caller of a route that requires sign-in. The router guarantees
// it is present on such routes, so a missing one is a wiring bug.
func MustPrincipal(r *http.Request) Principal {
	p, ok := PrincipalFrom(r.Context())
	if !ok {
		panic("httpx: MustPrincipal on a route without authentication")
	}
	return p
}
