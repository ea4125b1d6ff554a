package filetype

import (
	"strings"
	"testing"
)

func TestTable(t *testing.T) {
	for _, c := range []struct {
		name, contentType, mode string
		text                    bool
	}{
		{"apps/site/pages/en/index.mdx", "text/markdown; charset=utf-8", "markdown", true},
		{"README.md", "text/markdown; charset=utf-8", "markdown", true},
		{"src/App.tsx", "text/tsx; charset=utf-8", "tsx", true},
		{"src/main.ts", "text/typescript; charset=utf-8", "typescript", true},
		{"vite.config.mjs", "text/javascript; charset=utf-8", "javascript", true},
		{"a.CJS", "text/javascript; charset=utf-8", "javascript", true},
		{"App.vue", "text/x-vue; charset=utf-8", "vue", true},
		{"Page.svelte", "text/x-svelte; charset=utf-8", "html", true},
		{"index.astro", "text/x-astro; charset=utf-8", "astro", true},
		{"site.scss", "text/x-scss; charset=utf-8", "scss", true},
		{"config.yml", "text/yaml; charset=utf-8", "yaml", true},
		{"netlify.toml", "application/toml; charset=utf-8", "toml", true},
		{"tsconfig.json", "application/json; charset=utf-8", "json", true},
		{"a.json5", "application/json5; charset=utf-8", "json5", true},
		{"site.webmanifest", "application/manifest+json; charset=utf-8", "json", true},
		{"logo.svg", "image/svg+xml; charset=utf-8", "svg", true},
		{"LICENSE", "text/plain; charset=utf-8", "text", true},
		{"docs/CHANGELOG", "text/plain; charset=utf-8", "text", true},
		{".nvmrc", "text/plain; charset=utf-8", "text", true},
		{".editorconfig", "text/plain; charset=utf-8", "ini", true},
		{".gitignore", "text/plain; charset=utf-8", "gitignore", true},
		{"Dockerfile", "text/plain; charset=utf-8", "dockerfile", true},
		{"Makefile", "text/x-makefile; charset=utf-8", "makefile", true},
		{"scripts/build.sh", "text/x-sh; charset=utf-8", "sh", true},
		{"photo.JPG", "image/jpeg", "", false},
		{"clip.mp4", "video/mp4", "", false},
		{"font.woff2", "font/woff2", "", false},
		{"report.pdf", "application/pdf", "", false},
	} {
		got, ok := ByName(c.name)
		if !ok || got.ContentType() != c.contentType || got.Mode != c.mode || got.Text != c.text {
			t.Errorf("%s: %+v %v, want %s %s %v", c.name, got, ok, c.contentType, c.mode, c.text)
		}
	}
	// Unknown names: the content decides.
	for _, name := range []string{"notes", "LICENSE-MIT", "a.unknownext", ".env.local"} {
		if _, ok := ByName(name); ok {
			t.Errorf("%s: known", name)
		}
		if got := Of(name, []byte("héllo\n")); got != Plain || got.ContentType() != "text/plain; charset=utf-8" {
			t.Errorf("%s as text: %+v", name, got)
		}
		if got := Of(name, []byte("ab\x00cd")); got != Binary || got.ContentType() != "application/octet-stream" || got.Mode != "" {
			t.Errorf("%s as binary: %+v", name, got)
		}
	}
	// Only the first SniffLen bytes are searched.
	late := append([]byte(strings.Repeat("a", SniffLen)), 0)
	if Sniff(late) != Plain {
		t.Error("a NUL after SniffLen made the file binary")
	}
}
