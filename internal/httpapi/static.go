package httpapi

import (
	"bytes"
	"io"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"strings"
	"time"

	"portalwright/internal/apperr"
	"portalwright/internal/httpx"
)

// hashedAsset matches Vite's content-hashed file names (name-<hash>.ext): safe to cache forever.
var hashedAsset = regexp.MustCompile(`-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$`)

// APIDocsPath is where the API page is found; it sends the browser on to apiDocsPage, the
// web build's page beside index.html (its assets are relative to it).
const (
	APIDocsPath = "/api/docs"
	apiDocsPage = "api-docs.html"
)

// staticHandler serves the built web app. index.html and other unhashed files must be
// revalidated (no-cache) so a new release is picked up; hashed assets are immutable.
func staticHandler(web fs.FS) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, APIPrefix+"/") || r.URL.Path == APIPrefix {
			httpx.WriteError(w, r, apperr.NotFound("ROUTE_NOT_FOUND", "No API call exists at "+r.URL.Path+"."))
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			httpx.WriteError(w, r, apperr.NewError(http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "Method Not Allowed",
				"The method "+r.Method+" is not allowed for "+r.URL.Path+"."))
			return
		}
		// The API page (web/api-docs.html, Swagger UI over /api/v1/openapi.json). A relative
		// Location keeps a deployment under a path prefix working.
		if r.URL.Path == APIDocsPath {
			w.Header().Set("Location", "../"+apiDocsPage) // http.Redirect would make it absolute
			w.WriteHeader(http.StatusFound)
			return
		}
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if name == "" {
			name = "index.html"
		}
		if web == nil || !serveFile(w, r, web, name) {
			httpx.WriteError(w, r, apperr.NotFound("NOT_FOUND", "The page "+r.URL.Path+" does not exist."))
		}
	}
}

func serveFile(w http.ResponseWriter, r *http.Request, web fs.FS, name string) bool {
	f, err := web.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.IsDir() {
		return false
	}
	if hashedAsset.MatchString(name) {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "no-cache")
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if rs, ok := f.(io.ReadSeeker); ok {
		http.ServeContent(w, r, name, st.ModTime(), rs)
		return true
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return false
	}
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(data))
	return true
}
