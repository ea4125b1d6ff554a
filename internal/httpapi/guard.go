package httpapi

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/httpx"
)

// MsgNoPermission is the spec's text for a caller without the needed permission.
const MsgNoPermission = "You do not have the right permission to access to this section. Please contact your Administrator"

// guard enforces each route's declared access before its handler runs.
type guard struct {
	auth  Authenticator
	authz Authorizer
}

func (g *guard) wrap(rt httpx.Route) http.HandlerFunc {
	if rt.Access.Kind == httpx.AccessPublic || rt.Access.Kind == httpx.AccessReadToken {
		// Public, or checked by the handler itself (a read token in the URL).
		return rt.Handler.ServeHTTP // writes a returned error (httpx.HandlerFunc.ServeHTTP)
	}
	h := rt.Handler.ServeHTTP
	return func(w http.ResponseWriter, r *http.Request) {
		p, err := g.authenticate(r)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		if fields := logFieldsFrom(r.Context()); fields != nil {
			fields.userID = p.UserID
		}
		if err := g.authorize(r, p, rt.Access); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		h(w, r.WithContext(caller.With(r.Context(), p)))
	}
}

func (g *guard) authenticate(r *http.Request) (caller.Caller, error) {
	if g.auth == nil {
		return caller.Caller{}, apperr.Unauthorized("UNAUTHORIZED", "No JWT present")
	}
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "Bearer") {
		token = ""
	}
	return g.auth.Authenticate(r.Context(), strings.TrimSpace(token))
}

func (g *guard) authorize(r *http.Request, p caller.Caller, a httpx.Access) error {
	switch a.Kind {
	case httpx.AccessAuthenticated:
		return nil
	case httpx.AccessAdmin:
		if p.Admin {
			return nil
		}
	case httpx.AccessPermission, httpx.AccessMember:
		if p.Admin { // the admin flag bypasses permission checks (spec 1 §6)
			return nil
		}
		if g.authz == nil {
			break
		}
		domainID := chi.URLParam(r, a.DomainParam)
		var ok bool
		var err error
		if a.Kind == httpx.AccessMember {
			ok, err = g.authz.IsMember(r.Context(), p, domainID)
		} else {
			ok, err = g.authz.Allowed(r.Context(), p, a.Permission, domainID)
		}
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
	}
	return apperr.Forbidden("FORBIDDEN", MsgNoPermission)
}
