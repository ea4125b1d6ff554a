package check

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"path"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"portalwright/internal/editing"
	"portalwright/internal/whitelist"
)

// Options choose what a report holds.
type Options struct {
	// Rules are the rule ids to run; empty: all (ValidateRules checks them).
	Rules []string
	// Config replaces the tree's readiness.json when not nil (budgets and ignores).
	Config *Config
}

// entry is one file of the index: as listed, with its facts when it was read.
type entry struct {
	File
	d *details
}

// Index is what the engine knows of a tree: every file as listed, and the facts of those it
// reads, each with the Version it was read at. One writer (NewIndex, Refresh) and any number
// of readers (Report) may use it at once; the server keeps one per workspace.
type Index struct {
	write sync.Mutex // one Refresh at a time
	mu    sync.RWMutex
	snap  *snapshot
}

// snapshot is one state of the index: what a Report reads. A Refresh or an Update makes a new
// one, keeping what did not change; once published it never changes.
type snapshot struct {
	files map[string]*entry
	paths []string        // sorted
	dirs  map[string]bool // every folder of a file
	wdata []string        // widget data files (widgets/database/<id>.json), sorted
	lay   layout
	tr    *translations // derived from the translation files (nil: none)

	probes map[string][]probeProp  // widget type → properties
	leaves map[string][]widgetLeaf // widget data file → its values with their editors

	hasSitemap bool
	pages      map[string]bool   // page ids (with the master page)
	pageFiles  map[string]string // page file → page id (the files of the sitemap's pages)

	checksKeys bool               // the key rules apply (checksKeys)
	defined    map[string]bool    // the keys of every language (when checksKeys)
	allow      *whitelist.Matcher // whitelist.json's (nil: there is none)
	tally      tally

	memo memo
}

// tally is what portal-wide rules add up over every file, kept up to date file by file.
type tally struct {
	mentions   map[string]int // key → how many mentions HTML files and widget data make of it
	brokenData int            // files under widgets/database/ that do not parse
	size       int64          // bytes of the files a loadable holds (layout.loadable)
	sized      int            // and how many files
}

