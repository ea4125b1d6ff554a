package valuehistory

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"portalwright/internal/caller"
	"portalwright/internal/gitcli"
	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
	wsfiles "portalwright/internal/workspace/files"
	"portalwright/internal/workspace/gitlog"
)

// workspaceFiles reads the author's real workspace (workspace.Repos) for the Service, as
// editing.Workspace does, without the portal service around it.
type workspaceFiles struct{ repos *workspace.Repos }

func (f workspaceFiles) Read(_ context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path) ([]byte, workspace.Version, error) {
	return wsfiles.New(f.repos).ReadFile(c.UserID, pa.ID(), p)
}

func (f workspaceFiles) Write(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path, data []byte, base workspace.Version, _ string) (workspace.Version, error) {
	v, _, err := wsfiles.New(f.repos).WriteFile(ctx, c.UserID, pa.ID(), p, data, base)
	return v, err
}

func (f workspaceFiles) Branch(c caller.Caller, pa portalaccess.Portal) string {
	return f.repos.CurrentBranch(c.UserID, pa.ID())
}

func (f workspaceFiles) Author(_ context.Context, c caller.Caller) workspace.Author {
	return workspace.Author{Name: c.Username, Email: c.Username + "@example.com"}
}

type onePortal struct{}

func (onePortal) Load(context.Context, int64, int64) (portalaccess.Record, error) {
	return portalaccess.Record{Name: "Bench"}, nil
}

