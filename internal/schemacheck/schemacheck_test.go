package schemacheck

import "testing"

func TestProblemsCarryTheirPointer(t *testing.T) {
	schema := []byte(`{"type":"object","required":["title"],"properties":{"title":{"type":"string","minLength":1},"items":{"type":"array","items":{"type":"number"}}}}`)
	doc, err := ParseJSON([]byte(`{"title":"","items":[1,"two"]}`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Check(doc, schema, "x.json.schema")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Pointer != "/items/1" || got[1].Pointer != "/title" {
		t.Fatalf("problems: %+v", got)
	}
	if _, err := Compile([]byte(`{"$ref":"https://example.org/s.json"}`), "s"); err == nil {
		t.Fatal("a schema referring to another document compiled")
	}
	if _, err := Compile([]byte(`{`), "s"); err == nil {
		t.Fatal("a schema that is not JSON compiled")
	}
}
