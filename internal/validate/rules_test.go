package validate

import (
	"flag"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "write web/src/lib/rules.generated.ts again")

const generatedTS = "../../web/src/lib/rules.generated.ts"

func browserRulesTS() string {
	var b strings.Builder
	b.WriteString("// Generated from internal/validate/rules.go by `go test ./internal/validate -run TestBrowserRulesAreGenerated -update`.\n")
	b.WriteString("// Do not edit: the Go test fails when this file and the server's rules differ.\n")
	for _, r := range BrowserRules {
		b.WriteString("\n/** " + r.Doc + " */\n")
		b.WriteString("export const " + r.Name + " = new RegExp(" + strconv.Quote(r.Pattern) + ", " + strconv.Quote(r.Flags) + ");\n")
	}
	return b.String()
}

// The browser's copy of the rules is generated from the server's: it cannot drift.
func TestBrowserRulesAreGenerated(t *testing.T) {
	want := browserRulesTS()
	if *update {
		if err := os.WriteFile(generatedTS, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(generatedTS)
	if err != nil || string(got) != want {
		t.Fatalf("%s differs from internal/validate/rules.go; run: go test ./internal/validate -run TestBrowserRulesAreGenerated -update", generatedTS)
	}
	for _, r := range BrowserRules {
		regexp.MustCompile(r.Pattern)
	}
}
