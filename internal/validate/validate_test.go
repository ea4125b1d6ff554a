package validate

import (
	"os/exec"
	"strings"
	"testing"
)

// One row per rule and outcome; the web client's validation tests use the same cases.
func TestRules(t *testing.T) {
	type rule func(string) error
	rows := []struct {
		name  string
		rule  rule
		in    string
		okMsg string // "" when valid, else the expected message
	}{
		{"alphanumeric ok", Alphanumeric, "Crew Team_1", ""},
		{"alphanumeric dash", Alphanumeric, "crew-team", MsgAlphanumeric},
		{"alphanumeric empty", Alphanumeric, "", MsgAlphanumeric},
		{"no spaces ok", NoSpaces, "file_name.v2", ""},
		{"no spaces space", NoSpaces, "file name", MsgNoSpaces},
		{"icao ok", ICAO, "BAW", ""},
		{"icao long ok", ICAO, "ABCDE", ""},
		{"icao short", ICAO, "BA", MsgICAO},
		{"icao lower", ICAO, "baw", MsgICAO},
		{"portal name ok", PortalName, "Crew Portal (A320) v1.2-beta", ""},
		{"portal name leading dash", PortalName, "-portal", MsgPortalName},
		{"portal name leading space", PortalName, " portal", MsgPortalName},
		{"portal name slash", PortalName, "a/b", MsgPortalName},
		{"portal name 100", PortalName, strings.Repeat("p", 100), ""},
		{"portal name 101", PortalName, strings.Repeat("p", 101), MsgNameTooLong},
		{"name ok", Name, "Crew Team_1", ""},
		{"name dash", Name, "crew-team", MsgAlphanumeric},
		{"name 100", Name, strings.Repeat("n", 100), ""},
		{"name 101", Name, strings.Repeat("n", 101), MsgNameTooLong},
		{"page name ok", PageName, "Home page_1-a", ""},
		{"page name dot", PageName, "home.html", MsgPageName},
		{"page name leading dash", PageName, "-home", MsgPageName},
		{"page name 101", PageName, strings.Repeat("h", 101), MsgNameTooLong},
		{"username ok", Username, "john_doe-1", ""},
		{"username 20", Username, "abcdefghijklmnopqrst", ""},
		{"username 21", Username, "abcdefghijklmnopqrstu", MsgUsername},
		{"username leading dash", Username, "-john", MsgUsername},
		{"username space", Username, "john doe", MsgUsername},
		{"username empty", Username, "", MsgUsername},
		{"branch ok", BranchName, "feature/new-page_1.2", ""},
		{"branch leading dot", BranchName, ".hidden", MsgBranchName},
		{"branch dotdot", BranchName, "a..b", MsgBranchName},
		{"branch double slash", BranchName, "a//b", MsgBranchName},
		{"branch trailing dot", BranchName, "a.", MsgBranchName},
		{"branch trailing slash", BranchName, "a/", MsgBranchName},
		{"branch slash dot", BranchName, "a/.b", MsgBranchName},
		{"branch lock", BranchName, "a.lock", MsgBranchName},
		{"branch space", BranchName, "a b", MsgBranchName},
		{"branch option-like", BranchName, "-delete", MsgBranchName},
		{"branch main", BranchName, "main", ""},
		{"branch lower head", BranchName, "head", ""},
		{"branch head inside", BranchName, "feature/HEAD", ""},
		{"branch ahead", BranchName, "AHEAD", ""},
		{"branch origin-like", BranchName, "originals/x", ""},
		{"branch reserved later", BranchName, "release/origin", ""},
		{"branch HEAD", BranchName, "HEAD", MsgBranchName},
		{"branch FETCH_HEAD", BranchName, "FETCH_HEAD", MsgBranchName},
		{"branch ORIG_HEAD", BranchName, "ORIG_HEAD", MsgBranchName},
		{"branch MERGE_HEAD", BranchName, "MERGE_HEAD", MsgBranchName},
		{"branch CHERRY_PICK_HEAD", BranchName, "CHERRY_PICK_HEAD", MsgBranchName},
		{"branch full ref", BranchName, "refs/heads/x", MsgBranchName},
		{"branch refs", BranchName, "refs", MsgBranchName},
		{"branch remote-tracking", BranchName, "origin/master", MsgBranchName},
		{"branch origin", BranchName, "origin", MsgBranchName},
		{"branch remotes", BranchName, "remotes/origin/x", MsgBranchName},
		{"branch heads", BranchName, "heads/x", MsgBranchName},
		{"branch tags", BranchName, "tags/v1", MsgBranchName},
		{"branch at", BranchName, "@", MsgBranchName},
		{"branch reflog", BranchName, "a@{1}", MsgBranchName},
		{"branch control", BranchName, "a\x01b", MsgBranchName},
		{"branch tab", BranchName, "a\tb", MsgBranchName},
		{"branch del", BranchName, "a\x7fb", MsgBranchName},
		{"branch lock component", BranchName, "a.lock/b", MsgBranchName},
		{"branch dot component", BranchName, "a/.b/c", MsgBranchName},
		{"branch tilde", BranchName, "a~1", MsgBranchName},
		{"branch caret", BranchName, "a^", MsgBranchName},
		{"branch colon", BranchName, "a:b", MsgBranchName},
		{"branch glob", BranchName, "a*", MsgBranchName},
		{"branch question", BranchName, "a?", MsgBranchName},
		{"branch bracket", BranchName, "a[b", MsgBranchName},
		{"branch backslash", BranchName, "a\\b", MsgBranchName},
		{"branch too long", BranchName, strings.Repeat("a", 251), MsgBranchName},
		{"static name ok", StaticPortalName, "Static portal", ""},
		{"static name quote", StaticPortalName, "it's", MsgStaticPortalName},
		{"static name backtick", StaticPortalName, "a`b", MsgStaticPortalName},
		{"leading ok", NoLeadingWhitespace, "value", ""},
		{"leading space", NoLeadingWhitespace, " value", MsgLeadingWhitespace},
		{"leading dash", NoLeadingWhitespace, "-value", MsgLeadingWhitespace},
		{"leading angle", NoLeadingWhitespace, "<script>", MsgLeadingWhitespace},
		{"url empty", URL, "", ""},
		{"url https", URL, "https://example.com/x", ""},
		{"url ftp", URL, "ftp://example.com", MsgURL},
		{"url bare", URL, "example.com", MsgURL},
		{"url space", URL, "https://exa mple.com", MsgURL},
		{"crew url ok", CrewURL, "crew.airline.aero", ""},
		{"crew url no dot", CrewURL, "localhost", MsgCrewURL},
		{"crew url space", CrewURL, "crew airline.aero", MsgCrewURL},
		{"git https", GitURL, "https://git.example.com/team/portal.git", ""},
		{"git ssh", GitURL, "ssh://git@git.example.com:2222/team/portal.git", ""},
		{"git scp", GitURL, "git@github.com:team/portal.git", ""},
		{"git proto", GitURL, "git://git.example.com/portal.git", ""},
		{"git no suffix", GitURL, "https://git.example.com/team/portal", MsgGitURL},
		{"git file", GitURL, "file:///srv/portal.git", MsgGitURL},
		{"email ok", Email, "jane.doe@example.com", ""},
		{"email no tld", Email, "jane@example", MsgEmail},
		{"email name form", Email, "Jane <jane@example.com>", MsgEmail},
		{"email empty", Email, "", MsgEmail},
		{"commit ok", CommitMessage, "Update home page\nand footer", ""},
		{"commit empty", CommitMessage, "  ", MsgCommitRequired},
		{"commit punctuation", CommitMessage, "Fix: typo", MsgCommitFormat},
		{"commit leading space", CommitMessage, " fix", MsgCommitFormat},
		{"commit text conventional", CommitText, "chore(i18n): update fr", ""},
		{"commit text punctuation", CommitText, "i18n: fix typo - don't use '/' or # (or .)", ""},
		{"commit text any script", CommitText, "Übersetzung: Änderungen für 日本語 ✓", ""},
		{"commit text body", CommitText, "fix: typo\n\nThe body:\n\t- one\n\t- two\n", ""},
		{"commit text crlf body", CommitText, "fix: typo\r\n\r\nBody", ""},
		{"commit text around", CommitText, "\n  fix: typo  \n\n", ""},
		{"commit text 200", CommitText, strings.Repeat("ü", 200), ""},
		{"commit text 201", CommitText, strings.Repeat("ü", 201), MsgCommitText},
		{"commit text no blank line", CommitText, "fix: typo\nmore", MsgCommitText},
		{"commit text control", CommitText, "fix\x07typo", MsgCommitText},
		{"commit text bidi", CommitText, "fix \u202etypo", MsgCommitText},
		{"commit text body control", CommitText, "fix\n\nbody\x00", MsgCommitText},
		{"commit text empty", CommitText, " \n ", MsgCommitRequired},
		{"commit by spec", func(s string) error { return CommitMessageBy(CommitRuleAlphanumeric, s) }, "chore(i18n): update fr", MsgCommitFormat},
		{"commit by any text", func(s string) error { return CommitMessageBy(CommitRuleAnyText, s) }, "chore(i18n): update fr", ""},
		{"required ok", Required, "x", ""},
		{"required blank", Required, " ", MsgFieldRequired},
		{"password length ok", PasswordLength, "12345", ""},
		{"password length short", PasswordLength, "1234", "Your password needs to be at least 5 characters."},
		{"password chars control", PasswordCharacters, "abc\x00def", MsgSpecialCharacters},
		{"password chars symbols ok", PasswordCharacters, "p@ss w0rd!", ""},
	}
	for _, r := range rows {
		err := r.rule(r.in)
		switch {
		case r.okMsg == "" && err != nil:
			t.Errorf("%s: %q rejected: %v", r.name, r.in, err)
		case r.okMsg != "" && (err == nil || err.Error() != r.okMsg):
			t.Errorf("%s: %q: err = %v, want %q", r.name, r.in, err, r.okMsg)
		}
	}
}

