package check

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// An imported portal keeps its settings outside its tree: WithFile adds them as portal.json, so
// the portal-engine rules run; the tree's own portal.json wins; a change is seen at Refresh.
func TestWithFileServesSettingsKeptOutsideTheTree(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("index.html", `<html><body><a href="#/nowhere">x</a><main data-pw-outlet></main></body></html>`)
	write("sitemap.json", `[{"id":"home","title":"Home","url":"/pages/home.html","children":[]}]`)
	write("pages/home.html", `<p>Home</p>`)
	kept := []byte(`{"engineType":"PORTAL_ENGINE","supportLevel":"FULL","languageSettings":{"languages":["en_GB"],"defaultLanguage":"en_GB","languageMode":"TRANSLATION"}}`)
	load := func(context.Context) ([]byte, error) { return kept, nil }

	bare, err := Run(ctx, DirTree(dir), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := bare.Summary.ByRule[RuleLinkPageMissing]; n != 0 {
		t.Fatalf("without settings the folder is no portal-engine portal: %d link findings", n)
	}
	ix, err := NewIndex(ctx, WithFile(DirTree(dir), "portal.json", load))
	if err != nil {
		t.Fatal(err)
	}
	if n := ix.Report(Options{}).Summary.ByRule[RuleLinkPageMissing]; n != 1 {
		t.Fatalf("with the kept settings the broken link is found: %d", n)
	}
	// The settings change (not a portal-engine portal any more): the next Refresh sees it.
	kept = []byte(`{"engineType":"UNKNOWN"}`)
	if _, err := ix.Refresh(ctx, WithFile(DirTree(dir), "portal.json", load)); err != nil {
		t.Fatal(err)
	}
	if n := ix.Report(Options{}).Summary.ByRule[RuleLinkPageMissing]; n != 0 {
		t.Fatalf("after the settings changed: %d link findings", n)
	}
	// The tree's own portal.json wins over the kept one.
	write("portal.json", `{"engineType":"UNKNOWN"}`)
	kept = []byte(`{"engineType":"PORTAL_ENGINE","supportLevel":"FULL"}`)
	rep, err := Run(ctx, WithFile(DirTree(dir), "portal.json", load), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := rep.Summary.ByRule[RuleLinkPageMissing]; n != 0 {
		t.Fatalf("the tree's own portal.json wins: %d link findings", n)
	}
}
