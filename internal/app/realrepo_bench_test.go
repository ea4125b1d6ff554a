package app

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"portalwright/internal/caller"
	"portalwright/internal/testkit"
)

// TestRealRepositoryFigures measures issue 30's figures (make bench; skipped otherwise) on a
// generated repository shaped like a real website monorepo (realrepo_gen_test.go: 5,000
// commits, 23 branches, Markdown/MDX pages in 10 languages, nested locale files, TypeScript,
// a few MB of binaries) served by git daemon on loopback, over HTTP on the real server, each
// against the raw git command in the same run, alternating which goes first, medians:
//   - import: POST create_url until GET open answers vs `git clone` of the same URL;
//   - local changes with 50 edited files (GET local-changes) vs `git status --porcelain` in
//     that workspace;
//   - search for a phrase found in one .md file (GET search) vs `git grep -F -i -l` in the
//     workspace;
//   - commit + push of one edited file (POST commits, which pushes to the host) vs `git add
//     -A`, `git commit`, `git push` of the same edit from a plain clone of a copy of the host
//     repository on the same daemon.
//
// PORTALWRIGHT_BENCH_COMMITS and PORTALWRIGHT_BENCH_ROUNDS change the shape,
// PORTALWRIGHT_BENCH_ONLY=import,commit,search,local picks measures;
// PORTALWRIGHT_BENCH_PROFILE=<dir> writes a CPU profile of the server per measure.
func TestRealRepositoryFigures(t *testing.T) {
	if os.Getenv("PORTALWRIGHT_BENCH") == "" {
		t.Skip("set PORTALWRIGHT_BENCH=1 (make bench)")
	}
	commits, rounds := envInt("PORTALWRIGHT_BENCH_COMMITS", 5000), envInt("PORTALWRIGHT_BENCH_ROUNDS", 7)
	hosts := t.TempDir()
	tree := genMonorepo(t, filepath.Join(hosts, "host.git"), monorepoShape{Commits: commits, Branches: 22})
	// pick lists n Markdown pages of a folder, sorted.
	pick := func(dir string, n int) []string {
		var out []string
		for p := range tree {
			if strings.HasPrefix(p, dir) && strings.HasSuffix(p, ".md") && p != monorepoPhraseFile {
				out = append(out, p)
			}
		}
		sort.Strings(out)
		if len(out) < n {
			t.Fatalf("%d pages in %s", len(out), dir)
		}
		return out[:n]
	}
	if out, err := exec.Command("cp", "-a", filepath.Join(hosts, "host.git"), filepath.Join(hosts, "raw.git")).CombinedOutput(); err != nil {
		t.Fatalf("copy the host repository: %v %s", err, out)
	}
	base, _ := startGitDaemon(t, hosts, 0)

	cfg := testConfig(t)
	cfg.AllowPrivateGitHosts = true
	cfg.AdminPassword = "admin-pass"
	cfg.UpstreamFetchTimeout = 5 * time.Minute
	srv := start(t, cfg)
	dom, err := srv.app.Access.CreateDomain(context.Background(), caller.Caller{UserID: 1, Username: "admin", Admin: true}, "Bench")
	if err != nil {
		t.Fatal(err)
	}
	d := strconv.FormatInt(dom.ID, 10)
	admin := testkit.SignIn(t, srv.base, "admin", "admin-pass")

	home := t.TempDir()
	raw := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0",
			"GIT_AUTHOR_NAME=Raw", "GIT_AUTHOR_EMAIL=raw@example.org", "GIT_COMMITTER_NAME=Raw", "GIT_COMMITTER_EMAIL=raw@example.org")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
		}
		return string(out)
	}
	// timed starts with nothing left to write back (a checkout's files would otherwise slow
	// whatever runs next on this machine's disk), then times f.
	timed := func(f func()) time.Duration { syscall.Sync(); t0 := time.Now(); f(); return time.Since(t0) }
	// pair times ours and theirs once each, the first one alternating with i.
	pair := func(i int, ours, theirs *[]time.Duration, o, r func()) {
		if i%2 == 0 {
			*ours = append(*ours, timed(o))
			*theirs = append(*theirs, timed(r))
		} else {
			*theirs = append(*theirs, timed(r))
			*ours = append(*ours, timed(o))
		}
	}
	profile := func(name string) func() {
		dir := os.Getenv("PORTALWRIGHT_BENCH_PROFILE")
		if dir == "" {
			return func() {}
		}
		f, err := os.Create(filepath.Join(dir, name+".pprof"))
		if err != nil {
			t.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			t.Fatal(err)
		}
		return func() { pprof.StopCPUProfile(); f.Close() }
	}
	only := os.Getenv("PORTALWRIGHT_BENCH_ONLY")
	measure := func(name string) bool { return only == "" || strings.Contains(only, name) }
	type figure struct {
		name, versus, goal string
		ours, theirs       []time.Duration
	}
	var figures []*figure

	// Import until open vs git clone.
	imp := &figure{name: "import until open", versus: "git clone", goal: "<= 1.0x (keep)"}
	figures = append(figures, imp)
	var portal string
	var portalID int64
	stop := profile("import")
	importRounds := rounds
	if !measure("import") {
		importRounds = 1 // the portal the other measures use
	}
	for i := 0; i < importRounds; i++ {
		clone := filepath.Join(t.TempDir(), "clone")
		pair(i, &imp.ours, &imp.theirs, func() {
			resp := admin.Do("POST", "/portal/create_url/"+d, `{"portal":{"name":"Monorepo `+strconv.Itoa(i)+`","url":"`+base+`/host.git"}}`)
			if resp.Status != http.StatusCreated {
				t.Fatalf("import: %d %s", resp.Status, resp.Body)
			}
			var created struct{ ID int64 }
			resp.JSON(t, &created)
			at := d + "/" + strconv.FormatInt(created.ID, 10)
			if r := admin.Do("GET", "/portal/"+at+"/open", ""); r.Status != 200 {
				t.Fatalf("open: %d %s", r.Status, r.Body)
			}
			if portal == "" {
				portal, portalID = at, created.ID
			}
		}, func() { raw("", "clone", "-q", base+"/host.git", clone) })
		os.RemoveAll(clone)
	}
	stop()
	if !measure("import") {
		imp.ours = nil
	}
	ws := filepath.Join(cfg.DataDir, "workspaces", "1", strconv.FormatInt(portalID, 10))

	// Commit + push of one file vs add/commit/push from a plain clone (of a copy of the host).
	cp := &figure{name: "commit + push of one file", versus: "git add/commit/push", goal: "<= 1.2x"}
	figures = append(figures, cp)
	plain := filepath.Join(t.TempDir(), "plain")
	raw("", "clone", "-q", base+"/raw.git", plain)
	edited := pick("apps/site/pages/en/docs/", 1)[0]
	stop = profile("commit")
	for i := 0; i < rounds && measure("commit"); i++ {
		line := fmt.Sprintf("\nEdited in round %d.\n", i)
		for _, dir := range []string{ws, plain} {
			appendFile(t, filepath.Join(dir, edited), line)
		}
		pair(i, &cp.ours, &cp.theirs, func() {
			r := admin.Do("POST", "/portal/"+portal+"/commits", `{"message":"docs: edit round `+strconv.Itoa(i)+`"}`)
			var ans struct {
				Committed       bool
				UpstreamWarning string
			}
			r.JSON(t, &ans)
			if r.Status != 200 || !ans.Committed || ans.UpstreamWarning != "" {
				t.Fatalf("commit: %d %s", r.Status, r.Body)
			}
		}, func() {
			raw(plain, "add", "-A")
			raw(plain, "commit", "-q", "-m", "docs: edit round "+strconv.Itoa(i))
			raw(plain, "push", "-q", "origin", "master")
		})
	}
	stop()
	if host := gitT(t, filepath.Join(hosts, "host.git"), "log", "-1", "--format=%s", "master"); measure("commit") && host != "docs: edit round "+strconv.Itoa(rounds-1) {
		t.Fatalf("the host's master is %q", host)
	}

	// Search: a phrase in one Markdown file vs git grep -F -i -l in the workspace.
	se := &figure{name: "search, a phrase in one Markdown file", versus: "git grep -F -i -l", goal: "<= 1.5x"}
	figures = append(figures, se)
	phrase := strings.ToLower(monorepoPhrase)
	stop = profile("search")
	for i := 0; i < 3*rounds && measure("search"); i++ {
		pair(i, &se.ours, &se.theirs, func() {
			r := admin.Do("GET", "/portal/"+portal+"/search?phrase="+url.QueryEscape(phrase), "")
			var ans struct{ Results []struct{ Path string } }
			r.JSON(t, &ans)
			if r.Status != 200 || len(ans.Results) != 1 || ans.Results[0].Path != monorepoPhraseFile {
				t.Fatalf("search: %d %s", r.Status, r.Body)
			}
		}, func() {
			if out := raw(ws, "grep", "-F", "-i", "-l", "-e", phrase); strings.TrimSpace(out) != monorepoPhraseFile {
				t.Fatalf("git grep: %q", out)
			}
		})
	}
	stop()

	// Local changes with 50 edited files vs git status --porcelain in the workspace.
	lc := &figure{name: "local changes, 50 edited files", versus: "git status --porcelain", goal: "<= 1.0x"}
	figures = append(figures, lc)
	var pages []string
	for _, lang := range monorepoLanguages[:5] {
		pages = append(pages, pick("apps/site/pages/"+lang+"/learn/", 10)...)
	}
	stop = profile("local-changes")
	for i := 0; i < rounds && measure("local"); i++ {
		for _, p := range pages {
			appendFile(t, filepath.Join(ws, p), fmt.Sprintf("\nEdit %d.\n", i))
		}
		for j := 0; j < 3; j++ {
			pair(i+j, &lc.ours, &lc.theirs, func() {
				r := admin.Do("GET", "/portal/"+portal+"/local-changes", "")
				var st struct{ Changes map[string]string }
				r.JSON(t, &st)
				if r.Status != 200 || len(st.Changes) != len(pages) {
					t.Fatalf("local changes: %d %d changes %.300s", r.Status, len(st.Changes), r.Body)
				}
			}, func() {
				if out := raw(ws, "status", "--porcelain"); strings.Count(out, "\n") != len(pages) {
					t.Fatalf("git status: %q", out)
				}
			})
		}
	}
	stop()

	ms := func(d time.Duration) string {
		return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64) + " ms"
	}
	fmt.Printf("== Real repository (issue 30): %d commits, 23 branches, served by git daemon ==\n", commits)
	for _, f := range figures {
		if len(f.ours) == 0 {
			continue
		}
		o, r := p50(f.ours), p50(f.theirs)
		fmt.Printf("%s: median %s vs %s %s (x%.2f; goal %s), %d runs each\n", f.name, ms(o), f.versus, ms(r), float64(o)/float64(r), f.goal, len(f.ours))
	}
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func appendFile(t *testing.T, name, text string) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
