package preview

import (
	"context"
	"errors"
	"html"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/apperr"
	"portalwright/internal/asset"
	"portalwright/internal/caller"
	"portalwright/internal/httpx"
	"portalwright/internal/portalaccess"
	"portalwright/internal/store"
	"portalwright/internal/whitelist"
	"portalwright/internal/workspace"
)

// Routes of the shared previews (docs/api.md "Previews"): the creator's calls (bearer) and
// the viewer (public: the link's token is the key).
func (s *Shares) Routes() []httpx.Route {
	own := httpx.Requires(ViewPermission, "domainId")
	return []httpx.Route{
		{Method: http.MethodPost, Pattern: "/preview/{domainId}/{portalId}", Access: own, Handler: s.access.Handle(s.create), In: Request{}, Out: Preview{}, Status: http.StatusAccepted},
		{Method: http.MethodGet, Pattern: "/preview/{domainId}/{portalId}/latest", Access: own, Handler: s.access.Handle(s.latest), Out: Preview{}},
		{Method: http.MethodGet, Pattern: "/preview/{domainId}/{portalId}/{id}", Access: own, Handler: s.access.Handle(s.get), Out: Preview{}},
		{Method: http.MethodDelete, Pattern: "/preview/{domainId}/{portalId}/{id}", Access: own, Handler: s.access.Handle(s.delete), Out: httpx.NoBody},
		{Method: http.MethodGet, Pattern: "/preview/qrCode/{id}", Access: httpx.Authenticated, Handler: s.qrCode, Out: QRAnswer{}},
		// The link: /preview/{token}/{domain}/{portal}/{type}/{ref}/{path} (spec 3 §7).
		{Method: http.MethodGet, Pattern: "/preview/{token:" + tokenPrefix + "[A-Za-z0-9_-]+}/{domainId}/{portalId}/{type}/{ref}/*", Access: httpx.Public, Handler: s.serve, Out: httpx.File},
	}
}

func (s *Shares) create(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var in Request
	if err := httpx.Decode(r, &in); err != nil {
		return err
	}
	p, err := s.Create(r.Context(), caller.Must(r.Context()), pa, in, s.BaseURL(r))
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusAccepted, p)
}

func (s *Shares) latest(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	p, err := s.Latest(r.Context(), caller.Must(r.Context()), pa, Type(r.URL.Query().Get("type")), s.BaseURL(r))
	if err != nil {
		return err
	}
	return httpx.OK(w, p) // null when there is none
}

func previewID(r *http.Request) (int64, error) {
	id, ok := httpx.ParseID(chi.URLParam(r, "id"))
	if !ok {
		return 0, apperr.BadRequest("INVALID_ID", "The preview id must be a positive number.")
	}
	return id, nil
}

func (s *Shares) get(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	id, err := previewID(r)
	if err != nil {
		return err
	}
	p, err := s.Get(r.Context(), caller.Must(r.Context()), pa, id, s.BaseURL(r))
	if err != nil {
		return err
	}
	return httpx.OK(w, p)
}

func (s *Shares) delete(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	id, err := previewID(r)
	if err != nil {
		return err
	}
	if err := s.Remove(r.Context(), caller.Must(r.Context()), pa, id); err != nil {
		return err
	}
	return httpx.NoContent(w)
}

// QRAnswer is the answer of qrCode/{id}: the link and its QR code, a base64 PNG.
type QRAnswer struct {
	ID     int64  `json:"id"`
	Link   string `json:"link"`
	QRCode string `json:"qrCode"`
}

// qrCode answers the QR code of one of the caller's ready previews (spec 3 §7).
func (s *Shares) qrCode(w http.ResponseWriter, r *http.Request) error {
	id, err := previewID(r)
	if err != nil {
		return err
	}
	c := caller.Must(r.Context())
	p, err := s.own(r.Context(), c, id)
	if err != nil {
		return err
	}
	p.base = s.BaseURL(r)
	v := s.view(p)
	if v.Link == "" {
		return apperr.Conflict("PREVIEW_NOT_READY", "The preview is not ready yet.")
	}
	if !v.ExpiresAt.After(s.now()) {
		return apperr.NewError(http.StatusGone, "PREVIEW_EXPIRED", "Preview expired", "This preview link has expired.")
	}
	png, err := QRCodePNG(v.Link)
	if err != nil {
		return apperr.Internal(err)
	}
	w.Header().Set("Cache-Control", "no-store")
	return httpx.OK(w, QRAnswer{ID: p.ID, Link: v.Link, QRCode: png})
}

