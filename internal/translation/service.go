// Package translation is the translation manager's server (spec 2 §2 "Translation manager",
// §3 "Translation data", §4 and §5 "Translations", §8): the translation files of the caller's
// workspace of a portal — one JSON file per language in <translationsBasePath>, flat (the
// product's own format: key → text, at <language>.json) or nested (real-world locale files:
// objects of texts, keys shown as dotted paths, written back in place; the default language's
// file decides), found by the language's name variants (pt_BR.json, pt-BR.json, pt-br.json,
// pt_br.json, pt.json) — read with their versions, saved all languages at once, and the status
// of every key per language with its report.
//
// Safety rules:
//   - every file access goes through editing.Files (the workspace file layer: checked
//     paths, links refused, atomic versioned writes under the workspace lock);
//   - a file path is made only by fileNames/inBase, from a language that is one of the
//     portal's languages (each checked against the ll / ll_CC code pattern) and the settings'
//     translationsBasePath, and then checked by workspace.CleanPath: user input never
//     becomes a path by itself;
//   - a save checks everything before writing anything (languages, keys, values, versions)
//     and writes all its files or none (editing.WriteAll), each based on the version it was
//     read at: a stale one is a 409 FILE_CHANGED and nothing changes.
package translation

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"path"
	"slices"
	"sort"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/portalaccess"
	"portalwright/internal/validate"
	"portalwright/internal/workspace"
)

// Service is the translation manager over the editing unit.
type Service struct {
	ws *editing.Workspace
}

// NewService returns the translation manager.
func NewService(ws *editing.Workspace) *Service { return &Service{ws: ws} }

// portalLanguages is what the portal's settings say about its languages, checked.
type portalLanguages struct {
	mode      string
	def       string
	languages []string // in the settings' order, without duplicates
	base      string   // translationsBasePath, cleaned ("." for the top folder)
}

// others are the portal's languages but the default.
func (pl portalLanguages) others() []string {
	out := make([]string, 0, len(pl.languages))
	for _, l := range pl.languages {
		if l != pl.def {
			out = append(out, l)
		}
	}
	return out
}

func (pl portalLanguages) has(lang string) bool { return slices.Contains(pl.languages, lang) }

// filePath is the file a language's translations are saved to when none of its names exists:
// the product's <language>.json.
func (pl portalLanguages) filePath(lang string) (workspace.Path, error) {
	if !pl.has(lang) || !validate.LanguageCode(lang) {
		return workspace.Path{}, unknownLanguage(lang)
	}
	return pl.inBase(lang + ".json")
}

// inBase is a file name of the translations folder as a workspace path.
func (pl portalLanguages) inBase(name string) (workspace.Path, error) {
	if pl.base != "." {
		name = pl.base + "/" + name
	}
	p, err := workspace.CleanPath(name)
	if err != nil {
		return workspace.Path{}, settingsInvalid("translationsBasePath must be a folder inside the portal")
	}
	return p, nil
}

// fileNames are the names a language's file may have (FileNames).
func (pl portalLanguages) fileNames(lang string) []string { return FileNames(pl.languages, lang) }

func unknownLanguage(lang string) error {
	return apperr.NotFound(CodeLanguageUnknown, fmt.Sprintf(MsgLanguageUnknown, lang))
}

func settingsInvalid(why string) error {
	return apperr.NewError(http.StatusUnprocessableEntity, CodeContentInvalid, "Unprocessable Entity",
		"The portal's language settings are not usable: "+why+". Correct them in the portal settings.")
}

// languagesOf reads and checks the language settings of the caller's workspace.
func (s *Service) languagesOf(ctx context.Context, c caller.Caller, pa portalaccess.Portal) (portalLanguages, error) {
	st, _, err := s.ws.Settings(ctx, c, pa)
	if err != nil {
		return portalLanguages{}, err
	}
	ls := st.LanguageSettings
	pl := portalLanguages{mode: ls.LanguageMode, def: ls.DefaultLanguage}
	for _, l := range ls.Languages {
		if !validate.LanguageCode(l) {
			return pl, settingsInvalid(fmt.Sprintf("'%s' is not a language code like en_GB", l))
		}
		if !slices.Contains(pl.languages, l) {
			pl.languages = append(pl.languages, l)
		}
	}
	if !validate.LanguageCode(pl.def) || !pl.has(pl.def) {
		return pl, settingsInvalid(fmt.Sprintf("the default language '%s' is not one of the portal's languages", pl.def))
	}
	pl.base = path.Clean(ls.TranslationsBasePath)
	if pl.base != "." {
		if _, err := workspace.CleanPath(pl.base); err != nil {
			return pl, settingsInvalid("translationsBasePath must be a folder inside the portal")
		}
	}
	return pl, nil
}

