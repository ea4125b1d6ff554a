package identity

import (
	"net"
	"net/http"
	"strings"

	"portalwright/internal/httpx"
)

// Handler serves /api/v1/user.
type Handler struct{ svc *Service }

func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

func (h *Handler) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: http.MethodPost, Pattern: "/user/login", Access: httpx.Public, Handler: h.login},
		{Method: http.MethodGet, Pattern: "/user/refresh", Access: httpx.Public, Handler: h.refresh},
		{Method: http.MethodGet, Pattern: "/user/profile", Access: httpx.Authenticated, Handler: h.profile},
		{Method: http.MethodPost, Pattern: "/user/logout", Access: httpx.Authenticated, Handler: h.logout},
	}
}

type loginRequest struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

func (h *Handler) login(w http.ResponseWriter, r *http.Request) {
	var req loginRequest
	if err := httpx.Decode(r, &req); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	tokens, err := h.svc.Login(r.Context(), req.Username, req.Password, clientInfo(r))
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, tokens)
}

// refresh takes the refresh token as the bearer token (spec: GET refresh).
func (h *Handler) refresh(w http.ResponseWriter, r *http.Request) {
	tokens, err := h.svc.Refresh(r.Context(), BearerToken(r))
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, tokens)
}

func (h *Handler) profile(w http.ResponseWriter, r *http.Request) {
	p, err := h.svc.Profile(r.Context(), httpx.MustPrincipal(r))
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, p)
}

func (h *Handler) logout(w http.ResponseWriter, r *http.Request) {
	if err := h.svc.Logout(r.Context(), httpx.MustPrincipal(r)); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.NoContent(w)
}

// BearerToken returns the token of an "Authorization: Bearer …" header, or "".
func BearerToken(r *http.Request) string {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

func clientInfo(r *http.Request) ClientInfo {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return ClientInfo{Addr: host, UserAgent: r.UserAgent()}
}
