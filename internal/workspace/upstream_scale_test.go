package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"portalwright/internal/gitcli"
)

// hostBranches sets what the last fetch found on the git host (refs/upstream/heads/), as one
// `git update-ref --stdin`: name → commit; "" deletes.
func hostBranches(t *testing.T, r *Repos, set map[string]string) {
	t.Helper()
	var b strings.Builder
	for name, sha := range set {
		if sha == "" {
			fmt.Fprintf(&b, "delete %s%s\n", UpstreamRefs, name)
		} else {
			fmt.Fprintf(&b, "update %s%s %s\n", UpstreamRefs, name, sha)
		}
	}
	if _, err := r.run(context.Background(), r.bare(1), gitcli.Command("update-ref", "--stdin").Stdin(strings.NewReader(b.String()))); err != nil {
		t.Fatal(err)
	}
}

func gitOut(t *testing.T, r *Repos, dir string, args ...string) string {
	t.Helper()
	cmd := gitcli.Command(gitcli.Flag(args[0]))
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-") {
			cmd = cmd.Flags(gitcli.Flag(a))
		} else {
			cmd = cmd.Value(a)
		}
	}
	out, err := r.run(context.Background(), dir, cmd)
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return strings.TrimSpace(out)
}

// Issue 24 item 2: 2,000 branches appear on the host and go again. They are created in the
// portal in one write (packed, no loose ref each), compared without a process each, and leave
// the portal when the host deletes them, except the branches someone has work on, which stay
// as "deleted on the git host" and are not pushed back.
func TestUpstreamThousandsOfBranches(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	if err := r.HostSync().MarkUpstreamSynced(ctx, 1); err != nil {
		t.Fatal(err)
	}
	bare := r.bare(1)
	master := tipOf(bare, "master")
	const n = 2000
	added := map[string]string{}
	for i := 0; i < n; i++ {
		added[fmt.Sprintf("many-%04d", i)] = master
	}
	hostBranches(t, r, added)
	moved, conflicts, err := r.HostSync().IntegrateUpstream(ctx, 1, SystemAuthor)
	if err != nil || len(conflicts) > 0 {
		t.Fatalf("integrate: %v %v", err, conflicts)
	}
	if len(moved) != n || !moved[0].Created {
		t.Fatalf("moved %d branches (%+v), want %d created", len(moved), moved[0], n)
	}
	branches, _ := r.Core().Branches(ctx, 1)
	if len(branches) != n+1 {
		t.Fatalf("%d branches after the host added %d", len(branches), n)
	}
	if loose, _ := filepath.Glob(filepath.Join(bare, "refs", "heads", "many-*")); len(loose) != 0 {
		t.Fatalf("%d loose refs for the new branches, want them packed", len(loose))
	}
	if got := gitOut(t, r, bare, "rev-parse", "refs/heads/many-1234"); got != master {
		t.Fatalf("git reads many-1234 as %s", got)
	}
	t0 := time.Now()
	cmp, err := r.HostSync().CompareUpstream(ctx, 1, nil)
	if err != nil || len(cmp) != n+1 {
		t.Fatalf("compare: %v (%d)", err, len(cmp))
	}
	t.Logf("comparing %d equal branches took %v (the figure: TestUpstreamBranchFigures in make bench)", n, time.Since(t0))
	for _, b := range cmp {
		if !b.OnUpstream || b.Ahead != 0 || b.Behind != 0 || b.DeletedOnHost {
			t.Fatalf("branch %+v", b)
		}
	}

	// Ann has a commit of her own on many-0007 (not on the portal's branch); Bob has an
	// uncommitted edit on many-0008; Carl is on many-0009 with nothing.
	open(t, r, 1, "many-0007")
	ws := r.WorkspaceDir(1, 1)
	write(t, r, 1, "pages/ann.html", "<p>ann</p>\n")
	gitOut(t, r, ws, "add", "-A")
	if _, err := r.run(ctx, ws, authorEnv(gitcli.Command("commit", "-q", "--no-verify").Option("--message", "Ann's local commit"), ann)); err != nil {
		t.Fatal(err)
	}
	open(t, r, 2, "many-0008")
	if err := os.WriteFile(filepath.Join(r.WorkspaceDir(2, 1), "pages", "bob.html"), []byte("bob"), 0o644); err != nil {
		t.Fatal(err)
	}
	open(t, r, 3, "many-0009")
	// Only the refs a workspace needs: its branch, no reflogs.
	if refs := gitOut(t, r, ws, "for-each-ref", "--format=%(refname)"); refs != "refs/heads/many-0007\nrefs/remotes/origin/many-0007" {
		t.Errorf("workspace refs:\n%s", refs)
	}
	if _, err := os.Stat(filepath.Join(ws, ".git", "logs")); !os.IsNotExist(err) {
		t.Errorf("the workspace keeps reflogs: %v", err)
	}

	// The host deletes them all.
	gone := map[string]string{}
	for name := range added {
		gone[name] = ""
	}
	hostBranches(t, r, gone)
	if _, _, err := r.HostSync().IntegrateUpstream(ctx, 1, SystemAuthor); err != nil {
		t.Fatal(err)
	}
	branches, _ = r.Core().Branches(ctx, 1)
	if strings.Join(branches, ",") != "many-0007,many-0008,master" {
		t.Fatalf("branches after the host deleted them: %v", branches)
	}
	if got := r.HostSync().DeletedOnHost(1); strings.Join(got, ",") != "many-0007,many-0008" {
		t.Fatalf("deleted on host: %v", got)
	}
	cmp, _ = r.HostSync().CompareUpstream(ctx, 1, nil)
	for _, b := range cmp {
		if (b.Branch == "many-0007" || b.Branch == "many-0008") != b.DeletedOnHost {
			t.Errorf("compare: %+v", b)
		}
	}
	if err := r.HostSync().PushUpstream(ctx, 1, Upstream{URL: "git://127.0.0.1:9/none.git"}, "many-0007", nil, time.Second); !errors.Is(err, ErrDeletedOnHost) {
		t.Errorf("push of a branch deleted on the host = %v", err)
	}
	// Carl's branch left: his next open says so.
	if _, err := r.Open(ctx, 3, 1, "many-0009", false); !errors.Is(err, ErrBranchMissing) {
		t.Errorf("open of a branch that left = %v", err)
	}

	// Ann drops her commit (Reset keeps it under the discarded refs): the branch leaves at the
	// next fetch. Bob's edit still holds his.
	if _, err := r.Reset(ctx, 1, 1, "many-0007", "master"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.HostSync().IntegrateUpstream(ctx, 1, SystemAuthor); err != nil {
		t.Fatal(err)
	}
	if got := r.HostSync().DeletedOnHost(1); strings.Join(got, ",") != "many-0008" {
		t.Fatalf("deleted on host after Ann's reset: %v", got)
	}
	// The host brings many-0008 back: it is an ordinary branch again.
	hostBranches(t, r, map[string]string{"many-0008": master})
	if _, _, err := r.HostSync().IntegrateUpstream(ctx, 1, SystemAuthor); err != nil {
		t.Fatal(err)
	}
	if got := r.HostSync().DeletedOnHost(1); len(got) != 0 {
		t.Fatalf("deleted on host after the host brought it back: %v", got)
	}
}

// A repository from before the record of the host's branches: branches that came from the
// host and were never written in the product leave; branches made or committed to in the
// product stay.
func TestUpstreamDeletedBeforeTheRecord(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	bare := r.bare(1)
	master := tipOf(bare, "master")
	hostBranches(t, r, map[string]string{"master": master, "old-host": master})
	if _, _, err := r.HostSync().IntegrateUpstream(ctx, 1, SystemAuthor); err != nil { // made old-host with update-ref
		t.Fatal(err)
	}
	if err := r.Core().CreateBranch(ctx, 1, "made-here", "master"); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(bare, upstreamHeadsFile)) // as before this version
	hostBranches(t, r, map[string]string{"old-host": ""})
	if _, _, err := r.HostSync().IntegrateUpstream(ctx, 1, SystemAuthor); err != nil {
		t.Fatal(err)
	}
	branches, _ := r.Core().Branches(ctx, 1)
	if strings.Join(branches, ",") != "made-here,master" {
		t.Fatalf("branches: %v", branches)
	}
}

