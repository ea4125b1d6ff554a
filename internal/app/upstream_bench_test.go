package app

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"

	"portalwright/internal/caller"
	"portalwright/internal/testkit"
)

// TestUpstreamBranchFigures measures issue 24's upstream figures over HTTP on the real server
// (make bench; skipped otherwise), with the git host a repository of 24 branches served by git
// daemon that gains 2,000 branches and loses them again, five times:
//   - the portal's open that sees them against a raw `git fetch --prune` of the same change in a
//     plain clone of the host (alternating which goes first);
//   - the open with nothing new against a raw fetch with nothing new;
//   - upstream status (the dashboard card) at 24 and 2,024 branches;
//   - the size of the author's workspace .git at 24 and 2,024 branches.
func TestUpstreamBranchFigures(t *testing.T) {
	if os.Getenv("PORTALWRIGHT_BENCH") == "" {
		t.Skip("set PORTALWRIGHT_BENCH=1 (make bench)")
	}
	cfg := testConfig(t)
	cfg.AllowPrivateGitHosts = true
	cfg.AdminPassword = "admin-pass"
	cfg.UpstreamFetchTimeout = 5 * time.Minute
	srv := start(t, cfg)
	ctx := context.Background()
	dom, err := srv.app.Access.CreateDomain(ctx, caller.Caller{UserID: 1, Username: "admin", Admin: true}, "Bench")
	if err != nil {
		t.Fatal(err)
	}
	d := strconv.FormatInt(dom.ID, 10)
	admin := testkit.SignIn(t, srv.base, "admin", "admin-pass")
	hosts := t.TempDir()
	bare := newUpstreamRepo(t, hosts, "host.git")
	master := gitT(t, bare, "rev-parse", "master")
	hostRefs(t, bare, hostBranchNames("feature", 23), master) // 24 branches
	base, _ := startGitDaemon(t, hosts, 0)
	resp := admin.Do("POST", "/portal/create_url/"+d, `{"portal":{"name":"Bench","url":"`+base+`/host.git"}}`)
	if resp.Status != http.StatusCreated {
		t.Fatalf("import: %d %s", resp.Status, resp.Body)
	}
	var created struct{ ID int64 }
	resp.JSON(t, &created)
	at := "/" + d + "/" + strconv.FormatInt(created.ID, 10)
	raw := filepath.Join(t.TempDir(), "raw")
	gitT(t, "", "clone", "-q", base+"/host.git", raw)
	open := func() time.Duration {
		t.Helper()
		t0 := time.Now()
		if r := admin.Do("GET", "/portal"+at+"/open", ""); r.Status != 200 {
			t.Fatalf("open: %d %s", r.Status, r.Body)
		}
		return time.Since(t0)
	}
	fetch := func() time.Duration {
		t.Helper()
		t0 := time.Now()
		gitT(t, raw, "fetch", "-q", "--prune")
		return time.Since(t0)
	}
	statusP50 := func(branches int) time.Duration {
		t.Helper()
		var d []time.Duration
		for i := 0; i < 21; i++ {
			t0 := time.Now()
			r := admin.Do("GET", "/upstream"+at, "")
			d = append(d, time.Since(t0))
			var st struct{ Branches []struct{ Branch string } }
			r.JSON(t, &st)
			if r.Status != 200 || len(st.Branches) != branches {
				t.Fatalf("upstream status: %d, %d branches, want %d", r.Status, len(st.Branches), branches)
			}
		}
		return p50(d)
	}
	open()
	wsGit := filepath.Join(cfg.DataDir, "workspaces", "1", strconv.FormatInt(created.ID, 10), ".git")
	small := diskUsage(t, wsGit)
	status24 := statusP50(24)

	const n, runs = 2000, 5
	var openAdd, fetchAdd, openDel, fetchDel, openSame, fetchSame, statusMany, statusAfter []time.Duration
	var large int64
	for i := 0; i < runs; i++ {
		names := hostBranchNames(fmt.Sprintf("run%d", i), n)
		hostRefs(t, bare, names, master)
		if i%2 == 0 {
			fetchAdd = append(fetchAdd, fetch())
			openAdd = append(openAdd, open())
		} else {
			openAdd = append(openAdd, open())
			fetchAdd = append(fetchAdd, fetch())
		}
		statusMany = append(statusMany, statusP50(24+n))
		fetchSame = append(fetchSame, fetch())
		openSame = append(openSame, open())
		large = max(large, diskUsage(t, wsGit))
		hostRefs(t, bare, names, "")
		if i%2 == 0 {
			openDel = append(openDel, open())
			fetchDel = append(fetchDel, fetch())
		} else {
			fetchDel = append(fetchDel, fetch())
			openDel = append(openDel, open())
		}
		statusAfter = append(statusAfter, statusP50(24))
	}
	ms := func(d time.Duration) string {
		return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64) + " ms"
	}
	ratio := func(a, b time.Duration) string { return strconv.FormatFloat(float64(a)/float64(b), 'f', 2, 64) }
	mb := func(b int64) string { return strconv.FormatFloat(float64(b)/(1<<20), 'f', 2, 64) + " MB" }
	fmt.Println("== Upstream with thousands of host branches (issue 24) ==")
	fmt.Printf("open after the host added 2,000 branches: median %s vs raw git fetch --prune %s (x%s; target <= 1.5x), %d runs\n",
		ms(p50(openAdd)), ms(p50(fetchAdd)), ratio(p50(openAdd), p50(fetchAdd)), runs)
	fmt.Printf("open after the host deleted them: median %s vs raw git fetch --prune %s (x%s)\n",
		ms(p50(openDel)), ms(p50(fetchDel)), ratio(p50(openDel), p50(fetchDel)))
	fmt.Printf("open with nothing new at 2,024 branches: median %s vs raw git fetch --prune %s (x%s)\n",
		ms(p50(openSame)), ms(p50(fetchSame)), ratio(p50(openSame), p50(fetchSame)))
	fmt.Printf("upstream status p50: %s at 24 branches, %s at 2,024, %s after the host deleted 2,000 (target < 200 ms)\n",
		ms(status24), ms(p50(statusMany)), ms(p50(statusAfter)))
	fmt.Printf("workspace .git: %s at 24 branches, %s at 2,024 (difference %s; target +-1 MB)\n", mb(small), mb(large), mb(large-small))
}

func p50(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