// located is a language's file as found in the workspace: the first of its names that
// exists, else the product's name with no content.
type located struct {
	path    workspace.Path
	raw     []byte            // nil when the file does not exist
	version workspace.Version // workspace.NoVersion when the file does not exist
}

// locate finds a language's file by its names (fileNames; two languages of a portal never
// share a name), else it is the product's name, missing.
func (s *Service) locate(ctx context.Context, c caller.Caller, pa portalaccess.Portal, pl portalLanguages, lang string) (located, error) {
	own, err := pl.filePath(lang)
	if err != nil {
		return located{}, err
	}
	for _, name := range pl.fileNames(lang) {
		p, err := pl.inBase(name)
		if err != nil {
			return located{}, err
		}
		data, version, err := s.ws.Files().Read(ctx, c, pa, p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return located{}, editing.FileError(err, p.String())
		}
		return located{path: p, raw: data, version: version}, nil
	}
	return located{path: own, version: workspace.NoVersion}, nil
}

// file is one language's translation file as read.
type file struct {
	located
	set     Set       // the texts (empty when the file does not exist or cannot be read)
	doc     *document // nested layout: the file's document (nil when missing or unreadable)
	problem string    // why the file cannot be read ("" when it can)
}

// portalFiles are the translation files of a portal as far as they are read: the layout
// (from the default language's file), the default's file and those of the languages asked for.
type portalFiles struct {
	layout Layout
	def    *file
	files  map[string]*file
}

// load reads the default language's file, which sets the layout, and the files of langs.
func (s *Service) load(ctx context.Context, c caller.Caller, pa portalaccess.Portal, pl portalLanguages, langs []string) (*portalFiles, error) {
	pf := &portalFiles{layout: LayoutFlat, files: make(map[string]*file, len(langs)+1)}
	defLoc, err := s.locate(ctx, c, pa, pl, pl.def)
	if err != nil {
		return nil, err
	}
	var defDoc *document
	if defLoc.raw != nil {
		pf.layout, defDoc = layoutOf(defLoc.raw)
	}
	pf.def = pf.parse(defLoc, defLoc, defDoc)
	pf.files[pl.def] = pf.def
	for _, l := range langs {
		if pf.files[l] != nil {
			continue
		}
		loc, err := s.locate(ctx, c, pa, pl, l)
		if err != nil {
			return nil, err
		}
		pf.files[l] = pf.parse(loc, defLoc, nil)
	}
	return pf, nil
}

// parse reads a located file in the portal's layout (doc: the file already parsed, or nil).
func (pf *portalFiles) parse(loc, def located, doc *document) *file {
	f := &file{located: loc, set: Set{}}
	if loc.raw == nil {
		return f
	}
	defIs := def.path.String() + " is flat"
	if def.raw == nil {
		defIs = def.path.String() + " does not exist"
	}
	set, doc, why := parseFile(pf.layout, loc.path.String(), loc.raw, defIs, doc)
	if why != "" {
		f.problem = why
		return f
	}
	f.set, f.doc = set, doc
	return f
}

// unreadable is the 422 of a file that cannot be read, saying why in data.reason.
func unreadable(lang string, f *file) error {
	return apperr.NewError(http.StatusUnprocessableEntity, CodeContentInvalid, "Unprocessable Entity",
		fmt.Sprintf(MsgCouldNotLoad, lang)).WithData(map[string]string{"path": f.path.String(), "language": lang, "reason": f.problem})
}

// all reads every language's file of the portal; one that cannot be read is a 422.
func (s *Service) all(ctx context.Context, c caller.Caller, pa portalaccess.Portal, pl portalLanguages) (*portalFiles, error) {
	pf, err := s.load(ctx, c, pa, pl, pl.languages)
	if err != nil {
		return nil, err
	}
	for _, l := range pl.languages {
		if f := pf.files[l]; f.problem != "" {
			return nil, unreadable(l, f)
		}
	}
	return pf, nil
}

// Get reads the translations of every language of the portal from the caller's workspace.
func (s *Service) Get(ctx context.Context, c caller.Caller, pa portalaccess.Portal) (*Translations, error) {
	pl, err := s.languagesOf(ctx, c, pa)
	if err != nil {
		return nil, err
	}
	pf, err := s.all(ctx, c, pa, pl)
	if err != nil {
		return nil, err
	}
	n := len(pf.files)
	out := &Translations{LanguageMode: pl.mode, DefaultLanguage: pl.def, Languages: pl.languages, Layout: pf.layout,
		Files: make(map[string]string, n), Data: make(map[string]Set, n), Versions: make(map[string]string, n)}
	for l, f := range pf.files {
		out.Files[l], out.Data[l], out.Versions[l] = f.path.String(), f.set, f.version.Shown()
	}
	return out, nil
}

