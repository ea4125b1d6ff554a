package language

import (
	"fmt"
	"net/http"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/apperr"
	"portalwright/internal/httpx"
)

// Handler serves /language (the contract in docs/api.md "Languages").
type Handler struct{}

// NewHandler returns the language routes.
func NewHandler() Handler { return Handler{} }

// Routes lists the language calls: any signed-in user may read them.
func (Handler) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: http.MethodGet, Pattern: "/language", Access: httpx.Authenticated, Handler: serveList, Out: []Entry{}},
		{Method: http.MethodGet, Pattern: "/language/{code}", Access: httpx.Authenticated, Handler: serveOne, Out: Entry{}},
	}
}

func serveList(w http.ResponseWriter, _ *http.Request) error { return httpx.OK(w, All()) }

func serveOne(w http.ResponseWriter, r *http.Request) error {
	code := chi.URLParam(r, "code")
	e, ok := Lookup(code)
	if !ok {
		return apperr.NotFound("LANGUAGE_NOT_FOUND", fmt.Sprintf(MsgUnknown, code))
	}
	return httpx.OK(w, e)
}
