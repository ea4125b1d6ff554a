package check

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"portalwright/internal/gitcli"
	"portalwright/templates"
)

func paths(files []File) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Path
	}
	return out
}

func TestDirTreeListsRegularFilesOnly(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.json"), []byte(`{}`), 0o644)
	os.MkdirAll(filepath.Join(dir, ".git", "objects"), 0o755)
	os.WriteFile(filepath.Join(dir, ".git", "config"), []byte("x"), 0o644)
	os.MkdirAll(filepath.Join(dir, "sub", "mod"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", "mod", ".git"), []byte("gitdir: ../x"), 0o644)
	os.WriteFile(filepath.Join(dir, "sub", "a.json"), []byte(`{}`), 0o644)
	os.WriteFile(filepath.Join(dir, "index.html"), []byte(`<p>`), 0o644)
	os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(dir, "link.json"))
	os.Symlink(outside, filepath.Join(dir, "linkdir"))
	tree := DirTree(dir)
	files, err := tree.Files(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(files); !slices.Equal(got, []string{"index.html", "sub/a.json"}) {
		t.Fatalf("files: %v", got)
	}
	for _, p := range []string{"link.json", "linkdir/secret.json", "../x", "/etc/passwd", "sub/../index.html", ".git/config", ""} {
		if _, err := tree.Read(context.Background(), p); err == nil {
			t.Errorf("read %q", p)
		}
	}
	if data, err := tree.Read(context.Background(), "sub/a.json"); err != nil || string(data) != "{}" {
		t.Fatalf("read: %q %v", data, err)
	}
}

func newGit(t *testing.T) *gitcli.Git {
	t.Helper()
	g, err := gitcli.New(context.Background(), gitcli.Options{Home: t.TempDir()})
	if err != nil {
		t.Skip(err)
	}
	return g
}

// commitTree commits a folder's files into a new repository and answers the repository and
// the commit.
func commitTree(t *testing.T, g *gitcli.Git, dir string) string {
	t.Helper()
	ctx := context.Background()
	git := func(c *gitcli.Cmd) string {
		out, err := g.Run(ctx, dir, c.Env("GIT_AUTHOR_NAME", "a").Env("GIT_AUTHOR_EMAIL", "a@example.org").Env("GIT_COMMITTER_NAME", "a").Env("GIT_COMMITTER_EMAIL", "a@example.org"))
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	git(gitcli.Command("init", "-q"))
	git(gitcli.Command("add", "-A"))
	blob := git(gitcli.Command("hash-object", "-w").Paths("index.html"))
	git(gitcli.Command("update-index", "--add", "--cacheinfo").Value("120000," + blob + ",link.html"))
	git(gitcli.Command("update-index", "--add", "--cacheinfo").Value("160000," + strings.Repeat("1", 40) + ",submodule"))
	git(gitcli.Command("commit", "-q", "-m", "x"))
	return git(gitcli.Command("rev-parse").Value("HEAD"))
}

func TestGitTreeReadsACommit(t *testing.T) {
	g := newGit(t)
	dir := writeTree(t)
	commit := commitTree(t, g, dir)
	tree, err := NewGitTree(context.Background(), g, dir, commit)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	files, _ := tree.Files(context.Background())
	got := paths(files)
	if slices.Contains(got, "link.html") || slices.Contains(got, "submodule") || !slices.Contains(got, "index.html") || len(got) != len(base) {
		t.Fatalf("files: %v", got)
	}
	// Concurrent reads share the one batch process.
	var wg sync.WaitGroup
	for _, p := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			data, err := tree.Read(context.Background(), p)
			if err != nil || string(data) != base[p] {
				t.Errorf("%s: %q %v", p, data, err)
			}
		}()
	}
	wg.Wait()
	if _, err := tree.Read(context.Background(), "link.html"); !errors.Is(err, ErrNotInTree) {
		t.Fatalf("a link: %v", err)
	}
	rep, err := Run(context.Background(), tree, Options{})
	if err != nil || len(rep.Findings) != 0 {
		t.Fatalf("a commit of the base portal: %v%s", err, dump(rep))
	}
	if err := tree.Close(); err != nil {
		t.Fatal(err)
	}
}

// counting counts the reads of a tree.
type counting struct {
	Tree
	mu    sync.Mutex
	reads map[string]int
}

func (c *counting) Read(ctx context.Context, p string) ([]byte, error) {
	c.mu.Lock()
	c.reads[p]++
	c.mu.Unlock()
	return c.Tree.Read(ctx, p)
}

func TestRefreshReadsOnlyWhatChanged(t *testing.T) {
	dir := writeTree(t)
	tree := &counting{Tree: DirTree(dir), reads: map[string]int{}}
	ix, err := NewIndex(context.Background(), tree)
	if err != nil {
		t.Fatal(err)
	}
	if tree.reads["assets/img/logo.png"] != 0 || tree.reads["pages/home.html"] != 1 {
		t.Fatalf("first reads: %v", tree.reads)
	}
	tree.reads = map[string]int{}
	os.WriteFile(filepath.Join(dir, "pages/about.html"), []byte(`<p data-pw-t="TXT_ABOUT">x</p><a href="#/gone">x</a>`), 0o644)
	os.Remove(filepath.Join(dir, "pages/captcha.html"))
	changed, err := ix.Refresh(context.Background(), tree)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(changed, []string{"pages/about.html", "pages/captcha.html"}) {
		t.Fatalf("changed: %v", changed)
	}
	delete(tree.reads, "portal.json")
	if len(tree.reads) != 1 || tree.reads["pages/about.html"] != 1 {
		t.Fatalf("reads after one save: %v", tree.reads)
	}
	rep := ix.Report(Options{})
	if rep.Summary.ByRule[RuleLinkPageMissing] != 1 || rep.Summary.ByRule[RulePageMissingFile] != 1 {
		t.Fatalf("after the save:%s", dump(rep))
	}
	// A companion schema that changes re-reads its content.
	tree.reads = map[string]int{}
	os.WriteFile(filepath.Join(dir, "content/menu.json.schema"), []byte(`{"type":"object","required":["price"]}`), 0o644)
	if _, err := ix.Refresh(context.Background(), tree); err != nil {
		t.Fatal(err)
	}
	if tree.reads["content/menu.json"] != 1 || ix.Report(Options{}).Summary.ByRule[RuleContentSchema] != 1 {
		t.Fatalf("schema change: %v", tree.reads)
	}

	// Update: the saved paths only.
	tree.reads = map[string]int{}
	os.WriteFile(filepath.Join(dir, "pages/about.html"), []byte(`<p data-pw-t="TXT_ABOUT">x</p>`), 0o644)
	os.WriteFile(filepath.Join(dir, "pages/captcha.html"), []byte(`<p>x</p>`), 0o644)
	os.Remove(filepath.Join(dir, "content/menu.json.schema"))
	changed, err = ix.Update(context.Background(), tree, []string{"pages/about.html", "pages/captcha.html", "content/menu.json.schema"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(changed, []string{"content/menu.json.schema", "pages/about.html", "pages/captcha.html"}) || len(tree.reads) != 3 || tree.reads["content/menu.json"] != 1 {
		t.Fatalf("update: %v, reads %v", changed, tree.reads)
	}
	if rep := ix.Report(Options{}); len(rep.Findings) != 0 {
		t.Fatalf("after the update:%s", dump(rep))
	}
}

// The starters as shipped: nothing wrong, and the one note that is true (the crew portal
// links to a site and has not set up its whitelist).
func TestStarterTemplatesAreReady(t *testing.T) {
	for _, s := range templates.List() {
		t.Run(s.ID, func(t *testing.T) {
			dir := copyStarter(t, s.ID)
			rep := run(t, dir, Options{})
			if rep.Summary.Errors != 0 || rep.Summary.Warnings != 0 {
				t.Fatalf("%s:%s", s.ID, dump(rep))
			}
			for _, f := range rep.Findings {
				if f.Rule != RuleWhitelistNotAllowed || s.ID != "crew" {
					t.Errorf("%s: %+v", s.ID, f)
				}
			}
		})
	}
}

func copyStarter(t testing.TB, id string) string {
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

// A repository that is not a portal: the portal rules have nothing to check; JSON syntax
// still counts, and nothing else is said.
func TestNotAPortal(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"README.md":               "# Docs",
		"index.html":              `<html><img src="missing.png"><a href="#/nowhere">x</a><script src="https://cdn.example.com/x.js"></script></html>`,
		"locales/en.json":         `{"nav": {"home": "Home"}}`,
		"locales/fr.json":         `{"nav": {}}`,
		"data/broken.json":        "{\n  \"a\": 1,\n}",
		"assets/site.css":         "a { background: url(gone.png) }",
		".vscode/settings.json":   "{ // editor\n}",
		"tsconfig.build.json":     "{ /* x */ }",
		"sitemap.json":            `[{"id":"x","url":"/pages/x.html"}]`,
		"widgets/database/w.json": `{"type":"nothing"}`,
		"docs/_layouts/page.html": `<img src="{{ site.baseurl }}/logo.png">`,
	}
	for p, v := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(v), 0o644)
	}
	rep := run(t, dir, Options{})
	if len(rep.Findings) != 1 || rep.Findings[0].Rule != RuleContentSyntax || rep.Findings[0].Path != "data/broken.json" || rep.Findings[0].Line != 3 {
		t.Fatalf("not a portal:%s", dump(rep))
	}
	if _, err := fs.Stat(os.DirFS(dir), "index.html"); err != nil {
		t.Fatal(err)
	}
}
