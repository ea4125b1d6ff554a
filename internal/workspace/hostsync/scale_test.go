package hostsync

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"portalwright/internal/gitcli"
	"portalwright/internal/workspace"
	"portalwright/internal/workspace/workspacetest"
)

// hostBranches sets what the last fetch found on the git host (refs/upstream/heads/), as one
// `git update-ref --stdin`: name → commit; "" deletes.
func hostBranches(t *testing.T, r *workspace.Repos, set map[string]string) {
	t.Helper()
	var b strings.Builder
	for name, sha := range set {
		if sha == "" {
			fmt.Fprintf(&b, "delete %s%s\n", workspace.UpstreamRefs, name)
		} else {
			fmt.Fprintf(&b, "update %s%s %s\n", workspace.UpstreamRefs, name, sha)
		}
	}
	if _, err := r.Core().Run(context.Background(), r.Core().Bare(1), gitcli.Command("update-ref", "--stdin").Stdin(strings.NewReader(b.String()))); err != nil {
		t.Fatal(err)
	}
}

// Issue 24 item 2: 2,000 branches appear on the host and go again. They are created in the
// portal in one write (packed, no loose ref each), compared without a process each, and leave
// the portal when the host deletes them, except the branches someone has work on, which stay
// as "deleted on the git host" and are not pushed back.
func TestUpstreamThousandsOfBranches(t *testing.T) {
	ctx := context.Background()
	r := workspacetest.NewRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, workspacetest.Starter(), "Create portal", workspace.SystemAuthor); err != nil {
		t.Fatal(err)
	}
	if err := New(r).MarkUpstreamSynced(ctx, 1); err != nil {
		t.Fatal(err)
	}
	bare := r.Core().Bare(1)
	master := r.Core().Tip(1, "master")
	const n = 2000
	added := map[string]string{}
	for i := 0; i < n; i++ {
		added[fmt.Sprintf("many-%04d", i)] = master
	}
	hostBranches(t, r, added)
	moved, conflicts, err := New(r).IntegrateUpstream(ctx, 1, workspace.SystemAuthor)
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
	if got := workspacetest.GitOut(t, r, bare, "rev-parse", "refs/heads/many-1234"); got != master {
		t.Fatalf("git reads many-1234 as %s", got)
	}
	t0 := time.Now()
	cmp, err := New(r).CompareUpstream(ctx, 1, nil)
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
	workspacetest.Open(t, r, 1, "many-0007")
	ws := r.WorkspaceDir(1, 1)
	workspacetest.Write(t, r, 1, "pages/workspacetest.Ann.html", "<p>workspacetest.Ann</p>\n")
	workspacetest.GitOut(t, r, ws, "add", "-A")
	if _, err := r.Core().Run(ctx, ws, workspacetest.Ann.Env(gitcli.Command("commit", "-q", "--no-verify").Option("--message", "Ann's local commit"))); err != nil {
		t.Fatal(err)
	}
	workspacetest.Open(t, r, 2, "many-0008")
	if err := os.WriteFile(filepath.Join(r.WorkspaceDir(2, 1), "pages", "bob.html"), []byte("bob"), 0o644); err != nil {
		t.Fatal(err)
	}
	workspacetest.Open(t, r, 3, "many-0009")
	// Only the refs a workspace needs: its branch, no reflogs.
	if refs := workspacetest.GitOut(t, r, ws, "for-each-ref", "--format=%(refname)"); refs != "refs/heads/many-0007\nrefs/remotes/origin/many-0007" {
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
	if _, _, err := New(r).IntegrateUpstream(ctx, 1, workspace.SystemAuthor); err != nil {
		t.Fatal(err)
	}
	branches, _ = r.Core().Branches(ctx, 1)
	if strings.Join(branches, ",") != "many-0007,many-0008,master" {
		t.Fatalf("branches after the host deleted them: %v", branches)
	}
	if got := New(r).DeletedOnHost(1); strings.Join(got, ",") != "many-0007,many-0008" {
		t.Fatalf("deleted on host: %v", got)
	}
	cmp, _ = New(r).CompareUpstream(ctx, 1, nil)
	for _, b := range cmp {
		if (b.Branch == "many-0007" || b.Branch == "many-0008") != b.DeletedOnHost {
			t.Errorf("compare: %+v", b)
		}
	}
	if err := New(r).PushUpstream(ctx, 1, Upstream{URL: "git://127.0.0.1:9/none.git"}, "many-0007", nil, time.Second); !errors.Is(err, ErrDeletedOnHost) {
		t.Errorf("push of a branch deleted on the host = %v", err)
	}
	// Carl's branch left: his next open says so.
	if _, err := r.Open(ctx, 3, 1, "many-0009", false); !errors.Is(err, workspace.ErrBranchMissing) {
		t.Errorf("open of a branch that left = %v", err)
	}

	// Ann drops her commit (Reset keeps it under the discarded refs): the branch leaves at the
	// next fetch. Bob's edit still holds his.
	if _, err := r.Reset(ctx, 1, 1, "many-0007", "master"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := New(r).IntegrateUpstream(ctx, 1, workspace.SystemAuthor); err != nil {
		t.Fatal(err)
	}
	if got := New(r).DeletedOnHost(1); strings.Join(got, ",") != "many-0008" {
		t.Fatalf("deleted on host after Ann's reset: %v", got)
	}
	// The host brings many-0008 back: it is an ordinary branch again.
	hostBranches(t, r, map[string]string{"many-0008": master})
	if _, _, err := New(r).IntegrateUpstream(ctx, 1, workspace.SystemAuthor); err != nil {
		t.Fatal(err)
	}
	if got := New(r).DeletedOnHost(1); len(got) != 0 {
		t.Fatalf("deleted on host after the host brought it back: %v", got)
	}
}

// A repository from before the record of the host's branches: branches that came from the
// host and were never written in the product leave; branches made or committed to in the
// product stay.
func TestUpstreamDeletedBeforeTheRecord(t *testing.T) {
	ctx := context.Background()
	r := workspacetest.NewRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, workspacetest.Starter(), "Create portal", workspace.SystemAuthor); err != nil {
		t.Fatal(err)
	}
	bare := r.Core().Bare(1)
	master := r.Core().Tip(1, "master")
	hostBranches(t, r, map[string]string{"master": master, "old-host": master})
	if _, _, err := New(r).IntegrateUpstream(ctx, 1, workspace.SystemAuthor); err != nil { // made old-host with update-ref
		t.Fatal(err)
	}
	if err := r.Core().CreateBranch(ctx, 1, "made-here", "master"); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(bare, upstreamHeadsFile)) // as before this version
	hostBranches(t, r, map[string]string{"old-host": ""})
	if _, _, err := New(r).IntegrateUpstream(ctx, 1, workspace.SystemAuthor); err != nil {
		t.Fatal(err)
	}
	branches, _ := r.Core().Branches(ctx, 1)
	if strings.Join(branches, ",") != "made-here,master" {
		t.Fatalf("branches: %v", branches)
	}
}
