package check

import (
	"path"
	"slices"
	"strings"
	"sync"

	"portalwright/internal/translation"
)

// model is what a Report's rules read: a snapshot and the budgets of readiness.json (or of
// Options.Config).
type model struct {
	*snapshot
	cfg     Config
	cfgPath bool // readiness.json exists
}

// MasterPage is the synthetic page id of the master page (index.html).
const MasterPage = "master-page"

// masterFile is the master page of a portal-engine portal.
const masterFile = "index.html"

func newModel(s *snapshot) *model {
	m := &model{snapshot: s}
	if e := s.files[ConfigFile]; e != nil && e.d != nil && e.d.config != nil {
		m.cfg, m.cfgPath = *e.d.config, true
	}
	return m
}

// readPages reads the sitemap's pages (from sitemap.json's entry) into s.
func (s *snapshot) readPages() {
	s.hasSitemap, s.pages, s.pageFiles = false, map[string]bool{MasterPage: true}, map[string]string{}
	if e := s.files["sitemap.json"]; e != nil && e.d != nil && e.d.sitemap && s.lay.engine {
		s.hasSitemap = true
		for _, pg := range e.d.pages {
			s.pages[pg.id] = true
			if f, ok := pageFile(pg.url); ok {
				s.pageFiles[f] = pg.id
			}
		}
	}
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
func (s *snapshot) exists(p string) bool {
	p = strings.TrimSuffix(p, "/")
	if p == "" || p == "." {
		return true
	}
	return s.files[p] != nil || s.dirs[p]
}

// translations are the portal's translation files as the rules read them: each language's
// file (found by its name variants), its texts, and what the rules compare of each value.
type translations struct {
	def       string
	languages []string // the settings' order, without duplicates
	layout    translation.Layout
	files     map[string]*langFile
	data      map[string]translation.Set

	defIs string // how ParseFile names the default language's file

	valuesMu sync.Mutex
	values   map[string][]Finding // ruleTranslationValues, by budgets
}

// langFile is one language's file as the rules read it; it never changes once built (a new
// state of the files builds a new one, or keeps it when its file's entry did not move).
type langFile struct {
	path    string
	exists  bool
	from    *entry // the entry it was read from (nil: none)
	problem string // why it cannot be read
	lines   map[string]int
	values  map[string]valueFacts
	set     translation.Set
	keys    []string // of set, sorted
}

// valueFacts are what the rules compare of one value.
type valueFacts struct {
	placeholders []string
	markup       markupOf
}

// buildTranslations reads the translation files of the index (nil when the portal has no
// languages or no translation file at all). A language whose file's entry is old's (same
// layout) keeps old's reading of it.
func buildTranslations(lay layout, files map[string]*entry, old *translations) *translations {
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
	tr.defIs = defIs
	for _, l := range tr.languages {
		lf := tr.files[l]
		if lf.exists {
			lf.from = files[lf.path]
		}
		if old != nil && old.layout == tr.layout && old.defIs == tr.defIs {
			if o := old.files[l]; o != nil && o.path == lf.path && o.exists == lf.exists && o.from == lf.from {
				tr.files[l], tr.data[l] = o, o.set
				continue
			}
		}
		set := translation.Set{}
		if lf.exists {
			e := lf.from
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
		lf.set, lf.keys = set, sortedKeys(set)
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
