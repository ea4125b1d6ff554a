package merge

import (
	"fmt"
	"hash/maphash"
	"strconv"
	"strings"
)

// splitLines splits s into lines that keep their "\n", so a last line
// without one stays different from the same line with one and round-trips.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := make([]string, 0, strings.Count(s, "\n")+1)
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

// edit replaces a[a0:a1] with b[b0:b1]. Edits of one diff are sorted and
// separated by at least one unchanged line.
type edit struct{ a0, a1, b0, b1 int }

// Budgets bound the work of a diff, in Myers steps. Beyond them the
// remaining differing ranges are reported as wholly replaced: a valid if
// coarse diff.
const (
	quickBudget = 200_000    // first try, comparing the lines themselves
	diffBudget  = 10_000_000 // second try, on interned and filtered lines
)

// diffLines computes a shortest line diff from a to b (Myers, linear space).
func diffLines(a, b []string) []edit {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	am, bm := a[pre:len(a)-suf], b[pre:len(b)-suf]
	switch {
	case len(am) == 0 && len(bm) == 0:
		return nil
	case len(am) == 0 || len(bm) == 0:
		return []edit{{pre, pre + len(am), pre, pre + len(bm)}}
	}
	// First try: Myers on line hashes, cheap when the versions differ
	// little; the lines it pairs are then checked to be really equal.
	delA, insB, ok := markChanges(hashLines(am), hashLines(bm), quickBudget)
	if !ok || !pairsEqual(am, bm, delA, insB) {
		delA, insB = markInterned(am, bm)
	}
	return editsOf(delA, insB, pre)
}

func hashLines(lines []string) []uint64 {
	h := make([]uint64, len(lines))
	for i, l := range lines {
		h[i] = maphash.String(hashSeed, l)
	}
	return h
}

