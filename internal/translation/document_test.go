package translation

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// edit reads a nested file, applies set and answers the file as written.
func edit(t *testing.T, in string, set Set) string {
	t.Helper()
	doc, why := parseDocument([]byte(in))
	if why != "" {
		t.Fatalf("parse: %s", why)
	}
	if _, why := doc.texts(); why != "" {
		t.Fatalf("texts: %s", why)
	}
	doc.apply(set, nil)
	return string(doc.bytes())
}

func textsOf(t *testing.T, in string) Set {
	t.Helper()
	doc, why := parseDocument([]byte(in))
	if why != "" {
		t.Fatalf("parse: %s", why)
	}
	set, why := doc.texts()
	if why != "" {
		t.Fatalf("texts: %s", why)
	}
	return set
}

// with is set with the changes (a "" value with delete=true removes the key).
func with(set Set, kv ...string) Set {
	out := maps.Clone(set)
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "\x00" {
			delete(out, kv[i])
			continue
		}
		out[kv[i]] = kv[i+1]
	}
	return out
}

const del = "\x00"

func TestNestedRoundTripKeepsBytes(t *testing.T) {
	for name, in := range map[string]string{
		"two spaces":   "{\n  \"nav\": {\n    \"home\": \"Home\",\n    \"about\": \"About\"\n  },\n  \"title\": \"T\"\n}\n",
		"four spaces":  "{\n    \"z\": {\n        \"a\": \"A\"\n    },\n    \"b\": \"B\"\n}",
		"tabs":         "{\n\t\"nav\": {\n\t\t\"home\": \"Home\"\n\t}\n}\n",
		"crlf":         "{\r\n  \"nav\": {\r\n    \"home\": \"Home\"\r\n  }\r\n}\r\n",
		"compact":      `{"nav":{"home":"Home","about":"About"},"x":"y"}`,
		"inline":       "{\n  \"nav\": { \"home\": \"Home\", \"about\": \"About\" },\n  \"x\" : \"y\"\n}\n",
		"escapes":      "{\n  \"a\": {\n    \"b\": \"caf\\u00e9 \\\"q\\\" <b>x</b>\"\n  }\n}\n",
		"bom and null": "\ufeff{\n  \"a\": {\n    \"b\": null,\n    \"e\": {}\n  }\n}\n\n",
	} {
		t.Run(name, func(t *testing.T) {
			set := textsOf(t, in)
			if got := edit(t, in, set); got != in {
				t.Fatalf("untouched document rewritten:\n%q\nwant\n%q", got, in)
			}
		})
	}
}

