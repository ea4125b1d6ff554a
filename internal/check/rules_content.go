package check

import (
	"fmt"
	"path"
	"strings"

	"portalwright/internal/whitelist"
)

// The rules of content, the whitelist and size.

func contentIn(s *snapshot, p string, d *details, emit func(Finding)) {
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

// budgetProblems: length budgets of readiness.json that cannot be used.
func budgetProblems(m *model, emit func(Finding)) {
	if !m.cfgPath {
		return
	}
	for i, b := range m.cfg.LengthBudgets {
		if _, err := path.Match(b.Pattern, "X"); err != nil || b.Pattern == "" || b.MaxChars <= 0 {
			emit(Finding{Rule: RuleContentSchema, Path: ConfigFile, Pointer: fmt.Sprintf("/lengthBudgets/%d", i), Target: b.Pattern,
				Message: fmt.Sprintf("The length budget %q is not usable: it needs a pattern like TXT_* and maxChars above 0.", b.Pattern)})
		}
	}
}

// translationFileProblems: translation files that do not hold key → text.
func translationFileProblems(s *snapshot, emit func(Finding)) {
	tr := s.tr
	if tr == nil {
		return
	}
	for _, l := range tr.languages {
		if lf := tr.files[l]; lf.problem != "" && lf.problem != "syntax" {
			emit(Finding{Rule: RuleContentSchema, Path: lf.path, Line: 1, Language: l, Message: lf.problem + ".",
				Fix: "Correct the file so it holds key → text."})
		}
	}
}

func orRoot(ptr string) string {
	if ptr == "" {
		return "the top"
	}
	return ptr
}

// whitelistIn: the external URLs of a file the whitelist does not allow.
func whitelistIn(s *snapshot, p string, d *details, emit func(Finding)) {
	if s.allow == nil {
		return
	}
	for _, u := range d.urls {
		if !s.allow.Allowed(u.URL) {
			emit(Finding{Rule: RuleWhitelistNotAllowed, Path: p, Line: u.Line, Target: u.URL,
				Message: "The whitelist does not allow " + u.URL + ": on board it does not load.",
				Fix:     "Add " + whitelist.Origin(u.URL) + " to the whitelist, or remove the URL."})
		}
	}
}

// whitelistNote: a portal that has not set up its whitelist gets one note, not a warning per
// URL (a folder that is neither a portal nor has a whitelist: nothing says what is allowed).
func whitelistNote(s *snapshot, emit func(Finding)) {
	if s.files[whitelist.File] != nil || !s.lay.has {
		return
	}
	var urls []string
	seen := map[string]bool{}
	for _, p := range s.paths {
		if e := s.files[p]; e.d != nil {
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
}

func first(list []string, n int) string {
	if len(list) <= n {
		return strings.Join(list, ", ")
	}
	return strings.Join(list[:n], ", ") + ", …"
}

// loadable says whether a file counts in the size of a loadable of the portal: the task
// runner's output when it is active, else every file outside node_modules.
func (l layout) loadable(p string) bool {
	if l.has && l.settings.TaskRunnerSettings.Active {
		return strings.HasPrefix(p, l.output+"/")
	}
	return !strings.HasPrefix(p, "node_modules/") && !strings.Contains(p, "/node_modules/")
}

func ruleSize(m *model, emit func(Finding)) {
	budget := m.cfg.SizeBudgetBytes
	if budget <= 0 {
		return
	}
	// The build output's files (ok false when the tree has none), else every file.
	total, where, ok := m.tally.size, "", true
	if m.lay.has && m.lay.settings.TaskRunnerSettings.Active {
		where, ok = m.lay.output, m.tally.sized > 0
	}
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
