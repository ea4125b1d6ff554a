package merge

import (
	"errors"
	"strings"
	"testing"
)

func sp(s string) *string { return &s }

func deref(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

// bs turns test text into a file; "<nil>" is an absent file.
func bs(s string) []byte {
	if s == "<nil>" {
		return nil
	}
	return []byte(s)
}

func merge(t *testing.T, path, base, mine, theirs string, choices map[string]Choice) *Result {
	t.Helper()
	r, err := Merge(path, bs(base), bs(mine), bs(theirs), Options{Choices: choices})
	if err != nil {
		t.Fatalf("Merge: %v", err)
	}
	if r.Conflicts == nil {
		t.Fatalf("Conflicts is nil")
	}
	return r
}

// clean merges and expects no conflict and the given file.
func clean(t *testing.T, path, base, mine, theirs, want string) {
	t.Helper()
	r := merge(t, path, base, mine, theirs, nil)
	if r.Unresolved != 0 || len(r.Conflicts) != 0 {
		t.Fatalf("unexpected conflicts: %s", dumpConflicts(r.Conflicts))
	}
	if got := string(r.Merged); got != want {
		t.Fatalf("merged:\n%s\nwant:\n%s", got, want)
	}
}

func dumpConflicts(cs []Conflict) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString(c.ID + " | " + c.Path + " | base=" + deref(c.Base) + " mine=" + deref(c.Mine) + " theirs=" + deref(c.Theirs) + " | " + c.Reason + "\n")
	}
	return b.String()
}

// oneConflict merges and expects exactly the conflict want (ID, Path,
// values and, if set, Reason).
func oneConflict(t *testing.T, path, base, mine, theirs string, want Conflict) {
	t.Helper()
	r := merge(t, path, base, mine, theirs, nil)
	if r.Unresolved != 1 || len(r.Conflicts) != 1 || r.Merged != nil {
		t.Fatalf("want one unresolved conflict, got %d (merged %q):\n%s", r.Unresolved, r.Merged, dumpConflicts(r.Conflicts))
	}
	c := r.Conflicts[0]
	if c.ID != want.ID || c.Path != want.Path || deref(c.Base) != deref(want.Base) ||
		deref(c.Mine) != deref(want.Mine) || deref(c.Theirs) != deref(want.Theirs) ||
		(want.Reason != "" && c.Reason != want.Reason) {
		t.Fatalf("conflict:\n%s\nwant:\n%s", dumpConflicts(r.Conflicts), dumpConflicts([]Conflict{want}))
	}
}

func resolved(t *testing.T, path, base, mine, theirs string, choices map[string]Choice, want string) {
	t.Helper()
	r := merge(t, path, base, mine, theirs, choices)
	if r.Unresolved != 0 {
		t.Fatalf("still unresolved:\n%s", dumpConflicts(r.Conflicts))
	}
	if len(r.Conflicts) == 0 {
		t.Fatalf("resolved conflicts must still be listed")
	}
	if got := string(r.Merged); got != want {
		t.Fatalf("merged:\n%s\nwant:\n%s", got, want)
	}
}

func TestKindOf(t *testing.T) {
	for path, want := range map[string]Kind{
		"portal.json":                 KindJSON,
		"pages/menu.JSON":             KindJSON,
		"schemas/page.schema":         KindJSON,
		"map.geojson":                 KindJSON,
		"translations/en_GB.json":     KindTranslation,
		"sub/translations/de_DE.json": KindTranslation,
		"mytranslations/de_DE.json":   KindJSON,
		"index.html":                  KindText,
		"style.css":                   KindText,
		"logo.svg":                    KindText,
		"README":                      KindText,
		"images/logo.PNG":             KindBinary,
		"fonts/a.woff2":               KindBinary,
		"docs/menu.pdf":               KindBinary,
	} {
		if got := KindOf(path, nil); got != want {
			t.Errorf("KindOf(%q) = %q, want %q", path, got, want)
		}
	}
	if got := KindOf("data.bin", []byte("ab\x00cd")); got != KindBinary {
		t.Errorf("NUL content: got %q", got)
	}
	if got := KindOf("data.bin", []byte("plain")); got != KindText {
		t.Errorf("plain content: got %q", got)
	}
	late := append([]byte(strings.Repeat("a", 9000)), 0)
	if got := KindOf("data.bin", late); got != KindText {
		t.Errorf("NUL after 8000 bytes: got %q", got)
	}
	if got := KindOf("page.html", []byte("a\x00")); got != KindText {
		t.Errorf("known text extension: got %q", got)
	}
}

func TestFastPaths(t *testing.T) {
	for _, tc := range []struct {
		name               string
		base, mine, theirs string
		want               string // "<nil>" = deleted
	}{
		{"same both", "a", "b", "b", "b"},
		{"mine unchanged", "a", "a", "c", "c"},
		{"theirs unchanged", "a", "b", "a", "b"},
		{"deleted in mine, unchanged theirs", "a", "<nil>", "a", "<nil>"},
		{"deleted in theirs, unchanged mine", "a", "a", "<nil>", "<nil>"},
		{"deleted both", "a", "<nil>", "<nil>", "<nil>"},
		{"added both same", "<nil>", "x", "x", "x"},
		{"added theirs only", "<nil>", "<nil>", "x", "x"},
		{"added mine only", "<nil>", "x", "<nil>", "x"},
		{"emptied in mine", "a", "", "a", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, path := range []string{"a.txt", "a.json", "a.png"} {
				r := merge(t, path, tc.base, tc.mine, tc.theirs, nil)
				if r.Unresolved != 0 || len(r.Conflicts) != 0 {
					t.Fatalf("%s: conflicts %s", path, dumpConflicts(r.Conflicts))
				}
				if tc.want == "<nil>" {
					if !r.Deleted || r.Merged != nil {
						t.Fatalf("%s: want deleted, got %q deleted=%v", path, r.Merged, r.Deleted)
					}
					continue
				}
				if r.Deleted || r.Merged == nil || string(r.Merged) != tc.want {
					t.Fatalf("%s: got %q deleted=%v, want %q", path, r.Merged, r.Deleted, tc.want)
				}
			}
		})
	}
	// Bytes are kept exactly, even when another layout would be "equal".
	base, mine := `{"a":1}`, "{\n    \"a\": 2\n}"
	clean(t, "x.json", base, mine, base, mine)
}