func TestPersonName(t *testing.T) {
	for in, want := range map[string]string{
		"Anne-Marie":             "",
		"O'Neill":                "",
		"José":                   "",
		"":                       "",
		"John3":                  MsgSpecialCharacters,
		"<b>":                    MsgSpecialCharacters,
		"a@b":                    MsgSpecialCharacters,
		" leading":               MsgSpecialCharacters,
		strings.Repeat("é", 100): "",
		strings.Repeat("é", 101): MsgNameTooLong,
	} {
		err := PersonName(in, false)
		if (want == "") != (err == nil) || (err != nil && err.Error() != want) {
			t.Errorf("PersonName(%q) = %v, want %q", in, err, want)
		}
	}
	if err := PersonName("", true); err == nil || err.Error() != MsgFieldRequired {
		t.Errorf("required empty name: %v", err)
	}
}

func TestNumber(t *testing.T) {
	lo, hi := 1.0, 10.0
	for in, want := range map[string]string{
		"5":   "",
		"1":   "",
		"10":  "",
		"11":  "Maximum value allowed is 10",
		"0":   "Minimum value allowed is 1",
		"abc": MsgNumber,
		"":    MsgNumber,
		"2.5": "",
	} {
		_, err := Number(in, &lo, &hi)
		if (want == "") != (err == nil) || (err != nil && err.Error() != want) {
			t.Errorf("Number(%q) = %v, want %q", in, err, want)
		}
	}
}

