package loadbench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net"
	"net/http"
	"net/textproto"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Issue 10's asset API figures (make bench): the real binary on loopback.

// listFolder is the folder of the listing benchmark, relative to a workspace.
const listFolder = "assets/bench-list"

// TestAssetFolderListing: a folder of 1,000 small PNGs of varied sizes (so every child has
// dimensions, read from its header) in the workspace of each of 4 authors (asset_read
// through their group, bearer tokens as the web sends them); GET
// /api/v1/assets/1/1/src/assets/bench-list by 64 concurrent closed-loop clients (16 per
// author) for 10 s (PORTALWRIGHT_BENCH_ASSET_SECONDS), 3 rounds
// (PORTALWRIGHT_BENCH_ROUNDS); requests/s, p50 and p99 per round and their medians.
// Targets: ≥ 2,000 requests/s, p99 < 50 ms.
func TestAssetFolderListing(t *testing.T) {
	bin := benchEnv(t)
	const files, users = 1000, 4
	clients := envInt("PORTALWRIGHT_BENCH_ASSET_CLIENTS", 64)
	seconds := envInt("PORTALWRIGHT_BENCH_ASSET_SECONDS", 10)
	rounds := envInt("PORTALWRIGHT_BENCH_ROUNDS", 3)

	s := newServer(t, bin, "")
	s.start()
	admin := s.login("admin", adminPassword)
	s.must(admin, "GET", "portal/1/1/open", "")
	ids, names := s.addUsers("assets-", users)
	grantGroup(t, s, "asset_read")

	// The PNGs: made once, written into each author's workspace (opened by the product).
	pngs := make([][]byte, files)
	var total int
	for i := range pngs {
		pngs[i] = smallPNG(t, i)
		total += len(pngs[i])
	}
	tokens := make([]string, users)
	for u := range users {
		tokens[u] = s.login(names[u], adminPassword)
		s.must(tokens[u], "GET", "portal/1/1/open", "")
		dir := filepath.Join(s.data, "workspaces", strconv.FormatInt(ids[u], 10), "1", filepath.FromSlash(listFolder))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i, data := range pngs {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("image-%04d.png", i)), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	path := "assets/1/1/src/" + listFolder

	// Check one answer: 1,000 children, each with its dimensions.
	_, body, err := s.do(tokens[0], "GET", path, "")
	if err != nil {
		t.Fatal(err)
	}
	var folder struct {
		Children []struct {
			Name       string
			Width      int
			Height     int
			Dimensions string
		}
	}
	if err := json.Unmarshal(body, &folder); err != nil || len(folder.Children) != files {
		t.Fatalf("listing: %d children (%v): %.300s", len(folder.Children), err, body)
	}
	for _, c := range folder.Children {
		if c.Width == 0 || c.Height == 0 || c.Dimensions == "" {
			t.Fatalf("%s has no dimensions: %+v", c.Name, c)
		}
	}
	_, wire, _, _ := s.doRaw(tokens[0], "GET", path, "")

	fmt.Printf("== Asset folder listing (issue 10): %d PNGs (%d KB), %d clients of %d authors, %d rounds of %ds ==\n",
		files, total>>10, clients, users, rounds, seconds)
	fmt.Printf("  answer %d KB JSON, %d KB sent (gzip)\n", len(body)>>10, len(wire)>>10)
	var p50s, p99s []time.Duration
	var rps, cores, perReq []float64
	for r := range rounds {
		cpu0 := cpuSeconds(s.pid())
		res := s.load(clients, time.Duration(seconds)*time.Second, 1<<30, func(c, _ int) request {
			return request{name: "list", method: "GET", path: path, token: tokens[c%users]}
		})
		cpu := cpuSeconds(s.pid()) - cpu0
		f := summarise(res.all, res.errors, res.elapsed)
		fmt.Printf("  round %d: %6.0f requests/s   p50 %9s   p99 %9s   server CPU %.2f cores (%.1f ms a request)   errors %d\n",
			r+1, f.rps, ms(f.p50), ms(f.p99), cpu/res.elapsed.Seconds(), 1000*cpu/float64(max(1, f.n)), res.errors)
		if res.errors > 0 {
			t.Errorf("round %d: %d errors, first: %s", r+1, res.errors, res.firstErr)
		}
		p50s, p99s = append(p50s, f.p50), append(p99s, f.p99)
		rps, cores = append(rps, f.rps), append(cores, cpu/res.elapsed.Seconds())
		perReq = append(perReq, 1000*cpu/float64(max(1, f.n)))
	}
	fmt.Printf("listing 1,000 assets: median %.0f requests/s (target ≥ 2000)   p50 %s   p99 %s (target < 50 ms)   server CPU %.2f cores, %.1f ms a request\n",
		medianFloat(rps), ms(medianDur(p50s)), ms(medianDur(p99s)), medianFloat(cores), medianFloat(perReq))
}

// grantGroup adds permissions to the group addUsers makes ("bench authors" of domain 1).
func grantGroup(t *testing.T, s *server, perms ...string) {
	t.Helper()
	db, pg := s.db()
	defer db.Close()
	q := "INSERT INTO group_permissions (group_id, permission) SELECT id, ? FROM permission_groups WHERE domain_id = 1 AND name_key = 'bench authors'"
	if pg {
		q = strings.Replace(q, "?", "$1", 1)
	}
	for _, p := range perms {
		if _, err := db.Exec(q, p); err != nil {
			t.Fatal(err)
		}
	}
}

// smallPNG is a PNG of its own size (between 16×16 and 335×215), a gradient so it is not
// trivially small.
func smallPNG(t *testing.T, i int) []byte {
	w, h := 16+(i*37)%320, 16+(i*53)%200
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x + i), uint8(y * 3), uint8(i), 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestAssetUpload: a 300 MB video (PORTALWRIGHT_BENCH_UPLOAD_MB) uploaded through POST
// /api/v1/assets/1/1/multi/src/assets/bench-upload (multipart, field "files", with its
// Content-Length as a browser sends it), the video limit raised to 400 MB
// (PORTALWRIGHT_ASSET_LIMIT_VIDEO). The body is generated as it is sent (the client holds
// 1 MB). The server's VmRSS is sampled every 5 ms: its growth over the RSS before the
// upload. Against it, in the same round: a raw loopback copy of the same bytes, an HTTP PUT
// to a trivial handler in the test process that io.Copy's the body to a file in the same
// temp dir. 3 rounds (PORTALWRIGHT_BENCH_ROUNDS), each raw then upload; medians.
// Targets: RSS growth < 64 MB, upload throughput ≥ 70 % of the raw copy.
func TestAssetUpload(t *testing.T) {
	bin := benchEnv(t)
	size := int64(envInt("PORTALWRIGHT_BENCH_UPLOAD_MB", 300)) << 20
	rounds := envInt("PORTALWRIGHT_BENCH_ROUNDS", 3)
	t.Setenv("PORTALWRIGHT_ASSET_LIMIT_VIDEO", strconv.Itoa(400<<20))

	s := newServer(t, bin, "")
	s.start()
	admin := s.login("admin", adminPassword)
	s.must(admin, "GET", "portal/1/1/open", "")
	uploaded := filepath.Join(s.data, "workspaces", "1", "1", "assets", "bench-upload")

	// The raw copy: a trivial handler writing the body to a file beside the server's data.
	rawDir := filepath.Join(filepath.Dir(s.data), "raw")
	if err := os.MkdirAll(rawDir, 0o755); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	raw := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, err := os.Create(filepath.Join(rawDir, "upload.bin"))
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		n, err := io.Copy(f, r.Body)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil || n != r.ContentLength {
			http.Error(w, fmt.Sprint(n, err), 500)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})}
	go raw.Serve(ln)
	t.Cleanup(func() { raw.Close() })
	rawURL := "http://" + ln.Addr().String() + "/"

	send := func(method, url, token, contentType string, body io.Reader, length int64) (time.Duration, int, string) {
		req, err := http.NewRequest(method, url, body)
		if err != nil {
			t.Fatal(err)
		}
		req.ContentLength = length
		req.Header.Set("Content-Type", contentType)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		t0 := time.Now()
		resp, err := s.client.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, url, err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return time.Since(t0), resp.StatusCode, string(data)
	}

	fmt.Printf("== Asset upload (issue 10): %d MB video, multipart, %d rounds ==\n", size>>20, rounds)
	var growths, ratios, rates, rawRates []float64
	for r := range rounds {
		_ = os.Remove(filepath.Join(rawDir, "upload.bin"))
		rawTime, code, msg := send("PUT", rawURL, "", "application/octet-stream", newFiller(size, r), size)
		if code != http.StatusNoContent {
			t.Fatalf("raw copy: %d %s", code, msg)
		}
		_ = os.Remove(filepath.Join(rawDir, "upload.bin"))

		name := fmt.Sprintf("bench-%d.mp4", r)
		body, length, ctype := multipartBody(name, size, r)
		before := vmRSS(s.pid())
		stop := make(chan struct{})
		var peak int64
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			tick := time.NewTicker(5 * time.Millisecond)
			defer tick.Stop()
			for {
				peak = max(peak, vmRSS(s.pid()))
				select {
				case <-stop:
					return
				case <-tick.C:
				}
			}
		}()
		upTime, code, msg := send("POST", s.base+"/api/v1/assets/1/1/multi/src/assets/bench-upload", admin, ctype, body, length)
		close(stop)
		wg.Wait()
		peak = max(peak, vmRSS(s.pid()))
		if code != http.StatusOK || !strings.Contains(msg, name) {
			t.Fatalf("upload: %d %.300s", code, msg)
		}
		if fi, err := os.Stat(filepath.Join(uploaded, name)); err != nil || fi.Size() != size {
			t.Fatalf("uploaded file: %v %v", fi, err)
		}
		_ = os.Remove(filepath.Join(uploaded, name))

		mb := float64(size) / (1 << 20)
		growth := float64(peak-before) / 1024
		rate, rawRate := mb/upTime.Seconds(), mb/rawTime.Seconds()
		fmt.Printf("  round %d: upload %s (%.0f MB/s)   raw copy %s (%.0f MB/s)   ratio %.0f%%   server RSS %d → peak %d MB (+%.1f MB)\n",
			r+1, upTime.Round(time.Millisecond), rate, rawTime.Round(time.Millisecond), rawRate, 100*rate/rawRate,
			before>>10, peak>>10, growth)
		growths, ratios = append(growths, growth), append(ratios, rate/rawRate)
		rates, rawRates = append(rates, rate), append(rawRates, rawRate)
	}
	fmt.Printf("upload of %d MB: server RSS growth median +%.1f MB (target < 64 MB)   throughput median %.0f MB/s = %.0f%% of the raw loopback copy's %.0f MB/s (target ≥ 70%%)\n",
		size>>20, medianFloat(growths), medianFloat(rates), 100*medianFloat(ratios), medianFloat(rawRates))
}

