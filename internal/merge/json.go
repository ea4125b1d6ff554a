package merge

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// jkind is the type of a JSON value.
type jkind uint8

const (
	jNull jkind = iota
	jBool
	jNumber
	jString
	jObject
	jArray
)

// member is an object member or an array item (key "" for items).
type member struct {
	key string
	val *node
}

// node is one value of an ordered JSON tree. raw is the value's source
// text: numbers round-trip exactly, strings keep their escapes, and two
// values with the same source text are equal without looking inside.
// Parsed objects and arrays start lazy: their members are built the first
// time something looks inside (see doc).
type node struct {
	kind  jkind
	flags uint8    // flagEsc, flagLazy
	depth uint16   // nesting depth in its document
	ord   int32    // a parsed container's number in its document
	raw   string   // source text ("" for containers built by the merge)
	kids  []member // object members in order, or array items; see members
	ext   *nodeExt // rarely needed extras, kept out of line to keep nodes small
	doc   *doc     // the document a parsed node comes from
}

const (
	flagEsc  = 1 << iota // a string whose source has escapes; see str
	flagLazy             // a container whose members are not built yet
)

type nodeExt struct {
	str string         // unescaped value of a string with escapes
	idx map[string]int // key index of a large object
}

// isContainer reports whether n is an object or an array.
func (n *node) isContainer() bool { return n.kind == jObject || n.kind == jArray }

// members returns an object's members or an array's items, building them
// on first use.
func (n *node) members() []member {
	if n.flags&flagLazy != 0 {
		n.doc.expand(n)
	}
	return n.kids
}

// str is the unescaped value of a string node, decoded on first use.
func (n *node) str() string {
	if n.flags&flagEsc == 0 {
		return n.raw[1 : len(n.raw)-1]
	}
	if n.ext == nil {
		val, _ := unescape(n.raw[1 : len(n.raw)-1])
		n.ext = &nodeExt{str: val}
	}
	return n.ext.str
}

// get finds key in an object. hint is where the key probably is (the same
// position as in a sibling version), which avoids the map for most lookups.
func (n *node) get(key string, hint int) (*node, int) {
	kids := n.members()
	if hint >= 0 && hint < len(kids) && kids[hint].key == key {
		return kids[hint].val, hint
	}
	if len(kids) <= 8 {
		for i := range kids {
			if kids[i].key == key {
				return kids[i].val, i
			}
		}
		return nil, -1
	}
	if n.ext == nil || n.ext.idx == nil {
		n.buildIndex()
	}
	if i, ok := n.ext.idx[key]; ok {
		return kids[i].val, i
	}
	return nil, -1
}

// buildIndex builds the key index and reports whether all keys are unique.
func (n *node) buildIndex() bool {
	if n.ext == nil {
		n.ext = &nodeExt{}
	}
	kids := n.members()
	idx := make(map[string]int, len(kids))
	unique := true
	for i, kv := range kids {
		if _, dup := idx[kv.key]; dup {
			unique = false
			continue
		}
		idx[kv.key] = i
	}
	n.ext.idx = idx
	return unique
}

// hasDupKeys reports whether an object repeats a key.
func (n *node) hasDupKeys() bool {
	kids := n.members()
	if len(kids) > 16 {
		return !n.buildIndex()
	}
	for i := 1; i < len(kids); i++ {
		for j := range i {
			if kids[i].key == kids[j].key {
				return true
			}
		}
	}
	return false
}

// equal compares two values semantically: object key order is ignored,
// numbers compare by their text, strings by their unescaped value.
// Identical source text settles it at once, so comparing mostly unchanged
// versions costs little more than a memory comparison, and builds nothing.
func equal(a, b *node) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.kind != b.kind {
		return false
	}
	if a.raw != "" && a.raw == b.raw {
		return true
	}
	switch a.kind {
	case jString:
		return a.str() == b.str()
	case jArray:
		ak, bk := a.members(), b.members()
		if len(ak) != len(bk) {
			return false
		}
		for i := range ak {
			if !equal(ak[i].val, bk[i].val) {
				return false
			}
		}
		return true
	case jObject:
		ak, bk := a.members(), b.members()
		if len(ak) != len(bk) {
			return false
		}
		for i, kv := range ak {
			bv, _ := b.get(kv.key, i)
			if bv == nil || !equal(kv.val, bv) {
				return false
			}
		}
		return true
	default:
		return a.raw == b.raw
	}
}

