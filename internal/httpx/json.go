package httpx

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"reflect"
	"strconv"
	"strings"

	"portalwright/internal/apperr"

	"github.com/go-chi/chi/v5"
)

// MaxJSONBody bounds request bodies decoded as JSON.
const MaxJSONBody = 1 << 20

// The writers below return an error so a handler ends with `return httpx.OK(w, v)`. The
// error is always nil: once the status is written, a failed write (the client went away) has
// nobody left to tell.

// JSON writes v with the given status. A nil slice or map is written as [] or {}: an answer
// that is a list is never null (docs/api.md "The route tables and the OpenAPI document").
func JSON(w http.ResponseWriter, status int, v any) error {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if v == nil {
		return nil
	}
	switch rv := reflect.ValueOf(v); {
	case rv.Kind() == reflect.Slice && rv.IsNil():
		_, _ = io.WriteString(w, "[]\n")
		return nil
	case rv.Kind() == reflect.Map && rv.IsNil():
		_, _ = io.WriteString(w, "{}\n")
		return nil
	}
	_ = json.NewEncoder(w).Encode(v)
	return nil
}

// OK answers 200 with v as JSON.
func OK(w http.ResponseWriter, v any) error { return JSON(w, http.StatusOK, v) }

// Created answers 201 with v as JSON.
func Created(w http.ResponseWriter, v any) error { return JSON(w, http.StatusCreated, v) }

// Text writes a text/plain body.
func Text(w http.ResponseWriter, status int, s string) error {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, s)
	return nil
}

// NoContent answers 204.
func NoContent(w http.ResponseWriter) error { w.WriteHeader(http.StatusNoContent); return nil }

// ErrorBody is the wire form of an Error with the request id (every error answer).
type ErrorBody struct {
	*apperr.Error
	RequestID string `json:"requestId"`
}

// WriteError sends err as the API's JSON error body. Internal errors are logged with their
// cause and request id; the client only sees the generic message and the id.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	e := apperr.AsError(err)
	id := RequestID(r.Context())
	if e.Status >= 500 {
		slog.ErrorContext(r.Context(), "request failed", "request_id", id, "method", r.Method, "path", r.URL.Path, "status", e.Status, "code", e.Code, "error", err)
	}
	if e.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="portalwright"`)
	}
	if e.Status == http.StatusTooManyRequests { // sign-in limits: when to try again
		if d, ok := e.Data.(map[string]int); ok && d["retryAfter"] > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(d["retryAfter"]))
		}
	}
	JSON(w, e.Status, ErrorBody{Error: e, RequestID: id})
}

// Decode reads a JSON body into v. An empty, malformed or null body, or one with trailing
// data, is a 400 with a message that says which; a body over MaxJSONBody is a 413; a body that
// stops arriving (the server's per-chunk read time-out, see internal/httpapi) is a 408.
// A JSON null is refused whatever v is: no call takes "nothing" as a value, and decoding null
// would silently leave v at its zero value (PUT /settings with null reset a portal's settings).
func Decode(r *http.Request, v any) error { return DecodeMax(r, v, MaxJSONBody) }

// DecodeMax is Decode for a call whose body may be larger than MaxJSONBody (up to max).
func DecodeMax(r *http.Request, v any, max int64) error {
	if r.Body == nil || r.Body == http.NoBody {
		return apperr.BadRequest("INVALID_JSON", "The request body is empty; a JSON object was expected.")
	}
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.Contains(ct, "json") {
		return apperr.NewError(http.StatusUnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE", "Unsupported Media Type", "The request body must be JSON (Content-Type: application/json).")
	}
	if r.ContentLength > max {
		return errBodyTooLarge(max)
	}
	dec := json.NewDecoder(&limitedBody{r: r.Body, left: max})
	var raw json.RawMessage
	err := dec.Decode(&raw)
	if err == nil && dec.More() {
		return apperr.BadRequest("INVALID_JSON", "The request body must hold a single JSON value.")
	}
	if err == nil && string(raw) == "null" {
		return apperr.BadRequest("INVALID_JSON", "The request body is null; a JSON object with the values was expected.")
	}
	if err == nil {
		err = json.Unmarshal(raw, v)
	}
	if err == nil {
		return nil
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, errTooLarge):
		return errBodyTooLarge(max)
	case errors.Is(err, os.ErrDeadlineExceeded):
		return apperr.NewError(http.StatusRequestTimeout, "REQUEST_TIMEOUT", "Request Timeout",
			"The request body stopped arriving, so the server stopped waiting for it. Check the network connection and try again.").WithCause(err)
	case errors.Is(err, io.EOF):
		return apperr.BadRequest("INVALID_JSON", "The request body is empty; a JSON object was expected.")
	case errors.As(err, &typ):
		return apperr.BadRequest("INVALID_JSON", "The field '"+typ.Field+"' has the wrong type: expected "+typ.Type.String()+".")
	case errors.As(err, &syn), errors.Is(err, io.ErrUnexpectedEOF):
		return apperr.BadRequest("INVALID_JSON", "The request body is not valid JSON.")
	default:
		return apperr.BadRequest("INVALID_JSON", "The request body could not be read as JSON.")
	}
}

func errBodyTooLarge(max int64) *apperr.Error {
	return apperr.NewError(http.StatusRequestEntityTooLarge, "BODY_TOO_LARGE", "Request Entity Too Large",
		"The request body is larger than the limit of "+strconv.FormatInt(max>>20, 10)+" MiB for this call. Send less data at once.")
}

var errTooLarge = errors.New("request body over the limit")

// limitedBody reads at most left bytes and then fails with errTooLarge, so a body over the
// limit is told apart from a malformed one (io.LimitReader would end it early, which reads as
// truncated JSON).
type limitedBody struct {
	r    io.Reader
	left int64
}

func (l *limitedBody) Read(p []byte) (int, error) {
	if l.left <= 0 {
		// One byte more tells a body of exactly the limit from a longer one.
		var one [1]byte
		n, err := l.r.Read(one[:])
		if n > 0 {
			return 0, errTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// ParseID reads an id from a URL: digits only ("+1", " 1", "1e0" and "0x1" are not ids, so
// "+1" never names id 1), positive, within int64.
func ParseID(s string) (int64, bool) {
	if s == "" || len(s) > 19 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	return v, err == nil && v > 0
}

// PathIDs reads positive numeric URL parameters by name; a bad value is a 400 error.
func PathIDs(r *http.Request, names ...string) ([]int64, error) {
	out := make([]int64, len(names))
	for i, n := range names {
		v, ok := ParseID(chi.URLParam(r, n))
		if !ok {
			return nil, apperr.BadID(n)
		}
		out[i] = v
	}
	return out, nil
}

// WithID serves a call whose URL carries one numeric id (e.g. {domainId}): a bad value is
// a 400 before h runs.
func WithID(name string, h func(w http.ResponseWriter, r *http.Request, id int64) error) HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		ids, err := PathIDs(r, name)
		if err != nil {
			return err
		}
		return h(w, r, ids[0])
	}
}

// Respond answers a handler's result: err as it is, 204 for no value, or 200 JSON.
func Respond(w http.ResponseWriter, v any, err error) error {
	switch {
	case err != nil:
		return err
	case v == nil:
		return NoContent(w)
	default:
		return OK(w, v)
	}
}
