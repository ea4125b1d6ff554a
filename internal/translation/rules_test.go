package translation

import (
	"bytes"
	"strings"
	"testing"
)

// Every status combination of the contract, seen from the default language and from another.
func TestStatusRules(t *testing.T) {
	const def, fr, ar = "en_GB", "fr_FR", "ar_SA"
	others := []string{fr, ar}
	// Each case sets the key's value per language (absent: the key is missing there).
	cases := []struct {
		name   string
		key    string
		values map[string]string
		lang   string
		want   KeyStatus
	}{
		// Default language.
		{"default: missing in default", "TXT_A", map[string]string{fr: "Bonjour", ar: "مرحبا"}, def, KeyStatus{StatusMissing, ReasonKeyMissingInDefault}},
		{"default: empty default value", "TXT_A", map[string]string{def: "", fr: "Bonjour", ar: "مرحبا"}, def, KeyStatus{StatusIncomplete, ReasonDefaultValueMissing}},
		{"default: blank default value", "TXT_A", map[string]string{def: " \n", fr: "Bonjour", ar: "مرحبا"}, def, KeyStatus{StatusIncomplete, ReasonDefaultValueMissing}},
		{"default: missing in another", "TXT_A", map[string]string{def: "Hello", fr: "Bonjour"}, def, KeyStatus{StatusIncomplete, ReasonKeyMissingInOthers}},
		{"default: empty in another", "TXT_A", map[string]string{def: "Hello", fr: "Bonjour", ar: ""}, def, KeyStatus{StatusIncomplete, ReasonRequiredInOthers}},
		{"default: copied in another", "TXT_A", map[string]string{def: "Hello", fr: "Hello", ar: "مرحبا"}, def, KeyStatus{StatusIncomplete, ReasonRequiredInOthers}},
		{"default: copied with other spacing", "TXT_A", map[string]string{def: "Hello", fr: " Hello\n", ar: "مرحبا"}, def, KeyStatus{StatusIncomplete, ReasonRequiredInOthers}},
		{"default: image same everywhere", "IMG_A", map[string]string{def: "a.png", fr: "a.png", ar: "a.png"}, def, KeyStatus{StatusCompleted, ReasonNone}},
		{"default: image empty in another", "IMG_A", map[string]string{def: "a.png", fr: "", ar: "a.png"}, def, KeyStatus{StatusIncomplete, ReasonRequiredInOthers}},
		{"default: completed", "TXT_A", map[string]string{def: "Hello", fr: "Bonjour", ar: "مرحبا"}, def, KeyStatus{StatusCompleted, ReasonNone}},
		// Another language.
		{"other: missing here", "TXT_A", map[string]string{def: "Hello", ar: "مرحبا"}, fr, KeyStatus{StatusMissing, ReasonKeyMissing}},
		{"other: missing here and in default", "TXT_A", map[string]string{ar: "مرحبا"}, fr, KeyStatus{StatusMissing, ReasonKeyMissing}},
		{"other: missing in default", "TXT_A", map[string]string{fr: "Bonjour"}, fr, KeyStatus{StatusMissing, ReasonKeyMissingInDefault}},
		{"other: default value empty", "TXT_A", map[string]string{def: "", fr: "Bonjour"}, fr, KeyStatus{StatusIncomplete, ReasonDefaultValueMissing}},
		{"other: empty here", "TXT_A", map[string]string{def: "Hello", fr: ""}, fr, KeyStatus{StatusIncomplete, ReasonRequired}},
		{"other: equal to default", "TXT_A", map[string]string{def: "Hello", fr: "Hello"}, fr, KeyStatus{StatusIncomplete, ReasonRequired}},
		{"other: equal to default once trimmed", "TXT_A", map[string]string{def: "Hello\n", fr: "Hello"}, fr, KeyStatus{StatusIncomplete, ReasonRequired}},
		{"other: markup equal to default", "TXT_A", map[string]string{def: "<p>Hi</p>", fr: "<p>Hi</p>"}, fr, KeyStatus{StatusIncomplete, ReasonRequired}},
		{"other: image equal to default", "IMG_A", map[string]string{def: "a.png", fr: "a.png"}, fr, KeyStatus{StatusCompleted, ReasonNone}},
		{"other: link equal to default", "LNK_A", map[string]string{def: "#/home", fr: "#/home"}, fr, KeyStatus{StatusCompleted, ReasonNone}},
		{"other: image empty here", "IMG_A", map[string]string{def: "a.png", fr: ""}, fr, KeyStatus{StatusIncomplete, ReasonRequired}},
		{"other: completed", "TXT_A", map[string]string{def: "Hello", fr: "Bonjour"}, fr, KeyStatus{StatusCompleted, ReasonNone}},
		{"other: completed though missing in a third", "TXT_A", map[string]string{def: "Hello", fr: "Bonjour"}, fr, KeyStatus{StatusCompleted, ReasonNone}},
	}
	for _, c := range cases {
		data := map[string]Set{def: {}, fr: {}, ar: {}}
		for l, v := range c.values {
			data[l][c.key] = v
		}
		if got := Status(data, def, others, c.lang, c.key); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
		if Tooltips[c.want.Reason] == "" && c.want.Reason != ReasonNone {
			t.Errorf("%s: no tooltip for %s", c.name, c.want.Reason)
		}
	}
}

