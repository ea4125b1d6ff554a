// Package language is the language service (spec 2 §3 "Language entry", the /language calls):
// the languages and locales a portal can use, with their English and native names, text
// direction and ISO 639 codes, from CLDR data (golang.org/x/text): nothing here is a
// hand-written list of names.
//
// The list holds, in the portal's code style (ll or ll_CC):
//   - every base language CLDR has a native name for (display.Self);
//   - for every country, its most likely language (CLDR likely subtags: und-SA → ar-SA);
//   - every language-region tag CLDR names (display.Values: en-GB, fr-CA, es-MX, …);
//   - each listed language in its own most likely country (fr → fr_FR).
//
// Any other ll_CC whose language and country CLDR both name is known too (Lookup), so a
// portal's language is always described even when the list does not carry it.
package language

import (
	"slices"
	"sort"
	"strings"
	"sync"

	xlang "golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"portalwright/internal/validate"
)

// Entry is one language or locale.
type Entry struct {
	Code        string `json:"code"`        // ll or ll_CC
	DefaultName string `json:"defaultName"` // in English: "French (France)"
	NativeName  string `json:"nativeName"`  // in itself: "français (France)"
	Direction   string `json:"direction"`   // ltr or rtl
	Alpha2      string `json:"alpha2"`      // ISO 639-1, "" when the language has none
	Alpha3B     string `json:"alpha3b"`     // ISO 639-2/B
}

// Text directions.
const (
	LTR = "ltr"
	RTL = "rtl"
)

// MsgUnknown is the answer for a code that names no language (spec 2 §8).
const MsgUnknown = "Failed to load language %s"

// rtlScripts are the scripts written right to left (by their ISO 15924 codes).
var rtlScripts = map[string]bool{"Arab": true, "Hebr": true, "Thaa": true, "Syrc": true, "Nkoo": true, "Adlm": true, "Rohg": true}

// bibliographic holds the ISO 639-2/B codes that differ from the terminology (T) codes x/text
// answers (Base.ISO3). ISO 639-2 fixes this set of 20 languages; it is a standard's closed
// list, not product data.
var bibliographic = map[string]string{
	"sqi": "alb", "hye": "arm", "eus": "baq", "mya": "bur", "zho": "chi", "ces": "cze",
	"nld": "dut", "fra": "fre", "kat": "geo", "deu": "ger", "ell": "gre", "isl": "ice",
	"mkd": "mac", "mri": "mao", "msa": "may", "fas": "per", "ron": "rum", "slk": "slo",
	"bod": "tib", "cym": "wel",
}

var english = display.English.Languages()
var englishRegions = display.English.Regions()

// Describe builds the entry of a code, or answers false when CLDR does not name its
// language (or its country).
func Describe(code string) (Entry, bool) {
	if !validate.LanguageCode(code) { // the portal's language code style (one rule)
		return Entry{}, false
	}
	lang, region, _ := strings.Cut(code, "_")
	m := []string{code, lang, region}
	base, err := xlang.ParseBase(m[1])
	if canonical, _ := xlang.Make(m[1]).Base(); err != nil || base.String() != m[1] || canonical != base {
		return Entry{}, false // unknown, or a deprecated code CLDR writes otherwise (iw → he)
	}
	tag, err := xlang.Compose(base)
	if err != nil {
		return Entry{}, false
	}
	e := Entry{Code: code, DefaultName: english.Name(base), NativeName: display.Self.Name(base)}
	if e.DefaultName == "" {
		return Entry{}, false
	}
	if m[2] != "" {
		region, err := xlang.ParseRegion(m[2])
		if err != nil || !region.IsCountry() || region.String() != m[2] {
			return Entry{}, false
		}
		regionName := englishRegions.Name(region)
		if regionName == "" {
			return Entry{}, false
		}
		if tag, err = xlang.Compose(base, region); err != nil {
			return Entry{}, false
		}
		e.DefaultName += " (" + regionName + ")"
		if e.NativeName != "" {
			if native := display.Regions(tag); native != nil && native.Name(region) != "" {
				e.NativeName += " (" + native.Name(region) + ")"
			} else {
				e.NativeName += " (" + regionName + ")"
			}
		}
	}
	if e.NativeName == "" {
		e.NativeName = e.DefaultName
	}
	e.Direction = LTR
	if script, _ := tag.Script(); rtlScripts[script.String()] {
		e.Direction = RTL
	}
	if len(base.String()) == 2 {
		e.Alpha2 = base.String()
	}
	e.Alpha3B = base.ISO3()
	if b, ok := bibliographic[e.Alpha3B]; ok {
		e.Alpha3B = b
	}
	return e, true
}

var (
	listOnce sync.Once
	list     []Entry
	byCode   map[string]Entry
)

// All lists the known languages and locales, sorted by code.
func All() []Entry {
	listOnce.Do(build)
	return list
}

// Lookup describes one code: listed, or any ll_CC whose language and country CLDR names.
func Lookup(code string) (Entry, bool) {
	listOnce.Do(build)
	if e, ok := byCode[code]; ok {
		return e, true
	}
	return Describe(code)
}

func build() {
	codes := map[string]bool{}
	add := func(base xlang.Base, region xlang.Region) {
		if display.Self.Name(base) == "" { // no locale data of its own: not a portal language
			return
		}
		c := base.String()
		if (region != xlang.Region{}) {
			if !region.IsCountry() {
				return
			}
			c += "_" + region.String()
		}
		codes[c] = true
	}
	// Base languages with a native name, each in its most likely country.
	for _, t := range display.Self.Supported.Tags() {
		base, _ := t.Base()
		add(base, xlang.Region{})
		if r, conf := xlang.Make(base.String()).Region(); conf != xlang.No {
			add(base, r)
		}
	}
	// Every country's most likely language.
	for _, r := range xlang.Supported.Regions() {
		if !r.IsCountry() || len(r.String()) != 2 {
			continue
		}
		t, err := xlang.Compose(xlang.Und, r)
		if err != nil {
			continue
		}
		if base, conf := t.Base(); conf != xlang.No {
			add(base, r)
		}
	}
	// The language-region tags CLDR names.
	for _, t := range display.Values.Tags() {
		if base, script, region := t.Raw(); (region != xlang.Region{} && script == xlang.Script{}) {
			add(base, region)
		}
	}
	keys := make([]string, 0, len(codes))
	for c := range codes {
		keys = append(keys, c)
	}
	sort.Strings(keys)
	byCode = make(map[string]Entry, len(keys))
	for _, c := range keys {
		if e, ok := Describe(c); ok {
			list = append(list, e)
			byCode[c] = e
		}
	}
	list = slices.Clip(list)
}
