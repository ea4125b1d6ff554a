package translation

import (
	"bytes"
	"encoding/csv"
	"mime"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/caller"
	"portalwright/internal/httpx"
	"portalwright/internal/portalaccess"
)

// Handler serves /translation (the contract in docs/api.md "Translations").
type Handler struct {
	svc    *Service
	access *portalaccess.Checker
}

// NewHandler returns the translation routes over svc; access checks the portal of every call.
func NewHandler(svc *Service, access *portalaccess.Checker) *Handler {
	return &Handler{svc: svc, access: access}
}

// Routes lists the translation calls.
func (h *Handler) Routes() []httpx.Route {
	get, put := http.MethodGet, http.MethodPut
	in := httpx.InDomain
	at := h.access.Handle
	const p = "/translation/{domainId}/{portalId}"
	return []httpx.Route{
		{Method: get, Pattern: p, Access: in("translation:r"), Handler: at(h.get), Out: Translations{}},
		{Method: put, Pattern: p, Access: in("translation:w"), Handler: at(h.save), In: SaveRequest{}, Out: Saved{}},
		{Method: get, Pattern: p + "/status/{language}", Access: in("translation:r"), Handler: at(h.status), Out: LanguageStatus{}},
		{Method: get, Pattern: p + "/report/{language}", Access: in("translation:r"), Handler: at(h.report), Out: Report{}},
	}
}

func (h *Handler) get(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	t, err := h.svc.Get(r.Context(), caller.Must(r.Context()), pa)
	return httpx.Respond(w, t, err)
}

func (h *Handler) save(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var req SaveRequest
	if err := httpx.DecodeMax(r, &req, MaxSaveBody); err != nil {
		return err
	}
	saved, err := h.svc.Save(r.Context(), caller.Must(r.Context()), pa, req)
	return httpx.Respond(w, saved, err)
}

func (h *Handler) status(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	st, err := h.svc.Status(r.Context(), caller.Must(r.Context()), pa, chi.URLParam(r, "language"))
	return httpx.Respond(w, st, err)
}

func (h *Handler) report(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	lang := chi.URLParam(r, "language")
	rep, err := h.svc.Report(r.Context(), caller.Must(r.Context()), pa, lang)
	if err != nil || r.URL.Query().Get("format") != "csv" {
		return httpx.Respond(w, rep, err)
	}
	data, err := ReportCSV(rep)
	if err != nil {
		return err
	}
	// The language is one of the portal's (checked by the service), so the name is plain.
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": "translation-report-" + rep.Language + ".csv"}))
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(data)
	return err
}

// ReportCSV writes a report's keys as CSV: a header line, then key, status, reason, default
// value and value per key. A cell a spreadsheet would run as a formula (starting with =, +,
// -, @, a tab or a carriage return) is prefixed with an apostrophe.
func ReportCSV(rep *Report) ([]byte, error) {
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	if err := cw.Write([]string{"key", "status", "reason", "defaultValue", "value"}); err != nil {
		return nil, err
	}
	for _, k := range rep.Keys {
		if err := cw.Write([]string{cell(k.Key), k.Status, k.Reason, cell(k.DefaultValue), cell(k.Value)}); err != nil {
			return nil, err
		}
	}
	cw.Flush()
	return b.Bytes(), cw.Error()
}

func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// MaxSaveBody bounds the body of a save: every language of a portal at once (5,000 keys in 5
// languages is about 2 MiB), so more than the 1 MiB of other JSON calls (httpx.MaxJSONBody).
const MaxSaveBody = 16 << 20
