package check

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// base is a small portal-engine portal with nothing wrong: every rule has something to look
// at and nothing to find.
var base = map[string]string{
	"portal.json": `{"formatVersion":1,"engineType":"PORTAL_ENGINE","supportLevel":"FULL","scope":"FULL",
  "languageSettings":{"languages":["en_GB","fr_FR"],"defaultLanguage":"en_GB","languageMode":"TRANSLATION","translationsBasePath":"translations"},
  "taskRunnerSettings":{"active":false,"outputPath":"pw-dist"}}`,
	"sitemap.json": `[
  {"id": "home", "title": "Home", "url": "/pages/home.html", "children": [
    {"id": "about", "title": "About", "url": "/pages/about.html", "children": []}
  ]},
  {"id": "captcha", "title": "Captcha", "url": "/pages/captcha.html", "children": []}
]`,
	"index.html": `<!DOCTYPE html>
<html><head><link rel="stylesheet" href="assets/site.css"><script src="engine/portal-engine.js"></script></head>
<body>
<a href="#/home" data-pw-t="TXT_NAV_HOME" data-pw-t-href="LNK_HOME">Home</a>
<a href="#/captcha/captcha-page/about/https%3A%2F%2Fwifi.example.org">Wi-Fi</a>
<a href="?lang=fr_FR">FR</a>
<img src="/assets/img/logo.png" data-pw-t="IMG_LOGO" data-pw-t-alt="TXT_LOGO_ALT">
<main data-pw-outlet></main>
<div data-pw-widget="footer"></div>
<script>var x = "<img src='nothing.png'>";</script>
</body></html>`,
	"engine/portal-engine.js": "// engine",
	"pages/home.html": `<article>
  <h1 data-pw-t="TXT_HOME_TITLE">Welcome</h1>
  <img src="assets/img/logo.png" alt="">
  <a href="#/about?x=1">About</a> <a href="https://wifi.example.org/login">Wi-Fi</a>
  <a href="mailto:crew@example.org">Mail</a> <a href="microsites/shop/index.html">Shop</a>
  <link rel="manifest" href="%PUBLIC_URL%/manifest.json"> <img src="${base}/x.png" alt="">
</article>`,
	"pages/about.html":                    `<p data-pw-t="TXT_ABOUT">About</p>`,
	"pages/captcha.html":                  `<p>Captcha</p>`,
	"assets/site.css":                     "body { background: url('img/bg%20one.png') }\n.x { background: url(data:image/png;base64,AAAA) }\n",
	"assets/img/logo.png":                 "png",
	"assets/img/bg one.png":               "png",
	"microsites/shop/index.html":          `<html><body><a href="../../index.html#/home">Back</a><img src="logo.png" alt="Shop"></body></html>`,
	"microsites/shop/logo.png":            "png",
	"widgets/modules/links/template.html": `<nav>{{#if title}}<h2>{{title}}</h2>{{/if}}{{#each items}}<a href="{{link}}"><img src="{{image}}" alt="">{{label}}</a>{{/each}}<a href="#/home" data-pw-t="TXT_NAV_HOME">Home</a></nav>`,
	"widgets/modules/links/config.probe.json": `{"name":"Links","properties":[
  {"name":"title","editor":"TranslationSelector"},
  {"name":"items","editor":"SubEditor","properties":[
    {"name":"label","editor":"TranslationSelector"},
    {"name":"link","editor":"LinkManager"},
    {"name":"page","editor":"PageSelector"},
    {"name":"image","editor":"AssetManager"}
  ]}]}`,
	"widgets/database/footer.json": `{
  "type": "links",
  "data": {
    "title": "TXT_FOOTER",
    "items": [
      {"label": "TXT_NAV_HOME", "link": {"type": "Internal", "value": "#/about"}, "page": "home", "image": "assets/img/logo.png"},
      {"label": "TXT_SHOP", "link": "microsites/shop/index.html", "page": "", "image": ""},
      {"label": "TXT_SHOP", "link": {"type": "External", "value": "https://wifi.example.org/"}, "page": "about", "image": ""}
    ]
  },
  "mediaQueries": {"(max-width: 600px)": {"title": "TXT_FOOTER"}}
}`,
	"translations/en_GB.json": `{
  "IMG_LOGO": "assets/img/logo.png",
  "LNK_HOME": "#/home",
  "TXT_ABOUT": "About <b>us</b>",
  "TXT_FOOTER": "Quick links",
  "TXT_HOME_TITLE": "Welcome, {name}! You have %1$s messages.",
  "TXT_LOGO_ALT": "Logo",
  "TXT_NAV_HOME": "Home<br>page",
  "TXT_SHOP": "Shop"
}`,
	"translations/fr_FR.json": `{
  "IMG_LOGO": "assets/img/logo.png",
  "LNK_HOME": "#/home",
  "TXT_ABOUT": "À propos de <b>nous</b>",
  "TXT_FOOTER": "Liens",
  "TXT_HOME_TITLE": "Vous avez %1$s messages, {name} !",
  "TXT_LOGO_ALT": "Logo",
  "TXT_NAV_HOME": "Accueil<br/>",
  "TXT_SHOP": "Boutique"
}`,
	"content/menu.json":          `{"title": "Menu", "image": "assets/img/logo.png"}`,
	"content/menu.json.schema":   `{"type":"object","required":["title"],"properties":{"title":{"type":"string","minLength":1},"image":{"type":"string","links":[{"rel":"asset","href":"{{self}}","mediaType":"image"}]}}}`,
	"whitelist.json":             `{"whitelist":[{"url":"https://wifi.example.org"}]}`,
	"tsconfig.json":              "{ // comments\n}",
	"node_modules/x/broken.json": "{",
	"pw-dist/broken.json":        "{",
}

