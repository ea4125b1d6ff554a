package merge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

const propertyCases = 600

// obj is a JSON object with ordered keys, for generating test files.
type obj struct {
	keys []string
	vals map[string]any
}

func newObj() *obj { return &obj{vals: map[string]any{}} }

func (o *obj) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *obj) del(k string) {
	delete(o.vals, k)
	o.keys = slices.DeleteFunc(o.keys, func(s string) bool { return s == k })
}

func (o *obj) clone() *obj {
	c := newObj()
	for _, k := range o.keys {
		c.set(k, o.vals[k])
	}
	return c
}

type gen struct {
	r   *rand.Rand
	seq int
}

func newGen(seed uint64) *gen { return &gen{r: rand.New(rand.NewPCG(seed, 42))} }

var (
	genStrings = []string{"", "a", "Hello", "ümlaut", "<b>bold</b> & co", `quote " and \ backslash`, "line\nbreak", "tab\there", "€ 1,50", "a/b~c"}
	genNumbers = []string{"0", "1", "-3", "1.50", "2.0", "1e5", "-0.25E-3", "12345678901234567890"}
	genKeys    = []string{"title", "name", "a/b", "~tilde", "price", "x", "y", "z", "nested", "list", "flag", "Ünï"}
)

// unique returns a string no generated file contains yet.
func (g *gen) unique(prefix string) string {
	g.seq++
	return fmt.Sprintf("%s-%d-%d", prefix, g.seq, g.r.IntN(1000))
}

func (g *gen) scalar() any {
	switch g.r.IntN(5) {
	case 0:
		return genStrings[g.r.IntN(len(genStrings))]
	case 1:
		return json.Number(genNumbers[g.r.IntN(len(genNumbers))])
	case 2:
		return g.r.IntN(2) == 0
	case 3:
		return nil
	}
	return g.unique("s")
}

func (g *gen) value(depth int) any {
	k := g.r.IntN(10)
	switch {
	case depth >= 3 || k < 5:
		return g.scalar()
	case k < 8:
		o := newObj()
		for range g.r.IntN(5) {
			o.set(genKeys[g.r.IntN(len(genKeys))], g.value(depth+1))
		}
		return o
	default:
		var arr []any
		for i := range g.r.IntN(5) {
			if g.r.IntN(2) == 0 {
				it := newObj()
				it.set("id", fmt.Sprintf("item%d", i))
				it.set("v", g.value(depth+1))
				arr = append(arr, it)
			} else {
				arr = append(arr, g.scalar())
			}
		}
		return arr
	}
}

// object generates a top-level object with n distinct keys.
func (g *gen) object(n int) *obj {
	o := newObj()
	for i := range n {
		o.set(fmt.Sprintf("k%02d", i), g.value(1))
	}
	return o
}

// encode writes v as JSON; indent "" is compact.
func encode(v any, indent string) []byte {
	var b bytes.Buffer
	encodeTo(&b, v, indent, 0)
	if indent != "" {
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func encodeTo(b *bytes.Buffer, v any, indent string, depth int) {
	nl := func(d int) {
		if indent != "" {
			b.WriteByte('\n')
			b.WriteString(strings.Repeat(indent, d))
		}
	}
	switch v := v.(type) {
	case *obj:
		if len(v.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			nl(depth + 1)
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteString(": ")
			encodeTo(b, v.vals[k], indent, depth+1)
		}
		nl(depth)
		b.WriteByte('}')
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, it := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			nl(depth + 1)
			encodeTo(b, it, indent, depth+1)
		}
		nl(depth)
		b.WriteByte(']')
	default:
		out, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		b.Write(out)
	}
}

// plain converts generated values to what encoding/json decodes, for comparison.
func plain(v any) any {
	switch v := v.(type) {
	case *obj:
		m := map[string]any{}
		for _, k := range v.keys {
			m[k] = plain(v.vals[k])
		}
		return m
	case []any:
		out := []any{}
		for _, it := range v {
			out = append(out, plain(it))
		}
		return out
	}
	return v
}

func decode(t *testing.T, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("result does not parse: %v\n%s", err, b)
	}
	if m, ok := v.([]any); ok && len(m) == 0 {
		return []any{}
	}
	return v
}

func normalise(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = normalise(x)
		}
		return v
	case []any:
		out := []any{}
		for _, x := range v {
			out = append(out, normalise(x))
		}
		return out
	}
	return v
}

var indents = []string{"", "  ", "    ", "\t"}

