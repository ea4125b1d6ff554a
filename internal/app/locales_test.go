package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"portalwright/internal/config"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
)

// Issue 24 item 7 over HTTP with a real repository served by git daemon: real-world locale
// files (nested JSON, named en.json, pt-br.json, fr.json) are read by the Translation Manager
// through the portal's language settings, and a save writes them back nested, in place (key
// order, indentation and untouched bytes kept); the commit reaches the host as written.
func TestLocaleFiles(t *testing.T) { localeSuite(t, testConfig(t)) }

func TestLocaleFilesPostgres(t *testing.T) {
	cfg := testConfig(t)
	cfg.DatabaseURL = storetest.PostgresURL(t) // skips without TEST_DATABASE_URL
	localeSuite(t, cfg)
}

// The host's locale files: four-space indentation and keys out of alphabetical order in
// en.json, tabs in pt-br.json (which lacks a key), CRLF in fr.json.
const (
	localeEN   = "{\n    \"nav\": {\n        \"home\": \"Home\",\n        \"about\": \"About us\"\n    },\n    \"footer\": {\n        \"legal\": \"Legal notice\",\n        \"copyright\": \"© Demo <b>Airline</b>\"\n    },\n    \"title\": \"Welcome\"\n}\n"
	localePTBR = "{\n\t\"nav\": {\n\t\t\"home\": \"Início\",\n\t\t\"about\": \"Sobre nós\"\n\t},\n\t\"footer\": {\n\t\t\"legal\": \"Aviso legal\"\n\t},\n\t\"title\": \"Bem-vindo\"\n}\n"
	localeFR   = "{\r\n  \"nav\": {\r\n    \"home\": \"Accueil\",\r\n    \"about\": \"\\u00c0 propos\"\r\n  },\r\n  \"footer\": {\r\n    \"legal\": \"Mentions légales\",\r\n    \"copyright\": \"© Demo <b>Airline</b>\"\r\n  },\r\n  \"title\": \"Bienvenue\"\r\n}\r\n"
)

// newLocaleRepo makes a bare repository root/site.git with nested locale files.
func newLocaleRepo(t *testing.T, root string) string {
	t.Helper()
	return newHostRepo(t, root, "site.git", map[string]string{
		"index.html":         "<h1>Site</h1>\n",
		"locales/en.json":    localeEN,
		"locales/pt-br.json": localePTBR,
		"locales/fr.json":    localeFR,
	})
}

