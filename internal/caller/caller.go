// Package caller is who a request (or a task started by one) acts for: the signed-in user.
// The router puts it in the request context after authentication; services take it as a
// value (caller.Caller), never as a bare user id, so one type says who is acting everywhere.
package caller

import "context"

// Caller is the signed-in user a call acts for.
type Caller struct {
	UserID    int64
	Username  string
	Admin     bool
	SessionID string
}

type key struct{}

// With stores the caller in ctx.
func With(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, key{}, c)
}

// From returns the caller; ok is false for anonymous requests.
func From(ctx context.Context) (Caller, bool) {
	c, ok := ctx.Value(key{}).(Caller)
	return c, ok
}

// Must returns the caller of a call that requires sign-in. The router guarantees it is
// present on such routes, so a missing one is a wiring bug.
func Must(ctx context.Context) Caller {
	c, ok := From(ctx)
	if !ok {
		panic("caller: Must on a route without authentication")
	}
	return c
}
