package merge

import (
	"fmt"
	"strings"
	"testing"
)

func fieldsString(fs []FieldChange) string {
	var lines []string
	for _, f := range fs {
		lines = append(lines, fmt.Sprintf("%s %s [%s] %s -> %s", f.Op, f.Pointer, f.Path, deref(f.Old), deref(f.New)))
	}
	return strings.Join(lines, "\n")
}

func TestCompareJSON(t *testing.T) {
	before := `{"title":"Cafe","menu":[{"id":1,"title":"Soup"},{"id":2,"title":"Salad"},{"id":3,"title":"Pie"}],"theme":{"color":"#fff"},"old":true}`
	after := `{"title":"Café","menu":[{"id":3,"title":"Pie"},{"id":1,"title":"Soup"},{"id":2,"title":"Green salad"},{"id":4,"title":"Cake"}],"theme":{"color":"#fff","font":{"size":12}}}`
	d := Compare("portal.json", []byte(before), []byte(after))
	want := strings.Join([]string{
		`change /title [title] "Cafe" -> "Café"`,
		`move /menu/0 [menu › 3] "/menu/2" -> "/menu/0"`,
		`change /menu/2/title [menu › 2 › title] "Salad" -> "Green salad"`,
		`add /menu/3 [menu › 4] <nil> -> {"id":4,"title":"Cake"}`,
		`add /theme/font [theme › font] <nil> -> {"size":12}`,
		`remove /old [old] true -> <nil>`,
	}, "\n")
	if got := fieldsString(d.Fields); got != want || d.Kind != KindJSON || len(d.Hunks) != 0 || d.Truncated {
		t.Fatalf("fields:\n%s\nwant:\n%s", got, want)
	}

	d = Compare("translations/de.json", []byte(`{"nav":{"home":"Start"}}`), []byte(`{"nav":{"home":"Home"}}`))
	if got := fieldsString(d.Fields); got != `change /nav/home [nav.home] "Start" -> "Home"` || d.Kind != KindTranslation {
		t.Fatalf("translation: %s", got)
	}
	// Layout changes alone are no change.
	d = Compare("x.json", []byte(`{"a":[1,2],"b":{"c":1.0}}`), []byte("{\n  \"b\": {\"c\": 1.0},\n  \"a\": [1, 2]\n}\n"))
	if len(d.Fields) != 0 {
		t.Fatalf("layout only: %s", fieldsString(d.Fields))
	}
	// Absent files.
	d = Compare("x.json", nil, []byte(`{"a":1}`))
	if got := fieldsString(d.Fields); got != `add  [(root)] <nil> -> {"a":1}` {
		t.Fatalf("added file: %s", got)
	}
	d = Compare("x.json", []byte(`[1]`), nil)
	if got := fieldsString(d.Fields); got != `remove  [(root)] [1] -> <nil>` {
		t.Fatalf("removed file: %s", got)
	}
	// Type change and strings array.
	d = Compare("x.json", []byte(`{"a":1,"langs":["en","de"]}`), []byte(`{"a":"1","langs":["en","fr","de"]}`))
	if got := fieldsString(d.Fields); got != "change /a [a] 1 -> \"1\"\nadd /langs/1 [langs › #2] <nil> -> \"fr\"" {
		t.Fatalf("types: %s", got)
	}
	// Unparsable JSON gets text hunks.
	d = Compare("x.json", []byte("{\n\"a\": 1,\n}\n"), []byte("{\n\"a\": 2,\n}\n"))
	if len(d.Fields) != 0 || len(d.Hunks) != 1 {
		t.Fatalf("unparsable: %+v", d)
	}
}

func TestCompareText(t *testing.T) {
	var before, after []string
	for i := 1; i <= 30; i++ {
		before = append(before, fmt.Sprintf("line %d", i))
	}
	after = append(after, before...)
	after[4] = "line 5 changed"                                           // hunk 1
	after = append(after[:20], append([]string{"new"}, after[20:]...)...) // hunk 2: insert after line 20
	d := Compare("a.txt", []byte(strings.Join(before, "\n")+"\n"), []byte(strings.Join(after, "\n")+"\n"))
	if d.Kind != KindText || len(d.Hunks) != 2 || d.Fields == nil || len(d.Fields) != 0 {
		t.Fatalf("got %+v", d)
	}
	h := d.Hunks[0]
	if h.OldStart != 2 || h.OldLines != 7 || h.NewStart != 2 || h.NewLines != 7 || len(h.Lines) != 8 ||
		h.Lines[3] != (DiffLine{"-", "line 5"}) || h.Lines[4] != (DiffLine{"+", "line 5 changed"}) || h.Lines[0] != (DiffLine{" ", "line 2"}) {
		t.Fatalf("hunk 1: %+v", h)
	}
	h = d.Hunks[1]
	if h.OldStart != 18 || h.OldLines != 6 || h.NewStart != 18 || h.NewLines != 7 || h.Lines[3] != (DiffLine{"+", "new"}) {
		t.Fatalf("hunk 2: %+v", h)
	}
	// Close changes share a hunk.
	d = Compare("a.txt", []byte("a\nb\nc\nd\ne\nf\ng\nh\n"), []byte("A\nb\nc\nd\ne\nf\ng\nH\n"))
	if len(d.Hunks) != 1 || d.Hunks[0].OldStart != 1 || d.Hunks[0].OldLines != 8 {
		t.Fatalf("close changes: %+v", d.Hunks)
	}
	// New and deleted files.
	d = Compare("a.txt", nil, []byte("x\ny\n"))
	if len(d.Hunks) != 1 || d.Hunks[0].OldStart != 0 || d.Hunks[0].OldLines != 0 || d.Hunks[0].NewStart != 1 || d.Hunks[0].NewLines != 2 {
		t.Fatalf("new file: %+v", d.Hunks)
	}
	d = Compare("logo.png", []byte("a"), []byte("b"))
	if !d.Binary || len(d.Hunks) != 0 || d.Hunks == nil {
		t.Fatalf("binary: %+v", d)
	}
}

func TestCompareTruncated(t *testing.T) {
	var a, b strings.Builder
	a.WriteString("{")
	b.WriteString("{")
	for i := range 3000 {
		if i > 0 {
			a.WriteString(",")
			b.WriteString(",")
		}
		fmt.Fprintf(&a, `"k%d":%d`, i, i)
		fmt.Fprintf(&b, `"k%d":%d`, i, i+1)
	}
	a.WriteString("}")
	b.WriteString("}")
	d := Compare("x.json", []byte(a.String()), []byte(b.String()))
	if !d.Truncated || len(d.Fields) != maxFieldChanges {
		t.Fatalf("fields: %d truncated=%v", len(d.Fields), d.Truncated)
	}
	before, after := textFile(8000, nil), textFile(8000, map[int]string{})
	after = []byte(strings.ReplaceAll(string(after), "Paragraph", "Para"))
	d = Compare("a.txt", before, after)
	n := 0
	for _, h := range d.Hunks {
		n += len(h.Lines)
	}
	if !d.Truncated || n != maxDiffLines {
		t.Fatalf("lines: %d truncated=%v", n, d.Truncated)
	}
}