// newContainer builds an object or array node from its members.
func newContainer(kind jkind, kids []member) *node {
	return &node{kind: kind, kids: kids}
}

// ---------------------------------------------------------------------------
// Parser
//
// Parsing is two-step. scan validates the whole text in one tight pass that
// builds no values, only records where each object and array ends. Then
// containers are expanded one level at a time, on demand, jumping over
// nested containers by their recorded end. Parts of a file that are the
// same in all versions are thus compared as text and never built.

type parseError struct {
	msg       string
	line, col int
}

func (e *parseError) Error() string {
	return fmt.Sprintf("%s at line %d, column %d", e.msg, e.line, e.col)
}

// view reads b as a string without copying it. Merge and Compare only read
// their inputs, and every string they return is built anew (or cloned), so
// nothing of an input outlives the call except Result.Merged, which may be
// the input itself by design.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// maxDepth guards against hostile nesting.
const maxDepth = 10000

// doc is one parsed JSON text.
type doc struct {
	src     string
	ends    []int32 // by container in document order: offset after its closing bracket
	inner   []int32 // by container: how many containers it contains
	root    *node
	style   style
	dupKeys bool // an expanded object repeats a key: not mergeable by key
	slab    []node
	kidSlab []member
	scratch []member
	chunk   int
}

// parse validates b and returns its document, with the root unexpanded.
func parse(b []byte) (*doc, error) {
	if len(b) >= math.MaxInt32 {
		return nil, errors.New("file too large")
	}
	d := &doc{src: view(b)}
	d.chunk = min(max(len(b)/64, 16), 4096)
	// Brackets (some may be in strings) bound the number of containers.
	containers := strings.Count(d.src, "{") + strings.Count(d.src, "[")
	d.ends, d.inner = make([]int32, 0, containers), make([]int32, 0, containers)
	start, err := d.scan()
	if err != nil {
		return nil, err
	}
	d.root = d.valueAt(start)
	d.style = detectStyle(d.src)
	return d, nil
}

// parseValue parses a complete value (a choice's JSON), rejecting repeated keys.
func parseValue(s string) (*node, error) {
	d, err := parse([]byte(s))
	if err != nil {
		return nil, err
	}
	if d.expandAll(d.root); d.dupKeys {
		return nil, errors.New("an object has a repeated key")
	}
	return d.root, nil
}

func (d *doc) expandAll(n *node) {
	for _, kv := range n.members() {
		d.expandAll(kv.val)
	}
}

func (d *doc) errorAt(pos int, format string, args ...any) error {
	line, col := 1, 1
	for i := 0; i < pos && i < len(d.src); i++ {
		if d.src[i] == '\n' {
			line, col = line+1, 1
		} else if d.src[i]&0xc0 != 0x80 { // count characters, not bytes
			col++
		}
	}
	return &parseError{msg: fmt.Sprintf(format, args...), line: line, col: col}
}

// describe names the character at pos for an error message.
func (d *doc) describe(pos int) string {
	if pos >= len(d.src) {
		return "end of file"
	}
	r, _ := utf8.DecodeRuneInString(d.src[pos:])
	return strconv.QuoteRune(r)
}

func skipWS(s string, pos int) int {
	for pos < len(s) {
		switch s[pos] {
		case ' ', '\n', '\t', '\r':
			pos++
		default:
			return pos
		}
	}
	return pos
}

