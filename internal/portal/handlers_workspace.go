package portal

import (
	"encoding/json"
	"net/http"
	"sync"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/httpx"
	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
)

// Workspace handlers: the caller's workspace of a portal (open, local changes and commits,
// commit, revert, reset, other users' changes, settings, probe settings, content check,
// engine version).

func (h *Handler) open(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	q := r.URL.Query()
	override := q.Get("override") == "true" || q.Get("override") == "1"
	v, err := h.svc.Open(r.Context(), caller.Must(r.Context()), pa, branchParam(q.Get("branch")), override)
	return httpx.Respond(w, v, err)
}

func (h *Handler) localChanges(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	v, err := h.svc.Workspace().LocalChanges(r.Context(), caller.Must(r.Context()), pa)
	return httpx.Respond(w, v, err)
}

func (h *Handler) localCommits(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	v, err := h.svc.Workspace().Commits().LocalCommits(r.Context(), caller.Must(r.Context()), pa)
	return httpx.Respond(w, v, err)
}

type commitBody struct {
	Message string `json:"message"`
}

func (h *Handler) commit(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var b commitBody
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	v, err := h.svc.Workspace().Commits().Commit(r.Context(), caller.Must(r.Context()), pa, b.Message)
	return httpx.Respond(w, v, err)
}

// revertBody: without a commitId, Revert All; with one, Revert To.
type revertBody struct {
	CommitID string `json:"commitId"`
}

func (h *Handler) revert(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var b revertBody
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	p := caller.Must(r.Context())
	if b.CommitID == "" {
		return httpx.Respond(w, nil, h.svc.Workspace().Commits().RevertAll(r.Context(), p, pa))
	}
	v, err := h.svc.Workspace().Commits().RevertTo(r.Context(), p, pa, b.CommitID)
	return httpx.Respond(w, v, err)
}

func (h *Handler) reset(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	v, err := h.svc.Workspace().Commits().Reset(r.Context(), caller.Must(r.Context()), pa, branchParam(chi.URLParam(r, "branch")))
	return httpx.Respond(w, v, err)
}

func (h *Handler) wsChanges(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	branch := branchParam(chi.URLParam(r, "branch"))
	list, err := h.svc.Workspace().WorkspaceChanges(r.Context(), pa, branch)
	if err != nil {
		return err
	}
	data, err := h.wsJSON.encoded(wsJSONKey{pa.ID(), branch, pa.DomainName()}, list)
	if err != nil {
		return err
	}
	return httpx.WriteEncoded(w, r, http.StatusOK, data)
}

// wsJSONCache keeps the JSON of the last other users' changes answer per portal, branch and
// domain name. The editing unit answers the same (read-only) slice while nothing changed, so
// the answer is encoded once and shared by every caller (gzipped for clients that accept it).
// Its zero value is ready.
type wsJSONCache struct {
	mu sync.Mutex
	m  map[wsJSONKey]wsJSONEntry
}

type wsJSONKey struct {
	portalID           int64
	branch, domainName string
}

type wsJSONEntry struct {
	data *editing.WorkspaceChange // the answer's backing array: its identity
	n    int
	enc  *httpx.EncodedJSON
}

func (c *wsJSONCache) encoded(key wsJSONKey, list []editing.WorkspaceChange) (*httpx.EncodedJSON, error) {
	var data *editing.WorkspaceChange // nil for every empty answer: they encode alike
	if len(list) > 0 {
		data = &list[0]
	}
	c.mu.Lock()
	e, ok := c.m[key]
	c.mu.Unlock()
	if ok && e.data == data && e.n == len(list) {
		return e.enc, nil
	}
	enc, err := httpx.EncodeJSON(list)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) > 1000 {
		c.m = map[wsJSONKey]wsJSONEntry{}
	}
	c.m[key] = wsJSONEntry{data: data, n: len(list), enc: enc}
	c.mu.Unlock()
	return enc, nil
}

func (h *Handler) settings(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	v, version, err := h.svc.Workspace().Settings(r.Context(), caller.Must(r.Context()), pa)
	httpx.SetETag(w, string(version))
	return httpx.Respond(w, v, err)
}

func (h *Handler) saveSettings(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	base, err := httpx.IfMatch(r)
	if err != nil {
		return err
	}
	var s Settings
	if err := httpx.Decode(r, &s); err != nil {
		return err
	}
	v, version, err := h.svc.Workspace().SaveSettings(r.Context(), caller.Must(r.Context()), pa, s, workspace.Version(base))
	if err == nil {
		httpx.SetETag(w, string(version))
	}
	return httpx.Respond(w, v, err)
}

func (h *Handler) gitURLs(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	v, err := h.svc.GitURLs(r.Context(), caller.Must(r.Context()), pa)
	return httpx.Respond(w, v, err)
}

func (h *Handler) checkContent(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	v, err := h.svc.Workspace().CheckContent(r.Context(), caller.Must(r.Context()), pa)
	return httpx.Respond(w, v, err)
}

func (h *Handler) engine(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	v, err := h.svc.Workspace().Engine(r.Context(), caller.Must(r.Context()), pa)
	return httpx.Respond(w, v, err)
}

type probeBody struct {
	Data json.RawMessage `json:"data"`
}

func (h *Handler) probeSettings(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	data, version, err := h.svc.Workspace().ProbeSettings(r.Context(), caller.Must(r.Context()), pa)
	if err != nil {
		return err
	}
	httpx.SetETag(w, string(version))
	return httpx.OK(w, probeBody{Data: data})
}

func (h *Handler) saveProbeSettings(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	base, err := httpx.IfMatch(r)
	if err != nil {
		return err
	}
	var b probeBody
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	version, err := h.svc.Workspace().SaveProbeSettings(r.Context(), caller.Must(r.Context()), pa, b.Data, workspace.Version(base))
	if err != nil {
		return err
	}
	httpx.SetETag(w, string(version))
	return httpx.NoContent(w)
}
