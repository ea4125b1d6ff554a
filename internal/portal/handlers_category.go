package portal

import (
	"net/http"
	"strings"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/httpx"
)

// Category handlers.

type nameBody struct {
	Name string `json:"name"`
}

func (h *Handler) categories(w http.ResponseWriter, r *http.Request, domainID int64) error {
	v, err := h.cat.Categories(r.Context(), domainID)
	return httpx.Respond(w, v, err)
}

func (h *Handler) createCategory(w http.ResponseWriter, r *http.Request, domainID int64) error {
	var b nameBody
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	v, err := h.cat.CreateCategory(r.Context(), caller.Must(r.Context()), domainID, b.Name)
	if err != nil {
		return err
	}
	return httpx.Created(w, v)
}

func (h *Handler) renameCategory(w http.ResponseWriter, r *http.Request) error {
	ids, err := httpx.PathIDs(r, "domainId", "id")
	if err != nil {
		return err
	}
	var b nameBody
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	return httpx.Respond(w, nil, h.cat.RenameCategory(r.Context(), caller.Must(r.Context()), ids[0], ids[1], b.Name))
}

func (h *Handler) deleteCategory(w http.ResponseWriter, r *http.Request) error {
	ids, err := httpx.PathIDs(r, "domainId", "id")
	if err != nil {
		return err
	}
	return httpx.Respond(w, nil, h.cat.DeleteCategory(r.Context(), caller.Must(r.Context()), ids[0], ids[1]))
}

// link reads portalIds as a comma-separated list or repeated parameters.
func (h *Handler) link(link bool) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		ids, err := httpx.PathIDs(r, "domainId", "id")
		if err != nil {
			return err
		}
		var portals []int64
		for _, v := range r.URL.Query()["portalIds"] {
			for _, part := range strings.Split(v, ",") {
				n, ok := httpx.ParseID(strings.TrimSpace(part))
				if !ok {
					return apperr.BadRequest("INVALID_ID", "portalIds must be portal ids separated by commas.")
				}
				portals = append(portals, n)
			}
		}
		return httpx.Respond(w, nil, h.cat.LinkPortals(r.Context(), ids[0], ids[1], portals, link))
	}
}
