package page

// Portal search (spec 3 §2 search, §7 GET /portal/{d}/{p}/search?phrase): page titles
// (sitemap.json), page text (pages/*.html, tags stripped), widget data (string values of
// widgets/database/*.json) and translations (values of <translationsBasePath>/*.json) of the
// caller's workspace, case-insensitive.
//
// Files are read by a bounded pool of workers (editing.Files.ReadMany) and each is first
// checked for the phrase as bytes (lower-cased) before it is parsed; only files that may hold
// it are stripped of tags or walked as JSON. Other files are read only when git grep lists
// them as holding the phrase's longest plain word (readSearched). See docs/api.md "Search".

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"html"
	"io"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/merge"
	"portalwright/internal/portalaccess"
	"portalwright/internal/validate"
	"portalwright/internal/workspace"
)

// Search limits and messages (spec 2 §9, spec 3 §8).
const (
	MaxResults      = 100
	MaxHitsPerFile  = 5
	MaxPhraseLength = 200
	LabelLength     = 43
	SnippetLength   = 120
	maxSearchFile   = 4 << 20
	MsgEmptyPhrase  = "Please type something in the search box to search in the selected portal."
	CodeEmptyPhrase = "SEARCH_PHRASE_REQUIRED"
	MsgSearchFailed = "Failed to search"
)

// Hit types.
const (
	HitPage        = "page"
	HitWidget      = "widget"
	HitTranslation = "translation"
	HitFile        = "file"
)

// Hit is one search result. Title is the page's title (a page), the widget id, the
// translation key or the file name; Snippet is the text around the phrase (at most 120
// characters, one line); Label the same cut to 43 characters for the header dropdown.
type Hit struct {
	Type     string `json:"type"`
	PageID   string `json:"pageId,omitempty"`
	WidgetID string `json:"widgetId,omitempty"`
	Key      string `json:"key,omitempty"`
	Language string `json:"language,omitempty"`
	Title    string `json:"title"`
	Path     string `json:"path"`
	Snippet  string `json:"snippet"`
	Label    string `json:"label"`
	Line     int    `json:"line,omitempty"`

	rank int
	src  string // the text the snippet is cut from, when the answer is made
	at   int    // the phrase's byte offset in src
	seq  int    // the hit's order in its file (a title's in the tree)
	n    int    // and its length
}

// SearchResult is the answer of a search: at most MaxResults hits, sorted (page titles, page
// text, widgets, translations, other files; then by path and line), truncated when more were
// found.
type SearchResult struct {
	Phrase    string `json:"phrase"`
	Results   []Hit  `json:"results"`
	Truncated bool   `json:"truncated"`
}

