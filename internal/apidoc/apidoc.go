// Package apidoc serves the API's description: the OpenAPI 3.1 document generated from the
// route table (every httpx.Route names what it takes and answers), at GET /api/v1/openapi.json.
//
// Rules:
//   - openapi.json is generated, never edited: internal/apidoc/gen builds it, and internal/app's
//     TestAPIDescription fails when the checked-in file differs from what the wired routes give
//     (`make api` writes it, with docs/api.md's tables and web/src/api/types.gen.ts).
//   - The document is public, like docs/api.md: it names routes and shapes, never data. The
//     calls it describes keep their own access rules.
package apidoc

import (
	_ "embed"
	"net/http"

	"portalwright/internal/httpx"
)

//go:generate go test -tags devweb -count=1 -run ^TestAPIDescription$ ../app -update-api

// Document is the OpenAPI document as checked in.
//
//go:embed openapi.json
var Document []byte

// Handler serves the document.
type Handler struct{}

// Routes lists the document's one route.
func (Handler) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: http.MethodGet, Pattern: "/openapi.json", Access: httpx.Public, Handler: serve, Out: httpx.AnyJSON},
	}
}

func serve(w http.ResponseWriter, _ *http.Request) error {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(Document)
	return nil
}