func TestPropertyIdentities(t *testing.T) {
	g := newGen(1)
	for i := range propertyCases {
		base := g.object(1 + g.r.IntN(8))
		x := g.object(1 + g.r.IntN(8))
		in := indents[i%len(indents)]
		bb, xb := encode(base, in), encode(x, in)
		for _, tc := range []struct {
			name               string
			base, mine, theirs []byte
		}{
			{"x,x", bb, xb, xb},
			{"base,x", bb, bb, xb},
			{"x,base", bb, xb, bb},
			// Same trees, other layouts: no fast path, same answer.
			{"base reformatted,x", bb, encode(base, indents[(i+1)%len(indents)]), xb},
			{"x,base reformatted", bb, xb, encode(base, indents[(i+1)%len(indents)])},
		} {
			r, err := Merge("p.json", tc.base, tc.mine, tc.theirs, Options{})
			if err != nil || r.Unresolved != 0 || !bytes.Equal(r.Merged, xb) {
				t.Fatalf("case %d %s: err=%v unresolved=%d\nbase %s\nmine %s\ntheirs %s\ngot %s", i, tc.name, err, r.Unresolved, tc.base, tc.mine, tc.theirs, r.Merged)
			}
		}
		// Compare of equal content reports nothing, whatever the layout.
		if d := Compare("p.json", bb, bb); len(d.Fields)+len(d.Hunks) != 0 {
			t.Fatalf("Compare(a,a): %+v", d)
		}
		if d := Compare("p.json", bb, encode(base, indents[(i+2)%len(indents)])); len(d.Fields)+len(d.Hunks) != 0 {
			t.Fatalf("Compare(a, reformatted a): %s", fieldsString(d.Fields))
		}
	}
	for i := range propertyCases {
		base, x := g.lines(1+g.r.IntN(30)), g.lines(g.r.IntN(30))
		for _, tc := range [][3][]byte{{base, x, x}, {base, base, x}, {base, x, base}} {
			r, err := Merge("p.txt", tc[0], tc[1], tc[2], Options{})
			if err != nil || r.Unresolved != 0 || !bytes.Equal(r.Merged, x) {
				t.Fatalf("text case %d: %v %+v", i, err, r)
			}
		}
		if d := Compare("p.txt", base, base); len(d.Hunks) != 0 {
			t.Fatalf("Compare(a,a) text: %+v", d)
		}
	}
}

// lines makes a text of n unique lines, sometimes without a final newline.
func (g *gen) lines(n int) []byte {
	var b strings.Builder
	for i := range n {
		b.WriteString(g.unique("line"))
		if i < n-1 || g.r.IntN(4) != 0 {
			b.WriteString("\n")
		}
	}
	return []byte(b.String())
}

// edit changes o on one side: keys in own are changed, deleted or edited
// deeper; prefix names keys this side adds.
func (g *gen) edit(o *obj, own []string, prefix string) {
	for _, k := range own {
		switch g.r.IntN(4) {
		case 0:
			o.del(k)
		case 1:
			if sub, ok := o.vals[k].(*obj); ok {
				sub = sub.clone()
				sub.set(g.unique(prefix), g.scalar())
				o.set(k, sub)
				continue
			}
			fallthrough
		default:
			o.set(k, g.unique(prefix))
		}
	}
	for range g.r.IntN(3) {
		o.set(g.unique(prefix), g.value(1))
	}
}

