package gen

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"portalwright/internal/httpx"
)

type thing struct {
	ID     int64    `json:"id"`
	Name   string   `json:"name"`
	Note   string   `json:"note,omitempty"`
	Tags   []string `json:"tags"`
	Parent *thing   `json:"parent"`
}

type newThing struct {
	Name string `json:"name"`
}

var sample = []Route{
	{Method: http.MethodGet, Pattern: "/things/{domainId}", Access: httpx.Requires("thing:r", "domainId"), Out: []thing{}},
	{Method: http.MethodPost, Pattern: "/things/{domainId}", Access: httpx.Requires("thing:c", "domainId"), In: newThing{}, Out: thing{}, Status: http.StatusCreated},
	{Method: http.MethodGet, Pattern: "/files/{token:[a-z]+}/*", Access: httpx.Public, Out: httpx.File},
}

const sampleNotes = `# notes
## Things
### GET, POST /things/{domainId}
the things; POST makes one
## Files
### GET /files/{token:[a-z]+}/*
a file
`

func TestDocumentTablesAndTypes(t *testing.T) {
	n, err := ParseNotes(sampleNotes)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Document(sample, n)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Paths      map[string]map[string]json.RawMessage
		Components struct{ Schemas map[string]map[string]any }
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	if _, ok := d.Paths["/files/{token}/{path}"]["get"]; !ok {
		t.Fatalf("paths %v", d.Paths)
	}
	// An answered type requires what encoding/json always writes; a body-only type nothing.
	if got, _ := json.Marshal(d.Components.Schemas["GenThing"]["required"]); string(got) != `["id","name","tags","parent"]` {
		t.Errorf("GenThing required %s", got)
	}
	if _, ok := d.Components.Schemas["GenNewThing"]["required"]; ok {
		t.Errorf("GenNewThing requires %v", d.Components.Schemas["GenNewThing"]["required"])
	}
	ts, err := TypeScript(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"export interface GenThing {\n  id: number;\n  name: string;\n  note?: string;\n  parent: GenThing | null;\n  tags: string[];\n}",
		"'POST /things/{domainId}': { takes: GenNewThing; answers: GenThing };",
		"'GET /things/{domainId}': { takes: never; answers: GenThing[] };",
		"'GET /files/{token}/{path}': { takes: never; answers: Blob };",
	} {
		if !strings.Contains(ts, want) {
			t.Errorf("TypeScript lacks %q:\n%s", want, ts)
		}
	}
	md := "# API\n<!-- routes: Things -->\nold\n<!-- /routes -->\ntext\n<!-- routes: Files -->\n<!-- /routes -->\n"
	out, err := Tables(md, doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| POST | `/api/v1/things/{domainId}` | `thing:c` in `{domainId}` | `GenNewThing` | 201 `GenThing` | the things; POST makes one |",
		"| GET | `/api/v1/files/{token}/{path}` | public | — | file | a file |",
		"<!-- /routes -->\ntext\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("tables lack %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "old") {
		t.Errorf("the old table stayed:\n%s", out)
	}
}

// Every way the route table, the notes or api.md can be wrong is an error that says where.
func TestMistakesAreNamed(t *testing.T) {
	for name, c := range map[string]struct {
		routes []Route
		notes  string
		md     string
		want   string
	}{
		"no answer":       {routes: []Route{{Method: "GET", Pattern: "/a"}}, want: "GET /a names no answer"},
		"no body":         {routes: []Route{{Method: "POST", Pattern: "/a", Out: httpx.NoBody}}, want: "POST /a names no body"},
		"body on GET":     {routes: []Route{{Method: "GET", Pattern: "/a", In: newThing{}, Out: thing{}}}, want: "GET /a names a body"},
		"204 with status": {routes: []Route{{Method: "DELETE", Pattern: "/a", Out: httpx.NoBody, Status: 201}}, want: "a NoBody answer is 204"},
		"no note":         {routes: sample[:1], notes: "## S\n### GET /other\n", want: "no entry for GET /things/{domainId}"},
		"stale note":      {routes: sample[:1], notes: "## S\n### GET /things/{domainId}\n### PUT /gone\n", want: "names PUT /gone, which is no route"},
		"twice":           {notes: "## S\n### GET /a\n### GET, PUT /a\n", want: "GET /a already has a note (line 2)"},
		"no section":      {notes: "### GET /a\n", want: "a route before the first section"},
		"bad heading":     {notes: "## S\n### FETCH /a\n", want: `"FETCH /a" is not METHOD /path`},
		"section twice":   {notes: "## S\n## S\n", want: `section "S" twice`},
		"no marker":       {routes: sample[:1], notes: "## S\n### GET /things/{domainId}\n", md: "# API\n", want: "no marker <!-- routes: S -->"},
		"empty marker":    {routes: sample[:1], notes: "## S\n### GET /things/{domainId}\n", md: "<!-- routes: S -->\n<!-- /routes -->\n<!-- routes: T -->\n<!-- /routes -->", want: "no routes for the marker T"},
		"answer of none":  {routes: []Route{{Method: "POST", Pattern: "/a", In: httpx.NoBody, Out: httpx.AnswerOf{Method: "GET", Pattern: "/b"}}}, notes: "## S\n### POST /a\n", want: "answers as GET /b, which is no route"},
	} {
		t.Run(name, func(t *testing.T) {
			err := func() error {
				n, err := ParseNotes(c.notes)
				if err != nil {
					return err
				}
				doc, err := Document(c.routes, n)
				if err != nil {
					return err
				}
				_, err = Tables(c.md, doc)
				return err
			}()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
		})
	}
}
