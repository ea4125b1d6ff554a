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
	for p, content := range genPortal(bigPages, bigLanguages, bigKeys, bigAssets) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// TestWriteBigPortal writes the benchmarks' portal into the folder $PORTALWRIGHT_BENCH_PORTAL
// (scripts/bench.sh measures the command on it: wall time and the process's peak RSS).
func TestWriteBigPortal(t *testing.T) {
	dir := os.Getenv("PORTALWRIGHT_BENCH_PORTAL")
	if dir == "" {
		t.Skip("PORTALWRIGHT_BENCH_PORTAL names no folder")
	}
	if err := writeBigPortal(dir); err != nil {
		t.Fatal(err)
	}
}

// genPortal is a portal-engine portal with nothing wrong: pages pages (each with a widget
// instance of the one widget type), languages languages × keys keys, assets assets.
func genPortal(pages, languages, keys, assets int) map[string]string {
	files := map[string]string{}
	langs := []string{"en_GB", "fr_FR", "de_DE", "es_ES", "it_IT", "pt_PT", "nl_NL", "ar_SA", "zh_CN", "ja_JP"}[:languages]
	files["portal.json"] = `{"engineType":"PORTAL_ENGINE","supportLevel":"FULL","languageSettings":{"languages":["` + strings.Join(langs, `","`) + `"],"defaultLanguage":"en_GB","languageMode":"TRANSLATION","translationsBasePath":"translations"},"taskRunnerSettings":{"outputPath":"pw-dist"}}`
	var sm strings.Builder
	sm.WriteString("[\n")
	for i := range pages {
		if i > 0 {
			sm.WriteString(",\n")
		}
		fmt.Fprintf(&sm, `  {"id": "page-%d", "title": "Page %d", "url": "/pages/page-%d.html", "parameters": [], "hidePage": false, "status": "PUBLISHED", "children": []}`, i, i, i)
	}
	sm.WriteString("\n]\n")
	files["sitemap.json"] = sm.String()
	files["index.html"] = `<html><head><link rel="stylesheet" href="assets/css/portal.css"></head><body><a href="#/page-0" data-pw-t="TXT_KEY_0">Home</a><main data-pw-outlet></main></body></html>`
	files["assets/css/portal.css"] = "body { background: url(../img/asset-0.svg) }\n"
	files["widgets/modules/card/config.probe.json"] = `{"name":"Card","properties":[{"name":"title","editor":"TranslationSelector"},{"name":"image","editor":"AssetManager"},{"name":"page","editor":"PageSelector"},{"name":"link","editor":"LinkManager"}]}`
	files["widgets/modules/card/template.html"] = `<a href="#/{{page}}"><img src="{{image}}" alt="">{{title}}</a>`
	for i := range pages {
		k := i % keys
		files[fmt.Sprintf("pages/page-%d.html", i)] = fmt.Sprintf(`<article class="pw-page">
  <h1 data-pw-t="TXT_KEY_%d">Title %d</h1>
  <p data-pw-t="TXT_KEY_%d">Some text of the page, long enough to look like a page.</p>
  <img src="assets/img/asset-%d.svg" alt="">
  <a href="#/page-%d?x=1">Next</a>
  <div data-pw-widget="card-%d"></div>
</article>
`, k, i, (k+1)%keys, i%assets, (i+1)%pages, i)
		files[fmt.Sprintf("widgets/database/card-%d.json", i)] = fmt.Sprintf(`{
  "type": "card",
  "data": {"title": "TXT_KEY_%d", "image": "assets/img/asset-%d.svg", "page": "page-%d", "link": {"type": "Internal", "value": "#/page-%d"}}
}
`, (k+2)%keys, (i+1)%assets, (i+2)%pages, (i+3)%pages)
	}
	for i := range assets {
		files[fmt.Sprintf("assets/img/asset-%d.svg", i)] = `<svg xmlns="http://www.w3.org/2000/svg"/>`
	}
	for li, l := range langs {
		var b strings.Builder
		b.WriteString("{\n")
		for k := range keys {
			if k > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, `  "TXT_KEY_%d": "Text %d in language %d with a {name} and <b>bold</b> words"`, k, k, li)
		}
		b.WriteString("\n}\n")
		files["translations/"+l+".json"] = b.String()
	}
	return files
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

// BenchmarkIncrementalOtherSaves: Update + Report after saves that move a portal-wide set or
// read a large file: a translation value (one language's file of 2,000 keys), a page title in
// the sitemap (5,000 pages), a widget instance, an asset uploaded or removed (the file list).
func BenchmarkIncrementalOtherSaves(b *testing.B) {
	dir := bigPortal(b)
	tree := DirTree(dir)
	ix, err := NewIndex(context.Background(), tree)
	if err != nil {
		b.Fatal(err)
	}
	saves := []struct {
		metric, path string
		edit         func(orig string, i int) string // "": remove the file
	}{
		{"cpu-ms/translation", "translations/fr_FR.json", func(o string, i int) string {
			return strings.Replace(o, "Text 5 in", fmt.Sprintf("Text %d in", i), 1)
		}},
		{"cpu-ms/sitemap-title", "sitemap.json", func(o string, i int) string {
			return strings.Replace(o, `"Page 5"`, fmt.Sprintf(`"Page 5 (%d)"`, i), 1)
		}},
		{"cpu-ms/widget", "widgets/database/card-9.json", func(o string, i int) string {
			return strings.Replace(o, `"page-11"`, fmt.Sprintf(`"page-%d"`, i%bigPages), 1)
		}},
		{"cpu-ms/asset", "assets/img/uploaded.svg", func(o string, i int) string {
			if i%2 == 0 {
				return ""
			}
			return "<svg/>"
		}},
	}
	cpu := make([]time.Duration, len(saves))
	origs := make([][]byte, len(saves))
	for k, sv := range saves {
		origs[k], _ = os.ReadFile(filepath.Join(dir, sv.path))
	}
	defer func() {
		for k, sv := range saves {
			if full := filepath.Join(dir, sv.path); origs[k] != nil {
				os.WriteFile(full, origs[k], 0o644)
			} else {
				os.Remove(full)
			}
		}
	}()
	i := 0
	for b.Loop() {
		i++
		for k, sv := range saves {
			b.StopTimer()
			full := filepath.Join(dir, sv.path)
			if c := sv.edit(string(origs[k]), i); c == "" {
				os.Remove(full)
			} else {
				os.WriteFile(full, []byte(c), 0o644)
			}
			b.StartTimer()
			c0 := cpuTime()
			if _, err := ix.Update(context.Background(), tree, []string{sv.path}); err != nil {
				b.Fatal(err)
			}
			ix.Report(Options{})
			cpu[k] += cpuTime() - c0
		}
	}
	for k, sv := range saves {
		b.ReportMetric(float64(cpu[k].Microseconds())/1000/float64(i), sv.metric)
	}
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