func TestDeleteVsModify(t *testing.T) {
	oneConflict(t, "page.html", "a\n", "<nil>", "b\n", Conflict{
		ID: "file", Path: "whole file", Base: sp("a\n"), Theirs: sp("b\n"), Reason: "deleted in mine, changed in theirs",
	})
	oneConflict(t, "portal.json", `{"a":1}`, `{"a":2}`, "<nil>", Conflict{
		ID: "file", Path: "whole file", Base: sp(`{"a":1}`), Mine: sp(`{"a":2}`), Reason: "deleted in theirs, changed in mine",
	})
	r := merge(t, "page.html", "a\n", "<nil>", "b\n", map[string]Choice{"file": {Take: "mine"}})
	if r.Unresolved != 0 || !r.Deleted || r.Merged != nil {
		t.Fatalf("take mine = delete: %+v", r)
	}
	resolved(t, "page.html", "a\n", "<nil>", "b\n", map[string]Choice{"file": {Take: "theirs"}}, "b\n")
	resolved(t, "page.html", "a\n", "<nil>", "b\n", map[string]Choice{"file": {Take: "value", Value: sp("c\n")}}, "c\n")
}

func TestBinary(t *testing.T) {
	oneConflict(t, "logo.png", "\x89PNG1", "\x89PNG2", "\x89PNG3", Conflict{
		ID: "file", Path: "whole file", Reason: "both sides changed this binary file",
	})
	resolved(t, "logo.png", "\x89PNG1", "\x89PNG2", "\x89PNG3", map[string]Choice{"file": {Take: "mine"}}, "\x89PNG2")
	resolved(t, "logo.png", "\x89PNG1", "\x89PNG2", "\x89PNG3", map[string]Choice{"file": {Take: "theirs"}}, "\x89PNG3")
	// Unknown extension sniffed as binary.
	oneConflict(t, "blob.dat", "a\x00", "b\x00", "c\x00", Conflict{ID: "file", Path: "whole file"})
}

const transBase = `{
  "TXT_A": "a",
  "TXT_B": "b"
}
`

func TestTranslations(t *testing.T) {
	const path = "translations/en_GB.json"
	mineA := strings.Replace(transBase, `"a"`, `"mine A"`, 1)
	theirsB := strings.Replace(transBase, `"b"`, `"theirs B"`, 1)
	clean(t, path, transBase, mineA, theirsB, `{
  "TXT_A": "mine A",
  "TXT_B": "theirs B"
}
`)

	// Both edit TXT_A; theirs also edits TXT_B.
	theirs := strings.Replace(theirsB, `"a"`, `"theirs A"`, 1)
	oneConflict(t, path, transBase, mineA, theirs, Conflict{
		ID: "/TXT_A", Path: "TXT_A", Base: sp(`"a"`), Mine: sp(`"mine A"`), Theirs: sp(`"theirs A"`), Reason: "changed on both sides",
	})
	resolved(t, path, transBase, mineA, theirs, map[string]Choice{"/TXT_A": {Take: "mine"}}, `{
  "TXT_A": "mine A",
  "TXT_B": "theirs B"
}
`)
	resolved(t, path, transBase, mineA, theirs, map[string]Choice{"/TXT_A": {Take: "theirs"}}, theirs)
	resolved(t, path, transBase, mineA, theirs, map[string]Choice{"/TXT_A": {Take: "base"}}, `{
  "TXT_A": "a",
  "TXT_B": "theirs B"
}
`)
	resolved(t, path, transBase, mineA, theirs, map[string]Choice{"/TXT_A": {Take: "value", Value: sp(`"<b>Both</b> & \"more\""`)}}, `{
  "TXT_A": "<b>Both</b> & \"more\"",
  "TXT_B": "theirs B"
}
`)
	resolved(t, path, transBase, mineA, theirs, map[string]Choice{"/TXT_A": {Take: "value"}}, `{
  "TXT_B": "theirs B"
}
`)
	// An unrelated choice leaves the conflict.
	r := merge(t, path, transBase, mineA, theirs, map[string]Choice{"/TXT_B": {Take: "mine"}})
	if r.Unresolved != 1 || r.Merged != nil {
		t.Fatalf("stale choice resolved something: %+v", r)
	}
	// Invalid choices are errors.
	if _, err := Merge(path, []byte(transBase), []byte(mineA), []byte(theirs), Options{Choices: map[string]Choice{"/TXT_A": {Take: "value", Value: sp(`{bad`)}}}); !errors.Is(err, ErrInvalidChoice) {
		t.Fatalf("bad value: err = %v", err)
	}
	if _, err := Merge(path, []byte(transBase), []byte(mineA), []byte(theirs), Options{Choices: map[string]Choice{"/TXT_A": {Take: "both"}}}); !errors.Is(err, ErrInvalidChoice) {
		t.Fatalf("bad take: err = %v", err)
	}

	// Both add the same key: one copy; different values: conflict "both added".
	mineC := strings.Replace(transBase, `"b"`, `"b",`+"\n"+`  "TXT_C": "c"`, 1)
	clean(t, path, transBase, mineC, mineC+" ", mineC) // equal trees: mine's bytes
	theirsC := strings.Replace(transBase, `"b"`, `"b",`+"\n"+`  "TXT_C": "see"`, 1)
	oneConflict(t, path, transBase, mineC, theirsC, Conflict{
		ID: "/TXT_C", Path: "TXT_C", Mine: sp(`"c"`), Theirs: sp(`"see"`), Reason: "both added",
	})
	// Deleted in mine, changed in theirs.
	oneConflict(t, path, transBase, "{\n  \"TXT_B\": \"b\"\n}\n", theirs, Conflict{
		ID: "/TXT_A", Path: "TXT_A", Base: sp(`"a"`), Theirs: sp(`"theirs A"`), Reason: "deleted in mine, changed in theirs",
	})
	// Deleted in mine, unchanged in theirs: deleted.
	clean(t, path, transBase, "{\n  \"TXT_B\": \"b\"\n}\n", theirsB, "{\n  \"TXT_B\": \"theirs B\"\n}\n")
}

