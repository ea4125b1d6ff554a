package asset

import (
	"bytes"
	"io/fs"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"portalwright/templates"
)

// The passenger starter is editable out of the box: every content file has a companion
// <path>.schema that the server's validator reads, and the content keeps it; a broken copy
// is refused with the rule that failed.
func TestPassengerContentKeepsItsCompanionSchemas(t *testing.T) {
	fsys, err := templates.FS("passenger")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = fs.WalkDir(fsys, "content", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		data, _ := fs.ReadFile(fsys, p)
		schema, err := fs.ReadFile(fsys, p+".schema")
		if err != nil {
			t.Errorf("%s has no companion schema: %v", p, err)
			return nil
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if err := checkSchema(doc, schema, p+".schema"); err != nil {
			t.Errorf("%s does not keep its schema: %v", p, err)
		}
		checked++
		return nil
	})
	if err != nil || checked < 6 {
		t.Fatalf("checked %d content files (%v), want the 6 of both languages", checked, err)
	}

	schema, _ := fs.ReadFile(fsys, "content/en_GB/menu.json.schema")
	broken, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"title":"Menu","currency":"YEN","sections":[]}`))
	err = checkSchema(broken, schema, "menu.json.schema")
	if err == nil || !strings.Contains(err.Error(), "/currency") {
		t.Fatalf("a currency outside the enum: %v", err)
	}
}

func TestSchemaProblemsForTheCommitCheck(t *testing.T) {
	schema := []byte(`{"type":"object","required":["title"],"properties":{"title":{"type":"string","minLength":1}}}`)
	if got := SchemaProblems([]byte(`{"title":"Menu"}`), schema); len(got) != 0 {
		t.Fatalf("a keeping file: %q", got)
	}
	if got := SchemaProblems([]byte(`{"title":""}`), schema); len(got) != 1 || !strings.HasPrefix(got[0], "/title: ") {
		t.Fatalf("a breaking file: %q", got)
	}
}