// Search finds the phrase in the caller's workspace of the portal.
func (s *Service) Search(ctx context.Context, c caller.Caller, pa portalaccess.Portal, phrase string) (*SearchResult, error) {
	phrase = strings.TrimSpace(phrase)
	if phrase == "" {
		return nil, apperr.BadRequest(CodeEmptyPhrase, MsgEmptyPhrase)
	}
	if utf8.RuneCountInString(phrase) > MaxPhraseLength || strings.ContainsAny(phrase, "\x00\r\n") {
		return nil, apperr.Validation("The search phrase must be one line of at most 200 characters.")
	}
	needle := []byte(strings.ToLower(phrase))
	find := newFinder(needle)
	word := prefilterWord(needle)
	idx, err := s.titleIndex(ctx, c, pa)
	if err != nil {
		return nil, err
	}
	names := idx.byID
	trDir := "translations"
	set, _, setErr := s.ws.Settings(ctx, c, pa) // read once: translations folder and build output
	if setErr == nil && set.LanguageSettings.TranslationsBasePath != "" {
		trDir = path.Clean(set.LanguageSettings.TranslationsBasePath)
	}
	var (
		mu     sync.Mutex
		hits   []Hit
		more   bool
		usedBy = map[string]string{} // widget id → the first page (by id) that shows it
	)
	add := func(h []Hit, over bool) {
		if len(h) == 0 && !over {
			return
		}
		mu.Lock()
		hits = append(hits, h...)
		more = more || over
		mu.Unlock()
	}
	// Page titles.
	var titleHits []Hit
	for k, pt := range idx.list {
		if i := strings.Index(pt.lower, string(needle)); i >= 0 {
			titleHits = append(titleHits, hit(Hit{Type: HitPage, PageID: pt.id, Title: pt.title, Path: SitemapFile, rank: 0, seq: k}, pt.title, pt.lower, i, len(needle)))
		}
	}
	add(titleHits, false)

	// Every text file of the portal but the build output: pages, widgets and translations as
	// the spec orders them, then any other file (issue 24 item 5).
	output := editing.DefaultOutputPath
	if setErr == nil && set.TaskRunnerSettings.OutputPath != "" {
		output = path.Clean(set.TaskRunnerSettings.OutputPath)
	}
	skip := func(dir string) bool { return dir == output || path.Base(dir) == "node_modules" }
	keep := func(name string) bool { return merge.KindOf(name, nil) != merge.KindBinary }
	err = s.readSearched(ctx, c, pa, word, trDir, output, skip, keep, func(p workspace.Path, data []byte) error {
		dir, name := path.Split(p.String())
		dir = strings.TrimSuffix(dir, "/")
		switch {
		case dir == "pages" && strings.HasSuffix(name, ".html"):
			id := strings.TrimSuffix(name, ".html")
			widgets := widgetRefs(data)
			var h []Hit
			var over bool
			if word == nil || bytes.Contains(data, []byte("&#")) || indexFoldASCII(data, word) >= 0 {
				h, over = searchHTML(data, needle)
			}
			mu.Lock()
			for _, w := range widgets {
				if cur, ok := usedBy[w]; !ok || id < cur {
					usedBy[w] = id
				}
			}
			mu.Unlock()
			title, inSitemap := names[id]
			for i := range h {
				h[i].Path = p.String()
				if inSitemap {
					h[i].Type, h[i].PageID, h[i].Title, h[i].rank = HitPage, id, title, 1
				} else {
					h[i].Type, h[i].Title, h[i].rank = HitFile, name, 4
				}
			}
			add(h, over)
		case dir == WidgetsDir && strings.HasSuffix(name, ".json"):
			h, over := searchJSON(data, needle, find)
			for i := range h {
				h[i].Type, h[i].WidgetID, h[i].Title, h[i].Path, h[i].rank = HitWidget, strings.TrimSuffix(name, ".json"), strings.TrimSuffix(name, ".json"), p.String(), 2
			}
			add(h, over)
		case dir == trDir && strings.HasSuffix(name, ".json"):
			h, over := searchJSON(data, needle, find)
			lang := strings.TrimSuffix(name, ".json")
			for i := range h {
				h[i].Type, h[i].Language, h[i].Title, h[i].Path, h[i].rank = HitTranslation, lang, h[i].Key, p.String(), 3
			}
			add(h, over)
		case p.String() == SitemapFile:
			// Its page titles are searched above.
		default:
			if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
				return nil // binary content under a text name
			}
			if word != nil && indexFoldASCII(data, word) < 0 {
				return nil
			}
			search := searchText
			if strings.HasSuffix(name, ".html") || strings.HasSuffix(name, ".htm") {
				search = searchHTML
			}
			h, over := search(data, needle)
			for i := range h {
				h[i].Type, h[i].Title, h[i].Path, h[i].rank = HitFile, name, p.String(), 4
			}
			add(h, over)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range hits {
		if hits[i].Type == HitWidget {
			hits[i].PageID = usedBy[hits[i].WidgetID]
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		a, b := &hits[i], &hits[j]
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.seq != b.seq {
			return a.seq < b.seq
		}
		return a.at < b.at
	})
	out := &SearchResult{Phrase: phrase, Results: hits, Truncated: more}
	if len(hits) > MaxResults {
		out.Results, out.Truncated = hits[:MaxResults], true
	}
	if out.Results == nil {
		out.Results = []Hit{}
	}
	for i := range out.Results {
		out.Results[i].cut()
	}
	return out, nil
}

// grepTimeout bounds the git grep that picks the files to read (a search falls back to
// reading every file when it fails).
const grepTimeout = 30 * time.Second

// readSearched hands visit every text file of the workspace the search must look at, with
// the same outcome as ReadTree over every folder skip does not skip. When the phrase has a
// plain word (prefilterWord), visit leaves out any other file than a page (pages/*.html), a
// widget or a translation file that does not hold it, so those are the only files read in
// full (their markup or escapes can hide the word); of the others only the files one
// `git grep --no-index -F -i -l` of the word over the working tree lists are read, as the
// raw tool would read them (docs/api.md "Search").
func (s *Service) readSearched(ctx context.Context, c caller.Caller, pa portalaccess.Portal, word []byte, trDir, output string, skip func(dir string) bool, keep func(name string) bool, visit func(p workspace.Path, data []byte) error) error {
	full := func() error { return s.ws.Files().ReadTree(ctx, c, pa, skip, keep, maxSearchFile, visit) }
	special := []string{"pages", WidgetsDir, trDir}
	if word == nil || !plainDir(output) {
		return full()
	}
	for _, d := range special {
		if !plainDir(d) || skippedDir(d, skip) {
			return full()
		}
	}
	type grepped struct {
		paths []string
		err   error
	}
	found := make(chan grepped, 1)
	go func() {
		paths, err := s.ws.Files().GrepFiles(ctx, c, pa, string(word), []string{"pages/*.html", WidgetsDir + "/*.json", trDir + "/*.json", "**/node_modules/**"}, []string{output}, grepTimeout)
		found <- grepped{paths, err}
	}()
	var mu sync.Mutex
	seen := map[string]bool{}
	var dirs []workspace.Path
	for i, d := range special {
		if p, err := workspace.CleanPath(d); err == nil && !slices.Contains(special[:i], d) {
			dirs = append(dirs, p)
		}
	}
	keepSpecial := func(name string) bool {
		return (strings.HasSuffix(name, ".html") || strings.HasSuffix(name, ".json")) && keep(name)
	}
	err := s.ws.Files().ReadMany(ctx, c, pa, dirs, keepSpecial, maxSearchFile, func(p workspace.Path, data []byte) error {
		mu.Lock()
		seen[p.String()] = true
		mu.Unlock()
		return visit(p, data)
	})
	g := <-found
	if err != nil {
		return err
	}
	if g.err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// git grep failed: read every other file (those read already once more would repeat
		// their hits, so all of them, from the start).
		return s.readRest(ctx, c, pa, skip, keep, seen, visit)
	}
	rest := g.paths[:0]
	for _, p := range g.paths {
		if !seen[p] {
			rest = append(rest, p)
		}
	}
	return s.ws.Files().ReadFiles(ctx, c, pa, rest, skip, keep, maxSearchFile, visit)
}

// readRest is ReadTree but for the files in seen.
func (s *Service) readRest(ctx context.Context, c caller.Caller, pa portalaccess.Portal, skip func(dir string) bool, keep func(name string) bool, seen map[string]bool, visit func(p workspace.Path, data []byte) error) error {
	return s.ws.Files().ReadTree(ctx, c, pa, skip, keep, maxSearchFile, func(p workspace.Path, data []byte) error {
		if seen[p.String()] {
			return nil
		}
		return visit(p, data)
	})
}

// plainDir tells whether dir is a folder path below the top without anything a git pathspec
// glob would read as a pattern.
func plainDir(dir string) bool {
	return dir != "" && dir != "." && path.Clean(dir) == dir && !path.IsAbs(dir) && dir != ".." && !strings.HasPrefix(dir, "../") &&
		!strings.ContainsAny(dir, "*?[]\\:")
}

// skippedDir tells whether dir or a folder above it is skipped.
func skippedDir(dir string, skip func(dir string) bool) bool {
	for d := dir; d != "." && d != "/" && d != ""; d = path.Dir(d) {
		if skip(d) {
			return true
		}
	}
	return false
}

// titleIndex is what search needs of a sitemap: every page's id and title, in tree order.
type titleIndex struct {
	list []pageTitle
	byID map[string]string
}

type pageTitle struct{ id, title, lower string }

// titleCache keeps the title indexes of the last sitemaps read, by version (a sitemap of
// 5,000 pages takes longer to parse than the rest of a search).
type titleCache struct {
	mu sync.Mutex
	m  map[workspace.Version]*titleIndex
}

const titleCacheSize = 64

// titleIndex reads the caller's sitemap.json and answers its titles, parsed once per version.
func (s *Service) titleIndex(ctx context.Context, c caller.Caller, pa portalaccess.Portal) (*titleIndex, error) {
	data, version, err := s.ws.Files().Read(ctx, c, pa, sitemapPath)
	if errors.Is(err, fs.ErrNotExist) {
		return &titleIndex{byID: map[string]string{}}, nil
	}
	if err != nil {
		return nil, titled(editing.FileError(err, SitemapFile), MsgSearchFailed)
	}
	s.titles.mu.Lock()
	idx := s.titles.m[version]
	s.titles.mu.Unlock()
	if idx != nil {
		return idx, nil
	}
	root, err := ParseSitemap(data)
	if err != nil {
		return nil, apperr.NewError(http.StatusUnprocessableEntity, CodeSitemapInvalid, MsgSearchFailed,
			"sitemap.json is not a list of pages ("+err.Error()+"). Correct it in the file explorer first.").WithCause(err)
	}
	idx = &titleIndex{byID: map[string]string{}}
	var walk func(p *SitemapPage)
	walk = func(p *SitemapPage) {
		for _, ch := range p.Children {
			idx.list = append(idx.list, pageTitle{id: ch.ID, title: ch.Title, lower: strings.ToLower(ch.Title)})
			idx.byID[ch.ID] = ch.Title
			walk(ch)
		}
	}
	walk(root)
	s.titles.mu.Lock()
	if s.titles.m == nil || len(s.titles.m) >= titleCacheSize {
		s.titles.m = map[workspace.Version]*titleIndex{}
	}
	s.titles.m[version] = idx
	s.titles.mu.Unlock()
	return idx, nil
}

// hit notes where a hit's snippet and label will be cut from (Hit.cut, for the hits
// answered only): text, where the phrase (n bytes, lower-cased) starts at byte i of lower
// (text lower-cased).
func hit(h Hit, text, lower string, i, n int) Hit {
	src := text
	if len(lower) != len(text) { // lower-casing changed lengths: cut the lower-cased text
		src = lower
	}
	h.src, h.at, h.n = src, i, n
	return h
}

// cut fills the snippet and label of a hit kept for the answer.
func (h *Hit) cut() {
	h.Snippet = around(h.src, h.at, h.n, SnippetLength)
	h.Label = around(h.src, h.at, h.n, LabelLength)
	h.src = ""
}

// around cuts s to at most limit characters around the match at [i, i+n), on one line, with
// '…' where it was cut.
func around(s string, i, n, limit int) string {
	start, end := i, i+n
	if end > len(s) {
		end = len(s)
	}
	before := limit / 4 // context before the match: a quarter of the room
	for start > 0 && i-start < before && s[start-1] != '\n' {
		start--
	}
	for end < len(s) && s[end] != '\n' && end-start < 4*limit {
		end++
	}
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	for end < len(s) && !utf8.RuneStart(s[end]) {
		end--
	}
	cut := strings.Join(strings.Fields(s[start:end]), " ")
	runes := []rune(cut)
	prefix := start > 0 && s[start-1] != '\n'
	if prefix {
		runes = append([]rune("…"), runes...)
	}
	if len(runes) > limit {
		runes = append(runes[:limit-1], '…')
	}
	return string(runes)
}

// lower lower-cases data into a new slice: ASCII by a plain loop, anything else through
// bytes.ToLower.
func lower(data []byte) []byte {
	for _, b := range data {
		if b >= utf8.RuneSelf {
			return bytes.ToLower(data)
		}
	}
	out := make([]byte, len(data))
	for i, b := range data {
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		out[i] = b
	}
	return out
}

// widgetRefs lists the widget ids a page shows (data-pw-widget="<id>").
func widgetRefs(data []byte) []string {
	const attr = `data-pw-widget="`
	var out []string
	for rest := data; ; {
		i := bytes.Index(rest, []byte(attr))
		if i < 0 {
			return out
		}
		rest = rest[i+len(attr):]
		j := bytes.IndexByte(rest, '"')
		if j < 0 {
			return out
		}
		out = append(out, string(rest[:j]))
		rest = rest[j:]
	}
}

// stripTags is the text of an HTML page: tags, comments, scripts and styles removed,
// entities decoded where there are any; newlines inside tags are kept so lines count as in
// the file.
func stripTags(data []byte) []byte {
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); {
		b := data[i]
		if b != '<' {
			out = append(out, b)
			i++
			continue
		}
		end := ">"
		skipTo := ""
		rest := data[i:]
		switch {
		case bytes.HasPrefix(rest, []byte("<!--")):
			end = "-->"
		case hasTagPrefix(rest, "<script"):
			skipTo = "</script"
		case hasTagPrefix(rest, "<style"):
			skipTo = "</style"
		}
		if skipTo != "" {
			j := indexFoldASCII(rest, []byte(skipTo))
			if j < 0 {
				j = len(rest)
			}
			out = appendNewlines(out, rest[:j])
			i += j
			if j < len(rest) {
				k := bytes.IndexByte(data[i:], '>')
				if k < 0 {
					k = len(data) - i - 1
				}
				i += k + 1
			}
			continue
		}
		j := bytes.Index(rest, []byte(end))
		if j < 0 {
			j = len(rest) - len(end)
		}
		out = appendNewlines(out, rest[:j+len(end)])
		i += j + len(end)
	}
	if bytes.IndexByte(out, '&') >= 0 {
		return []byte(html.UnescapeString(string(out)))
	}
	return out
}

