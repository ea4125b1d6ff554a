package workspace

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"portalwright/internal/gitcli"
)

// gitCounter is a git that counts its runs: a wrapper script in front of the real binary.
type gitCounter struct {
	git  *gitcli.Git
	file string
}

func newGitCounter(t *testing.T) *gitCounter {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	c := &gitCounter{file: filepath.Join(dir, "runs")}
	script := "#!/bin/sh\necho \"$1\" >> '" + c.file + "'\nexec '" + real + "' \"$@\"\n"
	bin := filepath.Join(dir, "git")
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	c.git, err = gitcli.New(context.Background(), gitcli.Options{Binary: bin, Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// runs is how many git processes ran so far.
func (c *gitCounter) runs() int {
	data, _ := os.ReadFile(c.file)
	return bytes.Count(data, []byte("\n"))
}

// during counts the git processes f runs, and which.
func (c *gitCounter) during(f func()) (int, string) {
	before, _ := os.ReadFile(c.file)
	f()
	after, _ := os.ReadFile(c.file)
	extra := strings.TrimSpace(string(after[len(before):]))
	return bytes.Count(after[len(before):], []byte("\n")), strings.ReplaceAll(extra, "\n", " ")
}

// copyWorkspace copies a user's workspace to other users, as a workspace made before status
// records existed (the record is left out).
func copyWorkspace(t *testing.T, r *Repos, portalID, from int64, to ...int64) {
	t.Helper()
	src := r.WorkspaceDir(from, portalID)
	for _, u := range to {
		dst := r.WorkspaceDir(u, portalID)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("cp", "-a", src, dst).CombinedOutput(); err != nil {
			t.Fatalf("cp: %v %s", err, out)
		}
		os.Remove(filepath.Join(dst, ".git", recordFile))
	}
}

func statuses(t *testing.T, r *Repos, portalID int64) map[int64]*Status {
	t.Helper()
	snap, err := r.Statuses(context.Background(), portalID)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]*Status{}
	for _, u := range snap.Users {
		out[u.UserID] = u.Status
	}
	return out
}

// settle moves every file of the workspaces back in time, as if the last edit was a while
// ago (timestamps within racyMargin of a check are not trusted).
func settle(t *testing.T, root string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	filepath.Walk(filepath.Join(root, "workspaces"), func(p string, info os.FileInfo, err error) error {
		if err == nil && !strings.Contains(p, string(filepath.Separator)+".git") {
			os.Chtimes(p, old, old)
		}
		return nil
	})
}

// TestStatusesRunNoGitPerWorkspace: other users' changes cost no git process per workspace:
// a workspace made before records existed gets one git status on its first read, and after
// that reads run no git at all, with 3 or with 40 workspaces.
func TestStatusesRunNoGitPerWorkspace(t *testing.T) {
	ctx := context.Background()
	gc := newGitCounter(t)
	r := NewRepos(gc.git, gitcli.NewLocks(), t.TempDir())
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	open(t, r, 1, DefaultBranch)
	var steady []int
	for _, n := range []int64{3, 40} {
		var users []int64
		for u := int64(2); u <= n; u++ {
			if !exists(r.WorkspaceDir(u, 1)) {
				users = append(users, u)
			}
		}
		copyWorkspace(t, r, 1, 1, users...)
		settle(t, r.root)                                    // edited a while ago
		fresh := NewRepos(gc.git, gitcli.NewLocks(), r.root) // a new instance finds them
		first, which := gc.during(func() {
			if got := len(statuses(t, fresh, 1)); got != int(n) {
				t.Fatalf("%d workspaces: %d statuses", n, got)
			}
		})
		if first > int(n)+2 {
			t.Fatalf("%d workspaces: the first read ran %d git processes (%s)", n, first, which)
		}
		runs, which := gc.during(func() {
			for i := 0; i < 5; i++ {
				if got := len(statuses(t, fresh, 1)); got != int(n) {
					t.Fatalf("%d workspaces: %d statuses", n, got)
				}
			}
		})
		steady = append(steady, runs)
		if runs != 0 {
			t.Fatalf("%d workspaces: 5 more reads ran %d git processes (%s)", n, runs, which)
		}
		// A third instance: the records are there now, nothing to ask git.
		again := NewRepos(gc.git, gitcli.NewLocks(), r.root)
		if runs, which := gc.during(func() { statuses(t, again, 1) }); runs != 0 {
			t.Fatalf("%d workspaces, a new instance with records: %d git processes (%s)", n, runs, which)
		}
	}
	t.Logf("git processes per 5 reads, steady state, 3 and 40 workspaces: %v", steady)
}

// TestStatusesFollowEveryChange: the recorded answer stays what git says after each kind of
// change: a file written and announced, a commit by another user (behind counts), a revert,
// a reset, a branch switch, a failed operation, a fresh clone.
func TestStatusesFollowEveryChange(t *testing.T) {
	ctx := context.Background()
	gc := newGitCounter(t)
	r := NewRepos(gc.git, gitcli.NewLocks(), t.TempDir())
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	for _, u := range []int64{1, 2, 3} {
		open(t, r, u, DefaultBranch)
	}
	// truth asks git directly, for each workspace, what Statuses must say.
	truth := func() map[int64]Status {
		out := map[int64]Status{}
		for _, u := range r.Workspaces(1) {
			dir := r.WorkspaceDir(u, 1)
			raw, err := r.git.Run(ctx, dir, gitcli.Command("status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all", "--no-renames").Env("GIT_OPTIONAL_LOCKS", "0"))
			if err != nil {
				t.Fatal(err)
			}
			st, _ := parseStatus(raw)
			if tip := readRef(r.bare(1), "refs/heads/"+st.Branch); tip != "" {
				st.Ahead, st.Behind, err = r.countAheadBehind(ctx, dir, tip)
				if err != nil {
					t.Fatal(err)
				}
			}
			out[u] = *st
		}
		return out
	}
	check := func(step string, maxGit int) map[int64]*Status {
		t.Helper()
		var got map[int64]*Status
		runs, which := gc.during(func() { got = statuses(t, r, 1) })
		if runs > maxGit {
			t.Errorf("%s: the read ran %d git processes (%s), want at most %d", step, runs, which, maxGit)
		}
		want := truth()
		if len(got) != len(want) {
			t.Fatalf("%s: %d workspaces, want %d", step, len(got), len(want))
		}
		for u, w := range want {
			g := got[u]
			if g == nil || g.Branch != w.Branch || g.Ahead != w.Ahead || g.Behind != w.Behind || !sameChanges(g.Changes, w.Changes) {
				t.Fatalf("%s: user %d has %+v, git says %+v", step, u, g, w)
			}
		}
		return got
	}
	check("opened", 3)
	// A record taken within racyMargin of a file's change is re-checked once (one git status)
	// after that moment passed; on a busy machine that can fall in the next check. The steady
	// state is what the zero-git checks measure, so they let the moment pass first.
	letRacyRecordsSettle := func() {
		time.Sleep(racyMargin + sweepEvery)
		statuses(t, r, 1)
	}
	letRacyRecordsSettle()
	check("nothing changed", 0)

	// A file written and announced (the product follows each write with a status).
	write(t, r, 1, "pages/news.html", "<p>news</p>")
	if _, err := r.Status(ctx, 1, 1); err != nil {
		t.Fatal(err)
	}
	// The write's record is racy (the file is seconds old): at most its one re-check, should
	// the machine be slow enough for the moment to pass before this read.
	if got := check("file written", 1); got[1].Changes["pages/news.html"] != ChangeAdd {
		t.Fatalf("the new file is missing: %+v", got[1])
	}

	// Another user commits: the others are behind now. One rev-list serves both (same HEAD).
	write(t, r, 2, "pages/b.html", "b")
	if _, err := r.Commit(ctx, 2, 1, "B", bob); err != nil {
		t.Fatal(err)
	}
	if got := check("another user committed", 3); got[1].Behind != 1 || got[3].Behind != 1 || got[2].Behind != 0 {
		t.Fatalf("behind counts after a commit: 1:%d 2:%d 3:%d", got[1].Behind, got[2].Behind, got[3].Behind)
	}
	letRacyRecordsSettle()
	check("after the commit, nothing changed", 0)

	// Revert all: user 1 is clean again.
	if err := r.RevertAll(ctx, 1, 1); err != nil {
		t.Fatal(err)
	}
	if got := check("reverted", 3); got[1].HasChanges() {
		t.Fatalf("after revert: %+v", got[1])
	}

	// A local commit that fails to publish (a conflict) keeps the author's commit: ahead 1.
	write(t, r, 3, "pages/home.html", "<p>three</p>\n")
	write(t, r, 2, "pages/home.html", "<p>two</p>\n")
	if _, err := r.Commit(ctx, 2, 1, "Two", bob); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Commit(ctx, 3, 1, "Three", ann); err == nil {
		t.Fatal("the second edit of the same line must conflict")
	}
	if got := check("a failed commit", 4); got[3].Ahead != 1 || got[3].HasChanges() {
		t.Fatalf("after a conflict: %+v", got[3])
	}

	// Reset puts user 3 back on the branch.
	if _, err := r.Reset(ctx, 3, 1, "", DefaultBranch); err != nil {
		t.Fatal(err)
	}
	if got := check("reset", 3); got[3].Ahead != 0 || got[3].Behind != 0 {
		t.Fatalf("after reset: %+v", got[3])
	}

	// A branch switch.
	if err := r.Core().CreateBranch(ctx, 1, "feature/summer", DefaultBranch); err != nil {
		t.Fatal(err)
	}
	open(t, r, 1, "feature/summer")
	if got := check("branch switch", 2); got[1].Branch != "feature/summer" {
		t.Fatalf("after a branch switch: %+v", got[1])
	}

	// A new workspace.
	open(t, r, 4, DefaultBranch)
	check("a new workspace", 3)

	// RevertTo publishes an old tree as a new commit: everyone else is behind by one more.
	first, err := r.run(ctx, r.bare(1), gitcli.Command("rev-list", "--max-parents=0").Value("refs/heads/master"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.RevertTo(ctx, 4, 1, strings.TrimSpace(first), ann); err != nil {
		t.Fatal(err)
	}
	check("revert to", 6)
	check("after revert to, nothing changed", 0)
}

func sameChanges(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestStatusesAcrossInstances: two Repos on one data dir (two servers sharing it) see each
// other's changes through the records and the portal's journal, without asking git about the
// workspaces that did not change.
func TestStatusesAcrossInstances(t *testing.T) {
	ctx := context.Background()
	gc := newGitCounter(t)
	root := t.TempDir()
	locks := gitcli.NewLocks() // shared here as PostgreSQL advisory locks are between servers
	a := NewRepos(gc.git, locks, root)
	b := NewRepos(gc.git, locks, root)
	if err := a.Core().CreateFromFiles(ctx, 1, starter(), "Create portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	for _, u := range []int64{1, 2, 3} {
		open(t, a, u, DefaultBranch)
	}
	statuses(t, b, 1)

	// A file written through instance A (and its status taken there)...
	write(t, a, 1, "pages/news.html", "<p>news</p>")
	if _, err := a.Status(ctx, 1, 1); err != nil {
		t.Fatal(err)
	}
	var got map[int64]*Status
	if runs, which := gc.during(func() { got = statuses(t, b, 1) }); runs != 0 {
		t.Fatalf("instance B ran %d git processes (%s) to learn of A's change", runs, which)
	}
	if got[1].Changes["pages/news.html"] != ChangeAdd {
		t.Fatalf("instance B does not see A's change: %+v", got[1])
	}

	// ...and a commit through A: B sees everyone's new counts. A's commit left a tombstone
	// (no status after it on A), so B takes that one status itself.
	if _, err := a.Commit(ctx, 1, 1, "News", ann); err != nil {
		t.Fatal(err)
	}
	runs, which := gc.during(func() { got = statuses(t, b, 1) })
	if runs > 3 {
		t.Fatalf("instance B ran %d git processes (%s) after A's commit", runs, which)
	}
	if got[1].HasChanges() || got[1].Behind != 0 || got[2].Behind != 1 || got[3].Behind != 1 {
		t.Fatalf("instance B after A's commit: 1:%+v 2:%+v 3:%+v", got[1], got[2], got[3])
	}

	// A workspace opened through B shows on A.
	open(t, b, 5, DefaultBranch)
	if got := statuses(t, a, 1); got[5] == nil || got[5].Behind != 0 {
		t.Fatalf("instance A does not see B's new workspace: %+v", got[5])
	}

	// A rotated journal: both instances read every record again and agree.
	if err := os.Rename(filepath.Join(a.bare(1), journalFile), filepath.Join(a.bare(1), journalFile+".old")); err != nil {
		t.Fatal(err)
	}
	write(t, b, 2, "x.json", "{}")
	if _, err := b.Status(ctx, 2, 1); err != nil {
		t.Fatal(err)
	}
	if got := statuses(t, a, 1); got[2].Changes["x.json"] != ChangeAdd || len(got) != 4 {
		t.Fatalf("after a journal rotation: %d workspaces, 2:%+v", len(got), got[2])
	}
}

// TestStatusesDistrustARecordLeftByACrash: a record whose workspace's git state moved on
// without a status (a server killed in the middle of an operation) is not believed by the
// next instance.
func TestStatusesDistrustARecordLeftByACrash(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	open(t, r, 1, DefaultBranch)
	statuses(t, r, 1)
	// What a crash between `git add` and the status leaves: the index changed, the record not.
	write(t, r, 1, "pages/crash.html", "x")
	if _, err := r.git.Run(ctx, r.WorkspaceDir(1, 1), gitcli.Command("add", "-A")); err != nil {
		t.Fatal(err)
	}
	restarted := NewRepos(r.git, gitcli.NewLocks(), r.root)
	if got := statuses(t, restarted, 1); got[1].Changes["pages/crash.html"] != ChangeAdd {
		t.Fatalf("a restarted instance believed a stale record: %+v", got[1])
	}
}

// TestOwnStatusWithoutGitWhenNothingChanged: a user's own local changes poll runs no git
// process while nothing changed, and git again as soon as anything did, even a change of a
// file's content that keeps its size.
func TestOwnStatusWithoutGitWhenNothingChanged(t *testing.T) {
	ctx := context.Background()
	gc := newGitCounter(t)
	r := NewRepos(gc.git, gitcli.NewLocks(), t.TempDir())
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	open(t, r, 1, DefaultBranch)
	poll := func() (*Status, int) {
		t.Helper()
		var st *Status
		runs, _ := gc.during(func() {
			var err error
			if st, err = r.Status(ctx, 1, 1); err != nil {
				t.Fatal(err)
			}
		})
		return st, runs
	}
	// Files edited just now are not trusted (coarse timestamps): git every time.
	write(t, r, 1, "pages/home.html", "<p>HOME</p>\n")
	if _, runs := poll(); runs == 0 {
		t.Fatal("a just-edited tree must be checked by git")
	}
	if _, runs := poll(); runs == 0 {
		t.Fatal("a just-edited tree must be checked by git (second poll)")
	}
	settle(t, r.root)
	if st, runs := poll(); runs == 0 || st.Changes["pages/home.html"] != ChangeModify {
		t.Fatalf("first poll after settling: %d runs, %+v", runs, st)
	}
	if st, runs := poll(); runs != 0 || st.Changes["pages/home.html"] != ChangeModify {
		t.Fatalf("nothing changed: %d git processes, %+v", runs, st)
	}
	// Same size, new content, written in place (an editor, a test): detected.
	if err := os.WriteFile(filepath.Join(r.WorkspaceDir(1, 1), "index.html"), []byte(strings.Repeat("x", len(`<html><img src="assets/logo.svg"></html>`))), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, runs := poll(); runs == 0 || st.Changes["index.html"] != ChangeModify {
		t.Fatalf("an in-place edit: %d runs, %+v", runs, st)
	}
	settle(t, r.root)
	poll()
	// Staging (the index) and a commit by another user (ahead/behind) are seen too.
	if _, err := r.git.Run(ctx, r.WorkspaceDir(1, 1), gitcli.Command("add", "-A")); err != nil {
		t.Fatal(err)
	}
	if _, runs := poll(); runs == 0 {
		t.Fatal("a change of the index must be checked by git")
	}
	open(t, r, 2, DefaultBranch)
	write(t, r, 2, "pages/b.html", "b")
	if _, err := r.Commit(ctx, 2, 1, "B", bob); err != nil {
		t.Fatal(err)
	}
	settle(t, r.root)
	poll()
	if st, _ := poll(); st.Behind != 1 {
		t.Fatalf("behind after another user's commit: %+v", st)
	}
}

// TestBranchesWithoutGit: branch and tag listing read the ref files and answer what git
// for-each-ref answers: loose and packed refs, names with slashes, a loose ref overriding a
// packed one, a deleted ref, a leftover lock file; and no git process runs.
func TestBranchesWithoutGit(t *testing.T) {
	ctx := context.Background()
	gc := newGitCounter(t)
	r := NewRepos(gc.git, gitcli.NewLocks(), t.TempDir())
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	bare := r.bare(1)
	gitIn := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = bare
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	compare := func(step string) {
		t.Helper()
		for _, prefix := range []string{"refs/heads/", "refs/tags/"} {
			var got []string
			runs, which := gc.during(func() {
				var err error
				if got, err = r.refs(ctx, bare, prefix); err != nil {
					t.Fatal(err)
				}
			})
			if runs != 0 {
				t.Fatalf("%s: listing %s ran %d git processes (%s)", step, prefix, runs, which)
			}
			cmd := exec.Command("git", "for-each-ref", "--format=%(refname)", prefix)
			cmd.Dir = bare
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			want := []string{}
			for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				if l != "" {
					want = append(want, strings.TrimPrefix(l, prefix))
				}
			}
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Fatalf("%s, %s: read %q, git says %q", step, prefix, got, want)
			}
		}
	}
	compare("one branch")
	for _, b := range []string{"feature/summer", "feature/winter/deep", "release-2.0", "z", "a.b"} {
		gitIn("branch", b, "master")
	}
	gitIn("tag", "v1.0", "master")
	gitIn("tag", "-a", "-m", "annotated", "v2.0", "master")
	compare("loose refs")
	gitIn("pack-refs", "--all")
	compare("packed refs")
	// A loose ref newer than its packed entry, a new loose branch next to packed ones, a
	// deleted packed branch, and a lock file a crash left.
	open(t, r, 1, DefaultBranch)
	write(t, r, 1, "pages/new.html", "new")
	if _, err := r.Commit(ctx, 1, 1, "New", ann); err != nil {
		t.Fatal(err)
	}
	gitIn("branch", "feature/autumn", "master")
	gitIn("branch", "-D", "z")
	if err := os.WriteFile(filepath.Join(bare, "refs", "heads", "master.lock"), []byte("junk"), 0o644); err != nil {
		t.Fatal(err)
	}
	compare("loose over packed")
	if tip := tipOf(bare, "master"); tip != readRef(bare, "refs/heads/master") || tip == "" {
		t.Fatalf("tip of master %q", tip)
	}
	// The cache notices every change, also right after the previous read.
	for i := 0; i < 3; i++ {
		gitIn("branch", "quick-"+strconv.Itoa(i), "master")
		compare("a branch made right after a read")
	}
	gitIn("pack-refs", "--all")
	gitIn("branch", "-D", "quick-1")
	compare("a packed branch deleted right after a read")

	// The current branch of a workspace comes from its HEAD file.
	if b := r.CurrentBranch(1, 1); b != "master" {
		t.Fatalf("current branch %q", b)
	}
	if b := r.CurrentBranch(9, 1); b != "" {
		t.Fatalf("current branch without a workspace %q", b)
	}
}

// TestRefNamesGitRefuses: names git would never read as refs are skipped as git skips them.
func TestRefNamesGitRefuses(t *testing.T) {
	for name, ok := range map[string]bool{
		"refs/heads/master": true, "refs/heads/feature/x": true, "refs/heads/a.b": true,
		"refs/heads/x.lock": false, "refs/heads/.hidden": false, "refs/heads/a..b": false,
		"refs/heads/a b": false, "refs/heads/a~1": false, "refs/heads/a:b": false, "refs/heads/a@{1}": false,
		"refs/heads/x.": false, "refs/heads//x": false,
	} {
		if ValidRefName(name) != ok {
			t.Errorf("ValidRefName(%q) = %v", name, !ok)
		}
	}
	names := []string{"b", "a/c", "a", "a-b"}
	sort.Strings(names)
	if strings.Join(names, ",") != "a,a-b,a/c,b" {
		t.Fatalf("sort order %v (git sorts refnames bytewise)", names)
	}
}

// TestStatusesSeeFilesWrittenOutsideTheProduct: a file written into a workspace by hand (no
// status announced) shows in other users' changes within about a second: readers re-check
// the working trees without git now and then, and ask git only about the one that changed.
func TestStatusesSeeFilesWrittenOutsideTheProduct(t *testing.T) {
	ctx := context.Background()
	gc := newGitCounter(t)
	r := NewRepos(gc.git, gitcli.NewLocks(), t.TempDir())
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	for _, u := range []int64{1, 2, 3} {
		open(t, r, u, DefaultBranch)
	}
	settle(t, r.root)
	for _, u := range []int64{1, 2, 3} {
		if _, err := r.Status(ctx, u, 1); err != nil { // records of the settled trees
			t.Fatal(err)
		}
	}
	statuses(t, r, 1)
	// The user re-opens (a status the readers learn of through the journal), then a file is
	// written by hand; a read a second later (the sweep is due) shows it.
	if _, err := r.Open(ctx, 2, 1, DefaultBranch, true); err != nil { // override: a new record
		t.Fatal(err)
	}
	write(t, r, 2, "pages/by-hand.html", "<p>by hand</p>")
	time.Sleep(sweepEvery + 100*time.Millisecond)
	var got map[int64]*Status
	runs, which := gc.during(func() { got = statuses(t, r, 1) })
	if got[2].Changes["pages/by-hand.html"] != ChangeAdd {
		t.Fatalf("a file written by hand does not show a second later: %+v", got[2])
	}
	if runs > 2 {
		t.Fatalf("the sweep ran %d git processes (%s); only workspace 2 changed", runs, which)
	}
	// A new instance sees it on its first read (every tree is checked on a full read).
	write(t, r, 3, "pages/also.html", "also")
	if got := statuses(t, NewRepos(gc.git, gitcli.NewLocks(), r.root), 1); got[3].Changes["pages/also.html"] != ChangeAdd {
		t.Fatalf("a new instance missed a file written by hand: %+v", got[3])
	}
}

// TestStatusesUnderConcurrentReadersAndWriters: readers of two instances and writers at the
// same time (run with -race); afterwards every reader agrees with git.
func TestStatusesUnderConcurrentReadersAndWriters(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	locks := gitcli.NewLocks()
	a := newRepos(t)
	a = NewRepos(a.git, locks, root)
	b := NewRepos(a.git, locks, root)
	if err := a.Core().CreateFromFiles(ctx, 1, starter(), "Create portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	for _, u := range []int64{1, 2, 3, 4} {
		open(t, a, u, DefaultBranch)
	}
	done := make(chan struct{})
	errs := make(chan error, 16)
	var readers sync.WaitGroup
	for i := 0; i < 6; i++ {
		readers.Add(1)
		go func(r *Repos) {
			defer readers.Done()
			for n := 0; n < 400; n++ {
				select {
				case <-done:
					return
				default:
				}
				if _, err := r.Statuses(ctx, 1); err != nil {
					errs <- err
					return
				}
			}
		}([]*Repos{a, b}[i%2])
	}
	var writers sync.WaitGroup
	for _, u := range []int64{1, 2} {
		writers.Add(1)
		go func(u int64) {
			defer writers.Done()
			r := []*Repos{a, b}[u%2]
			for n := 0; n < 4; n++ {
				p := filepath.Join(r.WorkspaceDir(u, 1), "pages", "w"+strconv.FormatInt(u, 10)+"-"+strconv.Itoa(n)+".html")
				if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
					errs <- err
					return
				}
				if _, err := r.Status(ctx, u, 1); err != nil {
					errs <- err
					return
				}
				if n%2 == 1 {
					if _, err := r.Commit(ctx, u, 1, "Pages "+strconv.Itoa(n), ann); err != nil && !errors.Is(err, ErrConflict) {
						errs <- err
						return
					}
				}
			}
		}(u)
	}
	writers.Wait()
	close(done)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for _, r := range []*Repos{a, b} {
		got := statuses(t, r, 1)
		for _, u := range []int64{1, 2, 3, 4} {
			want, err := NewRepos(a.git, gitcli.NewLocks(), root).statusByGit(ctx, u, 1)
			if err != nil {
				t.Fatal(err)
			}
			g := got[u]
			if g == nil || g.Branch != want.Branch || g.Ahead != want.Ahead || g.Behind != want.Behind || !sameChanges(g.Changes, want.Changes) {
				t.Fatalf("user %d: read %+v, git says %+v", u, g, want)
			}
		}
	}
}
