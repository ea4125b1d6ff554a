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
