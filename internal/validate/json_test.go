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
