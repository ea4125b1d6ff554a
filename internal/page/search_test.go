package page

import (
	"strings"
	"testing"
)

func TestIndexFoldASCII(t *testing.T) {
	for _, c := range []struct {
		text, needle string
		want         int
	}{
		{"Hello World", "world", 6}, {"hello", "hello", 0}, {"HELLO", "hello", 0}, {"hel", "hello", -1},
		{"eeeeE xE", "xe", 6}, {"", "a", -1}, {"abc", "", 0}, {"aAaAb", "ab", 3}, {"Ab", "b", 1},
		{"quarter master QuarterMaster", "quartermaster", 15}, {"1-2", "-2", 1},
	} {
		if got := indexFoldASCII([]byte(c.text), []byte(c.needle)); got != c.want {
			t.Errorf("indexFold(%q, %q) = %d, want %d", c.text, c.needle, got, c.want)
		}
	}
	f := newFinder([]byte("été"))
	if f.ascii || !f.in([]byte("Un ÉTÉ chaud")) || f.in([]byte("ete")) {
		t.Fatal("non-ASCII finder")
	}
	if w := prefilterWord([]byte("ask the quartermaster-desk now")); string(w) != "the" && string(w) != "ask" && string(w) != "now" {
		t.Fatalf("prefilter word: %q", w)
	}
	if w := prefilterWord([]byte("quartermaster lantern")); string(w) != "quartermaster" {
		t.Fatalf("prefilter word: %q", w)
	}
}

func TestStripTagsAndSearchHTML(t *testing.T) {
	page := "<article>\n  <h1 class=\"x\"\n   data-a=\"Zebra\">Hello <b>Zebra</b> crossing</h1>\n<script>var zebra = 1;\n</script>\n<!-- zebra\n -->\n<p>Fish &amp; Zebra &#90;ebra</p></article>"
	text := string(stripTags([]byte(page)))
	if strings.Count(text, "\n") != strings.Count(page, "\n") || strings.Contains(text, "var zebra") || strings.Contains(text, "<") || !strings.Contains(text, "Fish & Zebra Zebra") {
		t.Fatalf("text: %q", text)
	}
	hits, over := cutAll(searchHTML([]byte(page), []byte("zebra")))
	if over || len(hits) != 3 || hits[0].Line != 3 || hits[0].Snippet != "Hello Zebra crossing" || hits[1].Line != 8 {
		t.Fatalf("hits: %+v", hits)
	}
	hits, _ = cutAll(searchHTML([]byte("<p>hello zebra crossing</p>"), []byte("hello zebra")))
	if len(hits) != 1 {
		t.Fatalf("phrase across a tag: %+v", hits)
	}
	many := strings.Repeat("<p>zebra</p>\n", 10)
	if hits, over := cutAll(searchHTML([]byte(many), []byte("zebra"))); len(hits) != MaxHitsPerFile || !over {
		t.Fatalf("cap: %d %v", len(hits), over)
	}
	long := "<p>" + strings.Repeat("word ", 40) + "ZEBRA" + strings.Repeat(" tail", 40) + "</p>"
	hits, _ = cutAll(searchHTML([]byte(long), []byte("zebra")))
	if len([]rune(hits[0].Label)) > LabelLength || !strings.Contains(hits[0].Label, "ZEBRA") || len([]rune(hits[0].Snippet)) > SnippetLength || !strings.HasPrefix(hits[0].Label, "…") {
		t.Fatalf("label %q snippet %q", hits[0].Label, hits[0].Snippet)
	}
}

