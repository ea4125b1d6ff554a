package httpx

import (
	"net/http"
	"strings"

	"portalwright/internal/apperr"
)

// Versions of whole files travel as ETags (design §4, no lost updates): a read answers
// `ETag: "<version>"`, and a write must send it back as `If-Match`. The service compares
// versions under the workspace lock and refuses a stale write with 409.

// SetETag sets the ETag header to a version.
func SetETag(w http.ResponseWriter, version string) {
	w.Header().Set("ETag", `"`+version+`"`)
}

// IfMatch reads the version a write was based on. Without an If-Match header it answers a
// 428 error: a whole-file write that does not say what it was based on could overwrite a
// newer version.
func IfMatch(r *http.Request) (string, error) {
	v := strings.TrimSpace(r.Header.Get("If-Match"))
	v = strings.TrimPrefix(v, "W/")
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		v = v[1 : len(v)-1]
	}
	if v == "" || v == "*" || strings.ContainsAny(v, "\", ") {
		return "", apperr.NewError(http.StatusPreconditionRequired, "VERSION_REQUIRED", "Precondition Required",
			"This change does not say which version of the file it was based on (If-Match). Reload and try again.")
	}
	return v, nil
}