// newSnapshot makes the snapshot of files from old (nil: from nothing; the same layout
// otherwise). listChanged says whether a file was added or removed; touched are the paths
// whose entry may differ from old's (added, removed, read again).
func newSnapshot(files map[string]*entry, lay layout, tr *translations, old *snapshot, listChanged bool, touched []string) *snapshot {
	s := &snapshot{files: files, lay: lay, tr: tr}
	full := old == nil
	var moved deps
	if full {
		moved = allDeps
	}
	oldEntry := func(p string) *entry {
		if full {
			return nil
		}
		return old.files[p]
	}

	// Each portal-wide set: kept when what it is made of did not move, made again (and marked
	// moved when it differs) otherwise.
	if !full && !listChanged {
		s.paths, s.dirs, s.wdata = old.paths, old.dirs, old.wdata
	} else {
		moved |= depList
		s.paths = make([]string, 0, len(files))
		s.dirs = map[string]bool{}
		for p := range files {
			s.paths = append(s.paths, p)
			for d := path.Dir(p); d != "." && !s.dirs[d]; d = path.Dir(d) {
				s.dirs[d] = true
			}
		}
		sort.Strings(s.paths)
		for _, p := range s.paths {
			if isWidgetData(p) {
				s.wdata = append(s.wdata, p)
			}
		}
	}

	if full || files["sitemap.json"] != oldEntry("sitemap.json") {
		moved |= depSitemap
		s.readPages()
		if full || s.hasSitemap != old.hasSitemap || !maps.Equal(s.pages, old.pages) || !maps.Equal(s.pageFiles, old.pageFiles) {
			moved |= depPages
		}
	} else {
		s.hasSitemap, s.pages, s.pageFiles = old.hasSitemap, old.pages, old.pageFiles
	}

	if full || tr != old.tr { // a language's file moved (buildTranslations)
		moved |= depTranslations
		if s.checksKeys = checksKeys(lay, tr); s.checksKeys {
			s.defined = definedKeys(tr)
		}
		if full || s.checksKeys != old.checksKeys || !maps.Equal(s.defined, old.defined) {
			moved |= depKeys
		}
	} else {
		s.checksKeys, s.defined = old.checksKeys, old.defined
	}

	if full || slices.ContainsFunc(touched, func(p string) bool { _, ok := probeType(p); return ok }) {
		moved |= depProbes
		s.probes = map[string][]probeProp{}
		for _, p := range s.paths {
			if e := files[p]; e.d != nil && e.d.probe != nil {
				if t, ok := probeType(p); ok {
					s.probes[t] = e.d.probe
				}
			}
		}
	} else {
		s.probes = old.probes
	}
	classify := func(p string) []widgetLeaf {
		e := files[p]
		if e == nil || e.d == nil {
			return nil
		}
		props := s.probes[e.d.wtype.val]
		out := make([]widgetLeaf, len(e.d.leaves))
		for i, l := range e.d.leaves {
			editor, rest := editorOf(props, l.ptr)
			out[i] = widgetLeaf{ref: l, editor: editor, rest: rest, key: asKey(l.val)}
		}
		return out
	}
	switch {
	case moved&depProbes != 0:
		s.leaves = make(map[string][]widgetLeaf, len(s.wdata))
		for _, p := range s.wdata {
			s.leaves[p] = classify(p)
		}
	case slices.ContainsFunc(touched, isWidgetData):
		s.leaves = maps.Clone(old.leaves)
		for _, p := range touched {
			if isWidgetData(p) {
				if files[p] == nil {
					delete(s.leaves, p)
				} else {
					s.leaves[p] = classify(p)
				}
			}
		}
	default:
		s.leaves = old.leaves
	}

	if wl := files[whitelist.File]; full || wl != oldEntry(whitelist.File) {
		moved |= depWhitelist
		if wl != nil {
			var entries []string
			if wl.d != nil {
				entries = wl.d.whitel
			}
			s.allow = whitelist.NewMatcher(entries)
		}
	} else {
		s.allow = old.allow
	}

	// The tally: the touched files' part taken away and added again.
	if full {
		s.tally = tally{mentions: map[string]int{}}
		for _, p := range s.paths {
			s.count(p, files[p], s.leaves[p], 1, nil)
		}
	} else {
		s.tally = old.tally
		delta := map[string]int{}
		for _, p := range touched {
			o, n := old.files[p], files[p]
			if o == n {
				continue
			}
			s.count(p, o, old.leaves[p], -1, delta)
			s.count(p, n, s.leaves[p], 1, delta)
			if !slices.Equal(urlsOf(o), urlsOf(n)) {
				moved |= depURLs
			}
		}
		if s.tally.brokenData != old.tally.brokenData {
			moved |= depMentions
		}
		cloned := false
		for k, d := range delta {
			if d == 0 {
				continue
			}
			if !cloned {
				s.tally.mentions, cloned = maps.Clone(old.tally.mentions), true
			}
			was := s.tally.mentions[k]
			if was+d == 0 {
				delete(s.tally.mentions, k)
			} else {
				s.tally.mentions[k] = was + d
			}
			if was == 0 || was+d == 0 {
				moved |= depMentions
			}
		}
	}
	// The findings: only what moved is looked at again.
	s.remember(old, moved, touched)
	return s
}

// count adds (sign 1) or takes away (sign -1) what a file adds to the tally: its size, its
// mentions of keys (into delta; nil: into the tally), whether it is widget data that does not
// parse.
func (s *snapshot) count(p string, e *entry, leaves []widgetLeaf, sign int, delta map[string]int) {
	if e == nil {
		return
	}
	if s.lay.loadable(p) {
		s.tally.size += int64(sign) * e.Size
		s.tally.sized += sign
	}
	if e.d == nil {
		return
	}
	if e.d.syntax != nil && strings.HasPrefix(p, "widgets/database/") {
		s.tally.brokenData += sign
	}
	if delta == nil {
		delta = s.tally.mentions
	}
	mentions(p, e.d, leaves, func(k string) { delta[k] += sign })
}

// urlsOf are the external URLs of a file, in order (what the whitelist note reads).
func urlsOf(e *entry) []string {
	if e == nil || e.d == nil || len(e.d.urls) == 0 {
		return nil
	}
	out := make([]string, len(e.d.urls))
	for i, u := range e.d.urls {
		out[i] = u.URL
	}
	return out
}

func isWidgetData(p string) bool {
	rest, ok := strings.CutPrefix(p, "widgets/database/")
	return ok && !strings.Contains(rest, "/") && strings.HasSuffix(rest, ".json")
}