// statuses computes the status of every key of every language, as seen from lang.
func statuses(pl portalLanguages, pf *portalFiles, lang string) (map[string]Set, map[string]KeyStatus) {
	data := make(map[string]Set, len(pf.files))
	for l, f := range pf.files {
		data[l] = f.set
	}
	others := pl.others()
	out := map[string]KeyStatus{}
	for _, k := range AllKeys(data) {
		out[k] = StatusIn(pf.layout, data, pl.def, others, lang, k)
	}
	return data, out
}

// Status is the status of every key (of every language) in one language of the portal.
func (s *Service) Status(ctx context.Context, c caller.Caller, pa portalaccess.Portal, lang string) (*LanguageStatus, error) {
	pl, err := s.languagesOf(ctx, c, pa)
	if err != nil {
		return nil, err
	}
	if !pl.has(lang) {
		return nil, unknownLanguage(lang)
	}
	pf, err := s.all(ctx, c, pa, pl)
	if err != nil {
		return nil, err
	}
	_, keys := statuses(pl, pf, lang)
	return &LanguageStatus{Language: lang, Default: lang == pl.def, Keys: keys}, nil
}

// Report counts the statuses of one language and lists its keys that are not COMPLETED.
func (s *Service) Report(ctx context.Context, c caller.Caller, pa portalaccess.Portal, lang string) (*Report, error) {
	pl, err := s.languagesOf(ctx, c, pa)
	if err != nil {
		return nil, err
	}
	if !pl.has(lang) {
		return nil, unknownLanguage(lang)
	}
	pf, err := s.all(ctx, c, pa, pl)
	if err != nil {
		return nil, err
	}
	data, keys := statuses(pl, pf, lang)
	return buildReport(lang, data[lang], data[pl.def], keys), nil
}

func buildReport(lang string, set, def Set, keys map[string]KeyStatus) *Report {
	r := &Report{Language: lang, Total: len(keys), Keys: []ReportKey{}}
	for k, st := range keys {
		switch st.Status {
		case StatusCompleted:
			r.Completed++
			continue
		case StatusIncomplete:
			r.Incomplete++
		case StatusMissing:
			r.Missing++
		}
		r.Keys = append(r.Keys, ReportKey{Key: k, Status: st.Status, Reason: st.Reason, Value: set[k], DefaultValue: def[k]})
	}
	sort.Slice(r.Keys, func(i, j int) bool { return r.Keys[i].Key < r.Keys[j].Key })
	return r
}

// Encode is a language's file as saved: a flat JSON object sorted by key, indented by two
// spaces, ending with a newline (markup in values is kept as written, not escaped).
func Encode(set Set) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if set == nil {
		set = Set{}
	}
	if err := enc.Encode(set); err != nil { // maps encode sorted by key
		return nil, err
	}
	return b.Bytes(), nil
}

func contentInvalid(status int, message string, rules []RuleError) error {
	e := apperr.NewError(status, CodeContentInvalid, http.StatusText(status), message)
	if rules != nil {
		e = e.WithData(map[string]any{"ruleErrors": rules})
	}
	return e
}

