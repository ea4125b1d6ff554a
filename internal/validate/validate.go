// Package validate implements the input rules of the spec (spec 1 §5, spec 3 §5) once for the
// server. Each rule returns an error whose text is the spec's message, so handlers pass it
// straight to the client. The web client has the same rules in web/src/lib/validation.ts; the
// table tests of both sides use the same cases.
package validate

import (
	"errors"
	"fmt"
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Constants of spec 1 §9.
const (
	MinPasswordLength = 5
	MaxUsernameLength = 20
	MaxNameLength     = 100
)

// Messages, word for word from the spec (trailing spaces included where the spec has them).
const (
	MsgMissingCredentials = "Missing username or password"
	MsgFieldRequired      = "The field is required"
	MsgAlphanumeric       = "Please enter only Alphanumeric characters, spaces and/or Underscores."
	MsgNoSpaces           = "Please enter only Alphanumeric characters and/or Underscores. "
	MsgICAO               = "Please enter a valid ICAO code. All caps and 3 characters and more. "
	MsgPortalName         = "Please enter only alphanumeric characters, spaces, underscores, round brackets, full stops and/or dashes."
	MsgPageName           = "Please enter only alphanumeric characters, spaces, underscores and/or dashes."
	MsgUsername           = "Username not valid. Please enter only alphanumeric characters, dashes and underscores with a max length of 20."
	MsgBranchName         = "Please enter only Alphanumeric characters, underscore (_), dash (-), dot(.) and/or single forward slash (/)."
	MsgStaticPortalName   = "Please do not enter single and/or double quotation marks."
	MsgLeadingWhitespace  = "No Leading white spaces allowed"
	MsgURL                = "Please make sure the URL is valid and starts with http:// or https://"
	MsgCrewURL            = "Please enter a valid Crew URL"
	MsgGitURL             = "This is not a valid GIT URL"
	MsgNumber             = "Please provide a number for the given field."
	MsgEmail              = "Please enter valid email address"
	MsgSpecialCharacters  = "Please do not use special characters."
	MsgCommitRequired     = "Please enter a commit message."
	MsgCommitFormat       = "Please match the requested format. Only alphanumeric and numetric characters are allowed."
	// MsgCommitText is what a message outside the ANY_TEXT rule is told (not the spec's: the
	// spec has only the ALPHANUMERIC rule).
	MsgCommitText        = "The first line must be 1 to 200 printable characters; write more after a blank line."
	MsgPublicKeyRequired = "Public Key input is required"
	MsgConfirmPassword   = "Please confirm your password"
	MsgPasswordsDiffer   = "The confirm new password doesn't match the new password"
	MsgPasswordUnchanged = "The new password can't be the same as the current password"
	// MsgNameTooLong is what a name longer than MaxNameLength is told (domain, group, category,
	// portal and page names); the server's other name checks use the same text.
	MsgNameTooLong = "The name must be at most 100 characters."
)

func fail(msg string) error { return errors.New(msg) }

var (
	reAlphanumeric = regexp.MustCompile(AlphanumericPattern)
	reNoSpaces     = regexp.MustCompile(NoSpacesPattern)
	reICAO         = regexp.MustCompile(ICAOPattern)
	rePortalName   = regexp.MustCompile(PortalNamePattern)
	rePageName     = regexp.MustCompile(PageNamePattern)
	reUsername     = regexp.MustCompile(UsernamePattern)
	reBranchName   = regexp.MustCompile(BranchNamePattern)
	reGitURL       = regexp.MustCompile(GitURLPattern)
	reCommit       = regexp.MustCompile(CommitPattern)
	reCommitText   = regexp.MustCompile(CommitTextPattern)
	rePersonName   = regexp.MustCompile(PersonNamePattern)
)

// Alphanumeric: letters, digits, spaces and underscores (group and domain names).
func Alphanumeric(s string) error {
	if !reAlphanumeric.MatchString(s) {
		return fail(MsgAlphanumeric)
	}
	return nil
}

// Name: a domain, permission-group or category name — letters, digits, spaces and
// underscores, at most MaxNameLength characters.
func Name(s string) error {
	if err := Alphanumeric(s); err != nil {
		return err
	}
	return NameLength(s)
}

// NameLength: at most MaxNameLength characters (code points).
func NameLength(s string) error {
	if utf8.RuneCountInString(s) > MaxNameLength {
		return fail(MsgNameTooLong)
	}
	return nil
}

// NoSpaces: letters, digits, underscore, dot.
func NoSpaces(s string) error {
	if !reNoSpaces.MatchString(s) {
		return fail(MsgNoSpaces)
	}
	return nil
}

// ICAO: three or more capital letters.
func ICAO(s string) error {
	if !reICAO.MatchString(s) {
		return fail(MsgICAO)
	}
	return nil
}

// PortalName: not starting with a dash or whitespace; letters, digits, space, _ - . ( ).
func PortalName(s string) error {
	if !rePortalName.MatchString(s) {
		return fail(MsgPortalName)
	}
	return NameLength(s)
}

// PageName: not starting with a dash or whitespace; letters, digits, space, _ -.
func PageName(s string) error {
	if !rePageName.MatchString(s) {
		return fail(MsgPageName)
	}
	return NameLength(s)
}

// Username: 1 to 20 letters, digits, dashes or underscores, not starting with a dash.
func Username(s string) error {
	if !reUsername.MatchString(s) {
		return fail(MsgUsername)
	}
	return nil
}

// reservedBranchFirst are first components that make a branch name read as another kind of
// ref: refs/heads/x names a ref path, origin/x and remotes/x a remote-tracking branch, and
// heads/x and tags/x shadow refs/heads/x and refs/tags/x in git's short-name lookup.
var reservedBranchFirst = map[string]bool{"refs": true, "origin": true, "remotes": true, "heads": true, "tags": true}

// reSpecialRef matches git's special refs: HEAD, FETCH_HEAD, ORIG_HEAD, MERGE_HEAD,
// CHERRY_PICK_HEAD, REVERT_HEAD, …
var reSpecialRef = regexp.MustCompile(SpecialRefPattern)

// BranchName: starts with a letter or digit, then letters, digits, _ . - / (so no control
// characters, spaces, '@', '~', '^', ':', '?', '*', '[' or '\'); no '..' or '//'; no
// trailing '.' or '/'; no component that starts with '.' or ends with '.lock'; not one of
// git's special refs (HEAD, FETCH_HEAD, …); not starting with a reserved component (refs,
// origin, remotes, heads, tags); at most 250 bytes. Every name it accepts is one git accepts
// (git check-ref-format --branch) and one that means the same branch wherever git reads it.
func BranchName(s string) error {
	if !reBranchName.MatchString(s) || strings.Contains(s, "..") || strings.Contains(s, "//") ||
		strings.HasSuffix(s, ".") || strings.HasSuffix(s, "/") || len(s) > 250 || reSpecialRef.MatchString(s) {
		return fail(MsgBranchName)
	}
	parts := strings.Split(s, "/")
	if reservedBranchFirst[parts[0]] {
		return fail(MsgBranchName)
	}
	for _, c := range parts {
		if strings.HasPrefix(c, ".") || strings.HasSuffix(c, ".lock") {
			return fail(MsgBranchName)
		}
	}
	return nil
}

// StaticPortalName: no single or double quotes or backticks.
func StaticPortalName(s string) error {
	if strings.ContainsAny(s, "'\"`") {
		return fail(MsgStaticPortalName)
	}
	return nil
}

// NoLeadingWhitespace: no leading whitespace, '-', '<' or '>'.
func NoLeadingWhitespace(s string) error {
	if s != "" && strings.ContainsAny(s[:1], " \t\r\n-<>") {
		return fail(MsgLeadingWhitespace)
	}
	return nil
}

// URL: empty passes; otherwise it must start with http:// or https:// and have a host.
func URL(s string) error {
	if s == "" {
		return nil
	}
	rest, ok := strings.CutPrefix(s, "http://")
	if !ok {
		rest, ok = strings.CutPrefix(s, "https://")
	}
	if !ok || rest == "" || strings.ContainsAny(s, " \t\r\n") || strings.HasPrefix(rest, "/") {
		return fail(MsgURL)
	}
	return nil
}

// CrewURL: no whitespace and contains a dot.
func CrewURL(s string) error {
	if s == "" || strings.ContainsAny(s, " \t\r\n") || !strings.Contains(s, ".") {
		return fail(MsgCrewURL)
	}
	return nil
}

// GitURL: git://, ssh://, http(s):// or git@host: forms ending in .git.
func GitURL(s string) error {
	if !reGitURL.MatchString(s) {
		return fail(MsgGitURL)
	}
	return nil
}

// Number parses s and checks it against the optional bounds.
func Number(s string, min, max *float64) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, fail(MsgNumber)
	}
	if max != nil && v > *max {
		return v, fmt.Errorf("Maximum value allowed is %s", strconv.FormatFloat(*max, 'f', -1, 64))
	}
	if min != nil && v < *min {
		return v, fmt.Errorf("Minimum value allowed is %s", strconv.FormatFloat(*min, 'f', -1, 64))
	}
	return v, nil
}

