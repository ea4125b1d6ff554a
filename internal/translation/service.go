// Package translation is the translation manager's server (spec 2 §2 "Translation manager",
// §3 "Translation data", §4 and §5 "Translations", §8): the translation files of the caller's
// workspace of a portal — one flat JSON object key → text per language, at
// <translationsBasePath>/<language>.json — read with their versions, saved all languages at
// once, and the status of every key per language with its report.
//
// Safety rules:
//   - every file access goes through editing.Workspace (the workspace file layer: checked
//     paths, links refused, atomic versioned writes under the workspace lock);
//   - a file path is made only by filePath, from a language that is one of the portal's
//     languages (each checked against the ll / ll_CC code pattern) and the settings'
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
	"net/http"
	"path"
	"slices"
	"sort"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/portalaccess"
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

// filePath is the translation file of a language of the portal.
func (pl portalLanguages) filePath(lang string) (workspace.Path, error) {
	if !pl.has(lang) || !languageCode.MatchString(lang) {
		return workspace.Path{}, unknownLanguage(lang)
	}
	name := lang + ".json"
	if pl.base != "." {
		name = pl.base + "/" + name
	}
	p, err := workspace.CleanPath(name)
	if err != nil {
		return workspace.Path{}, settingsInvalid("translationsBasePath must be a folder inside the portal")
	}
	return p, nil
}

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
		if !languageCode.MatchString(l) {
			return pl, settingsInvalid(fmt.Sprintf("'%s' is not a language code like en_GB", l))
		}
		if !slices.Contains(pl.languages, l) {
			pl.languages = append(pl.languages, l)
		}
	}
	if !languageCode.MatchString(pl.def) || !pl.has(pl.def) {
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

// file is one language's translation file as read.
type file struct {
	path    workspace.Path
	raw     []byte // nil when the file does not exist
	set     Set
	version workspace.Version // workspace.NoVersion when the file does not exist
}

// read reads a language's file: a missing file is an empty set at NoVersion; one that is not
// a flat JSON object of texts is a 422.
func (s *Service) read(ctx context.Context, c caller.Caller, pa portalaccess.Portal, pl portalLanguages, lang string) (file, error) {
	p, err := pl.filePath(lang)
	if err != nil {
		return file{}, err
	}
	data, version, err := s.ws.Read(ctx, c, pa, p)
	if errors.Is(err, fs.ErrNotExist) {
		return file{path: p, set: Set{}, version: workspace.NoVersion}, nil
	}
	if err != nil {
		return file{}, editing.FileError(err, p.String())
	}
	var set Set
	if err := json.Unmarshal(data, &set); err != nil || set == nil {
		return file{}, apperr.NewError(http.StatusUnprocessableEntity, CodeContentInvalid, "Unprocessable Entity",
			fmt.Sprintf(MsgCouldNotLoad, lang)).WithData(map[string]string{"path": p.String(), "language": lang})
	}
	return file{path: p, raw: data, set: set, version: version}, nil
}

// all reads every language's file of the portal.
func (s *Service) all(ctx context.Context, c caller.Caller, pa portalaccess.Portal, pl portalLanguages) (map[string]file, error) {
	out := make(map[string]file, len(pl.languages))
	for _, l := range pl.languages {
		f, err := s.read(ctx, c, pa, pl, l)
		if err != nil {
			return nil, err
		}
		out[l] = f
	}
	return out, nil
}

// apiVersion is a version as the API shows it: "" for a missing file.
func apiVersion(v workspace.Version) string {
	if v == workspace.NoVersion {
		return ""
	}
	return string(v)
}

// baseVersion is the version a save says it is based on ("" for a file read as missing).
func baseVersion(v string) workspace.Version {
	if v == "" {
		return workspace.NoVersion
	}
	return workspace.Version(v)
}

// Get reads the translations of every language of the portal from the caller's workspace.
func (s *Service) Get(ctx context.Context, c caller.Caller, pa portalaccess.Portal) (*Translations, error) {
	pl, err := s.languagesOf(ctx, c, pa)
	if err != nil {
		return nil, err
	}
	files, err := s.all(ctx, c, pa, pl)
	if err != nil {
		return nil, err
	}
	out := &Translations{LanguageMode: pl.mode, DefaultLanguage: pl.def, Languages: pl.languages,
		Data: make(map[string]Set, len(files)), Versions: make(map[string]string, len(files))}
	for l, f := range files {
		out.Data[l], out.Versions[l] = f.set, apiVersion(f.version)
	}
	return out, nil
}

// statuses computes the status of every key of every language, as seen from lang.
func statuses(pl portalLanguages, files map[string]file, lang string) (map[string]Set, map[string]KeyStatus) {
	data := make(map[string]Set, len(files))
	for l, f := range files {
		data[l] = f.set
	}
	others := pl.others()
	out := map[string]KeyStatus{}
	for _, k := range AllKeys(data) {
		out[k] = Status(data, pl.def, others, lang, k)
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
	files, err := s.all(ctx, c, pa, pl)
	if err != nil {
		return nil, err
	}
	_, keys := statuses(pl, files, lang)
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
	files, err := s.all(ctx, c, pa, pl)
	if err != nil {
		return nil, err
	}
	data, keys := statuses(pl, files, lang)
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

	// Keys and values.
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
		set, errs := CheckKeys(l, texts)
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

	// The files whose content changes; the others must still be at their base.
	saved := &Saved{Versions: make(map[string]string, len(langs))}
	var writes []workspace.FileWrite
	var written []string
	for _, l := range langs {
		cur, err := s.read(ctx, c, pa, pl, l)
		if err != nil && !isUnparseable(err) {
			return nil, err
		}
		if err != nil { // an unreadable file is replaced by the save, if based on its version
			p, _ := pl.filePath(l)
			data, v, rerr := s.ws.Read(ctx, c, pa, p)
			if rerr != nil {
				return nil, editing.FileError(rerr, p.String())
			}
			cur = file{path: p, raw: data, version: v}
		}
		base := baseVersion(req.Versions[l])
		data, err := Encode(sets[l])
		if err != nil {
			return nil, err
		}
		unchanged := bytes.Equal(data, cur.raw) || (cur.raw == nil && len(sets[l]) == 0)
		if unchanged {
			if base != cur.version {
				return nil, stale(l, cur.path, cur.version)
			}
			saved.Versions[l] = apiVersion(cur.version)
			continue
		}
		writes = append(writes, workspace.FileWrite{Path: cur.path, Data: data, Base: base})
		written = append(written, l)
	}
	versions, err := s.ws.WriteAll(ctx, c, pa, writes)
	if err != nil {
		return nil, withLanguage(err, writes, written)
	}
	for i, l := range written {
		saved.Versions[l] = apiVersion(versions[i])
	}
	return saved, nil
}

func isUnparseable(err error) bool {
	var e *apperr.Error
	return errors.As(err, &e) && e.Code == CodeContentInvalid
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
