package app

import (
	"bytes"
	"context"
	"flag"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"

	"portalwright/internal/apidoc"
	"portalwright/internal/apidoc/gen"
	"portalwright/internal/httpapi"
)

var updateAPI = flag.Bool("update-api", false, "write internal/apidoc/openapi.json, docs/api.md's route tables and web/src/api/types.gen.ts from the route table (make api)")

// The files the API description is made into, and its words.
const (
	openAPIFile  = "../apidoc/openapi.json"
	apiDocFile   = "../../docs/api.md"
	apiNotesFile = "../../docs/api-notes.md"
	apiTypesFile = "../../web/src/api/types.gen.ts"
)

// TestAPIDescription keeps the API's description true to the code: every registered route
// (the frame origin's too) names what it takes and answers and has its note in
// docs/api-notes.md, and the OpenAPI document (checked in, embedded, served), docs/api.md's
// route tables and the browser's types (web/src/api/types.gen.ts) are what the route table
// gives now. With -update-api it writes them instead (`make api`).
func TestAPIDescription(t *testing.T) {
	cfg := testConfig(t)
	cfg.AdminPassword = "x-admin-pass"
	a, err := New(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	routes := tableRoutes(append(a.HTTP.Routes, a.HTTP.Frame.Routes...))
	if err := gen.Check(routes); err != nil {
		t.Fatal(err)
	}
	notes, err := os.ReadFile(apiNotesFile)
	if err != nil {
		t.Fatal(err)
	}
	n, err := gen.ParseNotes(string(notes))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := gen.Document(routes, n)
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(apiDocFile)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := gen.Tables(string(md), doc)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := gen.TypeScript(doc)
	if err != nil {
		t.Fatal(err)
	}
	if *updateAPI {
		for file, data := range map[string][]byte{openAPIFile: doc, apiDocFile: []byte(tables), apiTypesFile: []byte(ts)} {
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	const how = "; run `make api` (or go generate ./internal/apidoc) and commit the result"
	if onDisk, err := os.ReadFile(openAPIFile); err != nil || !bytes.Equal(onDisk, doc) {
		t.Errorf("internal/apidoc/openapi.json is not what the route table gives%s (%s)", how, firstDiff(string(onDisk), string(doc)))
	}
	if !bytes.Equal(apidoc.Document, doc) {
		t.Errorf("the embedded OpenAPI document is not what the route table gives%s", how)
	}
	if tables != string(md) {
		t.Errorf("docs/api.md's route tables are not what the route table gives%s (%s)", how, firstDiff(string(md), tables))
	}
	if onDisk, err := os.ReadFile(apiTypesFile); err != nil || string(onDisk) != ts {
		t.Errorf("web/src/api/types.gen.ts is not what the route table gives%s (%s)", how, firstDiff(string(onDisk), ts))
	}
}

// tableRoutes are the registered routes as the generator takes them.
func tableRoutes(infos []httpapi.RouteInfo) []gen.Route {
	out := make([]gen.Route, 0, len(infos))
	for _, r := range infos {
		out = append(out, gen.Route{Method: r.Method, Pattern: strings.TrimPrefix(r.Pattern, httpapi.APIPrefix),
			Access: r.Access, In: r.In, Out: r.Out, Status: r.Status})
	}
	return out
}

// firstDiff shows the first line where have and want differ.
func firstDiff(have, want string) string {
	h, w := strings.Split(have, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(h) || i < len(w); i++ {
		var hl, wl string
		if i < len(h) {
			hl = h[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if hl != wl {
			return "line " + itoa(int64(i+1)) + ": have " + strings.TrimSpace(hl) + ", want " + strings.TrimSpace(wl)
		}
	}
	return "same lines"
}
