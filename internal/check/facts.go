package check

import (
	"encoding/json"
	"path"
	"regexp"
	"strconv"
	"strings"

	"portalwright/internal/editing"
	"portalwright/internal/schemacheck"
	"portalwright/internal/validate"
	"portalwright/internal/whitelist"
)

// What the index keeps of each file: facts (references with their lines, keys, problems),
// never the content, except a translation file's (its values are what the translation rules
// compare). Assets are listed, never read.

// maxRead bounds a file the check reads; a larger one is listed (its size counts) but not
// read.
const maxRead = 8 << 20

// ref is a value a file refers to: a URL, a page id, a widget id, a key.
type ref struct {
	val  string // data-pw-t keys: upper-cased and trimmed
	line int
	ptr  string // JSON pointer (widget data, content)
	attr string // HTML: the attribute (src, href, data-pw-widget, …); CSS: "url"
}

// details are the facts of a file that was read.
type details struct {
	syntax *syntaxProblem
	urls   []whitelist.Found // external URLs (the whitelist scan)

	// HTML and CSS
	links    []ref // src, href, poster of HTML; url() of CSS
	widgets  []ref // data-pw-widget
	keys     []ref // data-pw-t, data-pw-t-*
	imgNoAlt []int // lines of <img> without alt

	// JSON
	leaves   []ref // widget data: string values
	wtype    ref   // widget data: its type
	probe    []probeProp
	pages    []sitemapPage
	sitemap  bool // sitemap.json read as a page tree
	content  *contentFacts
	trRaw    []byte         // translation files: the content
	trLines  map[string]int // translation files: key (dotted for nested) → line
	settings *editing.Settings
	config   *Config
	whitel   []string
	problem  string // the file is JSON but not of its format (readiness.json, whitelist.json)
}

type syntaxProblem struct {
	line, col int
	msg       string
}

// probeProp is a property of a widget type (config.probe.json).
type probeProp struct {
	Name       string      `json:"name"`
	Editor     string      `json:"editor"`
	Properties []probeProp `json:"properties"`
}

// sitemapPage is a page of sitemap.json.
type sitemapPage struct {
	id, url string
	ptr     string // the page's pointer ("/1/children/0")
	line    int    // of its id
	hasURL  bool
}

// contentFacts are a JSON file's problems against its companion schema, and the files its
// media fields name.
type contentFacts struct {
	problems  []schemaProblem
	media     []ref
	schemaErr string // the schema cannot be used
}

type schemaProblem struct {
	ptr, msg string
	line     int
}

// jsonc are files that are JSON with comments by convention (validate.IsJSONC, the rule the
// asset manager's saves follow too): not checked.
func jsonc(p string) bool { return validate.IsJSONC(p) }

// layout is where a portal's files are, from its settings.
type layout struct {
	settings   editing.Settings
	has        bool   // portal.json exists and reads
	output     string // the task runner's output folder
	trDir      string // translationsBasePath ("." for the top)
	engine     bool   // a portal-engine portal
	translated bool   // translation files can exist (settings with languages)
}

func newLayout(st *editing.Settings) layout {
	l := layout{output: editing.DefaultOutputPath, trDir: editing.DefaultTranslations}
	if st == nil {
		return l
	}
	l.settings, l.has = *st, true
	if o := path.Clean(st.TaskRunnerSettings.OutputPath); o != "." && o != "" && cleanRel(o) {
		l.output = o
	}
	if t := path.Clean(st.LanguageSettings.TranslationsBasePath); t == "." || cleanRel(t) {
		l.trDir = t
	}
	l.engine = st.EngineType == "PORTAL_ENGINE"
	l.translated = st.LanguageSettings.DefaultLanguage != ""
	return l
}

// skipped are files the check never reads: generated (the task runner's output) or vendored
// (node_modules).
func (l layout) skipped(p string) bool {
	return p == l.output || strings.HasPrefix(p, l.output+"/") || strings.HasPrefix(p, "node_modules/") || strings.Contains(p, "/node_modules/")
}

// isTranslation says whether p is a file of the translations folder.
func (l layout) isTranslation(p string) bool {
	dir := path.Dir(p)
	return l.translated && dir == l.trDir && strings.HasSuffix(p, ".json")
}

