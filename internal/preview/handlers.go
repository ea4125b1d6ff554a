package preview

import (
	"errors"
	"io/fs"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/apperr"
	"portalwright/internal/asset"
	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/httpx"
	"portalwright/internal/portalaccess"
	"portalwright/internal/readtoken"
	"portalwright/internal/workspace"
)

// Handler serves /workspace (docs/api.md "Preview").
type Handler struct {
	ws     *editing.Workspace
	signer *readtoken.Signer
	access *portalaccess.Checker
	rights Rights
}

// NewHandler serves the workspace files of ws with tokens of signer, on portals checked by
// access, while rights says the token's user still reads pages.
func NewHandler(ws *editing.Workspace, signer *readtoken.Signer, access *portalaccess.Checker, rights Rights) *Handler {
	return &Handler{ws: ws, signer: signer, access: access, rights: rights}
}

// Routes: the token (bearer), the frame's files (the token in the path) and a page's HTML
// (bearer). The two GET patterns have the same shape; a token never starts with a digit and a
// domain id is a number, so the routes never overlap.
func (h *Handler) Routes() []httpx.Route {
	// A domain id is a number; anything else in that place is a token for the handler to judge.
	const tokenParam = "{token:[^0-9/][^/]*}"
	return []httpx.Route{
		{Method: http.MethodPost, Pattern: "/workspace/{domainId}/{portalId}/token", Access: httpx.Requires(Permission, "domainId"), Handler: h.access.Handle(h.token)},
		{Method: http.MethodGet, Pattern: "/workspace/" + tokenParam + "/{domainId}/{portalId}/*", Access: httpx.PathReadToken(Permission, "domainId", "token"), Handler: h.file},
		{Method: http.MethodGet, Pattern: "/workspace/{domainId}/{portalId}/{branch}/*", Access: httpx.Requires(Permission, "domainId"), Handler: h.access.Handle(h.page)},
	}
}

// TokenAnswer is the answer of the token call: the token and the frame's base URL.
type TokenAnswer struct {
	Token     string `json:"token"`
	ExpiresIn int    `json:"expiresIn"` // seconds
	// Base is the workspace root for the frame, e.g. "/api/v1/workspace/pwp1…/1/2/".
	Base string `json:"base"`
}

func (h *Handler) token(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	c := caller.Must(r.Context())
	tok, ttl := h.signer.Mint(c.UserID, pa.DomainID(), pa.ID())
	w.Header().Set("Cache-Control", "no-store")
	return httpx.OK(w, TokenAnswer{
		Token: tok, ExpiresIn: int(ttl.Seconds()),
		Base: "/api/v1/workspace/" + tok + "/" + strconv.FormatInt(pa.DomainID(), 10) + "/" + strconv.FormatInt(pa.ID(), 10) + "/",
	})
}

// file checks, in this order: the token (401), the portal in the domain (404, as every
// portal route), the token's binding to that portal (403), the user's right now (403), then
// the path (400) and the file (404).
func (h *Handler) file(w http.ResponseWriter, r *http.Request) error {
	sandbox(w)
	claims, err := h.signer.Verify(chi.URLParam(r, "token"))
	if err != nil {
		return err
	}
	pa, err := h.access.CheckURL(r)
	if err != nil {
		return err
	}
	if claims.DomainID != pa.DomainID() || claims.PortalID != pa.ID() {
		return apperr.Forbidden("FORBIDDEN", "The preview token was issued for another portal.")
	}
	if ok, err := h.rights.Holds(r.Context(), claims.UserID, pa.DomainID(), Permission); err != nil {
		return err
	} else if !ok {
		return apperr.Forbidden("FORBIDDEN", "You can no longer read the pages of this portal.")
	}
	p, err := filePath(r)
	if err != nil {
		return err
	}
	return h.serve(w, r, caller.Caller{UserID: claims.UserID}, pa, p)
}

// page answers a page's HTML (or any file) of the caller's workspace, which must be on the
// branch of the URL ('/' in a branch travels as ':').
func (h *Handler) page(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	sandbox(w)
	c := caller.Must(r.Context())
	branch := strings.ReplaceAll(chi.URLParam(r, "branch"), ":", "/")
	st, err := h.ws.LocalChanges(r.Context(), c, pa)
	if err != nil {
		return err
	}
	if st == nil || st.Branch != branch {
		return apperr.Conflict("BRANCH_NOT_OPEN", "Your workspace of this portal is not on the branch "+strconv.Quote(branch)+": open it on that branch first.")
	}
	p, err := filePath(r)
	if err != nil {
		return err
	}
	return h.serve(w, r, c, pa, p)
}

// serve streams a file of the workspace (a folder answers its index.html), with ranges.
func (h *Handler) serve(w http.ResponseWriter, r *http.Request, c caller.Caller, pa portalaccess.Portal, p workspace.Path) error {
	ctx := r.Context()
	if p == workspace.Root {
		p = workspace.MustPath("index.html")
	} else if info, err := h.ws.Info(ctx, c, pa, p); err == nil && info.Dir {
		if p, err = workspace.CleanPath(p.String() + "/index.html"); err != nil {
			return err
		}
	}
	f, info, err := h.ws.OpenFile(ctx, c, pa, p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return apperr.NotFound("FILE_NOT_FOUND", "The file "+strconv.Quote(p.String())+" is not in the workspace.")
		}
		return err
	}
	defer f.Close()
	if info.Dir {
		return apperr.NotFound("FILE_NOT_FOUND", "The file "+strconv.Quote(p.String())+" is not in the workspace.")
	}
	w.Header().Set("Content-Type", asset.ContentType(info.Name))
	// Uncommitted edits change under the same name: never reuse an answer.
	w.Header().Set("Cache-Control", "no-store")
	stat, err := f.Stat()
	if err != nil {
		return apperr.Internal(err)
	}
	http.ServeContent(w, r, "", stat.ModTime(), f)
	return nil
}

// sandbox sets the headers of every preview answer, errors included (package comment).
func sandbox(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", FramePolicy)
	h.Set("X-Frame-Options", "SAMEORIGIN") // the app's pages frame it (the app's default is DENY)
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Cross-Origin-Resource-Policy", "cross-origin")
}

// filePath is the path after the portal (or branch) segment, checked by the asset manager's
// resolver (no "..", no .git, no control characters).
func filePath(r *http.Request) (workspace.Path, error) {
	raw := chi.URLParam(r, "*")
	if r.URL.RawPath != "" { // chi matched the escaped path: the segments are still escaped
		s, err := url.PathUnescape(raw)
		if err != nil {
			return workspace.Path{}, apperr.BadRequest("INVALID_PATH", "The path is not a file path inside the portal.")
		}
		raw = s
	}
	return asset.ParsePath("/" + raw)
}
