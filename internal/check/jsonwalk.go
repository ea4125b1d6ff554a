package check

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
)

// jsonValue is one value of a JSON document met by walkJSON: where it is (its path of keys
// and indexes), its line, and its text when it is a string.
type jsonValue struct {
	segs     []string // object keys and array indexes from the top (valid during the call only)
	line     int
	isString bool
	str      string
	isObject bool
}

// pointer is the value's JSON pointer (RFC 6901).
func (v *jsonValue) pointer() string { return pointerOf(v.segs) }

func pointerOf(segs []string) string {
	var b strings.Builder
	for _, s := range segs {
		b.WriteByte('/')
		if strings.ContainsAny(s, "~/") {
			s = strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
		}
		b.WriteString(s)
	}
	return b.String()
}

// walkJSON calls fn for every value of a JSON document (containers before their content),
// with its line. It stops at the first syntax error (the caller checks syntax first).
func walkJSON(data []byte, fn func(v *jsonValue)) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		object bool
		key    bool // an object expecting a key
		index  int
	}
	var stack []frame
	var segs []string
	line, pos := 1, 0
	lineAt := func(off int) int {
		if off > len(data) {
			off = len(data)
		}
		if off > pos {
			line += bytes.Count(data[pos:off], []byte{'\n'})
			pos = off
		}
		return line
	}
	v := &jsonValue{}
	// after a value ends in its parent
	next := func() {
		if n := len(stack); n > 0 {
			top := &stack[n-1]
			segs = segs[:len(segs)-1]
			if top.object {
				top.key = true
			} else {
				top.index++
			}
		}
	}
	// before a value starts in its parent
	enter := func() {
		if n := len(stack); n > 0 && !stack[n-1].object {
			segs = append(segs, strconv.Itoa(stack[n-1].index))
		}
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF || err != nil {
			return
		}
		end := int(dec.InputOffset())
		if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].key {
			if s, ok := tok.(string); ok {
				segs = append(segs, s)
				stack[n-1].key = false
				continue
			}
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				enter()
				*v = jsonValue{segs: segs, line: lineAt(end), isObject: t == '{'}
				fn(v)
				stack = append(stack, frame{object: t == '{', key: t == '{'})
			default:
				stack = stack[:len(stack)-1]
				next()
			}
		case string:
			enter()
			// the token ends after its closing quote; a string holds no raw newline
			*v = jsonValue{segs: segs, line: lineAt(end), isString: true, str: t}
			fn(v)
			next()
		default:
			enter()
			*v = jsonValue{segs: segs, line: lineAt(end)}
			fn(v)
			next()
		}
	}
}
