package app

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"portalwright/internal/loadable"
	"portalwright/internal/taskrunner"
	"portalwright/internal/testkit"
)

// TestLoadableFigures is issue 14's loadable figure (run by scripts/bench.sh; skipped unless
// PORTALWRIGHT_BENCH is set): the demo Passenger Portal with 200 MB of assets (150 MB of
// photo-like random bytes, 50 MB of text, 1,000 files) committed, then
//   - generate: the loadable's generation (snapshot, the build in the sandbox, the
//     deterministic package) against `git archive --format=tar.gz` of the same commit plus the
//     same build run directly (node build.js in a checkout), median of 3 each, and the server's
//     RSS growth over a generation (target ≤ 1.5×, < 100 MB);
//   - download: the package over the API (Bearer, ranges-capable handler) against the same file
//     served by a bare net/http file server on loopback, median of 5 (target ≥ 70 %).
func TestLoadableFigures(t *testing.T) {
	if os.Getenv("PORTALWRIGHT_BENCH") == "" {
		t.Skip("set PORTALWRIGHT_BENCH=1 (make bench)")
	}
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("bwrap is not installed")
	}
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	cfg.LogLevel = "info"
	srv := start(t, cfg)
	admin := testkit.SignIn(t, srv.base, "admin", "admin-pass")
	admin.Do("GET", "/portal/1/2/open", "")

	// 200 MB of assets in the workspace, committed.
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("cabin crew seat meal flight arrival departure gate lounge duty free menu wifi")
	for i := range 1000 {
		var data []byte
		name := fmt.Sprintf("assets/bench/%03d/file-%04d", i%40, i)
		if i%4 != 0 { // photo-like: incompressible
			data = make([]byte, 200<<10)
			for j := range data {
				data[j] = byte(rng.Uint32())
			}
			name += ".jpg"
		} else { // text
			var b strings.Builder
			for b.Len() < 200<<10 {
				b.WriteString(words[rng.IntN(len(words))])
				b.WriteByte(' ')
			}
			data = []byte(b.String())
			name += ".html"
		}
		putWorkspaceFile(t, cfg.DataDir, 1, 2, name, data)
	}
	if r := admin.Do("POST", "/portal/1/2/commits", `{"message":"Bench assets"}`); r.Status != 200 {
		t.Fatalf("commit: %d %.300s", r.Status, r.Body)
	}
	bare := filepath.Join(cfg.DataDir, "repos", "2.git")
	commit := strings.TrimSpace(run(t, bare, "git", "rev-parse", "master"))

	median := func(d []time.Duration) time.Duration { slices.Sort(d); return d[len(d)/2] }
	rss := func() int64 {
		data, _ := os.ReadFile("/proc/self/status")
		for _, line := range strings.Split(string(data), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				return kb << 10
			}
		}
		return 0
	}

	// The baseline: git archive of the commit, then the build run directly in a checkout.
	var baseline []time.Duration
	for i := range 3 {
		dir := t.TempDir()
		t0 := time.Now()
		run(t, bare, "sh", "-c", "git archive --format=tar.gz "+commit+" > "+filepath.Join(dir, "a.tar.gz"))
		archive := time.Since(t0)
		co := filepath.Join(dir, "co")
		run(t, bare, "sh", "-c", "mkdir -p "+co+" && git archive "+commit+" | tar -x -C "+co)
		t1 := time.Now()
		run(t, co, "node", "build.js")
		baseline = append(baseline, archive+time.Since(t1))
		_ = i
	}

	// The product: create and generate, timed from generate to GENERATED.
	var generate []time.Duration
	var growth []int64
	var last loadableView
	for i := range 3 {
		body := fmt.Sprintf(`{"name":"bench-%d","partNumber":"PW-BENCH","versionPrefix":"1.0","type":"PORTAL","gitRef":"master","copyrightData":{"metaData":{"accept":true}}}`, i)
		var l loadableView
		if r := admin.Do("POST", "/loadable/1/2", body); r.Status != 201 || json.Unmarshal([]byte(r.Body), &l) != nil {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		before := rss()
		peak := before
		t0 := time.Now()
		if r := admin.Do("POST", "/loadable/1/2/generate/"+itoa(l.ID), ""); r.Status != 202 {
			t.Fatalf("generate: %d %s", r.Status, r.Body)
		}
		for {
			if m := rss(); m > peak {
				peak = m
			}
			var list []loadableView
			_ = json.Unmarshal([]byte(admin.Do("GET", "/loadable/1/2", "").Body), &list)
			if idx := slices.IndexFunc(list, func(x loadableView) bool { return x.ID == l.ID }); idx >= 0 && list[idx].Status != "GENERATING" {
				last = list[idx]
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		generate = append(generate, time.Since(t0))
		growth = append(growth, peak-before)
		if last.Status != "GENERATED" {
			t.Fatalf("generation: %+v", last)
		}
	}
	slices.Sort(growth)
	b, g := median(baseline), median(generate)
	fmt.Printf("BENCH loadable of a 200 MB portal (%d MB package): generate median %.2f s; git archive + build median %.2f s; ratio %.2f× (target ≤ 1.5×); RSS growth median %d MB (max %d MB; target < 100 MB)\n",
		last.Size>>20, g.Seconds(), b.Seconds(), g.Seconds()/b.Seconds(), growth[1]>>20, growth[2]>>20)

	// Where the time goes: the shared commit build (its report marks the start of the tasks),
	// then the packing, called directly.
	for range 2 {
		t0 := time.Now()
		var t1 time.Time
		built, err := srv.app.builds.Commit(t.Context(), taskrunner.CommitRequest{PortalID: 2, Ref: commit, MaxBytes: 1 << 40,
			Dir: filepath.Join(t.TempDir(), "snapshot"), Disposable: true}, func(pct int, _ string) {
			if pct == 40 {
				t1 = time.Now()
			}
		})
		if err != nil || !built.Tasks {
			t.Fatalf("build: %v", err)
		}
		t2 := time.Now()
		if _, err := loadable.Write(io.Discard, built.Content, commit, 1<<40); err != nil {
			t.Fatal(err)
		}
		t3 := time.Now()
		built.Remove()
		fmt.Printf("BENCH   steps: snapshot %.2f s, build in the sandbox %.2f s, pack %.2f s\n", t1.Sub(t0).Seconds(), t2.Sub(t1).Seconds(), t3.Sub(t2).Seconds())
	}

	// Download: the API against a bare file server on loopback, alternating.
	archive := filepath.Join(cfg.DataDir, "loadables", "2", itoa(last.ID), last.FileName)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	raw := &http.Server{Handler: http.FileServer(http.Dir(filepath.Dir(archive)))}
	go raw.Serve(ln)
	defer raw.Close()
	fetch := func(url string, auth bool) time.Duration {
		req, _ := http.NewRequest("GET", url, nil)
		if auth {
			req.Header.Set("Authorization", "Bearer "+admin.Token)
		}
		t0 := time.Now()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || n != last.Size {
			t.Fatalf("download %s: %d, %d bytes", url, resp.StatusCode, n)
		}
		return time.Since(t0)
	}
	var api, direct []time.Duration
	for range 5 {
		api = append(api, fetch(srv.base+"/api/v1/loadable/1/2/download/"+last.FileName, true))
		direct = append(direct, fetch("http://"+ln.Addr().String()+"/"+last.FileName, false))
	}
	mb := float64(last.Size) / (1 << 20)
	fmt.Printf("BENCH loadable download (%.0f MB): API median %.0f MB/s; raw loopback file server median %.0f MB/s; %.0f %% (target ≥ 70 %%)\n",
		mb, mb/median(api).Seconds(), mb/median(direct).Seconds(), 100*median(direct).Seconds()/median(api).Seconds())
}

func run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}
