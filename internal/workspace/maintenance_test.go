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
