package check

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// memTree is a tree in memory whose Version is a write counter (a folder's mtime may not move
// between two quick writes of the same size).
type memTree struct {
	files   map[string]string
	version map[string]int
	writes  int
}

func newMemTree(files map[string]string) *memTree {
	t := &memTree{files: map[string]string{}, version: map[string]int{}}
	for p, v := range files {
		t.write(p, v)
	}
	return t
}

// write sets a file's content ("" removes it).
func (t *memTree) write(p, content string) {
	t.writes++
	if content == "" {
		delete(t.files, p)
		delete(t.version, p)
		return
	}
	t.files[p], t.version[p] = content, t.writes
}

func (t *memTree) file(p string) File {
	return File{Path: p, Size: int64(len(t.files[p])), Version: fmt.Sprint(t.version[p])}
}

func (t *memTree) Files(context.Context) ([]File, error) {
	out := make([]File, 0, len(t.files))
	for p := range t.files {
		out = append(out, t.file(p))
	}
	return out, nil
}

func (t *memTree) Read(_ context.Context, p string) ([]byte, error) {
	v, ok := t.files[p]
	if !ok {
		return nil, fmt.Errorf("%s: %w", p, ErrNotInTree)
	}
	return []byte(v), nil
}

func (t *memTree) Stat(_ context.Context, p string) (File, bool, error) {
	if _, ok := t.files[p]; !ok {
		return File{}, false, nil
	}
	return t.file(p), true, nil
}

// snapshotOf copies the tree's files (a fresh Run reads the copy).
func (t *memTree) snapshotOf() *memTree {
	c := &memTree{files: map[string]string{}, version: map[string]int{}}
	for p, v := range t.files {
		c.files[p], c.version[p] = v, t.version[p]
	}
	return c
}

// editor makes random edits to a generated portal, the kinds an author makes: each edit
// returns the paths it wrote.
type editor struct {
	rng   *rand.Rand
	tree  *memTree
	pages []string // the sitemap's page ids, in order
	next  int      // for new names
	last  Report   // the last report (ignores name its findings)
}

const (
	propPages = 24
	propLangs = 3
	propKeys  = 60
)

func newEditor(seed uint64) *editor {
	files := genPortal(propPages, propLangs, propKeys, propPages)
	// What the generated portal does not have: a file of its own folder's paths, a whitelist,
	// content with a schema, a second stylesheet.
	files["microsites/shop/index.html"] = `<html><body><a href="../../index.html#/page-0">Back</a><img src="logo.svg" alt="Shop"><script src="https://cdn.example.com/x.js"></script></body></html>`
	files["microsites/shop/logo.svg"] = "<svg/>"
	files["whitelist.json"] = `{"whitelist":[{"url":"https://cdn.example.com"}]}`
	files["content/menu.json"] = `{"title": "Menu", "image": "assets/img/asset-1.svg"}`
	files["content/menu.json.schema"] = `{"type":"object","required":["title"],"properties":{"title":{"type":"string","minLength":1},"image":{"type":"string","links":[{"rel":"asset","href":"{{self}}","mediaType":"image"}]}}}`
	files["assets/css/extra.css"] = ".x { background: url('../img/asset-2.svg') }\n"
	ed := &editor{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), tree: newMemTree(files)}
	for i := range propPages {
		ed.pages = append(ed.pages, fmt.Sprintf("page-%d", i))
	}
	return ed
}

func (ed *editor) pick(list []string) string {
	if len(list) == 0 {
		return "index.html" // every page was removed: the master page is one
	}
	return list[ed.rng.IntN(len(list))]
}