// NewIndex reads a tree's files into an index.
func NewIndex(ctx context.Context, tree Tree) (*Index, error) {
	ix := &Index{snap: &snapshot{files: map[string]*entry{}}}
	if _, err := ix.Refresh(ctx, tree); err != nil {
		return nil, err
	}
	return ix, nil
}

// Run checks a tree once: NewIndex, then Report.
func Run(ctx context.Context, tree Tree, opts Options) (Report, error) {
	if err := ValidateRules(opts.Rules); err != nil {
		return Report{}, err
	}
	ix, err := NewIndex(ctx, tree)
	if err != nil {
		return Report{}, err
	}
	return ix.Report(opts), nil
}

// Refresh lists the tree again and reads only the files whose Version changed (and the JSON
// files whose companion schema changed; everything when portal.json's settings changed); a
// file that is gone is dropped. It answers the paths that changed (added, changed, removed),
// sorted.
func (ix *Index) Refresh(ctx context.Context, tree Tree) ([]string, error) {
	ix.write.Lock()
	defer ix.write.Unlock()
	listed, err := tree.Files(ctx)
	if err != nil {
		return nil, err
	}
	ix.mu.RLock()
	prev := ix.snap
	ix.mu.RUnlock()
	old, oldLay := prev.files, prev.lay

	now := make(map[string]File, len(listed))
	for _, f := range listed {
		if cleanRel(f.Path) {
			now[f.Path] = f
		}
	}
	// The settings first: they say where everything else is.
	var st *editing.Settings
	settingsEntry := old[editing.SettingsFile]
	if f, ok := now[editing.SettingsFile]; ok {
		if settingsEntry != nil && settingsEntry.Version == f.Version && settingsEntry.d != nil {
			st = settingsEntry.d.settings
		} else if data, err := tree.Read(ctx, f.Path); err == nil && len(data) <= maxRead {
			settingsEntry = &entry{File: f, d: extract(layout{}, f.Path, data, nil, false)}
			st = settingsEntry.d.settings
		} else if err != nil && ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	lay := newLayout(st)
	all := len(old) == 0 || !reflect.DeepEqual(lay, oldLay)

	next := make(map[string]*entry, len(now))
	var changed []string
	var toRead []File
	listChanged := len(now) != len(old)
	for p, f := range now {
		o := old[p]
		if o == nil {
			listChanged = true
		}
		if o == nil || o.Version != f.Version {
			changed = append(changed, p)
		}
		if p == editing.SettingsFile && settingsEntry != nil && settingsEntry.Version == f.Version {
			next[p] = settingsEntry
			continue
		}
		if !lay.readable(f) {
			if o != nil && o.d == nil && o.File == f {
				next[p] = o
			} else {
				next[p] = &entry{File: f}
			}
			continue
		}
		if !all && o != nil && o.Version == f.Version && o.d != nil && !schemaChanged(p, old, now) {
			next[p] = o
			continue
		}
		toRead = append(toRead, f)
	}
	for p := range old {
		if _, ok := now[p]; !ok {
			changed = append(changed, p)
		}
	}
	if err := ix.readAll(ctx, tree, lay, now, toRead, next); err != nil {
		return nil, err
	}
	trChanged := all
	for _, p := range changed {
		if lay.isTranslation(p) {
			trChanged = true
		}
	}
	tr := prev.tr
	if trChanged {
		var from *translations
		if !all {
			from = prev.tr
		}
		tr = buildTranslations(lay, next, from)
	}
	var touched []string
	for p, e := range next {
		if old[p] != e {
			touched = append(touched, p)
		}
	}
	for p := range old {
		if next[p] == nil {
			touched = append(touched, p)
		}
	}
	from := prev
	if all {
		from = nil // everything again
	}
	snap := newSnapshot(next, lay, tr, from, listChanged, touched)
	ix.mu.Lock()
	ix.snap = snap
	ix.mu.Unlock()
	sort.Strings(changed)
	return changed, nil
}

// Update is Refresh for a change whose paths are known (a save): it looks only at those
// files (and the JSON files whose companion schema is among them) when the tree is a Stater,
// and falls back to Refresh otherwise or when portal.json is among them. It answers the
// paths that changed, sorted.
func (ix *Index) Update(ctx context.Context, tree Tree, paths []string) ([]string, error) {
	st, ok := tree.(Stater)
	if !ok || slices.Contains(paths, editing.SettingsFile) {
		return ix.Refresh(ctx, tree)
	}
	ix.write.Lock()
	ix.mu.RLock()
	prev := ix.snap
	ix.mu.RUnlock()
	if len(prev.files) == 0 {
		ix.write.Unlock()
		return ix.Refresh(ctx, tree)
	}
	defer ix.write.Unlock()
	lay := prev.lay
	next := maps.Clone(prev.files)
	var changed []string
	var toRead []File
	listChanged, trChanged := false, false
	look := map[string]bool{}
	for _, p := range paths {
		if !cleanRel(p) {
			continue
		}
		look[p] = true
		if base, ok := strings.CutSuffix(p, ".schema"); ok {
			look[base] = true // its content is checked against it
		}
	}
	now := map[string]File{}
	for p := range look {
		f, exists, err := st.Stat(ctx, p)
		if err != nil {
			return nil, err
		}
		o := prev.files[p]
		if lay.isTranslation(p) && (exists || o != nil) {
			trChanged = true // read again, added or removed
		}
		if !exists {
			if o != nil {
				delete(next, p)
				changed, listChanged = append(changed, p), true
			}
			continue
		}
		now[p] = f
		if o == nil || o.Version != f.Version {
			changed = append(changed, p)
			listChanged = listChanged || o == nil
		}
		if lay.readable(f) {
			toRead = append(toRead, f)
		} else {
			next[p] = &entry{File: f}
		}
	}
	// readAll looks for companion schemas in now: the ones not looked at are as listed.
	for _, f := range toRead {
		if sf, ok := prev.files[f.Path+".schema"]; ok {
			if _, seen := look[f.Path+".schema"]; !seen {
				now[f.Path+".schema"] = sf.File
			}
		}
	}
	if err := ix.readAll(ctx, tree, lay, now, toRead, next); err != nil {
		return nil, err
	}
	tr := prev.tr
	if trChanged {
		tr = buildTranslations(lay, next, prev.tr)
	}
	snap := newSnapshot(next, lay, tr, prev, listChanged, slices.Collect(maps.Keys(look)))
	ix.mu.Lock()
	ix.snap = snap
	ix.mu.Unlock()
	sort.Strings(changed)
	return changed, nil
}

// schemaChanged says whether p's companion schema was added, removed or changed.
func schemaChanged(p string, old map[string]*entry, now map[string]File) bool {
	if !strings.HasSuffix(strings.ToLower(p), ".json") {
		return false
	}
	o, wasThere := old[p+".schema"]
	n, isThere := now[p+".schema"]
	return wasThere != isThere || (isThere && o.Version != n.Version)
}

// readAll reads files with a few workers and stores their facts in next.
func (ix *Index) readAll(ctx context.Context, tree Tree, lay layout, now map[string]File, files []File, next map[string]*entry) error {
	if len(files) == 0 {
		return nil
	}
	workers := min(runtime.GOMAXPROCS(0), 4, len(files))
	jobs := make(chan File)
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range jobs {
				e := &entry{File: f}
				data, err := tree.Read(ctx, f.Path)
				if err == nil {
					var schema []byte
					sf, hasSchema := now[f.Path+".schema"]
					if hasSchema && strings.HasSuffix(strings.ToLower(f.Path), ".json") && !lay.skipped(f.Path) {
						schema, err = tree.Read(ctx, sf.Path)
					} else {
						hasSchema = false
					}
					if err == nil {
						e.d = extract(lay, f.Path, data, schema, hasSchema)
					}
				}
				mu.Lock()
				if err != nil && ctx.Err() != nil && firstErr == nil {
					firstErr = ctx.Err()
				}
				next[f.Path] = e // unreadable (removed meanwhile): listed without facts
				mu.Unlock()
			}
		}()
	}
	for _, f := range files {
		if ctx.Err() != nil {
			break
		}
		jobs <- f
	}
	close(jobs)
	wg.Wait()
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	return firstErr
}

