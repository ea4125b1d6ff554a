package asset

import (
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/httpx"
	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
)

// Handler serves /assets (the contract in docs/api.md "Assets").
type Handler struct {
	svc    *Service
	access *portalaccess.Checker

	encoded encodedFolders // folder answers encoded once (a shared listing is read only)
}

// encodedFolders keeps the JSON (and gzip) of the folder listings the service shares, so a
// folder read many times is encoded once. Bounded by bytes; past it, it starts over.
type encodedFolders struct {
	mu    sync.Mutex
	m     map[*Asset]*httpx.EncodedJSON
	bytes int
}

const maxEncodedBytes = 32 << 20

func (e *encodedFolders) of(a *Asset) (*httpx.EncodedJSON, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if enc, ok := e.m[a]; ok {
		return enc, nil
	}
	enc, err := httpx.EncodeJSON(a)
	if err != nil {
		return nil, err
	}
	if e.m == nil || e.bytes+len(enc.Bytes()) > maxEncodedBytes {
		e.m, e.bytes = map[*Asset]*httpx.EncodedJSON{}, 0
	}
	e.m[a] = enc
	e.bytes += len(enc.Bytes())
	return enc, nil
}

// NewHandler returns the asset routes over svc; access checks the portal of every call.
func NewHandler(svc *Service, access *portalaccess.Checker) *Handler {
	return &Handler{svc: svc, access: access}
}

// Routes lists the asset calls.
func (h *Handler) Routes() []httpx.Route {
	get, post, put := http.MethodGet, http.MethodPost, http.MethodPut
	in := httpx.InDomain
	at := h.access.Handle
	const p = "/assets/{domainId}/{portalId}"
	return []httpx.Route{
		{Method: get, Pattern: "/assets/assetSizeLimits", Access: httpx.Authenticated, Handler: h.limits, Out: SizeLimits{}},
		{Method: get, Pattern: p + "/src/info/*", Access: in("asset:r"), Handler: at(h.info), Out: Size{}},
		{Method: get, Pattern: p + "/src/*", Access: in("asset:r"), Handler: at(h.get), Out: Asset{}},
		{Method: get, Pattern: p + "/buffered/*", Access: in("asset:w"), Handler: at(h.download), Out: httpx.File},
		{Method: post, Pattern: p + "/src/*", Access: in("asset:c"), Handler: at(h.save), In: saveBody{}, Out: Asset{}},
		{Method: post, Pattern: p + "/delete", Access: in("asset:d"), Handler: at(h.delete), In: []string{}, Out: []DeleteResult{}},
		{Method: post, Pattern: p + "/folder/create", Access: in("asset:c"), Handler: at(h.mkdir), In: []string{}, Out: Asset{}, Status: http.StatusCreated},
		{Method: put, Pattern: p + "/folder/rename", Access: in("asset:w"), Handler: at(h.renameFolder), In: renameBody{}, Out: Asset{}},
		{Method: put, Pattern: p + "/file/rename", Access: in("asset:w"), Handler: at(h.renameFile), In: renameBody{}, Out: Asset{}},
		{Method: post, Pattern: p + "/multi/src/*", Access: in("asset:c"), Handler: at(h.upload), In: httpx.Upload, Out: UploadResult{}},
	}
}

// urlPath reads the asset path of the URL's wildcard (escaped per segment).
func urlPath(r *http.Request) (workspace.Path, error) {
	raw := chi.URLParam(r, "*")
	if r.URL.RawPath != "" { // chi matched the escaped path: the segments are still escaped
		s, err := url.PathUnescape(raw)
		if err != nil {
			return workspace.Path{}, badPath(raw)
		}
		raw = s
	}
	return ParsePath("/" + raw)
}

func (h *Handler) limits(w http.ResponseWriter, _ *http.Request) error {
	return httpx.OK(w, h.svc.SizeLimits())
}

func (h *Handler) info(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	p, err := urlPath(r)
	if err != nil {
		return err
	}
	sz, err := h.svc.ImageSize(r.Context(), caller.Must(r.Context()), pa, p)
	return httpx.Respond(w, sz, err)
}

// sandboxed keeps a portal's file from running as a page of the application's origin.
func sandboxed(w http.ResponseWriter) {
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
	w.Header().Set("Cache-Control", "no-store")
}

func (h *Handler) get(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	p, err := urlPath(r)
	if err != nil {
		return err
	}
	ctx, c := r.Context(), caller.Must(r.Context())
	isDir, err := h.svc.IsFolder(ctx, c, pa, p)
	if err != nil {
		return err
	}
	if isDir {
		a, err := h.svc.Get(ctx, c, pa, p)
		if err != nil {
			return err
		}
		enc, err := h.encoded.of(a)
		if err != nil {
			return err
		}
		return httpx.WriteEncoded(w, r, http.StatusOK, enc)
	}
	if r.URL.Query().Get("meta") == "1" {
		a, err := h.svc.Get(ctx, c, pa, p)
		if err != nil {
			return err
		}
		if a.Version != "" {
			httpx.SetETag(w, a.Version)
		}
		return httpx.OK(w, a)
	}
	f, info, err := h.svc.Open(ctx, c, pa, p)
	if err != nil {
		return err
	}
	defer f.Close()
	t, err := sniffed(f, info.Name)
	if err != nil {
		return apperr.Internal(err)
	}
	sandboxed(w)
	httpx.SetETag(w, string(info.Version))
	w.Header().Set("Content-Type", t.ContentType())
	w.Header().Set("Content-Length", strconv.FormatInt(info.Size, 10))
	_, _ = io.Copy(w, f)
	return nil
}

