package merge

import (
	"errors"
	"strconv"
	"strings"
	"unsafe"
)

// One value of a JSON file by its JSON pointer (RFC 6901), for the history of a value
// (internal/valuehistory): read it, find the same value in an older version of the file, list
// every value of a file, and write one value back leaving the rest of the file as it was.
//
// Rules:
//   - "The same value" in an older version follows the merge's matching: object members by key,
//     array items by identity (categoryId, else id, else the whole content, repeats numbered), so
//     a field of an array item that moved is followed to the item's old index.
//   - Values are compared as the merge compares them (equal): key order, escapes and number
//     spelling of unchanged source text do not count as a change.
//   - SetValue changes one value and keeps every other byte of the file when the value is there
//     (its text is replaced in place); a value added or removed rewrites the objects and
//     arrays on the way to it in the file's own style (as a merged file is), other values
//     keeping their source text.

// Doc is a parsed JSON document read by pointer. Not safe for concurrent use.
type Doc struct {
	d    *doc
	ids  map[*node]*items // array identities, built once per array
	memo map[string]*node // values found by pointer
}

// ParseDoc parses src; src must not change while the Doc is used.
func ParseDoc(src []byte) (*Doc, error) {
	d, err := parse(src)
	if err != nil {
		return nil, err
	}
	return &Doc{d: d}, nil
}

// ErrBadPointer is a pointer that is not an RFC 6901 JSON pointer.
var ErrBadPointer = errors.New("not a JSON pointer: it is empty (the whole file) or starts with '/'")

