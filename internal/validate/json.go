package validate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
)

// JSONSyntax says where data stops being JSON ("line 3, column 5: invalid character '}' …"),
// or "" when it is JSON. Every save of a JSON file that is refused names the line this way.
func JSONSyntax(data []byte) string {
	line, col, msg, ok := JSONSyntaxAt(data)
	if ok {
		return ""
	}
	return fmt.Sprintf("line %d, column %d: %s", line, col, msg)
}

// JSONSyntaxAt is JSONSyntax in parts: the 1-based line and column where data stops being
// JSON and why, or ok when it is JSON.
func JSONSyntaxAt(data []byte) (line, col int, msg string, ok bool) {
	if json.Valid(data) {
		return 0, 0, "", true
	}
	var v any
	err := json.Unmarshal(data, &v)
	if err == nil {
		return 0, 0, "", true
	}
	offset := int64(len(data))
	var syn *json.SyntaxError
	if errors.As(err, &syn) && syn.Offset > 0 {
		offset = syn.Offset - 1 // the offset counts the offending byte
	}
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = len(before) - bytes.LastIndexByte(before, '\n')
	msg = err.Error()
	if errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(msg, "unexpected end of JSON input") {
		msg = "the text ends before the JSON does"
	}
	return line, col, msg, false
}

// IsJSONC tells whether the file at p (a slash-separated path) is JSON with comments by
// convention, whatever its extension: *.jsonc, *.json5, tsconfig*.json, jsconfig*.json,
// .eslintrc.json, .babelrc(.json), devcontainer.json and the files of a .vscode folder. Such a
// file is saved as text (no strict JSON check) and the readiness check does not parse it.
func IsJSONC(p string) bool {
	name := strings.ToLower(path.Base(p))
	switch {
	case strings.HasSuffix(name, ".jsonc"), strings.HasSuffix(name, ".json5"):
		return true
	case strings.HasPrefix(name, "tsconfig") && strings.HasSuffix(name, ".json"),
		strings.HasPrefix(name, "jsconfig") && strings.HasSuffix(name, ".json"):
		return true
	case name == ".eslintrc.json", name == ".babelrc", name == ".babelrc.json", name == "devcontainer.json",
		name == ".devcontainer.json":
		return true
	}
	return strings.HasPrefix(p, ".vscode/") || strings.Contains(p, "/.vscode/")
}