// scan validates the text and fills ends and inner. It returns where the
// top-level value starts.
func (d *doc) scan() (int, error) {
	const (
		wantValue = iota
		wantKey
		afterValue
	)
	s := d.src
	var stack []int32 // open containers
	var inObject []bool
	state := wantValue
	pos := skipWS(s, 0)
	start := pos
	for {
		pos = skipWS(s, pos)
		switch state {
		case wantValue:
			if pos >= len(s) {
				return 0, d.errorAt(pos, "unexpected end of file, expected a value")
			}
			c := s[pos]
			if c == '{' || c == '[' {
				if len(stack) >= maxDepth {
					return 0, d.errorAt(pos, "nesting deeper than %d levels", maxDepth)
				}
				stack = append(stack, int32(len(d.ends)))
				inObject = append(inObject, c == '{')
				d.ends = append(d.ends, 0)
				d.inner = append(d.inner, 0)
				pos = skipWS(s, pos+1)
				if pos < len(s) && s[pos] == c+2 { // '}' or ']': empty
					stack, inObject = d.close(stack, pos), inObject[:len(inObject)-1]
					pos++
					state = afterValue
				} else if c == '{' {
					state = wantKey
				}
				continue
			}
			end, err := d.scanScalar(pos)
			if err != nil {
				return 0, err
			}
			pos, state = end, afterValue
		case wantKey:
			if pos >= len(s) || s[pos] != '"' {
				return 0, d.errorAt(pos, "unexpected %s, expected a string key", d.describe(pos))
			}
			end, _, err := d.scanString(pos)
			if err != nil {
				return 0, err
			}
			pos = skipWS(s, end)
			if pos >= len(s) || s[pos] != ':' {
				return 0, d.errorAt(pos, "unexpected %s, expected ':' after an object key", d.describe(pos))
			}
			pos, state = pos+1, wantValue
		case afterValue:
			if len(stack) == 0 {
				if pos < len(s) {
					return 0, d.errorAt(pos, "unexpected %s after the top-level value", d.describe(pos))
				}
				return start, nil
			}
			obj := inObject[len(inObject)-1]
			closer := byte(']')
			if obj {
				closer = '}'
			}
			switch {
			case pos < len(s) && s[pos] == ',':
				pos++
				if state = wantValue; obj {
					state = wantKey
				}
			case pos < len(s) && s[pos] == closer:
				stack, inObject = d.close(stack, pos), inObject[:len(inObject)-1]
				pos++
			default:
				return 0, d.errorAt(pos, "unexpected %s, expected ',' or '%c'", d.describe(pos), closer)
			}
		}
	}
}

// close records the end of the innermost open container, whose closing
// bracket is at pos, and pops it.
func (d *doc) close(stack []int32, pos int) []int32 {
	ord := stack[len(stack)-1]
	d.ends[ord] = int32(pos + 1)
	d.inner[ord] = int32(len(d.ends)) - ord - 1
	return stack[:len(stack)-1]
}

// scanScalar validates a string, number or literal at pos and returns its end.
func (d *doc) scanScalar(pos int) (int, error) {
	s := d.src
	switch c := s[pos]; {
	case c == '"':
		end, _, err := d.scanString(pos)
		return end, err
	case c == '-' || (c >= '0' && c <= '9'):
		return d.scanNumber(pos)
	}
	for _, word := range [...]string{"true", "false", "null"} {
		if strings.HasPrefix(s[pos:], word) {
			return pos + len(word), nil
		}
	}
	return 0, d.errorAt(pos, "unexpected %s, expected a value", d.describe(pos))
}

// plainByte marks the bytes that stand for themselves inside a string.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// scanString validates the string starting at pos; esc reports escapes.
func (d *doc) scanString(pos int) (end int, esc bool, err error) {
	s := d.src
	i := pos + 1
	for {
		for i < len(s) && plainByte[s[i]] {
			i++
		}
		if i >= len(s) {
			return 0, false, d.errorAt(pos, "unterminated string")
		}
		switch c := s[i]; {
		case c == '"':
			return i + 1, esc, nil
		case c == '\\':
			esc = true
			if i+1 >= len(s) {
				return 0, false, d.errorAt(i, "unterminated string")
			}
			switch s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if _, ok := hex4(s, i+2); !ok {
					return 0, false, d.errorAt(i, "invalid \\u escape in string")
				}
				i += 6
			default:
				return 0, false, d.errorAt(i, "invalid escape %s in string", d.describe(i+1))
			}
		default:
			return 0, false, d.errorAt(i, "control character %s in string", d.describe(i))
		}
	}
}

