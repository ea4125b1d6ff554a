package app

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"portalwright/internal/testkit"
)

// TestAssetListingProfile is the in-process twin of internal/loadbench's
// TestAssetFolderListing, for profiles (scripts/bench.sh does not run it):
//
//	PORTALWRIGHT_BENCH=1 go test -count=1 -run=AssetListingProfile -cpuprofile=/tmp/list.prof ./internal/app/
//	go tool pprof -top /tmp/list.prof
//
// GET /api/v1/assets/1/1/src/assets/bench-list (1,000 small PNGs) as the admin, through
// the bearer path, from 64 goroutines for 10 s.
func TestAssetListingProfile(t *testing.T) {
	if os.Getenv("PORTALWRIGHT_BENCH") == "" {
		t.Skip("set PORTALWRIGHT_BENCH=1 (profiling aid)")
	}
	b := t
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	cfg.LogLevel = "error"
	srv := start(t, cfg)
	admin := testkit.SignIn(b, srv.base, "admin", "admin-pass")
	if r := admin.Do("GET", "/portal/1/1/open", ""); r.Status != 200 {
		b.Fatalf("open: %d %s", r.Status, r.Body)
	}
	for i := range 1000 {
		w, h := 16+(i*37)%320, 16+(i*53)%200
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		for y := range h {
			for x := range w {
				img.SetNRGBA(x, y, color.NRGBA{uint8(x + i), uint8(y * 3), uint8(i), 255})
			}
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			b.Fatal(err)
		}
		putWorkspaceFile(b, cfg.DataDir, 1, 1, fmt.Sprintf("assets/bench-list/image-%04d.png", i), buf.Bytes())
	}
	url := srv.base + "/api/v1/assets/1/1/src/assets/bench-list"
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 128}}
	var n atomic.Int64
	var wg sync.WaitGroup
	t0 := time.Now()
	deadline := t0.Add(10 * time.Second)
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				req, _ := http.NewRequest("GET", url, nil)
				req.Header.Set("Authorization", "Bearer "+admin.Token)
				resp, err := client.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					b.Errorf("status %d", resp.StatusCode)
					return
				}
				n.Add(1)
			}
		}()
	}
	wg.Wait()
	fmt.Printf("in-process listing of 1,000 assets, 64 clients: %.0f requests/s\n", float64(n.Load())/time.Since(t0).Seconds())
}