func TestCheckKeys(t *testing.T) {
	set, errs := CheckKeys("fr_FR", map[string]string{"txt_hello": "Bonjour", "IMG_Logo": "a.png", "LNK_HOME.page-1": "#/"})
	if len(errs) != 0 || set["TXT_HELLO"] != "Bonjour" || set["IMG_LOGO"] != "a.png" || set["LNK_HOME.PAGE-1"] != "#/" || len(set) != 3 {
		t.Fatalf("good keys: %v %v", set, errs)
	}
	for _, bad := range []string{"HELLO", "TXT_", "TXTHELLO", "ABC_HELLO", "TXT_HELLO WORLD", "TXT_HÉ", "", "TXT_A/B"} {
		_, errs := CheckKeys("fr_FR", map[string]string{bad: "x"})
		if len(errs) != 1 || errs[0].Message != MsgNoKeyPrefix || errs[0].Key != bad || errs[0].Language != "fr_FR" {
			t.Errorf("%q: %+v", bad, errs)
		}
	}
	// Equal once upper-cased: one error naming the upper-case key, whatever the map order.
	for range 20 {
		_, errs = CheckKeys("en_GB", map[string]string{"TXT_HELLO": "a", "txt_hello": "b", "Txt_Hello": "c"})
		if len(errs) != 2 || errs[0].Message != "Translation key 'TXT_HELLO' already exists" || errs[0].Key != "Txt_Hello" || errs[1].Key != "txt_hello" {
			t.Fatalf("duplicates: %+v", errs)
		}
	}
}

func TestEncodeAndCSV(t *testing.T) {
	got, err := Encode(Set{"TXT_B": "<b>x</b> & y", "TXT_A": "é"})
	want := "{\n  \"TXT_A\": \"é\",\n  \"TXT_B\": \"<b>x</b> & y\"\n}\n"
	if err != nil || string(got) != want {
		t.Fatalf("encode: %q", got)
	}
	if got, _ := Encode(nil); string(got) != "{}\n" {
		t.Fatalf("empty: %q", got)
	}
	data, err := ReportCSV(&Report{Keys: []ReportKey{{Key: "TXT_A", Status: StatusIncomplete, Reason: ReasonRequired, Value: "=HYPERLINK(\"x\")", DefaultValue: "a, \"b\""}}})
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if err != nil || len(lines) != 2 || lines[0] != "key,status,reason,defaultValue,value" ||
		!bytes.Contains(data, []byte(`TXT_A,INCOMPLETE,REQUIRED,"a, ""b""","'=HYPERLINK(""x"")"`)) {
		t.Fatalf("csv: %s", data)
	}
}
