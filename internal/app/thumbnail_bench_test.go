package app

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"portalwright/internal/testkit"
)

// TestThumbnailGrid is issue 10's thumbnail figure (run by scripts/bench.sh; skipped unless
// PORTALWRIGHT_BENCH is set): a folder of 400 generated ~2-megapixel JPEGs (1632×1224, noisy
// so they decode like photos) in a real workspace; the asset grid's thumbnails (height=200)
// fetched over HTTP by 6 parallel clients (a browser's connections per host), first cold
// (every image decoded, scaled and cached), then warm (served from the disk cache), then as
// the browser revalidates (If-None-Match → 304). Targets: cold < 15 s, warm < 1 s.
func TestThumbnailGrid(t *testing.T) {
	if os.Getenv("PORTALWRIGHT_BENCH") == "" {
		t.Skip("set PORTALWRIGHT_BENCH=1 (make bench)")
	}
	const images, clients = 400, 6
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	cfg.LogLevel = "error"
	srv := start(t, cfg)
	admin := testkit.SignIn(t, srv.base, "admin", "admin-pass")
	if r := admin.Do("GET", "/portal/1/1/open", ""); r.Status != 200 {
		t.Fatalf("open: %d %s", r.Status, r.Body)
	}
	// 16 distinct photos; each file gets its own comment segment after the JPEG's start
	// marker, so all 400 have different content (and cache keys) and decode like photos.
	t0 := time.Now()
	const bases = 16
	photos := make([][]byte, bases)
	var wg sync.WaitGroup
	for i := range bases {
		wg.Add(1)
		go func() { defer wg.Done(); photos[i] = gridJPEG(t, i) }()
	}
	wg.Wait()
	var total int64
	for i := range images {
		note := fmt.Sprintf("portalwright bench photo %d", i)
		com := append([]byte{0xFF, 0xFE, 0, byte(len(note) + 2)}, note...)
		base := photos[i%bases]
		data := append(append(append([]byte{}, base[:2]...), com...), base[2:]...)
		total += int64(len(data))
		putWorkspaceFile(t, cfg.DataDir, 1, 1, fmt.Sprintf("assets/grid/photo-%03d.jpg", i), data)
	}
	fmt.Printf("== Thumbnails (issue 10) ==\n%d JPEGs of 1632×1224 (%.0f MB) in the workspace (made in %s)\n", images, float64(total)/1e6, time.Since(t0).Round(time.Millisecond))

	r := admin.Do("POST", "/thumbnail/1/1/token", "")
	var tok struct{ Token string }
	r.JSON(t, &tok)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	etags := make([]string, images)
	run := func(name string, revalidate bool) time.Duration {
		jobs := make(chan int)
		var wg sync.WaitGroup
		var failed atomic.Int64
		start := time.Now()
		cpu0 := cpuTime()
		for range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range jobs {
					u := srv.base + "/api/v1/thumbnail/1/1/master/thumbnail/assets/grid/photo-" + fmt.Sprintf("%03d", i) + ".jpg?height=200&t=" + url.QueryEscape(tok.Token)
					req, _ := http.NewRequest("GET", u, nil)
					if revalidate {
						req.Header.Set("If-None-Match", `"`+etags[i]+`"`)
					}
					resp, err := client.Do(req)
					if err != nil {
						failed.Add(1)
						continue
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					want := http.StatusOK
					if revalidate {
						want = http.StatusNotModified
					}
					if resp.StatusCode != want {
						failed.Add(1)
						continue
					}
					if !revalidate {
						etags[i] = resp.Header.Get("ETag")[1 : len(resp.Header.Get("ETag"))-1]
					}
				}
			}()
		}
		for i := range images {
			jobs <- i
		}
		close(jobs)
		wg.Wait()
		d := time.Since(start)
		fmt.Printf("  %s: CPU of the test process (server and clients) %s\n", name, (cpuTime() - cpu0).Round(time.Millisecond))
		if failed.Load() > 0 {
			t.Errorf("%s: %d requests failed", name, failed.Load())
		}
		return d
	}
	cold := run("cold", false)
	fmt.Printf("cold grid (%d thumbnails, height=200, %d clients): %s (target < 15 s)\n", images, clients, cold.Round(time.Millisecond))
	warm := run("warm", false)
	fmt.Printf("warm grid (served from the disk cache): %s (target < 1 s)\n", warm.Round(time.Millisecond))
	reval := run("revalidate", true)
	fmt.Printf("revalidated grid (If-None-Match → 304): %s\n", reval.Round(time.Millisecond))
	entries, _ := os.ReadDir(filepath.Join(cfg.DataDir, "cache", "thumbnails"))
	var size int64
	for _, e := range entries {
		if fi, err := e.Info(); err == nil {
			size += fi.Size()
		}
	}
	fmt.Printf("cache: %d files, %.1f MB\n", len(entries), float64(size)/1e6)
}

// gridJPEG is a photo-like 1632×1224 JPEG (≈2 megapixels): smooth gradients with noise,
// different for each i (so every image has its own cache entry).
func gridJPEG(t testing.TB, i int) []byte {
	const w, h = 1632, 1224
	rng := rand.New(rand.NewPCG(uint64(i), 7))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			n := uint8(rng.IntN(24))
			img.SetRGBA(x, y, color.RGBA{uint8((x+i*7)*200/w) + n, uint8(y*200/h) + n, uint8((x+y+i)%200) + n, 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// cpuTime is the user+system CPU time of this process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
