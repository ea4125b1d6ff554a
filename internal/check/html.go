package check

import (
	"bytes"
	"html"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// A tolerant HTML tag scanner: the tags of a page, a master page, a widget template or a
// translation value with their attributes and lines. It never fails: what is not a tag is
// text. Comments, <!…> and <?…> are skipped, and the content of script, style, textarea and
// title is not read for tags. (golang.org/x/net/html is not a dependency of the product; the
// check needs tags and attributes only.)

// tag is one start or end tag.
type tag struct {
	name        string // lower case
	end         bool   // </name>
	selfClosing bool   // <name … />
	attrs       []attr
	line        int
}

// attr is one attribute (an attribute without a value has val "").
type attr struct {
	name, val string // name lower case, val with character references decoded
}

func (t *tag) attr(name string) (string, bool) {
	for _, a := range t.attrs {
		if a.name == name {
			return a.val, true
		}
	}
	return "", false
}

var rawText = map[string]bool{"script": true, "style": true, "textarea": true, "title": true}

// voidElements have no end tag.
var voidElements = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
	"img": true, "input": true, "link": true, "meta": true, "param": true, "source": true, "track": true, "wbr": true}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// scanTags calls fn for every tag of data, in order; text (outside tags) goes to text when it
// is not nil.
func scanTags(data []byte, fn func(*tag), text func([]byte)) {
	line := 1
	pos := 0 // data[:pos] is counted in line
	lineAt := func(i int) int {
		line += bytes.Count(data[pos:i], []byte{'\n'})
		pos = i
		return line
	}
	i := 0
	for i < len(data) {
		j := bytes.IndexByte(data[i:], '<')
		if j < 0 {
			if text != nil {
				text(data[i:])
			}
			return
		}
		if text != nil && j > 0 {
			text(data[i : i+j])
		}
		i += j
		rest := data[i:]
		switch {
		case bytes.HasPrefix(rest, []byte("<!--")):
			k := bytes.Index(rest[4:], []byte("-->"))
			if k < 0 {
				return
			}
			i += 4 + k + 3
		case len(rest) > 1 && (rest[1] == '!' || rest[1] == '?'):
			k := bytes.IndexByte(rest, '>')
			if k < 0 {
				return
			}
			i += k + 1
		case len(rest) > 2 && rest[1] == '/' && isLetter(rest[2]):
			k := bytes.IndexByte(rest, '>')
			if k < 0 {
				return
			}
			n := 2
			for n < k && !isSpace(rest[n]) && rest[n] != '/' {
				n++
			}
			fn(&tag{name: strings.ToLower(string(rest[2:n])), end: true, line: lineAt(i)})
			i += k + 1
		case len(rest) > 1 && isLetter(rest[1]):
			t, n := parseStartTag(rest)
			t.line = lineAt(i)
			fn(t)
			i += n
			if rawText[t.name] && !t.selfClosing {
				closing := []byte("</" + t.name)
				k := indexFold(data[i:], closing)
				if k < 0 {
					return
				}
				i += k
			}
		default:
			if text != nil {
				text(rest[:1])
			}
			i++
		}
	}
}

// indexFold is bytes.Index ignoring ASCII case of data (sep is lower case).
func indexFold(data, sep []byte) int {
	for k := 0; k+len(sep) <= len(data); k++ {
		k2 := bytes.IndexByte(data[k:], '<')
		if k2 < 0 {
			return -1
		}
		k += k2
		if k+len(sep) <= len(data) && bytes.EqualFold(data[k:k+len(sep)], sep) {
			return k
		}
	}
	return -1
}