func TestNestedLocale(t *testing.T) {
	base := `{
  "nav": {
    "home": "Home",
    "about": "About"
  },
  "footer": {
    "copy": "(c) Cafe"
  }
}
`
	mine := strings.Replace(base, `"Home"`, `"Start"`, 1)
	theirs := strings.Replace(strings.Replace(base, `"About"`, `"About us"`, 1), `"(c) Cafe"`, `"(c) Cafe",
    "legal": "Imprint"`, 1)
	want := `{
  "nav": {
    "home": "Start",
    "about": "About us"
  },
  "footer": {
    "copy": "(c) Cafe",
    "legal": "Imprint"
  }
}
`
	clean(t, "translations/de/common.json", base, mine, theirs, want)
	clean(t, "locales/de.json", base, mine, theirs, want)

	theirsHome := strings.Replace(theirs, `"Home"`, `"Homepage"`, 1)
	oneConflict(t, "translations/de.json", base, mine, theirsHome, Conflict{
		ID: "/nav/home", Path: "nav.home", Base: sp(`"Home"`), Mine: sp(`"Start"`), Theirs: sp(`"Homepage"`),
	})
	oneConflict(t, "locales/de.json", base, mine, theirsHome, Conflict{
		ID: "/nav/home", Path: "nav › home", Base: sp(`"Home"`), Mine: sp(`"Start"`), Theirs: sp(`"Homepage"`),
	})
}

const menuBase = `{
  "menu": [
    {
      "id": "breakfast",
      "title": "Breakfast",
      "price": 5.00
    },
    {
      "id": "lunch",
      "title": "Lunch",
      "price": 9.50
    },
    {
      "id": "dinner",
      "title": "Dinner",
      "price": 15.00
    }
  ]
}
`

func menuItem(id, title, price string) string {
	return "    {\n      \"id\": \"" + id + "\",\n      \"title\": \"" + title + "\",\n      \"price\": " + price + "\n    }"
}

func menuFileOf(items ...string) string {
	return "{\n  \"menu\": [\n" + strings.Join(items, ",\n") + "\n  ]\n}\n"
}

var (
	breakfast = menuItem("breakfast", "Breakfast", "5.00")
	lunch     = menuItem("lunch", "Lunch", "9.50")
	dinner    = menuItem("dinner", "Dinner", "15.00")
)