func TestPropertyDisjointJSONEdits(t *testing.T) {
	g := newGen(2)
	for i := range propertyCases {
		base := g.object(2 + g.r.IntN(12))
		// A shared object both sides edit in different keys, and a list of
		// items with ids both sides edit, delete and append to.
		shared := newObj()
		for j := range 4 {
			shared.set(fmt.Sprintf("s%d", j), g.scalar())
		}
		base.set("shared", shared)
		var items []any
		for j := range 2 + g.r.IntN(10) {
			it := newObj()
			it.set("id", fmt.Sprintf("i%d", j))
			it.set("v", g.scalar())
			items = append(items, it)
		}
		base.set("items", items)

		keys := slices.Clone(base.keys[:len(base.keys)-2])
		g.r.Shuffle(len(keys), func(a, b int) { keys[a], keys[b] = keys[b], keys[a] })
		cut1 := g.r.IntN(len(keys) + 1)
		cut2 := cut1 + g.r.IntN(len(keys)-cut1+1)
		mineKeys, theirsKeys := keys[:cut1], keys[cut1:cut2]

		mine, theirs, want := base.clone(), base.clone(), base.clone()
		g.edit(mine, mineKeys, "mine")
		g.edit(theirs, theirsKeys, "theirs")
		for _, side := range []*obj{mine, theirs} {
			for _, k := range side.keys {
				if _, inBase := base.vals[k]; !inBase {
					want.set(k, side.vals[k])
				}
			}
		}
		for _, k := range mineKeys {
			if v, ok := mine.vals[k]; ok {
				want.set(k, v)
			} else {
				want.del(k)
			}
		}
		for _, k := range theirsKeys {
			if v, ok := theirs.vals[k]; ok {
				want.set(k, v)
			} else {
				want.del(k)
			}
		}
		ms, ts, ws := shared.clone(), shared.clone(), shared.clone()
		ms.set("s0", g.unique("mine"))
		ws.set("s0", ms.vals["s0"])
		ts.del("s1")
		ws.del("s1")
		mine.set("shared", ms)
		theirs.set("shared", ts)
		want.set("shared", ws)

		// Items: each side edits or deletes its own items and appends new ones;
		// mine may also move an item.
		wantItems := map[string]any{}
		mineItems, theirsItems := []any{}, []any{}
		for j, it := range items {
			o := it.(*obj)
			id := o.vals["id"].(string)
			wantItems[id] = plain(o)
			switch j % 4 {
			case 0: // mine edits
				c := o.clone()
				c.set("v", g.unique("mine"))
				mineItems = append(mineItems, c)
				theirsItems = append(theirsItems, o)
				wantItems[id] = plain(c)
			case 1: // theirs edits
				c := o.clone()
				c.set("v", g.unique("theirs"))
				mineItems = append(mineItems, o)
				theirsItems = append(theirsItems, c)
				wantItems[id] = plain(c)
			case 2: // one side deletes
				if g.r.IntN(2) == 0 {
					theirsItems = append(theirsItems, o)
				} else {
					mineItems = append(mineItems, o)
				}
				delete(wantItems, id)
			default:
				mineItems = append(mineItems, o)
				theirsItems = append(theirsItems, o)
			}
		}
		if len(mineItems) > 1 && g.r.IntN(2) == 0 {
			mineItems = append(mineItems[1:], mineItems[0])
		}
		for _, side := range []*[]any{&mineItems, &theirsItems} {
			for range g.r.IntN(3) {
				it := newObj()
				it.set("id", g.unique("new"))
				it.set("v", g.scalar())
				*side = append(*side, it)
				wantItems[it.vals["id"].(string)] = plain(it)
			}
		}
		mine.set("items", mineItems)
		theirs.set("items", theirsItems)
		want.del("items")

		in := indents[i%len(indents)]
		bb, mb, tb := encode(base, in), encode(mine, indents[(i+1)%len(indents)]), encode(theirs, in)
		r, err := Merge("p.json", bb, mb, tb, Options{})
		if err != nil || r.Unresolved != 0 || len(r.Conflicts) != 0 {
			t.Fatalf("case %d: err=%v conflicts:\n%s\nbase %s\nmine %s\ntheirs %s", i, err, dumpConflicts(r.Conflicts), bb, mb, tb)
		}
		got := decode(t, r.Merged).(map[string]any)
		gotItems := map[string]any{}
		for _, it := range got["items"].([]any) {
			m := it.(map[string]any)
			gotItems[m["id"].(string)] = normalise(m)
		}
		delete(got, "items")
		if !reflect.DeepEqual(normalise(got), plain(want)) || !reflect.DeepEqual(gotItems, wantItems) {
			t.Fatalf("case %d:\nbase %s\nmine %s\ntheirs %s\ngot %s\nwant %s", i, bb, mb, tb, r.Merged, encode(want, "  "))
		}
		if in != "" && !bytes.HasPrefix(r.Merged, []byte("{\n"+in+"\"")) {
			t.Fatalf("case %d: theirs' indentation %q not kept:\n%s", i, in, r.Merged)
		}
	}
}

// textRegion is a change of base lines [start, end) to new lines.
type textRegion struct {
	start, end int
	lines      []string
	mine       bool
}

// textEdits makes non-overlapping regions over n base lines, with at least
// one unchanged line between any two.
func (g *gen) textEdits(n int) []textRegion {
	var rs []textRegion
	pos := 0
	for {
		start := pos + g.r.IntN(4)
		if start > n {
			return rs
		}
		end := min(n, start+g.r.IntN(3))
		var lines []string
		for range g.r.IntN(3) {
			lines = append(lines, g.unique("new")+"\n")
		}
		if start == end && len(lines) == 0 {
			lines = append(lines, g.unique("new")+"\n")
		}
		rs = append(rs, textRegion{start: start, end: end, lines: lines, mine: g.r.IntN(2) == 0})
		pos = end + 1
	}
}

