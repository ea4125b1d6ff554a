package translation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"portalwright/internal/validate"
)

// A nested translation file (real-world locale JSON such as {"nav": {"home": "Home"}}) read as
// an ordered tree that remembers the bytes it was read from, so a save edits the document in
// place: untouched members are written back byte for byte, a changed text replaces only its
// value, a new key is appended at the end of its parent object with the white space of its
// siblings (or the indentation detected from the file), a removed key is deleted with its
// separator and a parent object it leaves empty is removed too.

// kind is the JSON type of a value of a document.
type kind uint8

const (
	kindString kind = iota
	kindNull
	kindObject
	kindArray
	kindNumber
	kindBool
)

func (k kind) String() string {
	switch k {
	case kindString:
		return "a text"
	case kindNull:
		return "null"
	case kindObject:
		return "an object"
	case kindArray:
		return "an array"
	case kindNumber:
		return "a number"
	default:
		return "a boolean"
	}
}

// node is a value of a document.
type node struct {
	kind    kind
	raw     []byte // the value's bytes as read (as written for a changed text); nil for a new object
	text    string // kindString: the decoded text
	members []*member
	closeWS []byte // kindObject: the white space before '}'
	dirty   bool   // kindObject: a member changed, was added or removed: write it from its members
}

// member is a key of an object with its value and the bytes around them.
type member struct {
	lead   []byte // white space before the key
	rawKey []byte // the key as written, with its quotes
	key    string
	sep    []byte // the bytes between the key and the value (":" and its white space)
	val    *node
	trail  []byte // white space between the value and the ',' that follows it
}

// style is how a document lays itself out, detected from the file.
type style struct {
	newline string // "\n" or "\r\n"
	indent  string // one level: "  ", "    ", "\t"…
	sep     string // between a key and its value: ": " or ":"
	compact bool   // the whole document on one line
}

var defaultStyle = style{newline: "\n", indent: "  ", sep: ": "}

// document is a translation file as read.
type document struct {
	bom   bool   // the file starts with a UTF-8 byte order mark (kept)
	head  []byte // white space before the top object
	root  *node
	tail  []byte // what follows the top object (its trailing newline)
	style style
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// parseDocument reads a translation file. It answers why it cannot be read ("is not valid
// JSON: line 3, column 5: …", "holds an array") with a nil document.
func parseDocument(data []byte) (*document, string) {
	doc := &document{}
	if bytes.HasPrefix(data, utf8BOM) {
		doc.bom, data = true, data[len(utf8BOM):]
	}
	if why := validate.JSONSyntax(data); why != "" {
		return nil, "is not valid JSON: " + why
	}
	p := &parser{data: data}
	doc.head = p.ws()
	doc.root = p.value()
	doc.tail = data[p.pos:]
	if doc.root.kind != kindObject {
		return nil, fmt.Sprintf("holds %s, not an object; translation files hold texts (strings) in objects", doc.root.kind)
	}
	doc.style = detectStyle(data, doc.root)
	return doc, ""
}

// detectStyle finds the newline, the indentation of one level and the key separator of a
// document (the defaults where the file does not show them).
func detectStyle(data []byte, root *node) style {
	st := defaultStyle
	if bytes.Contains(data, []byte("\r\n")) {
		st.newline = "\r\n"
	}
	if len(root.members) == 0 {
		return st
	}
	if !bytes.ContainsAny(root.raw, "\r\n") {
		st.compact = true
	}
	if s := root.members[0].sep; !bytes.ContainsAny(s, "\r\n") {
		st.sep = string(s)
	}
	for _, m := range root.members {
		if i := bytes.LastIndexByte(m.lead, '\n'); i >= 0 {
			if unit := string(m.lead[i+1:]); unit != "" && strings.Trim(unit, " \t") == "" {
				st.indent = unit
			}
			break
		}
	}
	return st
}

// parser walks JSON that is known to be valid.
type parser struct {
	data []byte
	pos  int
}

func (p *parser) ws() []byte {
	start := p.pos
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
			continue
		}
		break
	}
	return p.data[start:p.pos]
}

func (p *parser) value() *node {
	start := p.pos
	if p.pos >= len(p.data) {
		return &node{kind: kindNull}
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object()
	case c == '"':
		raw := p.str()
		return &node{kind: kindString, raw: raw, text: decodeString(raw)}
	case c == '[':
		p.skipNested()
		return &node{kind: kindArray, raw: p.data[start:p.pos]}
	case c == 'n':
		p.pos += len("null")
		return &node{kind: kindNull, raw: p.data[start:p.pos]}
	case c == 't' || c == 'f':
		for p.pos < len(p.data) && p.data[p.pos] >= 'a' && p.data[p.pos] <= 'z' {
			p.pos++
		}
		return &node{kind: kindBool, raw: p.data[start:p.pos]}
	default:
		for p.pos < len(p.data) && strings.IndexByte("+-.0123456789eE", p.data[p.pos]) >= 0 {
			p.pos++
		}
		return &node{kind: kindNumber, raw: p.data[start:p.pos]}
	}
}

