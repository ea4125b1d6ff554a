package asset

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"portalwright/internal/workspace"
)

func TestParsePath(t *testing.T) {
	for _, ok := range []string{"/", "", "/a.png", "/images/a b.png", "/images/", "/.gitignore", "/a/.github/x"} {
		if _, err := ParsePath(ok); err != nil {
			t.Errorf("ParsePath(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"//", "/..", "/../etc/passwd", "/a/../b", "/.git/config", "/a/.GIT/x", "/a/.git",
		"/a\x00b", "/a\nb", "/a\x7fb", "/a\\b", "/a//b", "/./a", "\\etc\\passwd", "/a/%2e%2e/\x01", "/\xff"} {
		if p, err := ParsePath(bad); err == nil {
			t.Errorf("ParsePath(%q) = %q, want refused", bad, p)
		}
	}
	if p, _ := ParsePath("/"); p != workspace.Root || APIPath(p) != "/" {
		t.Fatalf("root: %q", p)
	}
}

func TestValidName(t *testing.T) {
	for _, ok := range []string{"a.png", "My file (1).png", "[x]-_&$@^{}~.svg", "café.png"} {
		if !ValidName(ok) {
			t.Errorf("ValidName(%q) = false", ok)
		}
	}
	for _, bad := range []string{"", ".", "..", "a/b.png", "a\\b.png", "a%.png", "a#.png", "a\x00.png", "a\n.png", "a'.png", "a;.png"} {
		if ValidName(bad) {
			t.Errorf("ValidName(%q) = true", bad)
		}
	}
}

// FuzzAssetPath: any path ParsePath accepts, joined onto a workspace, stays inside it, never
// names .git at any depth, and holds no control character or "..".
func FuzzAssetPath(f *testing.F) {
	for _, s := range []string{"/", "/a.png", "/../x", "/.git/config", "/a/.GiT", "/a\x00", "/%2e%2e", "/a//b", "\\a", "/a/b/"} {
		f.Add(s)
	}
	base := f.TempDir()
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePath(s)
		if err != nil {
			return
		}
		rel := p.String()
		joined := filepath.Join(base, filepath.FromSlash(rel))
		if r, err := filepath.Rel(base, joined); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			t.Fatalf("%q → %q leaves the workspace", s, joined)
		}
		if !strings.HasPrefix(joined, base) {
			t.Fatalf("%q → %q leaves the workspace", s, joined)
		}
		for _, part := range strings.Split(rel, "/") {
			if strings.EqualFold(part, ".git") || part == ".." {
				t.Fatalf("%q → %q names .git or ..", s, rel)
			}
		}
		if strings.IndexFunc(rel, unicode.IsControl) >= 0 || strings.ContainsRune(rel, 0) || strings.Contains(rel, "\\") {
			t.Fatalf("%q → %q holds a control character or backslash", s, rel)
		}
	})
}
