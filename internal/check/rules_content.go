package check

import (
	"fmt"
	"path"
	"strings"

	"portalwright/internal/whitelist"
)

// The rules of content, the whitelist and size.

func ruleContent(m *model, emit func(Finding)) {
	for _, p := range m.sorted() {
		e := m.files[p]
		if e.d == nil {
			continue
		}
		d := e.d
		if s := d.syntax; s != nil {
			emit(Finding{Rule: RuleContentSyntax, Path: p, Line: s.line,
				Message: fmt.Sprintf("Not valid JSON: line %d, column %d: %s.", s.line, s.col, strings.TrimSuffix(s.msg, ".")),
				Fix:     "Correct the JSON at that place."})
		}
		if d.problem != "" {
			emit(Finding{Rule: RuleContentSchema, Path: p, Line: 1, Message: d.problem})
		}
		if c := d.content; c != nil {
			if c.schemaErr != "" {
				emit(Finding{Rule: RuleContentSchema, Path: p + ".schema", Line: 1, Target: p,
					Message: c.schemaErr, Fix: "Correct the schema; the file cannot be checked against it until then."})
			}
			for _, pr := range c.problems {
				emit(Finding{Rule: RuleContentSchema, Path: p, Line: pr.line, Pointer: pr.ptr, Target: pr.msg,
					Message: "Breaks its schema at " + orRoot(pr.ptr) + ": " + pr.msg + ".",
					Fix:     "Correct the value, in the JSON editor or the file."})
			}
		}
	}
	if m.cfgPath {
		for i, b := range m.cfg.LengthBudgets {
			if _, err := path.Match(b.Pattern, "X"); err != nil || b.Pattern == "" || b.MaxChars <= 0 {
				emit(Finding{Rule: RuleContentSchema, Path: ConfigFile, Pointer: fmt.Sprintf("/lengthBudgets/%d", i), Target: b.Pattern,
					Message: fmt.Sprintf("The length budget %q is not usable: it needs a pattern like TXT_* and maxChars above 0.", b.Pattern)})
			}
		}
	}
	if tr := m.tr; tr != nil {
		for _, l := range tr.languages {
			if lf := tr.files[l]; lf.problem != "" && lf.problem != "syntax" {
				emit(Finding{Rule: RuleContentSchema, Path: lf.path, Line: 1, Language: l, Message: lf.problem + ".",
					Fix: "Correct the file so it holds key → text."})
			}
		}
	}
}

func orRoot(ptr string) string {
	if ptr == "" {
		return "the top"
	}
	return ptr
}

func ruleWhitelist(m *model, emit func(Finding)) {
	wl := m.files[whitelist.File]
	if wl == nil {
		if !m.lay.has {
			return // neither a portal nor a whitelist: nothing says what is allowed
		}
		// A portal that has not set up its whitelist: one note, not a warning per URL.
		var urls []string
		seen := map[string]bool{}
		for _, p := range m.sorted() {
			if e := m.files[p]; e.d != nil {
				for _, u := range e.d.urls {
					if !seen[u.URL] {
						seen[u.URL] = true
						urls = append(urls, u.URL)
					}
				}
			}
		}
		if len(urls) > 0 {
			emit(Finding{Rule: RuleWhitelistNotAllowed, Severity: Info, Path: whitelist.File,
				Message: fmt.Sprintf("The portal has no whitelist, so none of its %d external URLs (%s) loads on board.", len(urls), first(urls, 3)),
				Fix:     "Set up the whitelist (Portal > Whitelist > Check portal), or remove the URLs."})
		}
		return
	}
	var entries []string
	if wl.d != nil {
		entries = wl.d.whitel
	}
	match := whitelist.NewMatcher(entries)
	for _, p := range m.sorted() {
		e := m.files[p]
		if e.d == nil {
			continue
		}
		for _, u := range e.d.urls {
			if !match.Allowed(u.URL) {
				emit(Finding{Rule: RuleWhitelistNotAllowed, Path: p, Line: u.Line, Target: u.URL,
					Message: "The whitelist does not allow " + u.URL + ": on board it does not load.",
					Fix:     "Add " + whitelist.Origin(u.URL) + " to the whitelist, or remove the URL."})
			}
		}
	}
}

func first(list []string, n int) string {
	if len(list) <= n {
		return strings.Join(list, ", ")
	}
	return strings.Join(list[:n], ", ") + ", …"
}

// loadableFiles are the files a loadable of the portal would hold, and their folder: the task
// runner's output when it is active (ok false when the tree has none), else every file.
func (m *model) loadableSize() (total int64, where string, ok bool) {
	if m.lay.has && m.lay.settings.TaskRunnerSettings.Active {
		prefix := m.lay.output + "/"
		for p, e := range m.files {
			if strings.HasPrefix(p, prefix) {
				total += e.Size
				ok = true
			}
		}
		return total, m.lay.output, ok
	}
	for p, e := range m.files {
		if !strings.HasPrefix(p, "node_modules/") && !strings.Contains(p, "/node_modules/") {
			total += e.Size
		}
	}
	return total, "", true
}

func ruleSize(m *model, emit func(Finding)) {
	budget := m.cfg.SizeBudgetBytes
	if budget <= 0 {
		return
	}
	total, where, ok := m.loadableSize()
	if !ok || total <= budget {
		return
	}
	what := "The portal's files"
	if where != "" {
		what = "The build output " + where + "/"
	}
	emit(Finding{Rule: RuleSizeBudget, Path: ConfigFile, Target: fmt.Sprint(budget),
		Message: fmt.Sprintf("%s come to %s; the size budget is %s.", what, mib(total), mib(budget)),
		Fix:     "Make images and videos smaller, or remove what the portal does not use."})
}

func mib(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.1f MiB (%d bytes)", float64(n)/(1<<20), n)
}
