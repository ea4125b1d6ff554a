package page

import (
	"errors"
	"net/http"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/httpx"
	"portalwright/internal/portalaccess"
)

// Handler serves /page and the page designer's /portal calls (the contract in docs/api.md
// "Sitemap", "Pages", "Batch save" and "Search").
type Handler struct {
	svc    *Service
	access *portalaccess.Checker
}

// NewHandler returns the page routes over svc; access checks the portal of every call.
func NewHandler(svc *Service, access *portalaccess.Checker) *Handler {
	return &Handler{svc: svc, access: access}
}

// Routes lists the sitemap call (the designer's calls are listed by DesignerRoutes).
func (h *Handler) Routes() []httpx.Route {
	const p = "/page/{domainId}/{portalId}"
	return []httpx.Route{
		{Method: http.MethodGet, Pattern: p + "/sitemap", Access: httpx.Requires("page:r", "domainId"), Handler: h.access.Handle(h.sitemap), Out: SitemapPage{}},
	}
}

// Designer is the page designer's calls: the pages API, the batch save, search and the
// master page.
type Designer struct{ h *Handler }

// NewDesigner returns the page designer's routes over svc.
func NewDesigner(svc *Service, access *portalaccess.Checker) *Designer {
	return &Designer{h: NewHandler(svc, access)}
}

// Routes lists the page designer's calls.
func (d *Designer) Routes() []httpx.Route {
	h := d.h
	in := httpx.InDomain
	at := h.access.Handle
	const p = "/page/{domainId}/{portalId}"
	const pp = "/portal/{domainId}/{portalId}"
	return []httpx.Route{
		{Method: http.MethodGet, Pattern: p + "/{page}", Access: in("page:r"), Handler: at(h.get), Out: Page{}},
		{Method: http.MethodPost, Pattern: p, Access: in("page:c"), Handler: at(h.add), In: AddRequest{}, Out: Page{}, Status: http.StatusCreated},
		{Method: http.MethodPut, Pattern: p, Access: in("page:w"), Handler: at(h.update), In: UpdateRequest{}, Out: Page{}},
		{Method: http.MethodDelete, Pattern: p + "/{page}", Access: in("page:d"), Handler: at(h.delete), Out: Deleted{}},
		{Method: http.MethodPost, Pattern: p + "/clone/{page}", Access: in("page:c"), Handler: at(h.clone), In: CloneRequest{}, Out: Page{}, Status: http.StatusCreated},
		{Method: http.MethodPost, Pattern: pp + "/batch", Access: in("page:w"), Handler: at(h.batch), In: []BatchItem{}, Out: []BatchResult{}},
		{Method: http.MethodGet, Pattern: pp + "/search", Access: in("page:r"), Handler: at(h.search), Out: SearchResult{}},
		{Method: http.MethodGet, Pattern: pp + "/masterpage/{language}", Access: in("page:r"), Handler: at(h.masterPage), Out: MasterPage{}},
	}
}

func (h *Handler) sitemap(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	root, version, err := h.svc.SitemapVersion(r.Context(), caller.Must(r.Context()), pa)
	if err == nil {
		w.Header().Set("ETag", `"`+version+`"`) // the sitemapVersion of the page calls
	}
	return httpx.Respond(w, root, err)
}

func (h *Handler) get(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	page, err := h.svc.Get(r.Context(), caller.Must(r.Context()), pa, chi.URLParam(r, "page"))
	return httpx.Respond(w, page, err)
}

func (h *Handler) add(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var req AddRequest
	if err := decode(w, r, &req, MsgAddFailed); err != nil {
		return err
	}
	page, err := h.svc.Add(r.Context(), caller.Must(r.Context()), pa, req)
	if err != nil {
		return err
	}
	return httpx.Created(w, page)
}

func (h *Handler) update(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var req UpdateRequest
	if err := decode(w, r, &req, MsgUpdateFailed); err != nil {
		return err
	}
	page, err := h.svc.Update(r.Context(), caller.Must(r.Context()), pa, req)
	return httpx.Respond(w, page, err)
}

func (h *Handler) delete(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	q := r.URL.Query()
	opt := func(name string) *string {
		if !q.Has(name) {
			return nil
		}
		v := q.Get(name)
		return &v
	}
	out, err := h.svc.Delete(r.Context(), caller.Must(r.Context()), pa, chi.URLParam(r, "page"), opt("sitemapVersion"), opt("version"))
	return httpx.Respond(w, out, err)
}

func (h *Handler) clone(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var req CloneRequest
	if err := decode(w, r, &req, MsgCloneFailed); err != nil {
		return err
	}
	page, err := h.svc.Clone(r.Context(), caller.Must(r.Context()), pa, chi.URLParam(r, "page"), req)
	if err != nil {
		return err
	}
	return httpx.Created(w, page)
}

func (h *Handler) batch(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var items []BatchItem
	if err := decode(w, r, &items, "Could not save design surface changes."); err != nil {
		return err
	}
	out, err := h.svc.Batch(r.Context(), caller.Must(r.Context()), pa, items)
	return httpx.Respond(w, out, err)
}

func (h *Handler) search(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	out, err := h.svc.Search(r.Context(), caller.Must(r.Context()), pa, r.URL.Query().Get("phrase"))
	return httpx.Respond(w, out, err)
}

func (h *Handler) masterPage(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	out, err := h.svc.MasterPage(r.Context(), caller.Must(r.Context()), pa, chi.URLParam(r, "language"))
	return httpx.Respond(w, out, err)
}

// MaxBody bounds the body of a page call or a batch: pages' HTML is sent whole.
const MaxBody = 16 << 20

// decode reads a JSON body of at most MaxBody bytes into v (httpx.DecodeMax: the one JSON
// decoder); every failure is titled with the call's title.
func decode(_ http.ResponseWriter, r *http.Request, v any, title string) error {
	err := httpx.DecodeMax(r, v, MaxBody)
	var e *apperr.Error
	if errors.As(err, &e) {
		titled := *e
		titled.Title = title
		return &titled
	}
	return err
}
