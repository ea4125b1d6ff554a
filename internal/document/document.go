// Package document serves the documents named in configuration (spec 1 §7 Documents):
// GET /document/pub/{name} for anyone (e.g. the terms shown at sign-in) and
// GET /document/usr/{name} for signed-in users (user guides). Operators put files in
// <data-dir>/documents/{pub,usr}/; built-in defaults fill gaps (the terms).
package document

import (
	"embed"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/apperr"
	"portalwright/internal/httpx"
)

//go:embed defaults
var defaults embed.FS

// Document names are plain words: nothing that could walk out of the folder.
var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$`)

// extensions are tried in order; each maps to the content type it is served with.
var extensions = []struct{ ext, contentType string }{
	{".html", "text/html; charset=utf-8"},
	{".pdf", "application/pdf"},
	{".txt", "text/plain; charset=utf-8"},
}

// Handler serves documents.
type Handler struct {
	dir     string // <data-dir>/documents
	builtin fs.FS
}

func NewHandler(dataDir string) *Handler {
	sub, _ := fs.Sub(defaults, "defaults")
	return &Handler{dir: filepath.Join(dataDir, "documents"), builtin: sub}
}

func (h *Handler) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: http.MethodGet, Pattern: "/document/pub/{name}", Access: httpx.Public, Handler: h.serve("pub"), Out: httpx.HTML},
		{Method: http.MethodGet, Pattern: "/document/usr/{name}", Access: httpx.Authenticated, Handler: h.serve("usr"), Out: httpx.HTML},
	}
}

func (h *Handler) serve(kind string) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		name := chi.URLParam(r, "name")
		if !validName.MatchString(name) || name == "." || name == ".." {
			return apperr.BadRequest("INVALID_DOCUMENT_NAME", "The document name is not valid.")
		}
		for _, e := range extensions {
			data, err := h.read(kind, name+e.ext)
			if err != nil {
				continue
			}
			w.Header().Set("Content-Type", e.contentType)
			w.Header().Set("Cache-Control", "no-cache")
			w.Header().Set("X-Content-Type-Options", "nosniff")
			// Documents open in their own tab; a sandbox keeps any script in them inert.
			w.Header().Set("Content-Security-Policy", "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:")
			_, _ = w.Write(data)
			return nil
		}
		return apperr.NotFound("DOCUMENT_NOT_FOUND", "The document '"+name+"' does not exist.")
	}
}

// read looks in the data dir first, then in the built-in defaults.
func (h *Handler) read(kind, file string) ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(h.dir, kind, file))
	if err == nil {
		return data, nil
	}
	return fs.ReadFile(h.builtin, kind+"/"+file)
}
