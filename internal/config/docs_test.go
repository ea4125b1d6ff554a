package config

import (
	"flag"
	"io"
	"regexp"
	"strings"
	"testing"

	"portalwright/internal/testkit"
)

// TestEveryFlagIsInTheOperationsTable keeps docs/operations.md "Configuration" true: every flag
// the server takes has a row there with its environment variable, and the table names no flag
// the server does not take.
func TestEveryFlagIsInTheOperationsTable(t *testing.T) {
	section := testkit.DocSection(t, "../../docs/operations.md", "Configuration\n")
	rows := map[string]string{} // flag → its row
	for _, line := range strings.Split(section, "\n") {
		if m := regexp.MustCompile("^\\| `--([a-z0-9-]+)` \\|").FindStringSubmatch(line); m != nil {
			rows[m[1]] = line
		}
	}

	cfg := Defaults()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	Register(fs, &cfg)
	taken := map[string]bool{}
	fs.VisitAll(func(f *flag.Flag) {
		taken[f.Name] = true
		row, ok := rows[f.Name]
		if !ok {
			t.Errorf("--%s has no row in docs/operations.md \"Configuration\"", f.Name)
			return
		}
		env := "PORTALWRIGHT_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if strings.Contains(f.Usage, "(env "+env+")") && !strings.Contains(row, "`"+env+"`") {
			t.Errorf("the row of --%s does not name %s", f.Name, env)
		}
	})
	for name := range rows {
		if !taken[name] {
			t.Errorf("docs/operations.md \"Configuration\" names --%s, which the server does not take", name)
		}
	}
}
