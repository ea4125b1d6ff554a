package check

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// The figures of issue 29 (make bench): a full check of a 5,000-page portal (widgets, 10
// languages × 2,000 keys, 5,000 assets) and the check after a one-file save.

var (
	bigOnce sync.Once
	bigDir  string
	bigErr  error
)

const (
	bigPages     = 5000
	bigLanguages = 10
	bigKeys      = 2000
	bigAssets    = 5000
)

// bigPortal writes the portal once per test binary (into a folder removed by TestMain's
// caller: the system's temp folder, under one name).
func bigPortal(b testing.TB) string {
	bigOnce.Do(func() {
		bigDir, bigErr = os.MkdirTemp("", "pw-check-bench-")
		if bigErr == nil {
			bigErr = writeBigPortal(bigDir)
		}
	})
	if bigErr != nil {
		b.Fatal(bigErr)
	}
	return bigDir
}

func writeBigPortal(dir string) error {
	write := func(p, content string) error {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		return os.WriteFile(full, []byte(content), 0o644)
	}
	langs := []string{"en_GB", "fr_FR", "de_DE", "es_ES", "it_IT", "pt_PT", "nl_NL", "ar_SA", "zh_CN", "ja_JP"}
	if err := write("portal.json", `{"engineType":"PORTAL_ENGINE","supportLevel":"FULL","languageSettings":{"languages":["`+strings.Join(langs, `","`)+`"],"defaultLanguage":"en_GB","languageMode":"TRANSLATION","translationsBasePath":"translations"},"taskRunnerSettings":{"outputPath":"pw-dist"}}`); err != nil {
		return err
	}
	var sm strings.Builder
	sm.WriteString("[\n")
	for i := range bigPages {
		if i > 0 {
			sm.WriteString(",\n")
		}
		fmt.Fprintf(&sm, `  {"id": "page-%d", "title": "Page %d", "url": "/pages/page-%d.html", "parameters": [], "hidePage": false, "status": "PUBLISHED", "children": []}`, i, i, i)
	}
	sm.WriteString("\n]\n")
	if err := write("sitemap.json", sm.String()); err != nil {
		return err
	}
	if err := write("index.html", `<html><head><link rel="stylesheet" href="assets/css/portal.css"></head><body><a href="#/page-0" data-pw-t="TXT_KEY_0">Home</a><main data-pw-outlet></main></body></html>`); err != nil {
		return err
	}
	if err := write("assets/css/portal.css", "body { background: url(../img/asset-0.svg) }\n"); err != nil {
		return err
	}
	if err := write("widgets/modules/card/config.probe.json", `{"name":"Card","properties":[{"name":"title","editor":"TranslationSelector"},{"name":"image","editor":"AssetManager"},{"name":"page","editor":"PageSelector"},{"name":"link","editor":"LinkManager"}]}`); err != nil {
		return err
	}
	if err := write("widgets/modules/card/template.html", `<a href="#/{{page}}"><img src="{{image}}" alt="">{{title}}</a>`); err != nil {
		return err
	}
	for i := range bigPages {
		k := i % bigKeys
		page := fmt.Sprintf(`<article class="pw-page">
  <h1 data-pw-t="TXT_KEY_%d">Title %d</h1>
  <p data-pw-t="TXT_KEY_%d">Some text of the page, long enough to look like a page.</p>
  <img src="assets/img/asset-%d.svg" alt="">
  <a href="#/page-%d?x=1">Next</a>
  <div data-pw-widget="card-%d"></div>
</article>
`, k, i, (k+1)%bigKeys, i%bigAssets, (i+1)%bigPages, i)
		if err := write(fmt.Sprintf("pages/page-%d.html", i), page); err != nil {
			return err
		}
		widget := fmt.Sprintf(`{
  "type": "card",
  "data": {"title": "TXT_KEY_%d", "image": "assets/img/asset-%d.svg", "page": "page-%d", "link": {"type": "Internal", "value": "#/page-%d"}}
}
`, (k+2)%bigKeys, (i+1)%bigAssets, (i+2)%bigPages, (i+3)%bigPages)
		if err := write(fmt.Sprintf("widgets/database/card-%d.json", i), widget); err != nil {
			return err
		}
	}
	for i := range bigAssets {
		if err := write(fmt.Sprintf("assets/img/asset-%d.svg", i), `<svg xmlns="http://www.w3.org/2000/svg"/>`); err != nil {
			return err
		}
	}
	for li, l := range langs {
		var b strings.Builder
		b.WriteString("{\n")
		for k := range bigKeys {
			if k > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, `  "TXT_KEY_%d": "Text %d in language %d with a {name} and <b>bold</b> words"`, k, k, li)
		}
		b.WriteString("\n}\n")
		if err := write("translations/"+l+".json", b.String()); err != nil {
			return err
		}
	}
	return nil
}

