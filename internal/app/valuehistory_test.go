package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"portalwright/internal/merge"
	"portalwright/internal/testkit"
)

// TestValueHistory walks the value history calls over HTTP on the demo crew portal: a field of
// an array item that moved keeps its history; a restore through the asset save changes that one
// value of the file (the review's compare sees exactly it) and nothing else; bad inputs are
// clear errors that change nothing; a page's history and restore; a translation key's.
func TestValueHistory(t *testing.T) {
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	tok := testkit.Login(t, srv.base, "admin", "admin-pass")
	api := srv.base + "/api/v1"
	call := func(method, path, body string, hdr ...string) testkit.Reply {
		t.Helper()
		return testkit.Call(t, method, api+path, tok, body, hdr...)
	}
	must := func(r testkit.Reply, status int, what string) testkit.Reply {
		t.Helper()
		if r.Status != status {
			t.Fatalf("%s: %d %s", what, r.Status, r.Body)
		}
		return r
	}
	must(call("GET", "/portal/1/1/open", ""), 200, "open")
	const file = "content/menu.json"
	version := ""
	save := func(text, message string) {
		t.Helper()
		body, _ := json.Marshal(map[string]string{"data": text})
		hdr := []string{}
		if version != "" {
			hdr = append(hdr, "If-Match", `"`+version+`"`)
		}
		r := must(call("POST", "/assets/1/1/src/"+file, string(body), hdr...), 200, "save "+message)
		version = r.ETag()
		must(call("POST", "/portal/1/1/commits", `{"message":"`+message+`"}`), 200, "commit "+message)
	}
	save("{\n  \"title\": \"Menu\",\n  \"items\": [\n    {\"id\": 1, \"name\": \"Soup\"},\n    {\"id\": 2, \"name\": \"Salad\"}\n  ]\n}\n", "menu")
	save("{\n  \"title\": \"Menu\",\n  \"items\": [\n    {\"id\": 1, \"name\": \"Soup\"},\n    {\"id\": 2, \"name\": \"Green salad\"}\n  ]\n}\n", "green")
	save("{\n  \"title\": \"Menu\",\n  \"items\": [\n    {\"id\": 2, \"name\": \"Green salad\"},\n    {\"id\": 1, \"name\": \"Soup\"}\n  ]\n}\n", "reorder")
	save("{\n  \"title\": \"Menu\",\n  \"items\": [\n    {\"id\": 2, \"name\": \"Leaf salad\"},\n    {\"id\": 1, \"name\": \"Soup\"}\n  ]\n}\n", "leaf")

	type entry struct {
		Commit      string  `json:"commit"`
		Uncommitted bool    `json:"uncommitted"`
		Author      string  `json:"author"`
		Message     string  `json:"message"`
		Old         *string `json:"old"`
		New         *string `json:"new"`
	}
	type history struct {
		Entries []entry `json:"entries"`
	}
	str := func(s *string) string {
		if s == nil {
			return "∅"
		}
		return *s
	}
	read := func(path string) history {
		t.Helper()
		var h history
		must(call("GET", path, ""), 200, path).JSON(t, &h)
		return h
	}
	summary := func(h history) string {
		var out []string
		for _, e := range h.Entries {
			out = append(out, e.Message+": "+str(e.Old)+" → "+str(e.New))
		}
		return strings.Join(out, "\n")
	}
	h := read("/history/1/1/file?path=" + file + "&pointer=/items/0/name")
	if got, want := summary(h), "leaf: \"Green salad\" → \"Leaf salad\"\ngreen: \"Salad\" → \"Green salad\"\nmenu: ∅ → \"Salad\""; got != want {
		t.Fatalf("history:\n%s\nwant:\n%s", got, want)
	}

	// Restore "Green salad" (after the commit "green"): exactly that value changes.
	wsFile := func() []byte {
		t.Helper()
		var dir string
		filepath.WalkDir(filepath.Join(cfg.DataDir, "workspaces"), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, filepath.FromSlash("/1/"+file)) {
				dir = p
			}
			return nil
		})
		b, err := os.ReadFile(dir)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	before := wsFile()
	var restored struct {
		Changed bool   `json:"changed"`
		Version string `json:"version"`
	}
	must(call("POST", "/history/1/1/file/restore", `{"path":"`+file+`","pointer":"/items/0/name","commit":"`+h.Entries[1].Commit+`"}`), 200, "restore").JSON(t, &restored)
	after := wsFile()
	d := merge.Compare(file, before, after)
	if !restored.Changed || len(d.Fields) != 1 || d.Fields[0].Pointer != "/items/0/name" || str(d.Fields[0].New) != `"Green salad"` {
		t.Fatalf("restore changed %+v: %s", d.Fields, after)
	}
	if string(after) != strings.Replace(string(before), "Leaf salad", "Green salad", 1) {
		t.Fatalf("more than the value changed:\n%s", after)
	}
	// The history now starts with the uncommitted work; a second restore changes nothing.
	if h := read("/history/1/1/file?path=" + file + "&pointer=/items/0/name"); !h.Entries[0].Uncommitted || str(h.Entries[0].New) != `"Green salad"` {
		t.Fatalf("uncommitted entry: %+v", h.Entries[0])
	}
	must(call("POST", "/history/1/1/file/restore", `{"path":"`+file+`","pointer":"/items/0/name","commit":"`+h.Entries[1].Commit+`"}`), 200, "restore again").JSON(t, &restored)
	if restored.Changed {
		t.Fatal("a restore to the value it has wrote the file")
	}

	// Bad inputs: clear errors, nothing written.
	for _, c := range []struct {
		method, path, body, code string
		status                   int
	}{
		{"GET", "/history/1/1/file?path=" + file + "&pointer=items", "", "INVALID_POINTER", 400},
		{"GET", "/history/1/1/file?path=../etc/passwd&pointer=", "", "INVALID_PATH", 400},
		{"GET", "/history/1/1/file/blame?path=assets/css/portal.css", "", "NOT_JSON", 422},
		{"POST", "/history/1/1/file/restore", `{"path":"` + file + `","pointer":"/items/0/name","commit":"0123456789abcdef0123456789abcdef01234567"}`, "VALUE_NOT_IN_HISTORY", 404},
		{"POST", "/history/1/1/file/restore", `{"path":"` + file + `","pointer":"/items/0/name","commit":""}`, "VALUE_NOT_IN_HISTORY", 404},
		{"GET", "/history/1/1/translation?key=TXT_ABOUT_TITLE&lang=xx_XX", "", "LANGUAGE_NOT_FOUND", 404},
		{"GET", "/history/1/1/translation?key=", "", "KEY_REQUIRED", 400},
		{"POST", "/history/1/1/translation/restore", `{"key":"TXT_ABOUT_TITLE","commit":"abc"}`, "LANGUAGE_REQUIRED", 400},
		{"GET", "/history/1/1/page/no-such-page", "", "PAGE_NOT_FOUND", 404},
	} {
		r := call(c.method, c.path, c.body)
		if r.Status != c.status || !strings.Contains(string(r.Body), c.code) {
			t.Errorf("%s %s: %d %s, want %d %s", c.method, c.path, r.Status, r.Body, c.status, c.code)
		}
	}
	if string(wsFile()) != string(after) {
		t.Fatal("a refused call changed the file")
	}

	// The blame of the file: each leaf with its commit.
	var blame struct {
		Rows []struct {
			Pointer     string `json:"pointer"`
			Message     string `json:"message"`
			Uncommitted bool   `json:"uncommitted"`
		} `json:"rows"`
	}
	must(call("GET", "/history/1/1/file/blame?path="+file, ""), 200, "blame").JSON(t, &blame)
	got := map[string]string{}
	for _, r := range blame.Rows {
		got[r.Pointer] = r.Message
		if r.Uncommitted {
			got[r.Pointer] = "(uncommitted)"
		}
	}
	if got["/title"] != "menu" || got["/items/0/name"] != "(uncommitted)" || got["/items/1/name"] != "menu" || got["/items/0/id"] != "menu" {
		t.Fatalf("blame: %v", got)
	}
	csv := must(call("GET", "/history/1/1/file/blame?path="+file+"&format=csv", ""), 200, "csv")
	if !strings.HasPrefix(string(csv.Body), "key,pointer,value,commit,author,email,time,message\n") || !strings.Contains(csv.Header.Get("Content-Disposition"), "blame-menu.csv") {
		t.Fatalf("csv: %s %v", csv.Body, csv.Header)
	}

	// A page's history and restore, through the Page Manager's save.
	var pg struct {
		HTML    string `json:"html"`
		Version string `json:"version"`
	}
	must(call("GET", "/page/1/1/home", ""), 200, "page").JSON(t, &pg)
	first := pg.HTML
	body, _ := json.Marshal(map[string]any{"id": "home", "html": first + "<p>more</p>", "version": pg.Version})
	must(call("PUT", "/page/1/1", string(body)), 200, "page save")
	must(call("POST", "/portal/1/1/commits", `{"message":"more home"}`), 200, "commit page")
	ph := read("/history/1/1/page/home")
	if len(ph.Entries) < 2 || ph.Entries[0].Message != "more home" {
		t.Fatalf("page history: %s", summary(ph))
	}
	must(call("POST", "/history/1/1/page/home/restore", `{"commit":"`+ph.Entries[1].Commit+`"}`), 200, "page restore")
	must(call("GET", "/page/1/1/home", ""), 200, "page").JSON(t, &pg)
	if pg.HTML != first {
		t.Fatalf("page after restore:\n%s", pg.HTML)
	}

	// A translation key in every language: entries carry their language.
	var th struct {
		Entries []struct {
			Lang string `json:"lang"`
		} `json:"entries"`
	}
	must(call("GET", "/history/1/1/translation?key=TXT_ABOUT_TITLE", ""), 200, "translation history").JSON(t, &th)
	langs := map[string]bool{}
	for _, e := range th.Entries {
		langs[e.Lang] = true
	}
	if !langs["en_GB"] || !langs["fr_FR"] || !langs["ar_SA"] {
		t.Fatalf("languages: %v", langs)
	}
}