func hasTagPrefix(b []byte, tag string) bool {
	if len(b) <= len(tag) || !bytes.EqualFold(b[:len(tag)], []byte(tag)) {
		return false
	}
	c := b[len(tag)]
	return c == '>' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '/'
}

func appendNewlines(out, skipped []byte) []byte {
	for n := bytes.Count(skipped, []byte("\n")); n > 0; n-- {
		out = append(out, '\n')
	}
	return out
}

// searchHTML finds the phrase in a page's text; over tells that the file held more than
// MaxHitsPerFile hits.
func searchHTML(data, needle []byte) ([]Hit, bool) { return searchText(stripTags(data), needle) }

// searchText finds the phrase in a text, line by line.
func searchText(text, needle []byte) ([]Hit, bool) {
	ascii := newFinder(needle).ascii
	low := text // an ASCII needle is found ignoring case in the text itself
	if !ascii {
		low = lower(text)
	}
	var textS, lowS string // made once, for the snippets
	var out []Hit
	line, counted := 1, 0
	for off := 0; ; {
		var i int
		if ascii {
			i = indexFoldASCII(low[off:], needle)
		} else {
			i = bytes.Index(low[off:], needle)
		}
		if i < 0 {
			return out, false
		}
		i += off
		if len(out) == MaxHitsPerFile {
			return out, true
		}
		if textS == "" {
			textS = string(text)
			lowS = textS
			if !ascii {
				lowS = string(low)
			}
		}
		line += bytes.Count(low[counted:i], []byte("\n"))
		counted = i
		out = append(out, hit(Hit{Line: line, seq: len(out)}, textS, lowS, i, len(needle)))
		off = i + len(needle)
	}
}