func TestMenuWithIDs(t *testing.T) {
	if menuFileOf(breakfast, lunch, dinner) != menuBase {
		t.Fatal("menuFileOf does not rebuild menuBase")
	}
	snack := menuItem("snack", "Snack", "3.20")
	brunch := menuItem("brunch", "Brunch", "12.00")

	// Two appends keep both, theirs first.
	clean(t, "menu.json", menuBase,
		menuFileOf(breakfast, lunch, dinner, snack),
		menuFileOf(breakfast, lunch, dinner, brunch),
		menuFileOf(breakfast, lunch, dinner, brunch, snack))

	// Numeric ids, compact files: the example from the rules.
	clean(t, "x.json", `[{"id":1}]`, `[{"id":1},{"id":2}]`, `[{"id":1},{"id":3}]`, `[{"id":1},{"id":3},{"id":2}]`)

	// Insertions in the middle stay where their side put them.
	clean(t, "menu.json", menuBase,
		menuFileOf(breakfast, snack, lunch, dinner),
		menuFileOf(breakfast, lunch, brunch, dinner),
		menuFileOf(breakfast, snack, lunch, brunch, dinner))

	// A move by one side and an edit by the other combine.
	lunchCheap := menuItem("lunch", "Lunch", "8.90")
	clean(t, "menu.json", menuBase,
		menuFileOf(dinner, breakfast, lunch),
		menuFileOf(breakfast, lunchCheap, dinner),
		menuFileOf(dinner, breakfast, lunchCheap))
	clean(t, "menu.json", menuBase,
		menuFileOf(breakfast, lunchCheap, dinner),
		menuFileOf(dinner, breakfast, lunch),
		menuFileOf(dinner, breakfast, lunchCheap))

	// Delete (mine) vs edit (theirs): a conflict at theirs' pointer.
	oneConflict(t, "menu.json", menuBase,
		menuFileOf(breakfast, dinner),
		menuFileOf(breakfast, lunchCheap, dinner),
		Conflict{ID: "/menu/1", Path: "menu › lunch", Base: sp(`{"id":"lunch","title":"Lunch","price":9.50}`),
			Theirs: sp(`{"id":"lunch","title":"Lunch","price":8.90}`), Reason: "deleted in mine, changed in theirs"})
	resolved(t, "menu.json", menuBase, menuFileOf(breakfast, dinner), menuFileOf(breakfast, lunchCheap, dinner),
		map[string]Choice{"/menu/1": {Take: "mine"}}, menuFileOf(breakfast, dinner))
	resolved(t, "menu.json", menuBase, menuFileOf(breakfast, dinner), menuFileOf(breakfast, lunchCheap, dinner),
		map[string]Choice{"/menu/1": {Take: "theirs"}}, menuFileOf(breakfast, lunchCheap, dinner))
	// Edit (mine) vs delete (theirs): the pointer is into mine.
	oneConflict(t, "menu.json", menuBase,
		menuFileOf(breakfast, lunch, menuItem("dinner", "Supper", "15.00")),
		menuFileOf(breakfast, lunch),
		Conflict{ID: "/menu/2", Path: "menu › dinner", Base: sp(`{"id":"dinner","title":"Dinner","price":15.00}`),
			Mine: sp(`{"id":"dinner","title":"Supper","price":15.00}`), Reason: "deleted in theirs, changed in mine"})
	// Delete vs unchanged: deleted.
	clean(t, "menu.json", menuBase, menuFileOf(breakfast, dinner), menuFileOf(breakfast, lunch, dinner, brunch),
		menuFileOf(breakfast, dinner, brunch))

	// Both edit the same field of the same item.
	oneConflict(t, "menu.json", menuBase,
		menuFileOf(breakfast, menuItem("lunch", "Lunch", "9.00"), dinner),
		menuFileOf(dinner, breakfast, menuItem("lunch", "Lunch", "10.00")),
		Conflict{ID: "/menu/2/price", Path: "menu › lunch › price", Base: sp(`9.50`), Mine: sp(`9.00`), Theirs: sp(`10.00`)})
	// Both edit different fields of the same item.
	clean(t, "menu.json", menuBase,
		menuFileOf(breakfast, menuItem("lunch", "Lunch", "9.00"), dinner),
		menuFileOf(breakfast, menuItem("lunch", "Light lunch", "9.50"), dinner),
		menuFileOf(breakfast, menuItem("lunch", "Light lunch", "9.00"), dinner))

	// Same id added on both sides with different content: merged as objects.
	clean(t, "x.json", `{"menu":[]}`,
		`{"menu":[{"id":"x","title":"X"}]}`,
		`{"menu":[{"id":"x","price":1}]}`,
		`{"menu":[{"id":"x","title":"X","price":1}]}`)

	// Both reorder differently: a conflict at the array; choices pick the order.
	m, th := menuFileOf(dinner, breakfast, lunch), menuFileOf(lunch, breakfast, dinner)
	r := merge(t, "menu.json", menuBase, m, th, nil)
	if r.Unresolved != 1 || r.Conflicts[0].ID != "/menu" || r.Conflicts[0].Reason != "reordered on both sides" {
		t.Fatalf("reorder conflict: %s", dumpConflicts(r.Conflicts))
	}
	resolved(t, "menu.json", menuBase, m, th, map[string]Choice{"/menu": {Take: "mine"}}, m)
	resolved(t, "menu.json", menuBase, m, th, map[string]Choice{"/menu": {Take: "base"}}, menuBase)
	// Both reorder the same way: fine.
	clean(t, "menu.json", menuBase, m, m+"\n", m)
}

func TestMenuWithoutIDs(t *testing.T) {
	base := `[
  {"title": "Soup", "price": 4},
  {"title": "Salad", "price": 5}
]
`
	mine := `[
  {"title": "Soup", "price": 4},
  {"title": "Salad", "price": 5},
  {"title": "Cake", "price": 3}
]
`
	theirs := `[
  {"title": "Soup", "price": 4},
  {"title": "Salad", "price": 5},
  {"title": "Pie", "price": 3}
]
`
	// Theirs' items keep their exact text; mine's get theirs' indentation.
	clean(t, "menu.json", base, mine, theirs, `[
  {"title": "Soup", "price": 4},
  {"title": "Salad", "price": 5},
  {"title": "Pie", "price": 3},
  {
    "title": "Cake",
    "price": 3
  }
]
`)
	// Without ids an edited item is another item: delete + add. Both
	// additions end up after "Soup", theirs' first.
	clean(t, "menu.json", `[{"title":"Soup"},{"title":"Salad"}]`,
		`[{"title":"Soup"},{"title":"Green salad"}]`,
		`[{"title":"Soup"},{"title":"Salad"},{"title":"Pie"}]`,
		`[{"title":"Soup"},{"title":"Pie"},{"title":"Green salad"}]`)
	// Repeated identical items are told apart by occurrence.
	clean(t, "x.json", `["a","b","a"]`, `["a","b","a","c"]`, `["a","a"]`, `["a","a","c"]`)
}

const sitemapBase = `{
  "pages": [
    {
      "id": "home",
      "title": "Home",
      "children": [
        {
          "id": "menu",
          "title": "Menu",
          "children": []
        },
        {
          "id": "contact",
          "title": "Contact",
          "children": []
        }
      ]
    },
    {
      "id": "about",
      "title": "About",
      "children": []
    }
  ]
}
`

