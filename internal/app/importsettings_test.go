package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"portalwright/internal/caller"
	"portalwright/internal/config"
	"portalwright/internal/portal"
	"portalwright/internal/portalaccess"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
	"portalwright/internal/validate"
)

// Issue 30 items 4 and 6 with repositories served by git daemon: an imported portal keeps
// its settings out of its repository (guessed from its locale folder at import; saved in the
// database; nothing reaches the host), a repository with its own portal.json keeps using it,
// and commit messages follow the portal's rule (git hosts' convention for imported portals,
// the spec's for portals made from a template).
func TestImportedPortalSettings(t *testing.T) { importedSettingsSuite(t, testConfig(t)) }

func TestImportedPortalSettingsPostgres(t *testing.T) {
	cfg := testConfig(t)
	cfg.DatabaseURL = storetest.PostgresURL(t) // skips without TEST_DATABASE_URL
	importedSettingsSuite(t, cfg)
}

// newHostRepo makes a bare repository root/name with files on master.
func newHostRepo(t *testing.T, root, name string, files map[string]string) string {
	t.Helper()
	bare := filepath.Join(root, name)
	gitT(t, root, "init", "-q", "--bare", "--initial-branch=master", bare)
	work := filepath.Join(t.TempDir(), "seed")
	gitT(t, "", "clone", "-q", bare, work)
	for f, content := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(work, f)), 0o755)
		if err := os.WriteFile(filepath.Join(work, f), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitT(t, work, "add", "-A")
	gitT(t, work, "commit", "-q", "-m", "Seed")
	gitT(t, work, "push", "-q", "origin", "master")
	return bare
}