// readable says whether the check reads p.
func (l layout) readable(f File) bool {
	if f.Size > maxRead || l.skipped(f.Path) {
		return false
	}
	lower := strings.ToLower(f.Path)
	switch {
	case strings.HasSuffix(lower, ".html"), strings.HasSuffix(lower, ".htm"), strings.HasSuffix(lower, ".css"):
		return true
	case strings.HasSuffix(lower, ".json"), strings.HasSuffix(lower, ".schema"):
		return !jsonc(f.Path)
	}
	return false
}

// extract reads the facts of one file. schema is the companion schema's content for a JSON
// file that has one (nil otherwise).
func extract(l layout, p string, data []byte, schema []byte, hasSchema bool) *details {
	d := &details{}
	lower := strings.ToLower(p)
	if scan, markup := whitelist.Scanned(p, l.output); scan && len(data) <= whitelist.MaxScanFile {
		d.urls = whitelist.Extract(data, markup)
	}
	switch {
	case strings.HasSuffix(lower, ".html"), strings.HasSuffix(lower, ".htm"):
		extractHTML(d, data)
	case strings.HasSuffix(lower, ".css"):
		extractCSS(d, data)
	default:
		extractJSON(l, d, p, data, schema, hasSchema)
	}
	return d
}

func extractHTML(d *details, data []byte) {
	scanTags(data, func(t *tag) {
		if t.end {
			return
		}
		hasAlt := false
		for _, a := range t.attrs {
			switch {
			case a.name == "src" || a.name == "href" || a.name == "poster":
				d.links = append(d.links, ref{val: a.val, line: t.line, attr: a.name})
			case a.name == "data-pw-widget":
				d.widgets = append(d.widgets, ref{val: a.val, line: t.line, attr: a.name})
			case a.name == "data-pw-t" || strings.HasPrefix(a.name, "data-pw-t-"):
				d.keys = append(d.keys, ref{val: strings.ToUpper(strings.TrimSpace(a.val)), line: t.line, attr: a.name})
				if a.name == "data-pw-t-alt" {
					hasAlt = true
				}
			case a.name == "alt":
				hasAlt = true
			}
		}
		if t.name == "img" && !hasAlt {
			d.imgNoAlt = append(d.imgNoAlt, t.line)
		}
	}, nil)
}

func extractCSS(d *details, data []byte) {
	lines := 1
	last := 0
	for _, m := range cssURL.FindAllSubmatchIndex(data, -1) {
		lines += strings.Count(string(data[last:m[0]]), "\n")
		last = m[0]
		v := strings.TrimSpace(string(data[m[2]:m[3]]))
		v = strings.Trim(v, `"'`)
		d.links = append(d.links, ref{val: v, line: lines, attr: "url"})
	}
}

func extractJSON(l layout, d *details, p string, data []byte, schema []byte, hasSchema bool) {
	if line, col, msg, ok := validate.JSONSyntaxAt(data); !ok {
		d.syntax = &syntaxProblem{line: line, col: col, msg: msg}
		return
	}
	if strings.HasSuffix(strings.ToLower(p), ".schema") {
		return
	}
	dir, name := path.Split(p)
	switch {
	case p == editing.SettingsFile:
		st, err := editing.ParseSettings(data)
		if err == nil {
			d.settings = &st
		}
	case p == ConfigFile:
		var c Config
		if err := json.Unmarshal(data, &c); err != nil {
			d.problem = "readiness.json is not like {\"lengthBudgets\": [{\"pattern\": \"TXT_*\", \"maxChars\": 40}], \"sizeBudgetBytes\": 0, \"ignored\": []}: " + err.Error()
		} else {
			d.config = &c
		}
	case p == whitelist.File:
		entries, err := whitelist.Parse(data)
		if err != nil {
			d.problem = "whitelist.json is not like {\"whitelist\": [{\"url\": \"https://…\"}]}: " + err.Error()
		}
		for _, e := range entries {
			d.whitel = append(d.whitel, e.URL)
		}
	case p == "sitemap.json":
		d.sitemap = true
		d.pages = readSitemap(data)
	case dir == "widgets/database/":
		walkJSON(data, func(v *jsonValue) {
			if !v.isString {
				return
			}
			if len(v.segs) == 1 && v.segs[0] == "type" {
				d.wtype = ref{val: v.str, line: v.line, ptr: "/type"}
				return
			}
			d.leaves = append(d.leaves, ref{val: v.str, line: v.line, ptr: v.pointer()})
		})
	case strings.HasPrefix(dir, "widgets/modules/") && strings.Count(dir, "/") == 3 && name == "config.probe.json":
		var probe struct {
			Properties []probeProp `json:"properties"`
		}
		if json.Unmarshal(data, &probe) == nil {
			d.probe = probe.Properties
		}
	case l.isTranslation(p):
		d.trRaw = data
		d.trLines = map[string]int{}
		walkJSON(data, func(v *jsonValue) {
			if len(v.segs) > 0 && !v.isObject {
				d.trLines[strings.Join(v.segs, ".")] = v.line
			}
		})
	}
	if hasSchema {
		d.content = checkContent(p, data, schema)
	}
}

