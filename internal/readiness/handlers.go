package readiness

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/caller"
	"portalwright/internal/httpx"
	"portalwright/internal/portalaccess"
)

// Handler serves /readiness (docs/readiness.md "API", docs/api.md "Release readiness").
type Handler struct {
	svc    *Service
	access *portalaccess.Checker
}

// NewHandler returns the readiness routes; access checks the portal of every call.
func NewHandler(svc *Service, access *portalaccess.Checker) *Handler {
	return &Handler{svc: svc, access: access}
}

// Routes: findings show file content, so reading them needs asset:r (as reading the files
// does); an ignore writes readiness.json (asset:w); the settings are the portal's (portal:r,
// portal:w).
func (h *Handler) Routes() []httpx.Route {
	get, post, put, del := http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete
	in := httpx.InDomain
	at := h.access.Handle
	const base = "/readiness/{domainId}/{portalId}"
	return []httpx.Route{
		{Method: get, Pattern: base, Access: in("asset:r"), Handler: at(h.workspace), Out: Report{}},
		{Method: get, Pattern: base + "/commit/{commitId}", Access: in("asset:r"), Handler: at(h.commit), Out: Report{}},
		{Method: get, Pattern: base + "/others", Access: in("asset:r"), Handler: at(h.others), Out: []Others{}},
		{Method: post, Pattern: base + "/ignore", Access: in("asset:w"), Handler: at(h.ignore), In: ignoreBody{}, Out: Report{}},
		{Method: del, Pattern: base + "/ignore/{findingId}", Access: in("asset:w"), Handler: at(h.unignore), Out: Report{}},
		{Method: get, Pattern: base + "/settings", Access: in("portal:r"), Handler: at(h.settings), Out: Settings{}},
		{Method: put, Pattern: base + "/settings", Access: in("portal:w"), Handler: at(h.saveSettings), In: Settings{}, Out: Settings{}},
	}
}

func (h *Handler) workspace(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	v, err := h.svc.Workspace(r.Context(), caller.Must(r.Context()), pa, r.URL.Query().Get("path"))
	return httpx.Respond(w, v, err)
}

func (h *Handler) commit(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	v, err := h.svc.Commit(r.Context(), caller.Must(r.Context()), pa, chi.URLParam(r, "commitId"))
	return httpx.Respond(w, v, err)
}

func (h *Handler) others(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	v, err := h.svc.Others(r.Context(), caller.Must(r.Context()), pa)
	return httpx.Respond(w, v, err)
}

type ignoreBody struct {
	FindingID string `json:"findingId"`
	Reason    string `json:"reason"`
}

func (h *Handler) ignore(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var b ignoreBody
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	v, err := h.svc.Ignore(r.Context(), caller.Must(r.Context()), pa, b.FindingID, b.Reason)
	return httpx.Respond(w, v, err)
}

func (h *Handler) unignore(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	v, err := h.svc.Unignore(r.Context(), caller.Must(r.Context()), pa, chi.URLParam(r, "findingId"))
	return httpx.Respond(w, v, err)
}

func (h *Handler) settings(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	v, err := h.svc.Settings(r.Context(), caller.Must(r.Context()), pa)
	return httpx.Respond(w, v, err)
}

func (h *Handler) saveSettings(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var b Settings
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	v, err := h.svc.SaveSettings(r.Context(), caller.Must(r.Context()), pa, b)
	return httpx.Respond(w, v, err)
}
