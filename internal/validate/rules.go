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

	// The name rules of spec 1 §5 (validate.go applies them with their messages).
	AlphanumericPattern = `^[A-Za-z0-9_ ]+$`
	NoSpacesPattern     = `^[A-Za-z0-9_.]+$`
	ICAOPattern         = `^[A-Z]{3,}$`
	PortalNamePattern   = `^[A-Za-z0-9_.()][A-Za-z0-9 _.()-]*$`
	PageNamePattern     = `^[A-Za-z0-9_][A-Za-z0-9 _-]*$`
	UsernamePattern     = `^[A-Za-z0-9_][A-Za-z0-9_-]{0,19}$`
	BranchNamePattern   = `^[A-Za-z0-9][A-Za-z0-9_./-]*$`
	SpecialRefPattern   = `^([A-Z]+_)*HEAD$`
	GitURLPattern       = `^((git|ssh|https?)://[^\s/]+(:\d+)?/|git@[^\s:/]+:)[^\s]*\.git/?$`
	CommitPattern       = `^[A-Za-z0-9][A-Za-z0-9 \r\n]*$`
	PersonNamePattern   = `^[\p{L}\p{M}][\p{L}\p{M} .'-]*$`

	// CommitTextPattern is a commit message as git hosts take them (the ANY_TEXT rule): a
	// subject of 1 to 200 printable characters of any script (letters, marks,
	// digits, punctuation, symbols, spaces; not starting with a space), then nothing or a
	// blank line and a body of printable characters, tabs and line breaks; line breaks and
	// blanks around the whole are allowed (the commit trims them).
	CommitTextPattern = `^[ \t\r\n]*[\p{L}\p{M}\p{N}\p{P}\p{S}][\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]{0,199}(\r?\n[ \t]*\r?\n[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}\t\r\n]*)?[ \t\r\n]*$`
)

// BrowserRules is what rules.generated.ts holds, in order.
var BrowserRules = []BrowserRule{
	{"LANGUAGE_CODE", LanguageCodePattern, "", "A portal language code: ll or lll, optionally _CC (en_GB)."},
	{"TRANSLATION_KEY", TranslationKeyPattern, "", "A key of the product's own (flat) translation files, upper-cased."},
	{"FILE_NAME", FileNamePattern, "u", "A new file or folder name: letters, digits, space and [ ] - _ ) & $ @ ( ^ { } ~ ."},
	{"MARKUP", MarkupPattern, "", "A tag in a translation value: the value is rich text."},
	{"ALPHANUMERIC", AlphanumericPattern, "", "Letters, digits, spaces and underscores (domain, group and category names)."},
	{"NO_SPACES", NoSpacesPattern, "", "Letters, digits, underscore and dot."},
	{"ICAO", ICAOPattern, "", "Three or more capital letters."},
	{"PORTAL_NAME", PortalNamePattern, "", "A portal name: letters, digits, space, _ - . ( ), not starting with a dash or a space."},
	{"PAGE_NAME", PageNamePattern, "", "A page name: letters, digits, space, _ -, not starting with a dash or a space."},
	{"USERNAME", UsernamePattern, "", "1 to 20 letters, digits, dashes or underscores, not starting with a dash."},
	{"BRANCH_NAME", BranchNamePattern, "", "A branch name's characters (validate.BranchName adds git's other rules)."},
	{"SPECIAL_REF", SpecialRefPattern, "", "git's special refs: HEAD, FETCH_HEAD, ORIG_HEAD, …"},
	{"GIT_URL", GitURLPattern, "", "A git URL: git, ssh, http(s) or scp-like, ending in .git."},
	{"COMMIT_MESSAGE", CommitPattern, "", "A commit message: letters, digits, spaces and line breaks."},
	{"COMMIT_TEXT", CommitTextPattern, "u", "A commit message as git hosts take them: a subject of up to 200 printable characters (any script), then a blank line and a body."},
	{"PERSON_NAME", PersonNamePattern, "u", "A person's name: letters and marks, then also space . ' -."},
}

var languageCode = regexp.MustCompile(LanguageCodePattern)

// LanguageCode tells whether s is a portal language code.
func LanguageCode(s string) bool { return languageCode.MatchString(s) }
