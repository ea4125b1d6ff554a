package portalwright

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"portalwright/internal/testkit"
)

// TestSpecMessagesAreShown keeps docs/spec-messages.txt (the spec's user-visible messages, made by
// scripts/spec-messages.sh) true to the product: each message is in the product's sources
// (web/src, internal, templates; tests and comments left out) or listed with its reason under
// "Spec messages not shown" in docs/decisions.md, never both.
func TestSpecMessagesAreShown(t *testing.T) {
	messages := readLines(t, "docs/spec-messages.txt")
	if len(messages) < 100 {
		t.Fatalf("docs/spec-messages.txt holds %d messages; run scripts/spec-messages.sh", len(messages))
	}
	notShown := notShownMessages(t)
	sources := productSources(t)

	inSpec := map[string]bool{}
	shown := 0
	for _, m := range messages {
		inSpec[m] = true
		file := shownIn(m, sources)
		_, listed := notShown[m]
		switch {
		case file != "" && listed:
			t.Errorf("%q is shown (%s) but listed under \"Spec messages not shown\" in docs/decisions.md", m, file)
		case file == "" && !listed:
			t.Errorf("%q is not in the product's sources: show it where the spec puts it, or list it under \"Spec messages not shown\" in docs/decisions.md with the reason", m)
		case file != "":
			shown++
		}
	}
	for m := range notShown {
		if !inSpec[m] {
			t.Errorf("docs/decisions.md \"Spec messages not shown\" lists %q, which is not in docs/spec-messages.txt", m)
		}
	}
	t.Logf("%d spec messages: %d shown, %d listed as not shown", len(messages), shown, len(notShown))
}

// TestSpecMessagesFileIsCurrent regenerates the list when the spec is at hand
// (PORTALWRIGHT_SPEC_DIR, else ../shared/spec) and compares it with the committed one.
func TestSpecMessagesFileIsCurrent(t *testing.T) {
	dir := os.Getenv("PORTALWRIGHT_SPEC_DIR")
	if dir == "" {
		dir = "../shared/spec"
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no spec at %s (set PORTALWRIGHT_SPEC_DIR)", dir)
	}
	if _, err := exec.LookPath("perl"); err != nil {
		t.Skip("scripts/spec-messages.sh needs perl")
	}
	out, err := exec.Command("scripts/spec-messages.sh", dir).Output()
	if err != nil {
		t.Fatalf("scripts/spec-messages.sh: %v", err)
	}
	committed, err := os.ReadFile("docs/spec-messages.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, committed) {
		t.Errorf("docs/spec-messages.txt is not what scripts/spec-messages.sh %s makes; regenerate it", dir)
	}
}

// placeholder splits a spec message into the literal parts the product must show: {name} fields,
// an elided '...' (standing alone or quoted: "template '...'"), a count written N, and ' / ' or
// ': ' between a title and its message ("'Unsaved Changes: Would you like…'" is a prompt's
// title and question).
var placeholder = regexp.MustCompile(`\{[^}]*\}|(?:^|[\s'])\.\.\.(?:[\s']|$)|\sN\s|\s/\s|:\s`)

// sourceField is how the sources write a value they fill in: ${expr} or a Printf verb.
var sourceField = regexp.MustCompile(`\$\{[^{}]*\}|%[dsvq]`)

// shownIn names a source file that holds every literal part of the message, or "". A part may
// begin with a capital where the spec's runs in lower case (a title: 'browser not supported'),
// and a number in it may be a field the source fills in ('at least 5 characters' is
// `at least ${MIN_PASSWORD_LENGTH} characters`).
func shownIn(message string, sources map[string]string) string {
	type part struct {
		needle string         // a literal piece of it, to skip most files quickly
		re     *regexp.Regexp // the part itself
	}
	var parts []part
	for _, p := range placeholder.Split(message, -1) {
		if p = strings.TrimSpace(p); !strings.ContainsFunc(p, isLetter) {
			continue
		}
		p = normalizeSpace(p)
		needle := p[1:]
		if i := strings.IndexAny(needle, "0123456789"); i >= 0 {
			needle = needle[:i]
		}
		expr := regexp.MustCompile(`\d+`).ReplaceAllString(regexp.QuoteMeta(p[1:]), `(?:$0|{})`)
		first := p[:1]
		expr = "[" + regexp.QuoteMeta(strings.ToLower(first)+strings.ToUpper(first)) + "]" + expr
		parts = append(parts, part{needle, regexp.MustCompile(expr)})
	}
	for file, text := range sources {
		all := true
		for _, p := range parts {
			if !strings.Contains(text, p.needle) || !p.re.MatchString(text) {
				all = false
				break
			}
		}
		if all {
			return file
		}
	}
	return ""
}

func isLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

var spaces = regexp.MustCompile(`\s+`)

func normalizeSpace(s string) string { return spaces.ReplaceAllString(s, " ") }

// productSources reads the Go, TypeScript and template files that can show a message, without
// their comments, with escaped quotes and HTML entities undone and white space collapsed (JSX
// text runs over lines).
func productSources(t *testing.T) map[string]string {
	t.Helper()
	unescape := strings.NewReplacer(`\'`, `'`, `\"`, `"`, "&apos;", "'", "&#39;", "'", "&quot;", `"`, "&amp;", "&")
	sources := map[string]string{}
	for _, root := range []string{"web/src", "internal", "templates"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if d.IsDir() {
				if name == "node_modules" || name == "testdata" || path == "web/src/test" {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(name, "_test.go") || strings.Contains(name, ".test.") {
				return nil
			}
			ext := filepath.Ext(name)
			if !sourceExts[ext] {
				return nil
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			text := string(raw)
			if ext != ".json" && ext != ".html" {
				text = stripComments(text)
			}
			sources[path] = sourceField.ReplaceAllString(normalizeSpace(unescape.Replace(text)), "{}")
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return sources
}

var sourceExts = map[string]bool{".go": true, ".ts": true, ".tsx": true, ".js": true, ".html": true, ".json": true}

// stripComments removes // and /* */ comments from Go or TypeScript source, keeping strings
// (a quoted string ends at its quote or the line's end; a template or raw string at its backtick).
func stripComments(source string) string {
	var out strings.Builder
	for i := 0; i < len(source); {
		c := source[i]
		switch {
		case c == '/' && i+1 < len(source) && source[i+1] == '/':
			for i < len(source) && source[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(source) && source[i+1] == '*':
			end := strings.Index(source[i+2:], "*/")
			if end < 0 {
				i = len(source)
			} else {
				i += end + 4
			}
			out.WriteByte(' ')
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for j < len(source) && source[j] != c && (c == '`' || source[j] != '\n') {
				if source[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(source))
			out.WriteString(source[i:j])
			i = j
		default:
			out.WriteByte(c)
			i++
		}
	}
	return out.String()
}

// notShownMessages reads the bullets of docs/decisions.md "Spec messages not shown": each
// "- `message`: reason", the reason required (it may go on over indented lines).
func notShownMessages(t *testing.T) map[string]string {
	t.Helper()
	section := testkit.DocSection(t, "docs/decisions.md", "Spec messages not shown")
	bullet := regexp.MustCompile("(?m)^- `([^`]+)`(.*(?:\n  .*)*)")
	listed := map[string]string{}
	for _, m := range bullet.FindAllStringSubmatch(section, -1) {
		reason := strings.TrimSpace(strings.TrimLeft(m[2], ":—- "))
		if reason == "" {
			t.Errorf("docs/decisions.md \"Spec messages not shown\": %q has no reason", m[1])
		}
		listed[m[1]] = reason
	}
	return listed
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(raw), "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}