func importedSettingsSuite(t *testing.T, cfg config.Config) {
	cfg.AllowPrivateGitHosts = true
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	ctx := context.Background()
	root := caller.Caller{UserID: 1, Username: "admin", Admin: true}
	dom, err := srv.app.Access.CreateDomain(ctx, root, "Projects")
	if err != nil {
		t.Fatal(err)
	}
	d := strconv.FormatInt(dom.ID, 10)
	hosts := t.TempDir()
	site := newHostRepo(t, hosts, "site.git", map[string]string{
		"README.md":                            "# Site\n",
		"packages/i18n/src/locales/en.json":    "{\n  \"nav\": {\n    \"home\": \"Home\"\n  }\n}\n",
		"packages/i18n/src/locales/fr-FR.json": "{\n  \"nav\": {\n    \"home\": \"Accueil\"\n  }\n}\n",
		"packages/i18n/src/locales/pt-br.json": "{\n  \"nav\": {\n    \"home\": \"Início\"\n  }\n}\n",
		"apps/site/pages/en/index.mdx":         "# Hello\n",
		"node_modules/lib/locales/de.json":     "{}\n",
	})
	newHostRepo(t, hosts, "own.git", map[string]string{
		"index.html":  "<h1>Own</h1>\n",
		"portal.json": "{\n  \"engineType\": \"UNIVERSAL\",\n  \"languageSettings\": {\"languages\": [\"en_GB\", \"de_DE\"], \"defaultLanguage\": \"en_GB\"},\n  \"custom\": 1\n}\n",
	})
	base, _ := startGitDaemon(t, hosts, 0)
	admin := testkit.Login(t, srv.base, "admin", "admin-pass")
	call := func(method, path, body string, hdr ...string) testkit.Reply {
		t.Helper()
		return testkit.Call(t, method, srv.base+"/api/v1"+path, admin, body, hdr...)
	}
	importPortal := func(name, repo string) (string, string) {
		t.Helper()
		p, id := importPortal(t, func(m, path, body string) testkit.Reply { return call(m, path, body) }, d, name, base+"/"+repo)
		return p, strconv.FormatInt(id, 10)
	}
	type settingsAnswer struct {
		StoredIn          string
		CommitMessageRule string
		LanguageSettings  struct {
			Languages                             []string
			DefaultLanguage, TranslationsBasePath string
			LanguageMode                          string
		}
	}
	readSettings := func(p string) (settingsAnswer, map[string]any, string) {
		t.Helper()
		got := call("GET", "/settings/"+p, "")
		if got.Status != 200 {
			t.Fatalf("settings: %d %s", got.Status, got.Body)
		}
		var a settingsAnswer
		var raw map[string]any
		got.JSON(t, &a)
		got.JSON(t, &raw)
		return a, raw, got.Header.Get("ETag")
	}
	wsHas := func(pid, name string) bool {
		_, err := os.Stat(filepath.Join(cfg.DataDir, "workspaces", "1", pid, name))
		return err == nil
	}

	// Import: the locale folder and its languages are guessed; the settings are kept by
	// Portalwright; commit messages follow the host's convention.
	p, pid := importPortal("Site", "site.git")
	// The canonical repository keeps no remote: the host's URL is the portal's record.
	if config, err := os.ReadFile(filepath.Join(cfg.DataDir, "repos", pid+".git", "config")); err != nil || strings.Contains(string(config), "remote") {
		t.Fatalf("the canonical repository's config: %v\n%s", err, config)
	}
	st, raw, etag := readSettings(p)
	ls := st.LanguageSettings
	if st.StoredIn != "PORTALWRIGHT" || st.CommitMessageRule != validate.CommitRuleAnyText || ls.TranslationsBasePath != "packages/i18n/src/locales" ||
		strings.Join(ls.Languages, ",") != "en,fr_FR,pt_BR" || ls.DefaultLanguage != "en" || ls.LanguageMode != "TRANSLATION" {
		t.Fatalf("guessed settings: %+v", st)
	}

	// Saving them writes nothing into the workspace; a stale version changes nothing.
	raw["scope"] = "MICROSITE"
	body, _ := json.Marshal(raw)
	saved := call("PUT", "/settings/"+p, string(body), "If-Match", etag)
	if saved.Status != 200 || wsHas(pid, "portal.json") || saved.ETag() == strings.Trim(etag, `"`) {
		t.Fatalf("save settings: %d %s (portal.json in the workspace: %v)", saved.Status, saved.Body, wsHas(pid, "portal.json"))
	}
	raw["scope"] = "CAPTIVE"
	body, _ = json.Marshal(raw)
	if got := call("PUT", "/settings/"+p, string(body), "If-Match", etag); got.Status != 409 || got.Code != "FILE_CHANGED" {
		t.Fatalf("a stale save: %d %s", got.Status, got.Body)
	}
	raw["commitMessageRule"] = "ANYTHING"
	body, _ = json.Marshal(raw)
	if got := call("PUT", "/settings/"+p, string(body), "If-Match", saved.ETag()); got.Status != 400 && got.Status != 422 {
		t.Fatalf("a bad rule: %d %s", got.Status, got.Body)
	}
	if st, raw, etag = readSettings(p); raw["scope"] != "MICROSITE" || strings.Trim(etag, `"`) != saved.ETag() {
		t.Fatalf("after the refused saves: %v %s", raw, etag)
	}
	if lc := call("GET", "/portal/"+p+"/local-changes", ""); strings.Contains(lc.Body, "portal.json") {
		t.Fatalf("local changes: %s", lc.Body)
	}

	// A translation change, committed with a conventional message: it reaches the host, and
	// the host's tree has no portal.json.
	var tr struct {
		Data     map[string]map[string]string
		Versions map[string]string
	}
	if got := call("GET", "/translation/"+p, ""); got.Status != 200 {
		t.Fatalf("translations: %d %s", got.Status, got.Body)
	} else {
		got.JSON(t, &tr)
	}
	tr.Data["fr_FR"]["nav.home"] = "Page d'accueil"
	body, _ = json.Marshal(map[string]any{"data": tr.Data, "versions": tr.Versions})
	if got := call("PUT", "/translation/"+p, string(body)); got.Status != 200 {
		t.Fatalf("translation save: %d %s", got.Status, got.Body)
	}
	for _, bad := range []string{"fix\x07typo", "fix: typo\nno blank line", strings.Repeat("x", 201)} {
		b, _ := json.Marshal(map[string]string{"message": bad})
		if got := call("POST", "/portal/"+p+"/commits", string(b)); got.Status != 400 || got.Message != validate.MsgCommitText {
			t.Fatalf("commit %q: %d %s", bad, got.Status, got.Body)
		}
	}
	if got := call("POST", "/portal/"+p+"/commits", `{"message":"chore(i18n): update fr"}`); got.Status != 200 || strings.Contains(got.Body, "upstreamWarning") {
		t.Fatalf("commit: %d %s", got.Status, got.Body)
	}
	if got := gitT(t, site, "log", "-1", "--format=%s", "master"); got != "chore(i18n): update fr" {
		t.Fatalf("the host's last commit: %q", got)
	}
	if got := gitT(t, site, "show", "--name-only", "--format=", "master"); got != "packages/i18n/src/locales/fr-FR.json" {
		t.Fatalf("the commit's files on the host: %q", got)
	}
	if got := gitT(t, site, "ls-tree", "-r", "--name-only", "master"); strings.Contains(got, "portal.json") {
		t.Fatalf("the host's tree has portal.json:\n%s", got)
	}

	// The portal may choose the spec's rule instead.
	raw["commitMessageRule"] = validate.CommitRuleAlphanumeric
	body, _ = json.Marshal(raw)
	if got := call("PUT", "/settings/"+p, string(body), "If-Match", etag); got.Status != 200 {
		t.Fatalf("choose the spec's rule: %d %s", got.Status, got.Body)
	}
	os.WriteFile(filepath.Join(cfg.DataDir, "workspaces", "1", pid, "README.md"), []byte("# Site!\n"), 0o644)
	if got := call("POST", "/portal/"+p+"/commits", `{"message":"docs: readme"}`); got.Status != 400 || got.Message != validate.MsgCommitFormat {
		t.Fatalf("commit under the spec's rule: %d %s", got.Status, got.Body)
	}

	// A clone keeps the settings kept outside the repository.
	pa, err := portalaccess.NewChecker(srv.app.Portals).Check(ctx, dom.ID, mustID(t, pid))
	if err != nil {
		t.Fatal(err)
	}
	clone, err := srv.app.Portals.Clone(ctx, root, pa, portal.NewPortal{Name: "Site copy", Type: portal.TypeCrew, Scope: portal.ScopeFull})
	if err != nil {
		t.Fatal(err)
	}
	cp := d + "/" + strconv.FormatInt(clone.ID, 10)
	if got := call("GET", "/portal/"+cp+"/open", ""); got.Status != 200 {
		t.Fatalf("open the clone: %d %s", got.Status, got.Body)
	}
	if st, _, _ := readSettings(cp); st.StoredIn != "PORTALWRIGHT" || st.LanguageSettings.TranslationsBasePath != "packages/i18n/src/locales" ||
		st.CommitMessageRule != validate.CommitRuleAlphanumeric {
		t.Fatalf("the clone's settings: %+v", st)
	}
	// Release readiness reads the kept settings as the portal's portal.json: the locale files
	// are the portal's translations, so an emptied value is translation.missing.
	if got := call("GET", "/translation/"+cp, ""); got.Status != 200 {
		t.Fatalf("the clone's translations: %d %s", got.Status, got.Body)
	} else {
		got.JSON(t, &tr)
	}
	tr.Data["pt_BR"]["nav.home"] = ""
	body, _ = json.Marshal(map[string]any{"data": tr.Data, "versions": tr.Versions})
	if got := call("PUT", "/translation/"+cp, string(body)); got.Status != 200 {
		t.Fatalf("the clone's translation save: %d %s", got.Status, got.Body)
	}
	var rep struct {
		Findings []struct{ Rule, Path, Language string }
	}
	if got := call("GET", "/readiness/"+cp, ""); got.Status != 200 {
		t.Fatalf("the clone's readiness: %d %s", got.Status, got.Body)
	} else {
		got.JSON(t, &rep)
	}
	found := false
	for _, f := range rep.Findings {
		found = found || (f.Rule == "translation.missing" && f.Language == "pt_BR" && f.Path == "packages/i18n/src/locales/pt-br.json")
	}
	if !found {
		t.Fatalf("readiness with the kept settings: no translation.missing for pt_BR in %+v", rep.Findings)
	}

	// A repository with its own portal.json keeps using it: read from it, saved into it (a
	// local change, committed with the branch), unknown keys kept.
	op, opid := importPortal("Own", "own.git")
	st, raw, etag = readSettings(op)
	if st.StoredIn != "REPOSITORY" || strings.Join(st.LanguageSettings.Languages, ",") != "en_GB,de_DE" || st.CommitMessageRule != validate.CommitRuleAnyText {
		t.Fatalf("own portal.json: %+v", st)
	}
	raw["scope"] = "MICROSITE"
	body, _ = json.Marshal(raw)
	if got := call("PUT", "/settings/"+op, string(body), "If-Match", etag); got.Status != 200 {
		t.Fatalf("save own settings: %d %s", got.Status, got.Body)
	}
	data, _ := os.ReadFile(filepath.Join(cfg.DataDir, "workspaces", "1", opid, "portal.json"))
	if !strings.Contains(string(data), `"scope": "MICROSITE"`) || !strings.Contains(string(data), `"custom": 1`) || strings.Contains(string(data), "storedIn") {
		t.Fatalf("portal.json as saved:\n%s", data)
	}

	// A portal made from a template refuses the conventional message with the spec's words.
	tpl, err := srv.app.Portals.CreateFromTemplate(ctx, root, dom.ID, portal.NewPortal{Name: "Crew", Type: portal.TypeCrew, Scope: portal.ScopeFull}, 0, "crew")
	if err != nil {
		t.Fatal(err)
	}
	tp, tpid := d+"/"+strconv.FormatInt(tpl.ID, 10), strconv.FormatInt(tpl.ID, 10)
	if got := call("GET", "/portal/"+tp+"/open", ""); got.Status != 200 {
		t.Fatalf("open the template portal: %d %s", got.Status, got.Body)
	}
	if st, _, _ := readSettings(tp); st.StoredIn != "REPOSITORY" || st.CommitMessageRule != validate.CommitRuleAlphanumeric {
		t.Fatalf("template portal settings: %+v", st)
	}
	os.WriteFile(filepath.Join(cfg.DataDir, "workspaces", "1", tpid, "notes.txt"), []byte("fr\n"), 0o644)
	if got := call("POST", "/portal/"+tp+"/commits", `{"message":"chore(i18n): update fr"}`); got.Status != 400 || got.Message != validate.MsgCommitFormat {
		t.Fatalf("template portal commit: %d %s", got.Status, got.Body)
	}
	if got := call("POST", "/portal/"+tp+"/commits", `{"message":"Update fr"}`); got.Status != 200 {
		t.Fatalf("template portal commit under its rule: %d %s", got.Status, got.Body)
	}
}

func mustID(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