// Files is how many files the index lists.
func (ix *Index) Files() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return len(ix.snap.files)
}

// Report gathers what the rules found in the index's facts (the memo of its snapshot, and the
// rules that read budgets) and applies readiness.json (or opts.Config): ignored findings move
// from Findings to Ignored, budgets feed the rules. Unknown rule ids in opts.Rules are left out
// (ValidateRules tells them).
func (ix *Index) Report(opts Options) Report {
	ix.mu.RLock()
	m := newModel(ix.snap)
	ix.mu.RUnlock()
	if opts.Config != nil {
		m.cfg = *opts.Config
	}
	enabled := map[string]bool{}
	for _, r := range opts.Rules {
		enabled[r] = true
	}
	var found []Finding
	add := func(f Finding) {
		if len(enabled) == 0 || enabled[f.Rule] {
			found = append(found, f)
		}
	}
	for i, r := range rules {
		if len(enabled) > 0 && !enabledAny(enabled, r.ids) {
			continue
		}
		for _, byFile := range m.memo.files[i] {
			for _, f := range byFile {
				add(f)
			}
		}
		for _, f := range m.memo.portal[i] {
			add(f)
		}
		if r.report != nil {
			r.report(m, func(f Finding) {
				if f.ID == "" {
					f = stamp(f)
				}
				add(f)
			})
		}
	}
	return finish(found, m.cfg, len(m.files))
}

