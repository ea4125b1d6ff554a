// Package collab serves the calls of working together on one portal (issue 21; docs/api.md
// "Conflicts, review and discarded work"): the conflicts between a commit and its branch and
// their resolution, discarded work and its restore, the review of what a commit changes (the
// caller's, another user's workspace, or a commit of the branch), and the merge of an
// editor's unsaved edit into a file that changed under it. Every rule is in editing and
// internal/workspace; the handlers decode, call and encode.
package collab

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/httpx"
	"portalwright/internal/merge"
	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
)

// Handler serves the collaboration calls over the editing unit's working together.
type Handler struct {
	ws     *editing.Together
	access *portalaccess.Checker
}

// NewHandler returns the routes; access checks the portal of every call.
func NewHandler(ws *editing.Together, access *portalaccess.Checker) *Handler {
	return &Handler{ws: ws, access: access}
}

// maxMergeBody bounds a merge request: two versions of a file of up to 4 MiB each.
const maxMergeBody = 9 << 20

// Routes: what shows file content (conflicts, reviews, an editor's merge) needs asset:r, as
// reading the files does; the discarded-work list needs portal:r (like local changes);
// resolving (a commit) and restoring (a write) need portal:w. An editor's merge writes
// nothing: the save after it checks the editor's own right.
func (h *Handler) Routes() []httpx.Route {
	get, post := http.MethodGet, http.MethodPost
	in := httpx.InDomain
	at := h.access.Handle
	const (
		conflicts = "/workspace-conflicts/{domainId}/{portalId}"
		discarded = "/workspace-discarded/{domainId}/{portalId}"
		review    = "/workspace-review/{domainId}/{portalId}"
	)
	return []httpx.Route{
		{Method: get, Pattern: conflicts, Access: in("asset:r"), Handler: at(h.conflicts), Out: workspace.ConflictState{}},
		{Method: get, Pattern: conflicts + "/file", Access: in("asset:r"), Handler: at(h.conflictFile), Out: editing.ConflictFile{}},
		{Method: post, Pattern: conflicts + "/resolve", Access: in("portal:w"), Handler: at(h.resolve), In: resolveBody{}, Out: editing.CommitAnswer{}},
		{Method: get, Pattern: discarded, Access: in("portal:r"), Handler: at(h.discarded), Out: []workspace.Discarded{}},
		{Method: post, Pattern: discarded + "/{id}/restore", Access: in("portal:w"), Handler: at(h.restore), In: httpx.NoBody, Out: workspace.Restored{}},
		{Method: get, Pattern: review, Access: in("asset:r"), Handler: at(h.reviewFile), Out: editing.Review{}},
		{Method: get, Pattern: review + "/files", Access: in("asset:r"), Handler: at(h.reviewFiles), Out: reviewFiles{}},
		{Method: get, Pattern: review + "/raw", Access: in("asset:r"), Handler: at(h.reviewRaw), Out: httpx.File},
		{Method: post, Pattern: "/workspace-merge/{domainId}/{portalId}", Access: in("asset:r"), Handler: at(h.mergeEdit), In: mergeBody{}, Out: editing.EditMerge{}},
	}
}

// filePath reads a workspace path from the query or a body ("/css/a.css" and "css/a.css"
// name the same file).
func filePath(raw string) (workspace.Path, error) {
	p, err := workspace.CleanPath(strings.TrimPrefix(raw, "/"))
	if err != nil {
		return p, apperr.BadRequest("INVALID_PATH", "The path '"+raw+"' is not a file path inside the portal.")
	}
	return p, nil
}

func (h *Handler) conflicts(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	v, err := h.ws.Conflicts(r.Context(), caller.Must(r.Context()), pa)
	return httpx.Respond(w, v, err)
}

func (h *Handler) conflictFile(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	p, err := filePath(r.URL.Query().Get("path"))
	if err != nil {
		return err
	}
	v, err := h.ws.ConflictFile(r.Context(), caller.Must(r.Context()), pa, p)
	return httpx.Respond(w, v, err)
}

type resolveBody struct {
	Tip     string                 `json:"tip"`
	Choices workspace.MergeChoices `json:"choices"`
}

func (h *Handler) resolve(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var b resolveBody
	if err := httpx.DecodeMax(r, &b, maxMergeBody); err != nil {
		return err
	}
	if b.Tip == "" {
		return apperr.Validation("The branch commit the conflicts were read at (tip) is required.")
	}
	choices := workspace.MergeChoices{}
	for raw, byID := range b.Choices {
		p, err := filePath(raw)
		if err != nil {
			return err
		}
		if err := checkChoices(byID); err != nil {
			return err
		}
		choices[p.String()] = byID
	}
	v, err := h.ws.Resolve(r.Context(), caller.Must(r.Context()), pa, b.Tip, choices)
	return httpx.Respond(w, v, err)
}

