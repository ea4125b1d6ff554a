package loadable

import (
	"context"
	"mime"
	"net/http"
	"os"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/httpx"
	"portalwright/internal/portalaccess"
)

// Previews makes a LOADABLE preview of a package (the shared previews).
type Previews interface {
	CreateFromPackage(ctx context.Context, c caller.Caller, pa portalaccess.Portal, versionTag, emulator string,
		extract func(dest string) error, r *http.Request) (any, error)
}

// Handler serves /loadable/{domainId}/{portalId}/… (docs/api.md "Loadables").
type Handler struct {
	svc      *Service
	access   *portalaccess.Checker
	previews Previews
}

// NewHandler serves svc; previews may be nil (no loadable previews).
func NewHandler(svc *Service, access *portalaccess.Checker, previews Previews) *Handler {
	return &Handler{svc: svc, access: access, previews: previews}
}

// Base is the loadable routes' prefix.
const Base = "/loadable/{domainId}/{portalId}"

func (h *Handler) Routes() []httpx.Route {
	in := httpx.InDomain
	at := h.access.Handle
	get, post, put, head := http.MethodGet, http.MethodPost, http.MethodPut, http.MethodHead
	routes := []httpx.Route{
		{Method: get, Pattern: Base, Access: in(PermRead), Handler: at(h.list), Out: []Loadable{}},
		{Method: post, Pattern: Base, Access: in(PermCreate), Handler: at(h.create), In: Request{}, Out: Loadable{}, Status: http.StatusCreated},
		{Method: get, Pattern: Base + "/gitvalidation", Access: in(PermCreate), Handler: at(h.gitValidation), Out: GitValidation{}},
		{Method: get, Pattern: Base + "/copyright", Access: in(PermCreate), Handler: at(h.copyright), Out: Copyright{}},
		{Method: head, Pattern: Base + "/download/{name}", Access: in(PermRead), Handler: at(h.download), Out: httpx.File},
		{Method: get, Pattern: Base + "/download/{name}", Access: in(PermRead), Handler: at(h.download), Out: httpx.File},
		{Method: post, Pattern: Base + "/generate/{id}", Access: in(PermCreate), Handler: at(withID(h.generate)), In: httpx.NoBody, Out: Loadable{}, Status: http.StatusAccepted},
		{Method: get, Pattern: Base + "/latestloadables", Access: in(PermRead), Handler: at(h.latest), Out: []Loadable{}},
		{Method: post, Pattern: Base + "/preview", Access: in(PermRead), Handler: at(h.preview), In: previewBody{}, Out: httpx.AnswerOf{Method: post, Pattern: "/preview/{domainId}/{portalId}"}, Status: http.StatusAccepted},
		{Method: get, Pattern: Base + "/generateName", Access: in(PermCreate), Handler: at(h.generateName), Out: nameAnswer{}},
		{Method: post, Pattern: Base + "/approve/{id}", Access: in(PermApprove), Handler: at(withID(h.approve)), In: approveBody{}, Out: Loadable{}},
		{Method: put, Pattern: Base + "/reject/{id}", Access: in(PermApprove), Handler: at(withID(h.reject)), In: rejectBody{}, Out: Loadable{}},
		{Method: get, Pattern: Base + "/getCopyright/{id}", Access: in(PermRead), Handler: at(withID(h.getCopyright)), Out: Copyright{}},
		{Method: get, Pattern: Base + "/unity/partNumber", Access: in(PermCreate), Handler: at(h.partNumber), Out: partNumberAnswer{}},
	}
	return append(routes, h.HandOverRoutes()...)
}

// ID reads the {id} parameter.
func ID(r *http.Request) (int64, error) {
	id, ok := httpx.ParseID(chi.URLParam(r, "id"))
	if !ok {
		return 0, apperr.BadRequest("INVALID_ID", "The loadable id must be a positive number.")
	}
	return id, nil
}

func (h *Handler) list(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	list, err := h.svc.List(r.Context(), pa)
	if err != nil {
		return err
	}
	if list == nil {
		list = []*Loadable{}
	}
	return httpx.OK(w, list)
}

func (h *Handler) latest(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	list, err := h.svc.Latest(r.Context(), pa)
	if err != nil {
		return err
	}
	return httpx.OK(w, list)
}

func (h *Handler) create(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var in Request
	if err := httpx.Decode(r, &in); err != nil {
		return err
	}
	l, err := h.svc.Create(r.Context(), caller.Must(r.Context()), pa, in, httpx.ClientAddr(r))
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusCreated, l)
}

func (h *Handler) gitValidation(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	q := r.URL.Query()
	v, err := h.svc.ValidateRef(r.Context(), caller.Must(r.Context()), pa, q.Get("type"), q.Get("branch"))
	if err != nil {
		return err
	}
	return httpx.OK(w, v)
}

