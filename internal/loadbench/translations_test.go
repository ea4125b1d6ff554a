package loadbench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// Issue 11's translation figures (make bench): the real binary on loopback.

// benchLanguages are the five languages of the translation benchmark's portal.
var benchLanguages = []string{"en_GB", "fr_FR", "ar_SA", "de_DE", "es_ES"}

// TestTranslationSaveAll: the demo crew portal (domain 1, portal 1) with 5,000 keys in 5
// languages (portal.json and translations/<lang>.json written into the admin's workspace,
// about 370 KB of JSON a language), then, sequentially, 20 times each
// (PORTALWRIGHT_BENCH_TRANSLATION_CALLS): GET /translation (every language with its
// version), GET /translation/…/status/fr_FR, and PUT /translation changing one value in every
// language (so all five files are rewritten, all or nothing). Medians and p90.
// Target: save-all < 500 ms.
func TestTranslationSaveAll(t *testing.T) {
	bin := benchEnv(t)
	const keys = 5000
	calls := envInt("PORTALWRIGHT_BENCH_TRANSLATION_CALLS", 20)

	s := newServer(t, bin, "")
	s.start()
	admin := s.login("admin", adminPassword)
	s.must(admin, "GET", "portal/1/1/open", "")
	ws := filepath.Join(s.data, "workspaces", "1", "1")
	writeTranslationPortal(t, ws, keys)

	const base = "translation/1/1"
	var all struct {
		Data     map[string]map[string]string `json:"data"`
		Versions map[string]string            `json:"versions"`
	}
	if err := json.Unmarshal(s.must(admin, "GET", base, ""), &all); err != nil {
		t.Fatal(err)
	}
	for _, l := range benchLanguages {
		if len(all.Data[l]) != keys {
			t.Fatalf("%s: %d keys, want %d", l, len(all.Data[l]), keys)
		}
	}
	var wire int
	for _, l := range benchLanguages {
		b, _ := json.Marshal(all.Data[l])
		wire += len(b)
	}
	fmt.Printf("== Translations (issue 11): %d keys in %d languages (%d KB of values) ==\n", keys, len(benchLanguages), wire>>10)

	timed := func(name string, f func(i int)) {
		lat := make([]time.Duration, 0, calls)
		for i := range calls {
			t0 := time.Now()
			f(i)
			lat = append(lat, time.Since(t0))
		}
		sort.Slice(lat, func(a, b int) bool { return lat[a] < lat[b] })
		fmt.Printf("  %-44s median %9s   p90 %9s   (%d calls)\n", name, ms(lat[len(lat)/2]), ms(lat[len(lat)*9/10]), calls)
		if name == "save all (PUT, 5 files rewritten)" {
			fmt.Printf("translation save-all, %d keys x %d languages: median %s (target < 500 ms)\n", keys, len(benchLanguages), ms(lat[len(lat)/2]))
		}
	}
	timed("read all (GET /translation)", func(int) { s.must(admin, "GET", base, "") })
	timed("status of fr_FR (GET …/status/fr_FR)", func(int) { s.must(admin, "GET", base+"/status/fr_FR", "") })
	timed("save all (PUT, 5 files rewritten)", func(i int) {
		for _, l := range benchLanguages {
			all.Data[l]["TXT_KEY_00042"] = fmt.Sprintf("%s value %d", l, i)
		}
		body, _ := json.Marshal(map[string]any{"data": all.Data, "versions": all.Versions})
		var saved struct {
			Versions map[string]string `json:"versions"`
		}
		if err := json.Unmarshal(s.must(admin, "PUT", base, string(body)), &saved); err != nil {
			t.Fatal(err)
		}
		all.Versions = saved.Versions
	})
}

// writeTranslationPortal gives the workspace's portal.json the five languages and writes
// keys TXT_ keys (with some IMG_ and LNK_) per language, a sentence each.
func writeTranslationPortal(t *testing.T, ws string, keys int) {
	t.Helper()
	settingsFile := filepath.Join(ws, "portal.json")
	raw, err := os.ReadFile(settingsFile)
	if err != nil {
		t.Fatal(err)
	}
	var settings map[string]any
	if err := json.Unmarshal(raw, &settings); err != nil {
		t.Fatal(err)
	}
	ls, _ := settings["languageSettings"].(map[string]any)
	if ls == nil || ls["languageMode"] != "TRANSLATION" {
		t.Fatalf("portal 1 is not a TRANSLATION portal: %s", raw)
	}
	ls["languages"], ls["defaultLanguage"] = benchLanguages, "en_GB"
	out, _ := json.MarshalIndent(settings, "", "  ")
	if err := os.WriteFile(settingsFile, append(out, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, l := range benchLanguages {
		m := make(map[string]string, keys)
		for i := range keys {
			switch {
			case i%50 == 1:
				m[fmt.Sprintf("IMG_KEY_%05d", i)] = fmt.Sprintf("assets/img/picture-%d.png", i)
			case i%50 == 2:
				m[fmt.Sprintf("LNK_KEY_%05d", i)] = fmt.Sprintf("https://example.org/%s/%d", strings.ToLower(l), i)
			default:
				m[fmt.Sprintf("TXT_KEY_%05d", i)] = fmt.Sprintf("%s: the text of key %d, a sentence of some length for the crew.", l, i)
			}
		}
		data, _ := json.MarshalIndent(m, "", "  ")
		if err := os.WriteFile(filepath.Join(ws, "translations", l+".json"), append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
