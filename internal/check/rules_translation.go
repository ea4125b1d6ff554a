package check

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"portalwright/internal/translation"
	"portalwright/internal/validate"
)

// The translation rules, over the files buildTranslations read.

// keysOf are a language's keys, sorted.
func (tr *translations) keysOf(l string) []string { return tr.files[l].keys }

func sortedKeys(set translation.Set) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (tr *translations) others() []string {
	out := make([]string, 0, len(tr.languages))
	for _, l := range tr.languages {
		if l != tr.def {
			out = append(out, l)
		}
	}
	return out
}

// readable says whether every file that exists can be read (otherwise content.syntax or
// content.schema says why, and the comparisons would be noise).
func (tr *translations) usable(l string) bool {
	lf := tr.files[l]
	return lf.problem == ""
}

func ruleTranslationMissing(s *snapshot, emit func(Finding)) {
	tr := s.tr
	if tr == nil || !tr.usable(tr.def) {
		return
	}
	defFile := tr.files[tr.def]
	others := tr.others()
	keys := translation.AllKeys(tr.data)
	for _, k := range keys {
		st := translation.StatusIn(tr.layout, tr.data, tr.def, others, tr.def, k)
		switch st.Reason {
		case translation.ReasonDefaultValueMissing:
			emit(Finding{Rule: RuleTranslationMissing, Path: defFile.path, Line: defFile.lines[k], Key: k, Language: tr.def,
				Message: k + " has no value in the default language " + tr.def + ".", Fix: "Write the " + tr.def + " text of " + k + "."})
		case translation.ReasonKeyMissingInDefault:
			emit(Finding{Rule: RuleTranslationMissing, Path: defFile.path, Key: k, Language: tr.def,
				Message: k + " is translated but missing in the default language " + tr.def + ".", Fix: "Add " + k + " to " + defFile.path + ", or remove it from the other languages."})
		}
	}
	for _, l := range others {
		lf := tr.files[l]
		if !lf.exists {
			emit(Finding{Rule: RuleTranslationMissing, Path: lf.path, Language: l,
				Message: l + " has no translation file: every key is missing.", Fix: "Translate the portal into " + l + " in the Translation Manager."})
			continue
		}
		if !tr.usable(l) {
			continue
		}
		for _, k := range keys {
			if _, inDef := tr.data[tr.def][k]; !inDef {
				continue
			}
			st := translation.StatusIn(tr.layout, tr.data, tr.def, others, l, k)
			v, has := tr.data[l][k]
			switch {
			case st.Reason == translation.ReasonKeyMissing:
				emit(Finding{Rule: RuleTranslationMissing, Path: lf.path, Key: k, Language: l,
					Message: k + " is missing in " + l + ".", Fix: "Translate " + k + " into " + l + "."})
			case st.Status == translation.StatusIncomplete && st.Reason == translation.ReasonRequired && has && strings.TrimSpace(v) == "":
				emit(Finding{Rule: RuleTranslationMissing, Path: lf.path, Line: lf.lines[k], Key: k, Language: l,
					Message: k + " is empty in " + l + ".", Fix: "Translate " + k + " into " + l + "."})
			}
		}
	}
}

var keyPattern = regexp.MustCompile(validate.TranslationKeyPattern)

// asKey is v upper-cased and trimmed when it reads as a key of the product's translation
// files (TXT_…, IMG_…, LNK_…), else "".
func asKey(v string) string {
	v = strings.TrimSpace(v)
	if len(v) < 5 || v[3] != '_' {
		return ""
	}
	up := strings.ToUpper(v)
	if !keyPattern.MatchString(up) {
		return ""
	}
	return up
}

// keyUse is a place a key is used.
type keyUse struct {
	path string
	ref
}

// checksKeys says whether the key rules apply: a portal-engine portal whose translation files
// are flat and all readable.
func checksKeys(lay layout, tr *translations) bool {
	if !lay.engine || tr == nil || tr.layout != translation.LayoutFlat {
		return false
	}
	for _, l := range tr.languages {
		if !tr.usable(l) {
			return false
		}
	}
	return true
}

// definedKeys are the keys of every language.
func definedKeys(tr *translations) map[string]bool {
	defined := map[string]bool{}
	for _, l := range tr.languages {
		for k := range tr.data[l] {
			defined[k] = true
		}
	}
	return defined
}

// mentions are the keys a file mentions (for translation.unused): every data-pw-t* key of an
// HTML file, every value of widget data that reads as a key.
func mentions(p string, d *details, leaves []widgetLeaf, fn func(key string)) {
	if d == nil {
		return
	}
	if isHTML(p) {
		for _, k := range d.keys {
			fn(k.val)
		}
	}
	if isWidgetData(p) {
		for _, wl := range leaves {
			if wl.key != "" {
				fn(wl.key)
			}
		}
	}
}