// resolved is a token's preview with the checks made on it, trusted for resolveTTL.
type resolved struct {
	p       *Preview
	err     error // the answer while the checks stand (inactive portal, lost right)
	pa      portalaccess.Portal
	checked time.Time
}

func (s *Shares) forget(token string) {
	s.mu.Lock()
	delete(s.resolved, token)
	s.mu.Unlock()
}

// resolve finds the token's preview and checks that it may still be shown: the portal active
// and in its domain, the creator still reading it.
func (s *Shares) resolve(ctx context.Context, token string) (*resolved, error) {
	now := s.now()
	s.mu.Lock()
	rv := s.resolved[token]
	s.mu.Unlock()
	if rv != nil && now.Sub(rv.checked) < resolveTTL {
		return rv, nil
	}
	p, err := s.store.ByToken(ctx, token)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errUnknownLink()
	}
	if err != nil {
		return nil, err
	}
	rv = &resolved{p: p, checked: now}
	if rv.pa, err = s.access.Check(ctx, p.DomainID, p.PortalID); err != nil {
		return nil, errUnknownLink()
	}
	switch {
	case !rv.pa.Record().Active:
		rv.err = errInactive()
	default:
		ok, err := s.rights.Holds(ctx, p.UserID, p.DomainID, ViewPermission)
		if err != nil {
			return nil, err
		}
		if !ok {
			rv.err = apperr.Forbidden("PREVIEW_REVOKED", "This preview is no longer shared.")
		}
	}
	s.mu.Lock()
	if len(s.resolved) > 10000 { // bounded: a flood of tokens cannot grow it
		clear(s.resolved)
	}
	s.resolved[token] = rv
	s.mu.Unlock()
	return rv, nil
}

func errUnknownLink() error {
	return apperr.NotFound("PREVIEW_NOT_FOUND", "This preview link is not valid.")
}

// serve answers a file of the link's preview. Its checks, in order: the token names a preview
// (404), the link's domain, portal, type and ref are that preview's (404: a token opens one
// preview only), it has not expired (410), it is ready (409), the portal is active and its
// creator still reads it, a live preview's workspace is still on its branch (409), then the
// path (400) and the file (404).
// sharedPolicy is the policy of a shared link's answers.
var sharedPolicy = appPolicy(sandboxShared)

func (s *Shares) serve(w http.ResponseWriter, r *http.Request) error {
	frameHeaders(w, sharedPolicy)
	err := s.serveFile(w, r)
	if err != nil && acceptsHTML(r) {
		writeErrorPage(w, err)
		return nil
	}
	return err
}

func (s *Shares) serveFile(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	rv, err := s.resolve(ctx, chi.URLParam(r, "token"))
	if err != nil {
		return err
	}
	p := rv.p
	if chi.URLParam(r, "domainId") != strconv.FormatInt(p.DomainID, 10) || chi.URLParam(r, "portalId") != strconv.FormatInt(p.PortalID, 10) ||
		chi.URLParam(r, "type") != string(p.Type) || chi.URLParam(r, "ref") != p.Ref() {
		return errUnknownLink()
	}
	if !p.ExpiresAt.After(s.now()) {
		return apperr.NewError(http.StatusGone, "PREVIEW_EXPIRED", "Preview expired", "This preview link has expired.")
	}
	switch p.Status {
	case StatusProgress:
		w.Header().Set("Retry-After", "5")
		return apperr.Conflict("PREVIEW_NOT_READY", "The preview is still being prepared: try again in a moment.")
	case StatusFailed:
		return apperr.Conflict("PREVIEW_FAILED", "Failed to generate preview")
	}
	if rv.err != nil {
		return rv.err
	}
	rel, err := filePath(r)
	if err != nil {
		return err
	}
	if p.root != "" {
		if rel, err = workspace.CleanPath(path.Join(p.root, rel.String())); err != nil {
			return err
		}
	}
	if p.Type == Live {
		return s.serveLive(w, r, rv, rel)
	}
	return s.serveSnapshot(w, r, p, rel)
}

