package upstream

import (
	"io"
	"net/http"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/httpx"
	"portalwright/internal/portalaccess"
)

// maxWebhookBody bounds what a webhook may send (push payloads are a few KiB to a few hundred).
const maxWebhookBody = 1 << 20

// Handler serves /upstream: thin, every rule is in the service.
type Handler struct {
	svc    *Service
	access *portalaccess.Checker
}

func NewHandler(svc *Service, access *portalaccess.Checker) *Handler {
	return &Handler{svc: svc, access: access}
}

func (h *Handler) Routes() []httpx.Route {
	in := httpx.InDomain
	at := h.access.Handle
	const p = "/upstream/{domainId}/{portalId}"
	return []httpx.Route{
		{Method: http.MethodGet, Pattern: p, Access: in("portal:r"), Handler: at(h.status), Out: Status{}},
		{Method: http.MethodPost, Pattern: p + "/sync", Access: in("portal:w"), Handler: at(h.sync), In: httpx.NoBody, Out: Status{}},
		{Method: http.MethodPut, Pattern: p + "/credentials", Access: in("portal_settings_write"), Handler: at(h.credentials), In: CredentialsInput{}, Out: Status{}},
		{Method: http.MethodGet, Pattern: p + "/webhook", Access: in("portal_settings_write"), Handler: at(h.webhook), Out: WebhookInfo{}},
		{Method: http.MethodPost, Pattern: p + "/webhook", Access: in("portal_settings_write"), Handler: at(h.rotateWebhook), In: httpx.NoBody, Out: WebhookInfo{}},
		// Public: the git host calls it; the handler checks the webhook's signature first.
		{Method: http.MethodPost, Pattern: "/upstream/webhook/{portalId}", Access: httpx.Public, Handler: httpx.WithID("portalId", h.receive), In: httpx.File, Out: WebhookAnswer{}},
	}
}

func (h *Handler) status(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	v, err := h.svc.Status(r.Context(), pa)
	return httpx.Respond(w, v, err)
}

func (h *Handler) sync(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	v, err := h.svc.Sync(r.Context(), caller.Must(r.Context()), pa)
	return httpx.Respond(w, v, err)
}

func (h *Handler) credentials(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var in CredentialsInput
	if err := httpx.Decode(r, &in); err != nil {
		return err
	}
	v, err := h.svc.SetCredentials(r.Context(), caller.Must(r.Context()), pa, in)
	return httpx.Respond(w, v, err)
}

func (h *Handler) webhook(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	v, err := h.svc.Webhook(r.Context(), pa)
	return httpx.Respond(w, v, err)
}

func (h *Handler) rotateWebhook(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	v, err := h.svc.RotateWebhook(r.Context(), caller.Must(r.Context()), pa)
	return httpx.Respond(w, v, err)
}

func (h *Handler) receive(w http.ResponseWriter, r *http.Request, portalID int64) error {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxWebhookBody+1))
	if err != nil {
		return apperr.BadRequest("INVALID_BODY", "The webhook's body could not be read.")
	}
	if len(body) > maxWebhookBody {
		return apperr.NewError(http.StatusRequestEntityTooLarge, "BODY_TOO_LARGE", "Payload Too Large", "A webhook body may be at most 1 MiB.")
	}
	v, err := h.svc.Receive(r.Context(), portalID, body, r.Header)
	return httpx.Respond(w, v, err)
}
