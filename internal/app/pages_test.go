package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"portalwright/internal/config"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
	"portalwright/internal/workspace"
)

func TestPages(t *testing.T) { pagesSuite(t, testConfig(t)) }

func TestPagesPostgres(t *testing.T) {
	cfg := testConfig(t)
	cfg.DatabaseURL = storetest.PostgresURL(t) // skips without TEST_DATABASE_URL
	pagesSuite(t, cfg)
}

type pageAnswer struct {
	ID             string `json:"id"`
	Title          string `json:"title"`
	URL            string `json:"url"`
	HTML           string `json:"html"`
	ParentID       string `json:"parentId"`
	Position       int    `json:"position"`
	Path           string `json:"path"`
	Version        string `json:"version"`
	SitemapVersion string `json:"sitemapVersion"`
	Status         string `json:"status"`
	Children       []struct {
		ID string `json:"id"`
	} `json:"children"`
}

type errorAnswer struct {
	Title string `json:"errorTitle"`
	Code  string `json:"errorCode"`
	Data  struct {
		Path           string `json:"path"`
		CurrentVersion string `json:"currentVersion"`
	} `json:"data"`
}

// pagesSuite walks the pages API, the batch save, search and the master page over HTTP on the
// demo crew portal (portal 1 of domain 1), checking the files of the real git workspace.
func pagesSuite(t *testing.T, cfg config.Config) {
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	tok := testkit.Login(t, srv.base, "admin", "admin-pass")
	api := srv.base + "/api/v1"
	call := func(method, path string, body any) testkit.Reply {
		t.Helper()
		s := ""
		switch b := body.(type) {
		case nil:
		case string:
			s = b
		default:
			raw, _ := json.Marshal(b)
			s = string(raw)
		}
		return testkit.Call(t, method, api+path, tok, s)
	}
	if got := call("GET", "/portal/1/1/open", nil); got.Status != 200 {
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
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(wsDir, filepath.FromSlash(name)))
		if err != nil {
			return "<missing>"
		}
		return string(b)
	}
	page := func(got testkit.Reply, status int) pageAnswer {
		t.Helper()
		if got.Status != status {
			t.Fatalf("want %d, got %d %s", status, got.Status, got.Body)
		}
		var p pageAnswer
		got.JSON(t, &p)
		return p
	}
	fails := func(got testkit.Reply, status int, code, title string) errorAnswer {
		t.Helper()
		var e errorAnswer
		got.JSON(t, &e)
		if got.Status != status || e.Code != code || (title != "" && e.Title != title) {
			t.Fatalf("want %d %s %q, got %d %s", status, code, title, got.Status, got.Body)
		}
		return e
	}

	// Read: a page with its HTML and versions; the sitemap's ETag is its version.
	home := page(call("GET", "/page/1/1/home", nil), 200)
	if home.ID != "home" || !strings.Contains(home.HTML, `data-pw-widget="home-hero"`) || home.Version == "" || home.SitemapVersion == "" ||
		home.ParentID != "master-page" || home.Position != 0 || home.Path != "pages/home.html" {
		t.Fatalf("home: %+v", home)
	}
	if got := call("GET", "/page/1/1/sitemap", nil); got.Status != 200 || got.ETag() != home.SitemapVersion {
		t.Fatalf("sitemap etag %q vs %q", got.ETag(), home.SitemapVersion)
	}
	weather := page(call("GET", "/page/1/1/weather", nil), 200)
	if weather.ParentID != "flight-info" {
		t.Fatalf("weather: %+v", weather)
	}
	fails(call("GET", "/page/1/1/nope", nil), 404, "PAGE_NOT_FOUND", "Failed to retrieve page.")
	master := page(call("GET", "/page/1/1/master-page", nil), 200)
	if !strings.Contains(master.HTML, "portal-engine") || master.Path != "index.html" || len(master.Children) == 0 {
		t.Fatalf("master: %+v", master)
	}
	sv := home.SitemapVersion
	sitemapBefore := read("sitemap.json")

	// Add: refused ids, titles and versions change nothing.
	add := func(id, title string, extra map[string]any) testkit.Reply {
		b := map[string]any{"id": id, "title": title, "parentId": "flight-info", "sitemapVersion": sv}
		for k, v := range extra {
			b[k] = v
		}
		return call("POST", "/page/1/1", b)
	}
	for _, id := range []string{"Bad", "bad id", "-x", "a/b", "../x", "x.html", "master-page", "sitemap", strings.Repeat("a", 65), ""} {
		fails(add(id, "Fine", nil), 400, "VALIDATION_ERROR", "Failed to add a new page.")
	}
	for _, title := range []string{"", "-Leading", " Leading", "<script>", "a/b"} {
		got := add("fine", title, nil)
		fails(got, 400, "VALIDATION_ERROR", "Failed to add a new page.")
		if title != "" && got.Message != "Please enter only alphanumeric characters, spaces, underscores and/or dashes." {
			t.Fatalf("title %q: %s", title, got.Message)
		}
	}
	fails(add("home", "Home again", nil), 409, "PAGE_EXISTS", "Failed to add a new page.")
	fails(add("fine", "Fine", map[string]any{"parentId": "nope"}), 400, "VALIDATION_ERROR", "")
	fails(add("fine", "Fine", map[string]any{"status": "LIVE"}), 400, "VALIDATION_ERROR", "")
	fails(add("fine", "Fine", map[string]any{"parameters": []map[string]any{{"name": "a b"}}}), 400, "VALIDATION_ERROR", "")
	fails(add("fine", "Fine", map[string]any{"sitemapVersion": nil}), 428, "VERSION_REQUIRED", "")
	e := fails(add("fine", "Fine", map[string]any{"sitemapVersion": "0123"}), 409, "FILE_CHANGED", "Failed to add a new page.")
	if e.Data.Path != "sitemap.json" || e.Data.CurrentVersion != sv {
		t.Fatalf("stale add: %+v", e)
	}
	if read("sitemap.json") != sitemapBefore || read("pages/fine.html") != "<missing>" {
		t.Fatal("a refused add wrote something")
	}

	// Add under flight-info, first; with its HTML.
	news := page(add("crew-news", "Crew news", map[string]any{"html": "<p>Zebra crossing ahead</p>\n", "position": 0,
		"parameters": []map[string]any{{"name": "day", "description": "Day", "required": false}}}), 201)
	if news.ParentID != "flight-info" || news.Position != 0 || news.URL != "/pages/crew-news.html" || news.Status != "PUBLISHED" ||
		news.Version == "" || news.SitemapVersion == sv || read("pages/crew-news.html") != "<p>Zebra crossing ahead</p>\n" ||
		!strings.Contains(read("sitemap.json"), `"id": "crew-news"`) {
		t.Fatalf("add: %+v", news)
	}
	sv = news.SitemapVersion
	// A page without HTML gets a body with its title.
	plain := page(add("plain_page", "Plain page", nil), 201)
	if !strings.Contains(read("pages/plain_page.html"), "<h1>Plain page</h1>") || plain.Position != 2 {
		t.Fatalf("plain: %+v %s", plain, read("pages/plain_page.html"))
	}
	sv = plain.SitemapVersion
	// An orphan file blocks the id.
	os.WriteFile(filepath.Join(wsDir, "pages", "orphan.html"), []byte("x"), 0o644)
	fails(add("orphan", "Orphan", nil), 409, "FILE_EXISTS", "")

	// Update: title and HTML together; a stale HTML version writes neither file.
	sitemapBefore = read("sitemap.json")
	fails(call("PUT", "/page/1/1", map[string]any{"id": "crew-news", "title": "Crew news 2", "html": "<p>lost</p>", "version": home.Version, "sitemapVersion": sv}),
		409, "FILE_CHANGED", "Failed to update page.")
	if read("sitemap.json") != sitemapBefore || read("pages/crew-news.html") != "<p>Zebra crossing ahead</p>\n" {
		t.Fatal("a stale update wrote something")
	}
	fails(call("PUT", "/page/1/1", map[string]any{"id": "crew-news", "title": "Crew news 2", "html": "<p>x</p>"}), 428, "VERSION_REQUIRED", "")
	fails(call("PUT", "/page/1/1", map[string]any{"id": "crew-news", "title": "Crew news 2", "sitemapVersion": "stale"}), 409, "FILE_CHANGED", "")
	fails(call("PUT", "/page/1/1", map[string]any{"id": "crew-news", "title": "Crew/news", "sitemapVersion": sv}), 400, "VALIDATION_ERROR", "Failed to update page.")
	fails(call("PUT", "/page/1/1", map[string]any{"id": "nope", "title": "Nope", "sitemapVersion": sv}), 404, "PAGE_NOT_FOUND", "Failed to update page.")
	news = page(call("PUT", "/page/1/1", map[string]any{"id": "crew-news", "title": "Crew news today", "hidePage": true,
		"html": "<p>Zebra crossing ahead, twice</p>\n", "version": news.Version, "sitemapVersion": sv}), 200)
	if news.Title != "Crew news today" || read("pages/crew-news.html") != "<p>Zebra crossing ahead, twice</p>\n" ||
		!strings.Contains(read("sitemap.json"), `"title": "Crew news today"`) || news.ParentID != "flight-info" {
		t.Fatalf("update: %+v", news)
	}
	sv = news.SitemapVersion
	// HTML alone: no sitemap version needed, the sitemap untouched.
	sitemapBefore = read("sitemap.json")
	news = page(call("PUT", "/page/1/1", map[string]any{"id": "crew-news", "html": "<p>Zebra crossing</p>\n", "version": news.Version}), 200)
	if read("sitemap.json") != sitemapBefore || news.SitemapVersion != sv {
		t.Fatal("an HTML update rewrote the sitemap")
	}
	// Move: to the root, first; not under itself.
	fails(call("PUT", "/page/1/1", map[string]any{"id": "flight-info", "parentId": "weather", "sitemapVersion": sv}), 400, "VALIDATION_ERROR", "")
	fails(call("PUT", "/page/1/1", map[string]any{"id": "crew-news", "parentId": "", "position": 99, "sitemapVersion": sv}), 400, "VALIDATION_ERROR", "")
	news = page(call("PUT", "/page/1/1", map[string]any{"id": "crew-news", "parentId": "master-page", "position": 0, "sitemapVersion": sv}), 200)
	if news.ParentID != "master-page" || news.Position != 0 || news.HTML != "<p>Zebra crossing</p>\n" {
		t.Fatalf("move: %+v", news)
	}
	sv = news.SitemapVersion
	var tree []struct {
		ID string `json:"id"`
	}
	json.Unmarshal([]byte(read("sitemap.json")), &tree)
	if len(tree) == 0 || tree[0].ID != "crew-news" {
		t.Fatalf("moved: %s", read("sitemap.json"))
	}
	// The current parent sent back with other fields is no move.
	news = page(call("PUT", "/page/1/1", map[string]any{"id": "crew-news", "parentId": "master-page", "hidePage": false, "sitemapVersion": sv}), 200)
	if news.Position != 0 || news.ParentID != "master-page" {
		t.Fatalf("same parent: %+v", news)
	}
	sv = news.SitemapVersion

	// Two saves based on the same sitemap version at once: one is written, the other is a
	// 409 and changes nothing.
	replies := make(chan testkit.Reply, 2)
	for _, title := range []string{"Racer one", "Racer two"} {
		go func() {
			raw, _ := json.Marshal(map[string]any{"id": "plain_page", "title": title, "sitemapVersion": sv})
			replies <- testkit.Call(t, "PUT", api+"/page/1/1", tok, string(raw))
		}()
	}
	r1, r2 := <-replies, <-replies
	if r1.Status+r2.Status != 200+409 || (r1.Code != "FILE_CHANGED" && r2.Code != "FILE_CHANGED") {
		t.Fatalf("race: %d %s / %d %s", r1.Status, r1.Body, r2.Status, r2.Body)
	}
	won := r1
	if r2.Status == 200 {
		won = r2
	}
	var w pageAnswer
	won.JSON(t, &w)
	if !strings.Contains(read("sitemap.json"), `"title": "`+w.Title+`"`) || strings.Count(read("sitemap.json"), "Racer") != 1 {
		t.Fatalf("race result: %s", read("sitemap.json"))
	}
	sv = w.SitemapVersion

	// Clone: the entry without children, after the source, with its HTML.
	fails(call("POST", "/page/1/1/clone/crew-news", map[string]any{"id": "home", "title": "Copy", "sitemapVersion": sv}), 409, "PAGE_EXISTS", "Failed to clone page.")
	fails(call("POST", "/page/1/1/clone/crew-news", map[string]any{"id": "Copy!", "title": "Copy", "sitemapVersion": sv}), 400, "VALIDATION_ERROR", "Failed to clone page.")
	fails(call("POST", "/page/1/1/clone/nope", map[string]any{"id": "copy", "title": "Copy", "sitemapVersion": sv}), 404, "PAGE_NOT_FOUND", "Failed to clone page.")
	cp := page(call("POST", "/page/1/1/clone/crew-news", map[string]any{"id": "crew-news-copy", "title": "Crew news copy", "sitemapVersion": sv}), 201)
	if cp.ParentID != "master-page" || cp.Position != 1 || read("pages/crew-news-copy.html") != "<p>Zebra crossing</p>\n" || cp.URL != "/pages/crew-news-copy.html" {
		t.Fatalf("clone: %+v", cp)
	}
	sv = cp.SitemapVersion
	fl := page(call("POST", "/page/1/1/clone/flight-info", map[string]any{"id": "flight-info-2", "title": "Flight info 2", "sitemapVersion": sv}), 201)
	if len(fl.Children) != 0 {
		t.Fatalf("clone kept children: %+v", fl)
	}
	sv = fl.SitemapVersion

	// Delete: not with children; versions required and checked; the file goes with the entry.
	fails(call("DELETE", "/page/1/1/flight-info?sitemapVersion="+sv, nil), 409, "PAGE_HAS_CHILDREN", "Failed to remove page.")
	fails(call("DELETE", "/page/1/1/crew-news-copy?sitemapVersion="+sv, nil), 428, "VERSION_REQUIRED", "Failed to remove page.")
	sitemapBefore = read("sitemap.json")
	fails(call("DELETE", "/page/1/1/crew-news-copy?sitemapVersion="+sv+"&version="+home.Version, nil), 409, "FILE_CHANGED", "Failed to remove page.")
	fails(call("DELETE", "/page/1/1/master-page?sitemapVersion="+sv, nil), 400, "VALIDATION_ERROR", "")
	if read("sitemap.json") != sitemapBefore || read("pages/crew-news-copy.html") == "<missing>" {
		t.Fatal("a refused delete changed something")
	}
	if got := call("DELETE", "/page/1/1/crew-news-copy?sitemapVersion="+sv+"&version="+cp.Version, nil); got.Status != 200 {
		t.Fatalf("delete: %d %s", got.Status, got.Body)
	} else {
		var d struct{ SitemapVersion string }
		got.JSON(t, &d)
		sv = d.SitemapVersion
	}
	if read("pages/crew-news-copy.html") != "<missing>" || strings.Contains(read("sitemap.json"), "crew-news-copy") {
		t.Fatal("delete left the page")
	}
	fails(call("GET", "/page/1/1/crew-news-copy", nil), 404, "PAGE_NOT_FOUND", "")

	// Batch: each item whole or not at all; failed items leave their files untouched.
	hero := read("widgets/database/home-hero.json")
	footer := read("widgets/database/footer-links.json")
	heroV := versionOf(hero)
	batch := []map[string]any{
		{"file": "home", "type": "page", "data": "<article>Batch saved</article>\n", "version": home.Version},
		{"file": "home-hero", "type": "widget", "query": "(max-width: 600px)", "data": map[string]any{"align": "end"}, "version": heroV},
		{"file": "footer-links", "type": "widget", "data": map[string]any{"type": "link-list", "data": map[string]any{}}, "version": "stale"},
		{"file": "safety-notice", "type": "widget", "data": "{not json", "version": versionOf(read("widgets/database/safety-notice.json"))},
		{"file": "../x", "type": "widget", "data": map[string]any{"type": "x"}, "version": ""},
		{"file": "no-such-page", "type": "page", "data": "<p></p>", "version": ""},
		{"file": "about", "type": "page", "data": "<p></p>"},
		{"file": "new-widget", "type": "widget", "data": map[string]any{"type": "image", "data": map[string]any{"src": "IMG_LOGO"}}, "version": ""},
		{"file": "weather", "type": "other", "data": "x", "version": ""},
	}
	got := call("POST", "/portal/1/1/batch", batch)
	if got.Status != 200 {
		t.Fatalf("batch: %d %s", got.Status, got.Body)
	}
	var results []struct {
		File    string `json:"file"`
		Version string `json:"version"`
		Error   *struct {
			Code string `json:"errorCode"`
		} `json:"error"`
	}
	got.JSON(t, &results)
	wantErr := []string{"", "", "FILE_CHANGED", "CONTENT_VALIDATION_FAILED", "VALIDATION_ERROR", "PAGE_NOT_FOUND", "VERSION_REQUIRED", "", "VALIDATION_ERROR"}
	if len(results) != len(wantErr) {
		t.Fatalf("batch: %s", got.Body)
	}
	for i, w := range wantErr {
		code := ""
		if results[i].Error != nil {
			code = results[i].Error.Code
		}
		if code != w || results[i].File != batch[i]["file"] || (w == "" && results[i].Version == "") {
			t.Fatalf("item %d: want %q, got %s", i, w, got.Body)
		}
	}
	if read("pages/home.html") != "<article>Batch saved</article>\n" || read("widgets/database/footer-links.json") != footer ||
		!strings.Contains(read("widgets/database/new-widget.json"), `"src": "IMG_LOGO"`) || read("pages/about.html") == "<p></p>" {
		t.Fatal("batch files")
	}
	newHero := read("widgets/database/home-hero.json")
	if newHero == hero || !strings.Contains(newHero, `"align": "end"`) || !strings.Contains(newHero, `"title": "TXT_HOME_TITLE"`) ||
		strings.Index(newHero, `"type"`) > strings.Index(newHero, `"mediaQueries"`) || results[1].Version != versionOf(newHero) {
		t.Fatalf("hero: %s", newHero)
	}
	// The same file twice: both items refused, the file untouched.
	about := read("pages/about.html")
	got = call("POST", "/portal/1/1/batch", []map[string]any{
		{"file": "about", "type": "page", "data": "<p>one</p>", "version": versionOf(about)},
		{"file": "about", "type": "page", "data": "<p>two</p>", "version": versionOf(about)},
	})
	if got.Status != 200 || strings.Count(got.Body, `"errorCode":"DUPLICATE_ITEM"`) != 2 || read("pages/about.html") != about {
		t.Fatalf("duplicate: %d %s", got.Status, got.Body)
	}
	// master-page is the master page, index.html.
	index := read("index.html")
	got = call("POST", "/portal/1/1/batch", []map[string]any{{"file": "master-page", "type": "page", "data": index + "<!-- saved -->\n", "version": versionOf(index)}})
	if got.Status != 200 || strings.Contains(got.Body, "error") || read("index.html") != index+"<!-- saved -->\n" {
		t.Fatalf("master page batch: %d %s", got.Status, got.Body)
	}
	fails(call("POST", "/portal/1/1/batch", "[]"), 400, "VALIDATION_ERROR", "")
	fails(call("POST", "/portal/1/1/batch", "{"), 400, "INVALID_JSON", "")

	// Search: a page's text, a title, a widget, a translation; the empty phrase refused.
	type hit struct {
		Type, PageID, WidgetID, Key, Language, Title, Path, Snippet, Label string
		Line                                                               int
	}
	search := func(phrase string) (out struct {
		Results   []hit
		Truncated bool
	}) {
		t.Helper()
		got := call("GET", "/portal/1/1/search?phrase="+phrase, nil)
		if got.Status != 200 {
			t.Fatalf("search %q: %d %s", phrase, got.Status, got.Body)
		}
		got.JSON(t, &out)
		return out
	}
	r := search("zebra")
	if len(r.Results) != 1 || r.Results[0].Type != "page" || r.Results[0].PageID != "crew-news" || r.Results[0].Line != 1 || r.Results[0].Snippet != "Zebra crossing" {
		t.Fatalf("zebra: %+v", r)
	}
	r = search("crew%20NEWS%20today")
	if len(r.Results) != 1 || r.Results[0].Path != "sitemap.json" || r.Results[0].PageID != "crew-news" {
		t.Fatalf("title: %+v", r)
	}
	r = search("sky.svg")
	if len(r.Results) != 1 || r.Results[0].Type != "widget" || r.Results[0].WidgetID != "home-hero" || r.Results[0].Key != "data.background" || r.Results[0].Line != 6 {
		t.Fatalf("widget: %+v", r)
	}
	r = search("txt_safety_notice_body") // a widget shown on a page: the page is named
	if len(r.Results) != 1 || r.Results[0].Type != "widget" || r.Results[0].WidgetID != "safety-notice" || r.Results[0].PageID != "safety" {
		t.Fatalf("widget: %+v", r)
	}
	r = search("about%20this%20PORTAL")
	var tr, pg bool
	for _, h := range r.Results {
		tr = tr || (h.Type == "translation" && h.Key == "TXT_ABOUT_TITLE" && h.Language == "en_GB" && h.Path == "translations/en_GB.json")
		pg = pg || (h.Type == "page" && h.PageID == "about" && h.Line == 2)
	}
	if !tr || !pg {
		t.Fatalf("about: %+v", r)
	}
	if r := search("e"); !r.Truncated || len(r.Results) == 0 || len(r.Results) > 100 {
		t.Fatalf("truncated: %d %v", len(r.Results), r.Truncated)
	}
	for _, h := range search("e").Results {
		if len([]rune(h.Label)) > 43 {
			t.Fatalf("label: %q", h.Label)
		}
	}
	if got := call("GET", "/portal/1/1/search?phrase=%20", nil); got.Status != 400 || got.Message != "Please type something in the search box to search in the selected portal." {
		t.Fatalf("empty phrase: %d %s", got.Status, got.Body)
	}

	// The master page.
	if got := call("GET", "/portal/1/1/masterpage/en_GB", nil); got.Status != 200 || !strings.Contains(got.Body, "portal-engine") || !strings.Contains(got.Body, `"path":"index.html"`) {
		t.Fatalf("master page: %d %.200s", got.Status, got.Body)
	}
	// MULTILANGUAGE: the language's own master page; a language outside the portal's → 404.
	settings := read("portal.json")
	os.WriteFile(filepath.Join(wsDir, "portal.json"), []byte(strings.Replace(settings, `"languageMode": "TRANSLATION"`, `"languageMode": "MULTILANGUAGE"`, 1)), 0o644)
	os.MkdirAll(filepath.Join(wsDir, "fr_FR"), 0o755)
	os.WriteFile(filepath.Join(wsDir, "fr_FR", "index.html"), []byte("<html>Bonjour</html>"), 0o644)
	if got := call("GET", "/portal/1/1/masterpage/fr_FR", nil); got.Status != 200 || !strings.Contains(got.Body, `"path":"fr_FR/index.html"`) || !strings.Contains(got.Body, "Bonjour") {
		t.Fatalf("master page fr_FR: %d %.200s", got.Status, got.Body)
	}
	for _, lang := range []string{"de_DE", "..", "fr_FR%2F..%2F.."} {
		if got := call("GET", "/portal/1/1/masterpage/"+lang, nil); got.Status != 404 {
			t.Fatalf("master page %s: %d %.200s", lang, got.Status, got.Body)
		}
	}
	if got := call("GET", "/portal/1/1/masterpage/ar_SA", nil); got.Status != 404 || got.Code != "FILE_NOT_FOUND" {
		t.Fatalf("master page ar_SA: %d %.200s", got.Status, got.Body)
	}
	os.WriteFile(filepath.Join(wsDir, "portal.json"), []byte(settings), 0o644)

	// A page of an older sitemap (a title with dots, no status, no url): moved and updated in
	// what is sent, its other fields left as they are.
	os.WriteFile(filepath.Join(wsDir, "sitemap.json"), []byte(`[{"id":"faq","title":"F.A.Q."},{"id":"home","title":"Home","url":"/pages/home.html","status":"PUBLISHED"}]`), 0o644)
	sv = call("GET", "/page/1/1/sitemap", nil).ETag()
	faq := page(call("PUT", "/page/1/1", map[string]any{"id": "faq", "parentId": "home", "sitemapVersion": sv}), 200)
	if faq.ParentID != "home" || faq.Title != "F.A.Q." || !strings.Contains(read("sitemap.json"), `"title": "F.A.Q."`) {
		t.Fatalf("legacy move: %+v", faq)
	}
	fails(call("PUT", "/page/1/1", map[string]any{"id": "faq", "title": "F.A.Q. 2", "sitemapVersion": faq.SitemapVersion}), 400, "VALIDATION_ERROR", "Failed to update page.")

	// The changes are local changes of the workspace.
	if got := call("GET", "/portal/1/1/local-changes", nil); got.Status != 200 || !strings.Contains(got.Body, "pages/crew-news.html") {
		t.Fatalf("local changes: %d %s", got.Status, got.Body)
	}
}

func versionOf(s string) string { return string(workspace.VersionOf([]byte(s))) }