func apply(base []string, rs []textRegion, keep func(textRegion) bool) []byte {
	var b strings.Builder
	pos := 0
	for _, r := range rs {
		if !keep(r) {
			continue
		}
		b.WriteString(strings.Join(base[pos:r.start], ""))
		b.WriteString(strings.Join(r.lines, ""))
		pos = r.end
	}
	b.WriteString(strings.Join(base[pos:], ""))
	return []byte(b.String())
}

func TestPropertyDisjointTextEdits(t *testing.T) {
	g := newGen(3)
	for i := range propertyCases {
		n := g.r.IntN(40)
		var base []string
		for j := range n {
			base = append(base, g.unique(fmt.Sprintf("base%d", j))+"\n")
		}
		if n > 0 && g.r.IntN(3) == 0 { // no final newline
			base[n-1] = strings.TrimSuffix(base[n-1], "\n")
		}
		rs := g.textEdits(n)
		// A textRegion inserting after a last line without newline would
		// change that line: keep such files' last line out of reach.
		if n > 0 && !strings.HasSuffix(base[n-1], "\n") {
			rs = slices.DeleteFunc(rs, func(r textRegion) bool { return r.end >= n })
		}
		all := func(textRegion) bool { return true }
		mine := apply(base, rs, func(r textRegion) bool { return r.mine })
		theirs := apply(base, rs, func(r textRegion) bool { return !r.mine })
		want := apply(base, rs, all)
		bb := []byte(strings.Join(base, ""))
		r, err := Merge("p.html", bb, mine, theirs, Options{})
		if err != nil || r.Unresolved != 0 || !bytes.Equal(r.Merged, want) {
			t.Fatalf("case %d: err=%v\n%s\nbase %q\nmine %q\ntheirs %q\ngot %q\nwant %q", i, err, dumpConflicts(r.Conflicts), bb, mine, theirs, r.Merged, want)
		}
	}
}