func TestSearchJSON(t *testing.T) {
	data := []byte("{\n  \"type\": \"zebra-widget\",\n  \"data\": {\n    \"title\": \"The Zebra\",\n    \"zebra\": 1,\n    \"items\": [{\"label\": \"zebra \\u0041\"}]\n  }\n}")
	hits, _ := cutAll(searchJSON(data, []byte("zebra"), newFinder([]byte("zebra"))))
	if len(hits) != 3 || hits[0].Key != "type" || hits[1].Key != "data.title" || hits[1].Line != 4 || hits[2].Key != "data.items.label" || hits[2].Snippet != "zebra A" {
		t.Fatalf("hits: %+v", hits)
	}
	if hits, _ := cutAll(searchJSON([]byte(`{"a":"b"}`), []byte("zebra"), newFinder([]byte("zebra")))); len(hits) != 0 {
		t.Fatal("false hit")
	}
	// An escape may hide the phrase from the byte test: "\u005aebra" is "Zebra".
	if hits, _ := cutAll(searchJSON([]byte(`{"TXT_A":"\u005aebra"}`), []byte("zebra"), newFinder([]byte("zebra")))); len(hits) != 1 || hits[0].Key != "TXT_A" {
		t.Fatalf("escaped: %+v", hits)
	}
}

func TestRulesAndTree(t *testing.T) {
	for _, id := range []string{"home", "a", "page-1", "_x", "a_b-c", strings.Repeat("a", 64)} {
		if !ValidID(id) {
			t.Errorf("%q refused", id)
		}
	}
	for _, id := range []string{"", "-a", "A", "a b", "a.b", "a/b", "..", "master-page", "sitemap", strings.Repeat("a", 65), "é"} {
		if ValidID(id) {
			t.Errorf("%q accepted", id)
		}
	}
	for _, n := range []string{"Home", "Crew news 2", "Über_uns", "a-b", "مرحبا"} {
		if !ValidName(n) {
			t.Errorf("name %q refused", n)
		}
	}
	for _, n := range []string{"", "-a", " a", "a/b", "a.b", "<b>"} {
		if ValidName(n) {
			t.Errorf("name %q accepted", n)
		}
	}
	root, _ := ParseSitemap([]byte(`[{"id":"a","title":"A","url":"/pages/a.html","children":[{"id":"b","title":"B","url":"/pages/b.html"}]},{"id":"c","title":"C","url":"/pages/c.html","deactived":true}]`))
	if p, parent, i := find(root, "b"); p == nil || parent.ID != "a" || i != 0 {
		t.Fatal("find b")
	}
	if !contains(root.Children[0], "b") || contains(root.Children[0], "c") {
		t.Fatal("contains")
	}
	out, _ := EncodeSitemap(root)
	want := "[\n  {\n    \"id\": \"a\",\n    \"title\": \"A\",\n    \"url\": \"/pages/a.html\",\n    \"parameters\": [],\n    \"hidePage\": false,\n    \"status\": \"\",\n    \"children\": [\n"
	if !strings.HasPrefix(string(out), want) || !strings.Contains(string(out), `"deactived": true`) || strings.Count(string(out), "deactived") != 1 || strings.Contains(string(out), "isMaster") {
		t.Fatalf("encoded: %s", out)
	}
	// The crew template's sitemap encodes back to its own bytes.
	again, _ := ParseSitemap(out)
	if out2, _ := EncodeSitemap(again); string(out2) != string(out) {
		t.Fatal("not stable")
	}
}

func TestWidgetObjectOrder(t *testing.T) {
	o, err := parseObject([]byte(`{"type":"hero","data":{"a":1},"extra":[1,2]}`))
	if err != nil {
		t.Fatal(err)
	}
	o.set("mediaQueries", []byte(`{"(max-width: 600px)":{"a":2}}`))
	o.set("data", []byte(`{"a":3}`))
	o.remove("extra")
	b, _ := o.marshal()
	if string(b) != `{"type":"hero","data":{"a":3},"mediaQueries":{"(max-width: 600px)":{"a":2}}}` {
		t.Fatalf("%s", b)
	}
	for _, bad := range []string{`[]`, `"x"`, `{"a":}`, ``} {
		if _, err := parseObject([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// cutAll cuts the snippets of hits, as the answer does.
func cutAll(hits []Hit, over bool) ([]Hit, bool) {
	for i := range hits {
		hits[i].cut()
	}
	return hits, over
}