// serveLive answers a file of the creator's workspace, which must still be on the branch.
func (s *Shares) serveLive(w http.ResponseWriter, r *http.Request, rv *resolved, rel workspace.Path) error {
	c := caller.Caller{UserID: rv.p.UserID}
	var err error
	if s.ws.Branch(c, rv.pa) != rv.p.Branch {
		return errLiveUnavailable("The workspace of this live preview is no longer on the branch " + strconv.Quote(rv.p.Branch) + ".")
	}
	if rel == workspace.Root || isDir(func() (bool, error) {
		info, err := s.ws.Files().Info(r.Context(), c, rv.pa, rel)
		return info.Dir, err
	}) {
		if rel, err = workspace.CleanPath(path.Join(rel.String(), "index.html")); err != nil {
			return err
		}
	}
	f, info, err := s.ws.Files().OpenFile(r.Context(), c, rv.pa, rel)
	if err != nil || info.Dir {
		if f != nil {
			f.Close()
		}
		return notInPreview(rel)
	}
	defer f.Close()
	ct := asset.ContentType(info.Name)
	w.Header().Set("Content-Type", ct)
	sharedPolicy.withWhitelist(w, ct, func() (io.ReadCloser, error) {
		wl, _, err := s.ws.Files().OpenFile(r.Context(), c, rv.pa, whitelistFile)
		return wl, err
	})
	w.Header().Set("Cache-Control", "no-store") // it follows the workspace
	return serveOpen(w, r, f)
}

// serveSnapshot answers a file of a snapshot folder, through os.Root (no way out of it).
func (s *Shares) serveSnapshot(w http.ResponseWriter, r *http.Request, p *Preview, rel workspace.Path) error {
	root, err := os.OpenRoot(s.dir(p.ID))
	if err != nil {
		return notInPreview(rel)
	}
	defer root.Close()
	name := rel.String()
	if rel == workspace.Root {
		name = "index.html"
	} else if fi, err := root.Lstat(name); err == nil && fi.IsDir() {
		name = path.Join(name, "index.html")
	}
	fi, err := root.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return notInPreview(rel)
	}
	f, err := root.Open(name)
	if err != nil {
		return notInPreview(rel)
	}
	defer f.Close()
	ct := asset.ContentType(path.Base(name))
	w.Header().Set("Content-Type", ct)
	// The whitelist at the top of the snapshot (the served folder may be its build output).
	sharedPolicy.withWhitelist(w, ct, func() (io.ReadCloser, error) { return root.Open(whitelist.File) })
	// A snapshot never changes under its link.
	w.Header().Set("Cache-Control", "private, max-age=300")
	return serveOpen(w, r, f)
}

func isDir(stat func() (bool, error)) bool {
	d, err := stat()
	return err == nil && d
}

func serveOpen(w http.ResponseWriter, r *http.Request, f *os.File) error {
	st, err := f.Stat()
	if err != nil {
		return apperr.Internal(err)
	}
	http.ServeContent(w, r, "", st.ModTime(), f)
	return nil
}

func notInPreview(p workspace.Path) error {
	return apperr.NotFound("FILE_NOT_FOUND", "The file "+strconv.Quote(p.String())+" is not in the preview.")
}

// acceptsHTML tells a browser opening the link (a phone) from a script fetching a file.
func acceptsHTML(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}

// writeErrorPage answers an error as a small page a phone can show: its title and message.
func writeErrorPage(w http.ResponseWriter, err error) {
	e := apperr.AsError(err)
	if errors.Is(err, fs.ErrNotExist) {
		e = apperr.NotFound("FILE_NOT_FOUND", "The file is not in the preview.")
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(e.Status)
	title := html.EscapeString(e.Title)
	_, _ = w.Write([]byte(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>` +
		title + `</title></head><body style="font-family:system-ui,sans-serif;margin:2rem;max-width:40rem"><h1 style="font-size:1.4rem">` +
		title + `</h1><p>` + html.EscapeString(e.Message) + `</p><p style="color:#666">` + html.EscapeString(e.Code) + `</p></body></html>`))
}
