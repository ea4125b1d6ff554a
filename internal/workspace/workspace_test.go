package workspace

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"portalwright/internal/gitcli"
)

var ann = Author{Name: "Ann Author", Email: "ann@example.com"}
var bob = Author{Name: "Bob Builder", Email: "bob@example.com"}

func newRepos(t *testing.T) *Repos {
	t.Helper()
	g, err := gitcli.New(context.Background(), gitcli.Options{Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	// The tests' git servers listen on loopback: allow private hosts, as an operator would for
	// a git server on the internal network. remote_policy_test.go checks the policy itself.
	return NewRepos(g, gitcli.NewLocks(), t.TempDir()).AllowPrivateGitHosts(true)
}

func starter() fstest.MapFS {
	return fstest.MapFS{
		"portal.json":     {Data: []byte(`{"engineType":"PORTAL_ENGINE"}`)},
		"index.html":      {Data: []byte(`<html><img src="assets/logo.svg"></html>`)},
		"assets/logo.svg": {Data: []byte(`<svg/>`)},
		"pages/home.html": {Data: []byte("<p>home</p>\n")},
	}
}

func write(t *testing.T, r *Repos, user int64, name, content string) {
	t.Helper()
	p := filepath.Join(r.WorkspaceDir(user, 1), filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func open(t *testing.T, r *Repos, user int64, branch string) *Status {
	t.Helper()
	st, err := r.Open(context.Background(), user, 1, branch, false)
	if err != nil {
		t.Fatalf("open %d %s: %v", user, branch, err)
	}
	return st
}

func TestWorkspaceLifecycle(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "again", SystemAuthor); err == nil {
		t.Fatal("creating a portal twice must fail")
	}
	st := open(t, r, 10, DefaultBranch)
	if st.Branch != "master" || st.HasChanges() || st.Ahead != 0 || st.Behind != 0 {
		t.Fatalf("fresh workspace %+v", st)
	}
	open(t, r, 20, DefaultBranch)

	// Local changes: add, modify, delete.
	write(t, r, 10, "pages/news.html", "<p>news</p>")
	write(t, r, 10, "pages/home.html", "<p>home v2</p>")
	if err := os.Remove(filepath.Join(r.WorkspaceDir(10, 1), "index.html")); err != nil {
		t.Fatal(err)
	}
	st, _ = r.Status(ctx, 10, 1)
	want := map[string]string{"pages/news.html": ChangeAdd, "pages/home.html": ChangeModify, "index.html": ChangeDelete}
	for p, k := range want {
		if st.Changes[p] != k {
			t.Fatalf("changes = %v, want %v", st.Changes, want)
		}
	}

	// Revert All discards them.
	if err := r.RevertAll(ctx, 10, 1); err != nil {
		t.Fatal(err)
	}
	if st, _ = r.Status(ctx, 10, 1); st.HasChanges() {
		t.Fatalf("after Revert All: %v", st.Changes)
	}

	// Commit and see it from the other user's side as a behind count.
	write(t, r, 10, "pages/home.html", "<p>home by ann</p>\n")
	res, err := r.Commit(ctx, 10, 1, "Update home", ann)
	if err != nil || len(res.CommitID) != 40 {
		t.Fatalf("commit: %+v %v", res, err)
	}
	if _, err := r.Commit(ctx, 10, 1, "again", ann); !errors.Is(err, ErrNothingToCommit) {
		t.Fatalf("empty commit: %v", err)
	}
	if st, _ := r.Status(ctx, 20, 1); st.Behind != 1 {
		t.Fatalf("bob should be 1 behind: %+v", st)
	}
	// A clean workspace is fast-forwarded on open.
	if st := open(t, r, 20, DefaultBranch); st.Behind != 0 {
		t.Fatalf("after open: %+v", st)
	}
	data, _ := os.ReadFile(filepath.Join(r.WorkspaceDir(20, 1), "pages", "home.html"))
	if string(data) != "<p>home by ann</p>\n" {
		t.Fatalf("bob sees %q", data)
	}
	log, _ := r.git.Run(ctx, r.bare(1), gitcli.Command("log", "-1", "--format=%an|%ae|%cn|%s"))
	if got := strings.TrimSpace(string(log)); got != "Ann Author|ann@example.com|Portalwright|Update home" {
		t.Fatalf("commit metadata %q", got)
	}

	// Revert To restores the first commit's tree as a new commit.
	first, _ := r.git.Run(ctx, r.bare(1), gitcli.Command("rev-list", "--max-parents=0", "HEAD"))
	res, err = r.RevertTo(ctx, 20, 1, strings.TrimSpace(string(first))[:12], bob)
	if err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(filepath.Join(r.WorkspaceDir(20, 1), "pages", "home.html"))
	if string(data) != "<p>home</p>\n" {
		t.Fatalf("after Revert To: %q", data)
	}
	count, _ := r.git.Run(ctx, r.bare(1), gitcli.Command("rev-list", "--count", "HEAD"))
	if strings.TrimSpace(string(count)) != "3" {
		t.Fatalf("history must be kept: %s commits", count)
	}
	if _, err := r.RevertTo(ctx, 20, 1, "--help", bob); !errors.Is(err, ErrUnknownCommit) {
		t.Fatalf("bad commit id: %v", err)
	}
	if _, err := r.RevertTo(ctx, 20, 1, "0123456789abcdef", bob); !errors.Is(err, ErrUnknownCommit) {
		t.Fatalf("unknown commit: %v", err)
	}
}

func TestConcurrentCommitsLoseNothing(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	const authors = 6
	for u := int64(1); u <= authors; u++ {
		open(t, r, u, DefaultBranch)
		write(t, r, u, "pages/by-"+strconv.FormatInt(u, 10)+".html", "hello")
	}
	var wg sync.WaitGroup
	errs := make([]error, authors+1)
	for u := int64(1); u <= authors; u++ {
		wg.Add(1)
		go func(u int64) {
			defer wg.Done()
			_, errs[u] = r.Commit(ctx, u, 1, "Add page "+strconv.FormatInt(u, 10), Author{Name: "U", Email: "u@example.com"})
		}(u)
	}
	wg.Wait()
	for u, err := range errs[1:] {
		if err != nil {
			t.Errorf("author %d: %v", u+1, err)
		}
	}
	tree, _ := r.git.Run(ctx, r.bare(1), gitcli.Command("ls-tree", "-r", "--name-only", "HEAD"))
	for u := 1; u <= authors; u++ {
		if !strings.Contains(string(tree), "pages/by-"+strconv.Itoa(u)+".html") {
			t.Errorf("the page of author %d was lost", u)
		}
	}
}

func TestConflictKeepsWorkAndResetRecovers(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	open(t, r, 1, DefaultBranch)
	open(t, r, 2, DefaultBranch)
	write(t, r, 1, "pages/home.html", "<p>ann's home</p>\n")
	write(t, r, 2, "pages/home.html", "<p>bob's home</p>\n")
	if _, err := r.Commit(ctx, 1, 1, "Ann edits home", ann); err != nil {
		t.Fatal(err)
	}
	_, err := r.Commit(ctx, 2, 1, "Bob edits home", bob)
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("second commit: %v, want a conflict", err)
	}
	st, _ := r.Status(ctx, 2, 1)
	if st.Ahead != 1 || st.HasChanges() {
		t.Fatalf("bob's work must stay as a local commit: %+v", st)
	}
	commits, _ := r.LocalCommits(ctx, 2, 1)
	if len(commits) != 1 || commits[0].Message != "Bob edits home" {
		t.Fatalf("local commits %+v", commits)
	}
	// Opening the same branch does not throw Bob's commit away.
	if st := open(t, r, 2, DefaultBranch); st.Ahead != 1 {
		t.Fatalf("open lost the local commit: %+v", st)
	}
	st, err = r.Reset(ctx, 2, 1, "", "")
	if err != nil || st.Ahead != 0 || st.Behind != 0 || st.HasChanges() {
		t.Fatalf("reset: %+v %v", st, err)
	}
	data, _ := os.ReadFile(filepath.Join(r.WorkspaceDir(2, 1), "pages", "home.html"))
	if string(data) != "<p>ann's home</p>\n" {
		t.Fatalf("after reset bob sees %q", data)
	}
}

func TestBranches(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	if err := r.Core().CreateBranch(ctx, 1, "feature/summer-sale", DefaultBranch); err != nil {
		t.Fatal(err)
	}
	if err := r.Core().CreateBranch(ctx, 1, "feature/summer-sale", DefaultBranch); !errors.Is(err, ErrBranchExists) {
		t.Fatalf("duplicate branch: %v", err)
	}
	if err := r.Core().CreateBranch(ctx, 1, "x", "nope"); !errors.Is(err, ErrBranchMissing) {
		t.Fatalf("missing base: %v", err)
	}
	branches, _ := r.Core().Branches(ctx, 1)
	if strings.Join(branches, ",") != "feature/summer-sale,master" {
		t.Fatalf("branches %v", branches)
	}

	// Switching branch is refused with uncommitted changes, allowed with override.
	open(t, r, 1, DefaultBranch)
	write(t, r, 1, "draft.txt", "wip")
	if _, err := r.Open(ctx, 1, 1, "feature/summer-sale", false); !errors.Is(err, ErrDirtyWorkspace) {
		t.Fatalf("switch with changes: %v", err)
	}
	if st, err := r.Open(ctx, 1, 1, "feature/summer-sale", true); err != nil || st.Branch != "feature/summer-sale" || st.HasChanges() {
		t.Fatalf("override switch: %+v %v", st, err)
	}
	write(t, r, 1, "pages/sale.html", "<p>sale</p>")
	if _, err := r.Commit(ctx, 1, 1, "Summer sale page", ann); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Open(ctx, 1, 1, "no-such-branch", false); !errors.Is(err, ErrBranchMissing) {
		t.Fatalf("missing branch: %v", err)
	}

	if err := r.Core().MergeBranch(ctx, 1, "feature/summer-sale", DefaultBranch, ann); err != nil {
		t.Fatal(err)
	}
	tree, _ := r.git.Run(ctx, r.bare(1), gitcli.Command("ls-tree", "-r", "--name-only", "master"))
	if !strings.Contains(string(tree), "pages/sale.html") {
		t.Fatal("merge did not bring the page to master")
	}
	if err := r.Core().DeleteBranch(ctx, 1, "feature/summer-sale"); err != nil {
		t.Fatal(err)
	}
	if err := r.Core().DeleteBranch(ctx, 1, "feature/summer-sale"); !errors.Is(err, ErrBranchMissing) {
		t.Fatalf("delete twice: %v", err)
	}
	// The workspace that was on the deleted branch still reports a status.
	if _, err := r.Status(ctx, 1, 1); err != nil {
		t.Fatal(err)
	}
}

func TestCommitWarnsAboutContent(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	open(t, r, 1, DefaultBranch)
	write(t, r, 1, "widgets/database/hero.json", `{"type": "hero",`)
	write(t, r, 1, "pages/promo.html", `<img src="../assets/missing.png"><img src="../assets/logo.svg"><a href="https://example.com">x</a>`)
	res, err := r.Commit(ctx, 1, 1, "Promo", ann)
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(res.RuleWarnings, "\n")
	if len(res.RuleWarnings) != 2 || !strings.Contains(joined, "widgets/database/hero.json: the file is not valid JSON.") ||
		!strings.Contains(joined, "'../assets/missing.png' does not exist") {
		t.Fatalf("warnings %q", res.RuleWarnings)
	}
}

func TestImportFromGitURL(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	// A source repository served by a real git daemon on loopback.
	served := t.TempDir()
	src := filepath.Join(served, "portal.git")
	if err := r.Core().CreateFromFiles(ctx, 99, starter(), "Upstream", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(r.bare(99), src); err != nil {
		t.Fatal(err)
	}
	if _, err := r.git.Run(ctx, src, gitcli.Command("branch").Value("release/1.0")); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	daemon := exec.Command("git", "daemon", "--reuseaddr", "--export-all", "--listen=127.0.0.1", "--port="+port, "--base-path="+served, served)
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { daemon.Process.Kill(); daemon.Wait() })
	url := "git://127.0.0.1:" + port + "/portal.git"
	var branches []string
	var err error
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if branches, err = r.Core().RemoteBranches(ctx, url, nil); err == nil {
			break
		}
	}
	if err != nil || strings.Join(branches, ",") != "master,release/1.0" {
		t.Fatalf("remote branches %v %v", branches, err)
	}
	if err := r.Core().ImportURL(ctx, 1, url, nil); err != nil {
		t.Fatal(err)
	}
	if st := open(t, r, 1, "release/1.0"); st.Branch != "release/1.0" {
		t.Fatalf("open imported branch: %+v", st)
	}
	// Local paths and file:// URLs given by users are refused by the protocol allow-list.
	if err := r.Core().ImportURL(ctx, 2, "file://"+src, nil); err == nil {
		t.Fatal("a file:// URL must be refused")
	}
	if exists(r.bare(2)) {
		t.Fatal("a failed import must leave no repository")
	}
	// Cloning an existing portal (a local source of ours) works.
	if err := r.Core().CopyPortal(ctx, 3, 1); err != nil {
		t.Fatalf("clone portal: %v", err)
	}
}

func freePort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

func TestStatusReadsPackedRefs(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	open(t, r, 1, DefaultBranch)
	open(t, r, 2, DefaultBranch)
	write(t, r, 1, "pages/a.html", "a")
	if _, err := r.Commit(ctx, 1, 1, "A", ann); err != nil {
		t.Fatal(err)
	}
	if _, err := r.git.Run(ctx, r.bare(1), gitcli.Command("pack-refs", "--all")); err != nil {
		t.Fatal(err)
	}
	if readRef(r.bare(1), "refs/heads/master") == "" {
		t.Fatal("a packed ref must be found")
	}
	st, err := r.Status(ctx, 2, 1)
	if err != nil || st.Behind != 1 || st.Ahead != 0 || st.Branch != "master" {
		t.Fatalf("status with packed refs: %+v %v", st, err)
	}
	if readRef(r.bare(1), "refs/heads/nope") != "" {
		t.Fatal("a missing ref must read as empty")
	}
}

// A changed JSON file that breaks its companion schema (<path>.schema) is reported as a warning
// by the commit (issue 10: a file changed on disk gets the errors a save through the product
// refuses), in the schema check's own words; a file without a companion is only parsed.
func TestCommitWarnsAboutJSONBreakingItsSchema(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t).WithSchemaCheck(func(doc, schema []byte) []string {
		if strings.Contains(string(schema), `"required"`) && !strings.Contains(string(doc), `"title"`) {
			return []string{"/: missing property 'title'"}
		}
		return nil
	})
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	open(t, r, 1, DefaultBranch)
	write(t, r, 1, "content/menu.json.schema", `{"type":"object","required":["title"]}`)
	write(t, r, 1, "content/menu.json", `{"name":"Menu"}`)
	write(t, r, 1, "content/free.json", `{"name":"Free"}`)
	res, err := r.Commit(ctx, 1, 1, "Menu", ann)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.RuleWarnings) != 1 || res.RuleWarnings[0] != "content/menu.json: /: missing property 'title'" {
		t.Fatalf("warnings %q", res.RuleWarnings)
	}
}
