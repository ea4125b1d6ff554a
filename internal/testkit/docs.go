package testkit

import (
	"os"
	"strings"
	"testing"
)

// DocSection returns the section of a markdown file that begins with the line "## <heading>…"
// (its heading line included) up to the next "## " heading, failing the test when there is none.
// Tests that keep a doc true to the code read their part of it with it.
func DocSection(t testing.TB, path, heading string) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := "\n" + string(raw)
	start := strings.Index(doc, "\n## "+heading)
	if start < 0 {
		t.Fatalf("%s has no %q section", path, "## "+heading)
	}
	section := doc[start+1:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	return section
}
