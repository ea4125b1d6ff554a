package merge

import (
	"fmt"
	"hash/maphash"
	"slices"
	"strconv"
	"strings"
)

// loc is where a value sits: its JSON pointer (the conflict ID) and its
// human-readable path.
type loc struct {
	ptr  string
	path string
}

// key is the location of an object member.
func (l loc) key(k string, translation bool) loc {
	return loc{ptr: l.ptr + "/" + escapePointer(k), path: joinPath(l.path, k, translation)}
}

// item is the location of the array item n at index i.
func (l loc) item(i int, n *node, translation bool) loc {
	return loc{ptr: l.ptr + "/" + strconv.Itoa(i), path: joinPath(l.path, itemLabel(i, n), translation)}
}

// label is the path shown to people; the root has no segments.
func (l loc) label() string {
	if l.path == "" {
		return "(root)"
	}
	return l.path
}

func joinPath(parent, seg string, translation bool) string {
	switch {
	case parent == "":
		return seg
	case translation:
		return parent + "." + seg
	default:
		return parent + " › " + seg
	}
}

// escapePointer escapes a key as an RFC 6901 reference token.
func escapePointer(k string) string {
	if !strings.ContainsAny(k, "~/") {
		return k
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
}

// itemLabel names an array item for people: by its id, categoryId, title,
// name or first string property, else by its 1-based position.
func itemLabel(i int, n *node) string {
	if n != nil && n.kind == jObject {
		for _, k := range [...]string{"id", "categoryId", "title", "name"} {
			if v := n.find(k); v != nil && v.kind == jString && v.str() != "" {
				return v.str()
			} else if v != nil && v.kind == jNumber {
				return v.raw
			}
		}
		for _, kv := range n.members() {
			if kv.val.kind == jString && kv.val.str() != "" {
				return kv.val.str()
			}
		}
	}
	return "#" + strconv.Itoa(i+1)
}

// find looks a key up by scanning, without building an index.
func (n *node) find(key string) *node {
	for _, kv := range n.members() {
		if kv.key == key {
			return kv.val
		}
	}
	return nil
}

// ident is the identity of an array item: its categoryId or id when it is an
// object that has one, else its canonical content. occ numbers repeats.
type ident struct {
	text string
	tag  byte
	occ  int32
}

func identOf(n *node) ident {
	if n.kind == jObject {
		if n.flags&flagLazy != 0 {
			if id, ok := n.doc.peekIdent(n); ok {
				return id
			}
		} else {
			for _, k := range [...]string{"categoryId", "id"} {
				if id, ok := keyIdent(k, n.find(k)); ok {
					return id
				}
			}
		}
	}
	switch n.kind {
	case jString:
		return ident{tag: 's', text: n.str()}
	case jNumber, jBool, jNull:
		return ident{tag: 'n', text: n.raw}
	}
	return ident{tag: 'v', text: string(canonical(nil, n))}
}

// keyIdent is the identity given by the value v of key k ("categoryId" or
// "id") when it is a string or a number. Tags keep "1" (string) and 1
// (number), and id and categoryId, apart.
func keyIdent(k string, v *node) (ident, bool) {
	switch {
	case v == nil:
	case v.kind == jString:
		return ident{tag: k[0] - 32, text: v.str()}, true
	case v.kind == jNumber:
		return ident{tag: k[0], text: v.raw}, true
	}
	return ident{}, false
}

// peekIdent is identOf for a lazy object: it reads the ids from the text
// so that items are matched without being built.
func (d *doc) peekIdent(n *node) (ident, bool) {
	cat, id, found := d.peekIDs(n)
	for i, sp := range [...]span{cat, id} {
		if found&(1<<i) == 0 {
			continue
		}
		tag := [...]byte{'c', 'i'}[i]
		switch d.src[sp.start] {
		case '"':
			text := d.src[sp.start+1 : sp.end-1]
			if sp.esc {
				text, _ = unescape(text)
			}
			return ident{tag: tag - 32, text: text}, true
		case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			return ident{tag: tag, text: d.src[sp.start:sp.end]}, true
		}
	}
	return ident{}, false
}

// items indexes the identities of an array's items. Identities are found
// by a 64-bit hash (cheaper than hashing the struct in a map), with
// collisions chained and checked.
type items struct {
	ids    []ident
	hashes []uint64
	first  map[uint64]int32 // first item with a hash
	next   []int32          // next item with the same hash, -1 at the end
}

func identHash(id ident) uint64 {
	return maphash.String(hashSeed, id.text) ^ uint64(id.tag)<<56 ^ uint64(id.occ)*0x9e3779b97f4a7c15
}

var hashSeed = maphash.MakeSeed()

// identify indexes the items of arr (nil: no items).
func identify(arr *node) *items {
	x := &items{}
	if arr == nil {
		return x
	}
	n := len(arr.members())
	x.ids, x.hashes, x.next = make([]ident, n), make([]uint64, n), make([]int32, n)
	x.first = make(map[uint64]int32, n)
	var seen map[ident]int32 // occurrences of repeated identities
	for i, kv := range arr.members() {
		id := identOf(kv.val)
		h := identHash(id)
		if x.find(id, h) >= 0 {
			if seen == nil {
				seen = map[ident]int32{}
			}
			seen[id]++
			id.occ = seen[id] + 1 // the second one is "#2"
			h = identHash(id)
		}
		x.ids[i], x.hashes[i] = id, h
		x.next[i] = -1
		if j, ok := x.first[h]; ok {
			for x.next[j] >= 0 {
				j = x.next[j]
			}
			x.next[j] = int32(i)
		} else {
			x.first[h] = int32(i)
		}
	}
	return x
}

// find returns the index of the item with identity id (hash h), or -1.
func (x *items) find(id ident, h uint64) int {
	j, ok := x.first[h]
	if !ok {
		return -1
	}
	for ; j >= 0; j = x.next[j] {
		if x.ids[j] == id {
			return int(j)
		}
	}
	return -1
}

// lookup maps each item of a to its index in b, or -1.
func lookup(a, b *items) []int {
	out := make([]int, len(a.ids))
	for i, id := range a.ids {
		out[i] = b.find(id, a.hashes[i])
	}
	return out
}

// jsonMerger holds the state of one structured merge.
type jsonMerger struct {
	translation bool
	choices     map[string]Choice
	conflicts   []Conflict
	unresolved  int
	ids         map[string]int // conflict IDs handed out, to keep them unique
	err         error          // first invalid choice
}

// record adds a conflict and returns its ID and the author's choice for
// it, if any.
func (jm *jsonMerger) record(l loc, b, m, t *node, reason string) (string, Choice, bool) {
	id := l.ptr
	if n := jm.ids[id]; n > 0 {
		// An item only mine has is pointed to by its index in mine, which
		// another item may have in theirs: number the second one.
		id = fmt.Sprintf("%s#%d", id, n+1)
	}
	jm.ids[l.ptr]++
	jm.conflicts = append(jm.conflicts, Conflict{
		ID: id, Path: strings.Clone(l.label()), Base: compact(b), Mine: compact(m), Theirs: compact(t), Reason: reason,
	})
	ch, ok := jm.choices[id]
	if !ok {
		jm.unresolved++
	}
	return id, ch, ok
}

// conflict records a value conflict and applies its choice. It returns the
// value to use and whether the key/item stays; unresolved conflicts keep
// theirs (or mine) as a placeholder, the result is discarded anyway.
func (jm *jsonMerger) conflict(l loc, b, m, t *node, reason string) (*node, bool) {
	id, ch, ok := jm.record(l, b, m, t, reason)
	if !ok {
		if t != nil {
			return t, true
		}
		return m, m != nil
	}
	v := jm.choose(id, ch, b, m, t)
	return v, v != nil
}

// choose returns the value a choice picks; nil means absent.
func (jm *jsonMerger) choose(id string, ch Choice, b, m, t *node) *node {
	switch ch.Take {
	case "mine":
		return m
	case "theirs":
		return t
	case "base":
		return b
	case "value":
		if ch.Value == nil {
			return nil
		}
		v, err := parseValue(*ch.Value)
		if err != nil {
			jm.fail(fmt.Errorf("%w: value for %q is not valid JSON: %v", ErrInvalidChoice, id, err))
		}
		return v
	}
	jm.fail(fmt.Errorf("%w: unknown take %q for %q", ErrInvalidChoice, ch.Take, id))
	return t
}

func (jm *jsonMerger) fail(err error) {
	if jm.err == nil {
		jm.err = err
	}
}

// trivial settles a value that at most one side changed, or that both
// changed the same way.
func trivial(b, m, t *node) (*node, bool) {
	if equal(m, t) {
		return t, true
	}
	if b != nil {
		if equal(b, m) {
			return t, true
		}
		if equal(b, t) {
			return m, true
		}
	}
	return nil, false
}

// mergeNodes merges a value both sides changed differently (b nil: both
// added it). Objects and arrays recurse; anything else is a conflict.
func (jm *jsonMerger) mergeNodes(b, m, t *node, l loc) (*node, bool) {
	if m.kind == t.kind && m.isContainer() {
		if b != nil && b.kind != m.kind {
			b = nil // the type changed on both sides: treat members as added
		}
		if m.kind == jObject {
			return jm.mergeObject(b, m, t, l), true
		}
		return jm.mergeArray(b, m, t, l)
	}
	reason := "changed on both sides"
	if b == nil {
		reason = "both added"
	}
	return jm.conflict(l, b, m, t, reason)
}

// mergeObject merges key by key. The result follows theirs' key order;
// keys only mine has go right after the key that precedes them in mine.
func (jm *jsonMerger) mergeObject(b, m, t *node, l loc) *node {
	kids := make([]member, 0, len(t.members())+1)
	kidMine := make([]int, 0, len(t.members())+1) // mine index of each kept key, -1 if none
	inResult := make([]bool, len(m.members()))    // by mine index
	for ti, kv := range t.members() {
		tv := kv.val
		mv, mi := m.get(kv.key, ti)
		var bv *node
		if b != nil {
			bv, _ = b.get(kv.key, ti)
		}
		var out *node
		keep := true
		switch {
		case mv != nil:
			var ok bool
			if out, ok = trivial(bv, mv, tv); !ok {
				out, keep = jm.mergeNodes(bv, mv, tv, l.key(kv.key, jm.translation))
			}
		case bv == nil: // added in theirs
			out = tv
		case equal(bv, tv): // deleted in mine
			keep = false
		default:
			out, keep = jm.conflict(l.key(kv.key, jm.translation), bv, nil, tv, "deleted in mine, changed in theirs")
		}
		if keep {
			kids = append(kids, member{kv.key, out})
			kidMine = append(kidMine, mi)
			if mi >= 0 {
				inResult[mi] = true
			}
		}
	}

	// Keys theirs does not have: added in mine, or deleted in theirs.
	var after map[int][]member // by the mine index of the key to insert after
	anchor := -1
	for mi, kv := range m.members() {
		if inResult[mi] {
			anchor = mi
			continue
		}
		if tv, _ := t.get(kv.key, mi); tv != nil {
			continue // theirs has it and it was dropped
		}
		var bv *node
		if b != nil {
			bv, _ = b.get(kv.key, mi)
		}
		out, keep := kv.val, true
		switch {
		case bv == nil: // added in mine
		case equal(bv, kv.val): // deleted in theirs
			keep = false
		default:
			out, keep = jm.conflict(l.key(kv.key, jm.translation), bv, kv.val, nil, "deleted in theirs, changed in mine")
		}
		if keep {
			if after == nil {
				after = map[int][]member{}
			}
			after[anchor] = append(after[anchor], member{kv.key, out})
		}
	}
	if after == nil {
		return newContainer(jObject, kids)
	}
	res := make([]member, 0, len(kids)+len(after))
	res = append(res, after[-1]...)
	for i, kv := range kids {
		res = append(res, kv)
		if mi := kidMine[i]; mi >= 0 {
			res = append(res, after[mi]...)
		}
	}
	return newContainer(jObject, res)
}

// slot is an entry of the linked list an array result is built in.
type slot struct {
	val        *node
	next       int
	theirsOnly bool // added on theirs' side only; mine's additions go after these
}

type slotList struct {
	slots []slot
	head  int
}

func (sl *slotList) next(p int) int {
	if p < 0 {
		return sl.head
	}
	return sl.slots[p].next
}

// insertAfter links a new slot after p (p < 0: at the start).
func (sl *slotList) insertAfter(p int, val *node, theirsOnly bool) int {
	s := len(sl.slots)
	sl.slots = append(sl.slots, slot{val: val, next: sl.next(p), theirsOnly: theirsOnly})
	if p < 0 {
		sl.head = s
	} else {
		sl.slots[p].next = s
	}
	return s
}

// mergeArray merges items matched by identity; see the package comment for
// the ordering rules.
func (jm *jsonMerger) mergeArray(b, m, t *node, l loc) (*node, bool) {
	bItems, mItems, tItems := identify(b), identify(m), identify(t)
	tInM, tInB := lookup(tItems, mItems), lookup(tItems, bItems)
	mInT, mInB := lookup(mItems, tItems), lookup(mItems, bItems)
	bInT, bInM := lookup(bItems, tItems), lookup(bItems, mItems)

	// Relative order of the items all three share, as base indexes.
	var baseSeq, mineSeq, theirsSeq []int
	for bi := range bInT {
		if bInT[bi] >= 0 && bInM[bi] >= 0 {
			baseSeq = append(baseSeq, bi)
		}
	}
	for mi, bi := range mInB {
		if bi >= 0 && mInT[mi] >= 0 {
			mineSeq = append(mineSeq, bi)
		}
	}
	for ti, bi := range tInB {
		if bi >= 0 && tInM[ti] >= 0 {
			theirsSeq = append(theirsSeq, bi)
		}
	}
	order := theirsSeq
	mineMoved, theirsMoved := !slices.Equal(baseSeq, mineSeq), !slices.Equal(baseSeq, theirsSeq)
	switch {
	case mineMoved && !theirsMoved:
		order = mineSeq
	case mineMoved && theirsMoved && !slices.Equal(mineSeq, theirsSeq):
		// A choice here picks whose order to use; items still merge.
		if id, ch, ok := jm.record(l, b, m, t, "reordered on both sides"); ok {
			switch ch.Take {
			case "mine":
				order = mineSeq
			case "base":
				order = baseSeq
			case "theirs":
			default:
				v := jm.choose(id, ch, b, m, t)
				return v, v != nil
			}
		}
	}

	// Merge the items, theirs' first, so conflicts come in document order.
	tOut := make([]*node, len(t.members()))
	for ti, kv := range t.members() {
		tv := kv.val
		mi, bi := tInM[ti], tInB[ti]
		var bv *node
		if bi >= 0 {
			bv = b.members()[bi].val
		}
		switch {
		case mi >= 0:
			mv := m.members()[mi].val
			if v, ok := trivial(bv, mv, tv); ok {
				tOut[ti] = v
			} else if v, keep := jm.mergeNodes(bv, mv, tv, l.item(ti, tv, jm.translation)); keep {
				tOut[ti] = v
			}
		case bv == nil: // added in theirs
			tOut[ti] = tv
		case equal(bv, tv): // deleted in mine
		default:
			if v, keep := jm.conflict(l.item(ti, tv, jm.translation), bv, nil, tv, "deleted in mine, changed in theirs"); keep {
				tOut[ti] = v
			}
		}
	}
	mOut := make([]*node, len(m.members()))
	for mi, kv := range m.members() {
		if mInT[mi] >= 0 {
			continue
		}
		mv := kv.val
		switch bi := mInB[mi]; {
		case bi < 0: // added in mine
			mOut[mi] = mv
		case equal(b.members()[bi].val, mv): // deleted in theirs
		default:
			if v, keep := jm.conflict(l.item(mi, mv, jm.translation), b.members()[bi].val, mv, nil, "deleted in theirs, changed in mine"); keep {
				mOut[mi] = v
			}
		}
	}

	// Lay out: the shared items in the chosen order, then theirs' other
	// items after their predecessor in theirs, then mine's after theirs'.
	sl := &slotList{slots: make([]slot, 0, len(t.members())+len(m.members())), head: -1}
	tSlot, mSlot := filled(len(t.members())), filled(len(m.members()))
	tail := -1
	for _, bi := range order {
		ti := bInT[bi]
		if tOut[ti] == nil {
			continue
		}
		tail = sl.insertAfter(tail, tOut[ti], false)
		tSlot[ti], mSlot[tInM[ti]] = tail, tail
	}
	prev := -1
	for ti := range t.members() {
		if tSlot[ti] >= 0 {
			prev = tSlot[ti]
			continue
		}
		if tOut[ti] == nil || (tInM[ti] >= 0 && tInB[ti] >= 0) {
			continue
		}
		prev = sl.insertAfter(prev, tOut[ti], tInM[ti] < 0)
		tSlot[ti] = prev
		if mi := tInM[ti]; mi >= 0 {
			mSlot[mi] = prev
		}
	}
	prev = -1
	for mi := range m.members() {
		if mSlot[mi] >= 0 {
			prev = mSlot[mi]
			continue
		}
		if mOut[mi] == nil {
			continue
		}
		p := prev
		for n := sl.next(p); n >= 0 && sl.slots[n].theirsOnly; n = sl.next(p) {
			p = n
		}
		prev = sl.insertAfter(p, mOut[mi], false)
		mSlot[mi] = prev
	}
	kids := make([]member, 0, len(sl.slots))
	for s := sl.head; s >= 0; s = sl.slots[s].next {
		kids = append(kids, member{val: sl.slots[s].val})
	}
	return newContainer(jArray, kids), true
}

func filled(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = -1
	}
	return s
}

// mergeRoot merges whole documents. The result is absent when a choice
// deleted the root.
func (jm *jsonMerger) mergeRoot(b, m, t *node) (*node, bool) {
	if v, ok := trivial(b, m, t); ok {
		return v, true
	}
	return jm.mergeNodes(b, m, t, loc{})
}