func TestSitemapMoveAndEdit(t *testing.T) {
	// Mine moves "contact" under "about"; theirs renames "menu".
	mine := `{"pages":[
  {"id":"home","title":"Home","children":[{"id":"menu","title":"Menu","children":[]}]},
  {"id":"about","title":"About","children":[{"id":"contact","title":"Contact","children":[]}]}
]}`
	theirs := strings.Replace(sitemapBase, `"Menu"`, `"Our menu"`, 1)
	clean(t, "sitemap.json", sitemapBase, mine, theirs, `{
  "pages": [
    {
      "id": "home",
      "title": "Home",
      "children": [
        {
          "id": "menu",
          "title": "Our menu",
          "children": []
        }
      ]
    },
    {
      "id": "about",
      "title": "About",
      "children": [
        {
          "id": "contact",
          "title": "Contact",
          "children": []
        }
      ]
    }
  ]
}
`)
	// Theirs renames the new parent: both changes land on "about".
	theirs = strings.Replace(sitemapBase, `"About"`, `"About us"`, 1)
	r := merge(t, "sitemap.json", sitemapBase, mine, theirs, nil)
	if r.Unresolved != 0 || !strings.Contains(string(r.Merged), `"title": "About us",
      "children": [
        {
          "id": "contact"`) {
		t.Fatalf("merged:\n%s\n%s", r.Merged, dumpConflicts(r.Conflicts))
	}
}

func TestPortalLanguages(t *testing.T) {
	base := `{
    "name": "Cafe",
    "languages": ["en_GB", "de_DE"],
    "theme": {"color": "#ffffff"}
}`
	mine := strings.Replace(base, `"de_DE"]`, `"de_DE", "fr_FR"]`, 1)
	theirs := strings.Replace(strings.Replace(base, `"de_DE"]`, `"de_DE", "it_IT"]`, 1), "#ffffff", "#000000", 1)
	// The changed list gets theirs' indentation; theirs' untouched theme
	// keeps its exact text.
	clean(t, "portal.json", base, mine, theirs, `{
    "name": "Cafe",
    "languages": [
        "en_GB",
        "de_DE",
        "it_IT",
        "fr_FR"
    ],
    "theme": {"color": "#000000"}
}`)
	// One removes a language, the other adds one.
	mine = strings.Replace(base, `"en_GB", `, ``, 1)
	clean(t, "portal.json", base, mine, theirs, `{
    "name": "Cafe",
    "languages": [
        "de_DE",
        "it_IT"
    ],
    "theme": {"color": "#000000"}
}`)
}

func TestKeyOrderAndIndentation(t *testing.T) {
	for _, indent := range []string{"  ", "    ", "\t"} {
		base := "{\n" + indent + "\"a\": 1,\n" + indent + "\"b\": {\n" + indent + indent + "\"x\": true\n" + indent + "},\n" + indent + "\"c\": 3\n}\n"
		// Mine adds "a2" after "a" and "z" at the end; theirs changes c and adds "d".
		mine := strings.Replace(base, "\"b\"", "\"a2\": [],\n"+indent+"\"b\"", 1)
		mine = strings.Replace(mine, "\"c\": 3", "\"c\": 3,\n"+indent+"\"z\": null", 1)
		theirs := strings.Replace(base, "\"c\": 3", "\"c\": 4,\n"+indent+"\"d\": {}", 1)
		want := "{\n" + indent + "\"a\": 1,\n" + indent + "\"a2\": [],\n" + indent + "\"b\": {\n" + indent + indent + "\"x\": true\n" + indent + "},\n" +
			indent + "\"c\": 4,\n" + indent + "\"z\": null,\n" + indent + "\"d\": {}\n}\n"
		clean(t, "x.json", base, mine, theirs, want)
	}
	// Theirs' layout wins: mine is two-space, theirs is tab-indented.
	clean(t, "x.json", "{\"a\":1,\"b\":2}", "{\n  \"a\": 10,\n  \"b\": 2\n}\n", "{\n\t\"a\": 1,\n\t\"b\": 20\n}",
		"{\n\t\"a\": 10,\n\t\"b\": 20\n}")
	// Compact theirs gives compact output; CRLF is kept.
	clean(t, "x.json", `{"a":1,"b":2}`, "{\r\n  \"a\": 10,\r\n  \"b\": 2\r\n}\r\n", `{"a": 1, "b": 20}`, `{"a":10,"b":20}`)
	clean(t, "x.json", `{"a":1,"b":2}`, `{"a":10,"b":2}`, "{\r\n  \"a\": 1,\r\n  \"b\": 20\r\n}\r\n", "{\r\n  \"a\": 10,\r\n  \"b\": 20\r\n}\r\n")
	// A key mine added at the very start stays first.
	clean(t, "x.json", `{"a":1,"b":2}`, `{"first":0,"a":1,"b":2}`, `{"a":1,"b":3}`, `{"first":0,"a":1,"b":3}`)
}

func TestNumbersAndStrings(t *testing.T) {
	base := `{"price":1.50,"big":12345678901234567890,"exp":1E+2,"s":"caf\u00e9 <b>","t":"x"}`
	mine := `{"price":1.50,"big":12345678901234567890,"exp":1E+2,"s":"caf\u00e9 <b>","t":"y","u":"ü & <i>\n"}`
	theirs := `{"price":1.50,"big":12345678901234567890,"exp":1E+2,"s":"caf\u00e9 <b>","t":"x","v":-0.0}`
	clean(t, "x.json", base, mine, theirs,
		`{"price":1.50,"big":12345678901234567890,"exp":1E+2,"s":"caf\u00e9 <b>","t":"y","u":"ü & <i>\n","v":-0.0}`)
	// Conflict values are compact, minimally escaped.
	oneConflict(t, "x.json", `{"s":"a"}`, `{"s":"caf\u00e9 \u003c"}`, `{"s":"\"quoted\"\t"}`, Conflict{
		ID: "/s", Path: "s", Base: sp(`"a"`), Mine: sp(`"café <"`), Theirs: sp(`"\"quoted\"\t"`),
	})
	oneConflict(t, "x.json", `{"s":"a"}`, `{"s":"\ud83d\ude00"}`, `{"s":"b"}`, Conflict{
		ID: "/s", Path: "s", Base: sp(`"a"`), Mine: sp(`"😀"`), Theirs: sp(`"b"`),
	})
	// Keys needing pointer escapes.
	oneConflict(t, "x.json", `{"a/b":{"~c":1}}`, `{"a/b":{"~c":2}}`, `{"a/b":{"~c":3}}`, Conflict{
		ID: "/a~1b/~0c", Path: "a/b › ~c", Base: sp(`1`), Mine: sp(`2`), Theirs: sp(`3`),
	})
	// Root conflict.
	oneConflict(t, "x.json", `1`, `2`, `3`, Conflict{ID: "", Path: "(root)", Base: sp("1"), Mine: sp("2"), Theirs: sp("3")})
}