// str reads a string token and answers its bytes with the quotes.
func (p *parser) str() []byte {
	start := p.pos
	p.pos++ // the opening quote
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case '\\':
			p.pos += 2
			continue
		case '"':
			p.pos++
			return p.data[start:p.pos]
		}
		p.pos++
	}
	return p.data[start:p.pos]
}

// skipNested skips an array (with whatever it holds).
func (p *parser) skipNested() {
	depth := 0
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case '"':
			p.str()
			continue
		case '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth == 0 {
				p.pos++
				return
			}
		}
		p.pos++
	}
}

func (p *parser) object() *node {
	start := p.pos
	n := &node{kind: kindObject}
	p.pos++ // '{'
	for p.pos < len(p.data) {
		ws := p.ws()
		if p.pos >= len(p.data) {
			break
		}
		if p.data[p.pos] == '}' {
			n.closeWS = ws
			p.pos++
			break
		}
		m := &member{lead: ws}
		m.rawKey = p.str()
		m.key = decodeString(m.rawKey)
		sepStart := p.pos
		p.ws()
		p.pos++ // ':'
		p.ws()
		m.sep = p.data[sepStart:p.pos]
		m.val = p.value()
		after := p.ws()
		n.members = append(n.members, m)
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			m.trail = after
			p.pos++
			continue
		}
		n.closeWS = after
		if p.pos < len(p.data) {
			p.pos++ // '}'
		}
		break
	}
	n.raw = p.data[start:p.pos]
	return n
}

// decodeString is the text of a string token.
func decodeString(raw []byte) string {
	if len(raw) >= 2 && bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw[1 : len(raw)-1])
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

// encodeString is a text as JSON, escaped minimally: quotes, backslashes and control
// characters (and U+2028/U+2029); markup stays as written.
func encodeString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// where names a key path in a reason: "at nav.items", "at the top level".
func where(path string) string {
	if path == "" {
		return "at the top level"
	}
	return "at " + path
}

// texts reads the texts of a nested document: every key path (its keys joined by dots) →
// text. A value that is not a text or an object (null reads as an empty text), an empty key,
// a key holding a dot and a key written twice in one object make it unreadable: the answer
// then says why ("the value at nav.items is an array; …").
func (d *document) texts() (Set, string) {
	out := Set{}
	var walk func(n *node, prefix string) string
	walk = func(n *node, prefix string) string {
		seen := make(map[string]bool, len(n.members))
		for _, m := range n.members {
			path := m.key
			if prefix != "" {
				path = prefix + "." + m.key
			}
			switch {
			case m.key == "":
				return fmt.Sprintf("a key %s is empty (\"\"); every level of a key needs a name", where(prefix))
			case strings.Contains(m.key, "."):
				return fmt.Sprintf("the key '%s' %s holds a dot, which the Translation Manager uses to join the levels of a nested key", m.key, where(prefix))
			case seen[m.key]:
				return fmt.Sprintf("the key '%s' is written twice %s", m.key, where(prefix))
			}
			seen[m.key] = true
			switch m.val.kind {
			case kindString:
				out[path] = m.val.text
			case kindNull:
				out[path] = ""
			case kindObject:
				if why := walk(m.val, path); why != "" {
					return why
				}
			default:
				return notText(path, m.val.kind)
			}
		}
		return ""
	}
	if why := walk(d.root, ""); why != "" {
		return nil, why
	}
	return out, ""
}

func notText(path string, k kind) string {
	return fmt.Sprintf("the value at %s is %s; translation files hold texts (strings) in objects", path, k)
}

// flatReason says why a document that is JSON cannot be read as a flat file (key → text):
// the first value that is not a text; an object names the default language's file, which
// made the portal's translations flat (def: "locales/en.json is flat", "… does not exist").
func (d *document) flatReason(def string) string {
	for _, m := range d.root.members {
		switch m.val.kind {
		case kindString, kindNull:
			continue
		case kindObject:
			return fmt.Sprintf("the value at %s is an object, but the default language's file %s, so the portal's translation files are read flat (key → text); the files of a portal are all flat or all nested", m.key, def)
		default:
			return notText(m.key, m.val.kind)
		}
	}
	return "it cannot be read as key → text"
}

// hasObjects tells a nested document (a value of the top object is an object) from a flat one.
func (d *document) hasObjects() bool {
	for _, m := range d.root.members {
		if m.val.kind == kindObject {
			return true
		}
	}
	return false
}

// order is the position of every key path of the document, in document order.
func (d *document) order() map[string]int {
	out := map[string]int{}
	var walk func(n *node, prefix string)
	walk = func(n *node, prefix string) {
		for _, m := range n.members {
			path := m.key
			if prefix != "" {
				path = prefix + "." + m.key
			}
			if m.val.kind == kindObject {
				walk(m.val, path)
			} else if _, ok := out[path]; !ok {
				out[path] = len(out)
			}
		}
	}
	walk(d.root, "")
	return out
}

