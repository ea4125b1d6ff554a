package gen

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// The shape of the document that the tables read.
type (
	document struct {
		Servers []struct {
			URL string `json:"url"`
		} `json:"servers"`
		Paths map[string]map[string]operation `json:"paths"`
	}
	operation struct {
		Tags        []string `json:"tags"`
		Description string   `json:"description"`
		Access      struct {
			Rule string `json:"rule"`
		} `json:"x-access"`
		RequestBody struct {
			Content content `json:"content"`
		} `json:"requestBody"`
		Responses map[string]struct {
			Content content `json:"content"`
		} `json:"responses"`
	}
	// content is a body by media type.
	content map[string]struct {
		Schema map[string]any `json:"schema"`
	}
)

var routesMarker = regexp.MustCompile(`(?s)<!-- routes: ([^>]*?) -->\n.*?<!-- /routes -->`)

// Tables writes the route tables of docs/api.md from the OpenAPI document: each
// "<!-- routes: Section -->…<!-- /routes -->" gets the operations tagged Section. A section
// without its marker, or a marker without operations, is an error.
func Tables(apiMD string, doc []byte) (string, error) {
	var d document
	if err := json.Unmarshal(doc, &d); err != nil {
		return "", fmt.Errorf("the OpenAPI document: %w", err)
	}
	prefix := ""
	if len(d.Servers) > 0 {
		prefix = d.Servers[0].URL
	}
	type row struct{ path, method, line string }
	rows := map[string][]row{}
	for path, ops := range d.Paths {
		for method, op := range ops {
			if len(op.Tags) != 1 {
				return "", fmt.Errorf("%s %s has tags %v, not one", method, path, op.Tags)
			}
			m := strings.ToUpper(method)
			line := "| " + m + " | `" + prefix + path + "` | " + op.Access.Rule + " | " + takes(op) + " | " + answers(op) + " | " + op.Description + " |"
			rows[op.Tags[0]] = append(rows[op.Tags[0]], row{path, m, line})
		}
	}
	var errs []string
	out := routesMarker.ReplaceAllStringFunc(apiMD, func(block string) string {
		name := routesMarker.FindStringSubmatch(block)[1]
		rs, ok := rows[name]
		if !ok {
			errs = append(errs, "no routes for the marker "+name)
			return block
		}
		delete(rows, name)
		sort.Slice(rs, func(i, j int) bool {
			if rs[i].path != rs[j].path {
				return rs[i].path < rs[j].path
			}
			return rs[i].method < rs[j].method
		})
		var b strings.Builder
		b.WriteString("<!-- routes: " + name + " -->\n")
		b.WriteString("| Method | Path | Access | Takes | Answers | Notes |\n| --- | --- | --- | --- | --- | --- |\n")
		for _, r := range rs {
			b.WriteString(r.line + "\n")
		}
		b.WriteString("<!-- /routes -->")
		return b.String()
	})
	for name := range rows {
		errs = append(errs, "no marker <!-- routes: "+name+" --> for its routes")
	}
	if len(errs) > 0 {
		sort.Strings(errs)
		return "", fmt.Errorf("docs/api.md: %s", strings.Join(errs, "; "))
	}
	return out, nil
}

// takes names a request body: its type, or its media type.
func takes(op operation) string {
	return joinOr(bodyLabels(op.RequestBody.Content, bodyLabel), ", ", "—")
}

// joinOr joins parts with sep, or says none when there are none.
func joinOr(parts []string, sep, none string) string {
	if len(parts) == 0 {
		return none
	}
	return strings.Join(parts, sep)
}

// answers names what a call answers when it succeeds: its status (unless 200) and body.
func answers(op operation) string {
	return strings.Join(answerLabels(op, bodyLabel, func(status string, bodies []string) string {
		label := strings.Join(bodies, " ")
		if status != "200" {
			label = strings.TrimSpace(status + " " + label)
		}
		switch status {
		case "101":
			label += " WebSocket"
		case "302":
			label += " redirect"
		}
		return label
	}), ", ")
}

// bodyLabels labels each body of c (label of its media type and schema), sorted.
func bodyLabels(c content, label func(media string, schema map[string]any) string) []string {
	var parts []string
	for media, body := range c {
		parts = append(parts, label(media, body.Schema))
	}
	sort.Strings(parts)
	return parts
}

// answerLabels labels each success status of op (the default answer, an error, is left out)
// from the labels of its bodies, sorted.
func answerLabels(op operation, body func(media string, schema map[string]any) string, label func(status string, bodies []string) string) []string {
	var parts []string
	for status, r := range op.Responses {
		if status != "default" {
			parts = append(parts, label(status, bodyLabels(r.Content, body)))
		}
	}
	sort.Strings(parts)
	return parts
}

func bodyLabel(media string, schema map[string]any) string {
	switch media {
	case "application/json":
		if len(schema) == 0 {
			return "JSON"
		}
		return "`" + typeLabel(schema) + "`"
	case "text/plain":
		return "text"
	case "text/html":
		return "HTML"
	case "multipart/form-data":
		return "files (multipart)"
	default:
		return "file"
	}
}

// typeLabel is a schema in a few characters: a component's name, T[], a JSON type.
func typeLabel(s map[string]any) string {
	if ref, ok := s["$ref"].(string); ok {
		return strings.TrimPrefix(ref, "#/components/schemas/")
	}
	switch t := s["type"].(type) {
	case string:
		switch t {
		case "array":
			if items, ok := s["items"].(map[string]any); ok {
				return typeLabel(items) + "[]"
			}
		case "object":
			if ap, ok := s["additionalProperties"].(map[string]any); ok {
				return "{[key]: " + typeLabel(ap) + "}"
			}
		}
		return t
	case []any:
		var names []string
		for _, x := range t {
			names = append(names, fmt.Sprint(x))
		}
		return strings.Join(names, " | ")
	}
	return "any"
}
