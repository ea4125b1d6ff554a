package loadable

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"os"
	"strconv"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/handover"
	"portalwright/internal/httpx"
	"portalwright/internal/portalaccess"
)

// Hand-over of approved loadables to the downstream systems an operator configures
// (internal/handover; spec 3 §7 unity/… and scmdb/…). Only an APPROVED loadable whose package
// still matches its record is queued; the hand-over service sends each (loadable, target)
// once.

// WithHandOver sets the hand-over service (nil: the calls answer 503).
func (s *Service) WithHandOver(h *handover.Service) *Service { s.handover = h; return s }

func (s *Service) handOverService() (*handover.Service, error) {
	if s.handover == nil {
		return nil, apperr.NewError(http.StatusServiceUnavailable, "HANDOVER_UNAVAILABLE", "Hand-over is unavailable", "No hand-over is configured on this server.")
	}
	return s.handover, nil
}

// Targets are the configured targets of a system ("" for all).
func (s *Service) Targets(system string) ([]handover.Target, error) {
	h, err := s.handOverService()
	if err != nil {
		return nil, err
	}
	t := h.Targets(system)
	if t == nil {
		t = []handover.Target{}
	}
	return t, nil
}

// HandOver queues an approved loadable's package for a target of the system.
func (s *Service) HandOver(ctx context.Context, c caller.Caller, pa portalaccess.Portal, id int64, system, target string) (*handover.Delivery, error) {
	h, err := s.handOverService()
	if err != nil {
		return nil, err
	}
	l, err := s.Get(ctx, pa, id)
	if err != nil {
		return nil, err
	}
	if l.Status != Approved {
		return nil, apperr.Conflict("LOADABLE_NOT_APPROVED", "Only an approved loadable can be handed over; this one is "+string(l.Status)+".")
	}
	known := false
	for _, t := range h.Targets(system) {
		known = known || t.Name == target
	}
	if !known {
		return nil, apperr.BadRequest("UNKNOWN_TARGET", "There is no "+system+" target named "+strconv.Quote(target)+".")
	}
	if err := s.checkArchive(l); err != nil {
		return nil, err
	}
	manifest, err := readManifest(s.archivePath(l))
	if err != nil {
		return nil, apperr.Conflict("LOADABLE_TAMPERED", "The loadable's package cannot be read: "+err.Error())
	}
	return h.Enqueue(ctx, c.UserID, handover.Package{LoadableID: l.ID, DomainID: l.DomainID, PortalID: l.PortalID,
		DomainName: pa.DomainName(), PortalName: pa.Name(), Name: l.Name, Version: l.Version, PartNumber: l.PartNumber,
		FileName: l.FileName, ArchivePath: s.archivePath(l), SHA256: l.SHA256, Manifest: manifest}, target)
}

// Deliveries are a loadable's hand-overs.
func (s *Service) Deliveries(ctx context.Context, pa portalaccess.Portal, id int64) ([]handover.Delivery, error) {
	h, err := s.handOverService()
	if err != nil {
		return nil, err
	}
	if _, err := s.Get(ctx, pa, id); err != nil {
		return nil, err
	}
	list, err := h.Deliveries(ctx, id)
	if list == nil {
		list = []handover.Delivery{}
	}
	return list, err
}

// RetryDelivery queues a failed hand-over of the loadable again.
func (s *Service) RetryDelivery(ctx context.Context, pa portalaccess.Portal, id, deliveryID int64) (*handover.Delivery, error) {
	h, err := s.handOverService()
	if err != nil {
		return nil, err
	}
	l, err := s.Get(ctx, pa, id)
	if err != nil {
		return nil, err
	}
	d, err := h.Get(ctx, deliveryID)
	if err != nil || d.LoadableID != l.ID {
		return nil, apperr.NotFound("DELIVERY_NOT_FOUND", "There is no such hand-over of this loadable.")
	}
	if l.Status != Approved {
		return nil, apperr.Conflict("LOADABLE_NOT_APPROVED", "Only an approved loadable can be handed over; this one is "+string(l.Status)+".")
	}
	if err := s.checkArchive(l); err != nil {
		return nil, err
	}
	return h.Retry(ctx, deliveryID)
}

// readManifest reads manifest.json, the first entry of a package.
func readManifest(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(gz)
	h, err := tr.Next()
	if err != nil || h.Name != ManifestName {
		return nil, ErrTampered
	}
	return io.ReadAll(io.LimitReader(tr, 64<<20))
}

// HandOverRoutes are the hand-over calls under Base.
func (h *Handler) HandOverRoutes() []httpx.Route {
	in := httpx.InDomain
	at := h.access.Handle
	return []httpx.Route{
		{Method: http.MethodGet, Pattern: Base + "/unity/profiles/{id}", Access: in(PermRead), Handler: at(withID(h.profiles)), Out: []handover.Target{}},
		{Method: http.MethodPost, Pattern: Base + "/unity/{id}", Access: in(PermApprove), Handler: at(withID(h.handOver("unity"))), In: handOverBody{}, Out: handover.Delivery{}, Status: http.StatusAccepted},
		{Method: http.MethodPost, Pattern: Base + "/scmdb/{id}", Access: in(PermApprove), Handler: at(withID(h.handOver("scmdb"))), In: handOverBody{}, Out: handover.Delivery{}, Status: http.StatusAccepted},
		{Method: http.MethodGet, Pattern: Base + "/handover/{id}", Access: in(PermRead), Handler: at(withID(h.deliveries)), Out: []handover.Delivery{}},
		{Method: http.MethodPost, Pattern: Base + "/handover/{id}/retry/{deliveryId}", Access: in(PermApprove), Handler: at(withID(h.retryDelivery)), In: httpx.NoBody, Out: handover.Delivery{}},
	}
}

func (h *Handler) profiles(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal, id int64) error {
	if _, err := h.svc.Get(r.Context(), pa, id); err != nil {
		return err
	}
	t, err := h.svc.Targets("")
	if err != nil {
		return err
	}
	return httpx.OK(w, t)
}

func (h *Handler) handOver(system string) func(http.ResponseWriter, *http.Request, portalaccess.Portal, int64) error {
	return func(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal, id int64) error {
		var in handOverBody
		if err := httpx.Decode(r, &in); err != nil {
			return err
		}
		d, err := h.svc.HandOver(r.Context(), caller.Must(r.Context()), pa, id, system, in.Target)
		if err != nil {
			return err
		}
		return httpx.JSON(w, http.StatusAccepted, d)
	}
}

func (h *Handler) deliveries(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal, id int64) error {
	list, err := h.svc.Deliveries(r.Context(), pa, id)
	if err != nil {
		return err
	}
	return httpx.OK(w, list)
}

func (h *Handler) retryDelivery(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal, id int64) error {
	did, ok := httpx.ParseID(chi.URLParam(r, "deliveryId"))
	if !ok {
		return apperr.BadRequest("INVALID_ID", "The delivery id must be a positive number.")
	}
	d, err := h.svc.RetryDelivery(r.Context(), pa, id, did)
	if err != nil {
		return err
	}
	return httpx.OK(w, d)
}

// handOverBody names the target system a loadable is handed over to.
type handOverBody struct {
	Target string `json:"target"`
}
