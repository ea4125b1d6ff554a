package thumbnail

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/httpx"
	"portalwright/internal/portalaccess"
)

// CacheMaxAge is how long a browser may reuse a thumbnail without asking again (private: it
// is one user's workspace). After it, the ETag makes the question a 304.
const CacheMaxAge = 60

// SVGPolicy is the Content-Security-Policy of a served SVG: no script runs, nothing loads,
// and opened on its own the document is sandboxed.
const SVGPolicy = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

// Handler serves /thumbnail.
type Handler struct {
	svc    *Service
	signer *Signer
	access *portalaccess.Checker
}

// NewHandler serves thumbnails of svc, with read tokens of signer, on portals checked by access.
func NewHandler(svc *Service, signer *Signer, access *portalaccess.Checker) *Handler {
	return &Handler{svc: svc, signer: signer, access: access}
}

// Routes: the token (bearer, asset:r) and the thumbnail (the token in the URL).
func (h *Handler) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: http.MethodPost, Pattern: "/thumbnail/{domainId}/{portalId}/token", Access: httpx.Requires("asset:r", "domainId"), Handler: h.access.Handle(h.token), In: httpx.NoBody, Out: tokenAnswer{}},
		{Method: http.MethodGet, Pattern: "/thumbnail/{domainId}/{portalId}/{branch}/thumbnail/*", Access: httpx.ReadToken("asset:r", "domainId"), Handler: h.thumbnail, Out: httpx.File},
	}
}

type tokenAnswer struct {
	Token     string `json:"token"`
	ExpiresIn int    `json:"expiresIn"` // seconds
}

func (h *Handler) token(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	c := caller.Must(r.Context())
	tok, ttl := h.signer.Mint(c.UserID, pa.DomainID(), pa.ID())
	w.Header().Set("Cache-Control", "no-store")
	return httpx.OK(w, tokenAnswer{Token: tok, ExpiresIn: int(ttl.Seconds())})
}

// thumbnail checks, in this order: the read token (401), the portal in the domain (404, as
// every portal route), the token's binding to that portal (403), then the path (400), the
// type (415), the file (404) and the image (422).
func (h *Handler) thumbnail(w http.ResponseWriter, r *http.Request) error {
	claims, err := h.signer.Verify(r.URL.Query().Get("t"))
	if err != nil {
		return err
	}
	pa, err := h.access.CheckURL(r)
	if err != nil {
		return err
	}
	if claims.DomainID != pa.DomainID() || claims.PortalID != pa.ID() {
		return apperr.Forbidden("FORBIDDEN", "The read token was issued for another portal.")
	}
	name := chi.URLParam(r, "*")
	if r.URL.RawPath != "" { // chi routed the escaped path: the segments are still escaped
		if name, err = url.PathUnescape(name); err != nil {
			return apperr.BadRequest("INVALID_PATH", "The path is not a file path inside the portal.")
		}
	}
	p, err := ImagePath(strings.TrimPrefix(name, "/"))
	if err != nil {
		return err
	}
	sz, err := ParseSize(r.URL.Query().Get("width"), r.URL.Query().Get("height"))
	if err != nil {
		return err
	}
	c := caller.Caller{UserID: claims.UserID}
	img, err := h.svc.Thumbnail(r.Context(), c, pa, p, sz, etagOf(r.Header.Get("If-None-Match")))
	if err != nil {
		return err
	}
	hd := w.Header()
	hd.Set("Cache-Control", "private, max-age="+strconv.Itoa(CacheMaxAge))
	hd.Set("X-Content-Type-Options", "nosniff")
	httpx.SetETag(w, img.ETag)
	if img.SVG {
		hd.Set("Content-Security-Policy", SVGPolicy)
	}
	if img.Data == nil {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	hd.Set("Content-Type", img.ContentType)
	hd.Set("Content-Length", strconv.Itoa(len(img.Data)))
	_, _ = w.Write(img.Data)
	return nil
}

// etagOf reads the one ETag of an If-None-Match header (browsers send back the one they got).
func etagOf(v string) string {
	v = strings.TrimPrefix(strings.TrimSpace(v), "W/")
	return strings.Trim(v, `"`)
}
