package portal

import (
	"net/http"

	"portalwright/internal/caller"
	"portalwright/internal/httpx"
)

// Template handlers.

func (h *Handler) templates(w http.ResponseWriter, r *http.Request, domainID int64) error {
	v, err := h.svc.Templates(r.Context(), domainID)
	return httpx.Respond(w, v, err)
}

type templateBody struct {
	ID           int64  `json:"id"`
	TemplateName string `json:"templateName"`
	Starter      string `json:"starter"`
	PortalID     *int64 `json:"portalId"`
}

func (h *Handler) createTemplate(w http.ResponseWriter, r *http.Request, domainID int64) error {
	var b templateBody
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	v, err := h.svc.CreateTemplate(r.Context(), caller.Must(r.Context()), domainID, b.TemplateName, b.Starter, b.PortalID)
	if err != nil {
		return err
	}
	return httpx.Created(w, v)
}

func (h *Handler) renameTemplate(w http.ResponseWriter, r *http.Request, domainID int64) error {
	var b templateBody
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	return httpx.Respond(w, nil, h.svc.RenameTemplate(r.Context(), domainID, b.ID, b.TemplateName))
}

func (h *Handler) deleteTemplate(w http.ResponseWriter, r *http.Request) error {
	ids, err := httpx.PathIDs(r, "domainId", "templateId")
	if err != nil {
		return err
	}
	return httpx.Respond(w, nil, h.svc.DeleteTemplate(r.Context(), caller.Must(r.Context()), ids[0], ids[1]))
}
