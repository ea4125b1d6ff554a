package portal

import (
	"net/http"

	"portalwright/internal/httpx"
	"portalwright/internal/portalaccess"
)

// Microsite handlers.

func (h *Handler) microsites(w http.ResponseWriter, r *http.Request, domainID int64) error {
	v, err := h.sites.Microsites(r.Context(), domainID)
	return httpx.Respond(w, v, err)
}

type micrositeBody struct {
	PortalID   int64   `json:"portalId"`
	Microsites []int64 `json:"microsites"`
}

func (h *Handler) linkMicrosites(link bool) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		ids, err := httpx.PathIDs(r, "domainId")
		if err != nil {
			return err
		}
		var b micrositeBody
		if err := httpx.Decode(r, &b); err != nil {
			return err
		}
		pa, err := h.access.Check(r.Context(), ids[0], b.PortalID) // the portal named in the body
		if err != nil {
			return err
		}
		return httpx.Respond(w, nil, h.sites.LinkMicrosites(r.Context(), pa, b.Microsites, link))
	}
}

func (h *Handler) linkedMicrosites(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	v, err := h.sites.LinkedMicrosites(r.Context(), pa)
	return httpx.Respond(w, v, err)
}
