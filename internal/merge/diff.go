package merge

import (
	"sort"
	"strings"
)

// FieldChange is one changed value of a JSON or translation file.
type FieldChange struct {
	Pointer string  `json:"pointer"` // JSON pointer in AFTER (or BEFORE for removals)
	Path    string  `json:"path"`    // human-readable as in Conflict.Path
	Op      string  `json:"op"`      // "add" | "remove" | "change" | "move"
	Old     *string `json:"old"`     // compact JSON; nil for add; for move the BEFORE pointer as a JSON string
	New     *string `json:"new"`     // compact JSON; nil for remove; for move the AFTER pointer as a JSON string
}

// DiffLine is one line of a hunk; Op is " ", "+" or "-". Text has no line ending.
type DiffLine struct {
	Op   string `json:"op"`
	Text string `json:"text"`
}

// Hunk is a unified-diff hunk with 3 lines of context. Starts are 1-based;
// an empty range starts at the line before it, as in unified diffs.
type Hunk struct {
	OldStart int        `json:"oldStart"`
	OldLines int        `json:"oldLines"`
	NewStart int        `json:"newStart"`
	NewLines int        `json:"newLines"`
	Lines    []DiffLine `json:"lines"`
}

// Diff describes what changed in a file, for review before commit.
type Diff struct {
	Kind      Kind          `json:"kind"`
	Fields    []FieldChange `json:"fields"`    // json/translation
	Hunks     []Hunk        `json:"hunks"`     // text, and JSON files that do not parse
	Binary    bool          `json:"binary"`    // a binary file: no details
	Truncated bool          `json:"truncated"` // more than maxFieldChanges or maxDiffLines: cut
}

const (
	maxFieldChanges = 2000
	maxDiffLines    = 5000
	contextLines    = 3
)

// Compare describes what changed from before to after (nil = file absent).
func Compare(path string, before, after []byte) *Diff {
	d := &Diff{Kind: kindOf(path, after, before), Fields: []FieldChange{}, Hunks: []Hunk{}}
	switch {
	case d.Kind == KindBinary:
		d.Binary = true
		return d
	case sameFile(before, after):
		return d
	case d.Kind == KindJSON || d.Kind == KindTranslation:
		if d.compareJSON(before, after) {
			return d
		}
	}
	al, bl := splitLines(view(before)), splitLines(view(after))
	d.Hunks = unified(al, bl, diffLines(al, bl), &d.Truncated)
	return d
}

// compareJSON fills d.Fields; false if a side does not parse.
func (d *Diff) compareJSON(before, after []byte) bool {
	var docs []*doc
	parseSide := func(src []byte) (*node, bool) {
		if src == nil {
			return nil, true
		}
		dc, err := parse(src)
		if err != nil {
			return nil, false
		}
		docs = append(docs, dc)
		return dc.root, true
	}
	a, okA := parseSide(before)
	b, okB := parseSide(after)
	if !okA || !okB {
		return false
	}
	jd := &jsonDiffer{d: d, translation: d.Kind == KindTranslation}
	switch {
	case a == nil && b == nil:
	case a == nil:
		jd.add("add", loc{}, nil, b)
	case b == nil:
		jd.add("remove", loc{}, a, nil)
	default:
		jd.value(a, b, loc{}, loc{})
	}
	for _, dc := range docs {
		if dc.dupKeys { // repeated keys cannot be compared key by key
			d.Fields, d.Truncated = []FieldChange{}, false
			return false
		}
	}
	return true
}

type jsonDiffer struct {
	d           *Diff
	translation bool
}

func (jd *jsonDiffer) add(op string, l loc, old, new *node) {
	jd.addText(op, l, compact(old), compact(new))
}

func (jd *jsonDiffer) addText(op string, l loc, old, new *string) {
	if len(jd.d.Fields) >= maxFieldChanges {
		jd.d.Truncated = true
		return
	}
	jd.d.Fields = append(jd.d.Fields, FieldChange{Pointer: l.ptr, Path: strings.Clone(l.label()), Op: op, Old: old, New: new})
}

// value reports how a became b; la/lb are their locations in before/after.
func (jd *jsonDiffer) value(a, b *node, la, lb loc) {
	switch {
	case jd.d.Truncated || equal(a, b):
	case a.kind == jObject && b.kind == jObject:
		jd.object(a, b, la, lb)
	case a.kind == jArray && b.kind == jArray:
		jd.array(a, b, la, lb)
	default:
		jd.add("change", lb, a, b)
	}
}