func enabledAny(enabled map[string]bool, ids []string) bool {
	for _, id := range ids {
		if enabled[id] {
			return true
		}
	}
	return false
}

// finish sorts the findings, sets the ignored ones apart and counts.
func finish(found []Finding, cfg Config, files int) Report {
	// Sorted through pointers: a Finding is large to move.
	order := make([]*Finding, len(found))
	for i := range found {
		order[i] = &found[i]
	}
	slices.SortStableFunc(order, compareFindings)
	ignores := map[string]Ignore{}
	for _, ig := range cfg.Ignored {
		ignores[ig.ID] = ig
	}
	rep := Report{Findings: []Finding{}, Ignored: []IgnoredFinding{}, Summary: Summary{Files: files, ByRule: map[string]int{}}}
	seen := make(map[string]bool, len(found))
	for _, f := range order {
		if seen[f.ID] {
			continue // the same finding twice (one key used twice on a line)
		}
		seen[f.ID] = true
		if ig, ok := ignores[f.ID]; ok {
			rep.Ignored = append(rep.Ignored, IgnoredFinding{Finding: *f, Reason: ig.Reason, By: ig.By, At: ig.At})
			continue
		}
		rep.Findings = append(rep.Findings, *f)
		rep.Summary.ByRule[f.Rule]++
		switch f.Severity {
		case Error:
			rep.Summary.Errors++
		case Warning:
			rep.Summary.Warnings++
		default:
			rep.Summary.Infos++
		}
	}
	rep.Summary.Ignored = len(rep.Ignored)
	return rep
}

// compareFindings orders findings by path, line, rule, pointer, key, language and target.
func compareFindings(a, b *Finding) int {
	switch {
	case a.Path != b.Path:
		return strings.Compare(a.Path, b.Path)
	case a.Line != b.Line:
		return cmp.Compare(a.Line, b.Line)
	case a.Rule != b.Rule:
		return strings.Compare(a.Rule, b.Rule)
	case a.Pointer != b.Pointer:
		return strings.Compare(a.Pointer, b.Pointer)
	case a.Key != b.Key:
		return strings.Compare(a.Key, b.Key)
	case a.Language != b.Language:
		return strings.Compare(a.Language, b.Language)
	}
	return strings.Compare(a.Target, b.Target)
}

// ValidateRules checks rule ids (for --rules and the API): an unknown one is an error naming
// the known ones.
func ValidateRules(ids []string) error {
	for _, id := range ids {
		if _, ok := severities[id]; !ok {
			return fmt.Errorf("unknown rule %q (rules: %s)", id, strings.Join(RuleIDs(), ", "))
		}
	}
	return nil
}

// RuleIDs are every rule id, sorted.
func RuleIDs() []string {
	out := make([]string, 0, len(severities))
	for id := range severities {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// SeverityOf is a rule's severity ("" for an unknown id).
func SeverityOf(rule string) Severity { return severities[rule] }

// severities: errors break something for a passenger; warnings are likely wrong; infos are
// worth a look.
var severities = map[string]Severity{
	RuleLinkPageMissing:        Error,
	RulePageMissingFile:        Error,
	RuleAssetMissing:           Error,
	RuleWidgetMissing:          Error,
	RuleContentSyntax:          Error,
	RuleContentSchema:          Error,
	RuleTranslationPlaceholder: Error,
	RuleTranslationMarkup:      Error,
	RuleTranslationMissing:     Warning,
	RuleTranslationUnknownKey:  Warning,
	RuleTranslationLength:      Warning,
	RulePageImgAlt:             Warning,
	RuleWhitelistNotAllowed:    Warning,
	RuleSizeBudget:             Warning,
	RuleTranslationUnused:      Info,
}
