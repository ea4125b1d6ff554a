package merge

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// translationFile builds a pretty-printed translation file of n keys, with
// the values in edits replaced.
func translationFile(n int, edits map[int]string, extra string) []byte {
	var b strings.Builder
	b.WriteString("{\n")
	for i := range n {
		v := fmt.Sprintf("Text number %d for the portal, with <b>markup</b> & ümlauts", i)
		if e, ok := edits[i]; ok {
			v = e
		}
		if i%50 == 0 {
			v += " \"quoted\"\n"
		}
		k := quoteJSON(v)
		fmt.Fprintf(&b, "  \"TXT_KEY_%05d\": %s", i, k)
		if i < n-1 || extra != "" {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	if extra != "" {
		b.WriteString("  " + extra + "\n")
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

func BenchmarkMergeTranslations5000Keys(b *testing.B) {
	base := translationFile(5000, nil, "")
	mine := translationFile(5000, map[int]string{10: "mine 10", 2500: "mine 2500"}, "")
	theirs := translationFile(5000, map[int]string{1000: "theirs 1000", 4000: "theirs 4000"}, `"TXT_NEW": "new"`)
	b.SetBytes(int64(len(base)))
	b.ResetTimer()
	for b.Loop() {
		r, err := Merge("translations/en_GB.json", base, mine, theirs, Options{})
		if err != nil || r.Unresolved != 0 || r.Merged == nil {
			b.Fatal(err, r.Unresolved)
		}
	}
}

// quoteJSON encodes s as a JSON string without HTML escaping, as portal
// files are written.
func quoteJSON(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

type benchItem struct {
	ID      string         `json:"id"`
	Title   string         `json:"title"`
	Price   json.Number    `json:"price"`
	Tags    []string       `json:"tags"`
	Details map[string]any `json:"details"`
}

// menuFile builds a pretty-printed JSON file of n items (10,000 make about
// 2 MB); edit may change the items before encoding.
func menuFile(n int, edit func(items []benchItem) []benchItem) []byte {
	items := make([]benchItem, n)
	for i := range items {
		items[i] = benchItem{
			ID:    fmt.Sprintf("item-%05d", i),
			Title: fmt.Sprintf("Dish %d", i),
			Price: json.Number(fmt.Sprintf("%d.50", i%40)),
			Tags:  []string{fmt.Sprintf("tag%d", i%7)},
			Details: map[string]any{
				"nutrition": map[string]any{"kcal": i % 900},
			},
		}
	}
	if edit != nil {
		items = edit(items)
	}
	out, err := json.MarshalIndent(map[string]any{"version": 3, "items": items}, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(out, '\n')
}

func BenchmarkMergeJSON2MB(b *testing.B) {
	const n = 10000
	base := menuFile(n, nil)
	mine := menuFile(n, func(it []benchItem) []benchItem {
		it[100].Title = "Mine's title"
		return append(it, benchItem{ID: "mine-new", Title: "new", Price: "1"})
	})
	theirs := menuFile(n, func(it []benchItem) []benchItem {
		it[9000].Price = "99.99"
		return append(it[:5000], it[5001:]...)
	})
	b.Logf("file size %d bytes", len(base))
	b.SetBytes(int64(len(base)))
	b.ResetTimer()
	for b.Loop() {
		r, err := Merge("menu.json", base, mine, theirs, Options{})
		if err != nil || r.Unresolved != 0 || r.Merged == nil {
			b.Fatal(err, r.Unresolved)
		}
	}
}

// textFile builds an n-line HTML-ish file with lines in edits replaced.
func textFile(n int, edits map[int]string) []byte {
	var b strings.Builder
	for i := range n {
		if e, ok := edits[i]; ok {
			b.WriteString(e)
		} else {
			fmt.Fprintf(&b, "<p class=\"line\">Paragraph %d of the page</p>", i)
		}
		b.WriteString("\n")
	}
	return []byte(b.String())
}

func BenchmarkMergeText(b *testing.B) {
	const n = 50000
	mineEdits, theirsEdits := map[int]string{}, map[int]string{}
	for i := 0; i < n; i += 5000 {
		mineEdits[i+10] = "mine"
		theirsEdits[i+2000] = "theirs"
	}
	base, mine, theirs := textFile(n, nil), textFile(n, mineEdits), textFile(n, theirsEdits)
	b.SetBytes(int64(len(base)))
	b.ResetTimer()
	for b.Loop() {
		r, err := Merge("page.html", base, mine, theirs, Options{})
		if err != nil || r.Unresolved != 0 {
			b.Fatal(err, r.Unresolved)
		}
	}
}