func (h *Handler) download(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	p, err := urlPath(r)
	if err != nil {
		return err
	}
	f, info, err := h.svc.Open(r.Context(), caller.Must(r.Context()), pa, p)
	if err != nil {
		return err
	}
	defer f.Close()
	t, err := sniffed(f, info.Name)
	if err != nil {
		return apperr.Internal(err)
	}
	sandboxed(w)
	w.Header().Set("Content-Type", t.ContentType())
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": info.Name}))
	httpx.SetETag(w, string(info.Version))
	http.ServeContent(w, r, "", info.ModTime, f)
	return nil
}

// ifMatch reads the version a save is based on: If-Match, else a new file (NoVersion).
func ifMatch(r *http.Request) workspace.Version {
	v := strings.TrimSpace(r.Header.Get("If-Match"))
	v = strings.Trim(strings.TrimPrefix(v, "W/"), `"`)
	if v == "" || v == "*" {
		return workspace.NoVersion
	}
	return workspace.Version(v)
}

func (h *Handler) save(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	p, err := urlPath(r)
	if err != nil {
		return err
	}
	var body saveBody
	if err := httpx.Decode(r, &body); err != nil {
		return err
	}
	if body.Data == nil {
		return apperr.Validation("The file's text (data) is missing.")
	}
	a, err := h.svc.Save(r.Context(), caller.Must(r.Context()), pa, p, *body.Data, ifMatch(r))
	if err != nil {
		return err
	}
	httpx.SetETag(w, a.Version)
	return httpx.OK(w, a)
}

func (h *Handler) delete(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var paths []string
	if err := httpx.Decode(r, &paths); err != nil {
		return err
	}
	res, err := h.svc.Delete(r.Context(), caller.Must(r.Context()), pa, paths)
	return httpx.Respond(w, res, err)
}

func (h *Handler) mkdir(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var paths []string
	if err := httpx.Decode(r, &paths); err != nil {
		return err
	}
	if len(paths) != 1 {
		return apperr.Validation("A folder name is required")
	}
	p, err := ParsePath(paths[0])
	if err != nil {
		return err
	}
	a, err := h.svc.Mkdir(r.Context(), caller.Must(r.Context()), pa, p)
	if err != nil {
		return err
	}
	return httpx.Created(w, a)
}

// renameBody is the body of the rename calls.
type renameBody struct {
	OldPath string `json:"oldPath"`
	NewPath string `json:"newPath"`
}

func (b renameBody) paths() (workspace.Path, workspace.Path, error) {
	from, err := ParsePath(b.OldPath)
	if err != nil {
		return from, from, err
	}
	if strings.TrimSpace(b.NewPath) == "" {
		return from, from, apperr.Validation("A new folder name is required")
	}
	to, err := ParsePath(b.NewPath)
	return from, to, err
}

func (h *Handler) renameFolder(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var b renameBody
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	from, to, err := b.paths()
	if err != nil {
		return err
	}
	a, err := h.svc.RenameFolder(r.Context(), caller.Must(r.Context()), pa, from, to)
	return httpx.Respond(w, a, err)
}

func (h *Handler) renameFile(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var b renameBody
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	from, to, err := b.paths()
	if err != nil {
		return err
	}
	a, err := h.svc.RenameFile(r.Context(), caller.Must(r.Context()), pa, from, to)
	return httpx.Respond(w, a, err)
}

// uploadOverhead is what a multipart body may carry beyond its files (boundaries, headers).
const uploadOverhead = 1 << 20

func (h *Handler) upload(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	folder, err := urlPath(r)
	if err != nil {
		return err
	}
	if r.ContentLength > TotalLimit+uploadOverhead {
		return TooLarge()
	}
	r.Body = http.MaxBytesReader(w, r.Body, TotalLimit+uploadOverhead)
	mr, err := r.MultipartReader() // streamed part by part: never ParseMultipartForm
	if err != nil {
		return apperr.BadRequest("INVALID_UPLOAD", "The upload must be multipart/form-data with the files in the field 'files'.")
	}
	res, err := h.svc.Upload(r.Context(), caller.Must(r.Context()), pa, folder, mr)
	if err != nil {
		// Read a little of what the client is still sending, so it can read the answer
		// (a connection closed under a sending client shows as a network error); then close.
		w.Header().Set("Connection", "close")
		_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, drainLimit))
	}
	return httpx.Respond(w, res, err)
}

// drainLimit bounds what is read of a refused upload's rest.
const drainLimit = 8 << 20

// saveBody is a text save's body: the file's new content.
type saveBody struct {
	Data *string `json:"data"`
}
