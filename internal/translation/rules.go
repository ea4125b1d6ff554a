package translation

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"portalwright/internal/validate"
)

// The rules of translation data that need no workspace: key validation and the status of a
// key in a language (spec 2 §4 "Translations", §5 "Translations").

// keyPattern is the body of a key once upper-cased.
var keyPattern = regexp.MustCompile(validate.TranslationKeyPattern)

// markup tells a value holding markup (rich text) from plain text (the browser's MARKUP).
var markup = regexp.MustCompile(validate.MarkupPattern)

// sameImageAllowed tells whether a key may keep the default language's value as its
// translation: the same image or link in every language is normal. Nested keys are texts.
func sameImageAllowed(layout Layout, key string) bool {
	return layout != LayoutNested && (strings.HasPrefix(key, "IMG_") || strings.HasPrefix(key, "LNK_"))
}

// normal is a value as statuses compare it: a text value without markup gets a trailing
// newline (as the rich text editor stores it), then surrounding white space is dropped.
func normal(v string) string {
	if !markup.MatchString(v) {
		v += "\n"
	}
	return strings.TrimSpace(v)
}

func empty(v string) bool { return normal(v) == "" }

// Status is the status of key in language lang, given every language's set (data, keyed by
// language), the default language and the portal's other languages (others, without the
// default). A language missing from data counts as an empty set. The keys are flat ones
// (StatusIn for a layout).
func Status(data map[string]Set, def string, others []string, lang, key string) KeyStatus {
	return StatusIn(LayoutFlat, data, def, others, lang, key)
}

// StatusIn is Status for the keys of a layout: in a nested one every key is a text (none may
// keep the default's value as IMG_ and LNK_ keys may).
func StatusIn(layout Layout, data map[string]Set, def string, others []string, lang, key string) KeyStatus {
	defVal, inDefault := data[def][key]
	if lang == def {
		switch {
		case !inDefault:
			return KeyStatus{StatusMissing, ReasonKeyMissingInDefault}
		case empty(defVal):
			return KeyStatus{StatusIncomplete, ReasonDefaultValueMissing}
		}
		for _, o := range others {
			if _, ok := data[o][key]; !ok {
				return KeyStatus{StatusIncomplete, ReasonKeyMissingInOthers}
			}
		}
		for _, o := range others {
			if v := data[o][key]; empty(v) || (!sameImageAllowed(layout, key) && normal(v) == normal(defVal)) {
				return KeyStatus{StatusIncomplete, ReasonRequiredInOthers}
			}
		}
		return KeyStatus{StatusCompleted, ReasonNone}
	}
	v, ok := data[lang][key]
	switch {
	case !ok:
		return KeyStatus{StatusMissing, ReasonKeyMissing}
	case !inDefault:
		return KeyStatus{StatusMissing, ReasonKeyMissingInDefault}
	case empty(defVal):
		return KeyStatus{StatusIncomplete, ReasonDefaultValueMissing}
	case empty(v):
		return KeyStatus{StatusIncomplete, ReasonRequired}
	case normal(v) == normal(defVal) && !sameImageAllowed(layout, key):
		return KeyStatus{StatusIncomplete, ReasonRequired} // filled, but copied rather than translated
	}
	return KeyStatus{StatusCompleted, ReasonNone}
}

// AllKeys is the union of the keys of every language, sorted.
func AllKeys(data map[string]Set) []string {
	seen := map[string]bool{}
	for _, set := range data {
		for k := range set {
			seen[k] = true
		}
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// CheckKeys upper-cases the keys of one language's set and checks them: a key without the
// TXT_, IMG_ or LNK_ prefix (or with other characters) and two keys equal once upper-cased
// are rule errors. It answers the upper-cased set and the errors, sorted by key.
func CheckKeys(lang string, in map[string]string) (Set, []RuleError) {
	out := make(Set, len(in))
	var errs []RuleError
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys) // the error names the same key whatever order the map gives
	for _, k := range keys {
		up := strings.ToUpper(k)
		if !keyPattern.MatchString(up) {
			errs = append(errs, RuleError{Message: MsgNoKeyPrefix, Key: k, Language: lang})
			continue
		}
		if _, dup := out[up]; dup {
			errs = append(errs, RuleError{Message: fmt.Sprintf(MsgKeyExists, up), Key: k, Language: lang})
			continue
		}
		out[up] = in[k]
	}
	return out, errs
}

// CheckNestedKeys checks the keys of one language's set of a nested portal; keys are kept as
// written. A key with an empty level ("nav..home", ".nav", "nav."), a control character, or
// below a key that holds a text ("nav" and "nav.home") is a rule error. It answers the set
// and the errors, sorted by key.
func CheckNestedKeys(lang string, in map[string]string) (Set, []RuleError) {
	out := make(Set, len(in))
	var errs []RuleError
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch {
		case slices.Contains(strings.Split(k, "."), ""):
			errs = append(errs, RuleError{Message: fmt.Sprintf(MsgKeyEmptyPart, k), Key: k, Language: lang})
			continue
		case strings.ContainsFunc(k, unicode.IsControl):
			errs = append(errs, RuleError{Message: fmt.Sprintf(MsgKeyControl, k), Key: k, Language: lang})
			continue
		}
		out[k] = in[k]
	}
	for _, k := range keys {
		if _, ok := out[k]; !ok {
			continue
		}
		for i := strings.IndexByte(k, '.'); i >= 0; i = nextDot(k, i) {
			if _, text := out[k[:i]]; text {
				errs = append(errs, RuleError{Message: fmt.Sprintf(MsgKeyTextAndNode, k, k[:i]), Key: k, Language: lang})
				delete(out, k)
				break
			}
		}
	}
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Key < errs[j].Key })
	return out, errs
}

// nextDot is the index of the first '.' of k after i, or -1.
func nextDot(k string, i int) int {
	j := strings.IndexByte(k[i+1:], '.')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}
