package app

import (
	"encoding/json"
	"strings"
	"testing"
)

// Issue 30 items 2, 3 and 7 over HTTP, on a website monorepo served by git daemon: types from
// the product's own table (charset on text, sniffing for unknown names), the listing, a file's
// answer and a save's answer agree on editable and the editor's mode; tsconfig.json with
// comments saves unchanged while strict JSON stays strict; a PDF linked as /static/… from
// Markdown pages is kept by a delete.
func TestFileTypesRealRepo(t *testing.T) {
	h := startGitHosted(t, testConfig(t), "Site")
	call := h.call
	tsconfig := "{\n  \"compilerOptions\": {\n    // keep in step with apps/site\n    \"target\": \"es2022\"\n  }\n}\n"
	files := map[string]string{
		"apps/site/pages/en/index.mdx":                             "# Welcome\n",
		"apps/site/pages/en/survey.md":                             "Read [the report](/static/documents/2016-survey-report.pdf).\n",
		"apps/site/pages/de/umfrage.md":                            "![Titel](/static/documents/2016-survey-report.pdf)\n",
		"apps/site/public/static/documents/2016-survey-report.pdf": "%PDF-1.4\n",
		"apps/site/public/static/documents/old.pdf":                "%PDF-1.4\n",
		"apps/site/components/Hero.tsx":                            "export const Hero = () => null;\n",
		"apps/site/tsconfig.json":                                  tsconfig,
		"packages/i18n/src/locales/en.json":                        "{\"nav\": {\"home\": \"Home\"}}\n",
		"LICENSE":                                                  "MIT License\n",
		".nvmrc":                                                   "20\n",
		"NOTES":                                                    "Überblick: Grüße aus Köln\n",
		"tools/blob":                                               "bin\x00ary",
	}
	newHostRepo(t, h.hosts, "site.git", files)
	p, _ := h.importPortal(t, "Site", "site.git")
	a := "/assets/" + p

	// Item 2: the bytes' Content-Type.
	for path, want := range map[string]string{
		"apps/site/pages/en/index.mdx":  "text/markdown; charset=utf-8",
		"apps/site/components/Hero.tsx": "text/tsx; charset=utf-8",
		"LICENSE":                       "text/plain; charset=utf-8",
		".nvmrc":                        "text/plain; charset=utf-8",
		"NOTES":                         "text/plain; charset=utf-8", // unknown name, sniffed: text
		"tools/blob":                    "application/octet-stream",  // a NUL: binary
		"apps/site/public/static/documents/old.pdf": "application/pdf",
	} {
		got := call("GET", a+"/src/"+path, "")
		if got.Status != 200 || got.Header.Get("Content-Type") != want || got.Body != files[path] {
			t.Errorf("%s: %d %q %q", path, got.Status, got.Header.Get("Content-Type"), got.Body)
		}
	}
	if got := call("GET", a+"/buffered/NOTES", ""); got.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Errorf("download: %q", got.Header.Get("Content-Type"))
	}

	// The listing, the file's answer and the save's answer agree on editable and the mode.
	type desc struct {
		Name, Type, EditorMode string
		CanEdit                struct{ Editable bool }
	}
	for folder, want := range map[string]map[string]string{
		"apps/site/pages/en":   {"index.mdx": "markdown", "survey.md": "markdown"},
		"apps/site/components": {"Hero.tsx": "tsx"},
		"apps/site":            {"tsconfig.json": "json"},
		"":                     {"LICENSE": "text", ".nvmrc": "text", "NOTES": "text"},
		"tools":                {"blob": ""},
	} {
		var listing struct{ Children []desc }
		_ = json.Unmarshal([]byte(call("GET", a+"/src/"+folder, "").Body), &listing)
		for _, c := range listing.Children {
			mode, ok := want[c.Name]
			if !ok {
				continue
			}
			path := strings.TrimPrefix(folder+"/"+c.Name, "/")
			meta := call("GET", a+"/src/"+path+"?meta=1", "")
			var one desc
			_ = json.Unmarshal([]byte(meta.Body), &one)
			if c.EditorMode != mode || c.CanEdit.Editable != (mode != "") || one != c {
				t.Errorf("%s: listed %+v, its answer %+v, want mode %q", path, c, one, mode)
			}
			delete(want, c.Name)
			if mode == "" {
				continue
			}
			body, _ := json.Marshal(map[string]string{"data": files[path]})
			saved := call("POST", a+"/src/"+path, string(body), "If-Match", meta.Header.Get("ETag"))
			var after desc
			_ = json.Unmarshal([]byte(saved.Body), &after)
			if saved.Status != 200 || after != c { // tsconfig.json with comments saved unchanged (item 3)
				t.Errorf("%s saved unchanged: %d %s, listed %+v", path, saved.Status, saved.Body, c)
			}
		}
		if len(want) > 0 {
			t.Errorf("%s: not listed %v", folder, want)
		}
	}

	// Item 3: a strict JSON file stays strict, with the line and column.
	const en = "/src/packages/i18n/src/locales/en.json"
	broken := call("POST", a+en, `{"data":"{\"nav\": {\"home\": \"Home\",}}\n"}`, "If-Match", call("GET", a+en+"?meta=1", "").Header.Get("ETag"))
	if broken.Status != 400 || !strings.Contains(broken.Body, "Wrong JSON Format: line 1, column 25") {
		t.Errorf("broken strict JSON: %d %s", broken.Status, broken.Body)
	}

	// Item 7: the PDF linked through the site root is kept, with the referencing pages listed.
	del := call("POST", a+"/delete", `["/apps/site/public/static/documents/2016-survey-report.pdf","/apps/site/public/static/documents/old.pdf"]`)
	var res []struct {
		File   string
		Result bool
		Error  *struct{ Error string }
	}
	_ = json.Unmarshal([]byte(del.Body), &res)
	if del.Status != 200 || len(res) != 2 || res[0].Result || res[0].Error == nil ||
		!strings.Contains(res[0].Error.Error, `"data":["apps/site/pages/de/umfrage.md","apps/site/pages/en/survey.md"]`) || !res[1].Result {
		t.Errorf("delete: %d %s", del.Status, del.Body)
	}
	if got := call("GET", a+"/src/apps/site/public/static/documents/2016-survey-report.pdf", ""); got.Status != 200 {
		t.Errorf("the referenced report: %d", got.Status)
	}
}
