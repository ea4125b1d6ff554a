package check

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
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
	files map[string]*entry
	lay   layout
	tr    *translations // derived from the translation files (nil: none)
}

// NewIndex reads a tree's files into an index.
func NewIndex(ctx context.Context, tree Tree) (*Index, error) {
	ix := &Index{files: map[string]*entry{}}
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
	old, oldLay := ix.files, ix.lay
	ix.mu.RUnlock()

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
	for p, f := range now {
		o := old[p]
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
	tr := ix.tr
	if trChanged {
		tr = buildTranslations(lay, next)
	}
	ix.mu.Lock()
	ix.files, ix.lay, ix.tr = next, lay, tr
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
	return len(ix.files)
}

// Report runs the rules over the index's facts and applies readiness.json (or opts.Config):
// ignored findings move from Findings to Ignored, budgets feed the rules. Unknown rule ids in
// opts.Rules are left out (ValidateRules tells them).
func (ix *Index) Report(opts Options) Report {
	ix.mu.RLock()
	m := newModel(ix.files, ix.lay, ix.tr)
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
