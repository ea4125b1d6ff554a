package translation

import (
	"encoding/json"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "write the browser's copy of the status cases again")

// The browser computes a key's status while the author types (features/translations/model.ts
// computeKeyStatus) by the same rules as StatusIn. The rules are written once, here; the cases
// below are run by Go and written to a JSON file that the browser's test runs through its copy,
// so the two cannot drift: change a rule here and this test fails until the file is written
// again (-update), then the Vitest test fails until model.ts agrees.

const statusCasesFile = "../../web/src/features/translations/statusCases.generated.json"

type statusCase struct {
	Name      string         `json:"name"`
	Layout    Layout         `json:"layout"`
	Data      map[string]Set `json:"data"`
	Default   string         `json:"defaultLanguage"`
	Languages []string       `json:"languages"`
	Language  string         `json:"language"`
	Key       string         `json:"key"`
	Want      KeyStatus      `json:"want"`
}

func statusCases() []statusCase {
	langs := []string{"en_GB", "fr_FR", "de_DE"}
	type in struct {
		name     string
		layout   Layout
		data     map[string]Set
		language string
		key      string
	}
	ins := []in{
		{"complete text", LayoutFlat, map[string]Set{"en_GB": {"TXT_A": "Hello"}, "fr_FR": {"TXT_A": "Bonjour"}, "de_DE": {"TXT_A": "Hallo"}}, "fr_FR", "TXT_A"},
		{"complete in the default", LayoutFlat, map[string]Set{"en_GB": {"TXT_A": "Hello"}, "fr_FR": {"TXT_A": "Bonjour"}, "de_DE": {"TXT_A": "Hallo"}}, "en_GB", "TXT_A"},
		{"key missing in the language", LayoutFlat, map[string]Set{"en_GB": {"TXT_A": "Hello"}, "fr_FR": {}, "de_DE": {"TXT_A": "Hallo"}}, "fr_FR", "TXT_A"},
		{"key missing in the default", LayoutFlat, map[string]Set{"en_GB": {}, "fr_FR": {"TXT_A": "Bonjour"}}, "fr_FR", "TXT_A"},
		{"key missing in the default, asked of the default", LayoutFlat, map[string]Set{"en_GB": {}, "fr_FR": {"TXT_A": "Bonjour"}}, "en_GB", "TXT_A"},
		{"default value blank", LayoutFlat, map[string]Set{"en_GB": {"TXT_A": "  "}, "fr_FR": {"TXT_A": "Bonjour"}}, "fr_FR", "TXT_A"},
		{"default value empty, asked of the default", LayoutFlat, map[string]Set{"en_GB": {"TXT_A": ""}, "fr_FR": {"TXT_A": "x"}, "de_DE": {"TXT_A": "y"}}, "en_GB", "TXT_A"},
		{"value empty", LayoutFlat, map[string]Set{"en_GB": {"TXT_A": "Hello"}, "fr_FR": {"TXT_A": ""}}, "fr_FR", "TXT_A"},
		{"value copied from the default", LayoutFlat, map[string]Set{"en_GB": {"TXT_A": "Hello"}, "fr_FR": {"TXT_A": "Hello"}}, "fr_FR", "TXT_A"},
		{"copied but for a trailing newline", LayoutFlat, map[string]Set{"en_GB": {"TXT_A": "Hello"}, "fr_FR": {"TXT_A": "Hello\n"}}, "fr_FR", "TXT_A"},
		{"rich text copied", LayoutFlat, map[string]Set{"en_GB": {"TXT_A": "<p>Hello</p>"}, "fr_FR": {"TXT_A": "<p>Hello</p>"}}, "fr_FR", "TXT_A"},
		{"rich text against plain text", LayoutFlat, map[string]Set{"en_GB": {"TXT_A": "<p>Hello</p>"}, "fr_FR": {"TXT_A": "Hello"}}, "fr_FR", "TXT_A"},
		{"a lone angle bracket is not markup", LayoutFlat, map[string]Set{"en_GB": {"TXT_A": "a <b"}, "fr_FR": {"TXT_A": "a <b\n"}}, "fr_FR", "TXT_A"},
		{"image kept as the default's", LayoutFlat, map[string]Set{"en_GB": {"IMG_LOGO": "logo.png"}, "fr_FR": {"IMG_LOGO": "logo.png"}}, "fr_FR", "IMG_LOGO"},
		{"link kept as the default's", LayoutFlat, map[string]Set{"en_GB": {"LNK_HOME": "index"}, "fr_FR": {"LNK_HOME": "index"}}, "fr_FR", "LNK_HOME"},
		{"image key without its underscore is a text", LayoutFlat, map[string]Set{"en_GB": {"IMGLOGO": "logo.png"}, "fr_FR": {"IMGLOGO": "logo.png"}}, "fr_FR", "IMGLOGO"},
		{"another language lacks the key", LayoutFlat, map[string]Set{"en_GB": {"TXT_A": "Hello"}, "fr_FR": {"TXT_A": "Bonjour"}}, "en_GB", "TXT_A"},
		{"another language copied the default", LayoutFlat, map[string]Set{"en_GB": {"TXT_A": "Hello"}, "fr_FR": {"TXT_A": "Bonjour"}, "de_DE": {"TXT_A": "Hello"}}, "en_GB", "TXT_A"},
		{"another language left it empty", LayoutFlat, map[string]Set{"en_GB": {"TXT_A": "Hello"}, "fr_FR": {"TXT_A": "Bonjour"}, "de_DE": {"TXT_A": " "}}, "en_GB", "TXT_A"},
		{"others keep the default's image", LayoutFlat, map[string]Set{"en_GB": {"IMG_A": "a.png"}, "fr_FR": {"IMG_A": "a.png"}, "de_DE": {"IMG_A": "a.png"}}, "en_GB", "IMG_A"},
		{"a language without a file", LayoutFlat, map[string]Set{"en_GB": {"TXT_A": "Hello"}}, "de_DE", "TXT_A"},
		{"nested: a copied image path is a text", LayoutNested, map[string]Set{"en_GB": {"img.logo": "logo.png"}, "fr_FR": {"img.logo": "logo.png"}}, "fr_FR", "img.logo"},
		{"nested: IMG_ prefix means nothing", LayoutNested, map[string]Set{"en_GB": {"IMG_A": "a.png"}, "fr_FR": {"IMG_A": "a.png"}}, "fr_FR", "IMG_A"},
		{"nested: translated", LayoutNested, map[string]Set{"en_GB": {"nav.home": "Home"}, "fr_FR": {"nav.home": "Accueil"}, "de_DE": {"nav.home": "Start"}}, "en_GB", "nav.home"},
	}
	out := make([]statusCase, 0, len(ins))
	for _, c := range ins {
		var others []string
		for _, l := range langs {
			if l != "en_GB" {
				others = append(others, l)
			}
		}
		out = append(out, statusCase{Name: c.name, Layout: c.layout, Data: c.data, Default: "en_GB", Languages: langs,
			Language: c.language, Key: c.key, Want: StatusIn(c.layout, c.data, "en_GB", others, c.language, c.key)})
	}
	return out
}

func TestStatusCasesAreShared(t *testing.T) {
	want, err := json.MarshalIndent(statusCases(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	if *update {
		if err := os.WriteFile(statusCasesFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(statusCasesFile)
	if err != nil || string(got) != string(want) {
		t.Fatalf("%s differs from the server's key status rules; run: go test ./internal/translation -run TestStatusCasesAreShared -update (then make model.ts pass its Vitest test)", statusCasesFile)
	}
}
