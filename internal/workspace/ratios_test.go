package workspace

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"

	"portalwright/internal/gitcli"
)

// TestWorkspaceRatios is the issue 4 benchmark (make bench): a portal of 10,000 files
// (~200 MB), each operation timed against raw git on the same repository, medians of a few
// runs, printed as ratios. It is skipped unless PORTALWRIGHT_BENCH is set.
func TestWorkspaceRatios(t *testing.T) {
	if os.Getenv("PORTALWRIGHT_BENCH") == "" {
		t.Skip("set PORTALWRIGHT_BENCH=1 (make bench) to run")
	}
	ctx := context.Background()
	files, size := 10000, 20<<10
	if v, _ := strconv.Atoi(os.Getenv("PORTALWRIGHT_BENCH_FILES")); v > 0 {
		files = v
	}
	r := newRepos(t)
	src := t.TempDir()
	buf := make([]byte, size)
	for i := 0; i < files; i++ {
		rand.Read(buf)
		p := filepath.Join(src, "assets", strconv.Itoa(i%100), "file-"+strconv.Itoa(i)+".bin")
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, buf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	if err := r.Core().CreateFromFiles(ctx, 1, os.DirFS(src), "Big portal", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	t.Logf("portal of %d files, %d MB, created in %s", files, files*size>>20, time.Since(start).Round(time.Millisecond))
	raw := func(dir string, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@x", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@x")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	timeIt := func(f func()) time.Duration { s := time.Now(); f(); return time.Since(s) }
	const runs = 5
	var openOurs, openRaw, statusOurs, statusRaw, commitOurs, commitRaw []time.Duration
	for i := 0; i < runs; i++ {
		user := int64(100 + i)
		openOurs = append(openOurs, timeIt(func() {
			if _, err := r.Open(ctx, user, 1, DefaultBranch, false); err != nil {
				t.Fatal(err)
			}
		}))
		rawDir := filepath.Join(t.TempDir(), "raw")
		openRaw = append(openRaw, timeIt(func() { raw("", "clone", "-q", r.bare(1), rawDir) }))

		ws := r.WorkspaceDir(user, 1)
		for _, d := range []string{ws, rawDir} {
			for j := 0; j < 50; j++ {
				os.WriteFile(filepath.Join(d, "assets", strconv.Itoa(j), "file-"+strconv.Itoa(j)+".bin"), []byte(fmt.Sprint("changed ", i, j)), 0o644)
			}
		}
		statusOurs = append(statusOurs, timeIt(func() {
			if _, err := r.Status(ctx, user, 1); err != nil {
				t.Fatal(err)
			}
		}))
		statusRaw = append(statusRaw, timeIt(func() { raw(rawDir, "status", "--porcelain") }))

		for _, d := range []string{ws, rawDir} {
			for j := 50; j < 100; j++ {
				os.WriteFile(filepath.Join(d, "assets", strconv.Itoa(j), "file-"+strconv.Itoa(j)+".bin"), []byte(fmt.Sprint("changed ", i, j)), 0o644)
			}
		}
		commitOurs = append(commitOurs, timeIt(func() {
			if _, err := r.Commit(ctx, user, 1, "Change 100 files", Author{Name: "B", Email: "b@x"}); err != nil {
				t.Fatal(err)
			}
		}))
		// Raw git pushes to a branch of its own so both start from the same base.
		commitRaw = append(commitRaw, timeIt(func() {
			raw(rawDir, "add", "-A")
			raw(rawDir, "commit", "-q", "-m", "Change 100 files")
			raw(rawDir, "push", "-q", "origin", "HEAD:refs/heads/raw-"+strconv.Itoa(i))
		}))
	}
	report := func(name string, ours, raw []time.Duration, target float64) {
		o, w := median(ours), median(raw)
		ratio := float64(o) / float64(w)
		verdict := "meets"
		if ratio > target {
			verdict = "MISSES"
		}
		fmt.Printf("%-44s ours %8s  raw git %8s  ratio %.2f (target <= %.1f, %s)\n", name, o.Round(time.Millisecond), w.Round(time.Millisecond), ratio, target, verdict)
	}
	fmt.Printf("== Workspace on a %d-file portal (%d MB), medians of %d ==\n", files, files*size>>20, runs)
	report("first open vs git clone", openOurs, openRaw, 1.3)
	report("local changes (50 files) vs git status", statusOurs, statusRaw, 1.5)
	report("commit+push 100 files vs add/commit/push", commitOurs, commitRaw, 1.5)
	_ = gitcli.DefaultTimeout
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