// pairsEqual checks that the lines a diff leaves unchanged are equal (and
// not merely of equal hash).
func pairsEqual(a, b []string, delA, insB []bool) bool {
	i, j := 0, 0
	for {
		for i < len(a) && delA[i] {
			i++
		}
		for j < len(b) && insB[j] {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if a[i] != b[j] {
			return false
		}
		i, j = i+1, j+1
	}
}

// markChanges runs Myers on two sequences. ok is false if the budget ran out.
func markChanges[T comparable](a, b []T, budget int) (delA, insB []bool, ok bool) {
	d := &differ[T]{a: a, b: b, budget: budget}
	d.delA, d.insB = make([]bool, len(a)), make([]bool, len(b))
	d.compare(0, len(a), 0, len(b))
	return d.delA, d.insB, d.budget >= 0
}

// markInterned diffs lines as small integers, after setting aside the lines
// that do not occur on the other side: they cannot be part of a common
// subsequence, and leaving them out keeps rewrites cheap without making
// the diff any longer.
func markInterned(am, bm []string) (delA, insB []bool) {
	ids := make(map[string]int32, len(am)+len(bm))
	intern := func(lines []string) []int32 {
		out := make([]int32, len(lines))
		for i, l := range lines {
			id, ok := ids[l]
			if !ok {
				id = int32(len(ids))
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	ai, bi := intern(am), intern(bm)
	inA, inB := make([]bool, len(ids)), make([]bool, len(ids))
	for _, id := range ai {
		inA[id] = true
	}
	for _, id := range bi {
		inB[id] = true
	}
	delA, insB = make([]bool, len(am)), make([]bool, len(bm))
	keep := func(seq []int32, other []bool, changed []bool) ([]int32, []int) {
		var kept []int32
		var at []int
		for i, id := range seq {
			if other[id] {
				kept = append(kept, id)
				at = append(at, i)
			} else {
				changed[i] = true
			}
		}
		return kept, at
	}
	ak, aAt := keep(ai, inB, delA)
	bk, bAt := keep(bi, inA, insB)
	dA, dB, _ := markChanges(ak, bk, diffBudget)
	for i, del := range dA {
		delA[aAt[i]] = del
	}
	for j, ins := range dB {
		insB[bAt[j]] = ins
	}
	return delA, insB
}

// editsOf turns per-line marks into edits, offset by the common prefix.
func editsOf(delA, insB []bool, pre int) []edit {
	var edits []edit
	i, j := 0, 0
	for i < len(delA) || j < len(insB) {
		if i < len(delA) && j < len(insB) && !delA[i] && !insB[j] {
			i, j = i+1, j+1
			continue
		}
		i0, j0 := i, j
		for (i < len(delA) && delA[i]) || (j < len(insB) && insB[j]) {
			for i < len(delA) && delA[i] {
				i++
			}
			for j < len(insB) && insB[j] {
				j++
			}
		}
		if i == i0 && j == j0 { // cannot happen with a consistent marking; never loop
			i, j = len(delA), len(insB)
		}
		edits = append(edits, edit{pre + i0, pre + i, pre + j0, pre + j})
	}
	return edits
}

// differ marks the lines of a deleted and of b inserted.
type differ[T comparable] struct {
	a, b       []T
	delA, insB []bool
	v1, v2     []int
	budget     int
}

func (d *differ[T]) compare(aLo, aHi, bLo, bHi int) {
	for aLo < aHi && bLo < bHi && d.a[aLo] == d.b[bLo] {
		aLo, bLo = aLo+1, bLo+1
	}
	for aLo < aHi && bLo < bHi && d.a[aHi-1] == d.b[bHi-1] {
		aHi, bHi = aHi-1, bHi-1
	}
	if aLo < aHi && bLo < bHi && d.budget >= 0 {
		x, y, ok := d.bisect(aLo, aHi, bLo, bHi)
		if ok && (x > aLo || y > bLo) && (x < aHi || y < bHi) {
			d.compare(aLo, x, bLo, y)
			d.compare(x, aHi, y, bHi)
			return
		}
	}
	for i := aLo; i < aHi; i++ {
		d.delA[i] = true
	}
	for j := bLo; j < bHi; j++ {
		d.insB[j] = true
	}
}

// bisect finds the middle of a shortest edit path (Myers' middle snake,
// searching from both ends) and returns where to split the problem.
func (d *differ[T]) bisect(aLo, aHi, bLo, bHi int) (int, int, bool) {
	a, b := d.a[aLo:aHi], d.b[bLo:bHi]
	n, m := len(a), len(b)
	maxD := (n + m + 1) / 2
	vOff, vLen := maxD, 2*maxD+2
	if cap(d.v1) < vLen {
		d.v1, d.v2 = make([]int, vLen), make([]int, vLen)
	}
	v1, v2 := d.v1[:vLen], d.v2[:vLen]
	for i := range v1 {
		v1[i], v2[i] = -1, -1
	}
	v1[vOff+1], v2[vOff+1] = 0, 0
	delta := n - m
	front := delta%2 != 0 // the forward path meets the reverse one
	var k1start, k1end, k2start, k2end int
	for D := 0; D < maxD; D++ {
		if d.budget -= 2*D + 2; d.budget < 0 {
			return 0, 0, false
		}
		for k1 := -D + k1start; k1 <= D-k1end; k1 += 2 {
			k1o := vOff + k1
			var x1 int
			if k1 == -D || (k1 != D && v1[k1o-1] < v1[k1o+1]) {
				x1 = v1[k1o+1]
			} else {
				x1 = v1[k1o-1] + 1
			}
			y1 := x1 - k1
			for x1 < n && y1 < m && a[x1] == b[y1] {
				x1, y1 = x1+1, y1+1
			}
			v1[k1o] = x1
			switch {
			case x1 > n:
				k1end += 2 // ran off the right
			case y1 > m:
				k1start += 2 // ran off the bottom
			case front:
				if k2o := vOff + delta - k1; k2o >= 0 && k2o < vLen && v2[k2o] != -1 {
					if x1 >= n-v2[k2o] {
						return aLo + x1, bLo + y1, true
					}
				}
			}
		}
		for k2 := -D + k2start; k2 <= D-k2end; k2 += 2 {
			k2o := vOff + k2
			var x2 int
			if k2 == -D || (k2 != D && v2[k2o-1] < v2[k2o+1]) {
				x2 = v2[k2o+1]
			} else {
				x2 = v2[k2o-1] + 1
			}
			y2 := x2 - k2
			for x2 < n && y2 < m && a[n-x2-1] == b[m-y2-1] {
				x2, y2 = x2+1, y2+1
			}
			v2[k2o] = x2
			switch {
			case x2 > n:
				k2end += 2
			case y2 > m:
				k2start += 2
			case !front:
				if k1o := vOff + delta - k2; k1o >= 0 && k1o < vLen && v1[k1o] != -1 {
					x1 := v1[k1o]
					y1 := x1 - (k1o - vOff)
					if x1 >= n-x2 {
						return aLo + x1, bLo + y1, true
					}
				}
			}
		}
	}
	return 0, 0, false
}

// region returns the lines a side has for base[gs:ge], given the side's
// edits inside that range, and their position in the side.
func region(edits []edit, gs, ge int, base, side []string) ([]string, int, int) {
	if len(edits) == 0 {
		return base[gs:ge], -1, -1
	}
	first, last := edits[0], edits[len(edits)-1]
	o0 := first.b0 - (first.a0 - gs)
	o1 := last.b1 + (ge - last.a1)
	return side[o0:o1], o0, o1
}

// joinLines concatenates lines into a new string (never an input's memory).
func joinLines(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
	}
	return b.String()
}

func sameLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// linesLabel names lines o0..o1 (0-based, exclusive) of theirs for people.
func linesLabel(o0, o1 int) string {
	switch o1 - o0 {
	case 0:
		if o0 == 0 {
			return "start of file"
		}
		return "after line " + strconv.Itoa(o0)
	case 1:
		return "line " + strconv.Itoa(o0+1)
	}
	return fmt.Sprintf("lines %d–%d", o0+1, o1)
}

// merge3 is a line-based three-way merge (diff3). Changes to separate base
// regions combine; changes to the same or touching regions are a conflict
// "hunk:N" unless both sides made the same change.
func merge3(base, mine, theirs []byte, choices map[string]Choice) (merged []byte, conflicts []Conflict, unresolved int, err error) {
	bl, ml, tl := splitLines(view(base)), splitLines(view(mine)), splitLines(view(theirs))
	em, et := diffLines(bl, ml), diffLines(bl, tl)
	out := make([]byte, 0, max(len(mine), len(theirs))+64)
	emit := func(lines []string) {
		for _, l := range lines {
			out = append(out, l...)
		}
	}
	pos, i, j := 0, 0, 0
	for i < len(em) || j < len(et) {
		// A group is a run of edits from either side whose base ranges
		// overlap or touch.
		i0, j0 := i, j
		var gs, ge int
		if j >= len(et) || (i < len(em) && em[i].a0 <= et[j].a0) {
			gs, ge = em[i].a0, em[i].a1
			i++
		} else {
			gs, ge = et[j].a0, et[j].a1
			j++
		}
		for {
			if i < len(em) && em[i].a0 <= ge {
				ge = max(ge, em[i].a1)
				i++
			} else if j < len(et) && et[j].a0 <= ge {
				ge = max(ge, et[j].a1)
				j++
			} else {
				break
			}
		}
		emit(bl[pos:gs])
		pos = ge
		mLines, _, _ := region(em[i0:i], gs, ge, bl, ml)
		tLines, t0, t1 := region(et[j0:j], gs, ge, bl, tl)
		switch {
		case i == i0:
			emit(tLines)
			continue
		case j == j0 || sameLines(mLines, tLines):
			emit(mLines)
			continue
		}
		id := "hunk:" + strconv.Itoa(len(conflicts)+1)
		c := Conflict{ID: id, Path: linesLabel(t0, t1), Reason: "changed on both sides"}
		if base != nil {
			s := joinLines(bl[gs:ge])
			c.Base = &s
		}
		ms, ts := joinLines(mLines), joinLines(tLines)
		c.Mine, c.Theirs = &ms, &ts
		conflicts = append(conflicts, c)
		ch, ok := choices[id]
		if !ok {
			unresolved++
			continue
		}
		switch ch.Take {
		case "mine":
			emit(mLines)
		case "theirs":
			emit(tLines)
		case "base":
			emit(bl[gs:ge])
		case "value":
			if ch.Value != nil {
				out = append(out, *ch.Value...)
			}
		default:
			return nil, nil, 0, fmt.Errorf("%w: unknown take %q for %q", ErrInvalidChoice, ch.Take, id)
		}
	}
	emit(bl[pos:])
	if unresolved > 0 {
		out = nil
	}
	return out, conflicts, unresolved, nil
}
