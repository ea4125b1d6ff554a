package check

import (
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

// snapshot is one state of the index: what a Report reads. A Refresh makes a new one,
// keeping what did not change.
type snapshot struct {
	files map[string]*entry
	paths []string        // sorted
	dirs  map[string]bool // every folder of a file
	html  []string        // the HTML files read, sorted
	wdata []string        // widget data files (widgets/database/<id>.json), sorted
	lay   layout
	tr    *translations // derived from the translation files (nil: none)

	probes map[string][]probeProp  // widget type → properties
	leaves map[string][]widgetLeaf // widget data file → its values with their editors
}

func newSnapshot(files map[string]*entry, lay layout, tr *translations, old *snapshot, listChanged bool, changed []string) *snapshot {
	s := &snapshot{files: files, lay: lay, tr: tr}
	if old != nil && old.paths != nil && !listChanged {
		s.paths, s.dirs = old.paths, old.dirs
	} else {
		s.paths = make([]string, 0, len(files))
		s.dirs = map[string]bool{}
		for p := range files {
			s.paths = append(s.paths, p)
			for d := path.Dir(p); d != "." && !s.dirs[d]; d = path.Dir(d) {
				s.dirs[d] = true
			}
		}
		sort.Strings(s.paths)
	}
	probesChanged := old == nil || old.leaves == nil || listChanged
	for _, p := range changed {
		if _, ok := probeType(p); ok {
			probesChanged = true
		}
	}
	if probesChanged {
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
	if !listChanged && old != nil && old.html != nil {
		s.html, s.wdata = old.html, old.wdata
	} else {
		for _, p := range s.paths {
			if isHTML(p) {
				s.html = append(s.html, p)
			} else if isWidgetData(p) {
				s.wdata = append(s.wdata, p)
			}
		}
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
	if probesChanged {
		s.leaves = make(map[string][]widgetLeaf, len(s.wdata))
		for _, p := range s.wdata {
			s.leaves[p] = classify(p)
		}
	} else {
		s.leaves = maps.Clone(old.leaves)
		for _, p := range changed {
			if isWidgetData(p) {
				if files[p] == nil {
					delete(s.leaves, p)
				} else {
					s.leaves[p] = classify(p)
				}
			}
		}
	}
	return s
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
			next[p] = &entry{File: f}
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
		tr = buildTranslations(lay, next)
	}
	snap := newSnapshot(next, lay, tr, prev, listChanged || all, changed)
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
		if lay.isTranslation(p) {
			trChanged = true
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
		tr = buildTranslations(lay, next)
	}
	snap := newSnapshot(next, lay, tr, prev, listChanged, changed)
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

// Report runs the rules over the index's facts and applies readiness.json (or opts.Config):
// ignored findings move from Findings to Ignored, budgets feed the rules. Unknown rule ids in
// opts.Rules are left out (ValidateRules tells them).
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
	emit := func(f Finding) {
		if len(enabled) > 0 && !enabled[f.Rule] {
			return
		}
		if f.Severity == "" {
			f.Severity = severities[f.Rule]
		}
		f.ID = FindingID(f)
		found = append(found, f)
	}
	for _, r := range rules {
		if len(enabled) == 0 || enabledAny(enabled, r.ids) {
			r.run(m, emit)
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
	sort.SliceStable(found, func(i, j int) bool { return less(found[i], found[j]) })
	ignores := map[string]Ignore{}
	for _, ig := range cfg.Ignored {
		ignores[ig.ID] = ig
	}
	rep := Report{Findings: []Finding{}, Ignored: []IgnoredFinding{}, Summary: Summary{Files: files, ByRule: map[string]int{}}}
	seen := map[string]bool{}
	for _, f := range found {
		if seen[f.ID] {
			continue // the same finding twice (one key used twice on a line)
		}
		seen[f.ID] = true
		if ig, ok := ignores[f.ID]; ok {
			rep.Ignored = append(rep.Ignored, IgnoredFinding{Finding: f, Reason: ig.Reason, By: ig.By, At: ig.At})
			continue
		}
		rep.Findings = append(rep.Findings, f)
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

func less(a, b Finding) bool {
	switch {
	case a.Path != b.Path:
		return a.Path < b.Path
	case a.Line != b.Line:
		return a.Line < b.Line
	case a.Rule != b.Rule:
		return a.Rule < b.Rule
	case a.Pointer != b.Pointer:
		return a.Pointer < b.Pointer
	case a.Key != b.Key:
		return a.Key < b.Key
	case a.Language != b.Language:
		return a.Language < b.Language
	}
	return a.Target < b.Target
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
