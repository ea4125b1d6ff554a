package notify

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/apperr"
	"portalwright/internal/httpx"
)

// Handler serves the outbox of the Administration area.
type Handler struct{ o *Outbox }

func NewHandler(o *Outbox) *Handler { return &Handler{o: o} }

func (h *Handler) Routes() []httpx.Route {
	return []httpx.Route{
		// Query: status (one of Statuses), to (part of the recipient address), limit (1–1000, default 100).
		{Method: http.MethodGet, Pattern: "/admin/outbox", Access: httpx.AdminOnly, Handler: h.list, Out: []Message{}},
		// 204; 404 MAIL_NOT_FOUND; 409 MAIL_ALREADY_SENT or MAIL_SENDING.
		{Method: http.MethodPost, Pattern: "/admin/outbox/{id}/retry", Access: httpx.AdminOnly, Handler: h.retry, In: httpx.NoBody, Out: httpx.NoBody},
	}
}

func (h *Handler) list(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	f := Filter{Status: q.Get("status"), To: q.Get("to")}
	if f.Status != "" && !slices.Contains(Statuses, f.Status) {
		return apperr.BadRequest("INVALID_STATUS", "Unknown e-mail status '"+f.Status+"'.")
	}
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > 1000 {
			return apperr.BadRequest("INVALID_LIMIT", "The limit must be a number from 1 to 1000.")
		}
		f.Limit = n
	}
	msgs, err := h.o.List(r.Context(), f)
	if err != nil {
		return err
	}
	return httpx.OK(w, msgs)
}

func (h *Handler) retry(w http.ResponseWriter, r *http.Request) error {
	id, ok := httpx.ParseID(chi.URLParam(r, "id"))
	if !ok {
		return apperr.BadRequest("INVALID_ID", "The e-mail id must be a positive number.")
	}
	if err := h.o.Retry(r.Context(), id); err != nil {
		return err
	}
	return httpx.NoContent(w)
}
