package language

import (
	"regexp"
	"testing"
)

func TestEntries(t *testing.T) {
	want := map[string]Entry{
		"fr_FR":  {"fr_FR", "French (France)", "français (France)", LTR, "fr", "fre"},
		"ar_SA":  {"ar_SA", "Arabic (Saudi Arabia)", "العربية (المملكة العربية السعودية)", RTL, "ar", "ara"},
		"en_GB":  {"en_GB", "English (United Kingdom)", "English (United Kingdom)", LTR, "en", "eng"},
		"de":     {"de", "German", "Deutsch", LTR, "de", "ger"},
		"ckb_IQ": {"ckb_IQ", "Central Kurdish (Iraq)", "کوردیی ناوەندی (عێراق)", RTL, "", "ckb"},
	}
	for code, w := range want {
		if got, ok := Lookup(code); !ok || got != w {
			t.Errorf("%s: %+v %v", code, got, ok)
		}
	}
	// Right to left by script.
	for _, code := range []string{"ar", "he", "fa", "ur", "ps", "yi", "dv", "ckb", "sd", "ug"} {
		if e, ok := Lookup(code); !ok || e.Direction != RTL {
			t.Errorf("%s: %+v %v, want rtl", code, e, ok)
		}
	}
	for _, code := range []string{"en", "fr", "zh", "ja", "hi", "ru", "tr"} {
		if e, ok := Lookup(code); !ok || e.Direction != LTR {
			t.Errorf("%s: %+v %v, want ltr", code, e, ok)
		}
	}
	// ISO 639-2/B where it differs from /T.
	for code, b := range map[string]string{"fr": "fre", "de": "ger", "zh": "chi", "nl": "dut", "el": "gre", "fa": "per",
		"cs": "cze", "cy": "wel", "hy": "arm", "eu": "baq", "my": "bur", "ka": "geo", "is": "ice", "mk": "mac",
		"mi": "mao", "ms": "may", "sq": "alb", "ro": "rum", "sk": "slo", "bo": "tib", "es": "spa", "ja": "jpn"} {
		if e, ok := Lookup(code); !ok || e.Alpha3B != b {
			t.Errorf("%s: alpha3b %q, want %q", code, e.Alpha3B, b)
		}
	}
	for _, bad := range []string{"", "xx", "fr-FR", "FR", "fr_fr", "fr_ZZ", "fr_419", "iw", "qqq", "fr_FR_x", "../x"} {
		if e, ok := Lookup(bad); ok {
			t.Errorf("%q is known: %+v", bad, e)
		}
	}
}

func TestList(t *testing.T) {
	all := All()
	code := regexp.MustCompile(`^[a-z]{2,3}(_[A-Z]{2})?$`)
	seen := map[string]bool{}
	for i, e := range all {
		if !code.MatchString(e.Code) || e.DefaultName == "" || e.NativeName == "" || e.Alpha3B == "" || seen[e.Code] {
			t.Fatalf("entry %+v", e)
		}
		if i > 0 && all[i-1].Code >= e.Code {
			t.Fatalf("not sorted at %s", e.Code)
		}
		seen[e.Code] = true
	}
	for _, c := range []string{"en", "en_GB", "en_US", "fr_FR", "fr_CA", "ar_SA", "ar_AE", "de_DE", "de_AT", "es_MX", "pt_BR", "zh_CN", "ja_JP", "he_IL"} {
		if !seen[c] {
			t.Errorf("%s is not listed", c)
		}
	}
	if len(all) < 300 {
		t.Fatalf("only %d entries", len(all))
	}
}
