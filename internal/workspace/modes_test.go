package workspace

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"portalwright/internal/gitcli"
	"portalwright/internal/merge"
)

// Issue 30 item 1 on real repositories: every write keeps a file's mode.

// modeRepo makes portal 1 with executable files committed by user 9 (paths: content).
func modeRepo(t *testing.T, exec map[string]string) *Repos {
	t.Helper()
	ctx := context.Background()
	r := newRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	open(t, r, 9, DefaultBranch)
	for name, content := range exec {
		p := filepath.Join(r.WorkspaceDir(9, 1), filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.Commit(ctx, 9, 1, "Executables", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	for name := range exec {
		if got := branchMode(t, r, name); got != modeExecutable {
			t.Fatalf("seed: %s is %q", name, got)
		}
	}
	return r
}

// branchMode is the mode of name on the portal's default branch ("" when absent).
func branchMode(t *testing.T, r *Repos, name string) string {
	t.Helper()
	return r.modeAt(context.Background(), r.bare(1), "refs/heads/"+DefaultBranch, name)
}

// diskMode is git's mode of a workspace file as it is on disk.
func diskMode(t *testing.T, r *Repos, user int64, name string) string {
	t.Helper()
	fi, err := os.Lstat(filepath.Join(r.WorkspaceDir(user, 1), filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return gitModeOf(fi.Mode().Perm())
}

// noModeChange fails when the branch's last commit changed a mode.
func noModeChange(t *testing.T, r *Repos) {
	t.Helper()
	out, err := r.git.Run(context.Background(), r.bare(1), gitcli.Command("show", "--summary", "--format=%s").Value("refs/heads/"+DefaultBranch))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, []byte("mode change")) {
		t.Fatalf("the commit changed a mode:\n%s", out)
	}
}

// A mode the author changes shows in the review and lands; the commit's review says so too.
func TestReviewShowsModeChange(t *testing.T) {
	ctx := context.Background()
	r := modeRepo(t, map[string]string{"run.sh": "#!/bin/sh\n"})
	open(t, r, 2, DefaultBranch)
	if err := os.Chmod(filepath.Join(r.WorkspaceDir(2, 1), "run.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := r.Collab().ReviewFiles(ctx, 2, 1)
	if err != nil || files["run.sh"] != ChangeModify {
		t.Fatalf("review files: %v %v", files, err)
	}
	sides, err := r.Collab().ReviewFile(ctx, 2, 1, MustPath("run.sh"))
	if err != nil || sides.ModeBefore != modeExecutable || sides.ModeAfter != modeFile || !bytes.Equal(sides.Before, sides.After) {
		t.Fatalf("review: %+v %v", sides, err)
	}
	res, err := r.Commit(ctx, 2, 1, "Not executable", bob)
	if err != nil || !res.Committed {
		t.Fatalf("commit: %+v %v", res, err)
	}
	sides, err = r.Collab().CommitFile(ctx, 1, res.CommitID, MustPath("run.sh"))
	if err != nil || sides.ModeBefore != modeExecutable || sides.ModeAfter != modeFile {
		t.Fatalf("commit review: %+v %v", sides, err)
	}
}

func TestRestoreKeepsFileModes(t *testing.T) {
	ctx := context.Background()
	r := modeRepo(t, map[string]string{"run.sh": "#!/bin/sh\necho one\n", "other.sh": "#!/bin/sh\n"})
	open(t, r, 2, DefaultBranch)
	write(t, r, 2, "run.sh", "#!/bin/sh\necho two\n") // an existing file keeps its mode
	// A mode change is discarded work too.
	if err := os.Chmod(filepath.Join(r.WorkspaceDir(2, 1), "other.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Reset(ctx, 2, 1, "", ""); err != nil {
		t.Fatal(err)
	}
	if diskMode(t, r, 2, "other.sh") != modeExecutable {
		t.Fatal("reset did not bring the mode back")
	}
	list, err := r.Collab().DiscardedWork(ctx, 2, 1)
	if err != nil || len(list) != 1 {
		t.Fatalf("discarded: %+v %v", list, err)
	}
	if _, err := r.Collab().RestoreDiscarded(ctx, 2, 1, list[0].ID); err != nil {
		t.Fatal(err)
	}
	if got := diskMode(t, r, 2, "run.sh"); got != modeExecutable {
		t.Errorf("restored run.sh is %s", got)
	}
	if got := diskMode(t, r, 2, "other.sh"); got != modeFile {
		t.Errorf("restored other.sh is %s (the discarded mode change is lost)", got)
	}
	if _, err := r.Commit(ctx, 2, 1, "Restored", bob); err != nil {
		t.Fatal(err)
	}
	if branchMode(t, r, "run.sh") != modeExecutable || branchMode(t, r, "other.sh") != modeFile {
		t.Fatalf("on the branch: run.sh %s, other.sh %s", branchMode(t, r, "run.sh"), branchMode(t, r, "other.sh"))
	}
}

func TestMergeKeepsFileModes(t *testing.T) {
	ctx := context.Background()
	r := modeRepo(t, map[string]string{"data.json": "{\n  \"a\": 1,\n  \"b\": 1\n}\n", "text.sh": "one\ntwo\nthree\nfour\nfive\n"})
	if err := os.WriteFile(filepath.Join(r.WorkspaceDir(9, 1), "plain.txt"), []byte("one\ntwo\nthree\nfour\nfive\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Commit(ctx, 9, 1, "Plain", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	open(t, r, 1, DefaultBranch)
	open(t, r, 2, DefaultBranch)
	// Both edit the executable JSON file (different keys): merged by key, still executable.
	write(t, r, 1, "data.json", "{\n  \"a\": 2,\n  \"b\": 1\n}\n")
	write(t, r, 2, "data.json", "{\n  \"a\": 1,\n  \"b\": 2\n}\n")
	// On one side only the mode changes, on the other only the content: both are kept.
	if err := os.Chmod(filepath.Join(r.WorkspaceDir(1, 1), "plain.txt"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, r, 2, "plain.txt", "one\ntwo\nthree\nfour\nFIVE\n")
	write(t, r, 1, "text.sh", "ONE\ntwo\nthree\nfour\nfive\n")
	if err := os.Chmod(filepath.Join(r.WorkspaceDir(2, 1), "text.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"data.json", "text.sh"} { // write() made them 0644 again
		if err := os.Chmod(filepath.Join(r.WorkspaceDir(1, 1), f), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(r.WorkspaceDir(2, 1), "data.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Commit(ctx, 1, 1, "Ann", ann); err != nil {
		t.Fatal(err)
	}
	res, err := r.Commit(ctx, 2, 1, "Bob", bob)
	if err != nil || !res.Committed {
		t.Fatalf("bob's commit: %+v %v", res, err)
	}
	for name, mode := range map[string]string{"data.json": modeExecutable, "plain.txt": modeExecutable, "text.sh": modeFile} {
		if got := branchMode(t, r, name); got != mode {
			t.Errorf("merged %s is %q, want %s", name, got, mode)
		}
	}
	out, _ := r.git.Run(ctx, r.bare(1), gitcli.Command("show").Value(DefaultBranch+":data.json"))
	if !strings.Contains(string(out), `"a": 2`) || !strings.Contains(string(out), `"b": 2`) {
		t.Errorf("data.json merged: %s", out)
	}
	if out, _ := r.git.Run(ctx, r.bare(1), gitcli.Command("show").Value(DefaultBranch+":plain.txt")); string(out) != "one\ntwo\nthree\nfour\nFIVE\n" {
		t.Errorf("plain.txt merged: %q", out)
	}
	if out, _ := r.git.Run(ctx, r.bare(1), gitcli.Command("show").Value(DefaultBranch+":text.sh")); string(out) != "ONE\ntwo\nthree\nfour\nfive\n" {
		t.Errorf("text.sh merged: %q", out)
	}
}

// Both sides add a file with different modes: git's rule makes it a conflict, answered like
// any other.
func TestMergeModeConflict(t *testing.T) {
	ctx := context.Background()
	r := modeRepo(t, map[string]string{"run.sh": "#!/bin/sh\n"})
	open(t, r, 1, DefaultBranch)
	open(t, r, 2, DefaultBranch)
	if err := os.WriteFile(filepath.Join(r.WorkspaceDir(1, 1), "new.sh"), []byte("same\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, r, 2, "new.sh", "same\n")
	if _, err := r.Commit(ctx, 1, 1, "Ann adds new.sh", ann); err != nil {
		t.Fatal(err)
	}
	tip := readRef(r.bare(1), "refs/heads/"+DefaultBranch)
	if _, err := r.Commit(ctx, 2, 1, "Bob adds new.sh", bob); !errors.Is(err, ErrConflict) {
		t.Fatalf("different modes must conflict: %v", err)
	}
	state, err := r.Collab().Conflicts(ctx, 2, 1)
	if err != nil || len(state.Files) != 1 || len(state.Files[0].Conflicts) != 1 || state.Files[0].Conflicts[0].ID != modeConflictID {
		t.Fatalf("conflicts: %+v %v", state, err)
	}
	c := state.Files[0].Conflicts[0]
	if c.Mine == nil || *c.Mine != modeFile || c.Theirs == nil || *c.Theirs != modeExecutable || c.Base != nil {
		t.Fatalf("mode conflict: %+v", c)
	}
	res, err := r.Collab().Resolve(ctx, 2, 1, tip, MergeChoices{"new.sh": {modeConflictID: merge.Choice{Take: "mine"}}}, bob)
	if err != nil || !res.Committed {
		t.Fatalf("resolve: %+v %v", res, err)
	}
	if got := branchMode(t, r, "new.sh"); got != modeFile {
		t.Fatalf("resolved new.sh is %q", got)
	}
}

// Issue 30 item 5: a resolution or a replay that changes nothing makes no commit.
func TestNoEmptyCommits(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	count := func() int {
		out, err := r.git.Run(ctx, r.bare(1), gitcli.Command("rev-list", "--count").Value("refs/heads/"+DefaultBranch))
		if err != nil {
			t.Fatal(err)
		}
		n, _ := strconv.Atoi(strings.TrimSpace(string(out)))
		return n
	}
	open(t, r, 1, DefaultBranch)
	open(t, r, 2, DefaultBranch)

	// Keep theirs everywhere: no commit, the local one is discarded work, the author is told.
	write(t, r, 1, "portal.json", `{"engineType":"PORTAL_ENGINE","privacyPolicy":"ann"}`)
	write(t, r, 2, "portal.json", `{"engineType":"PORTAL_ENGINE","privacyPolicy":"bob"}`)
	if _, err := r.Commit(ctx, 1, 1, "Ann changes privacyPolicy", ann); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Commit(ctx, 2, 1, "Bob changes privacyPolicy", bob); !errors.Is(err, ErrConflict) {
		t.Fatalf("want a conflict: %v", err)
	}
	before := count()
	state, err := r.Collab().Conflicts(ctx, 2, 1)
	if err != nil || len(state.Files) != 1 {
		t.Fatalf("conflicts: %+v %v", state, err)
	}
	choices := MergeChoices{"portal.json": {}}
	for _, c := range state.Files[0].Conflicts {
		choices["portal.json"][c.ID] = merge.Choice{Take: "theirs"}
	}
	res, err := r.Collab().Resolve(ctx, 2, 1, state.Tip, choices, bob)
	if err != nil || res.Committed || res.Discarded == "" || res.CommitID != state.Tip {
		t.Fatalf("resolve with theirs: %+v %v", res, err)
	}
	if n := count(); n != before {
		t.Fatalf("the branch got %d commits", n-before)
	}
	st, _ := r.Status(ctx, 2, 1)
	if st.Ahead != 0 || st.Behind != 0 || st.HasChanges() {
		t.Fatalf("bob's workspace after: %+v", st)
	}
	list, err := r.Collab().DiscardedWork(ctx, 2, 1)
	if err != nil || len(list) != 1 || list[0].ID != res.Discarded || list[0].Message != "Bob changes privacyPolicy" || list[0].Files["portal.json"] != ChangeModify {
		t.Fatalf("discarded: %+v %v", list, err)
	}

	// The same change made by both: the replay drops it, no commit either.
	write(t, r, 1, "pages/home.html", "<p>same</p>\n")
	write(t, r, 2, "pages/home.html", "<p>same</p>\n")
	if _, err := r.Commit(ctx, 1, 1, "Ann: same", ann); err != nil {
		t.Fatal(err)
	}
	before = count()
	res, err = r.Commit(ctx, 2, 1, "Bob: same", bob)
	if err != nil || res.Committed || res.Discarded == "" {
		t.Fatalf("the same change: %+v %v", res, err)
	}
	if n := count(); n != before {
		t.Fatalf("the branch got %d commits", n-before)
	}
	if list, _ := r.Collab().DiscardedWork(ctx, 2, 1); len(list) != 2 || list[0].Message != "Bob: same" {
		t.Fatalf("discarded: %+v", list)
	}
	// An ordinary commit still says it committed.
	write(t, r, 2, "pages/home.html", "<p>bob</p>\n")
	if res, err := r.Commit(ctx, 2, 1, "Bob", bob); err != nil || !res.Committed || res.Discarded != "" {
		t.Fatalf("commit: %+v %v", res, err)
	}
}
