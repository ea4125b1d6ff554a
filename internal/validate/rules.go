package validate

import "regexp"

// Rules the browser checks too. Each is written here once; web/src/lib/rules.generated.ts is
// generated from this table (TestBrowserRulesAreGenerated fails when the two drift; run it
// with -update to write the file again).

// BrowserRule is a pattern the web app imports by name.
type BrowserRule struct {
	Name    string // the TS constant
	Pattern string // Go and JavaScript (with Flags) read it alike
	Flags   string // JavaScript flags ("u" for \p{…})
	Doc     string
}

// The patterns.
const (
	// LanguageCodePattern is a portal language code: ll or lll, optionally _CC (en_GB, ast).
	LanguageCodePattern = `^[a-z]{2,3}(_[A-Z]{2})?$`
	// TranslationKeyPattern is a key of the product's own translation files, upper-cased.
	TranslationKeyPattern = `^(TXT|IMG|LNK)_[A-Z0-9_.-]+$`
	// FileNamePattern is the name a new file or folder may take (uploads, saves of new files,
	// renames): letters, digits, space and [ ] - _ ) & $ @ ( ^ { } ~ .
	FileNamePattern = `^[\p{L}\p{Nd} \[\]\-_)&$@(^{}~.]+$`
	// MarkupPattern finds a tag in a value: a value with one is rich text (stored as the
	// editor wrote it), one without is plain text (compared with a trailing newline).
	MarkupPattern = `<[A-Za-z!/][^>]*>`
)

// BrowserRules is what rules.generated.ts holds, in order.
var BrowserRules = []BrowserRule{
	{"LANGUAGE_CODE", LanguageCodePattern, "", "A portal language code: ll or lll, optionally _CC (en_GB)."},
	{"TRANSLATION_KEY", TranslationKeyPattern, "", "A key of the product's own (flat) translation files, upper-cased."},
	{"FILE_NAME", FileNamePattern, "u", "A new file or folder name: letters, digits, space and [ ] - _ ) & $ @ ( ^ { } ~ ."},
	{"MARKUP", MarkupPattern, "", "A tag in a translation value: the value is rich text."},
}

var languageCode = regexp.MustCompile(LanguageCodePattern)

// LanguageCode tells whether s is a portal language code.
func LanguageCode(s string) bool { return languageCode.MatchString(s) }