// Email: required and a plain address (name@host.tld).
func Email(s string) error {
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || !strings.Contains(s[strings.LastIndex(s, "@")+1:], ".") {
		return fail(MsgEmail)
	}
	return nil
}

// PersonName: letters (any script), spaces, dots, apostrophes and dashes; the spec leaves the
// rejected set open, so digits and symbols such as < > @ # are refused.
func PersonName(s string, required bool) error {
	if s == "" {
		if required {
			return fail(MsgFieldRequired)
		}
		return nil
	}
	if !rePersonName.MatchString(s) {
		return fail(MsgSpecialCharacters)
	}
	return NameLength(s)
}

// PasswordLength checks the minimum length of a new password (spec 1 §5.1).
func PasswordLength(s string) error {
	if utf8.RuneCountInString(s) < MinPasswordLength {
		return fmt.Errorf("Your password needs to be at least %d characters.", MinPasswordLength)
	}
	return nil
}

// PasswordCharacters refuses control characters (the spec's special-characters check on
// passwords; printable symbols are allowed in passwords).
func PasswordCharacters(s string) error {
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return fail(MsgSpecialCharacters)
		}
	}
	return nil
}

// CommitMessage: required; starts with a letter or digit, then letters, digits, spaces or
// line breaks.
func CommitMessage(s string) error { return commitBy(reCommit, MsgCommitFormat, s) }