func localeSuite(t *testing.T, cfg config.Config) {
	h := startGitHosted(t, cfg, "Locales")
	call := h.call
	bare := newLocaleRepo(t, h.hosts)

	// Import and open.
	p, id := h.importPortal(t, "Site", "site.git")
	pid := strconv.FormatInt(id, 10)
	wsFile := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(cfg.DataDir, "workspaces", "1", pid, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	// The language settings: the translations are in locales/, en_GB (default), pt_BR, fr_FR.
	read := call("GET", "/settings/"+p, "")
	if read.Status != 200 {
		t.Fatalf("settings: %d %s", read.Status, read.Body)
	}
	var settings map[string]any
	read.JSON(t, &settings)
	settings["languageSettings"] = map[string]any{"languages": []string{"en_GB", "pt_BR", "fr_FR"}, "defaultLanguage": "en_GB",
		"languageMode": "TRANSLATION", "translationsBasePath": "locales"}
	body, _ := json.Marshal(settings)
	if got := call("PUT", "/settings/"+p, string(body), "If-Match", read.Header.Get("ETag")); got.Status != 200 {
		t.Fatalf("save settings: %d %s", got.Status, got.Body)
	}

	// Read: dotted keys, the files found by their names, nested layout.
	type answer struct {
		Layout   string
		Files    map[string]string
		Data     map[string]map[string]string
		Versions map[string]string
	}
	get := func() answer {
		t.Helper()
		got := call("GET", "/translation/"+p, "")
		if got.Status != 200 {
			t.Fatalf("get: %d %s", got.Status, got.Body)
		}
		var a answer
		got.JSON(t, &a)
		return a
	}
	tr := get()
	wantFiles := map[string]string{"en_GB": "locales/en.json", "pt_BR": "locales/pt-br.json", "fr_FR": "locales/fr.json"}
	for l, f := range wantFiles {
		if tr.Files[l] != f || tr.Versions[l] == "" {
			t.Fatalf("files: %v versions: %v", tr.Files, tr.Versions)
		}
	}
	if tr.Layout != "nested" || tr.Data["en_GB"]["nav.home"] != "Home" || tr.Data["pt_BR"]["nav.home"] != "Início" ||
		tr.Data["fr_FR"]["nav.about"] != "À propos" || tr.Data["en_GB"]["footer.copyright"] != "© Demo <b>Airline</b>" || len(tr.Data["en_GB"]) != 5 {
		t.Fatalf("get: %+v", tr)
	}
	// Statuses: pt_BR lacks footer.copyright; fr_FR's copy of it is still to translate (no
	// key of a nested file may keep the default's value, as IMG_/LNK_ keys may).
	var st struct {
		Keys map[string]struct{ Status, Reason string }
	}
	call("GET", "/translation/"+p+"/status/pt_BR", "").JSON(t, &st)
	if k := st.Keys["footer.copyright"]; k.Status != "MISSING" || k.Reason != "KEY_MISSING" || st.Keys["nav.home"].Status != "COMPLETED" {
		t.Fatalf("status pt_BR: %+v", st.Keys)
	}
	call("GET", "/translation/"+p+"/status/fr_FR", "").JSON(t, &st)
	if k := st.Keys["footer.copyright"]; k.Status != "INCOMPLETE" || k.Reason != "REQUIRED" {
		t.Fatalf("status fr_FR: %+v", st.Keys)
	}

	put := func(data map[string]map[string]string, versions map[string]string) testkit.Reply {
		t.Helper()
		b, _ := json.Marshal(map[string]any{"data": data, "versions": versions})
		return call("PUT", "/translation/"+p, string(b))
	}
	// A save of one changed value (every language sent, as the manager does): only pt-br.json
	// is written, nested, with its tabs, its key order and its other bytes as they were.
	tr.Data["pt_BR"]["nav.home"] = "Página inicial"
	got := put(tr.Data, tr.Versions)
	if got.Status != 200 {
		t.Fatalf("save: %d %s", got.Status, got.Body)
	}
	wantPT := strings.Replace(localePTBR, "Início", "Página inicial", 1)
	if f := wsFile("locales/pt-br.json"); f != wantPT {
		t.Fatalf("pt-br.json as written:\n%s\nwant\n%s", f, wantPT)
	}
	if wsFile("locales/en.json") != localeEN || wsFile("locales/fr.json") != localeFR {
		t.Fatal("a file sent unchanged was rewritten")
	}
	if lc := call("GET", "/portal/"+p+"/local-changes", ""); !strings.Contains(lc.Body, `"locales/pt-br.json":"MODIFY"`) ||
		strings.Contains(lc.Body, "locales/en.json") || strings.Contains(lc.Body, "locales/fr.json") || strings.Contains(lc.Body, "pt_BR.json") {
		t.Fatalf("local changes: %s", lc.Body)
	}

	// A new key (appended at the end of its object in every file, in each file's style) and
	// a removed one.
	tr = get()
	for l, v := range map[string]string{"en_GB": "Contact", "pt_BR": "Contato", "fr_FR": "Contact \"FR\""} {
		tr.Data[l]["nav.contact"] = v
		delete(tr.Data[l], "footer.legal")
	}
	if got := put(tr.Data, tr.Versions); got.Status != 200 {
		t.Fatalf("save a new key: %d %s", got.Status, got.Body)
	}
	wantEN := "{\n    \"nav\": {\n        \"home\": \"Home\",\n        \"about\": \"About us\",\n        \"contact\": \"Contact\"\n    },\n    \"footer\": {\n        \"copyright\": \"© Demo <b>Airline</b>\"\n    },\n    \"title\": \"Welcome\"\n}\n"
	wantPT = "{\n\t\"nav\": {\n\t\t\"home\": \"Página inicial\",\n\t\t\"about\": \"Sobre nós\",\n\t\t\"contact\": \"Contato\"\n\t},\n\t\"title\": \"Bem-vindo\"\n}\n"
	wantFR := "{\r\n  \"nav\": {\r\n    \"home\": \"Accueil\",\r\n    \"about\": \"\\u00c0 propos\",\r\n    \"contact\": \"Contact \\\"FR\\\"\"\r\n  },\r\n  \"footer\": {\r\n    \"copyright\": \"© Demo <b>Airline</b>\"\r\n  },\r\n  \"title\": \"Bienvenue\"\r\n}\r\n"
	for name, want := range map[string]string{"locales/en.json": wantEN, "locales/pt-br.json": wantPT, "locales/fr.json": wantFR} {
		if f := wsFile(name); f != want {
			t.Fatalf("%s as written:\n%q\nwant\n%q", name, f, want)
		}
	}

	// Nested key rules: an empty level, a key below a text.
	tr = get()
	tr.Data["en_GB"]["nav..x"] = "x"
	tr.Data["pt_BR"]["title.sub"] = "x"
	got = put(tr.Data, tr.Versions)
	var rules struct {
		Data struct {
			RuleErrors []struct{ Message, Key, Language string }
		}
	}
	_ = json.Unmarshal([]byte(got.Body), &rules)
	if got.Status != 422 || len(rules.Data.RuleErrors) != 2 || rules.Data.RuleErrors[0].Key != "nav..x" || rules.Data.RuleErrors[1].Key != "title.sub" ||
		!strings.Contains(rules.Data.RuleErrors[1].Message, "which holds a text") {
		t.Fatalf("key rules: %d %s", got.Status, got.Body)
	}

	// Commit: the host has the files as written, still nested.
	if got := call("POST", "/portal/"+p+"/commits", `{"message":"Translations"}`); got.Status != 200 || strings.Contains(got.Body, "upstreamWarning") {
		t.Fatalf("commit: %d %s", got.Status, got.Body)
	}
	if got := gitT(t, bare, "log", "-1", "--format=%s", "master"); got != "Translations" {
		t.Fatalf("the host's last commit: %q", got)
	}
	for name, want := range map[string]string{"locales/en.json": wantEN, "locales/pt-br.json": wantPT, "locales/fr.json": wantFR} {
		if got := gitT(t, bare, "cat-file", "-p", "master:"+name); got != strings.TrimSpace(want) {
			t.Errorf("%s on the host:\n%s\nwant\n%s", name, got, want)
		}
	}
	if ls := gitT(t, bare, "ls-tree", "--name-only", "master", "locales/"); ls != "locales/en.json\nlocales/fr.json\nlocales/pt-br.json" {
		t.Errorf("the host's locales: %s", ls)
	}

	// A file that still cannot be read says why: which file, what is wrong.
	meta := call("GET", "/assets/"+p+"/src/locales/pt-br.json?meta=1", "")
	broken := `{"data":"{\n\t\"nav\": {\n\t\t\"items\": [\"a\", \"b\"]\n\t}\n}\n"}`
	if got := call("POST", "/assets/"+p+"/src/locales/pt-br.json", broken, "If-Match", meta.Header.Get("ETag")); got.Status != 200 {
		t.Fatalf("save a broken file: %d %s", got.Status, got.Body)
	}
	var bad struct {
		Data struct{ Path, Language, Reason string }
	}
	got = call("GET", "/translation/"+p, "")
	_ = json.Unmarshal([]byte(got.Body), &bad)
	if got.Status != 422 || got.Message != "Could not load translation data for lang 'pt_BR'" || bad.Data.Path != "locales/pt-br.json" ||
		bad.Data.Reason != "locales/pt-br.json: the value at nav.items is an array; translation files hold texts (strings) in objects" {
		t.Fatalf("unreadable: %d %s", got.Status, got.Body)
	}
	// (The asset manager refuses to save JSON that is not JSON: the file is changed on disk.)
	os.WriteFile(filepath.Join(cfg.DataDir, "workspaces", "1", pid, "locales", "pt-br.json"), []byte("{\n  \"nav\": {\n    \"home\": \"x\",\n  }\n}\n"), 0o644)
	got = call("GET", "/translation/"+p, "")
	_ = json.Unmarshal([]byte(got.Body), &bad)
	if got.Status != 422 || !strings.HasPrefix(bad.Data.Reason, "locales/pt-br.json is not valid JSON: line 4, column 3: ") {
		t.Fatalf("not JSON: %d %s", got.Status, got.Body)
	}
}