func TestJSONTrailingNewline(t *testing.T) {
	clean(t, "x.json", "{\n  \"a\": 1,\n  \"b\": 2\n}", "{\n  \"a\": 9,\n  \"b\": 2\n}\n", "{\n  \"a\": 1,\n  \"b\": 8\n}",
		"{\n  \"a\": 9,\n  \"b\": 8\n}")
}

func TestJSONUnparsableFallsBackToText(t *testing.T) {
	base := "{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3,\n}\n" // trailing comma
	mine := strings.Replace(base, "1", "10", 1)
	theirs := strings.Replace(base, "3", "30", 1)
	r := merge(t, "x.json", base, mine, theirs, nil)
	if r.Unresolved != 1 || r.Conflicts[0].ID != "file" || !strings.HasPrefix(r.Conflicts[0].Reason, "The merged file is not valid JSON: ") {
		t.Fatalf("got %s", dumpConflicts(r.Conflicts))
	}
	resolved(t, "x.json", base, mine, theirs, map[string]Choice{"file": {Take: "value", Value: sp(`{"a":10}`)}}, `{"a":10}`)
	// Theirs repaired the file, mine edited a line far from it: text merge, valid result.
	base = "{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3,\n  \"d\": 4,\n}\n"
	clean(t, "x.json", base, strings.Replace(base, "1", "10", 1), strings.Replace(base, "4,", "4", 1),
		"{\n  \"a\": 10,\n  \"b\": 2,\n  \"c\": 3,\n  \"d\": 4\n}\n")
	// Unparsable text conflicts are hunks.
	r = merge(t, "x.json", base, strings.Replace(base, "1", "10", 1), strings.Replace(base, "1", "11", 1), nil)
	if r.Unresolved != 1 || r.Conflicts[0].ID != "hunk:1" {
		t.Fatalf("got %s", dumpConflicts(r.Conflicts))
	}
}

func TestValidate(t *testing.T) {
	base, mine, theirs := `{"a":1,"b":1}`, `{"a":2,"b":1}`, `{"a":1,"b":2}`
	bad := func(merged []byte) error {
		if strings.Contains(string(merged), `"a":2,"b":2`) {
			return errors.New("a and b cannot both be 2")
		}
		return nil
	}
	r, err := Merge("x.json", []byte(base), []byte(mine), []byte(theirs), Options{Validate: bad})
	if err != nil || r.Unresolved != 1 || r.Merged != nil || len(r.Conflicts) != 1 ||
		r.Conflicts[0].ID != "file" || r.Conflicts[0].Reason != "a and b cannot both be 2" {
		t.Fatalf("got %v %+v", err, r)
	}
	r, err = Merge("x.json", []byte(base), []byte(mine), []byte(theirs), Options{Validate: bad, Choices: map[string]Choice{"file": {Take: "theirs"}}})
	if err != nil || r.Unresolved != 0 || string(r.Merged) != theirs {
		t.Fatalf("take theirs: %v %+v", err, r)
	}
	// A resolved value conflict followed by a failing validation lists both.
	r, err = Merge("x.json", []byte(base), []byte(`{"a":3,"b":1}`), []byte(`{"a":2,"b":2}`),
		Options{Validate: bad, Choices: map[string]Choice{"/a": {Take: "theirs"}}})
	if err != nil || r.Unresolved != 1 || len(r.Conflicts) != 2 || r.Conflicts[0].ID != "file" || r.Conflicts[1].ID != "/a" {
		t.Fatalf("got %v %+v", err, r)
	}
	// Validate is not consulted for text files.
	r, err = Merge("x.txt", []byte("a\nb\nc\n"), []byte("A\nb\nc\n"), []byte("a\nb\nC\n"), Options{Validate: func([]byte) error { return errors.New("no") }})
	if err != nil || r.Unresolved != 0 || string(r.Merged) != "A\nb\nC\n" {
		t.Fatalf("text: %v %+v", err, r)
	}
}

const htmlBase = `<html>
<body>
<h1>Cafe</h1>
<p>Welcome to our cafe.</p>
<p>We open at 8.</p>
<p>We close at 18.</p>
<p>Find us downtown.</p>
</body>
</html>
`

