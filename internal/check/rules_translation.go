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

// keysOf are a language's keys, sorted (computed once per state of the files).
func (tr *translations) keysOf(l string) []string {
	tr.keysOnce.Do(func() {
		tr.keys = map[string][]string{}
		for _, lang := range tr.languages {
			tr.keys[lang] = sortedKeys(tr.data[lang])
		}
	})
	return tr.keys[l]
}

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

func ruleTranslationMissing(m *model, emit func(Finding)) {
	tr := m.tr
	if tr == nil {
		return
	}
	// Only the translation files decide: computed once per state of them.
	tr.missingOnce.Do(func() { translationMissing(tr, func(f Finding) { tr.missing = append(tr.missing, f) }) })
	for _, f := range tr.missing {
		emit(f)
	}
}

func translationMissing(tr *translations, emit func(Finding)) {
	if !tr.usable(tr.def) {
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

func ruleTranslationKeys(m *model, emit func(Finding)) {
	tr := m.tr
	if !m.lay.engine || tr == nil || tr.layout != translation.LayoutFlat {
		return
	}
	for _, l := range tr.languages {
		if !tr.usable(l) {
			return
		}
	}
	tr.definedOnce.Do(func() {
		tr.defined = map[string]bool{}
		for _, l := range tr.languages {
			for k := range tr.data[l] {
				tr.defined[k] = true
			}
		}
	})
	defined := tr.defined
	var uses []keyUse
	mentioned := map[string]bool{}
	m.htmlFiles(func(p string, d *details, role htmlRole) {
		for _, k := range d.keys {
			mentioned[k.val] = true
			if role != roleFile && !defined[k.val] && asKey(k.val) != "" {
				uses = append(uses, keyUse{path: p, ref: k})
			}
		}
	})
	m.widgetLeaves(func(p string, wl widgetLeaf) {
		if wl.key == "" {
			return
		}
		mentioned[wl.key] = true
		if wl.editor == "TranslationSelector" && len(wl.rest) == 0 && !defined[wl.key] {
			r := wl.ref
			r.val = wl.key
			uses = append(uses, keyUse{path: p, ref: r})
		}
	})
	for _, u := range uses {
		k := u.val
		{
			emit(Finding{Rule: RuleTranslationUnknownKey, Path: u.path, Line: u.line, Pointer: u.ptr, Key: k,
				Message: "The translation key " + k + " is used here but no language defines it.",
				Fix:     "Add " + k + " in the Translation Manager, or use an existing key."})
		}
	}
	for p, e := range m.files {
		if e.d != nil && e.d.syntax != nil && strings.HasPrefix(p, "widgets/database/") {
			return // widget data that cannot be read may use any key
		}
	}
	defFile := tr.files[tr.def]
	for _, k := range tr.keysOf(tr.def) {
		if !mentioned[k] {
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
		translationValues(tr, budgets, func(f Finding) { found = append(found, f) })
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