// parseStartTag reads "<name attr=…>" at the start of s: the tag and its length.
func parseStartTag(s []byte) (*tag, int) {
	n := 1
	for n < len(s) && !isSpace(s[n]) && s[n] != '>' && s[n] != '/' {
		n++
	}
	t := &tag{name: strings.ToLower(string(s[1:n]))}
	for n < len(s) {
		for n < len(s) && (isSpace(s[n]) || s[n] == '/') {
			if s[n] == '/' && n+1 < len(s) && s[n+1] == '>' {
				t.selfClosing = true
			}
			n++
		}
		if n >= len(s) {
			break
		}
		if s[n] == '>' {
			return t, n + 1
		}
		start := n
		for n < len(s) && !isSpace(s[n]) && s[n] != '=' && s[n] != '>' && !(s[n] == '/' && n+1 < len(s) && s[n+1] == '>') {
			n++
		}
		name := strings.ToLower(string(s[start:n]))
		for n < len(s) && isSpace(s[n]) {
			n++
		}
		val := ""
		if n < len(s) && s[n] == '=' {
			n++
			for n < len(s) && isSpace(s[n]) {
				n++
			}
			if n < len(s) && (s[n] == '"' || s[n] == '\'') {
				q := s[n]
				k := bytes.IndexByte(s[n+1:], q)
				if k < 0 {
					return t, len(s)
				}
				val = string(s[n+1 : n+1+k])
				n += k + 2
			} else {
				vs := n
				for n < len(s) && !isSpace(s[n]) && s[n] != '>' {
					n++
				}
				val = string(s[vs:n])
			}
		}
		if strings.IndexByte(val, '&') >= 0 {
			val = html.UnescapeString(val)
		}
		if name != "" {
			t.attrs = append(t.attrs, attr{name: name, val: val})
		}
	}
	return t, len(s)
}

// markupOf is what the translation rules compare of a value: its tags (start tags by name,
// end tags as "/name", sorted), whether they balance, and the length of its text in
// characters (tags left out, character references decoded).
type markupOf struct {
	tags     string // sorted tag names joined by spaces
	balanced bool
	chars    int
}

var quickTag = regexp.MustCompile(`<[A-Za-z!/?]`)

func analyzeMarkup(v string) markupOf {
	if !quickTag.MatchString(v) {
		n := utf8.RuneCountInString(v)
		if strings.IndexByte(v, '&') >= 0 {
			n = utf8.RuneCountInString(html.UnescapeString(v))
		}
		return markupOf{balanced: true, chars: n}
	}
	var names []string
	var stack []string
	balanced := true
	var text strings.Builder
	scanTags([]byte(v), func(t *tag) {
		if t.end {
			names = append(names, "/"+t.name)
			if voidElements[t.name] {
				return
			}
			if len(stack) == 0 || stack[len(stack)-1] != t.name {
				balanced = false
				return
			}
			stack = stack[:len(stack)-1]
			return
		}
		names = append(names, t.name)
		if !t.selfClosing && !voidElements[t.name] {
			stack = append(stack, t.name)
		}
	}, func(b []byte) { text.Write(b) })
	if len(stack) > 0 {
		balanced = false
	}
	slices.Sort(names)
	return markupOf{tags: strings.Join(names, " "), balanced: balanced, chars: utf8.RuneCountInString(html.UnescapeString(text.String()))}
}

// placeholderPattern finds the placeholders of a translation value: {{x}}, {name}, %s, %d,
// %1$s (and %i, %f, %@); %% is a literal percent sign.
var placeholderPattern = regexp.MustCompile(`\{\{[^{}]*\}\}|\{[A-Za-z_][A-Za-z0-9_.\-]*\}|%%|%(?:[0-9]+\$)?[sdif@]`)

// placeholders are a value's placeholders, sorted (a multiset).
func placeholders(v string) []string {
	if !strings.ContainsAny(v, "{%") {
		return nil
	}
	var out []string
	for _, m := range placeholderPattern.FindAllString(v, -1) {
		if m == "%%" {
			continue
		}
		if strings.HasPrefix(m, "{{") {
			m = "{{" + strings.TrimSpace(m[2:len(m)-2]) + "}}"
		}
		out = append(out, m)
	}
	slices.Sort(out)
	return out
}
