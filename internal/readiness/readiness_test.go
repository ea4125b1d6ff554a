package readiness

import (
	"slices"
	"strings"
	"testing"

	"portalwright/internal/check"
)

func TestLRUForgetsTheLeastRecentlyUsed(t *testing.T) {
	c := newLRU[int, string](2)
	c.put(1, "a")
	c.put(2, "b")
	c.get(1) // 2 is now the least recently used
	c.put(3, "c")
	if _, ok := c.peek(2); ok {
		t.Fatal("2 should be forgotten")
	}
	var keys []int
	c.each(func(k int, _ string) { keys = append(keys, k) })
	if !slices.Equal(keys, []int{3, 1}) {
		t.Fatalf("keys = %v", keys)
	}
}

func TestDiffByFindingID(t *testing.T) {
	f := func(id, path string) check.Finding {
		return check.Finding{ID: id, Path: path, Rule: check.RuleAssetMissing}
	}
	prev := &Report{Report: check.Report{Findings: []check.Finding{f("a", "x.html"), f("b", "y.html")}}}
	next := &Report{Report: check.Report{Findings: []check.Finding{f("b", "y.html"), f("c", "z.html")}}}
	added, removed := diff(prev, next, nil)
	if len(added) != 1 || added[0].ID != "c" || len(removed) != 1 || removed[0].ID != "a" {
		t.Fatalf("added %v removed %v", added, removed)
	}
	// Without an earlier report, what is in the changed files counts as added.
	added, removed = diff(nil, next, map[string]string{"z.html": "MODIFY"})
	if len(added) != 1 || added[0].ID != "c" || len(removed) != 0 || removed == nil {
		t.Fatalf("first: added %v removed %v", added, removed)
	}
}

func TestCheckBudgets(t *testing.T) {
	ok, err := checkBudgets([]check.LengthBudget{{Pattern: " TXT_SEAT_* ", MaxChars: 40}})
	if err != nil || ok[0].Pattern != "TXT_SEAT_*" {
		t.Fatalf("%v %v", ok, err)
	}
	for _, bad := range []check.LengthBudget{{Pattern: "", MaxChars: 1}, {Pattern: "TXT_[", MaxChars: 1}, {Pattern: "A", MaxChars: 0},
		{Pattern: "A", MaxChars: 100001}, {Pattern: strings.Repeat("A", 201), MaxChars: 1}} {
		if _, err := checkBudgets([]check.LengthBudget{bad}); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