func TestHTML(t *testing.T) {
	mine := strings.Replace(htmlBase, "Welcome to our cafe.", "Welcome!", 1)
	theirs := strings.Replace(htmlBase, "Find us downtown.", "Find us at the station.", 1)
	clean(t, "index.html", htmlBase, mine, theirs, strings.Replace(mine, "Find us downtown.", "Find us at the station.", 1))

	// Same line.
	theirsSame := strings.Replace(htmlBase, "Welcome to our cafe.", "Hello!", 1)
	oneConflict(t, "index.html", htmlBase, mine, theirsSame, Conflict{
		ID: "hunk:1", Path: "line 4", Base: sp("<p>Welcome to our cafe.</p>\n"), Mine: sp("<p>Welcome!</p>\n"), Theirs: sp("<p>Hello!</p>\n"),
		Reason: "changed on both sides",
	})
	resolved(t, "index.html", htmlBase, mine, theirsSame, map[string]Choice{"hunk:1": {Take: "mine"}}, mine)
	resolved(t, "index.html", htmlBase, mine, theirsSame, map[string]Choice{"hunk:1": {Take: "theirs"}}, theirsSame)
	resolved(t, "index.html", htmlBase, mine, theirsSame, map[string]Choice{"hunk:1": {Take: "base"}}, htmlBase)
	resolved(t, "index.html", htmlBase, mine, theirsSame, map[string]Choice{"hunk:1": {Take: "value", Value: sp("<p>Hi</p>\n<p>there</p>\n")}},
		strings.Replace(htmlBase, "<p>Welcome to our cafe.</p>\n", "<p>Hi</p>\n<p>there</p>\n", 1))
	resolved(t, "index.html", htmlBase, mine, theirsSame, map[string]Choice{"hunk:1": {Take: "value", Value: sp("")}},
		strings.Replace(htmlBase, "<p>Welcome to our cafe.</p>\n", "", 1))

	// Adjacent lines conflict; theirs' line numbers are shown.
	theirsAdj := strings.Replace(htmlBase, "We open at 8.", "We open at 7.", 1)
	theirsAdj = strings.Replace(theirsAdj, "<h1>Cafe</h1>\n", "<h1>Cafe</h1>\n<h2>Since 1990</h2>\n", 1)
	mineAdj := strings.Replace(htmlBase, "We close at 18.", "We close at 20.", 1)
	oneConflict(t, "index.html", htmlBase, mineAdj, theirsAdj, Conflict{
		ID: "hunk:1", Path: "lines 6–7", Base: sp("<p>We open at 8.</p>\n<p>We close at 18.</p>\n"),
		Mine: sp("<p>We open at 8.</p>\n<p>We close at 20.</p>\n"), Theirs: sp("<p>We open at 7.</p>\n<p>We close at 18.</p>\n"),
	})
	// Both making the same change is not a conflict.
	clean(t, "index.html", htmlBase, mine, mine+"<!-- x -->\n", mine+"<!-- x -->\n")
	// Two conflicts are numbered in order.
	r := merge(t, "index.html", htmlBase,
		strings.NewReplacer("Cafe</h1>", "Bar</h1>", "downtown", "uptown").Replace(htmlBase),
		strings.NewReplacer("Cafe</h1>", "Pub</h1>", "downtown", "midtown").Replace(htmlBase), nil)
	if r.Unresolved != 2 || r.Conflicts[0].ID != "hunk:1" || r.Conflicts[1].ID != "hunk:2" || r.Conflicts[1].Path != "line 7" {
		t.Fatalf("got %s", dumpConflicts(r.Conflicts))
	}
	// Both added the file with different content: one hunk, nil base.
	r = merge(t, "index.html", "<nil>", "a\n", "b\n", nil)
	if r.Unresolved != 1 || r.Conflicts[0].Base != nil || deref(r.Conflicts[0].Theirs) != "b\n" {
		t.Fatalf("got %s", dumpConflicts(r.Conflicts))
	}
	// Insertion conflict path.
	oneConflict(t, "a.txt", "a\nb\n", "a\nm\nb\n", "a\nt\nb\n", Conflict{
		ID: "hunk:1", Path: "line 2", Base: sp(""), Mine: sp("m\n"), Theirs: sp("t\n"),
	})
	oneConflict(t, "a.txt", "a\nb\nc\n", "a\nm\nc\n", "a\nc\n", Conflict{
		ID: "hunk:1", Path: "after line 1", Base: sp("b\n"), Mine: sp("m\n"), Theirs: sp(""),
	})
}

func TestTextWithoutTrailingNewline(t *testing.T) {
	base := "one\ntwo\nthree\nfour\nfive"
	clean(t, "a.txt", base, strings.Replace(base, "one", "ONE", 1), strings.Replace(base, "three", "THREE", 1),
		"ONE\ntwo\nTHREE\nfour\nfive")
	clean(t, "a.txt", base, strings.Replace(base, "one", "ONE", 1), strings.Replace(base, "five", "FIVE", 1),
		"ONE\ntwo\nthree\nfour\nFIVE")
	// Adding a final newline is a change of the last line.
	clean(t, "a.txt", base, strings.Replace(base, "one", "ONE", 1), base+"\n", "ONE\ntwo\nthree\nfour\nfive\n")
	// Empty files.
	clean(t, "a.txt", "", "a\n", "", "a\n")
	clean(t, "a.txt", "x\n", "", "x\n", "")
	r := merge(t, "a.txt", "a\nb\nc\n", "a\nc\n", "a\nB\nc\n", nil)
	if r.Unresolved != 1 {
		t.Fatalf("delete vs change line: %s", dumpConflicts(r.Conflicts))
	}
	// Result of all lines removed is an empty, existing file.
	r = merge(t, "a.txt", "a\nb\n", "b\n", "a\n", map[string]Choice{"hunk:1": {Take: "value", Value: sp("")}})
	if r.Unresolved != 0 || r.Merged == nil || len(r.Merged) != 0 || r.Deleted {
		t.Fatalf("empty result: %+v", r)
	}
}