// newDocument is an empty document laid out in st.
func newDocument(st style) *document {
	tail := st.newline
	return &document{root: &node{kind: kindObject, dirty: true}, tail: []byte(tail), style: st}
}

// apply edits the document in place so that its texts are set: texts that differ are
// replaced, keys not in set are removed (with the objects they leave empty), keys of set not
// in the document are appended at the end of their parent object (intermediate objects made),
// in the order given by rank (then by key). The document must read (texts) without a reason.
func (d *document) apply(set Set, rank map[string]int) {
	done := make(map[string]bool, len(set))
	var prune func(n *node, prefix string) bool // answers whether n changed
	prune = func(n *node, prefix string) bool {
		changed := false
		kept := n.members[:0:0]
		for _, m := range n.members {
			path := m.key
			if prefix != "" {
				path = prefix + "." + m.key
			}
			switch m.val.kind {
			case kindObject:
				had := len(m.val.members)
				if prune(m.val, path) {
					changed = true
				}
				if had > 0 && len(m.val.members) == 0 {
					changed = true
					continue // a parent left empty goes too
				}
			default: // a text (or null)
				want, ok := set[path]
				if !ok {
					changed = true
					continue
				}
				done[path] = true
				if m.val.kind == kindNull && want == "" || m.val.kind == kindString && m.val.text == want {
					break
				}
				m.val = &node{kind: kindString, raw: encodeString(want), text: want}
				changed = true
			}
			kept = append(kept, m)
		}
		if changed {
			n.members = kept
			n.dirty = true
		}
		return changed
	}
	prune(d.root, "")

	var missing []string
	for k := range set {
		if !done[k] {
			missing = append(missing, k)
		}
	}
	sort.Slice(missing, func(i, j int) bool {
		ri, iok := rank[missing[i]]
		rj, jok := rank[missing[j]]
		switch {
		case iok && jok && ri != rj:
			return ri < rj
		case iok != jok:
			return iok
		}
		return missing[i] < missing[j]
	})
	for _, k := range missing {
		d.insert(strings.Split(k, "."), set[k])
	}
}

// insert appends the text at the key path parts, making the objects on the way.
func (d *document) insert(parts []string, text string) {
	n := d.root
	for depth, part := range parts {
		last := depth == len(parts)-1
		n.dirty = true
		var found *member
		for _, m := range n.members {
			if m.key == part {
				found = m
				break
			}
		}
		switch {
		case found != nil && last:
			found.val = &node{kind: kindString, raw: encodeString(text), text: text}
			return
		case found != nil:
			if found.val.kind != kindObject { // not after the key rules; kept well-formed anyway
				found.val = &node{kind: kindObject, dirty: true}
			}
			n = found.val
			continue
		}
		val := &node{kind: kindString, raw: encodeString(text), text: text}
		if !last {
			val = &node{kind: kindObject, dirty: true}
		}
		n.members = append(n.members, &member{lead: d.leadFor(n, depth), rawKey: encodeString(part), key: part, sep: []byte(d.style.sep), val: val})
		if len(n.members) == 1 {
			n.closeWS = d.closeFor(depth)
		}
		n = val
	}
}

// leadFor is the white space before a new member of n (at depth: 0 for the top object): that
// of its last sibling (from its last line break), else the document's indentation.
func (d *document) leadFor(n *node, depth int) []byte {
	if k := len(n.members); k > 0 {
		lead := n.members[k-1].lead
		if i := bytes.LastIndexByte(lead, '\n'); i >= 0 {
			if i > 0 && lead[i-1] == '\r' {
				i--
			}
			lead = lead[i:]
		}
		return bytes.Clone(lead)
	}
	if d.style.compact {
		return nil
	}
	return []byte(d.style.newline + strings.Repeat(d.style.indent, depth+1))
}

// closeFor is the white space before the '}' of an object at depth that gets its first member.
func (d *document) closeFor(depth int) []byte {
	if d.style.compact {
		return nil
	}
	return []byte(d.style.newline + strings.Repeat(d.style.indent, depth))
}

// bytes is the document as written.
func (d *document) bytes() []byte {
	var b bytes.Buffer
	if d.bom {
		b.Write(utf8BOM)
	}
	b.Write(d.head)
	writeNode(&b, d.root)
	b.Write(d.tail)
	return b.Bytes()
}

func writeNode(b *bytes.Buffer, n *node) {
	if n.kind != kindObject || !n.dirty {
		b.Write(n.raw)
		return
	}
	if len(n.members) == 0 {
		b.WriteString("{}")
		return
	}
	b.WriteByte('{')
	for i, m := range n.members {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(m.lead)
		b.Write(m.rawKey)
		b.Write(m.sep)
		writeNode(b, m.val)
		if i < len(n.members)-1 {
			b.Write(m.trail)
		}
	}
	b.Write(n.closeWS)
	b.WriteByte('}')
}
