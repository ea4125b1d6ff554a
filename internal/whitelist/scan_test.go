package whitelist

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"portalwright/internal/apperr"
	"portalwright/internal/validate"
)

func urlsOf(fs []Found) []string {
	out := make([]string, 0, len(fs))
	for _, f := range fs {
		out = append(out, f.URL)
	}
	return out
}

func TestExtractPage(t *testing.T) {
	page := `<div>
<a href="https://example.org/crew-handbook/en">Handbook</a>
<img src="http://cdn.example.com/a.png?x=1&amp;y=2">
<script src="//static.example.net/lib.js"></script>
<p>See https://docs.example.com/guide. Or (https://paren.example.com/x).</p>
<img src="https://via.placeholder.com/150"><img src="https://inflight.example.com/x">
<script src="engine/portal-engine.js"></script><a href="https://cdn.example.com/Portal-Engine/x.js">e</a>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"></svg>
<a href="/local/page.html">local</a><a href="#/home">hash</a><a href="https:///nohost">x</a>
</div>`
	got := Extract([]byte(page), true)
	want := []Found{
		{"https://example.org/crew-handbook/en", 2},
		{"http://cdn.example.com/a.png?x=1&y=2", 3},
		{"https://docs.example.com/guide", 5},
		{"https://paren.example.com/x", 5},
		{"//static.example.net/lib.js", 4},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v\nwant %#v", got, want)
	}
}

func TestExtractJSONAndCSS(t *testing.T) {
	widget := `{
  "title": "Links",
  "links": [{"url": "https://example.org/a"}, {"url": "https:\/\/escaped.example.org\/b"}],
  "html": "<img src=\"//img.example.org/c.png\"> <img src=\"https://placehold.it/1\">"
}`
	if got, want := urlsOf(Extract([]byte(widget), false)), []string{"https://example.org/a", "https://escaped.example.org/b", "//img.example.org/c.png"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("widget: got %v want %v", got, want)
	}
	tr := `{"TXT_A": "Visit https://tr.example.com/x?a=1&b=2!", "LNK_B": "HTTPS://Upper.Example.com/Path"}`
	if got, want := urlsOf(Extract([]byte(tr), false)), []string{"https://tr.example.com/x?a=1&b=2", "HTTPS://Upper.Example.com/Path"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("translation: got %v want %v", got, want)
	}
	css := "@import url(\"https://fonts.example.com/css?family=X\");\n.a { background: url(//img.example.com/bg.png) }\n.b { background: url('images/local.png') }\n.c { background: url(https://placeholder.com/x.png) }"
	got := Extract([]byte(css), true)
	want := []Found{{"https://fonts.example.com/css?family=X", 1}, {"//img.example.com/bg.png", 2}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("css: got %#v want %#v", got, want)
	}
}

func TestIgnored(t *testing.T) {
	for u, want := range map[string]bool{
		"https://InFlight.example.com":      true,
		"https://via.PLACEHOLD.co/1":        true,
		"https://x.com/portal-engine.js":    true,
		"https://x.com/portal_engine.js":    false,
		"https://example.org/crew-handbook": false,
	} {
		if IsIgnored(u) != want {
			t.Errorf("IsIgnored(%q) = %v", u, !want)
		}
	}
}

func TestMatcher(t *testing.T) {
	m := NewMatcher([]string{"https://Example.org", "https://cdn.example.com/libs/", "http://plain.example.net/", "not a url"})
	for u, want := range map[string]bool{
		"https://example.org":                true,
		"https://example.org/any/thing?x=1":  true,
		"https://EXAMPLE.ORG/x":              true,
		"http://example.org/x":               false, // another scheme
		"https://example.org.evil.com/x":     false, // another host
		"https://user@example.org/x":         true,
		"https://cdn.example.com/libs/a.js":  true,
		"https://cdn.example.com/other/a.js": false,
		"https://cdn.example.com/libs":       false,
		"http://plain.example.net/x":         true,
		"//example.org/x.js":                 true, // https: form allowed
		"//plain.example.net/x.js":           true, // http: form allowed
		"//other.example.org/x.js":           false,
		"ftp://example.org/x":                false,
		"https://example.org:8443/x":         false, // another origin
	} {
		if got := m.Allowed(u); got != want {
			t.Errorf("Allowed(%q) = %v, want %v", u, got, want)
		}
	}
	if o := Origin("//Img.Example.org/a.png"); o != "https://img.example.org" {
		t.Errorf("Origin = %q", o)
	}
	if o := Origin("http://a.example.com:8080/x?y"); o != "http://a.example.com:8080" {
		t.Errorf("Origin = %q", o)
	}
}

func TestKindOf(t *testing.T) {
	for p, want := range map[string]string{
		"pages/home.html":          KindPage,
		"index.html":               KindHTML,
		"microsites/a/pages/x.HTM": KindHTML,
		"widgets/database/w1.json": KindWidget,
		"translations/en_GB.json":  KindTranslation,
		"sitemap.json":             KindJSON,
		"assets/site.css":          KindCSS,
		"engine/portal-engine.js":  "",
		"assets/logo.png":          "",
	} {
		if got := kindOf(p, "translations"); got != want {
			t.Errorf("kindOf(%q) = %q, want %q", p, got, want)
		}
	}
}

func TestNormalize(t *testing.T) {
	got, err := Normalize([]Entry{{" https://a.example.com "}, {"http://b.example.com/x"}, {"https://a.example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []Entry{{"https://a.example.com"}, {"http://b.example.com/x"}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v", got)
	}
	bad := func(in []Entry, msg string) {
		t.Helper()
		_, err := Normalize(in)
		var ae *apperr.Error
		if !errors.As(err, &ae) || ae.Status != 400 || !strings.Contains(ae.Message, msg) {
			t.Fatalf("Normalize(%.60v) = %v, want 400 %q", in, err, msg)
		}
	}
	for _, u := range []string{"", "   ", "ftp://x.com", "example.com", "https://", "https:///x", "https://a b.com", `https://a.com/"><script>`} {
		bad([]Entry{{"https://ok.example.com"}, {u}}, validate.MsgURL)
	}
	bad([]Entry{{"https://a.com/" + strings.Repeat("x", MaxURLLength)}}, "at most 2048 characters")
	many := make([]Entry, MaxEntries+1)
	for i := range many {
		many[i] = Entry{URL: "https://h" + strings.Repeat("x", i%7) + ".example.com/" + string(rune('a'+i%26)) + strings.Repeat("y", i)}
	}
	bad(many[:MaxEntries+1], "at most 2000 URLs")
	if _, err := Normalize(many[:MaxEntries]); err != nil {
		t.Fatalf("2000 entries: %v", err)
	}
}

func TestParseEncode(t *testing.T) {
	data, err := Encode([]Entry{{"https://a.example.com/?x=1&y=2"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"whitelist\": [\n    {\n      \"url\": \"https://a.example.com/?x=1&y=2\"\n    }\n  ]\n}\n"; string(data) != want {
		t.Fatalf("Encode = %q", data)
	}
	got, err := Parse(data)
	if err != nil || !reflect.DeepEqual(got, []Entry{{"https://a.example.com/?x=1&y=2"}}) {
		t.Fatalf("Parse = %v %v", got, err)
	}
	if e, _ := Encode(nil); string(e) != "{\n  \"whitelist\": []\n}\n" {
		t.Fatalf("Encode(nil) = %q", e)
	}
	if _, err := Parse([]byte(`[1,2]`)); err == nil {
		t.Fatal("an array is not a whitelist file")
	}
}
