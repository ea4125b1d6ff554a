package portal

import (
	"bytes"
	"encoding/json"
	"net/http"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/httpx"
)

// Template handlers.

func (h *Handler) templates(w http.ResponseWriter, r *http.Request, domainID int64) error {
	v, err := h.tmpl.Templates(r.Context(), domainID)
	return httpx.Respond(w, v, err)
}

type templateBody struct {
	ID           int64  `json:"id"`
	Name         string `json:"name"`
	TemplateName string `json:"templateName"`
	Starter      string `json:"starter"`
	PortalID     *int64 `json:"portalId"`
}

// name is templateName, or name when only that was sent (spec 3 §3: name or templateName).
func (b templateBody) name() string {
	if b.TemplateName != "" {
		return b.TemplateName
	}
	return b.Name
}

func (h *Handler) createTemplate(w http.ResponseWriter, r *http.Request, domainID int64) error {
	var b templateBody
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	v, err := h.tmpl.CreateTemplate(r.Context(), caller.Must(r.Context()), domainID, b.TemplateName, b.Starter, b.PortalID)
	if err != nil {
		return err
	}
	return httpx.Created(w, v)
}

// templatePut is the whole template object; the raw fields tell absent from null.
type templatePut struct {
	ID           int64           `json:"id"`
	Name         string          `json:"name"`
	TemplateName string          `json:"templateName"`
	PortalID     json.RawMessage `json:"portalId"`
	Starter      *string         `json:"starter"`
	URL          *string         `json:"url"`
	Accounts     []int64         `json:"accounts"`
	// updating, updateError, engineType and builtIn are the server's state: ignored.
}

func (h *Handler) updateTemplate(w http.ResponseWriter, r *http.Request, domainID int64) error {
	var b templatePut
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	c := TemplateChange{ID: b.ID, Name: templateBody{Name: b.Name, TemplateName: b.TemplateName}.name(), Starter: b.Starter, URL: b.URL, Accounts: b.Accounts}
	switch raw := bytes.TrimSpace(b.PortalID); {
	case len(raw) == 0:
	case string(raw) == "null":
		c.PortalIDNull = true
	default:
		var id int64
		if err := json.Unmarshal(raw, &id); err != nil {
			return apperr.Validation("portalId must be a number or null.")
		}
		c.PortalID = &id
	}
	v, err := h.tmpl.UpdateTemplate(r.Context(), caller.Must(r.Context()), domainID, c)
	return httpx.Respond(w, v, err)
}

func (h *Handler) deleteTemplate(w http.ResponseWriter, r *http.Request) error {
	ids, err := httpx.PathIDs(r, "domainId", "templateId")
	if err != nil {
		return err
	}
	return httpx.Respond(w, nil, h.tmpl.DeleteTemplate(r.Context(), caller.Must(r.Context()), ids[0], ids[1]))
}

// templateBranches answers the create-from-template dialog: the branches a portal made from
// the template would have. The body is the template object (id, or templateName/name, or
// starter).
func (h *Handler) templateBranches(w http.ResponseWriter, r *http.Request, domainID int64) error {
	var b templateBody
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	v, err := h.tmpl.TemplateBranches(r.Context(), domainID, TemplateRef{ID: b.ID, Name: b.name(), Starter: b.Starter})
	return httpx.Respond(w, referencesAnswer{AllReferences: v}, err)
}