func TestNestedEditInPlace(t *testing.T) {
	const en = "{\n    \"nav\": {\n        \"home\": \"Home\",\n        \"about\": \"About\"\n    },\n    \"footer\": {\n        \"legal\": \"Legal\"\n    },\n    \"title\": \"Welcome\"\n}\n"
	base := textsOf(t, en)
	if want := (Set{"nav.home": "Home", "nav.about": "About", "footer.legal": "Legal", "title": "Welcome"}); !maps.Equal(base, want) {
		t.Fatalf("texts: %v", base)
	}
	cases := []struct {
		name string
		set  Set
		want string
	}{
		{"a changed value", with(base, "nav.about", "About us"),
			"{\n    \"nav\": {\n        \"home\": \"Home\",\n        \"about\": \"About us\"\n    },\n    \"footer\": {\n        \"legal\": \"Legal\"\n    },\n    \"title\": \"Welcome\"\n}\n"},
		{"minimal escaping", with(base, "title", "<b>Tom & \"Jerry\"</b>\\ é\n"),
			"{\n    \"nav\": {\n        \"home\": \"Home\",\n        \"about\": \"About\"\n    },\n    \"footer\": {\n        \"legal\": \"Legal\"\n    },\n    \"title\": \"<b>Tom & \\\"Jerry\\\"</b>\\\\ é\\n\"\n}\n"},
		{"a new key in an object, a new object", with(base, "nav.contact", "Contact", "cookie.banner.text", "Cookies"),
			"{\n    \"nav\": {\n        \"home\": \"Home\",\n        \"about\": \"About\",\n        \"contact\": \"Contact\"\n    },\n    \"footer\": {\n        \"legal\": \"Legal\"\n    },\n    \"title\": \"Welcome\",\n    \"cookie\": {\n        \"banner\": {\n            \"text\": \"Cookies\"\n        }\n    }\n}\n"},
		{"removed keys, an emptied parent goes", with(base, "nav.home", del, "footer.legal", del),
			"{\n    \"nav\": {\n        \"about\": \"About\"\n    },\n    \"title\": \"Welcome\"\n}\n"},
		{"the last key of an object removed", with(base, "title", del),
			"{\n    \"nav\": {\n        \"home\": \"Home\",\n        \"about\": \"About\"\n    },\n    \"footer\": {\n        \"legal\": \"Legal\"\n    }\n}\n"},
		{"a text becomes a group", with(base, "title", del, "title.main", "Welcome"),
			"{\n    \"nav\": {\n        \"home\": \"Home\",\n        \"about\": \"About\"\n    },\n    \"footer\": {\n        \"legal\": \"Legal\"\n    },\n    \"title\": {\n        \"main\": \"Welcome\"\n    }\n}\n"},
		{"everything removed", Set{}, "{}\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := edit(t, en, c.set)
			if got != c.want {
				t.Fatalf("got\n%s\nwant\n%s", got, c.want)
			}
			if back := textsOf(t, got); !maps.Equal(back, c.set) {
				t.Fatalf("reads back as %v, want %v", back, c.set)
			}
		})
	}
}

func TestNestedEditKeepsStyle(t *testing.T) {
	// Tabs and CRLF; a new key follows its siblings.
	in := "{\r\n\t\"nav\": {\r\n\t\t\"home\": \"Home\"\r\n\t}\r\n}\r\n"
	got := edit(t, in, Set{"nav.home": "Start", "nav.news": "News", "x": "X"})
	want := "{\r\n\t\"nav\": {\r\n\t\t\"home\": \"Start\",\r\n\t\t\"news\": \"News\"\r\n\t},\r\n\t\"x\": \"X\"\r\n}\r\n"
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	// Compact stays compact, without a trailing newline.
	got = edit(t, `{"nav":{"home":"Home"}}`, Set{"nav.home": "Home", "nav.more.a": "A"})
	if want := `{"nav":{"home":"Home","more":{"a":"A"}}}`; got != want {
		t.Fatalf("compact: got %s", got)
	}
	// An inline object keeps its spacing; untouched neighbours keep theirs.
	got = edit(t, "{\n  \"nav\": { \"home\": \"Home\" },\n  \"a\" :  \"b\"\n}\n", Set{"nav.home": "Home", "nav.x": "X", "a": "b"})
	if want := "{\n  \"nav\": { \"home\": \"Home\", \"x\": \"X\" },\n  \"a\" :  \"b\"\n}\n"; got != want {
		t.Fatalf("inline: got %q", got)
	}
	// Null stays null while empty; an empty object stays.
	in = "{\n  \"a\": {\n    \"b\": null,\n    \"e\": {}\n  }\n}\n"
	got = edit(t, in, Set{"a.b": "", "a.e.f": "F"})
	if want := "{\n  \"a\": {\n    \"b\": null,\n    \"e\": {\n      \"f\": \"F\"\n    }\n  }\n}\n"; got != want {
		t.Fatalf("null and empty object: got %q", got)
	}
	// A new document in a detected style.
	doc := newDocument(style{newline: "\n", indent: "\t", sep: ": "})
	doc.apply(Set{"b.x": "1", "a": "2"}, map[string]int{"a": 0, "b.x": 1})
	if got, want := string(doc.bytes()), "{\n\t\"a\": \"2\",\n\t\"b\": {\n\t\t\"x\": \"1\"\n\t}\n}\n"; got != want {
		t.Fatalf("new document: got %q", got)
	}
}