func (d *doc) scanNumber(pos int) (int, error) {
	s := d.src
	i := pos
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if s[i] == '-' {
		i++
	}
	if i < len(s) && s[i] == '0' {
		i++
	} else if digits() == 0 {
		return 0, d.errorAt(i, "invalid number: expected a digit, got %s", d.describe(i))
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return 0, d.errorAt(i, "invalid number: expected a digit after the decimal point, got %s", d.describe(i))
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return 0, d.errorAt(i, "invalid number: expected a digit in the exponent, got %s", d.describe(i))
		}
	}
	return i, nil
}

func (d *doc) alloc() *node {
	if len(d.slab) == cap(d.slab) {
		d.slab = make([]node, 0, d.chunk)
	}
	d.slab = d.slab[:len(d.slab)+1]
	return &d.slab[len(d.slab)-1]
}

// allocKids moves the scratch members from start into long-lived storage,
// carved from a shared slab to avoid one allocation per container.
func (d *doc) allocKids(start int) []member {
	n := len(d.scratch) - start
	if n == 0 {
		return nil
	}
	if cap(d.kidSlab)-len(d.kidSlab) < n {
		d.kidSlab = make([]member, 0, max(n, d.chunk*4))
	}
	l := len(d.kidSlab)
	d.kidSlab = append(d.kidSlab, d.scratch[start:]...)
	clear(d.scratch[start:])
	d.scratch = d.scratch[:start]
	return d.kidSlab[l : l+n : l+n]
}

// span is one member of a container as found in the text, before any
// node is built for it.
type span struct {
	key        string // the key's source text between its quotes (objects)
	keyEsc     bool   // the key has escapes
	start, end int    // the value's source text
	ord        int32  // the value's number, if it is a container
	esc        bool   // the value is a string with escapes
}

// cursor walks the members of a lazy container in its (validated) text.
type cursor struct {
	d    *doc
	pos  int
	next int32 // number of the next nested container
	obj  bool
}

func (d *doc) cursor(n *node) cursor {
	return cursor{d: d, pos: int(d.ends[n.ord]) - len(n.raw) + 1, next: n.ord + 1, obj: n.kind == jObject}
}

// numberByte marks the bytes a (validated) number consists of.
var numberByte = func() (t [256]bool) {
	for _, c := range "0123456789+-.eE" {
		t[c] = true
	}
	return t
}()

// step returns the next member, or false after the last one.
func (c *cursor) step() (sp span, ok bool) {
	s := c.d.src
	pos := skipWS(s, c.pos)
	if s[pos] == ',' {
		pos = skipWS(s, pos+1)
	}
	if s[pos] == '}' || s[pos] == ']' {
		return sp, false
	}
	if c.obj {
		end, esc := stringEnd(s, pos)
		sp.key, sp.keyEsc = s[pos+1:end-1], esc
		pos = skipWS(s, skipWS(s, end)+1) // past the ':'
	}
	sp.start = pos
	switch s[pos] {
	case '{', '[':
		sp.ord = c.next
		sp.end = int(c.d.ends[c.next])
		c.next += 1 + c.d.inner[c.next]
	case '"':
		sp.end, sp.esc = stringEnd(s, pos)
	case 't', 'n':
		sp.end = pos + 4
	case 'f':
		sp.end = pos + 5
	default:
		end := pos + 1
		for end < len(s) && numberByte[s[end]] {
			end++
		}
		sp.end = end
	}
	c.pos = sp.end
	return sp, true
}

// keyString is the unescaped key of a span.
func (sp span) keyString() string {
	if sp.keyEsc {
		k, _ := unescape(sp.key)
		return k
	}
	return sp.key
}

