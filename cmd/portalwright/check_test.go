package main

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"portalwright/templates"
)

// status is the exit status a run's error gives (main's rule).
func status(err error) int {
	var exit *exitError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &exit):
		return exit.code
	}
	return 1
}

func starterDir(t *testing.T, id string) string {
	t.Helper()
	fsys, err := templates.FS(id)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, fsys); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCheckStarters(t *testing.T) {
	for _, s := range templates.List() {
		out, err := runCLI(t, nil, "", "check", starterDir(t, s.ID))
		if status(err) != 0 || !strings.Contains(out, "0 errors, 0 warnings") {
			t.Errorf("%s: %v\n%s", s.ID, err, out)
		}
	}
}

func TestCheckBrokenTree(t *testing.T) {
	dir := starterDir(t, "crew")
	os.WriteFile(filepath.Join(dir, "pages", "about.html"), []byte("<p>\n<a href=\"#/gone\">x</a></p>"), 0o644)
	os.WriteFile(filepath.Join(dir, "widgets", "database", "home-hero.json"), []byte("{\n  \"type\": \"hero\",\n}"), 0o644)
	os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
	os.WriteFile(filepath.Join(dir, ".git", "broken.json"), []byte("{"), 0o644)

	out, err := runCLI(t, nil, "", "check", dir)
	if status(err) != 1 || !strings.Contains(out, "pages/about.html:2: error: Link to the page 'gone', which is not in the sitemap. [link.page-missing]") ||
		!strings.Contains(out, "widgets/database/home-hero.json:3: error: Not valid JSON") || strings.Contains(out, ".git") {
		t.Fatalf("text: %v\n%s", err, out)
	}

	out, err = runCLI(t, nil, "", "check", "--format", "json", "--rules", "link.page-missing,content.syntax", dir)
	if status(err) != 1 {
		t.Fatalf("json: %v", err)
	}
	var rep struct {
		Findings []struct {
			Rule, Severity, Path, ID string
			Line                     int
		} `json:"findings"`
		Ignored []any `json:"ignored"`
		Summary struct {
			Errors int            `json:"errors"`
			ByRule map[string]int `json:"byRule"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.Summary.Errors != 2 || len(rep.Findings) != 2 || rep.Ignored == nil {
		t.Fatalf("json: %s", out)
	}
	for _, f := range rep.Findings {
		if strings.HasPrefix(f.Path, "/") || filepath.IsAbs(f.Path) || f.ID == "" || f.Severity != "error" {
			t.Errorf("finding %+v", f)
		}
	}
}

func TestCheckCannotCheck(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	os.WriteFile(file, []byte("x"), 0o644)
	for _, args := range [][]string{
		{"check"},
		{"check", "--format", "xml", dir},
		{"check", "--rules", "asset.missing,link.nowhere", dir},
		{"check", "--bogus", dir},
		{"check", filepath.Join(dir, "missing")},
		{"check", file},
		{"check", dir, dir},
	} {
		if _, err := runCLI(t, nil, "", args...); status(err) != 2 {
			t.Errorf("%v: %v (status %d)", args, err, status(err))
		}
	}
	if out, err := runCLI(t, nil, "", "check", "--help"); !errors.Is(err, flag.ErrHelp) || !strings.Contains(out, "Usage: portalwright check") {
		t.Errorf("help: %v %s", err, out)
	}
	if out, _ := runCLI(t, nil, "", "help"); !strings.Contains(out, "portalwright check") {
		t.Errorf("usage: %s", out)
	}
}
