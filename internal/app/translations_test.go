package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"portalwright/internal/config"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
	"portalwright/internal/workspace"
)

func TestTranslations(t *testing.T) { translationSuite(t, testConfig(t)) }

func TestTranslationsPostgres(t *testing.T) {
	cfg := testConfig(t)
	cfg.DatabaseURL = storetest.PostgresURL(t) // skips without TEST_DATABASE_URL
	translationSuite(t, cfg)
}

type translationsAnswer struct {
	LanguageMode    string                       `json:"languageMode"`
	DefaultLanguage string                       `json:"defaultLanguage"`
	Languages       []string                     `json:"languages"`
	Data            map[string]map[string]string `json:"data"`
	Versions        map[string]string            `json:"versions"`
}

type ruleErrorsBody struct {
	Data struct {
		RuleErrors []struct {
			Message  string `json:"message"`
			Key      string `json:"key"`
			Language string `json:"language"`
		} `json:"ruleErrors"`
		Path           string `json:"path"`
		CurrentVersion string `json:"currentVersion"`
		Language       string `json:"language"`
	} `json:"data"`
}

// translationSuite walks the translation, language and sitemap calls over HTTP on the demo
// crew portal (portal 1 of domain 1: en_GB, fr_FR, ar_SA in TRANSLATION mode).
func translationSuite(t *testing.T, cfg config.Config) {
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	tok := testkit.Login(t, srv.base, "admin", "admin-pass")
	api := srv.base + "/api/v1"
	call := func(method, path, body string) testkit.Reply {
		t.Helper()
		return testkit.Call(t, method, api+path, tok, body)
	}
	if got := call("GET", "/portal/1/1/open", ""); got.Status != 200 {
		t.Fatalf("open: %d %s", got.Status, got.Body)
	}
	var wsDir string
	filepath.WalkDir(filepath.Join(cfg.DataDir, "workspaces"), func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == ".git" && wsDir == "" {
			wsDir = filepath.Dir(p)
		}
		return nil
	})
	if wsDir == "" {
		t.Fatal("no workspace")
	}
	file := func(lang string) string { return filepath.Join(wsDir, "translations", lang+".json") }
	readFile := func(lang string) []byte {
		t.Helper()
		b, err := os.ReadFile(file(lang))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	get := func() translationsAnswer {
		t.Helper()
		got := call("GET", "/translation/1/1", "")
		if got.Status != 200 {
			t.Fatalf("get: %d %s", got.Status, got.Body)
		}
		var a translationsAnswer
		got.JSON(t, &a)
		return a
	}
	put := func(data map[string]map[string]any, versions map[string]string) testkit.Reply {
		t.Helper()
		b, _ := json.Marshal(map[string]any{"data": data, "versions": versions})
		return call("PUT", "/translation/1/1", string(b))
	}
	asAny := func(m map[string]string) map[string]any {
		out := map[string]any{}
		for k, v := range m {
			out[k] = v
		}
		return out
	}

	// Read: the template's three languages with their versions.
	tr := get()
	if tr.LanguageMode != "TRANSLATION" || tr.DefaultLanguage != "en_GB" || strings.Join(tr.Languages, ",") != "en_GB,fr_FR,ar_SA" ||
		len(tr.Data["en_GB"]) == 0 || tr.Data["fr_FR"]["IMG_LOGO"] == "" || tr.Versions["ar_SA"] == "" {
		t.Fatalf("get: %+v", tr)
	}

	// Status and report.
	var st struct {
		Language string `json:"language"`
		Default  bool   `json:"default"`
		Keys     map[string]struct {
			Status string `json:"status"`
			Reason string `json:"reason"`
		} `json:"keys"`
	}
	if got := call("GET", "/translation/1/1/status/fr_FR", ""); got.Status != 200 {
		t.Fatalf("status: %d %s", got.Status, got.Body)
	} else {
		got.JSON(t, &st)
	}
	if st.Language != "fr_FR" || st.Default || len(st.Keys) < len(tr.Data["en_GB"]) || st.Keys["IMG_LOGO"].Status != "COMPLETED" {
		t.Fatalf("status fr_FR: %+v", st)
	}
	if got := call("GET", "/translation/1/1/status/en_GB", ""); got.Status != 200 || !strings.Contains(got.Body, `"default":true`) {
		t.Fatalf("status en_GB: %d %s", got.Status, got.Body)
	}
	for _, path := range []string{"/translation/1/1/status/de_DE", "/translation/1/1/report/de_DE", "/translation/1/1/status/..%2Fportal"} {
		if got := call("GET", path, ""); got.Status != 404 || !strings.HasPrefix(got.Message, "Failed to load language ") {
			t.Fatalf("%s: %d %s", path, got.Status, got.Body)
		}
	}

	// A save: a new key (sent lower case) in en_GB and fr_FR, fr_FR's copy of a text flagged;
	// ar_SA sent unchanged is not rewritten.
	arBefore := readFile("ar_SA")
	en, fr := tr.Data["en_GB"], tr.Data["fr_FR"]
	en["txt_new_key"] = "Departure"
	fr["TXT_NEW_KEY"] = "Departure" // copied, not translated yet
	got := put(map[string]map[string]any{"en_GB": asAny(en), "fr_FR": asAny(fr), "ar_SA": asAny(tr.Data["ar_SA"])}, tr.Versions)
	if got.Status != 200 {
		t.Fatalf("save: %d %s", got.Status, got.Body)
	}
	var saved struct {
		Versions map[string]string `json:"versions"`
	}
	got.JSON(t, &saved)
	if saved.Versions["en_GB"] == tr.Versions["en_GB"] || saved.Versions["fr_FR"] == tr.Versions["fr_FR"] || saved.Versions["ar_SA"] != tr.Versions["ar_SA"] {
		t.Fatalf("versions: %+v (before %+v)", saved.Versions, tr.Versions)
	}
	if !bytes.Equal(readFile("ar_SA"), arBefore) {
		t.Fatal("ar_SA was rewritten")
	}
	enFile := string(readFile("en_GB"))
	if !strings.HasPrefix(enFile, "{\n  \"IMG_") || !strings.HasSuffix(enFile, "\"\n}\n") || !strings.Contains(enFile, `"TXT_NEW_KEY": "Departure"`) ||
		strings.Contains(enFile, "txt_new_key") || strings.Index(enFile, `"TXT_ABOUT_TEXT"`) > strings.Index(enFile, `"TXT_NEW_KEY"`) {
		t.Fatalf("en_GB.json as written:\n%s", enFile)
	}
	if lc := call("GET", "/portal/1/1/local-changes", ""); !strings.Contains(lc.Body, `"translations/en_GB.json":"MODIFY"`) ||
		!strings.Contains(lc.Body, `"translations/fr_FR.json":"MODIFY"`) || strings.Contains(lc.Body, "ar_SA") {
		t.Fatalf("local changes: %s", lc.Body)
	}
	tr2 := get()
	if tr2.Versions["en_GB"] != saved.Versions["en_GB"] || tr2.Data["fr_FR"]["TXT_NEW_KEY"] != "Departure" {
		t.Fatalf("read after save: %+v", tr2.Versions)
	}
	got = call("GET", "/translation/1/1/status/fr_FR", "")
	got.JSON(t, &st)
	if k := st.Keys["TXT_NEW_KEY"]; k.Status != "INCOMPLETE" || k.Reason != "REQUIRED" {
		t.Fatalf("copied key: %+v", k)
	}
	got = call("GET", "/translation/1/1/status/en_GB", "")
	got.JSON(t, &st)
	if k := st.Keys["TXT_NEW_KEY"]; k.Status != "INCOMPLETE" || k.Reason != "KEY_MISSING_IN_OTHERS" {
		t.Fatalf("key missing in ar_SA, seen from the default: %+v", k)
	}

	// Report: counts add up, only unfinished keys, sorted; the CSV attachment.
	var rep struct {
		Language                              string `json:"language"`
		Total, Completed, Incomplete, Missing int
		Keys                                  []struct{ Key, Status, Reason, Value, DefaultValue string }
	}
	got = call("GET", "/translation/1/1/report/ar_SA", "")
	got.JSON(t, &rep)
	if got.Status != 200 || rep.Total != rep.Completed+rep.Incomplete+rep.Missing || rep.Missing < 1 || len(rep.Keys) != rep.Incomplete+rep.Missing {
		t.Fatalf("report: %d %+v", got.Status, rep)
	}
	for i, k := range rep.Keys {
		if k.Status == "COMPLETED" || (i > 0 && rep.Keys[i-1].Key >= k.Key) {
			t.Fatalf("report keys: %+v", rep.Keys)
		}
		if k.Key == "TXT_NEW_KEY" && (k.Reason != "KEY_MISSING" || k.DefaultValue != "Departure") {
			t.Fatalf("report key: %+v", k)
		}
	}
	got = call("GET", "/translation/1/1/report/ar_SA?format=csv", "")
	if got.Status != 200 || !strings.HasPrefix(got.Header.Get("Content-Type"), "text/csv") ||
		got.Header.Get("Content-Disposition") != `attachment; filename=translation-report-ar_SA.csv` ||
		!strings.HasPrefix(got.Body, "key,status,reason,defaultValue,value\n") || !strings.Contains(got.Body, "TXT_NEW_KEY,MISSING,KEY_MISSING,Departure,\n") {
		t.Fatalf("csv: %d %v %s", got.Status, got.Header, got.Body)
	}

	// Refusals; none changes a file.
	enNow, frNow := readFile("en_GB"), readFile("fr_FR")
	unchanged := func(what string) {
		t.Helper()
		if !bytes.Equal(readFile("en_GB"), enNow) || !bytes.Equal(readFile("fr_FR"), frNow) || !bytes.Equal(readFile("ar_SA"), arBefore) {
			t.Fatalf("%s changed a file", what)
		}
	}
	v := saved.Versions
	withKey := func(set map[string]string, k, val string) map[string]any {
		m := asAny(set)
		m[k] = val
		return m
	}
	var body ruleErrorsBody
	// A stale version (the one before the save) on en_GB: 409, fr_FR not written either.
	got = put(map[string]map[string]any{"fr_FR": withKey(fr, "TXT_NEW_KEY", "Départ"), "en_GB": withKey(en, "TXT_X", "x")},
		map[string]string{"fr_FR": v["fr_FR"], "en_GB": tr.Versions["en_GB"]})
	json.Unmarshal([]byte(got.Body), &body)
	if got.Status != 409 || got.Code != "FILE_CHANGED" || body.Data.Path != "translations/en_GB.json" || body.Data.CurrentVersion != v["en_GB"] || body.Data.Language != "en_GB" {
		t.Fatalf("stale: %d %s", got.Status, got.Body)
	}
	unchanged("a stale save")
	// A stale version on a file whose content would not change is refused too.
	got = put(map[string]map[string]any{"ar_SA": asAny(tr.Data["ar_SA"])}, map[string]string{"ar_SA": v["en_GB"]})
	if got.Status != 409 || got.Code != "FILE_CHANGED" {
		t.Fatalf("stale unchanged: %d %s", got.Status, got.Body)
	}
	// No version.
	got = put(map[string]map[string]any{"fr_FR": withKey(fr, "TXT_NEW_KEY", "Départ")}, map[string]string{})
	if got.Status != 428 || got.Code != "VERSION_REQUIRED" {
		t.Fatalf("no version: %d %s", got.Status, got.Body)
	}
	// A language the portal does not have.
	got = put(map[string]map[string]any{"fr_FR": asAny(fr), "de_DE": {"TXT_A": "a"}}, map[string]string{"fr_FR": v["fr_FR"], "de_DE": ""})
	if got.Status != 400 || got.Code != "CONTENT_VALIDATION_FAILED" {
		t.Fatalf("unknown language: %d %s", got.Status, got.Body)
	}
	// Key rules: no prefix, duplicates once upper-cased, a value that is not text.
	for _, c := range []struct {
		key  string
		val  any
		want string
	}{
		{"HELLO", "x", "There is no translation key for this widget"},
		{"txt_about_title", "x", "Translation key 'TXT_ABOUT_TITLE' already exists"},
		{"TXT_NUMBER", 12, "The value of translation key 'TXT_NUMBER' must be a text."},
		{"TXT_NULL", nil, "The value of translation key 'TXT_NULL' must be a text."},
	} {
		m := asAny(fr)
		m[c.key] = c.val
		got = put(map[string]map[string]any{"fr_FR": m, "en_GB": withKey(en, "TXT_FINE", "fine")}, v)
		body = ruleErrorsBody{}
		json.Unmarshal([]byte(got.Body), &body)
		if got.Status != 422 || got.Code != "CONTENT_VALIDATION_FAILED" || got.Message != c.want || len(body.Data.RuleErrors) != 1 ||
			body.Data.RuleErrors[0].Message != c.want || body.Data.RuleErrors[0].Key != c.key || body.Data.RuleErrors[0].Language != "fr_FR" {
			t.Fatalf("key %s: %d %s", c.key, got.Status, got.Body)
		}
	}
	for _, bad := range []string{`{}`, `{"data":{"fr_FR":"x"}}`, `{"data":{"fr_FR":{"TXT_A":"a"}},"versions":"x"}`, `[]`, `{"data":{"fr_FR":null},"versions":{"fr_FR":""}}`} {
		if got := call("PUT", "/translation/1/1", bad); got.Status != 400 {
			t.Fatalf("%s: %d %s", bad, got.Status, got.Body)
		}
	}
	// The third file cannot be written (a folder stands where ar_SA.json would go): refused
	// before the first two are touched.
	os.Rename(file("ar_SA"), file("ar_SA")+".bak")
	os.MkdirAll(filepath.Join(file("ar_SA"), "x"), 0o755)
	got = put(map[string]map[string]any{"en_GB": withKey(en, "TXT_Y", "y"), "fr_FR": withKey(fr, "TXT_Y", "y"), "ar_SA": {"TXT_Y": "ي"}},
		map[string]string{"en_GB": v["en_GB"], "fr_FR": v["fr_FR"], "ar_SA": ""})
	if got.Status < 400 {
		t.Fatalf("a save over a folder: %d %s", got.Status, got.Body)
	}
	os.RemoveAll(file("ar_SA"))
	os.Rename(file("ar_SA")+".bak", file("ar_SA"))
	unchanged("a failed save")

	// A missing file reads as {} with version "", and is created by a save based on "".
	os.Remove(file("ar_SA"))
	if tr3 := get(); len(tr3.Data["ar_SA"]) != 0 || tr3.Versions["ar_SA"] != "" {
		t.Fatalf("missing file: %+v %+v", tr3.Data["ar_SA"], tr3.Versions)
	}
	got = put(map[string]map[string]any{"ar_SA": {"TXT_HELLO": "مرحبا"}}, map[string]string{"ar_SA": ""})
	if got.Status != 200 || string(readFile("ar_SA")) != "{\n  \"TXT_HELLO\": \"مرحبا\"\n}\n" {
		t.Fatalf("create: %d %s", got.Status, got.Body)
	}
	// A file that is not a JSON object of texts.
	os.WriteFile(file("fr_FR"), []byte(`{"TXT_A": 1}`), 0o644)
	if got := call("GET", "/translation/1/1", ""); got.Status != 422 || got.Message != "Could not load translation data for lang 'fr_FR'" {
		t.Fatalf("unparseable: %d %s", got.Status, got.Body)
	}
	if got := call("GET", "/translation/1/1/status/en_GB", ""); got.Status != 422 {
		t.Fatalf("status over an unparseable file: %d", got.Status)
	}
	// A save based on the broken file's version replaces it.
	got = put(map[string]map[string]any{"fr_FR": {"TXT_A": "a"}}, map[string]string{"fr_FR": string(workspace.VersionOf([]byte(`{"TXT_A": 1}`)))})
	if got.Status != 200 || string(readFile("fr_FR")) != "{\n  \"TXT_A\": \"a\"\n}\n" {
		t.Fatalf("replacing a broken file: %d %s", got.Status, got.Body)
	}

	// A save of every language at once may be larger than other JSON calls' 1 MiB.
	big := map[string]map[string]any{}
	for _, l := range []string{"en_GB", "fr_FR", "ar_SA"} {
		m := map[string]any{}
		for i := range 5000 {
			m[fmt.Sprintf("TXT_KEY_%05d", i)] = strings.Repeat(l+" ", 20)
		}
		big[l] = m
	}
	if b, _ := json.Marshal(big); len(b) < 1<<20 {
		t.Fatalf("the big save is only %d bytes", len(b))
	}
	if got := put(big, get().Versions); got.Status != 200 {
		t.Fatalf("big save: %d %.300s", got.Status, got.Body)
	}
	if tr5 := get(); len(tr5.Data["ar_SA"]) != 5000 {
		t.Fatalf("big save read back: %d keys", len(tr5.Data["ar_SA"]))
	}
	if got := call("PUT", "/translation/1/1", `{"data":{"fr_FR":{"TXT_A":"`+strings.Repeat("a", 17<<20)+`"}}}`); got.Status != 413 {
		t.Fatalf("over the limit: %d %.300s", got.Status, got.Body)
	}

	// Languages.
	var langs []struct{ Code, DefaultName, NativeName, Direction, Alpha2, Alpha3b string }
	got = call("GET", "/language", "")
	got.JSON(t, &langs)
	found := false
	for _, l := range langs {
		found = found || (l.Code == "ar_SA" && l.Direction == "rtl" && l.Alpha3b == "ara")
	}
	if got.Status != 200 || len(langs) < 300 || !found {
		t.Fatalf("languages: %d, %d entries", got.Status, len(langs))
	}
	if got := call("GET", "/language/fr_FR", ""); got.Status != 200 ||
		got.Body != `{"code":"fr_FR","defaultName":"French (France)","nativeName":"français (France)","direction":"ltr","alpha2":"fr","alpha3b":"fre"}`+"\n" {
		t.Fatalf("fr_FR: %d %q", got.Status, got.Body)
	}
	if got := call("GET", "/language/xx_YY", ""); got.Status != 404 || got.Message != "Failed to load language xx_YY" {
		t.Fatalf("unknown language: %d %s", got.Status, got.Body)
	}

	// Sitemap.
	var root struct {
		ID, Title, URL string
		IsMaster       bool
		Children       []struct {
			ID       string
			Children []struct {
				ID         string
				Parameters []struct {
					Name     string
					Required bool
				}
			}
		}
	}
	got = call("GET", "/page/1/1/sitemap", "")
	got.JSON(t, &root)
	if got.Status != 200 || root.ID != "master-page" || root.Title != "Master Page" || root.URL != "/index.html" || !root.IsMaster || len(root.Children) < 2 {
		t.Fatalf("sitemap: %d %s", got.Status, got.Body)
	}
	sitemap := filepath.Join(wsDir, "sitemap.json")
	os.WriteFile(sitemap, []byte("[{"), 0o644)
	if got := call("GET", "/page/1/1/sitemap", ""); got.Status != 500 || got.Message != "Failed to retrieve Sitemap." {
		t.Fatalf("broken sitemap: %d %s", got.Status, got.Body)
	}
	os.Remove(sitemap)
	if got := call("GET", "/page/1/1/sitemap", ""); got.Status != 200 || !strings.Contains(got.Body, `"children":[]`) {
		t.Fatalf("no sitemap: %d %s", got.Status, got.Body)
	}
}