func TestNestedUnreadable(t *testing.T) {
	for in, want := range map[string]string{
		"{\n  \"nav\": {\n    \"items\": [1, 2]\n  }\n}": "the value at nav.items is an array; translation files hold texts (strings) in objects",
		`{"a": {"b": 1}}`:                          "the value at a.b is a number; translation files hold texts (strings) in objects",
		`{"a": {"b": true}}`:                       "the value at a.b is a boolean; translation files hold texts (strings) in objects",
		`{"a": {"": "x"}}`:                         `a key at a is empty (""); every level of a key needs a name`,
		`{"a": {"b.c": "x"}}`:                      "the key 'b.c' at a holds a dot, which the Translation Manager uses to join the levels of a nested key",
		`{"a": {"b": "x", "b": "y"}}`:              "the key 'b' is written twice at a",
		"{\n  \"a\": {\n    \"b\": \"x\",\n  }\n}": "is not valid JSON: line 4, column 3: invalid character '}' looking for beginning of object key string",
		`["a"]`:               "holds an array, not an object; translation files hold texts (strings) in objects",
		"{\n  \"a\": \"b\"\n": "is not valid JSON: line 2, column 11: the text ends before the JSON does",
	} {
		doc, why := parseDocument([]byte(in))
		if why == "" {
			_, why = doc.texts()
		}
		if why != want {
			t.Errorf("%s:\n got %s\nwant %s", in, why, want)
		}
	}
}

func TestFileNames(t *testing.T) {
	pl := portalLanguages{languages: []string{"en_GB", "pt_BR", "pt_PT", "fr_FR", "de"}}
	for lang, want := range map[string]string{
		"pt_BR": "pt_BR.json pt-BR.json pt-br.json pt_br.json",
		"fr_FR": "fr_FR.json fr-FR.json fr-fr.json fr_fr.json fr.json",
		"de":    "de.json",
	} {
		if got := strings.Join(pl.fileNames(lang), " "); got != want {
			t.Errorf("%s: %s", lang, got)
		}
	}
}

func TestCheckNestedKeys(t *testing.T) {
	set, errs := CheckNestedKeys("en", map[string]string{
		"nav.home": "Home", "Nav.Home": "Home", "txt_a": "a", "a..b": "x", ".a": "x", "a.": "x",
		"title": "T", "title.sub": "S", "bad\tkey": "x",
	})
	if want := []string{"Nav.Home", "nav.home", "title", "txt_a"}; !slices.Equal(slices.Sorted(maps.Keys(set)), want) {
		t.Errorf("kept: %v", set)
	}
	var got []string
	for _, e := range errs {
		got = append(got, e.Key+": "+e.Message)
	}
	want := []string{
		".a: Translation key '.a' has an empty level: the levels of a nested key are names joined by single dots (nav.home)",
		"a.: Translation key 'a.' has an empty level: the levels of a nested key are names joined by single dots (nav.home)",
		"a..b: Translation key 'a..b' has an empty level: the levels of a nested key are names joined by single dots (nav.home)",
		"bad\tkey: Translation key 'bad\tkey' holds a control character",
		"title.sub: Translation key 'title.sub' cannot be added below 'title', which holds a text: a key is either a text or a group of keys",
	}
	if !slices.Equal(got, want) {
		t.Errorf("errors:\n%s", strings.Join(got, "\n"))
	}
}

func TestNestedKeysAreTexts(t *testing.T) {
	data := map[string]Set{"en": {"IMG_A": "a.png"}, "fr": {"IMG_A": "a.png"}}
	if got := StatusIn(LayoutNested, data, "en", []string{"fr"}, "fr", "IMG_A"); got != (KeyStatus{StatusIncomplete, ReasonRequired}) {
		t.Errorf("nested: %+v", got)
	}
	if got := StatusIn(LayoutFlat, data, "en", []string{"fr"}, "fr", "IMG_A"); got != (KeyStatus{StatusCompleted, ReasonNone}) {
		t.Errorf("flat: %+v", got)
	}
}
