package identity

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/httpx"
)

// Handler serves /api/v1/user.
type Handler struct {
	svc *Service
}

func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

func (h *Handler) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: http.MethodPost, Pattern: "/user/login", Access: httpx.Public, Handler: h.login, In: loginRequest{}, Out: Tokens{}},
		{Method: http.MethodGet, Pattern: "/user/refresh", Access: httpx.Public, Handler: h.refresh, Out: Tokens{}},
		{Method: http.MethodGet, Pattern: "/user/profile", Access: httpx.Authenticated, Handler: h.profile, Out: Profile{}},
		{Method: http.MethodPost, Pattern: "/user/logout", Access: httpx.Authenticated, Handler: h.logout, In: httpx.NoBody, Out: httpx.NoBody},
		{Method: http.MethodPost, Pattern: "/user/reset-password", Access: httpx.Public, Handler: h.requestReset, In: resetRequest{}, Out: messageAnswer{}},
		{Method: http.MethodPost, Pattern: "/user/confirm-reset-password", Access: httpx.Public, Handler: h.confirmReset, In: confirmRequest{}, Out: Tokens{}},
		{Method: http.MethodPut, Pattern: "/user/update", Access: httpx.Authenticated, Handler: h.update, In: ProfileUpdate{}, Out: User{}},
		{Method: http.MethodPut, Pattern: "/user/password", Access: httpx.Authenticated, Handler: h.changePassword, In: passwordChange{}, Out: httpx.NoBody},
		{Method: http.MethodPut, Pattern: "/user/createkey", Access: httpx.Authenticated, Handler: h.createKey, In: httpx.NoBody, Out: KeyPair{}},
		{Method: http.MethodPut, Pattern: "/user/publickey", Access: httpx.Authenticated, Handler: h.setPublicKey, In: publicKeyBody{}, Out: User{}},
		{Method: http.MethodGet, Pattern: "/user/all", Access: httpx.AdminOnly, Handler: h.all, Out: []User{}},
		{Method: http.MethodPost, Pattern: "/user/create", Access: httpx.AdminOnly, Handler: h.create, In: AdminUser{}, Out: User{}, Status: http.StatusCreated},
		{Method: http.MethodDelete, Pattern: "/user/delete/{id}", Access: httpx.AdminOnly, Handler: h.delete, Out: httpx.NoBody},
		{Method: http.MethodPost, Pattern: "/user/force-reset-password", Access: httpx.AdminOnly, Handler: h.forceReset, In: forceResetBody{}, Out: httpx.NoBody},
	}
}

type resetRequest struct {
	UserName    string `json:"userName"`
	NewPassword string `json:"newPassword"`
}

// messageAnswer is an answer that only says something to the user.
type messageAnswer struct {
	Message string `json:"message"`
}

func (h *Handler) requestReset(w http.ResponseWriter, r *http.Request) error {
	var req resetRequest
	if err := httpx.Decode(r, &req); err != nil {
		return err
	}
	if err := h.svc.RequestPasswordReset(r.Context(), req.UserName, req.NewPassword, h.clientInfo(r)); err != nil {
		return err
	}
	return httpx.OK(w, messageAnswer{Message: MsgResetRequested})
}

// confirmRequest accepts both spellings the spec gives (confirmedPassword / confirmPassword,
// token / uuid).
type confirmRequest struct {
	ConfirmedPassword string `json:"confirmedPassword"`
	ConfirmPassword   string `json:"confirmPassword"`
	Token             string `json:"token"`
	UUID              string `json:"uuid"`
	Username          string `json:"username"`
}

func (h *Handler) confirmReset(w http.ResponseWriter, r *http.Request) error {
	var req confirmRequest
	if err := httpx.Decode(r, &req); err != nil {
		return err
	}
	tokens, err := h.svc.ConfirmPasswordReset(r.Context(), firstNonEmpty(req.Token, req.UUID),
		firstNonEmpty(req.ConfirmedPassword, req.ConfirmPassword), req.Username, h.clientInfo(r))
	if err != nil {
		return err
	}
	return httpx.OK(w, tokens)
}

func (h *Handler) update(w http.ResponseWriter, r *http.Request) error {
	var req ProfileUpdate
	if err := httpx.Decode(r, &req); err != nil {
		return err
	}
	u, err := h.svc.UpdateProfile(r.Context(), caller.Must(r.Context()), req)
	if err != nil {
		return err
	}
	return httpx.OK(w, u)
}

