package translation

import (
	"encoding/json"
	"strings"
)

// The rules of finding and reading a portal's translation files that need no workspace, for
// the Translation Manager and the readiness check (internal/check) alike.

// FileNames are the names a language's file may have, in the order they are tried, given the
// portal's languages: ll_CC.json (the product's), ll-CC.json, ll-cc.json, ll_cc.json, then
// ll.json when no other language of the portal has the language ll. A language without region
// has ll.json only.
func FileNames(languages []string, lang string) []string {
	ll, cc, regional := strings.Cut(lang, "_")
	if !regional {
		return []string{lang + ".json"}
	}
	lower := strings.ToLower(cc)
	names := []string{lang + ".json", ll + "-" + cc + ".json", ll + "-" + lower + ".json", ll + "_" + lower + ".json"}
	same := 0
	for _, l := range languages {
		if base, _, _ := strings.Cut(l, "_"); base == ll {
			same++
		}
	}
	if same == 1 {
		names = append(names, ll+".json")
	}
	return names
}

// LayoutOf is the layout the default language's file gives every file of the portal: nested
// when a value of its top object is an object, else (or when it cannot be read) flat.
func LayoutOf(defaultFile []byte) Layout {
	l, _ := layoutOf(defaultFile)
	return l
}

func layoutOf(raw []byte) (Layout, *document) {
	if doc, why := parseDocument(raw); why == "" && doc.hasObjects() {
		return LayoutNested, doc
	}
	return LayoutFlat, nil
}

// ParseFile reads one language's file (name: its path, for the reason) in the portal's
// layout: its texts, or why it cannot be read ("" when it can). defaultIs says what made a
// flat portal flat ("translations/en_GB.json is flat", "… does not exist").
func ParseFile(layout Layout, name string, raw []byte, defaultIs string) (Set, string) {
	set, _, why := parseFile(layout, name, raw, defaultIs, nil)
	return set, why
}

// parseFile is ParseFile keeping a nested file's document (doc: already parsed, or nil).
func parseFile(layout Layout, name string, raw []byte, defaultIs string, doc *document) (Set, *document, string) {
	if layout == LayoutFlat {
		var set Set
		if err := json.Unmarshal(raw, &set); err == nil && set != nil {
			return set, nil, ""
		}
		doc, why := parseDocument(raw)
		if why != "" {
			return nil, nil, name + " " + why
		}
		return nil, nil, name + ": " + doc.flatReason(defaultIs)
	}
	if doc == nil {
		var why string
		if doc, why = parseDocument(raw); why != "" {
			return nil, nil, name + " " + why
		}
	}
	set, why := doc.texts()
	if why != "" {
		return nil, nil, name + ": " + why
	}
	return set, doc, ""
}