// checkChoices refuses a choice that is not one of the four.
func checkChoices(choices map[string]merge.Choice) error {
	for id, c := range choices {
		switch c.Take {
		case "mine", "theirs", "base", "value":
		default:
			return apperr.Validation("The choice for conflict " + id + " must be mine, theirs, base or value.")
		}
	}
	return nil
}

func (h *Handler) discarded(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	v, err := h.ws.DiscardedWork(r.Context(), caller.Must(r.Context()), pa)
	return httpx.Respond(w, v, err)
}

func (h *Handler) restore(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	id := chi.URLParam(r, "id")
	if _, err := strconv.ParseUint(id, 10, 64); err != nil {
		return apperr.NotFound(editing.CodeNoDiscarded, editing.MsgNoDiscarded)
	}
	v, err := h.ws.RestoreDiscarded(r.Context(), caller.Must(r.Context()), pa, id)
	return httpx.Respond(w, v, err)
}

// reviewOf reads whose work a review is about: ?user=<id> (another user's workspace),
// ?commit=<sha> (a commit of the portal), else the caller's own.
func reviewOf(r *http.Request) (int64, string, error) {
	q := r.URL.Query()
	var user int64
	if raw := q.Get("user"); raw != "" {
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || id <= 0 || strings.TrimLeft(raw, "0123456789") != "" {
			return 0, "", apperr.BadRequest("INVALID_ID", "The user id must be a positive whole number.")
		}
		user = id
	}
	return user, q.Get("commit"), nil
}

func (h *Handler) reviewFiles(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	user, commit, err := reviewOf(r)
	if err != nil {
		return err
	}
	files, err := h.ws.ReviewFiles(r.Context(), caller.Must(r.Context()), pa, user, commit)
	if err != nil {
		return err
	}
	return httpx.OK(w, reviewFiles{Files: files})
}

func (h *Handler) reviewFile(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	user, commit, err := reviewOf(r)
	if err != nil {
		return err
	}
	p, err := filePath(r.URL.Query().Get("path"))
	if err != nil {
		return err
	}
	v, err := h.ws.ReviewFile(r.Context(), caller.Must(r.Context()), pa, user, commit, p)
	return httpx.Respond(w, v, err)
}

// imageTypes are the files the review serves raw, with the type they are served as.
var imageTypes = map[string]string{
	"png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
	"webp": "image/webp", "svg": "image/svg+xml", "bmp": "image/bmp", "ico": "image/x-icon",
}

// reviewRaw serves one side of an image for the side-by-side view. Only images; the answer
// is sandboxed like every portal file the app shows.
func (h *Handler) reviewRaw(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	user, commit, err := reviewOf(r)
	if err != nil {
		return err
	}
	p, err := filePath(r.URL.Query().Get("path"))
	if err != nil {
		return err
	}
	s := p.String()
	ctype, ok := imageTypes[strings.ToLower(s[strings.LastIndex(s, ".")+1:])]
	if !ok {
		return apperr.NewError(http.StatusUnsupportedMediaType, "NOT_AN_IMAGE", "Unsupported Media Type", "Only images are served for the review.")
	}
	side := r.URL.Query().Get("side")
	if side != "before" && side != "after" {
		return apperr.Validation("The side must be before or after.")
	}
	sides, err := h.ws.ReviewSides(r.Context(), caller.Must(r.Context()), pa, user, commit, p)
	if err != nil {
		return err
	}
	data, exists := sides.Before, sides.BeforeExists
	if side == "after" {
		data, exists = sides.After, sides.AfterExists
	}
	if !exists || (data == nil && sides.TooLarge) {
		return apperr.NotFound("FILE_NOT_FOUND", "The file "+s+" does not exist on that side.")
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "sandbox; default-src 'none'; style-src 'unsafe-inline'")
	w.Header().Set("Cache-Control", "private, no-store")
	_, err = w.Write(data)
	return err
}

type mergeBody struct {
	Path    string                  `json:"path"`
	Base    *string                 `json:"base"`
	Mine    *string                 `json:"mine"`
	Choices map[string]merge.Choice `json:"choices"`
}

func (h *Handler) mergeEdit(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var b mergeBody
	if err := httpx.DecodeMax(r, &b, maxMergeBody); err != nil {
		return err
	}
	p, err := filePath(b.Path)
	if err != nil {
		return err
	}
	if b.Base == nil || b.Mine == nil {
		return apperr.Validation("The text the edit started from (base) and the edited text (mine) are required.")
	}
	if err := checkChoices(b.Choices); err != nil {
		return err
	}
	v, err := h.ws.MergeEdit(r.Context(), caller.Must(r.Context()), pa, p, *b.Base, *b.Mine, b.Choices)
	return httpx.Respond(w, v, err)
}

// reviewFiles are the files a review shows, by path: the change of each (ReviewFiles).
type reviewFiles struct {
	Files map[string]string `json:"files"`
}