func (ed *editor) paths(prefix, suffix string) []string {
	var out []string
	for p := range ed.tree.files {
		if strings.HasPrefix(p, prefix) && strings.HasSuffix(p, suffix) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

func (ed *editor) sitemap() []string {
	var b strings.Builder
	b.WriteString("[\n")
	for i, id := range ed.pages {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `  {"id": %q, "title": "Page %d", "url": "/pages/%s.html", "children": []}`, id, ed.rng.IntN(3), id)
	}
	b.WriteString("\n]\n")
	return ed.set("sitemap.json", b.String())
}

// set writes a file ("" removes it).
func (ed *editor) set(p, content string) []string {
	ed.tree.write(p, content)
	return []string{p}
}

// appendTo adds a line before a file's end (a page, a template), or writes the file.
func (ed *editor) appendTo(p, line string) []string {
	return ed.set(p, ed.tree.files[p]+line+"\n")
}

func (ed *editor) name(prefix string) string {
	ed.next++
	return fmt.Sprintf("%s%d", prefix, ed.next)
}

var edits = []struct {
	name string
	do   func(ed *editor) []string
}{
	{"add a page to the sitemap (with its file or not)", func(ed *editor) []string {
		id := ed.name("new-page-")
		ed.pages = append(ed.pages, id)
		out := ed.sitemap()
		if ed.rng.IntN(2) == 0 {
			ed.tree.write("pages/"+id+".html", `<p data-pw-t="TXT_KEY_1">New</p><a href="#/`+ed.pick(ed.pages)+`">x</a>`)
			out = append(out, "pages/"+id+".html")
		}
		return out
	}},
	{"remove a page from the sitemap", func(ed *editor) []string {
		if len(ed.pages) < 2 {
			return nil
		}
		i := ed.rng.IntN(len(ed.pages))
		ed.pages = slices.Delete(ed.pages, i, i+1)
		return ed.sitemap()
	}},
	{"rename a page's title in the sitemap", func(ed *editor) []string { return ed.sitemap() }},
	{"remove a page's file", func(ed *editor) []string {
		p := ed.pick(ed.paths("pages/", ".html"))
		return ed.set(p, "")
	}},
	{"break a link", func(ed *editor) []string {
		return ed.appendTo(ed.pick(ed.paths("pages/", ".html")), `<a href="#/`+ed.name("nowhere-")+`">x</a>`)
	}},
	{"link to an existing page", func(ed *editor) []string {
		return ed.appendTo(ed.pick(ed.paths("pages/", ".html")), `<a href="#/`+ed.pick(ed.pages)+`">x</a>`)
	}},
	{"rewrite a page as generated (fixes what was broken)", func(ed *editor) []string {
		p := ed.pick(ed.paths("pages/", ".html"))
		return ed.set(p, `<article><h1 data-pw-t="TXT_KEY_3">T</h1><img src="assets/img/asset-3.svg" alt=""><a href="#/page-1">n</a><div data-pw-widget="card-1"></div></article>`)
	}},
	{"an image without alt, a missing image, a key no language has", func(ed *editor) []string {
		return ed.appendTo(ed.pick(ed.paths("pages/", ".html")), `<img src="assets/img/`+ed.name("gone-")+`.svg"><b data-pw-t="TXT_`+ed.name("UNKNOWN_")+`">u</b>`)
	}},
	{"an external URL", func(ed *editor) []string {
		return ed.appendTo(ed.pick(append(ed.paths("pages/", ".html"), "index.html", "assets/css/extra.css")), `<a href="https://`+ed.pick([]string{"cdn.example.com", "other.example.org", "x.example.net"})+`/p">x</a>`)
	}},
	{"add an asset", func(ed *editor) []string {
		p := fmt.Sprintf("assets/img/asset-%d.svg", ed.rng.IntN(propPages+5))
		return ed.set(p, "<svg/>")
	}},
	{"remove an asset", func(ed *editor) []string {
		p := ed.pick(ed.paths("assets/img/", ".svg"))
		return ed.set(p, "")
	}},
	{"remove a folder's last file", func(ed *editor) []string {
		return ed.set("microsites/shop/logo.svg", "")
	}},
	{"edit a translation value", func(ed *editor) []string {
		p := ed.pick(ed.paths("translations/", ".json"))
		k := fmt.Sprintf("TXT_KEY_%d", ed.rng.IntN(propKeys))
		v := ed.pick([]string{"Plain", "With {name}", "With {other} and <b>bold</b>", "<i>unclosed", "   ", "A very long text that is over any budget for sure, longer than forty characters"})
		if !strings.Contains(ed.tree.files[p], `"`+k+`"`) {
			return nil
		}
		var data map[string]string
		if err := json.Unmarshal([]byte(ed.tree.files[p]), &data); err != nil {
			return nil
		}
		data[k] = v
		out, _ := json.MarshalIndent(data, "", "  ")
		return ed.set(p, string(out))
	}},
	{"add or remove a translation key (LNK_, IMG_, TXT_)", func(ed *editor) []string {
		p := ed.pick(ed.paths("translations/", ".json"))
		var data map[string]string
		if err := json.Unmarshal([]byte(ed.tree.files[p]), &data); err != nil {
			return nil
		}
		switch ed.rng.IntN(4) {
		case 0:
			data["LNK_"+ed.name("L")] = "#/" + ed.pick(append(ed.pages, "gone"))
		case 1:
			data["IMG_"+ed.name("I")] = "assets/img/" + ed.pick([]string{"asset-1.svg", "none.svg"})
		case 2:
			data[ed.name("TXT_NEW_")] = "New"
		default:
			keys := slices.Sorted(func(yield func(string) bool) {
				for k := range data {
					if !yield(k) {
						return
					}
				}
			})
			delete(data, ed.pick(keys))
		}
		out, _ := json.MarshalIndent(data, "", "  ")
		return ed.set(p, string(out))
	}},
	{"break or remove a translation file", func(ed *editor) []string {
		p := ed.pick(ed.paths("translations/", ".json"))
		return ed.set(p, ed.pick([]string{"{", `{"TXT_KEY_1": {"nested": "x"}}`, ""}))
	}},
	{"restore the translation files", func(ed *editor) []string {
		var out []string
		for p, v := range genPortal(1, propLangs, propKeys, 1) {
			if strings.HasPrefix(p, "translations/") {
				ed.tree.write(p, v)
				out = append(out, p)
			}
		}
		return out
	}},
	{"change readiness.json", func(ed *editor) []string {
		var cfg string
		switch ed.rng.IntN(5) {
		case 0:
			cfg = `{"lengthBudgets":[{"pattern":"TXT_KEY_1*","maxChars":10},{"pattern":"[","maxChars":5}]}`
		case 1:
			cfg = fmt.Sprintf(`{"sizeBudgetBytes": %d}`, 1000*ed.rng.IntN(30))
		case 2:
			if len(ed.last.Findings) == 0 {
				return nil
			}
			f := ed.last.Findings[ed.rng.IntN(len(ed.last.Findings))]
			cfg = `{"ignored":[{"id":"` + f.ID + `","rule":"` + f.Rule + `","path":"` + f.Path + `","reason":"r","by":"b","at":"2026-01-02T03:04:05Z"}]}`
		case 3:
			cfg = `{"lengthBudgets": 3}`
		default:
			cfg = ""
		}
		return ed.set(ConfigFile, cfg)
	}},
	{"add a widget instance (of a type or not) on a page", func(ed *editor) []string {
		id := ed.name("w-")
		typ := ed.pick([]string{"card", "card", "gone"})
		p := "widgets/database/" + id + ".json"
		ed.tree.write(p, `{"type": "`+typ+`", "data": {"title": "`+ed.pick([]string{"TXT_KEY_5", "TXT_NOPE", "txt_key_7"})+`", "image": "assets/img/`+ed.pick([]string{"asset-4.svg", "nothing.svg"})+`", "page": "`+ed.pick(append(ed.pages, "gone"))+`", "link": "#/`+ed.pick(append(ed.pages, "gone"))+`"}}`)
		page := ed.pick(ed.paths("pages/", ".html"))
		return append(ed.appendTo(page, `<div data-pw-widget="`+ed.pick([]string{id, "missing-widget"})+`"></div>`), p)
	}},
	{"remove a widget instance", func(ed *editor) []string {
		p := ed.pick(ed.paths("widgets/database/", ".json"))
		return ed.set(p, "")
	}},
	{"break a widget instance's JSON", func(ed *editor) []string {
		p := ed.pick(ed.paths("widgets/database/", ".json"))
		return ed.set(p, "{\n  \"type\": \"card\",\n  \"data\": {,}\n}")
	}},
	{"change or remove the widget type", func(ed *editor) []string {
		p := "widgets/modules/card/config.probe.json"
		return ed.set(p, ed.pick([]string{
			`{"name":"Card","properties":[{"name":"title","editor":"TranslationSelector"},{"name":"image","editor":"AssetManager"},{"name":"page","editor":"PageSelector"},{"name":"link","editor":"LinkManager"}]}`,
			`{"name":"Card","properties":[{"name":"title","editor":"Text"},{"name":"page","editor":"PageSelector"}]}`,
			"",
		}))
	}},
	{"edit the widget template", func(ed *editor) []string {
		return ed.appendTo("widgets/modules/card/template.html", `<a href="#/`+ed.pick(append(ed.pages, "gone"))+`" data-pw-t="`+ed.pick([]string{"TXT_KEY_9", "TXT_TEMPLATE_ONLY"})+`">t</a><div data-pw-widget="`+ed.pick([]string{"card-2", "nope"})+`"></div>`)
	}},
	{"change the whitelist", func(ed *editor) []string {
		return ed.set("whitelist.json", ed.pick([]string{
			`{"whitelist":[{"url":"https://cdn.example.com"}]}`,
			`{"whitelist":[{"url":"https://other.example.org/p"}]}`,
			`{"whitelist": 1}`,
			"",
		}))
	}},
	{"content against its schema", func(ed *editor) []string {
		if ed.rng.IntN(3) == 0 {
			return ed.set("content/menu.json.schema", ed.pick([]string{
				`{"type":"object","required":["title"],"properties":{"title":{"type":"string","minLength":1},"image":{"type":"string","links":[{"rel":"asset","href":"{{self}}","mediaType":"image"}]}}}`,
				`{"type": 7}`,
				"",
			}))
		}
		return ed.set("content/menu.json", ed.pick([]string{
			`{"title": "Menu", "image": "assets/img/asset-1.svg"}`,
			`{"title": "", "image": "assets/img/missing.svg"}`,
			`{"title": `,
		}))
	}},
	{"a stylesheet's url()", func(ed *editor) []string {
		return ed.appendTo("assets/css/extra.css", ".y { background: url("+ed.pick([]string{"../img/asset-5.svg", "../img/none.svg", "/assets/img/asset-6.svg"})+") }")
	}},
	{"a file in a folder of its own", func(ed *editor) []string {
		p := "microsites/" + ed.name("site-") + "/index.html"
		return ed.set(p, `<img src="logo.png"><a href="../shop/index.html">s</a><b data-pw-t="TXT_KEY_11">k</b>`)
	}},
	{"change portal.json", func(ed *editor) []string {
		return ed.set("portal.json", ed.pick([]string{
			genPortal(1, propLangs, propKeys, 1)["portal.json"],
			`{"engineType":"PORTAL_ENGINE","languageSettings":{"languages":["en_GB","fr_FR"],"defaultLanguage":"en_GB","translationsBasePath":"translations"},"taskRunnerSettings":{"active":true,"outputPath":"assets"}}`,
			`{"engineType":"UNIVERSAL","languageSettings":{"languages":["en_GB"],"defaultLanguage":"en_GB","translationsBasePath":"translations"}}`,
		}))
	}},
}

// TestIncrementalEqualsFreshRun: random sequences of edits to a generated portal applied
// through Update (some through Refresh) give, after each step, exactly the report a fresh Run
// over the same tree gives — with the options the server and the command use.
func TestIncrementalEqualsFreshRun(t *testing.T) {
	steps := 200
	if testing.Short() || raceEnabled {
		steps = 50 // the race detector watches the reader more than it checks the steps
	}
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			propertySteps(t, seed, steps, func(step int, steps string, tree *memTree, ix *Index) {
				// A fresh Run is NewIndex, then Report.
				freshIndex, err := NewIndex(context.Background(), tree.snapshotOf())
				if err != nil {
					t.Fatal(err)
				}
				for _, opts := range []Options{{}, {Rules: []string{RuleAssetMissing, RuleTranslationUnused}}, {Config: &Config{SizeBudgetBytes: 5000, LengthBudgets: []LengthBudget{{Pattern: "TXT_*", MaxChars: 12}}}}} {
					fresh := freshIndex.Report(opts)
					if got, want := reportJSON(ix.Report(opts)), reportJSON(fresh); got != want {
						t.Fatalf("step %d (%s), options %+v: the index's report differs from a fresh run's:%s", step, steps, opts, diff(ix.Report(opts), fresh))
					}
				}
			})
		})
	}
}