// searchJSON finds the phrase in the string values of a JSON file (not in its keys); Key is
// the member name (a dotted path below the top) of each value found.
func searchJSON(data, needle []byte, find finder) ([]Hit, bool) {
	if bytes.IndexByte(data, '\\') < 0 && !find.in(data) {
		return nil, false // neither the phrase nor an escape that could hide it
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		object bool
		key    string
		isKey  bool
		index  int
	}
	var stack []frame
	var out []Hit
	keyPath := func() string {
		parts := make([]string, 0, len(stack))
		for _, f := range stack {
			if f.object {
				parts = append(parts, f.key)
			}
		}
		return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), ".")
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF || err != nil {
			return out, false
		}
		top := len(stack) - 1
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				if top >= 0 && stack[top].object {
					stack[top].isKey = true
				}
				stack = append(stack, frame{object: v == '{', isKey: true})
			default:
				stack = stack[:top]
			}
			continue
		case string:
			if top >= 0 && stack[top].object && stack[top].isKey {
				stack[top].key, stack[top].isKey = v, false
				continue
			}
			lv := strings.ToLower(v)
			if i := strings.Index(lv, string(needle)); i >= 0 {
				if len(out) == MaxHitsPerFile {
					return out, true
				}
				off := dec.InputOffset()
				h := hit(Hit{Key: keyPath(), Line: bytes.Count(data[:off], []byte("\n")) + 1, seq: len(out)}, v, lv, i, len(needle))
				out = append(out, h)
			}
		}
		if top >= 0 && stack[top].object {
			stack[top].isKey = true
		}
	}
}