// genHistory writes, with one git fast-import, a branch of commits commits of which every
// (commits/touching)th changes translations/en.json, a flat file of keys keys (each change
// sets three keys, TXT_0 among them every tenth time); the others change a page each.
func genHistory(t testing.TB, dir string, commits, touching, keys int) {
	t.Helper()
	var in bytes.Buffer
	values := make([]string, keys)
	for i := range values {
		values[i] = fmt.Sprintf("Text number %d of the crew portal", i)
	}
	file := func() string {
		names := make([]string, keys)
		for i := range names {
			names[i] = "TXT_" + strconv.Itoa(i)
		}
		sort.Strings(names)
		var b strings.Builder
		b.WriteString("{\n")
		for i, n := range names {
			k, _ := strconv.Atoi(strings.TrimPrefix(n, "TXT_"))
			fmt.Fprintf(&b, "  %q: %q", n, values[k])
			if i < len(names)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString("}\n")
		return b.String()
	}
	every := commits / touching
	when := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	touched := 0
	for c := 1; c <= commits; c++ {
		author := []string{"Alice", "Bob", "Carol", "Dave"}[c%4]
		fmt.Fprintf(&in, "commit refs/heads/master\nmark :%d\nauthor %s <%s@example.com> %d +0000\ncommitter %s <%s@example.com> %d +0000\n",
			c, author, strings.ToLower(author), when+int64(c)*60, author, strings.ToLower(author), when+int64(c)*60)
		msg := fmt.Sprintf("change %d", c)
		fmt.Fprintf(&in, "data %d\n%s\n", len(msg), msg)
		if c > 1 {
			fmt.Fprintf(&in, "from :%d\n", c-1)
		}
		var path, content string
		if c == 1 || (c%every == 0 && touched < touching) {
			touched++
			for j := 0; j < 3; j++ {
				k := (touched*7919 + j*104729) % keys
				if j == 0 && touched%10 == 0 {
					k = 0
				}
				values[k] = fmt.Sprintf("Text %d, version %d", k, touched)
			}
			path, content = "translations/en.json", file()
		} else {
			path, content = fmt.Sprintf("pages/p%d.html", c%500), fmt.Sprintf("<article><h1>Page %d</h1></article>\n", c)
		}
		fmt.Fprintf(&in, "M 100644 inline %s\ndata %d\n%s\n", path, len(content), content)
	}
	in.WriteString("done\n")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q", "--bare", "-b", "master"}, {"fast-import", "--quiet", "--done"}, {"repack", "-a", "-d", "-q"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if args[0] == "fast-import" {
			cmd.Stdin = &in
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// TestValueHistoryFigures measures issue 33's figures (make bench; skipped otherwise): the
// history of one key over a branch of 10,000 commits of which 300 change its file (a
// translation file of 5,000 keys), cold (the service's caches empty) and warm (asked again),
// and the blame of that 5,000-key file cold. Medians over rounds, each cold round with a new
// Service; the author's workspace is real (workspace.Repos), as the server reads it.
func TestValueHistoryFigures(t *testing.T) {
	if os.Getenv("PORTALWRIGHT_BENCH") == "" {
		t.Skip("set PORTALWRIGHT_BENCH=1 (make bench)")
	}
	root := t.TempDir()
	if keep := os.Getenv("PORTALWRIGHT_BENCH_KEEP"); keep != "" {
		root = keep
	}
	start := time.Now()
	genHistory(t, filepath.Join(root, "repos", "1.git"), 10000, 300, 5000)
	fmt.Printf("== value history: 10,000 commits, 300 of them change a 5,000-key translation file (made in %s)\n", time.Since(start).Round(time.Millisecond))
	g, err := gitcli.New(context.Background(), gitcli.Options{Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	repos := workspace.NewRepos(g, gitcli.NewLocks(), root)
	ctx := context.Background()
	c := caller.Caller{UserID: 7, Username: "bench"}
	if _, err := repos.Open(ctx, c.UserID, 1, "master", false); err != nil {
		t.Fatal(err)
	}
	pa, err := portalaccess.NewChecker(onePortal{}).Check(ctx, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	files := workspaceFiles{repos}
	rounds := 7
	var cold, warm, blame, coldCPU, blameCPU []time.Duration
	// cpu is the CPU time of this process and its finished children (git) so far.
	cpu := func() time.Duration {
		var self, kids syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
		_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
		d := func(r syscall.Rusage) time.Duration {
			return time.Duration(r.Utime.Nano() + r.Stime.Nano())
		}
		return d(self) + d(kids)
	}
	var entries, rows int
	for range rounds {
		svc := NewService(files, gitlog.New(repos.Core()), Editors{})
		c0, t0 := cpu(), time.Now()
		h, err := svc.history(ctx, c, pa, workspace.MustPath("translations/en.json"), Target{Key: "TXT_0"})
		if err != nil {
			t.Fatal(err)
		}
		cold, coldCPU = append(cold, time.Since(t0)), append(coldCPU, cpu()-c0)
		t0 = time.Now()
		if _, err := svc.history(ctx, c, pa, workspace.MustPath("translations/en.json"), Target{Key: "TXT_0"}); err != nil {
			t.Fatal(err)
		}
		warm = append(warm, time.Since(t0))
		entries = len(h)

		svc = NewService(files, gitlog.New(repos.Core()), Editors{})
		c0, t0 = cpu(), time.Now()
		b, err := svc.blame(ctx, c, pa, workspace.MustPath("translations/en.json"), true)
		if err != nil {
			t.Fatal(err)
		}
		blame, blameCPU = append(blame, time.Since(t0)), append(blameCPU, cpu()-c0)
		rows = len(b.Rows)
	}
	if entries != 31 || rows != 5000 {
		t.Fatalf("%d entries (want 31: 30 changes and the first), %d rows", entries, rows)
	}
	med := func(d []time.Duration) time.Duration {
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return d[len(d)/2].Round(100 * time.Microsecond)
	}
	fmt.Printf("history of one key (%d changes): cold median %s (CPU, git included: %s), warm median %s over %d rounds (targets < 500 ms, < 50 ms)\n",
		entries, med(cold), med(coldCPU), med(warm), rounds)
	fmt.Printf("blame of the 5,000-key file: cold median %s (CPU, git included: %s) over %d rounds (target < 2 s)\n", med(blame), med(blameCPU), rounds)
}