func (jd *jsonDiffer) object(a, b *node, la, lb loc) {
	for bi, kv := range b.members() {
		av, _ := a.get(kv.key, bi)
		switch {
		case av == nil:
			jd.add("add", lb.key(kv.key, jd.translation), nil, kv.val)
		case !equal(av, kv.val):
			jd.value(av, kv.val, la.key(kv.key, jd.translation), lb.key(kv.key, jd.translation))
		}
	}
	for ai, kv := range a.members() {
		if bv, _ := b.get(kv.key, ai); bv == nil {
			jd.add("remove", la.key(kv.key, jd.translation), kv.val, nil)
		}
	}
}

// array matches items by identity, as the merge does. Items kept in a
// longest common order did not move; the other shared items did.
func (jd *jsonDiffer) array(a, b *node, la, lb loc) {
	aItems, bItems := identify(a), identify(b)
	bInA := lookup(bItems, aItems)
	var seq []int // before indexes of the shared items, in after order
	for _, i := range bInA {
		if i >= 0 {
			seq = append(seq, i)
		}
	}
	stay := longestIncreasing(seq)
	k := 0
	for j, kv := range b.members() {
		i := bInA[j]
		if i < 0 {
			jd.add("add", lb.item(j, kv.val, jd.translation), nil, kv.val)
			continue
		}
		moved := !stay[k]
		k++
		if !moved && equal(a.members()[i].val, kv.val) {
			continue
		}
		bl, al := lb.item(j, kv.val, jd.translation), la.item(i, a.members()[i].val, jd.translation)
		if moved {
			from, to := string(appendQuoted(nil, al.ptr)), string(appendQuoted(nil, bl.ptr))
			jd.addText("move", bl, &from, &to)
		}
		jd.value(a.members()[i].val, kv.val, al, bl)
	}
	for i, j := range lookup(aItems, bItems) {
		if j < 0 {
			jd.add("remove", la.item(i, a.members()[i].val, jd.translation), a.members()[i].val, nil)
		}
	}
}

// longestIncreasing marks the elements of one longest strictly increasing
// subsequence of seq (patience sorting, O(n log n)).
func longestIncreasing(seq []int) []bool {
	tails := []int{}              // tails[l] = index in seq of the smallest tail of a run of length l+1
	prev := make([]int, len(seq)) // predecessor in the run
	for i, v := range seq {
		l := sort.Search(len(tails), func(t int) bool { return seq[tails[t]] >= v })
		if l > 0 {
			prev[i] = tails[l-1]
		} else {
			prev[i] = -1
		}
		if l == len(tails) {
			tails = append(tails, i)
		} else {
			tails[l] = i
		}
	}
	in := make([]bool, len(seq))
	if len(tails) > 0 {
		for i := tails[len(tails)-1]; i >= 0; i = prev[i] {
			in[i] = true
		}
	}
	return in
}

// unified turns edits into hunks with contextLines of context, merging
// hunks whose context would overlap.
func unified(al, bl []string, edits []edit, truncated *bool) []Hunk {
	hunks := []Hunk{}
	total := 0
	for g := 0; g < len(edits); {
		h := g
		for h+1 < len(edits) && edits[h+1].a0-edits[h].a1 <= 2*contextLines {
			h++
		}
		first, last := edits[g], edits[h]
		a0, a1 := max(0, first.a0-contextLines), min(len(al), last.a1+contextLines)
		b0, b1 := first.b0-(first.a0-a0), last.b1+(a1-last.a1)
		hk := Hunk{OldStart: a0, OldLines: a1 - a0, NewStart: b0, NewLines: b1 - b0}
		if hk.OldLines > 0 {
			hk.OldStart++
		}
		if hk.NewLines > 0 {
			hk.NewStart++
		}
		add := func(op string, lines []string) {
			for _, l := range lines {
				text := strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r")
				hk.Lines = append(hk.Lines, DiffLine{Op: op, Text: strings.Clone(text)})
			}
		}
		pos := a0
		for _, e := range edits[g : h+1] {
			add(" ", al[pos:e.a0])
			add("-", al[e.a0:e.a1])
			add("+", bl[e.b0:e.b1])
			pos = e.a1
		}
		add(" ", al[pos:a1])
		if total+len(hk.Lines) > maxDiffLines {
			hk.Lines = hk.Lines[:maxDiffLines-total]
			*truncated = true
			if len(hk.Lines) > 0 {
				hunks = append(hunks, hk)
			}
			return hunks
		}
		total += len(hk.Lines)
		hunks = append(hunks, hk)
		g = h + 1
	}
	return hunks
}
