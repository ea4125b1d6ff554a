package app

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"portalwright/internal/testkit"
)

// TestPreviewViewers is issue 13's preview figure (run by scripts/bench.sh; skipped unless
// PORTALWRIGHT_BENCH is set): a locked preview of the demo Crew Portal, then
//   - link to first byte: the link's index.html fetched with no sign-in, a fresh connection
//     each time, median of 51 (target < 50 ms);
//   - 50 concurrent viewers: each with its own keep-alive connection, fetching the portal's
//     files in turn (index, engine, sitemap, pages, settings) for 5 s; requests per second
//     (target >= 1,000).
//
// The same is measured for a live preview, whose files come from the creator's workspace.
func TestPreviewViewers(t *testing.T) {
	if os.Getenv("PORTALWRIGHT_BENCH") == "" {
		t.Skip("set PORTALWRIGHT_BENCH=1 (make bench)")
	}
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	cfg.LogLevel = "error"
	srv := start(t, cfg)
	admin := testkit.SignIn(t, srv.base, "admin", "admin-pass")
	admin.Do("GET", "/portal/1/1/open", "")
	files := []string{"index.html", "engine/portal-engine.js", "sitemap.json", "portal.json", "pages/home.html"}
	for _, typ := range []string{"PORTAL_LOCKED", "PORTAL_LIVE"} {
		var p sharedPreview
		_ = json.Unmarshal([]byte(admin.Do("POST", "/preview/1/1", `{"type":"`+typ+`"}`).Body), &p)
		for deadline := time.Now().Add(time.Minute); p.Status != "READY" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			_ = json.Unmarshal([]byte(admin.Do("GET", "/preview/1/1/"+itoa(p.ID), "").Body), &p)
		}
		if p.Status != "READY" {
			t.Fatalf("%s: %+v", typ, p)
		}
		base := p.Link[:strings.Index(p.Link, "index.html")]
		for _, f := range files {
			if r := testkit.Call(t, "GET", base+f, "", ""); r.Status != 200 {
				t.Fatalf("%s %s: %d", typ, f, r.Status)
			}
		}

		// Link to first byte, a new connection each time (a phone opening the link).
		var ttfb []time.Duration
		for range 51 {
			client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
			t0 := time.Now()
			resp, err := client.Get(base + "index.html")
			if err != nil {
				t.Fatal(err)
			}
			ttfb = append(ttfb, time.Since(t0))
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		slices.Sort(ttfb)

		// 50 viewers for 5 s.
		const viewers, span = 50, 5 * time.Second
		var done, failed atomic.Int64
		var wg sync.WaitGroup
		stop := time.Now().Add(span)
		for v := range viewers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
				for i := v; time.Now().Before(stop); i++ {
					resp, err := client.Get(base + files[i%len(files)])
					if err != nil {
						failed.Add(1)
						continue
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 {
						failed.Add(1)
						continue
					}
					done.Add(1)
				}
			}()
		}
		wg.Wait()
		t.Logf("%s preview: link to first byte median %.1f ms (p90 %.1f ms) over %d; %d viewers: %.0f requests/s (%d failed)",
			typ, float64(ttfb[len(ttfb)/2].Microseconds())/1000, float64(ttfb[len(ttfb)*9/10].Microseconds())/1000, len(ttfb),
			viewers, float64(done.Load())/span.Seconds(), failed.Load())
		if failed.Load() > 0 {
			t.Errorf("%d requests failed", failed.Load())
		}
	}
}