// SplitPointer splits a JSON pointer into its unescaped reference tokens ("" is the root).
func SplitPointer(ptr string) ([]string, error) {
	if ptr == "" {
		return nil, nil
	}
	if ptr[0] != '/' {
		return nil, ErrBadPointer
	}
	segs := strings.Split(ptr[1:], "/")
	for i, s := range segs {
		if strings.Contains(s, "~") {
			for j := 0; j < len(s); j++ {
				if s[j] == '~' && (j+1 == len(s) || (s[j+1] != '0' && s[j+1] != '1')) {
					return nil, ErrBadPointer
				}
			}
			segs[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
		}
	}
	return segs, nil
}

// JoinPointer builds a JSON pointer from reference tokens.
func JoinPointer(segs []string) string {
	var b strings.Builder
	for _, s := range segs {
		b.WriteByte('/')
		b.WriteString(escapePointer(s))
	}
	return b.String()
}

// at finds the value at segs (nil: absent).
func (x *Doc) at(segs []string) *node {
	n := x.d.root
	for _, s := range segs {
		n = child(n, s)
		if n == nil {
			return nil
		}
	}
	return n
}

// lookup is at for a pointer, remembered: a history asks each version for the same few.
func (x *Doc) lookup(ptr string) (*node, error) {
	if n, ok := x.memo[ptr]; ok {
		return n, nil
	}
	segs, err := SplitPointer(ptr)
	if err != nil {
		return nil, err
	}
	n := x.at(segs)
	if x.memo == nil {
		x.memo = map[string]*node{}
	}
	x.memo[ptr] = n
	return n, nil
}

// child is the member s of an object or the item s of an array (nil: none). A container not
// built yet is searched in its text, building only the value found: one value of a large
// file costs a scan, not a tree.
func child(n *node, s string) *node {
	if n.flags&flagLazy != 0 && n.isContainer() {
		c := n.doc.cursor(n)
		want := -1
		if n.kind == jArray {
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || strconv.Itoa(i) != s {
				return nil
			}
			want = i
		}
		for i := 0; ; i++ {
			sp, ok := c.step()
			if !ok {
				return nil
			}
			if (want < 0 && sp.keyString() == s) || i == want {
				return n.doc.nodeAt(sp, int(n.depth)+1)
			}
		}
	}
	switch n.kind {
	case jObject:
		v, _ := n.get(s, -1)
		return v
	case jArray:
		i, ok := index(s, len(n.members()))
		if !ok {
			return nil
		}
		return n.members()[i].val
	}
	return nil
}

// index reads an array index token ("0", "12"; no sign, no leading zero) below n.
func index(s string, n int) (int, bool) {
	if s == "" || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	i, err := strconv.Atoi(s)
	if err != nil || i < 0 || i >= n || s[0] == '+' {
		return 0, false
	}
	return i, true
}

// Has reports whether the document has a value at ptr.
func (x *Doc) Has(ptr string) bool {
	n, err := x.lookup(ptr)
	return err == nil && n != nil
}

// Value is the value at ptr as compact JSON; nil when there is none.
func (x *Doc) Value(ptr string) *string {
	n, err := x.lookup(ptr)
	if err != nil {
		return nil
	}
	return compact(n)
}

// Same reports whether the value at aPtr in a equals the value at bPtr in b (both absent
// counts as the same).
func Same(a *Doc, aPtr string, b *Doc, bPtr string) bool {
	an, errA := a.lookup(aPtr)
	bn, errB := b.lookup(bPtr)
	if errA != nil || errB != nil {
		return false
	}
	if an == nil || bn == nil {
		return an == nil && bn == nil
	}
	return equal(an, bn)
}

// identities are the identities of the items of arr, built once per array.
func (x *Doc) identities(arr *node) *items {
	if x.ids == nil {
		x.ids = map[*node]*items{}
	}
	it := x.ids[arr]
	if it == nil {
		it = identify(arr)
		x.ids[arr] = it
	}
	return it
}

// Follow finds in older the value that is at ptr in newer and returns its pointer there: the
// same keys, and for array items the index of the item of the same identity. ok is false
// when older has no such value (a key or an item it lacks, or a value of another type on
// the way).
func Follow(newer, older *Doc, ptr string) (string, bool) {
	segs, err := SplitPointer(ptr)
	if err != nil {
		return "", false
	}
	out := make([]string, 0, len(segs))
	n, o := newer.d.root, older.d.root
	for _, s := range segs {
		if n.kind != o.kind {
			return "", false
		}
		switch n.kind {
		case jObject:
			n, o = child(n, s), child(o, s)
			out = append(out, s)
		case jArray:
			i, ok := index(s, len(n.members()))
			if !ok {
				return "", false
			}
			ni := newer.identities(n)
			j := older.identities(o).find(ni.ids[i], ni.hashes[i])
			if j < 0 {
				return "", false
			}
			n, o = n.members()[i].val, o.members()[j].val
			out = append(out, strconv.Itoa(j))
		default:
			return "", false
		}
		if n == nil || o == nil {
			return "", false
		}
	}
	return JoinPointer(out), true
}

// Leaf is one value of a document that holds no other: a scalar or an empty object or array.
type Leaf struct {
	Pointer string `json:"pointer"`
	// Path names it for people: a translation key's dotted path ("nav.home"), else the
	// merge's labels ("menu › Lunch › title").
	Path string `json:"path"`
}

// Leaves lists every leaf of the document in document order (translation: paths are keys).
func (x *Doc) Leaves(translation bool) []Leaf {
	var out []Leaf
	var walk func(n *node, l loc)
	walk = func(n *node, l loc) {
		if !n.isContainer() || len(n.members()) == 0 {
			out = append(out, Leaf{Pointer: l.ptr, Path: l.label()})
			return
		}
		for i, kv := range n.members() {
			if n.kind == jObject {
				walk(kv.val, l.key(kv.key, translation))
			} else {
				walk(kv.val, l.item(i, kv.val, translation))
			}
		}
	}
	walk(x.d.root, loc{})
	return out
}

// SetValue returns src with the value at ptr replaced by value (JSON text; nil removes the
// member or item). A member the object lacks is added at its end; an item index equal to
// the array's length appends. Every other value keeps its source text; the containers on the
// way are written in src's layout.
func SetValue(src []byte, ptr string, value *string) ([]byte, error) {
	segs, err := SplitPointer(ptr)
	if err != nil {
		return nil, err
	}
	d, err := parse(src)
	if err != nil {
		return nil, err
	}
	var val *node
	if value != nil {
		if val, err = parseValue(*value); err != nil {
			return nil, err
		}
	}
	if len(segs) == 0 {
		if val == nil {
			return nil, errors.New("the whole file cannot be removed this way")
		}
		st := d.style
		return st.encode(val, len(*value)), nil
	}
	// A value that is there is replaced in place: every other byte of the file stays.
	if val != nil {
		if cur := (&Doc{d: d}).at(segs); cur != nil && cur.raw != "" {
			if out, ok := splice(d, cur, val); ok {
				return out, nil
			}
		}
	}
	root, err := setIn(d.root, segs, val)
	if err != nil {
		return nil, err
	}
	if d.dupKeys {
		return nil, errors.New("an object on the way repeats a key")
	}
	st := d.style
	st.src = d
	return st.encode(root, len(src)), nil
}

// setIn is n with the value at segs set to val (nil: removed), as a new container.
func setIn(n *node, segs []string, val *node) (*node, error) {
	s := segs[0]
	kids := n.members()
	switch n.kind {
	case jObject:
		i := -1
		for k := range kids {
			if kids[k].key == s {
				i = k
				break
			}
		}
		out := make([]member, 0, len(kids)+1)
		out = append(out, kids...)
		switch {
		case len(segs) > 1:
			if i < 0 {
				return nil, errors.New("no member '" + s + "' to go into")
			}
			v, err := setIn(kids[i].val, segs[1:], val)
			if err != nil {
				return nil, err
			}
			out[i].val = v
		case i < 0 && val == nil:
			return n, nil // absent already
		case i < 0:
			out = append(out, member{key: s, val: val})
		case val == nil:
			out = append(out[:i], out[i+1:]...)
		default:
			out[i].val = val
		}
		return newContainer(jObject, out), nil
	case jArray:
		i, ok := index(s, len(kids))
		appendItem := !ok && s == strconv.Itoa(len(kids)) && len(segs) == 1 && val != nil
		if !ok && !appendItem {
			return nil, errors.New("no item " + s + " in the array")
		}
		out := make([]member, 0, len(kids)+1)
		out = append(out, kids...)
		switch {
		case appendItem:
			out = append(out, member{val: val})
		case len(segs) > 1:
			v, err := setIn(kids[i].val, segs[1:], val)
			if err != nil {
				return nil, err
			}
			out[i].val = v
		case val == nil:
			out = append(out[:i], out[i+1:]...)
		default:
			out[i].val = val
		}
		return newContainer(jArray, out), nil
	}
	return nil, errors.New("'" + s + "' is below a value that is neither an object nor an array")
}

// Changes is Compare's field list for two parsed documents (translation: paths read as
// keys), so that a walk over many versions parses each version once. ok is false when the
// documents cannot be compared key by key (an object repeats a key) or the changes were too
// many to list (Compare's limit).
func Changes(older, newer *Doc, translation bool) (fields []FieldChange, ok bool) {
	d := &Diff{Fields: []FieldChange{}}
	jd := &jsonDiffer{d: d, translation: translation}
	jd.value(older.d.root, newer.d.root, loc{}, loc{})
	if older.d.dupKeys || newer.d.dupKeys || d.Truncated {
		return nil, false
	}
	return d.Fields, true
}

// splice writes val over the source text of n, a value of d: a scalar as compact JSON, an
// object or array in the file's layout at n's depth. ok is false when n's text is not a
// part of d's source.
func splice(d *doc, n, val *node) ([]byte, bool) {
	start := int(uintptr(unsafe.Pointer(unsafe.StringData(n.raw))) - uintptr(unsafe.Pointer(unsafe.StringData(d.src))))
	if start < 0 || start+len(n.raw) > len(d.src) || d.src[start:start+len(n.raw)] != n.raw {
		return nil, false
	}
	st := d.style
	text := st.write(nil, val, int(n.depth))
	out := make([]byte, 0, len(d.src)-len(n.raw)+len(text))
	out = append(out, d.src[:start]...)
	out = append(out, text...)
	out = append(out, d.src[start+len(n.raw):]...)
	return out, true
}