// writeTree writes files into a new folder; an empty content removes a file of base.
func writeTree(t testing.TB, changes ...map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{}
	for _, c := range append([]map[string]string{base}, changes...) {
		for p, v := range c {
			if v == "" {
				delete(files, p)
			} else {
				files[p] = v
			}
		}
	}
	for p, v := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func run(t testing.TB, dir string, opts Options) Report {
	t.Helper()
	rep, err := Run(context.Background(), DirTree(dir), opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func dump(rep Report) string {
	var b strings.Builder
	for _, f := range rep.Findings {
		b.WriteString("\n  " + f.Path + ":" + itoa(f.Line) + " " + f.Rule + " " + string(f.Severity) + " ptr=" + f.Pointer + " key=" + f.Key + " lang=" + f.Language + " target=" + f.Target + ": " + f.Message)
	}
	return b.String()
}

func TestBasePortalHasNoFindings(t *testing.T) {
	rep := run(t, writeTree(t), Options{})
	if len(rep.Findings) != 0 {
		t.Fatalf("findings on a portal with nothing wrong:%s", dump(rep))
	}
	if rep.Summary.Files != len(base) {
		t.Fatalf("files: %d, want %d", rep.Summary.Files, len(base))
	}
}

// want is a finding a broken tree must have.
type want struct {
	rule, path string
	line       int
	pointer    string
	key, lang  string
	target     string
}

func TestRules(t *testing.T) {
	cases := []struct {
		name    string
		changes map[string]string
		want    []want
	}{
		{"link to a page not in the sitemap", map[string]string{
			"pages/about.html": "<p data-pw-t=\"TXT_ABOUT\">About</p>\n<a href=\"#/nowhere?x=1\">x</a>",
		}, []want{{rule: RuleLinkPageMissing, path: "pages/about.html", line: 2, target: "nowhere"}}},
		{"captcha link to a missing error page", map[string]string{
			"pages/about.html": `<a href="#/captcha/captcha-page/gone/https%3A%2F%2Fx" data-pw-t="TXT_ABOUT">x</a>`,
		}, []want{{rule: RuleLinkPageMissing, path: "pages/about.html", line: 1, target: "gone"}}},
		{"page selector and link manager to missing pages", map[string]string{
			"widgets/database/footer.json": `{"type":"links","data":{"title":"TXT_FOOTER","items":[
{"label":"TXT_SHOP","link":{"type":"Internal","value":"#/old-page"},"page":"older"}]}}`,
		}, []want{
			{rule: RuleLinkPageMissing, path: "widgets/database/footer.json", line: 2, pointer: "/data/items/0/link/value", target: "old-page"},
			{rule: RuleLinkPageMissing, path: "widgets/database/footer.json", line: 2, pointer: "/data/items/0/page", target: "older"},
		}},
		{"LNK_ value to a missing page", map[string]string{
			"translations/fr_FR.json": strings.Replace(base["translations/fr_FR.json"], `"LNK_HOME": "#/home"`, `"LNK_HOME": "#/accueil"`, 1),
		}, []want{{rule: RuleLinkPageMissing, path: "translations/fr_FR.json", line: 3, key: "LNK_HOME", lang: "fr_FR", target: "accueil"}}},
		{"sitemap page without its file", map[string]string{"pages/captcha.html": ""},
			[]want{{rule: RulePageMissingFile, path: "sitemap.json", line: 5, pointer: "/1/url", target: "pages/captcha.html"}}},
		{"missing files", map[string]string{
			"assets/img/bg one.png":    "",
			"microsites/shop/logo.png": "",
			"pages/home.html":          `<img src="/assets/img/gone.png?v=2#x" alt="" data-pw-t-title="TXT_HOME_TITLE">`,
			"content/menu.json":        `{"title": "Menu", "image": "assets/img/missing.png"}`,
			"translations/fr_FR.json":  strings.Replace(base["translations/fr_FR.json"], `"IMG_LOGO": "assets/img/logo.png"`, `"IMG_LOGO": "assets/img/logo-fr.png"`, 1),
		}, []want{
			{rule: RuleAssetMissing, path: "assets/site.css", line: 1, target: "assets/img/bg one.png"},
			{rule: RuleAssetMissing, path: "microsites/shop/index.html", line: 1, target: "microsites/shop/logo.png"},
			{rule: RuleAssetMissing, path: "pages/home.html", line: 1, target: "assets/img/gone.png"},
			{rule: RuleAssetMissing, path: "content/menu.json", line: 1, pointer: "/image", target: "assets/img/missing.png"},
			{rule: RuleAssetMissing, path: "translations/fr_FR.json", line: 2, key: "IMG_LOGO", lang: "fr_FR", target: "assets/img/logo-fr.png"},
		}},
		{"asset manager value and microsite link", map[string]string{
			"widgets/database/footer.json": `{"type":"links","data":{"title":"TXT_FOOTER","items":[{"label":"TXT_SHOP","link":"microsites/gone/index.html","image":"assets/none.svg"}]}}`,
		}, []want{
			{rule: RuleAssetMissing, path: "widgets/database/footer.json", line: 1, pointer: "/data/items/0/link", target: "microsites/gone/index.html"},
			{rule: RuleAssetMissing, path: "widgets/database/footer.json", line: 1, pointer: "/data/items/0/image", target: "assets/none.svg"},
		}},
		{"widget without data, instance of an unknown type", map[string]string{
			"pages/about.html":          "<p data-pw-t=\"TXT_ABOUT\">About</p>\n<div data-pw-widget=\"gone\"></div>",
			"widgets/database/odd.json": "{\n  \"type\": \"carousel\",\n  \"data\": {}\n}",
		}, []want{
			{rule: RuleWidgetMissing, path: "pages/about.html", line: 2, target: "gone"},
			{rule: RuleWidgetMissing, path: "widgets/database/odd.json", line: 2, pointer: "/type", target: "carousel"},
		}},
		{"a key missing and one empty", map[string]string{
			"translations/fr_FR.json": `{"IMG_LOGO": "assets/img/logo.png", "LNK_HOME": "#/home", "TXT_ABOUT": "À propos de <b>nous</b>",
"TXT_FOOTER": "  ", "TXT_HOME_TITLE": "{name} %1$s", "TXT_LOGO_ALT": "Logo", "TXT_NAV_HOME": "Accueil<br>"}`,
		}, []want{
			{rule: RuleTranslationMissing, path: "translations/fr_FR.json", line: 2, key: "TXT_FOOTER", lang: "fr_FR"},
			{rule: RuleTranslationMissing, path: "translations/fr_FR.json", key: "TXT_SHOP", lang: "fr_FR"},
		}},
		{"a language without its file", map[string]string{"translations/fr_FR.json": ""},
			[]want{{rule: RuleTranslationMissing, path: "translations/fr_FR.json", lang: "fr_FR"}}},
		{"unknown key, unused key", map[string]string{
			"pages/about.html":        `<p data-pw-t="TXT_ABOUT_US">About</p>`,
			"translations/en_GB.json": strings.Replace(base["translations/en_GB.json"], `"TXT_SHOP": "Shop"`, `"TXT_SHOP": "Shop", "TXT_OLD": "Old"`, 1),
			"translations/fr_FR.json": strings.Replace(base["translations/fr_FR.json"], `"TXT_SHOP": "Boutique"`, `"TXT_SHOP": "Boutique", "TXT_OLD": "Vieux"`, 1),
		}, []want{
			{rule: RuleTranslationUnknownKey, path: "pages/about.html", line: 1, key: "TXT_ABOUT_US"},
			{rule: RuleTranslationUnused, path: "translations/en_GB.json", line: 4, key: "TXT_ABOUT", lang: "en_GB"},
			{rule: RuleTranslationUnused, path: "translations/en_GB.json", line: 9, key: "TXT_OLD", lang: "en_GB"},
		}},
		{"placeholders and markup that differ", map[string]string{
			"translations/fr_FR.json": strings.NewReplacer(
				`"Vous avez %1$s messages, {name} !"`, `"Vous avez %s messages, {nom} !"`,
				`"À propos de <b>nous</b>"`, `"À propos de <i>nous</i>"`,
				`"Boutique"`, `"<b>Boutique"`).Replace(base["translations/fr_FR.json"]),
		}, []want{
			{rule: RuleTranslationPlaceholder, path: "translations/fr_FR.json", line: 6, key: "TXT_HOME_TITLE", lang: "fr_FR"},
			{rule: RuleTranslationMarkup, path: "translations/fr_FR.json", line: 4, key: "TXT_ABOUT", lang: "fr_FR"},
			{rule: RuleTranslationMarkup, path: "translations/fr_FR.json", line: 9, key: "TXT_SHOP", lang: "fr_FR"},
		}},
		{"a value over its length budget", map[string]string{
			ConfigFile: `{"lengthBudgets":[{"pattern":"TXT_NAV_*","maxChars":50},{"pattern":"TXT_A*","maxChars":8},{"pattern":"txt_s*","maxChars":5}]}`,
		}, []want{
			{rule: RuleTranslationLength, path: "translations/fr_FR.json", line: 4, key: "TXT_ABOUT", lang: "fr_FR", target: "TXT_A*"},
			{rule: RuleTranslationLength, path: "translations/fr_FR.json", line: 9, key: "TXT_SHOP", lang: "fr_FR", target: "txt_s*"},
		}},
		{"an image without alt", map[string]string{"pages/about.html": "<p data-pw-t=\"TXT_ABOUT\">x</p>\n<img src=\"assets/img/logo.png\">"},
			[]want{{rule: RulePageImgAlt, path: "pages/about.html", line: 2, target: "img 1"}}},
		{"JSON that does not parse", map[string]string{"widgets/database/footer.json": "{\n  \"type\": \"links\",\n  \"data\": {,}\n}"},
			[]want{{rule: RuleContentSyntax, path: "widgets/database/footer.json", line: 3}}},
		{"content that breaks its schema", map[string]string{"content/menu.json": "{\n  \"title\": \"\"\n}"},
			[]want{{rule: RuleContentSchema, path: "content/menu.json", line: 2, pointer: "/title"}}},
		{"a URL the whitelist does not allow", map[string]string{"pages/about.html": "<p data-pw-t=\"TXT_ABOUT\">x</p>\n<script src=\"https://cdn.example.com/x.js\"></script>"},
			[]want{{rule: RuleWhitelistNotAllowed, path: "pages/about.html", line: 2, target: "https://cdn.example.com/x.js"}}},
		{"over the size budget", map[string]string{ConfigFile: `{"sizeBudgetBytes": 100}`},
			[]want{{rule: RuleSizeBudget, path: ConfigFile, target: "100"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := run(t, writeTree(t, c.changes), Options{})
			if len(rep.Findings) != len(c.want) {
				t.Errorf("%d findings, want %d:%s", len(rep.Findings), len(c.want), dump(rep))
			}
			for _, w := range c.want {
				found := false
				for _, f := range rep.Findings {
					if f.Rule == w.rule && f.Path == w.path && f.Line == w.line && f.Pointer == w.pointer && f.Key == w.key && f.Language == w.lang && (w.target == "" || f.Target == w.target) {
						found = true
						if f.Severity != SeverityOf(w.rule) && w.rule != RuleWhitelistNotAllowed || f.ID != FindingID(f) || f.Message == "" {
							t.Errorf("finding %+v: severity, id or message", f)
						}
					}
				}
				if !found {
					t.Errorf("no %+v in:%s", w, dump(rep))
				}
			}
			// Only the rule asked for.
			only := run(t, writeTree(t, c.changes), Options{Rules: []string{c.want[0].rule}})
			for _, f := range only.Findings {
				if f.Rule != c.want[0].rule {
					t.Errorf("--rules %s gave %s", c.want[0].rule, f.Rule)
				}
			}
		})
	}
}

func TestIgnoredFindingsMoveAside(t *testing.T) {
	broken := map[string]string{"pages/about.html": "<p data-pw-t=\"TXT_ABOUT\">x</p><img src=\"assets/img/logo.png\"><a href=\"#/gone\">x</a>"}
	rep := run(t, writeTree(t, broken), Options{})
	if rep.Summary.Errors != 1 || rep.Summary.Warnings != 1 {
		t.Fatalf("summary %+v:%s", rep.Summary, dump(rep))
	}
	var alt Finding
	for _, f := range rep.Findings {
		if f.Rule == RulePageImgAlt {
			alt = f
		}
	}
	cfg := `{"ignored":[{"id":"` + alt.ID + `","rule":"page.img-alt","path":"pages/about.html","reason":"decorative, fixed in the next release","by":"ana","at":"2026-01-02T03:04:05Z"}]}`
	rep = run(t, writeTree(t, broken, map[string]string{ConfigFile: cfg}), Options{})
	if rep.Summary.Warnings != 0 || rep.Summary.Ignored != 1 || len(rep.Ignored) != 1 || rep.Ignored[0].Reason != "decorative, fixed in the next release" || rep.Ignored[0].By != "ana" {
		t.Fatalf("ignored: %+v %+v", rep.Summary, rep.Ignored)
	}
	if rep.Summary.ByRule[RulePageImgAlt] != 0 || rep.Summary.ByRule[RuleLinkPageMissing] != 1 {
		t.Fatalf("by rule: %v", rep.Summary.ByRule)
	}
}

func TestValidateRules(t *testing.T) {
	if err := ValidateRules([]string{RuleAssetMissing, RuleSizeBudget}); err != nil {
		t.Fatal(err)
	}
	if err := ValidateRules([]string{"asset.gone"}); err == nil || !strings.Contains(err.Error(), "asset.gone") {
		t.Fatalf("unknown rule: %v", err)
	}
	if len(RuleIDs()) != 15 {
		t.Fatalf("rules: %v", RuleIDs())
	}
}
