package validate

import "testing"

func TestJSONSyntaxNamesTheLine(t *testing.T) {
	if got := JSONSyntax([]byte(`{"a": 1}`)); got != "" {
		t.Fatalf("valid JSON: %q", got)
	}
	got := JSONSyntax([]byte("{\n  \"a\": 1,\n  }\n"))
	if got[:len("line 3, column 3")] != "line 3, column 3" {
		t.Fatalf("trailing comma: %q", got)
	}
	if got := JSONSyntax([]byte("{\n  \"a\": [1,\n")); got[:6] != "line 2" {
		t.Fatalf("truncated: %q", got)
	}
}

func TestIsJSONC(t *testing.T) {
	for p, want := range map[string]bool{
		"tsconfig.json": true, "apps/site/tsconfig.app.json": true, "packages/ui/jsconfig.json": true,
		".eslintrc.json": true, "a/.babelrc": true, ".devcontainer/devcontainer.json": true,
		".vscode/settings.json": true, "apps/x/.vscode/launch.json": true, "data/x.jsonc": true, "a.JSON5": true,
		"package.json": false, "data/tsconfig-like.txt": false, "locales/en.json": false, "vscode/settings.json": false,
	} {
		if IsJSONC(p) != want {
			t.Errorf("IsJSONC(%q) = %v", p, !want)
		}
	}
}
