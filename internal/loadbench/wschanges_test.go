package loadbench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestWorkspaceChangesScale is the first issue 8 benchmark: GET wsChanges of one portal with
// 2, 200 and 2,000 workspaces (PORTALWRIGHT_BENCH_SCALES), 20 concurrent callers
// (PORTALWRIGHT_BENCH_CALLERS). The workspaces are copies of one real clone in the product's
// layout, their users created in one batch; the server is restarted after each batch, as a
// new instance would find them. Each scale: one warm-up call (a workspace made before the
// status record gets one git status on first read), then rounds of 20 callers × up to 25
// calls (at most 20 s each); p50 and p99 per round, medians over the rounds.
func TestWorkspaceChangesScale(t *testing.T) {
	bin := benchEnv(t)
	scales := []int{2, 200, 2000}
	if v := os.Getenv("PORTALWRIGHT_BENCH_SCALES"); v != "" {
		scales = nil
		for _, f := range strings.Split(v, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				t.Fatalf("PORTALWRIGHT_BENCH_SCALES: %q", v)
			}
			scales = append(scales, n)
		}
	}
	callers := envInt("PORTALWRIGHT_BENCH_CALLERS", 20)
	rounds := envInt("PORTALWRIGHT_BENCH_ROUNDS", 3)
	perCaller := envInt("PORTALWRIGHT_BENCH_CALLS", 25)
	roundTime := time.Duration(envInt("PORTALWRIGHT_BENCH_ROUND_SECONDS", 20)) * time.Second

	s := newServer(t, bin, "")
	s.start()
	token := s.login("admin", adminPassword)
	s.must(token, "GET", "portal/1/1/open", "")
	src := filepath.Join(s.data, "workspaces", "1", "1")
	have := 1 // the admin's workspace

	fmt.Printf("== wsChanges (issue 8): one portal, %d concurrent callers, medians of %d rounds ==\n", callers, rounds)
	fmt.Printf("%-11s %10s %10s %10s %12s %14s %10s\n", "workspaces", "p50", "p99", "req/s", "warm-up", "JSON size", "sent")
	for _, n := range scales {
		if n > have {
			setup := time.Now()
			s.stop()
			ids, _ := s.addUsers(fmt.Sprintf("ws%d-", n), n-have)
			s.copyWorkspaces(src, 1, ids)
			have = n
			s.start()
			token = s.login("admin", adminPassword)
			t.Logf("%d workspaces set up in %s", n, time.Since(setup).Round(time.Millisecond))
		}
		t0 := time.Now()
		_, body, err := s.do(token, "GET", "portal/1/1/wsChanges/master", "")
		warm := time.Since(t0)
		if err != nil {
			t.Fatal(err)
		}
		_, wire, _, _ := s.doRaw(token, "GET", "portal/1/1/wsChanges/master", "")
		var list []json.RawMessage
		if err := json.Unmarshal(body, &list); err != nil || len(list) != n {
			t.Fatalf("%d workspaces: wsChanges answered %d entries (%v): %.300s", n, len(list), err, body)
		}
		var p50s, p99s []time.Duration
		var rps []float64
		errors := 0
		for r := 0; r < rounds; r++ {
			res := s.load(callers, roundTime, perCaller, func(int, int) request {
				return request{name: "wsChanges", method: "GET", path: "portal/1/1/wsChanges/master", token: token}
			})
			if res.errors > 0 {
				t.Logf("%d workspaces, round %d: %d errors, first: %s", n, r, res.errors, res.firstErr)
			}
			errors += res.errors
			f := summarise(res.all, res.errors, res.elapsed)
			p50s, p99s, rps = append(p50s, f.p50), append(p99s, f.p99), append(rps, f.rps)
		}
		fmt.Printf("%-11d %10s %10s %10.0f %12s %11d KB %7d KB", n, ms(medianDur(p50s)), ms(medianDur(p99s)), medianFloat(rps), ms(warm), len(body)>>10, len(wire)>>10)
		if errors > 0 {
			fmt.Printf("  (%d errors)", errors)
		}
		fmt.Println()
	}
}