// nodeAt builds the node of the value at sp.
func (d *doc) nodeAt(sp span, depth int) *node {
	s := d.src
	n := d.alloc()
	n.depth = uint16(depth)
	n.raw = s[sp.start:sp.end]
	switch s[sp.start] {
	case '{':
		n.kind, n.flags, n.ord, n.doc = jObject, flagLazy, sp.ord, d
	case '[':
		n.kind, n.flags, n.ord, n.doc = jArray, flagLazy, sp.ord, d
	case '"':
		n.kind = jString
		if sp.esc {
			n.flags = flagEsc
		}
	case 't', 'f':
		n.kind = jBool
	case 'n':
		n.kind = jNull
	default:
		n.kind = jNumber
	}
	return n
}

// valueAt builds the node of the (validated) top-level value at pos.
func (d *doc) valueAt(pos int) *node {
	s := d.src
	sp := span{start: pos}
	switch s[pos] {
	case '{', '[':
		sp.end = int(d.ends[0])
	case '"':
		sp.end, sp.esc = stringEnd(s, pos)
	default:
		sp.end = len(strings.TrimRight(s, " \t\r\n"))
	}
	return d.nodeAt(sp, 0)
}

// stringEnd finds the end of the (validated) string at pos.
func stringEnd(s string, pos int) (end int, esc bool) {
	i := pos + 1
	for {
		for plainByte[s[i]] {
			i++
		}
		if s[i] == '"' {
			return i + 1, esc
		}
		esc = true
		i += 2 // a backslash and the character it escapes
	}
}

// expand builds one level of a lazy container: its keys and its values,
// with nested containers left lazy.
func (d *doc) expand(n *node) {
	n.flags &^= flagLazy
	start := len(d.scratch)
	c := d.cursor(n)
	for {
		sp, ok := c.step()
		if !ok {
			break
		}
		var key string
		if c.obj {
			key = sp.keyString()
		}
		d.scratch = append(d.scratch, member{key, d.nodeAt(sp, int(n.depth)+1)})
	}
	n.kids = d.allocKids(start)
	if n.kind == jObject && n.hasDupKeys() {
		d.dupKeys = true
	}
}

// peekIDs finds the "categoryId" and "id" values of a lazy object without
// building it, for matching array items.
func (d *doc) peekIDs(n *node) (categoryID, id span, found uint8) {
	c := d.cursor(n)
	for {
		sp, ok := c.step()
		if !ok {
			return
		}
		switch sp.keyString() {
		case "categoryId":
			categoryID, found = sp, found|1
		case "id":
			id, found = sp, found|2
		}
	}
}

// unescape decodes the JSON escapes in s (the text between the quotes).
func unescape(s string) (string, bool) {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(s) {
			return "", false
		}
		switch s[i] {
		case '"', '\\', '/':
			b.WriteByte(s[i])
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := hex4(s, i+1)
			if !ok {
				return "", false
			}
			i += 4
			if utf16.IsSurrogate(r) {
				if r2, ok := hex4(s, i+3); ok && s[i+1] == '\\' && s[i+2] == 'u' {
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						r = dec
						i += 6
					} else {
						r = utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
			}
			b.WriteRune(r)
		default:
			return "", false
		}
	}
	return b.String(), true
}

func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	v, err := strconv.ParseUint(s[i:i+4], 16, 32)
	return rune(v), err == nil
}

// ---------------------------------------------------------------------------
// Serializer

// style is the layout of a JSON file, copied from the file we merge into.
type style struct {
	multiline bool   // one member per line
	indent    string // per level
	newline   string // "\n" or "\r\n"
	trailing  bool   // file ends with a newline
	raw       bool   // write strings in their source form when known
	src       *doc   // containers from this document are copied as they are
}