// resolveAll merges, then merges again taking take for every conflict.
func resolveAll(t *testing.T, path string, base, mine, theirs []byte, take string) *Result {
	t.Helper()
	r, err := Merge(path, base, mine, theirs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	choices := map[string]Choice{}
	for _, c := range r.Conflicts {
		choices[c.ID] = Choice{Take: take}
	}
	r2, err := Merge(path, base, mine, theirs, Options{Choices: choices})
	if err != nil {
		t.Fatal(err)
	}
	if len(r2.Conflicts) != len(r.Conflicts) {
		t.Fatalf("choices changed the conflicts: %d then %d", len(r.Conflicts), len(r2.Conflicts))
	}
	return r2
}

func TestPropertyResolveWithMine(t *testing.T) {
	g := newGen(4)
	for i := range propertyCases {
		base := g.object(1 + g.r.IntN(10))
		mine, theirs := base.clone(), base.clone()
		keys := slices.Clone(base.keys)
		g.edit(mine, keys[:1+g.r.IntN(len(keys))], "mine")
		// Theirs changes some of the keys mine changed, to other scalars.
		conflicting := 0
		for _, k := range keys {
			mv, inMine := mine.vals[k]
			if !reflect.DeepEqual(plain(mv), plain(base.vals[k])) || !inMine {
				if g.r.IntN(2) == 0 {
					theirs.set(k, g.unique("theirs"))
					conflicting++
				}
			}
		}
		in := indents[i%len(indents)]
		bb, mb, tb := encode(base, in), encode(mine, in), encode(theirs, in)
		r := resolveAll(t, "p.json", bb, mb, tb, "mine")
		if r.Unresolved != 0 || !bytes.Equal(r.Merged, mb) || (conflicting > 0 && len(r.Conflicts) == 0) {
			t.Fatalf("case %d: %s\nbase %s\nmine %s\ntheirs %s\ngot %s", i, dumpConflicts(r.Conflicts), bb, mb, tb, r.Merged)
		}
		r = resolveAll(t, "p.json", bb, mb, tb, "theirs")
		if r.Unresolved != 0 || r.Merged == nil {
			t.Fatalf("case %d: take theirs left %d", i, r.Unresolved)
		}
	}
	for i := range propertyCases {
		n := 1 + g.r.IntN(30)
		var base []string
		for j := range n {
			base = append(base, g.unique(fmt.Sprintf("base%d", j))+"\n")
		}
		rs := g.textEdits(n)
		mine := apply(base, rs, func(textRegion) bool { return true })
		// Theirs changes the same base range as some of mine's regions.
		var trs []textRegion
		for _, r := range rs {
			if g.r.IntN(2) == 0 {
				trs = append(trs, textRegion{start: r.start, end: r.end, lines: []string{g.unique("theirs") + "\n"}})
			}
		}
		theirs := apply(base, trs, func(textRegion) bool { return true })
		bb := []byte(strings.Join(base, ""))
		r := resolveAll(t, "p.txt", bb, mine, theirs, "mine")
		if r.Unresolved != 0 || !bytes.Equal(r.Merged, mine) || (len(trs) > 0 && len(r.Conflicts) == 0) {
			t.Fatalf("text case %d: %s\nbase %q\nmine %q\ntheirs %q\ngot %q", i, dumpConflicts(r.Conflicts), bb, mine, theirs, r.Merged)
		}
		if r = resolveAll(t, "p.txt", bb, mine, theirs, "theirs"); r.Unresolved != 0 || r.Merged == nil {
			t.Fatalf("text case %d: take theirs left %d", i, r.Unresolved)
		}
	}
}

// The parser accepts exactly what encoding/json accepts, on generated
// documents and on random corruptions of them, and reads the same values.
func TestPropertyParserAgreesWithEncodingJSON(t *testing.T) {
	g := newGen(5)
	for i := range propertyCases * 2 {
		src := encode(g.value(0), indents[i%len(indents)])
		if i%2 == 1 && len(src) > 0 { // corrupt one byte
			src = bytes.Clone(src)
			const alphabet = "{}[],:\"\\ -0.e1tfnx\x01"
			src[g.r.IntN(len(src))] = alphabet[g.r.IntN(len(alphabet))]
		}
		d, err := parse(src)
		if (err == nil) != json.Valid(src) {
			t.Fatalf("parse(%q): err=%v, json.Valid=%v", src, err, json.Valid(src))
		}
		if err != nil {
			continue
		}
		d.expandAll(d.root)
		if d.dupKeys {
			continue // encoding/json keeps the last of repeated keys
		}
		want := decode(t, src)
		got := decode(t, compactStyle.write(nil, d.root, 0))
		if !reflect.DeepEqual(normalise(got), normalise(want)) {
			t.Fatalf("parse(%q) read %v, want %v", src, got, want)
		}
	}
}

// Any three versions merge without error, and once every conflict has a
// choice the result is valid JSON (or deleted), whatever the choice.
func TestPropertyAnyVersionsResolve(t *testing.T) {
	g := newGen(6)
	variant := func(o *obj) *obj {
		c := o.clone()
		g.edit(c, c.keys[:g.r.IntN(len(c.keys)+1)], "v")
		if len(c.keys) > 1 && g.r.IntN(3) == 0 { // reorder
			c.keys[0], c.keys[len(c.keys)-1] = c.keys[len(c.keys)-1], c.keys[0]
		}
		return c
	}
	for i := range propertyCases {
		base := g.object(1 + g.r.IntN(6))
		for _, k := range base.keys { // arrays to reorder and edit
			if g.r.IntN(3) == 0 {
				var arr []any
				for j := range 4 {
					it := newObj()
					it.set("id", j)
					it.set("v", g.scalar())
					arr = append(arr, it)
				}
				base.set(k, arr)
			}
		}
		mine, theirs := variant(base), variant(base)
		for _, side := range []*obj{mine, theirs} {
			for _, k := range side.keys {
				if arr, ok := side.vals[k].([]any); ok && g.r.IntN(2) == 0 {
					arr = slices.Clone(arr)
					g.r.Shuffle(len(arr), func(a, b int) { arr[a], arr[b] = arr[b], arr[a] })
					side.set(k, arr)
				}
			}
		}
		in := indents[i%len(indents)]
		bb, mb, tb := encode(base, in), encode(mine, in), encode(theirs, in)
		var baseArg []byte
		if i%5 != 0 {
			baseArg = bb // else: added on both sides
		}
		for _, take := range []string{"mine", "theirs", "base"} {
			r := resolveAll(t, "p.json", baseArg, mb, tb, take)
			if r.Unresolved != 0 {
				t.Fatalf("case %d: %d unresolved", i, r.Unresolved)
			}
			if !r.Deleted {
				if _, err := parse(r.Merged); err != nil {
					t.Fatalf("case %d take %s: %v\n%s", i, take, err, r.Merged)
				}
			}
		}
	}
}
