package files

import (
	"bytes"
	"context"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"

	"portalwright/internal/workspace"
	"portalwright/internal/workspace/workspacetest"
)

// GrepFiles + ReadFiles hand over exactly the files ReadTree hands over that hold the word
// (ignoring ASCII case), but the excluded ones: untracked, ignored and nested files too; never
// through a link, a skipped folder, .git (in any case), a write in progress or a FIFO.
func TestGrepFilesReadsWhatReadTreeWould(t *testing.T) {
	ctx := context.Background()
	r := workspacetest.NewRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, workspacetest.Starter(), "Create portal", workspace.SystemAuthor); err != nil {
		t.Fatal(err)
	}
	workspacetest.Open(t, r, 10, workspace.DefaultBranch)
	ws := r.WorkspaceDir(10, 1)
	for name, content := range map[string]string{
		"docs/a.md":                 "the ALBATROSS flies\n",
		"docs/b.md":                 "nothing here\n",
		"docs/deep/er/c.mdx":        "an albatross\n",
		"odd/hash#percent q?.md":    "albatross\n",
		".gitignore":                "ignored/\n",
		"ignored/i.txt":             "albatross\n",
		"node_modules/x/y.md":       "albatross\n",
		"apps/node_modules/z.md":    "albatross\n",
		"pw-dist/index.html":        "albatross\n",
		"pages/home.html":           "<p>albatross</p>\n",
		"pages/notes.md":            "albatross\n",
		"widgets/database/w.json":   `{"a":"albatross"}`,
		"translations/en.json":      `{"a":"albatross"}`,
		"sub/.Git/x.md":             "albatross\n",
		"sub/.pw-write-123":         "albatross\n",
		"nested/.git/HEAD":          "ref: refs/heads/master\n",
		"nested/n.md":               "albatross\n",
		"image.png":                 "\x89PNG albatross",
		"docs/albatross-in-name.md": "no bird here\n",
	} {
		workspacetest.Write(t, r, 10, name, content)
	}
	if err := os.Symlink("docs/a.md", filepath.Join(ws, "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("docs", filepath.Join(ws, "linkdir")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(ws, "docs", "fifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	skip := func(dir string) bool { return dir == "pw-dist" || path.Base(dir) == "node_modules" }
	keep := func(name string) bool { return !strings.HasSuffix(name, ".png") }
	word := "albatross"
	collect := func(read func(fn func(p workspace.Path, data []byte) error) error) []string {
		var mu sync.Mutex
		var got []string
		if err := read(func(p workspace.Path, data []byte) error {
			if bytes.Contains(bytes.ToLower(data), []byte(word)) {
				mu.Lock()
				got = append(got, p.String())
				mu.Unlock()
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		sort.Strings(got)
		return got
	}
	excluded := func(p string) bool {
		dir, name := path.Split(p)
		return dir == "pages/" && strings.HasSuffix(name, ".html") || dir == "widgets/database/" || dir == "translations/"
	}
	var want []string
	for _, p := range collect(func(fn func(p workspace.Path, data []byte) error) error {
		return New(r).ReadTree(ctx, 10, 1, skip, keep, 1<<20, fn)
	}) {
		if !excluded(p) {
			want = append(want, p)
		}
	}
	paths, err := New(r).GrepFiles(ctx, 10, 1, word, []string{"pages/*.html", "widgets/database/*.json", "translations/*.json", "**/node_modules/**"}, []string{"pw-dist"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := collect(func(fn func(p workspace.Path, data []byte) error) error {
		return New(r).ReadFiles(ctx, 10, 1, paths, skip, keep, 1<<20, fn)
	})
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("read after grep:\n%s\nReadTree:\n%s\n(grep listed %q)", strings.Join(got, "\n"), strings.Join(want, "\n"), paths)
	}
	if len(want) < 5 {
		t.Fatalf("too few files to compare: %q", want)
	}
	if paths, err := New(r).GrepFiles(ctx, 10, 1, "nowherefound", nil, nil, 0); err != nil || len(paths) != 0 {
		t.Fatalf("no match: %q %v", paths, err)
	}
	if _, err := New(r).GrepFiles(ctx, 10, 1, "-e", nil, nil, 0); err == nil {
		t.Fatal("a word that is not plain must be refused")
	}
}
