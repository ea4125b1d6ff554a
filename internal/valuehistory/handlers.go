package valuehistory

import (
	"bytes"
	"encoding/csv"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/caller"
	"portalwright/internal/httpx"
	"portalwright/internal/portalaccess"
)

// Handler serves /history/{domainId}/{portalId}/… (docs/api.md "Value history").
type Handler struct {
	svc    *Service
	access *portalaccess.Checker
}

// NewHandler returns the value history routes over svc; access checks the portal of every call.
func NewHandler(svc *Service, access *portalaccess.Checker) *Handler {
	return &Handler{svc: svc, access: access}
}

// Routes: reading a value's history needs the permission that reads the value, a restore
// the one that saves it.
func (h *Handler) Routes() []httpx.Route {
	get, post := http.MethodGet, http.MethodPost
	in := httpx.InDomain
	at := h.access.Handle
	const p = "/history/{domainId}/{portalId}"
	return []httpx.Route{
		{Method: get, Pattern: p + "/translation", Access: in("translation:r"), Handler: at(h.translation), Out: History{}},
		{Method: get, Pattern: p + "/translation/blame", Access: in("translation:r"), Handler: at(h.translationBlame), Out: Blame{}},
		{Method: post, Pattern: p + "/translation/restore", Access: in("translation:w"), Handler: at(h.translationRestore), In: RestoreRequest{}, Out: Restored{}},
		{Method: get, Pattern: p + "/file", Access: in("asset:r"), Handler: at(h.file), Out: History{}},
		{Method: get, Pattern: p + "/file/blame", Access: in("asset:r"), Handler: at(h.fileBlame), Out: Blame{}},
		{Method: post, Pattern: p + "/file/restore", Access: in("asset:w"), Handler: at(h.fileRestore), In: RestoreRequest{}, Out: Restored{}},
		{Method: get, Pattern: p + "/page/{page}", Access: in("page:r"), Handler: at(h.page), Out: History{}},
		{Method: post, Pattern: p + "/page/{page}/restore", Access: in("page:w"), Handler: at(h.pageRestore), In: RestoreRequest{}, Out: Restored{}},
	}
}

func (h *Handler) translation(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	q := r.URL.Query()
	out, err := h.svc.TranslationValue(r.Context(), caller.Must(r.Context()), pa, q.Get("key"), q.Get("lang"))
	return httpx.Respond(w, out, err)
}

func (h *Handler) translationBlame(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	out, err := h.svc.TranslationBlame(r.Context(), caller.Must(r.Context()), pa, r.URL.Query().Get("lang"))
	if err != nil {
		return err
	}
	return blameAnswer(w, r, out, "blame-"+r.URL.Query().Get("lang")+".csv")
}

func (h *Handler) translationRestore(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var req RestoreRequest
	if err := httpx.Decode(r, &req); err != nil {
		return err
	}
	out, err := h.svc.RestoreTranslation(r.Context(), caller.Must(r.Context()), pa, req)
	return httpx.Respond(w, out, err)
}

func (h *Handler) file(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	q := r.URL.Query()
	out, err := h.svc.FileValue(r.Context(), caller.Must(r.Context()), pa, q.Get("path"), q.Get("pointer"))
	return httpx.Respond(w, out, err)
}

func (h *Handler) fileBlame(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	path := r.URL.Query().Get("path")
	out, err := h.svc.FileBlame(r.Context(), caller.Must(r.Context()), pa, path)
	if err != nil {
		return err
	}
	name := path[strings.LastIndexByte(path, '/')+1:]
	return blameAnswer(w, r, out, "blame-"+strings.TrimSuffix(name, ".json")+".csv")
}

func (h *Handler) fileRestore(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var req RestoreRequest
	if err := httpx.Decode(r, &req); err != nil {
		return err
	}
	out, err := h.svc.RestoreFile(r.Context(), caller.Must(r.Context()), pa, req)
	return httpx.Respond(w, out, err)
}

func (h *Handler) page(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	out, err := h.svc.PageValue(r.Context(), caller.Must(r.Context()), pa, chi.URLParam(r, "page"))
	return httpx.Respond(w, out, err)
}

func (h *Handler) pageRestore(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var req RestoreRequest
	if err := httpx.Decode(r, &req); err != nil {
		return err
	}
	out, err := h.svc.RestorePage(r.Context(), caller.Must(r.Context()), pa, chi.URLParam(r, "page"), req)
	return httpx.Respond(w, out, err)
}

// blameAnswer is the blame as JSON, or with ?format=csv as a CSV attachment (filtered by
// ?author= and ?from= / ?to= dates, as the screen filters).
func blameAnswer(w http.ResponseWriter, r *http.Request, b *Blame, filename string) error {
	if r.URL.Query().Get("format") != "csv" {
		return httpx.OK(w, b)
	}
	data, err := BlameCSV(b, r.URL.Query().Get("author"), r.URL.Query().Get("from"), r.URL.Query().Get("to"))
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+strings.NewReplacer(`"`, "", "\\", "", "\r", "", "\n", "").Replace(filename)+`"`)
	_, err = w.Write(data)
	return err
}

// BlameCSV writes a blame as CSV (key or pointer, value, commit, author, e-mail, time,
// message), keeping the rows by author (exact, "" any) and date range (YYYY-MM-DD, inclusive;
// "" open). A cell that a spreadsheet would run as a formula gets a leading '.
func BlameCSV(b *Blame, author, from, to string) ([]byte, error) {
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	_ = cw.Write([]string{"key", "pointer", "value", "commit", "author", "email", "time", "message"})
	for _, r := range b.Rows {
		if !r.Keep(author, from, to) {
			continue
		}
		value, at, commit := "", "", r.Commit
		if r.Value != nil {
			value = *r.Value
			if t, ok := textOf(r.Value); ok {
				value = t
			}
		}
		if r.Time != nil {
			at = r.Time.Format(time.RFC3339)
		}
		if r.Uncommitted {
			commit = "(uncommitted)"
		}
		_ = cw.Write([]string{cell(r.Path), cell(r.Pointer), cell(value), commit, cell(r.Author), cell(r.Email), at, cell(r.Message)})
	}
	cw.Flush()
	return buf.Bytes(), cw.Error()
}

// Keep reports whether the row passes the filters: author ("" any), and its time within the
// days from–to (YYYY-MM-DD, inclusive, UTC; "" open). Uncommitted rows have no time: they
// pass only an open range.
func (r Row) Keep(author, from, to string) bool {
	if author != "" && r.Author != author {
		return false
	}
	if from == "" && to == "" {
		return true
	}
	if r.Time == nil {
		return false
	}
	day := r.Time.UTC().Format("2006-01-02")
	return (from == "" || day >= from) && (to == "" || day <= to)
}

func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