type passwordChange struct {
	CurrentPassword string `json:"currentPassword"`
	NewPassword     string `json:"newPassword"`
}

func (h *Handler) changePassword(w http.ResponseWriter, r *http.Request) error {
	var req passwordChange
	if err := httpx.Decode(r, &req); err != nil {
		return err
	}
	if err := h.svc.ChangePassword(r.Context(), caller.Must(r.Context()), req.CurrentPassword, req.NewPassword); err != nil {
		return err
	}
	return httpx.NoContent(w)
}

func (h *Handler) createKey(w http.ResponseWriter, r *http.Request) error {
	pair, err := h.svc.GenerateKey(r.Context(), caller.Must(r.Context()))
	if err != nil {
		return err
	}
	return httpx.OK(w, pair)
}

type publicKeyBody struct {
	PublicKey string `json:"publicKey"`
}

func (h *Handler) setPublicKey(w http.ResponseWriter, r *http.Request) error {
	var req publicKeyBody
	if err := httpx.Decode(r, &req); err != nil {
		return err
	}
	u, err := h.svc.SetPublicKey(r.Context(), caller.Must(r.Context()), req.PublicKey)
	if err != nil {
		return err
	}
	return httpx.OK(w, u)
}

func (h *Handler) all(w http.ResponseWriter, r *http.Request) error {
	users, err := h.svc.Users(r.Context())
	if err != nil {
		return err
	}
	return httpx.OK(w, users)
}

func (h *Handler) create(w http.ResponseWriter, r *http.Request) error {
	var req AdminUser
	if err := httpx.Decode(r, &req); err != nil {
		return err
	}
	u, err := h.svc.CreateUserByAdmin(r.Context(), caller.Must(r.Context()), req)
	if err != nil {
		return err
	}
	return httpx.Created(w, u)
}

func (h *Handler) delete(w http.ResponseWriter, r *http.Request) error {
	id, ok := httpx.ParseID(chi.URLParam(r, "id"))
	if !ok {
		return apperr.BadRequest("INVALID_ID", "The user id must be a number.")
	}
	if err := h.svc.DeleteUser(r.Context(), caller.Must(r.Context()), id); err != nil {
		return err
	}
	return httpx.NoContent(w)
}

// forceResetBody names the user by id or by user name.
type forceResetBody struct {
	ID       int64  `json:"id"`
	UserName string `json:"userName"`
}

func (h *Handler) forceReset(w http.ResponseWriter, r *http.Request) error {
	var req forceResetBody
	if err := httpx.Decode(r, &req); err != nil {
		return err
	}
	id := req.ID
	if id == 0 && req.UserName != "" {
		u, err := h.svc.UserByName(r.Context(), req.UserName)
		if err != nil {
			return err
		}
		id = u.ID
	}
	if id == 0 {
		return apperr.Validation("Name the user by id or userName.")
	}
	if err := h.svc.ForceResetPassword(r.Context(), caller.Must(r.Context()), id); err != nil {
		return err
	}
	return httpx.NoContent(w)
}

type loginRequest struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

func (h *Handler) login(w http.ResponseWriter, r *http.Request) error {
	var req loginRequest
	if err := httpx.Decode(r, &req); err != nil {
		return err
	}
	tokens, err := h.svc.Login(r.Context(), req.Username, req.Password, h.clientInfo(r))
	if err != nil {
		return err
	}
	return httpx.OK(w, tokens)
}

// refresh takes the refresh token as the bearer token (spec: GET refresh).
func (h *Handler) refresh(w http.ResponseWriter, r *http.Request) error {
	tokens, err := h.svc.Refresh(r.Context(), BearerToken(r))
	if err != nil {
		return err
	}
	return httpx.OK(w, tokens)
}

func (h *Handler) profile(w http.ResponseWriter, r *http.Request) error {
	p, err := h.svc.Profile(r.Context(), caller.Must(r.Context()))
	if err != nil {
		return err
	}
	return httpx.OK(w, p)
}

func (h *Handler) logout(w http.ResponseWriter, r *http.Request) error {
	if err := h.svc.Logout(r.Context(), caller.Must(r.Context())); err != nil {
		return err
	}
	return httpx.NoContent(w)
}

// BearerToken returns the token of an "Authorization: Bearer …" header, or "".
func BearerToken(r *http.Request) string {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}