// Every branch name the rule accepts must be one git accepts, and the names git refuses that
// reached git before (HEAD, a full ref, a remote-tracking name) are refused by the rule.
func TestBranchNamesAgreeWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for _, name := range []string{"master", "main", "feature/new-page_1.2", "head", "feature/HEAD", "AHEAD", "originals/x",
		"release/origin", "a.b", "1.0", "x-y_z/1.2.3", strings.Repeat("a", 250)} {
		if err := BranchName(name); err != nil {
			t.Errorf("%q refused: %v", name, err)
			continue
		}
		if out, err := exec.Command("git", "check-ref-format", "--branch", name).CombinedOutput(); err != nil {
			t.Errorf("the rule accepts %q but git refuses it: %s", name, out)
		}
	}
	// Names git refuses outright as branch names; the rule must refuse them too.
	for _, name := range []string{"HEAD", "a@{1}", "a..b", "a.lock", "a.lock/b", "a/.b", ".a", "a/", "a~1", "a^", "a:b", "a\x01b", "-x"} {
		if exec.Command("git", "check-ref-format", "--branch", name).Run() == nil {
			t.Errorf("git accepts %q: the case does not show what it means to", name)
		}
		if BranchName(name) == nil {
			t.Errorf("%q accepted", name)
		}
	}
}
