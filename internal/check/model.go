package check

import (
	"path"
	"slices"
	"strings"
	"sync"

	"portalwright/internal/translation"
)

// model is what the rules read: the index's files and what follows from them.
type model struct {
	*snapshot
	cfg     Config
	cfgPath bool // readiness.json exists

	hasSitemap bool
	pages      map[string]bool   // page ids (with the master page)
	pageFiles  map[string]string // page file → page id (the files of the sitemap's pages)
}

// MasterPage is the synthetic page id of the master page (index.html).
const MasterPage = "master-page"

// masterFile is the master page of a portal-engine portal.
const masterFile = "index.html"

func newModel(s *snapshot) *model {
	m := &model{snapshot: s, pages: map[string]bool{MasterPage: true}, pageFiles: map[string]string{}}
	files, lay := s.files, s.lay
	if e := files[ConfigFile]; e != nil && e.d != nil && e.d.config != nil {
		m.cfg, m.cfgPath = *e.d.config, true
	}
	if e := files["sitemap.json"]; e != nil && e.d != nil && e.d.sitemap && lay.engine {
		m.hasSitemap = true
		for _, pg := range e.d.pages {
			m.pages[pg.id] = true
			if f, ok := pageFile(pg.url); ok {
				m.pageFiles[f] = pg.id
			}
		}
	}
	return m
}

// pageFile is the file of a sitemap url ("/pages/home.html" → "pages/home.html").
func pageFile(url string) (string, bool) {
	p := strings.TrimPrefix(url, "/")
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	p = path.Clean(p)
	return p, cleanRel(p)
}

func probeType(p string) (string, bool) {
	rest, ok := strings.CutPrefix(p, "widgets/modules/")
	if !ok {
		return "", false
	}
	t, name, ok := strings.Cut(rest, "/")
	return t, ok && name == "config.probe.json"
}

// exists says whether a portal-relative path is a file or a folder of the tree.
func (m *model) exists(p string) bool {
	p = strings.TrimSuffix(p, "/")
	if p == "" || p == "." {
		return true
	}
	return m.files[p] != nil || m.dirs[p]
}

// sorted are the paths of the index, sorted (the rules emit in a stable order).
func (m *model) sorted() []string { return m.paths }

// translations are the portal's translation files as the rules read them: each language's
// file (found by its name variants), its texts, and what the rules compare of each value.
type translations struct {
	def       string
	languages []string // the settings' order, without duplicates
	layout    translation.Layout
	files     map[string]*langFile
	data      map[string]translation.Set

	definedOnce sync.Once
	defined     map[string]bool // the keys of every language
	valuesMu    sync.Mutex
	values      map[string][]Finding // ruleTranslationValues, by budgets
	keysOnce    sync.Once
	keys        map[string][]string // keysOf
	missingOnce sync.Once
	missing     []Finding // translation.missing (ruleTranslationMissing)
}

type langFile struct {
	path    string
	exists  bool
	problem string // why it cannot be read
	lines   map[string]int
	values  map[string]valueFacts
}

// valueFacts are what the rules compare of one value.
type valueFacts struct {
	placeholders []string
	markup       markupOf
}

// buildTranslations reads the translation files of the index (nil when the portal has no
// languages or no translation file at all).
func buildTranslations(lay layout, files map[string]*entry) *translations {
	ls := lay.settings.LanguageSettings
	if !lay.translated {
		return nil
	}
	tr := &translations{def: ls.DefaultLanguage, files: map[string]*langFile{}, data: map[string]translation.Set{}}
	for _, l := range ls.Languages {
		if !slices.Contains(tr.languages, l) {
			tr.languages = append(tr.languages, l)
		}
	}
	if !slices.Contains(tr.languages, tr.def) {
		tr.languages = append([]string{tr.def}, tr.languages...)
	}
	any := false
	for _, l := range tr.languages {
		lf := &langFile{path: inDir(lay.trDir, l+".json")}
		for _, name := range translation.FileNames(tr.languages, l) {
			p := inDir(lay.trDir, name)
			if e := files[p]; e != nil {
				lf.path, lf.exists = p, true
				any = true
				break
			}
		}
		tr.files[l] = lf
	}
	if !any {
		return nil
	}
	def := tr.files[tr.def]
	defIs := def.path + " is flat"
	tr.layout = translation.LayoutFlat
	if e := files[def.path]; def.exists && e.d != nil && e.d.trRaw != nil {
		tr.layout = translation.LayoutOf(e.d.trRaw)
	} else {
		defIs = def.path + " does not exist"
	}
	for _, l := range tr.languages {
		lf := tr.files[l]
		set := translation.Set{}
		if lf.exists {
			e := files[lf.path]
			switch {
			case e.d == nil:
				lf.problem = lf.path + " could not be read"
			case e.d.syntax != nil:
				lf.problem = "syntax" // content.syntax says so
			case e.d.trRaw != nil:
				s, why := translation.ParseFile(tr.layout, lf.path, e.d.trRaw, defIs)
				if why != "" {
					lf.problem = why
				} else {
					set = s
				}
				lf.lines = e.d.trLines
			}
		}
		if tr.layout == translation.LayoutFlat && lf.problem == "" {
			up := make(translation.Set, len(set))
			lines := make(map[string]int, len(set))
			for k, v := range set {
				up[strings.ToUpper(k)] = v
				lines[strings.ToUpper(k)] = lf.lines[k]
			}
			set, lf.lines = up, lines
		}
		lf.values = make(map[string]valueFacts, len(set))
		for k, v := range set {
			lf.values[k] = valueFacts{placeholders: placeholders(v), markup: analyzeMarkup(v)}
		}
		tr.data[l] = set
	}
	return tr
}

func inDir(dir, name string) string {
	if dir == "." || dir == "" {
		return name
	}
	return dir + "/" + name
}
