package valuehistory

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"portalwright/internal/gitcli"
	"portalwright/internal/workspace"
	"portalwright/internal/workspace/gitlog"
)

// repo is a real repository built with the git command line, published as portal 1's
// canonical repository of a workspace.Repos, read through gitlog.
type repo struct {
	t    *testing.T
	dir  string // the working clone commits are made in
	root string // the Repos' data directory
	log  *gitlog.Log
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	r := &repo{t: t, dir: t.TempDir(), root: t.TempDir()}
	r.git("", "init", "-q", "-b", "master")
	g, err := gitcli.New(context.Background(), gitcli.Options{Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	r.log = gitlog.New(workspace.NewRepos(g, gitcli.NewLocks(), r.root).Core())
	return r
}

// git runs git in the working clone as author ("" : Alice).
func (r *repo) git(author string, args ...string) string {
	r.t.Helper()
	if author == "" {
		author = "Alice"
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME="+author, "GIT_AUTHOR_EMAIL="+strings.ToLower(author)+"@example.com",
		"GIT_COMMITTER_NAME="+author, "GIT_COMMITTER_EMAIL="+strings.ToLower(author)+"@example.com",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit writes files (content "" removes one) and commits them as author.
func (r *repo) commit(author, message string, files map[string]string) string {
	r.t.Helper()
	for name, content := range files {
		p := filepath.Join(r.dir, name)
		if content == "" {
			r.git(author, "rm", "-q", name)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			r.t.Fatal(err)
		}
		r.git(author, "add", name)
	}
	r.git(author, "commit", "-q", "-m", message)
	return r.git(author, "rev-parse", "HEAD")
}

// publish copies the repository as portal 1's canonical repository.
func (r *repo) publish() {
	r.t.Helper()
	bare := filepath.Join(r.root, "repos", "1.git")
	_ = os.RemoveAll(bare)
	if err := os.MkdirAll(filepath.Dir(bare), 0o755); err != nil {
		r.t.Fatal(err)
	}
	r.git("", "clone", "-q", "--bare", r.dir, bare)
}

// history walks the value's history at the tip of master, starting from work (the author's
// version; nil: the tip's).
func (r *repo) history(path string, t Target, work []byte) []Entry {
	r.t.Helper()
	r.publish()
	ctx := context.Background()
	tip, err := r.log.BranchTip(1, "master")
	if err != nil {
		r.t.Fatal(err)
	}
	changes, err := r.log.FileLog(ctx, 1, tip, workspace.MustPath(path))
	if err != nil {
		r.t.Fatal(err)
	}
	tipFile := absent
	if len(changes) > 0 && changes[0].After != "" {
		blobs, err := r.log.Blobs(ctx, 1, []string{changes[0].After})
		if err != nil {
			r.t.Fatal(err)
		}
		tipFile = newVersion(blobs[changes[0].After], true)
	}
	read := func(ids []string) (map[string][]byte, error) { return r.log.Blobs(ctx, 1, ids) }
	var out []Entry
	ptr := t.start(tipFile)
	if work != nil {
		wv := newVersion(work, true)
		w := t.start(wv)
		ptr, _ = t.locate(wv, w, tipFile)
		if !t.same(wv, w, tipFile, ptr) {
			out = append(out, Entry{Change: Change{Uncommitted: true}, Old: t.value(tipFile, ptr), New: t.value(wv, w)})
		}
	}
	committed, err := Walk(t, tipFile, ptr, changes, read)
	if err != nil {
		r.t.Fatal(err)
	}
	return append(out, committed...)
}

func str(v *string) string {
	if v == nil {
		return "∅"
	}
	return *v
}

// summary is "author message: old → new" per entry.
func summary(entries []Entry) string {
	var lines []string
	for _, e := range entries {
		who := e.Author + " " + e.Message
		if e.Uncommitted {
			who = "(uncommitted)"
		}
		lines = append(lines, who+": "+str(e.Old)+" → "+str(e.New))
	}
	return strings.Join(lines, "\n")
}

func expect(t *testing.T, got []Entry, want ...string) {
	t.Helper()
	if s := summary(got); s != strings.Join(want, "\n") {
		t.Fatalf("history:\n%s\nwant:\n%s", s, strings.Join(want, "\n"))
	}
}

// A key added, changed, removed, the file renamed, the key added again; another key's
// changes and the rename are not the key's history.
func TestKeyAddedRemovedReaddedAcrossARename(t *testing.T) {
	defer func(n int) { blobBatch = n }(blobBatch)
	blobBatch = 1 // a read per change, the next one in the background
	r := newRepo(t)
	r.commit("Alice", "add A", map[string]string{"translations/en_GB.json": "{\n  \"TXT_A\": \"one\",\n  \"TXT_B\": \"b\"\n}\n"})
	r.commit("Bob", "A two", map[string]string{"translations/en_GB.json": "{\n  \"TXT_A\": \"two\",\n  \"TXT_B\": \"b\"\n}\n"})
	r.commit("Carol", "drop A", map[string]string{"translations/en_GB.json": "{\n  \"TXT_B\": \"b\"\n}\n"})
	r.git("Alice", "mv", "translations/en_GB.json", "translations/en.json")
	r.git("Alice", "commit", "-q", "-m", "rename")
	r.commit("Dave", "A again", map[string]string{"translations/en.json": "{\n  \"TXT_A\": \"three\",\n  \"TXT_B\": \"b\"\n}\n"})
	r.commit("Erin", "B", map[string]string{"translations/en.json": "{\n  \"TXT_A\": \"three\",\n  \"TXT_B\": \"bee\"\n}\n"})

	got := r.history("translations/en.json", Target{Key: "TXT_A"}, []byte("{\"TXT_B\":\"bee\",\"TXT_A\":\"four\"}"))
	expect(t, got,
		`(uncommitted): "three" → "four"`,
		`Dave A again: ∅ → "three"`,
		`Carol drop A: "two" → ∅`,
		`Bob A two: "one" → "two"`,
		`Alice add A: ∅ → "one"`)
	if got[1].Path != "translations/en.json" || got[2].Path != "translations/en_GB.json" || got[1].Email != "dave@example.com" || got[1].Time == nil {
		t.Fatalf("paths and authors: %+v %+v", got[1], got[2])
	}
	// The same work as the tip: no uncommitted entry.
	expect(t, r.history("translations/en.json", Target{Key: "TXT_B"}, nil), `Erin B: "b" → "bee"`, `Alice add A: ∅ → "b"`)
}

// A nested file: the key is the path of its levels, and a file that turned nested keeps it.
func TestNestedKey(t *testing.T) {
	r := newRepo(t)
	r.commit("Alice", "flat", map[string]string{"locales/en.json": `{"nav.home": "Home"}`})
	r.commit("Bob", "nested", map[string]string{"locales/en.json": `{"nav": {"home": "Home"}}`})
	r.commit("Carol", "word", map[string]string{"locales/en.json": `{"nav": {"home": "Start"}}`})
	expect(t, r.history("locales/en.json", Target{Key: "nav.home"}, nil),
		`Carol word: "Home" → "Start"`, `Alice flat: ∅ → "Home"`)
}

// A field inside an array item that moved: the item is followed by its id.
func TestFieldOfAMovedArrayItem(t *testing.T) {
	r := newRepo(t)
	r.commit("Alice", "menu", map[string]string{"content/menu.json": `{"menu":[{"id":1,"title":"Soup"},{"id":2,"title":"Salad"}]}`})
	r.commit("Bob", "green", map[string]string{"content/menu.json": `{"menu":[{"id":1,"title":"Soup"},{"id":2,"title":"Green salad"}]}`})
	r.commit("Carol", "reorder", map[string]string{"content/menu.json": `{"menu":[{"id":2,"title":"Green salad"},{"id":1,"title":"Soup"},{"id":3,"title":"Pie"}]}`})
	r.commit("Dave", "soup", map[string]string{"content/menu.json": `{"menu":[{"id":2,"title":"Green salad"},{"id":1,"title":"Broth"},{"id":3,"title":"Pie"}]}`})
	// The author moved it again, uncommitted: the pointer is into the author's version.
	work := []byte(`{"menu":[{"id":3,"title":"Pie"},{"id":1,"title":"Broth"},{"id":2,"title":"Green salad"}]}`)
	expect(t, r.history("content/menu.json", Target{Pointer: "/menu/2/title"}, work),
		`Bob green: "Salad" → "Green salad"`, `Alice menu: ∅ → "Salad"`)
	// The whole item: its move is no change of its value.
	expect(t, r.history("content/menu.json", Target{Pointer: "/menu/1"}, work),
		`Dave soup: {"id":1,"title":"Soup"} → {"id":1,"title":"Broth"}`, `Alice menu: ∅ → {"id":1,"title":"Soup"}`)
}

// Merges: a change made on a merged branch is listed at its own commit with its author; a
// merge is listed only when it made the value differ from every parent (resolved by hand).
func TestMerges(t *testing.T) {
	r := newRepo(t)
	base := "{\n  \"TXT_A\": \"a\",\n  \"pad1\": 1,\n  \"pad2\": 2,\n  \"pad3\": 3,\n  \"TXT_B\": \"b\"\n}\n"
	r.commit("Alice", "start", map[string]string{"translations/en.json": base})
	r.git("Alice", "checkout", "-q", "-b", "side")
	r.commit("Erin", "side B", map[string]string{"translations/en.json": strings.Replace(base, `"b"`, `"side b"`, 1)})
	r.git("Alice", "checkout", "-q", "master")
	r.commit("Frank", "main A", map[string]string{"translations/en.json": strings.Replace(base, `"a"`, `"main a"`, 1)})
	r.git("Grace", "merge", "-q", "--no-edit", "side")
	want := "{\n  \"TXT_A\": \"main a\",\n  \"pad1\": 1,\n  \"pad2\": 2,\n  \"pad3\": 3,\n  \"TXT_B\": \"side b\"\n}\n"
	if b, _ := os.ReadFile(filepath.Join(r.dir, "translations/en.json")); string(b) != want {
		t.Fatalf("merged file:\n%s", b)
	}
	expect(t, r.history("translations/en.json", Target{Key: "TXT_B"}, nil), `Erin side B: "b" → "side b"`, `Alice start: ∅ → "b"`)
	expect(t, r.history("translations/en.json", Target{Key: "TXT_A"}, nil), `Frank main A: "a" → "main a"`, `Alice start: ∅ → "a"`)

	// Both sides change TXT_A; the merge's author writes a third text.
	r.git("Alice", "checkout", "-q", "-b", "side2")
	r.commit("Erin", "side A", map[string]string{"translations/en.json": strings.Replace(want, `"main a"`, `"side a"`, 1)})
	r.git("Alice", "checkout", "-q", "master")
	r.commit("Frank", "main A2", map[string]string{"translations/en.json": strings.Replace(want, `"main a"`, `"main a2"`, 1)})
	cmd := exec.Command("git", "merge", "-q", "side2")
	cmd.Dir = r.dir
	_ = cmd.Run() // conflicts
	r.commit("Grace", "resolved", map[string]string{"translations/en.json": strings.Replace(want, `"main a"`, `"both a"`, 1)})
	expect(t, r.history("translations/en.json", Target{Key: "TXT_A"}, nil),
		`Grace resolved: "main a2" → "both a"`,
		`Erin side A: "main a" → "side a"`,
		`Frank main A2: "main a" → "main a2"`,
		`Frank main A: "a" → "main a"`,
		`Alice start: ∅ → "a"`)
}

// A page's file as text; a long text gets a line diff.
func TestWholeFileWithDiff(t *testing.T) {
	r := newRepo(t)
	long := strings.Repeat("<p>line</p>\n", 20)
	r.commit("Alice", "page", map[string]string{"pages/home.html": long})
	r.commit("Bob", "edit", map[string]string{"pages/home.html": strings.Replace(long, "line", "LINE", 1)})
	got := r.history("pages/home.html", Target{Whole: true}, nil)
	if len(got) != 2 || got[0].Author != "Bob" || len(got[0].Diff) != 1 || got[0].Diff[0].Lines[0].Text != "<p>line</p>" {
		t.Fatalf("page history: %s\n%+v", summary(got), got[0].Diff)
	}
}

func TestBlame(t *testing.T) {
	r := newRepo(t)
	r.commit("Alice", "start", map[string]string{"content/menu.json": `{"title":"Menu","menu":[{"id":1,"title":"Soup"},{"id":2,"title":"Salad"}],"tags":[]}`})
	r.commit("Bob", "green", map[string]string{"content/menu.json": `{"title":"Menu","menu":[{"id":1,"title":"Soup"},{"id":2,"title":"Green salad"}],"tags":[]}`})
	r.commit("Carol", "reorder", map[string]string{"content/menu.json": `{"title":"Menu","menu":[{"id":2,"title":"Green salad"},{"id":1,"title":"Soup"}],"tags":[]}`})
	r.git("Dave", "mv", "content/menu.json", "content/food.json")
	r.git("Dave", "commit", "-q", "-m", "rename")
	r.commit("Erin", "title", map[string]string{"content/food.json": `{"title":"Food","menu":[{"id":2,"title":"Green salad"},{"id":1,"title":"Soup"}],"tags":[]}`})
	r.publish()
	ctx := context.Background()
	tip, _ := r.log.BranchTip(1, "master")
	changes, err := r.log.FileLog(ctx, 1, tip, workspace.MustPath("content/food.json"))
	if err != nil {
		t.Fatal(err)
	}
	blobs, _ := r.log.Blobs(ctx, 1, []string{changes[0].After})
	read := func(ids []string) (map[string][]byte, error) { return r.log.Blobs(ctx, 1, ids) }
	work := newVersion([]byte(`{"title":"Food","menu":[{"id":2,"title":"Green salad"},{"id":1,"title":"Soup"}],"tags":[],"new":true}`), true)
	rows, err := BlameWalk("content/food.json", false, work, newVersion(blobs[changes[0].After], true), changes, read, workspace.Author{Name: "me"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, row := range rows {
		who := row.Author + " " + row.Message
		if row.Uncommitted {
			who = row.Author + " (uncommitted)"
		}
		got = append(got, row.Pointer+" "+str(row.Value)+" "+who)
	}
	want := strings.Join([]string{
		`/title "Food" Erin title`,
		`/menu/0/id 2 Alice start`,
		`/menu/0/title "Green salad" Bob green`,
		`/menu/1/id 1 Alice start`,
		`/menu/1/title "Soup" Alice start`,
		`/tags [] Alice start`,
		`/new true me (uncommitted)`,
	}, "\n")
	if strings.Join(got, "\n") != want {
		t.Fatalf("blame:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
	csv, err := BlameCSV(&Blame{Rows: rows}, "Alice", "", "")
	if err != nil || strings.Count(string(csv), "\n") != 5 || !strings.Contains(string(csv), "menu › 1 › title,/menu/1/title,Soup,") {
		t.Fatalf("csv: %v\n%s", err, csv)
	}
}

// A file name that looks like a pathspec pattern is its own name.
func TestPathIsLiteral(t *testing.T) {
	r := newRepo(t)
	r.commit("Alice", "star", map[string]string{"content/*.json": `{"a": "star"}`})
	r.commit("Bob", "other", map[string]string{"content/b.json": `{"a": "b"}`})
	expect(t, r.history("content/*.json", Target{Pointer: "/a"}, nil), `Alice star: ∅ → "star"`)
}