// unknownKeysIn: keys the master page, the pages, widget templates and TranslationSelector
// values of widget data use that no language defines.
func unknownKeysIn(s *snapshot, p string, d *details, emit func(Finding)) {
	if !s.checksKeys {
		return
	}
	unknown := func(r ref) {
		emit(Finding{Rule: RuleTranslationUnknownKey, Path: p, Line: r.line, Pointer: r.ptr, Key: r.val,
			Message: "The translation key " + r.val + " is used here but no language defines it.",
			Fix:     "Add " + r.val + " in the Translation Manager, or use an existing key."})
	}
	if role := s.htmlRole(p); role == rolePage || role == roleTemplate {
		for _, k := range d.keys {
			if !s.defined[k.val] && asKey(k.val) != "" {
				unknown(k)
			}
		}
	}
	for _, wl := range s.leavesOf(p) {
		if wl.key != "" && wl.editor == "TranslationSelector" && len(wl.rest) == 0 && !s.defined[wl.key] {
			r := wl.ref
			r.val = wl.key
			unknown(r)
		}
	}
}

// unusedKeys: keys of the default language that no page, master page, widget template or
// widget data mentions (nothing is said while widget data cannot be read: it may use any key).
func unusedKeys(s *snapshot, emit func(Finding)) {
	tr := s.tr
	if !s.checksKeys || s.tally.brokenData > 0 {
		return
	}
	defFile := tr.files[tr.def]
	for _, k := range tr.keysOf(tr.def) {
		if s.tally.mentions[k] == 0 {
			emit(Finding{Rule: RuleTranslationUnused, Path: defFile.path, Line: defFile.lines[k], Key: k, Language: tr.def,
				Message: k + " is not used by a page, the master page, a widget template or widget data.",
				Fix:     "Remove the key if nothing needs it."})
		}
	}
}

func ruleTranslationValues(m *model, emit func(Finding)) {
	tr := m.tr
	if tr == nil {
		return
	}
	// Only the translation files and the budgets decide: kept per state of the files.
	budgets := m.cfg.LengthBudgets
	key := fmt.Sprint(budgets)
	tr.valuesMu.Lock()
	found, ok := tr.values[key]
	if !ok {
		translationValues(tr, budgets, func(f Finding) { found = append(found, stamp(f)) })
		if tr.values == nil || len(tr.values) > 8 {
			tr.values = map[string][]Finding{}
		}
		tr.values[key] = found
	}
	tr.valuesMu.Unlock()
	for _, f := range found {
		emit(f)
	}
}

func translationValues(tr *translations, budgets []LengthBudget, emit func(Finding)) {
	def := tr.files[tr.def]
	for _, l := range tr.languages {
		lf := tr.files[l]
		if !tr.usable(l) || !lf.exists {
			continue
		}
		compare := l != tr.def && tr.usable(tr.def)
		for _, k := range tr.keysOf(l) {
			v := tr.data[l][k]
			vf := lf.values[k]
			line := lf.lines[k]
			dv, inDef := tr.data[tr.def][k]
			dvf := def.values[k]
			nonEmpty := strings.TrimSpace(v) != "" && strings.TrimSpace(dv) != ""
			if compare && inDef && nonEmpty && !slices.Equal(vf.placeholders, dvf.placeholders) {
				emit(Finding{Rule: RuleTranslationPlaceholder, Path: lf.path, Line: line, Key: k, Language: l,
					Message: fmt.Sprintf("%s in %s has the placeholders %s; the default language %s has %s.", k, l, list(vf.placeholders), tr.def, list(dvf.placeholders)),
					Fix:     "Keep the placeholders of the " + tr.def + " text, in any order."})
			}
			switch {
			case !vf.markup.balanced:
				emit(Finding{Rule: RuleTranslationMarkup, Path: lf.path, Line: line, Key: k, Language: l,
					Message: k + " in " + l + " has tags that do not balance (" + vf.markup.tags + ").",
					Fix:     "Close every tag that is opened, in order."})
			case compare && inDef && nonEmpty && dvf.markup.balanced && vf.markup.tags != dvf.markup.tags:
				emit(Finding{Rule: RuleTranslationMarkup, Path: lf.path, Line: line, Key: k, Language: l,
					Message: fmt.Sprintf("%s in %s has the tags [%s]; the default language %s has [%s].", k, l, vf.markup.tags, tr.def, dvf.markup.tags),
					Fix:     "Use the same tags as the " + tr.def + " text."})
			}
			if strings.HasPrefix(k, "IMG_") || strings.HasPrefix(k, "LNK_") {
				continue
			}
			for _, b := range budgets {
				if ok, _ := path.Match(strings.ToUpper(b.Pattern), strings.ToUpper(k)); ok {
					if b.MaxChars > 0 && vf.markup.chars > b.MaxChars {
						emit(Finding{Rule: RuleTranslationLength, Path: lf.path, Line: line, Key: k, Language: l, Target: b.Pattern,
							Message: fmt.Sprintf("%s in %s is %d characters long; the budget for %s is %d.", k, l, vf.markup.chars, b.Pattern, b.MaxChars),
							Fix:     "Shorten the text."})
					}
					break
				}
			}
		}
	}
}

func list(ps []string) string {
	if len(ps) == 0 {
		return "none"
	}
	return strings.Join(ps, " ")
}