func TestLargeText(t *testing.T) {
	base := textFile(50000, nil)
	mine := textFile(50000, map[int]string{10: "mine", 30000: "mine too"})
	theirs := textFile(50000, map[int]string{20000: "theirs", 49999: "theirs too"})
	want := textFile(50000, map[int]string{10: "mine", 30000: "mine too", 20000: "theirs", 49999: "theirs too"})
	r, err := Merge("big.txt", base, mine, theirs, Options{})
	if err != nil || r.Unresolved != 0 || string(r.Merged) != string(want) {
		t.Fatalf("large text merge failed: %v %d", err, r.Unresolved)
	}
	// A complete rewrite still finishes.
	var rewritten strings.Builder
	for i := range 50000 {
		rewritten.WriteString(strings.Repeat("x", i%13) + "\n")
	}
	if _, err := Merge("big.txt", base, []byte(rewritten.String()), theirs, Options{}); err != nil {
		t.Fatal(err)
	}
}

func TestConflictIDsStayUnique(t *testing.T) {
	// Theirs deletes c and edits d; mine edits c and deletes d. d's conflict
	// points into theirs (/2), c's into mine (also /2): c's gets "#2".
	base := `[{"id":"a"},{"id":"b"},{"id":"c","v":1},{"id":"d","v":1}]`
	mine := `[{"id":"a"},{"id":"b"},{"id":"c","v":2}]`
	theirs := `[{"id":"a"},{"id":"b"},{"id":"d","v":3}]`
	r := merge(t, "x.json", base, mine, theirs, nil)
	if r.Unresolved != 2 || r.Conflicts[0].ID != "/2" || r.Conflicts[0].Path != "d" ||
		r.Conflicts[1].ID != "/2#2" || r.Conflicts[1].Path != "c" {
		t.Fatalf("got %s", dumpConflicts(r.Conflicts))
	}
	resolved(t, "x.json", base, mine, theirs, map[string]Choice{"/2": {Take: "theirs"}, "/2#2": {Take: "mine"}},
		`[{"id":"a"},{"id":"b"},{"id":"d","v":3},{"id":"c","v":2}]`)
	resolved(t, "x.json", base, mine, theirs, map[string]Choice{"/2": {Take: "mine"}, "/2#2": {Take: "theirs"}},
		`[{"id":"a"},{"id":"b"}]`)
}

func TestRepeatedKeysMergeAsText(t *testing.T) {
	base := "{\n  \"a\": 1,\n  \"a\": 2,\n  \"b\": 1,\n  \"c\": 1\n}\n"
	mine := strings.Replace(base, "\"a\": 1", "\"a\": 10", 1)
	theirs := strings.Replace(base, "\"c\": 1", "\"c\": 30", 1)
	clean(t, "x.json", base, mine, theirs, "{\n  \"a\": 10,\n  \"a\": 2,\n  \"b\": 1,\n  \"c\": 30\n}\n")
	// Repeated keys deep inside, in a part only expanded late, too.
	base = "{\n  \"x\": {\"k\": 1, \"k\": 2},\n  \"y\": 1,\n  \"z\": 1\n}\n"
	mine = strings.Replace(base, "\"y\": 1", "\"y\": 2", 1)
	theirs = strings.Replace(base, "{\"k\": 1, \"k\": 2}", "{\"k\": 1, \"k\": 3}", 1)
	theirs = strings.Replace(theirs, "\"z\": 1", "\"z\": 3", 1)
	r := merge(t, "x.json", base, mine, theirs, nil)
	if r.Unresolved != 1 || r.Conflicts[0].ID != "hunk:1" {
		t.Fatalf("got %q %s", r.Merged, dumpConflicts(r.Conflicts))
	}
	// A choice value with repeated keys is refused.
	_, err := Merge("x.json", []byte(`{"a":1}`), []byte(`{"a":2}`), []byte(`{"a":3}`),
		Options{Choices: map[string]Choice{"/a": {Take: "value", Value: sp(`{"k":1,"k":2}`)}}})
	if !errors.Is(err, ErrInvalidChoice) {
		t.Fatalf("err = %v", err)
	}
}

func TestCRLFText(t *testing.T) {
	base := "a\r\nb\r\nc\r\nd\r\n"
	clean(t, "a.txt", base, strings.Replace(base, "a", "A", 1), strings.Replace(base, "d", "D", 1), "A\r\nb\r\nc\r\nD\r\n")
}

func TestInvalidJSONErrorMessage(t *testing.T) {
	for src, want := range map[string]string{
		"{\n  \"a\": 1,\n}": "unexpected '}', expected a string key at line 3, column 1",
		`[1, 2`:             "unexpected end of file, expected ',' or ']' at line 1, column 6",
		`{"a" 1}`:           "unexpected '1', expected ':' after an object key at line 1, column 6",
		`01`:                "unexpected '1' after the top-level value at line 1, column 2",
		`"tab	in string"`:   "control character '\\t' in string at line 1, column 5",
		`{"a": tru}`:        "unexpected 't', expected a value at line 1, column 7",
		`{"a": "\x"}`:       "invalid escape 'x' in string at line 1, column 8",
		``:                  "unexpected end of file, expected a value at line 1, column 1",
		`1.`:                "invalid number: expected a digit after the decimal point, got end of file at line 1, column 3",
		"[" + strings.Repeat("[", maxDepth) + "]": "nesting deeper than 10000 levels at line 1, column 10001",
	} {
		_, err := parse([]byte(src))
		if err == nil || err.Error() != want {
			t.Errorf("parse(%.20q) = %v, want %s", src, err, want)
		}
	}
	for _, src := range []string{`{}`, `[]`, ` {"a":[1,{"b":null}],"c":"\u00e9\ud83d\ude00"} `, `-0.5e+3`, `"x"`, `true`} {
		if _, err := parse([]byte(src)); err != nil {
			t.Errorf("parse(%q): %v", src, err)
		}
	}
}