func (h *Handler) copyright(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	q := r.URL.Query()
	c := caller.Must(r.Context())
	if q.Get("checkRefs") == "true" {
		if v, err := h.svc.ValidateRef(r.Context(), c, pa, q.Get("type"), q.Get("branch")); err != nil {
			return err
		} else if !v.Valid {
			return apperr.NotFound("GIT_REF_NOT_FOUND", v.Message)
		}
	}
	out, err := h.svc.CopyrightFor(r.Context(), c, pa, q.Get("type"), q.Get("branch"), httpx.ClientAddr(r))
	if err != nil {
		return err
	}
	return httpx.OK(w, out)
}

func (h *Handler) generateName(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	name, err := h.svc.SuggestName(r.Context(), pa, r.URL.Query().Get("contentType"))
	if err != nil {
		return err
	}
	return httpx.OK(w, nameAnswer{Name: name})
}

func (h *Handler) partNumber(w http.ResponseWriter, r *http.Request, _ portalaccess.Portal) error {
	q := r.URL.Query()
	return httpx.OK(w, partNumberAnswer{PartNumber: SuggestPartNumber(q.Get("foldetName"), q.Get("contentType"), q.Get("contentTag"))})
}

// withID runs f with the {id} of the URL.
func withID(f func(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal, id int64) error) portalaccess.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
		id, err := ID(r)
		if err != nil {
			return err
		}
		return f(w, r, pa, id)
	}
}

func (h *Handler) generate(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal, id int64) error {
	l, err := h.svc.Generate(r.Context(), caller.Must(r.Context()), pa, id)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusAccepted, l)
}

// approve takes an optional body {"overrideReason": "…"}: why a loadable is approved over the
// readiness gate (clients that send no body approve as before).
func (h *Handler) approve(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal, id int64) error {
	var in approveBody
	if err := decodeOptional(r, &in); err != nil {
		return err
	}
	l, err := h.svc.Approve(r.Context(), caller.Must(r.Context()), pa, id, in.OverrideReason)
	return httpx.Respond(w, l, err)
}

func (h *Handler) reject(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal, id int64) error {
	var in rejectBody
	if err := decodeOptional(r, &in); err != nil {
		return err
	}
	l, err := h.svc.Reject(r.Context(), caller.Must(r.Context()), pa, id, in.Reason)
	return httpx.Respond(w, l, err)
}

// decodeOptional decodes a body the call may go without (a decision's reason).
func decodeOptional(r *http.Request, v any) error {
	if r.ContentLength == 0 {
		return nil
	}
	return httpx.Decode(r, v)
}

func (h *Handler) getCopyright(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal, id int64) error {
	l, err := h.svc.Get(r.Context(), pa, id)
	if err != nil {
		return err
	}
	return httpx.OK(w, l.Copyright)
}

// download streams a package (HEAD and GET; ranges; the ETag is its SHA-256).
func (h *Handler) download(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	l, f, err := h.svc.Open(r.Context(), pa, chi.URLParam(r, "name"))
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return apperr.Internal(err)
	}
	hd := w.Header()
	hd.Set("Content-Type", "application/gzip")
	hd.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": l.FileName}))
	hd.Set("ETag", `"`+l.SHA256+`"`)
	hd.Set("X-Content-SHA256", l.SHA256)
	hd.Set("Cache-Control", "private, no-cache")
	http.ServeContent(w, r, "", st.ModTime(), f)
	return nil
}

// preview makes a LOADABLE preview of a generated package (body versionTag, emulator).
func (h *Handler) preview(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	if h.previews == nil {
		return apperr.NewError(http.StatusServiceUnavailable, "PREVIEW_UNAVAILABLE", "Failed to generate loadable preview", "Previews are not available on this server.")
	}
	var in previewBody
	if err := httpx.Decode(r, &in); err != nil {
		return err
	}
	_, f, err := h.svc.Package(r.Context(), pa, in.VersionTag)
	if err != nil {
		return err
	}
	path := f.Name()
	f.Close()
	p, err := h.previews.CreateFromPackage(r.Context(), caller.Must(r.Context()), pa, in.VersionTag, in.Emulator, func(dest string) error {
		file, err := os.Open(path)
		if err != nil {
			return err
		}
		defer file.Close()
		return Extract(file, dest)
	}, r)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusAccepted, p)
}

// The bodies and answers of the calls above that have no type of their own in the service.
type (
	// approveBody: an approval's optional reason to override the readiness gate.
	approveBody struct {
		OverrideReason string `json:"overrideReason"`
	}
	// rejectBody: a rejection's optional reason.
	rejectBody struct {
		Reason string `json:"reason"`
	}
	// previewBody: the package (by version tag) to preview, and the emulator.
	previewBody struct {
		VersionTag string `json:"versionTag"`
		Emulator   string `json:"emulator"`
	}
	// nameAnswer: a suggested loadable name.
	nameAnswer struct {
		Name string `json:"name"`
	}
	// partNumberAnswer: a suggested part number.
	partNumberAnswer struct {
		PartNumber string `json:"partNumber"`
	}
)