// detectStyle reads the layout of src: the indent of its first indented
// line, its line ending and whether it ends with a newline.
func detectStyle(s string) style {
	st := style{newline: "\n", raw: true}
	body := strings.TrimRight(s, " \t\r\n")
	st.trailing = strings.HasSuffix(s, "\n")
	nl := strings.IndexByte(body, '\n')
	if nl < 0 {
		return st // single line: compact
	}
	st.multiline = true
	if nl > 0 && body[nl-1] == '\r' {
		st.newline = "\r\n"
	}
	for rest := body[nl+1:]; rest != ""; {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		ws := len(line) - len(strings.TrimLeft(line, " \t"))
		if ws > 0 && ws < len(strings.TrimRight(line, "\r")) {
			st.indent = line[:ws]
			break
		}
	}
	return st
}

// encode serialises n in style st.
func (st style) encode(n *node, sizeHint int) []byte {
	buf := make([]byte, 0, sizeHint+sizeHint/8+64)
	buf = st.write(buf, n, 0)
	if st.trailing {
		buf = append(buf, st.newline...)
	}
	return buf
}

func (st style) write(buf []byte, n *node, depth int) []byte {
	switch n.kind {
	case jString:
		if st.raw && n.raw != "" {
			return append(buf, n.raw...)
		}
		return appendQuoted(buf, n.str())
	case jObject, jArray:
		if n.doc != nil && n.doc == st.src && (!st.multiline || int(n.depth) == depth) {
			// Unchanged text of the file whose layout we follow, at the
			// same depth: copy it, keeping its formatting exactly.
			return append(buf, n.raw...)
		}
		open, close := byte('{'), byte('}')
		if n.kind == jArray {
			open, close = '[', ']'
		}
		kids := n.members()
		buf = append(buf, open)
		if len(kids) == 0 {
			return append(buf, close)
		}
		for i, kv := range kids {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = st.lineBreak(buf, depth+1)
			if n.kind == jObject {
				buf = appendQuoted(buf, kv.key)
				buf = append(buf, ':')
				if st.multiline {
					buf = append(buf, ' ')
				}
			}
			buf = st.write(buf, kv.val, depth+1)
		}
		buf = st.lineBreak(buf, depth)
		return append(buf, close)
	default:
		return append(buf, n.raw...)
	}
}

func (st style) lineBreak(buf []byte, depth int) []byte {
	if !st.multiline {
		return buf
	}
	buf = append(buf, st.newline...)
	for range depth {
		buf = append(buf, st.indent...)
	}
	return buf
}

// compactStyle is json.Marshal's layout (without HTML escaping).
var compactStyle = style{newline: "\n"}

// compact renders n as compact JSON for display in a conflict or change.
func compact(n *node) *string {
	if n == nil {
		return nil
	}
	s := string(compactStyle.write(nil, n, 0))
	return &s
}

// appendQuoted writes s as a JSON string, escaping only what JSON requires.
func appendQuoted(buf []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		buf = append(buf, s[start:i]...)
		switch c {
		case '"', '\\':
			buf = append(buf, '\\', c)
		case '\n':
			buf = append(buf, '\\', 'n')
		case '\r':
			buf = append(buf, '\\', 'r')
		case '\t':
			buf = append(buf, '\\', 't')
		case '\b':
			buf = append(buf, '\\', 'b')
		case '\f':
			buf = append(buf, '\\', 'f')
		default:
			buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// canonical renders n compactly with object keys sorted, so equal values
// give equal text whatever their key order or escaping.
func canonical(buf []byte, n *node) []byte {
	switch n.kind {
	case jString:
		return appendQuoted(buf, n.str())
	case jArray:
		buf = append(buf, '[')
		for i, kv := range n.members() {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = canonical(buf, kv.val)
		}
		return append(buf, ']')
	case jObject:
		kids := slices.Clone(n.members())
		slices.SortFunc(kids, func(a, b member) int { return strings.Compare(a.key, b.key) })
		buf = append(buf, '{')
		for i, kv := range kids {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendQuoted(buf, kv.key)
			buf = append(buf, ':')
			buf = canonical(buf, kv.val)
		}
		return append(buf, '}')
	default:
		return append(buf, n.raw...)
	}
}
