package loadbench

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"
)

// readMix is what a working author's UI asks for (spec 3 §2, §4): the portal selector, the
// open portal's local changes (polled), other users' changes, the branch picker's references
// and branch list, the portal settings and the user's profile.
var readMix = []struct{ name, path string }{
	{"categorized", "portal/1/categorized"},
	{"local-changes", "portal/1/1/local-changes"},
	{"wsChanges", "portal/1/1/wsChanges/master"},
	{"allReferences", "portal_branch/allReferences/1/1"},
	{"branches", "portal/1/1/branches"},
	{"settings", "settings/1/1"},
	{"profile", "user/profile"},
}

// authors starts a server (SQLite, or PostgreSQL when dbURL is set) with n authors, each
// signed in (one session each) with a workspace of portal 1 opened by the product.
func authors(t *testing.T, bin, dbURL string, n int) (*server, []string) {
	s := newServer(t, bin, dbURL)
	s.start()
	admin := s.login("admin", adminPassword)
	s.must(admin, "GET", "portal/1/1/open", "")
	s.must(admin, "POST", "portal/1/1/branches", `{"name":"feature/summer"}`)
	_, names := s.addUsers("author-", n)
	// Each author signs in and opens the portal once through the product (a real clone).
	tokens := make([]string, n)
	inParallel(n, 4, func(i int) {
		tokens[i] = s.login(names[i], adminPassword)
		s.must(tokens[i], "GET", "portal/1/1/open", "")
	})
	return s, tokens
}

// TestMixedReadLoad is the second issue 8 benchmark: 200 signed-in authors (one client
// each, PORTALWRIGHT_BENCH_CLIENTS) run the read mix above in a closed loop for 30 s
// (PORTALWRIGHT_BENCH_SECONDS), on SQLite and then on PostgreSQL when
// PORTALWRIGHT_BENCH_DATABASE_URL or TEST_DATABASE_URL is set (PORTALWRIGHT_BENCH_DB=sqlite
// or postgres runs one of them). Then the third benchmark:
// branch listing and allReferences, each alone at 64 concurrent clients for 10 s.
func TestMixedReadLoad(t *testing.T) {
	bin := benchEnv(t)
	clients := envInt("PORTALWRIGHT_BENCH_CLIENTS", 200)
	seconds := envInt("PORTALWRIGHT_BENCH_SECONDS", 30)
	refClients := envInt("PORTALWRIGHT_BENCH_REF_CLIENTS", 64)
	refSeconds := envInt("PORTALWRIGHT_BENCH_REF_SECONDS", 10)
	only := os.Getenv("PORTALWRIGHT_BENCH_DB") // sqlite or postgres: that one only
	var dbs []struct{ name, url string }
	if only != "postgres" {
		dbs = append(dbs, struct{ name, url string }{"SQLite", ""})
	}
	if only != "sqlite" {
		if u := freshPostgres(t); u != "" {
			dbs = append(dbs, struct{ name, url string }{"PostgreSQL", u})
		}
	}
	for _, db := range dbs {
		setup := time.Now()
		s, tokens := authors(t, bin, db.url, clients)
		t.Logf("%s: %d authors signed in with workspaces in %s", db.name, clients, time.Since(setup).Round(time.Millisecond))

		mix := readMix
		if names := os.Getenv("PORTALWRIGHT_BENCH_MIX"); names != "" { // e.g. to leave wsChanges out
			mix = nil
			for _, r := range readMix {
				if strings.Contains(","+names+",", ","+r.name+",") {
					mix = append(mix, r)
				}
			}
		}
		cpu0 := cpuSeconds(s.pid())
		busy0, total0 := machineBusy()
		res := s.load(clients, time.Duration(seconds)*time.Second, 1<<20, func(c, i int) request {
			r := mix[(c+i)%len(mix)]
			return request{name: r.name, method: "GET", path: r.path, token: tokens[c]}
		})
		cpu := cpuSeconds(s.pid()) - cpu0
		busy1, total1 := machineBusy()
		f := summarise(res.all, res.errors, res.elapsed)
		fmt.Printf("== Mixed read load (issue 8), %s: %d authors, closed loop, %ds ==\n", db.name, clients, seconds)
		fmt.Printf("throughput %.0f requests/s   p50 %s   p99 %s   max %s   errors %d\n", f.rps, ms(f.p50), ms(f.p99), ms(f.max), res.errors)
		fmt.Printf("server CPU (with its git processes) %.2f cores; whole machine %.0f%% busy\n",
			cpu/res.elapsed.Seconds(), 100*(busy1-busy0)/(total1-total0))
		if res.errors > 0 {
			t.Logf("first error: %s", res.firstErr)
		}
		names := make([]string, 0, len(res.byName))
		for n := range res.byName {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			g := summarise(res.byName[n], 0, 0)
			fmt.Printf("  %-14s p50 %9s   p99 %9s\n", n, ms(g.p50), ms(g.p99))
		}

		fmt.Printf("== Branch listing and allReferences (issue 8), %s: %d concurrent clients, %ds each ==\n", db.name, refClients, refSeconds)
		for _, r := range []struct{ name, path string }{
			{"branches", "portal/1/1/branches"},
			{"allReferences", "portal_branch/allReferences/1/1"},
		} {
			res := s.load(refClients, time.Duration(refSeconds)*time.Second, 1<<20, func(c, i int) request {
				return request{name: r.name, method: "GET", path: r.path, token: tokens[c%len(tokens)]}
			})
			f := summarise(res.all, res.errors, res.elapsed)
			fmt.Printf("  %-14s %6.0f requests/s   p50 %9s   p99 %9s   errors %d\n", r.name, f.rps, ms(f.p50), ms(f.p99), res.errors)
			if res.errors > 0 {
				t.Logf("first error: %s", res.firstErr)
			}
		}
		s.stop()
	}
}
