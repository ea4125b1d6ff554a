package page

import (
	"net/http"

	"portalwright/internal/caller"
	"portalwright/internal/httpx"
	"portalwright/internal/portalaccess"
)

// Handler serves /page (the contract in docs/api.md "Sitemap").
type Handler struct {
	svc    *Service
	access *portalaccess.Checker
}

// NewHandler returns the page routes over svc; access checks the portal of every call.
func NewHandler(svc *Service, access *portalaccess.Checker) *Handler {
	return &Handler{svc: svc, access: access}
}

// Routes lists the page calls.
func (h *Handler) Routes() []httpx.Route {
	const p = "/page/{domainId}/{portalId}"
	return []httpx.Route{
		{Method: http.MethodGet, Pattern: p + "/sitemap", Access: httpx.Requires("page:r", "domainId"), Handler: h.access.Handle(h.sitemap)},
	}
}

func (h *Handler) sitemap(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	root, err := h.svc.Sitemap(r.Context(), caller.Must(r.Context()), pa)
	return httpx.Respond(w, root, err)
}