// readSitemap reads the pages of sitemap.json (a list of pages with children) with the line
// of each id.
func readSitemap(data []byte) []sitemapPage {
	byPtr := map[string]*sitemapPage{}
	var order []string
	walkJSON(data, func(v *jsonValue) {
		n := len(v.segs)
		if n < 2 || !v.isString || (v.segs[n-1] != "id" && v.segs[n-1] != "url") || !pagePath(v.segs[:n-1]) {
			return
		}
		ptr := pointerOf(v.segs[:n-1])
		pg := byPtr[ptr]
		if pg == nil {
			pg = &sitemapPage{ptr: ptr}
			byPtr[ptr] = pg
			order = append(order, ptr)
		}
		if v.segs[n-1] == "id" {
			pg.id, pg.line = v.str, v.line
		} else {
			pg.url, pg.hasURL = v.str, true
		}
	})
	out := make([]sitemapPage, 0, len(order))
	for _, ptr := range order {
		if pg := byPtr[ptr]; pg.id != "" {
			out = append(out, *pg)
		}
	}
	return out
}

// pagePath says whether segs lead to a page of the tree: an index, then pairs of
// "children" and an index.
func pagePath(segs []string) bool {
	if len(segs)%2 == 0 || !isIndex(segs[0]) {
		return false
	}
	for i := 1; i < len(segs); i += 2 {
		if segs[i] != "children" || !isIndex(segs[i+1]) {
			return false
		}
	}
	return true
}

func isIndex(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// checkContent validates a JSON file against its companion schema, and lists the files its
// media fields (schema links[].mediaType) name.
func checkContent(p string, data, raw []byte) *contentFacts {
	cf := &contentFacts{}
	name := path.Base(p) + ".schema"
	sch, err := schemacheck.Compile(raw, name)
	if err != nil {
		cf.schemaErr = err.Error()
		return cf
	}
	doc, err := schemacheck.ParseJSON(data)
	if err != nil {
		return cf // content.syntax says so
	}
	problems := sch.Validate(doc)
	var lines map[string]int
	lineOf := func(ptr string) int {
		if lines == nil {
			lines = map[string]int{}
			walkJSON(data, func(v *jsonValue) { lines[v.pointer()] = v.line })
		}
		for {
			if l, ok := lines[ptr]; ok {
				return l
			}
			i := strings.LastIndexByte(ptr, '/')
			if i < 0 {
				return 0
			}
			ptr = ptr[:i]
		}
	}
	for _, pr := range problems {
		cf.problems = append(cf.problems, schemaProblem{ptr: pr.Pointer, msg: pr.Message, line: lineOf(pr.Pointer)})
	}
	mediaFields(sch.Document(), doc, nil, func(segs []string, v string) {
		ptr := pointerOf(segs)
		cf.media = append(cf.media, ref{val: v, ptr: ptr, line: lineOf(ptr)})
	})
	return cf
}

// mediaFields walks a document along its schema and calls fn for every non-empty string whose
// schema has links with a mediaType (image, document …): a file of the portal.
func mediaFields(schema, doc any, segs []string, fn func([]string, string)) {
	s, ok := schema.(map[string]any)
	if !ok {
		return
	}
	if links, ok := s["links"].([]any); ok {
		for _, l := range links {
			if lm, ok := l.(map[string]any); ok {
				if mt, _ := lm["mediaType"].(string); mt != "" {
					if v, ok := doc.(string); ok && v != "" {
						fn(segs, v)
					}
					break
				}
			}
		}
	}
	switch d := doc.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		for k, v := range d {
			if ps, ok := props[k]; ok {
				mediaFields(ps, v, append(segs, k), fn)
			}
		}
	case []any:
		if items, ok := s["items"].(map[string]any); ok {
			for i, v := range d {
				mediaFields(items, v, append(segs, itoa(i)), fn)
			}
		}
	}
}

// cssURL is a url(…) of a stylesheet.
var cssURL = regexp.MustCompile(`(?i)\burl\(\s*([^)]*)\)`)

func itoa(i int) string { return strconv.Itoa(i) }