// The packed-refs writer follows git's format and lock: git reads what it wrote, peeled lines
// and loose refs stay, clashing names are left to git, a held lock is respected.
func TestAddPackedRefs(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	bare := r.bare(1)
	master := tipOf(bare, "master")
	if _, err := r.run(ctx, bare, authorEnv(gitcli.Command("tag", "-a", "-m", "annotated").Value("v1", master), ann)); err != nil {
		t.Fatal(err)
	}
	gitOut(t, r, bare, "pack-refs", "--all")
	gitOut(t, r, bare, "branch", "loose", master)
	gitOut(t, r, bare, "branch", "dir/x", master)
	added, err := addPackedRefs(bare, map[string]string{
		"refs/heads/new-a": master, "refs/heads/new/b": master,
		"refs/heads/loose":      master, // exists (loose)
		"refs/heads/dir":        master, // a folder of refs/heads/dir/x
		"refs/heads/master/sub": master, // inside refs/heads/master
		"refs/heads/bad..name":  master,
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(added)
	if strings.Join(added, ",") != "refs/heads/new-a,refs/heads/new/b" {
		t.Fatalf("added %v", added)
	}
	refs := gitOut(t, r, bare, "for-each-ref", "--format=%(refname) %(*objectname)")
	for _, want := range []string{"refs/heads/new-a ", "refs/heads/new/b ", "refs/heads/loose ", "refs/tags/v1 " + master} {
		if !strings.Contains(refs, want) {
			t.Errorf("git lost %q:\n%s", want, refs)
		}
	}
	if _, err := r.run(ctx, bare, gitcli.Command("fsck", "--no-dangling")); err != nil {
		t.Errorf("fsck: %v", err)
	}
	if err := os.WriteFile(filepath.Join(bare, "packed-refs.lock"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := addPackedRefs(bare, map[string]string{"refs/heads/other": master}); !errors.Is(err, errPackedBusy) {
		t.Errorf("with packed-refs.lock held: %v", err)
	}
}

// Background maintenance packs refs and loose objects and writes a commit-graph without the
// product's locks; while it runs, the stale-lock hygiene leaves git's ref locks alone.
func TestMaintenancePacksInTheBackground(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	bare := r.bare(1)
	open(t, r, 1, "master")
	for i := 0; i < 3; i++ {
		write(t, r, 1, fmt.Sprintf("pages/p%d.html", i), fmt.Sprintf("<p>%d</p>\n", i))
		if _, err := r.Commit(ctx, 1, 1, fmt.Sprintf("Commit %d", i), ann); err != nil {
			t.Fatal(err)
		}
	}
	ws := r.WorkspaceDir(1, 1)
	wsGit := filepath.Join(ws, ".git")
	var b strings.Builder
	for i := 0; i < looseRefsDue; i++ {
		fmt.Fprintf(&b, "create refs/portalwright/loose-%03d HEAD\n", i)
	}
	if _, err := r.run(ctx, ws, gitcli.Command("update-ref", "--stdin").Stdin(strings.NewReader(b.String()))); err != nil {
		t.Fatal(err)
	}
	if !maintenanceDue(wsGit, time.Hour) {
		t.Fatal("many loose refs do not make a workspace's maintenance due")
	}
	// While maintenance holds the repository, the portal lock's hygiene keeps git's ref locks.
	if err := os.WriteFile(filepath.Join(bare, maintenanceMarker), []byte(fmt.Sprint(time.Now().Add(time.Minute).UnixNano())), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"packed-refs.lock", "refs/heads/x.lock", "index.lock"} {
		os.WriteFile(filepath.Join(bare, p), nil, 0o644)
	}
	removeStaleLocks(bare)
	for p, want := range map[string]bool{"packed-refs.lock": true, "refs/heads/x.lock": true, "index.lock": false} {
		if _, err := os.Stat(filepath.Join(bare, p)); (err == nil) != want {
			t.Errorf("%s kept = %v, want %v", p, err == nil, want)
		}
	}
	os.Remove(filepath.Join(bare, maintenanceMarker))
	removeStaleLocks(bare)
	if _, err := os.Stat(filepath.Join(bare, "packed-refs.lock")); err == nil {
		t.Error("a stale packed-refs.lock stays after maintenance")
	}

	r.Upkeep().StartMaintenance(time.Hour)
	r.maintainSoon(wsGit)
	r.maintainSoon(bare) // not due: first seen an instant ago
	r.maintenanceIdle()
	r.Upkeep().StopMaintenance()
	if loose, _ := filepath.Glob(filepath.Join(wsGit, "refs", "portalwright", "*")); len(loose) != 0 {
		t.Errorf("loose refs after maintenance: %d", len(loose))
	}
	if _, err := os.Stat(filepath.Join(wsGit, maintenanceMarker)); !os.IsNotExist(err) {
		t.Errorf("the marker stays: %v", err)
	}
	if err := r.maintain(ctx, bare); err != nil {
		t.Fatal(err)
	}
	if count := gitOut(t, r, bare, "count-objects", "-v"); !strings.Contains(count, "count: 0\n") {
		t.Errorf("loose objects after maintenance:\n%s", count)
	}
	if _, err := os.Stat(filepath.Join(bare, "objects", "info", "commit-graphs", "commit-graph-chain")); err != nil {
		t.Errorf("no commit-graph: %v", err)
	}
	// Nothing was lost: the workspace still reads its history, a commit still works.
	write(t, r, 1, "pages/after.html", "<p>after</p>\n")
	if _, err := r.Commit(ctx, 1, 1, "After maintenance", ann); err != nil {
		t.Fatal(err)
	}
	if err := r.maintain(ctx, wsGit); err != nil {
		t.Fatal(err)
	}
	if n := gitOut(t, r, ws, "rev-list", "--count", "HEAD"); n != "5" {
		t.Errorf("history after workspace maintenance: %s commits", n)
	}
	if _, err := r.run(ctx, ws, gitcli.Command("fsck", "--no-dangling")); err != nil {
		t.Errorf("fsck: %v", err)
	}
}

// A workspace made before (every branch as a remote-tracking ref, with reflogs) keeps only its
// branch's ref after the next open, and its reflogs are gone; switching and resetting work.
func TestOldWorkspaceDropsBranchRefs(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	bare := r.bare(1)
	var b strings.Builder
	master := tipOf(bare, "master")
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&b, "create refs/heads/b%02d %s\n", i, master)
	}
	if _, err := r.run(ctx, bare, gitcli.Command("update-ref", "--stdin").Stdin(strings.NewReader(b.String()))); err != nil {
		t.Fatal(err)
	}
	ws := r.WorkspaceDir(1, 1)
	os.MkdirAll(filepath.Dir(ws), 0o755)
	if _, err := r.run(ctx, "", gitcli.Command("clone", "-q", "--shared").Option("--branch", "master").Value(bare, ws)); err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Fields(gitOut(t, r, ws, "for-each-ref", "--format=%(refname)", "refs/remotes"))); n < 50 {
		t.Fatalf("the old-style clone has %d remote refs", n)
	}
	open(t, r, 1, "b07") // keeps the refs of the branch it was on and the one it opens
	open(t, r, 1, "b07")
	if refs := gitOut(t, r, ws, "for-each-ref", "--format=%(refname)", "refs/remotes"); refs != "refs/remotes/origin/b07" {
		t.Errorf("remote refs after open:\n%s", refs)
	}
	if _, err := os.Stat(filepath.Join(ws, ".git", "logs")); !os.IsNotExist(err) {
		t.Errorf("reflogs stay: %v", err)
	}
	if st, err := r.Reset(ctx, 1, 1, "b09", "master"); err != nil || st.Branch != "b09" {
		t.Fatalf("reset: %+v %v", st, err)
	}
	if st := open(t, r, 1, "master"); st.Branch != "master" {
		t.Fatalf("switch: %+v", st)
	}
}
