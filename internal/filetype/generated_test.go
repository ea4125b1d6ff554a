package filetype

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "write web/src/features/editors/aceModes.generated.ts again")

const (
	generatedTS = "../../web/src/features/editors/aceModes.generated.ts"
	aceModes    = "../../web/node_modules/ace-builds/src-noconflict/"
)

func webModesTS() string {
	var b strings.Builder
	b.WriteString("// Generated from internal/filetype/filetype.go by `go test ./internal/filetype -run TestWebModesAreGenerated -update`.\n")
	b.WriteString("// Do not edit: the Go test fails when this file and the server's table differ.\n\n")
	b.WriteString("/** The Ace modes the server's file type table names (an Asset's `editorMode`). */\n")
	b.WriteString("export const ACE_MODES = [\n")
	for _, m := range Modes() {
		b.WriteString("  '" + m + "',\n") // modes are identifiers: no escaping
	}
	b.WriteString("] as const;\n\nexport type AceMode = (typeof ACE_MODES)[number];\n\n")
	b.WriteString("/** Dynamic imports of the modes: each its own small chunk, fetched the first time it is used. */\n")
	b.WriteString("export const MODE_LOADERS: Record<AceMode, () => Promise<unknown>> = {\n")
	for _, m := range Modes() {
		b.WriteString("  " + m + ": () => import('ace-builds/src-noconflict/mode-" + m + "'),\n")
	}
	b.WriteString("};\n")
	return b.String()
}

// The browser's modes are generated from the server's table: they cannot drift.
func TestWebModesAreGenerated(t *testing.T) {
	want := webModesTS()
	if *update {
		if err := os.WriteFile(generatedTS, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(generatedTS)
	if err != nil || string(got) != want {
		t.Fatalf("%s differs from internal/filetype/filetype.go; run: go test ./internal/filetype -run TestWebModesAreGenerated -update", generatedTS)
	}
	for _, m := range Modes() {
		if strings.Trim(m, "abcdefghijklmnopqrstuvwxyz_0123456789") != "" {
			t.Errorf("mode %q is not an identifier", m)
		}
	}
	// Every mode is one Ace has (when the web's packages are installed).
	if _, err := os.Stat(aceModes); err != nil {
		t.Skip("web/node_modules not installed")
	}
	for _, m := range Modes() {
		if _, err := os.Stat(aceModes + "mode-" + m + ".js"); err != nil {
			t.Errorf("Ace has no mode %q", m)
		}
	}
}

// docsLines are the lines of docs/api.md ("Assets") that list the table's text types.
func docsLines() []string {
	q := func(l []string) string { return "`" + strings.Join(l, "`, `") + "`" }
	return []string{
		"Text by extension: " + q(TextExtensions()) + ".",
		"Text by name (any case): " + q(TextNames()) + ".",
	}
}

// The documented list of text types is the table's.
func TestDocsListTheTable(t *testing.T) {
	doc, err := os.ReadFile("../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range docsLines() {
		if !strings.Contains(string(doc), "\n"+line+"\n") {
			t.Errorf("docs/api.md lacks the line (or it differs from internal/filetype):\n%s", line)
		}
	}
}
