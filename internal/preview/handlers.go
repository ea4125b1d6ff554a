package preview

import (
	"errors"
	"io"
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
	// The frame's own origin (frame.go); off while origin.For answers "".
	origin  *FrameOrigin
	tickets *Tickets
}

// NewHandler serves the workspace files of ws with tokens of signer, on portals checked by
// access, while rights says the token's user still reads pages.
func NewHandler(ws *editing.Workspace, signer *readtoken.Signer, access *portalaccess.Checker, rights Rights) *Handler {
	return &Handler{ws: ws, signer: signer, access: access, rights: rights, origin: &FrameOrigin{}}
}

// WithFrameOrigin serves the frame from origin (when it answers) with tickets of tickets.
func (h *Handler) WithFrameOrigin(origin *FrameOrigin, tickets *Tickets) *Handler {
	h.origin, h.tickets = origin, tickets
	return h
}

// Routes: the token (bearer), the frame's files (the token in the path) and a page's HTML
// (bearer). The two GET patterns have the same shape; a token never starts with a digit and a
// domain id is a number, so the routes never overlap.
func (h *Handler) Routes() []httpx.Route {
	// A domain id is a number; anything else in that place is a token for the handler to judge.
	const tokenParam = "{token:[^0-9/][^/]*}"
	return []httpx.Route{
		{Method: http.MethodPost, Pattern: "/workspace/{domainId}/{portalId}/token", Access: httpx.Requires(Permission, "domainId"), Handler: h.access.Handle(h.token), In: httpx.NoBody, Out: TokenAnswer{}},
		{Method: http.MethodGet, Pattern: "/workspace/" + tokenParam + "/{domainId}/{portalId}/*", Access: httpx.PathReadToken(Permission, "domainId", "token"), Handler: h.file, Out: httpx.File},
		{Method: http.MethodGet, Pattern: "/workspace/{domainId}/{portalId}/{branch}/*", Access: httpx.Requires(Permission, "domainId"), Handler: h.access.Handle(h.page), Out: httpx.File},
	}
}

// TokenAnswer is the answer of the token call: the token and the frame's base URL.
type TokenAnswer struct {
	Token     string `json:"token"`
	ExpiresIn int    `json:"expiresIn"` // seconds
	// Base is the workspace root for the frame, e.g. "/api/v1/workspace/pwp1…/1/2/", or on
	// the frame origin "https://frames.example/api/v1/workspace/pwf1…/1/2/" (a ticket).
	Base string `json:"base"`
}

// token mints the frame's key: on the frame origin a single-use ticket (the frame origin
// exchanges it for a cookie, FrameOrigin), else a preview token for the frame's path.
func (h *Handler) token(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	c := caller.Must(r.Context())
	w.Header().Set("Cache-Control", "no-store")
	root := "/api/v1/workspace/"
	tok, ttl := "", TokenTTL
	if origin := h.origin.For(r); origin != "" {
		var err error
		if tok, err = h.tickets.Issue(r.Context(), c.UserID, pa.DomainID(), pa.ID()); err != nil {
			return err
		}
		root = origin + root
	} else {
		tok, ttl = h.signer.Mint(c.UserID, pa.DomainID(), pa.ID())
	}
	return httpx.OK(w, TokenAnswer{Token: tok, ExpiresIn: int(ttl.Seconds()), Base: root + tok + "/" + portalPath(pa.DomainID(), pa.ID())})
}

// portalPath is "{domainId}/{portalId}/".
func portalPath(domainID, portalID int64) string {
	return strconv.FormatInt(domainID, 10) + "/" + strconv.FormatInt(portalID, 10) + "/"
}

// file serves the frame on the app's origin (the token in the path).
func (h *Handler) file(w http.ResponseWriter, r *http.Request) error {
	pol := appPolicy(sandboxFrame)
	frameHeaders(w, pol)
	claims, err := h.signer.Verify(chi.URLParam(r, "token"))
	if err != nil {
		return err
	}
	return h.serveClaimed(w, r, claims, pol)
}

// serveClaimed checks, after the key (401), in this order: the portal in the domain (404, as
// every portal route), the key's binding to that portal (403), the user's right now (403),
// then the path (400) and the file (404).
func (h *Handler) serveClaimed(w http.ResponseWriter, r *http.Request, claims readtoken.Claims, pol policy) error {
	pa, err := h.claimed(r, claims)
	if err != nil {
		return err
	}
	p, err := filePath(r)
	if err != nil {
		return err
	}
	return h.serve(w, r, caller.Caller{UserID: claims.UserID}, pa, p, pol)
}

// claimed is the URL's portal when the key's claims are for it and its user still reads pages.
func (h *Handler) claimed(r *http.Request, claims readtoken.Claims) (portalaccess.Portal, error) {
	pa, err := h.access.CheckURL(r)
	if err != nil {
		return portalaccess.Portal{}, err
	}
	if claims.DomainID != pa.DomainID() || claims.PortalID != pa.ID() {
		return portalaccess.Portal{}, apperr.Forbidden("FORBIDDEN", "The preview token was issued for another portal.")
	}
	if ok, err := h.rights.Holds(r.Context(), claims.UserID, pa.DomainID(), Permission); err != nil {
		return portalaccess.Portal{}, err
	} else if !ok {
		return portalaccess.Portal{}, apperr.Forbidden("FORBIDDEN", "You can no longer read the pages of this portal.")
	}
	return pa, nil
}

// page answers a page's HTML (or any file) of the caller's workspace, which must be on the
// branch of the URL ('/' in a branch travels as ':').
func (h *Handler) page(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	pol := appPolicy(sandboxFrame)
	frameHeaders(w, pol)
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
	return h.serve(w, r, c, pa, p, pol)
}

// serve streams a file of the workspace (a folder answers its index.html), with ranges; a
// document's policy takes in the workspace's whitelist.
func (h *Handler) serve(w http.ResponseWriter, r *http.Request, c caller.Caller, pa portalaccess.Portal, p workspace.Path, pol policy) error {
	ctx := r.Context()
	if p == workspace.Root {
		p = workspace.MustPath("index.html")
	} else if info, err := h.ws.Files().Info(ctx, c, pa, p); err == nil && info.Dir {
		if p, err = workspace.CleanPath(p.String() + "/index.html"); err != nil {
			return err
		}
	}
	f, info, err := h.ws.Files().OpenFile(ctx, c, pa, p)
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
	ct := asset.ContentType(info.Name)
	w.Header().Set("Content-Type", ct)
	pol.withWhitelist(w, ct, func() (io.ReadCloser, error) {
		f, _, err := h.ws.Files().OpenFile(ctx, c, pa, whitelistFile)
		return f, err
	})
	// Uncommitted edits change under the same name: never reuse an answer.
	w.Header().Set("Cache-Control", "no-store")
	stat, err := f.Stat()
	if err != nil {
		return apperr.Internal(err)
	}
	http.ServeContent(w, r, "", stat.ModTime(), f)
	return nil
}

// frameHeaders sets the headers of every preview answer on the app's origin, errors included
// (package comment): the policy, framed by the app's pages only (the app's default is DENY),
// and readable by the opaque origin the answer runs in (CORS "*", never with credentials).
func frameHeaders(w http.ResponseWriter, pol policy) {
	pol.setHeaders(w)
	h := w.Header()
	h.Set("X-Frame-Options", "SAMEORIGIN")
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
