package gen

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// TypeScript writes the browser's types from the OpenAPI document (web/src/api/types.gen.ts):
// one exported type per component schema, and Routes, what each operation takes and answers
// by "METHOD /path" (the document's path, relative to /api/v1).
func TypeScript(doc []byte) (string, error) {
	var d struct {
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Schemas map[string]map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return "", fmt.Errorf("the OpenAPI document: %w", err)
	}
	var b strings.Builder
	b.WriteString("// Generated from the OpenAPI document (internal/apidoc/openapi.json) by internal/apidoc/gen:\n")
	b.WriteString("// do not edit; `make api` writes it again. docs/api.md says what each call does.\n\n")

	names := make([]string, 0, len(d.Components.Schemas))
	for name := range d.Components.Schemas {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		s := d.Components.Schemas[name]
		if _, ok := s["properties"]; ok && s["type"] == "object" {
			b.WriteString("export interface " + name + " " + tsType(s, "") + "\n\n")
		} else {
			b.WriteString("export type " + name + " = " + tsType(s, "") + ";\n\n")
		}
	}

	var ops []string
	for path, byMethod := range d.Paths {
		for method, raw := range byMethod {
			var op operation
			if err := json.Unmarshal(raw, &op); err != nil {
				return "", err
			}
			ops = append(ops, "  '"+strings.ToUpper(method)+" "+path+"': { takes: "+takesTS(op)+"; answers: "+answersTS(op)+" };\n")
		}
	}
	sort.Strings(ops)
	b.WriteString("/** What each route takes and answers when it succeeds, by method and path under /api/v1. */\n")
	b.WriteString("export interface Routes {\n")
	for _, o := range ops {
		b.WriteString(o)
	}
	b.WriteString("}\n")
	return b.String(), nil
}

func takesTS(op operation) string {
	return joinOr(bodyLabels(op.RequestBody.Content, mediaTS), " | ", "never")
}

func answersTS(op operation) string {
	return strings.Join(answerLabels(op, mediaTS, func(_ string, bodies []string) string {
		return joinOr(bodies, " | ", "void")
	}), " | ")
}

func mediaTS(media string, schema map[string]any) string {
	switch media {
	case "application/json":
		return tsType(schema, "  ")
	case "text/plain", "text/html":
		return "string"
	case "multipart/form-data":
		return "FormData"
	default:
		return "Blob"
	}
}

var identifier = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// tsType writes a JSON Schema (the subset the reflector makes) as a TypeScript type; indent
// is the indentation of the line the type starts on.
func tsType(s map[string]any, indent string) string {
	if ref, ok := s["$ref"].(string); ok {
		return strings.TrimPrefix(ref, "#/components/schemas/")
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		if alts, ok := s[key].([]any); ok {
			var parts []string
			for _, a := range alts {
				if m, ok := a.(map[string]any); ok {
					parts = append(parts, tsType(m, indent))
				}
			}
			return nullLast(parts)
		}
	}
	if enum, ok := s["enum"].([]any); ok {
		var parts []string
		for _, v := range enum {
			j, _ := json.Marshal(v)
			parts = append(parts, string(j))
		}
		return strings.Join(parts, " | ")
	}
	var types []string
	switch t := s["type"].(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			types = append(types, fmt.Sprint(x))
		}
	}
	if len(types) == 0 {
		return "unknown"
	}
	var parts []string
	for _, t := range types {
		switch t {
		case "string":
			parts = append(parts, "string")
		case "integer", "number":
			parts = append(parts, "number")
		case "boolean":
			parts = append(parts, "boolean")
		case "null":
			parts = append(parts, "null")
		case "array":
			item := "unknown"
			if items, ok := s["items"].(map[string]any); ok {
				item = tsType(items, indent)
			}
			if strings.ContainsAny(item, "|&") {
				item = "(" + item + ")"
			}
			parts = append(parts, item+"[]")
		case "object":
			parts = append(parts, objectTS(s, indent))
		}
	}
	return nullLast(parts)
}

// nullLast joins a union with null last, as one writes it: number | null.
func nullLast(parts []string) string {
	sort.SliceStable(parts, func(i, j int) bool { return parts[j] == "null" && parts[i] != "null" })
	return strings.Join(parts, " | ")
}

func objectTS(s map[string]any, indent string) string {
	props, _ := s["properties"].(map[string]any)
	if len(props) == 0 {
		if ap, ok := s["additionalProperties"].(map[string]any); ok {
			return "{ [key: string]: " + tsType(ap, indent) + " }"
		}
		return "{ [key: string]: unknown }"
	}
	required := map[string]bool{}
	if req, ok := s["required"].([]any); ok {
		for _, r := range req {
			required[fmt.Sprint(r)] = true
		}
	}
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("{\n")
	for _, k := range keys {
		name := k
		if !identifier.MatchString(k) {
			name = strconv.Quote(k)
		}
		if !required[k] {
			name += "?"
		}
		p, _ := props[k].(map[string]any)
		b.WriteString(indent + "  " + name + ": " + tsType(p, indent+"  ") + ";\n")
	}
	b.WriteString(indent + "}")
	return b.String()
}