// vmRSS is a process's resident set size in KB (from /proc).
func vmRSS(pid int) int64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

// filler is n bytes of noise made as they are read: one random MB, repeated.
type filler struct {
	block []byte
	left  int64
	off   int
}

func newFiller(n int64, seed int) *filler {
	block := make([]byte, 1<<20)
	rng := rand.New(rand.NewPCG(uint64(seed), 11))
	for i := 0; i+8 <= len(block); i += 8 {
		v := rng.Uint64()
		for j := range 8 {
			block[i+j] = byte(v >> (8 * j))
		}
	}
	return &filler{block: block, left: n}
}

func (f *filler) Read(p []byte) (int, error) {
	if f.left == 0 {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), f.left)]
	n := 0
	for n < len(p) {
		c := copy(p[n:], f.block[f.off:])
		n += c
		f.off = (f.off + c) % len(f.block)
	}
	f.left -= int64(n)
	return n, nil
}

// multipartBody is a multipart/form-data body with one file (field "files") of size bytes,
// streamed: its length is known up front (the Content-Length a browser sends).
func multipartBody(name string, size int64, seed int) (io.Reader, int64, string) {
	var head, tail bytes.Buffer
	mw := multipart.NewWriter(&head)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="files"; filename=%q`, name))
	h.Set("Content-Type", "video/mp4")
	if _, err := mw.CreatePart(h); err != nil {
		panic(err)
	}
	tw := multipart.NewWriter(&tail)
	_ = tw.SetBoundary(mw.Boundary())
	_ = tw.Close() // writes the closing boundary
	// The closing boundary of a fresh writer starts without the CRLF that ends a part's body.
	closing := "\r\n" + strings.TrimPrefix(tail.String(), "\r\n")
	body := io.MultiReader(bytes.NewReader(head.Bytes()), newFiller(size, seed), strings.NewReader(closing))
	return body, int64(head.Len()) + size + int64(len(closing)), mw.FormDataContentType()
}