// commitBy: required, then the rule's pattern.
func commitBy(re *regexp.Regexp, msg, s string) error {
	if strings.TrimSpace(s) == "" {
		return fail(MsgCommitRequired)
	}
	if !re.MatchString(s) {
		return fail(msg)
	}
	return nil
}

// The commit message rules a portal chooses (its settings' commitMessageRule).
const (
	// CommitRuleAlphanumeric is the spec's rule (CommitMessage), the default of portals made
	// from a template.
	CommitRuleAlphanumeric = "ALPHANUMERIC"
	// CommitRuleAnyText is git hosts' convention (CommitText), the default of portals imported
	// from a git URL.
	CommitRuleAnyText = "ANY_TEXT"
)

// CommitRules are the rules a portal may choose.
var CommitRules = []string{CommitRuleAlphanumeric, CommitRuleAnyText}

// CommitText: required; a subject of 1 to 200 printable characters of any script, then
// optionally a blank line and a body (CommitTextPattern).
func CommitText(s string) error { return commitBy(reCommitText, MsgCommitText, s) }

// CommitMessageBy checks a commit message by the portal's rule (CommitRuleAlphanumeric or
// CommitRuleAnyText; any other value is the spec's rule).
func CommitMessageBy(rule, s string) error {
	if rule == CommitRuleAnyText {
		return CommitText(s)
	}
	return CommitMessage(s)
}

// Required checks that a trimmed value is not empty.
func Required(s string) error {
	if strings.TrimSpace(s) == "" {
		return fail(MsgFieldRequired)
	}
	return nil
}
