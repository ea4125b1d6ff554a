package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"portalwright/internal/gitcli"
)

// A commit lands without a push: the canonical repository stays whole (fsck), its reflog says
// "push" as before, the workspace's own objects move to the canonical store, objects only in
// a pack of the workspace come along, and other workspaces see the commit.
func TestCommitLandsWithoutPush(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	open(t, r, 10, DefaultBranch)
	open(t, r, 20, DefaultBranch)
	ws := r.WorkspaceDir(10, 1)
	git := func(dir string, args ...gitcli.Flag) string {
		t.Helper()
		out, err := r.git.Run(ctx, dir, gitcli.Command(args[0], args[1:]...))
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}

	// A blob that only a pack of the workspace holds (as maintenance leaves one), then a
	// commit that needs it.
	packed := "packed in the workspace\n"
	write(t, r, 10, "pages/packed.html", packed)
	git(ws, "add", "pages/packed.html")
	git(ws, "repack", "-q", "-d", "-l")
	git(ws, "reset", "-q")
	write(t, r, 10, "pages/home.html", "<p>home by ann</p>\n")
	res, err := r.Commit(ctx, 10, 1, "Two pages", ann)
	if err != nil || !res.Committed {
		t.Fatalf("commit: %+v %v", res, err)
	}
	bare := r.bare(1)
	if tip := readRef(bare, "refs/heads/master"); tip != res.CommitID {
		t.Fatalf("canonical master %s, commit %s", tip, res.CommitID)
	}
	if origin := readRef(filepath.Join(ws, ".git"), "refs/remotes/origin/master"); origin != res.CommitID {
		t.Fatalf("the workspace's origin/master is %s", origin)
	}
	if out, err := r.git.Run(ctx, bare, gitcli.Command("fsck", "--no-dangling", "--strict")); err != nil {
		t.Fatalf("fsck: %v %s", err, out)
	}
	if blob := git(bare, "cat-file", "-p", gitcli.Flag("master:pages/packed.html")); blob+"\n" != packed {
		t.Fatalf("the packed page reads %q in the canonical repository", blob)
	}
	if msg := git(bare, "reflog", "-1", "--format=%gs", "master"); msg != "push" {
		t.Fatalf("reflog message %q", msg)
	}
	// The workspace keeps no loose copy of what it committed.
	var loose []string
	dirs, _ := os.ReadDir(filepath.Join(ws, ".git", "objects"))
	for _, d := range dirs {
		if len(d.Name()) == 2 {
			files, _ := os.ReadDir(filepath.Join(ws, ".git", "objects", d.Name()))
			for _, f := range files {
				loose = append(loose, d.Name()+f.Name())
			}
		}
	}
	if len(loose) != 0 {
		t.Fatalf("loose objects left in the workspace: %v", loose)
	}
	// The workspace still reads everything (through its alternates), and another author
	// gets the commit.
	if out, err := r.git.Run(ctx, ws, gitcli.Command("fsck", "--no-dangling", "--connectivity-only")); err != nil {
		t.Fatalf("workspace fsck: %v %s", err, out)
	}
	open(t, r, 20, DefaultBranch)
	if data, _ := os.ReadFile(filepath.Join(r.WorkspaceDir(20, 1), "pages", "packed.html")); string(data) != packed {
		t.Fatalf("the other author reads %q", data)
	}
}

// Where links cannot be made the commit is pushed, as before.
func TestLinkObjectsRefusesWhatItCannotLink(t *testing.T) {
	from, to := t.TempDir(), filepath.Join(t.TempDir(), "missing", "objects")
	if err := os.MkdirAll(filepath.Join(from, "ab"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(from, "ab", "cdef"), []byte("x"), 0o444); err != nil {
		t.Fatal(err)
	}
	// the target's parent is a file: no folder can be made there
	if err := os.MkdirAll(filepath.Dir(filepath.Dir(to)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Dir(to), []byte("a file"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := linkObjects(from, to); err != errCannotLink {
		t.Fatalf("linkObjects: %v", err)
	}
	if _, err := os.Stat(filepath.Join(from, "ab", "cdef")); err != nil {
		t.Fatalf("an object that was not linked was removed: %v", err)
	}
}