// propertySteps applies steps random edits and calls check after each (with the tree and the
// index); meanwhile a reader asks the index for reports (the race detector watches).
func propertySteps(t *testing.T, seed uint64, steps int, check func(step int, what string, tree *memTree, ix *Index)) {
	ctx := context.Background()
	ed := newEditor(seed)
	ix, err := NewIndex(ctx, ed.tree.snapshotOf())
	if err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			ix.Report(Options{})
			time.Sleep(time.Millisecond)
		}
	}()
	defer func() { stop.Store(true); wg.Wait() }()
	used := map[string]int{}
	for step := range steps {
		// One to three edits, then one Update naming their paths (and sometimes a path that did
		// not change), or a Refresh.
		var written, what []string
		for range 1 + ed.rng.IntN(3) {
			e := edits[ed.rng.IntN(len(edits))]
			used[e.name]++
			what = append(what, e.name)
			written = append(written, e.do(ed)...)
		}
		tree := ed.tree.snapshotOf()
		if ed.rng.IntN(5) == 0 {
			what = append(what, "Refresh")
			_, err = ix.Refresh(ctx, tree)
		} else {
			if ed.rng.IntN(4) == 0 {
				written = append(written, ed.pick(ed.paths("", "")))
			}
			_, err = ix.Update(ctx, tree, written)
		}
		if err != nil {
			t.Fatal(err)
		}
		check(step, strings.Join(what, "; "), tree, ix)
		ed.last = ix.Report(Options{})
	}
	for _, e := range edits {
		if used[e.name] == 0 && steps >= 200 {
			t.Errorf("no step made the edit %q", e.name)
		}
	}
}

// diff are the lines of two reports' findings that only one has (and the summaries).
func diff(got, want Report) string {
	lines := func(r Report) map[string]bool {
		out := map[string]bool{}
		for _, l := range strings.Split(dump(r), "\n") {
			out[l] = true
		}
		for _, f := range r.Ignored {
			out["ignored "+f.ID] = true
		}
		return out
	}
	g, w := lines(got), lines(want)
	var b strings.Builder
	for l := range g {
		if !w[l] {
			b.WriteString("\n  + " + l)
		}
	}
	for l := range w {
		if !g[l] {
			b.WriteString("\n  - " + l)
		}
	}
	fmt.Fprintf(&b, "\n  summary %+v, fresh %+v", got.Summary, want.Summary)
	return b.String()
}

func reportJSON(r Report) string {
	b, err := json.Marshal(r)
	if err != nil {
		panic(err)
	}
	return string(b)
}