// MasterPage is the answer of GET /portal/{d}/{p}/masterpage/{language}.
type MasterPage struct {
	Language string `json:"language"`
	Path     string `json:"path"`
	HTML     string `json:"html"`
	Version  string `json:"version"`
}

// MasterPage reads the master page of the caller's workspace: index.html, or
// <language>/index.html in MULTILANGUAGE mode (the language must be one of the portal's).
func (s *Service) MasterPage(ctx context.Context, c caller.Caller, pa portalaccess.Portal, language string) (*MasterPage, error) {
	const title = "Failed to load the master page."
	set, _, err := s.ws.Settings(ctx, c, pa)
	if err != nil {
		return nil, titled(err, title)
	}
	ls := set.LanguageSettings
	name := MasterFile
	if ls.MultiLanguage() {
		if !slices.Contains(ls.Languages, language) || !validate.LanguageCode(language) {
			return nil, apperr.NewError(http.StatusNotFound, "LANGUAGE_NOT_FOUND", title, "Failed to load language "+language)
		}
		name = language + "/" + MasterFile
	}
	p, err := workspace.CleanPath(name)
	if err != nil {
		return nil, apperr.NewError(http.StatusNotFound, "LANGUAGE_NOT_FOUND", title, "Failed to load language "+language)
	}
	text, version, err := s.readPage(ctx, c, pa, p, title)
	if err != nil {
		return nil, err
	}
	if version == workspace.NoVersion {
		return nil, apperr.NewError(http.StatusNotFound, "FILE_NOT_FOUND", title, "The portal has no master page "+name+" in your workspace.").
			WithData(map[string]string{"path": name})
	}
	return &MasterPage{Language: language, Path: name, HTML: text, Version: version.Shown()}, nil
}