// peakHeap samples the heap in use while fn runs.
func peakHeap(fn func()) uint64 {
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	fn()
	close(done)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapInuse > peak.Load() {
		peak.Store(ms.HeapInuse)
	}
	return peak.Load()
}

func BenchmarkFullCheck5000Pages(b *testing.B) {
	dir := bigPortal(b)
	runtime.GC()
	var rep Report
	var peak uint64
	c0 := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		peak = max(peak, peakHeap(func() {
			var err error
			rep, err = Run(context.Background(), DirTree(dir), Options{})
			if err != nil {
				b.Fatal(err)
			}
		}))
	}
	b.StopTimer()
	if rep.Summary.Errors != 0 || rep.Summary.Files < 2*bigPages+bigAssets {
		b.Fatalf("summary %+v:%s", rep.Summary, dump(Report{Findings: rep.Findings[:min(10, len(rep.Findings))]}))
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64((cpuTime()-c0).Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(rep.Summary.Files), "files")
}

func BenchmarkIncrementalOneFile(b *testing.B) {
	dir := bigPortal(b)
	tree := DirTree(dir)
	ix, err := NewIndex(context.Background(), tree)
	if err != nil {
		b.Fatal(err)
	}
	page := filepath.Join(dir, "pages", "page-7.html")
	orig, _ := os.ReadFile(page)
	defer os.WriteFile(page, orig, 0o644)
	var times, full []time.Duration
	var cpu time.Duration
	i := 0
	b.ResetTimer()
	for b.Loop() {
		i++
		content := string(orig) + fmt.Sprintf("<a href=\"#/page-%d\">x</a>\n", i%bigPages)
		b.StopTimer()
		os.WriteFile(page, []byte(content), 0o644)
		b.StartTimer()
		// The server's path: the saved file is known.
		t0, c0 := time.Now(), cpuTime()
		changed, err := ix.Update(context.Background(), tree, []string{"pages/page-7.html"})
		if err != nil {
			b.Fatal(err)
		}
		rep := ix.Report(Options{})
		times = append(times, time.Since(t0))
		cpu += cpuTime() - c0
		if len(changed) != 1 || rep.Summary.Errors != 0 {
			b.Fatalf("changed %v, %+v", changed, rep.Summary)
		}
		// Without knowing what changed: list the tree again.
		b.StopTimer()
		os.WriteFile(page, []byte(content+" "), 0o644)
		b.StartTimer()
		t0 = time.Now()
		if changed, err = ix.Refresh(context.Background(), tree); err != nil || len(changed) != 1 {
			b.Fatal(changed, err)
		}
		ix.Report(Options{})
		full = append(full, time.Since(t0))
	}
	b.StopTimer()
	b.ReportMetric(p95(times), "p95-ms")
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(len(times)), "cpu-ms/save")
	b.ReportMetric(p95(full), "p95-relist-ms")
}

func p95(times []time.Duration) float64 {
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	return float64(times[min(len(times)-1, len(times)*95/100)].Microseconds()) / 1000
}

// TestMain removes the benchmarks' portal.
func TestMain(m *testing.M) {
	code := m.Run()
	if bigDir != "" {
		os.RemoveAll(bigDir)
	}
	os.Exit(code)
}

// cpuTime is the CPU time the process used so far (user + system): on a shared machine the
// wall clock also measures the neighbours.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
