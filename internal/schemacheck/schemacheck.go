// Package schemacheck is the one JSON Schema check of portal content: a JSON file against its
// companion schema (<path>.schema, docs/portal-format.md). The asset manager refuses a save
// that breaks it; the readiness check (internal/check) reports the same problems, each with
// the JSON pointer of the value at fault. Pure functions over bytes: no file access.
//
// A schema may not refer to other documents: a $ref to another file or URL is refused, so a
// portal's schema cannot make the server read its files or call other hosts.
package schemacheck

import (
	"bytes"
	"errors"
	"sort"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// MaxSchema bounds a companion schema's size.
const MaxSchema = 2 << 20

// Problem is one rule a document breaks: where (a JSON pointer into the document, "" for the
// whole document) and what.
type Problem struct {
	Pointer string
	Message string
}

// String is the problem as the API words it: "/title: length must be >= 1, but got 0"
// ("/" for the whole document).
func (p Problem) String() string {
	where := p.Pointer
	if where == "" {
		where = "/"
	}
	return where + ": " + p.Message
}

// ParseJSON reads a JSON document as the validator needs it (numbers kept exact).
func ParseJSON(data []byte) (any, error) {
	return jsonschema.UnmarshalJSON(bytes.NewReader(data))
}

// Schema is a compiled companion schema.
type Schema struct {
	compiled *jsonschema.Schema
	doc      any
}

// Document is the schema as parsed JSON (for walking its properties, e.g. media fields).
func (s *Schema) Document() any { return s.doc }

// noLoader refuses every $ref outside the schema.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, errors.New("schemas may not refer to other documents (" + url + ")")
}

// Compile reads a schema's text; name is how the error names it ("menu.json.schema"). The
// error says why the schema cannot be used: too large, not JSON, or not a usable schema.
func Compile(raw []byte, name string) (*Schema, error) {
	if len(raw) > MaxSchema {
		return nil, errors.New("The schema " + name + " is too large to check the file against.")
	}
	sdoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, errors.New("The schema " + name + " is not valid JSON: " + err.Error())
	}
	comp := jsonschema.NewCompiler()
	comp.UseLoader(noLoader{})
	const loc = "urn:portalwright:schema"
	if err := comp.AddResource(loc, sdoc); err != nil {
		return nil, errors.New("The schema " + name + " could not be read: " + err.Error())
	}
	sch, err := comp.Compile(loc)
	if err != nil {
		return nil, errors.New("The schema " + name + " could not be read: " + err.Error())
	}
	return &Schema{compiled: sch, doc: sdoc}, nil
}

// Validate lists what doc (parsed with ParseJSON) breaks, sorted; nothing when it keeps the
// schema.
func (s *Schema) Validate(doc any) []Problem {
	err := s.compiled.Validate(doc)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Problem{{Message: err.Error()}}
	}
	var out []Problem
	var collect func(u jsonschema.OutputUnit)
	collect = func(u jsonschema.OutputUnit) {
		if u.Error != nil && len(u.Errors) == 0 {
			out = append(out, Problem{Pointer: u.InstanceLocation, Message: u.Error.String()})
		}
		for _, e := range u.Errors {
			collect(e)
		}
	}
	collect(*ve.BasicOutput())
	if len(out) == 0 {
		out = []Problem{{Message: ve.Error()}}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// Check compiles raw (named name in errors) and validates doc against it.
func Check(doc any, raw []byte, name string) ([]Problem, error) {
	s, err := Compile(raw, name)
	if err != nil {
		return nil, err
	}
	return s.Validate(doc), nil
}