// Save writes the translations of the languages in the request into the caller's workspace,
// all or nothing. Everything is checked first — languages (400), keys and values (422 with
// data.ruleErrors), versions (428 without, 409 FILE_CHANGED when stale) — and nothing is
// written when one check fails. Only files whose content changes are written; the answer
// holds the version of every language of the request.
func (s *Service) Save(ctx context.Context, c caller.Caller, pa portalaccess.Portal, req SaveRequest) (*Saved, error) {
	pl, err := s.languagesOf(ctx, c, pa)
	if err != nil {
		return nil, err
	}
	if len(req.Data) == 0 {
		return nil, contentInvalid(http.StatusBadRequest, "The save holds no translation data.", nil)
	}
	langs := make([]string, 0, len(req.Data))
	for l := range req.Data {
		if !pl.has(l) {
			return nil, contentInvalid(http.StatusBadRequest, fmt.Sprintf("'%s' is not a language of this portal.", l), nil)
		}
		if req.Data[l] == nil {
			return nil, contentInvalid(http.StatusBadRequest, fmt.Sprintf("The translations of '%s' must be an object of key → text ({} for none).", l), nil)
		}
		langs = append(langs, l)
	}
	sort.Strings(langs)

	pf, err := s.load(ctx, c, pa, pl, langs)
	if err != nil {
		return nil, err
	}

	// Keys and values.
	check := CheckKeys
	if pf.layout == LayoutNested {
		check = CheckNestedKeys
	}
	sets := make(map[string]Set, len(langs))
	var rules []RuleError
	for _, l := range langs {
		texts := make(map[string]string, len(req.Data[l]))
		for k, raw := range req.Data[l] {
			var v string
			if err := json.Unmarshal(raw, &v); err != nil || !bytes.HasPrefix(bytes.TrimSpace(raw), []byte(`"`)) { // null is no text
				rules = append(rules, RuleError{Message: fmt.Sprintf("The value of translation key '%s' must be a text.", k), Key: k, Language: l})
				continue
			}
			texts[k] = v
		}
		set, errs := check(l, texts)
		sets[l], rules = set, append(rules, errs...)
	}
	if len(rules) > 0 {
		sort.SliceStable(rules, func(i, j int) bool {
			if rules[i].Language != rules[j].Language {
				return rules[i].Language < rules[j].Language
			}
			return rules[i].Key < rules[j].Key
		})
		return nil, contentInvalid(http.StatusUnprocessableEntity, rules[0].Message, rules)
	}

	// Versions.
	for _, l := range langs {
		if _, ok := req.Versions[l]; !ok {
			return nil, apperr.NewError(http.StatusPreconditionRequired, "VERSION_REQUIRED", "Precondition Required",
				fmt.Sprintf("The save does not say which version of the '%s' translations it was based on (versions.%s). Reload and try again.", l, l))
		}
	}

	// The files whose content changes; the others must still be at their base. An unreadable
	// file is replaced by the save, if based on its version.
	saved := &Saved{Versions: make(map[string]string, len(langs))}
	var writes []workspace.FileWrite
	var written []string
	var rank map[string]int // nested: new keys follow the default language's order
	if pf.layout == LayoutNested && pf.def.doc != nil {
		rank = pf.def.doc.order()
	}
	for _, l := range langs {
		cur := pf.files[l]
		base := workspace.BasedOn(req.Versions[l])
		var data []byte
		switch {
		case pf.layout == LayoutFlat:
			if data, err = Encode(sets[l]); err != nil {
				return nil, err
			}
		case cur.problem == "" && maps.Equal(cur.set, sets[l]):
			data = cur.raw
		default:
			data = pf.nestedBytes(cur, sets[l], rank)
		}
		unchanged := bytes.Equal(data, cur.raw) || (cur.raw == nil && len(sets[l]) == 0)
		if unchanged {
			if base != cur.version {
				return nil, stale(l, cur.path, cur.version)
			}
			saved.Versions[l] = cur.version.Shown()
			continue
		}
		writes = append(writes, workspace.FileWrite{Path: cur.path, Data: data, Base: base})
		written = append(written, l)
	}
	versions, err := s.ws.Files().WriteAll(ctx, c, pa, writes)
	if err != nil {
		return nil, withLanguage(err, writes, written)
	}
	for i, l := range written {
		saved.Versions[l] = versions[i].Shown()
	}
	return saved, nil
}

// nestedBytes is a nested file with the texts of set: its document edited in place, or a new
// one laid out as the default language's file when it does not exist or cannot be read.
func (pf *portalFiles) nestedBytes(cur *file, set Set, rank map[string]int) []byte {
	doc := cur.doc
	if doc == nil {
		st := defaultStyle
		if pf.def.doc != nil {
			st = pf.def.doc.style
		}
		doc = newDocument(st)
	}
	doc.apply(set, rank)
	return doc.bytes()
}

// stale is the 409 FILE_CHANGED of a language's file.
func stale(lang string, p workspace.Path, current workspace.Version) error {
	err := editing.FileError(&workspace.ErrStale{Current: current}, p.String())
	return withLanguage(err, []workspace.FileWrite{{Path: p}}, []string{lang})
}

// withLanguage completes a FILE_CHANGED answer: the language of the file, and "" as the
// current version of a file that no longer exists (as reads show it).
func withLanguage(err error, writes []workspace.FileWrite, langs []string) error {
	var e *apperr.Error
	if !errors.As(err, &e) || e.Code != editing.CodeFileChanged {
		return err
	}
	d, _ := e.Data.(map[string]string)
	if d == nil {
		return err
	}
	if d["currentVersion"] == string(workspace.NoVersion) {
		d["currentVersion"] = ""
	}
	for i, w := range writes {
		if w.Path.String() == d["path"] {
			d["language"] = langs[i]
		}
	}
	return e
}
