package whitelist

import (
	"net/http"

	"portalwright/internal/caller"
	"portalwright/internal/httpx"
	"portalwright/internal/portalaccess"
)

// Handler serves /whitelist (docs/api.md "Whitelist"): thin, every rule is in the Service.
type Handler struct {
	svc    *Service
	access *portalaccess.Checker
}

// NewHandler returns the whitelist routes over svc; access checks the portal of every call.
func NewHandler(svc *Service, access *portalaccess.Checker) *Handler {
	return &Handler{svc: svc, access: access}
}

// Routes lists the whitelist calls (spec 3 §7 "Whitelist"). The spec names whitelist:r only;
// writing needs whitelist:w (whitelist_write).
func (h *Handler) Routes() []httpx.Route {
	get, put := http.MethodGet, http.MethodPut
	in := httpx.InDomain
	at := h.access.Handle
	const p = "/whitelist/{domainId}/{portalId}"
	return []httpx.Route{
		{Method: get, Pattern: p + "/get-whitelist", Access: in("whitelist:r"), Handler: at(h.get), Out: Whitelist{}},
		{Method: put, Pattern: p + "/save-whitelist", Access: in("whitelist:w"), Handler: at(h.save), In: SaveRequest{}, Out: Whitelist{}},
		{Method: get, Pattern: p + "/check-portal", Access: in("whitelist:r"), Handler: at(h.check), Out: Check{}},
	}
}

func (h *Handler) get(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	wl, err := h.svc.Get(r.Context(), caller.Must(r.Context()), pa)
	return httpx.Respond(w, wl, err)
}

func (h *Handler) save(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var req SaveRequest
	if err := httpx.Decode(r, &req); err != nil {
		return err
	}
	wl, err := h.svc.Save(r.Context(), caller.Must(r.Context()), pa, req)
	return httpx.Respond(w, wl, err)
}

func (h *Handler) check(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	res, err := h.svc.CheckPortal(r.Context(), caller.Must(r.Context()), pa)
	return httpx.Respond(w, res, err)
}
