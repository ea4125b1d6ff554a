package asset_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"portalwright/internal/asset"
	"portalwright/internal/testkit"
	"portalwright/internal/workspace"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const lfsPointer = "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n"

// The file type table decides type, editable and the editor's mode; a folder's listing, a
// file's answer (?meta=1) and a save's answer describe a file alike.
func TestTypesEditableAndModes(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	writeFiles(t, f.dir, map[string]string{
		"z/index.mdx": "# Hi\n", "z/App.tsx": "export {}\n", "z/LICENSE": "MIT\n", "z/.nvmrc": "20\n",
		"z/notes": "héllo\n", "z/blob": "a\x00b", "z/logo.png": "\x89PNG", "z/big.md": lfsPointer,
		"z/tsconfig.json": "{\n  // comment\n}\n", "z/en.json": "{}\n", "z/x.json": "{}", "z/x.json.schema": `{"type":"object"}`,
		"z/site.yml": "a: 1\n", "z/Dockerfile": "FROM x\n",
	})
	want := map[string]struct {
		typ, mode string
		editable  bool
	}{
		"index.mdx": {"text/markdown", "markdown", true}, "App.tsx": {"text/tsx", "tsx", true},
		"LICENSE": {"text/plain", "text", true}, ".nvmrc": {"text/plain", "text", true},
		"notes": {"text/plain", "text", true}, "blob": {"application/octet-stream", "", false},
		"logo.png": {"image/png", "", false}, "big.md": {"text/markdown", "", false},
		"tsconfig.json": {"application/json", "json", true}, "en.json": {"application/json", "json", true},
		"x.json": {"application/json", "json", true}, "x.json.schema": {"application/schema+json", "json", true},
		"site.yml": {"text/yaml", "yaml", true}, "Dockerfile": {"text/plain", "dockerfile", true},
	}
	dir, err := f.svc.Get(ctx, f.ann, f.pa, workspace.MustPath("z"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dir.Children) != len(want) {
		t.Fatalf("listed %d of %d", len(dir.Children), len(want))
	}
	for _, listed := range dir.Children {
		w := want[listed.Name]
		p := workspace.MustPath("z/" + listed.Name)
		one, err := f.svc.Get(ctx, f.ann, f.pa, p)
		if err != nil {
			t.Fatal(err)
		}
		for what, a := range map[string]*asset.Asset{"listing": listed, "file": one} {
			if a.Type != w.typ || a.EditorMode != w.mode || a.CanEdit.Editable != w.editable {
				t.Errorf("%s in the %s: %s %q %v, want %s %q %v", listed.Name, what, a.Type, a.EditorMode, a.CanEdit.Editable, w.typ, w.mode, w.editable)
			}
		}
		if one.CanEdit != listed.CanEdit || one.Kind != listed.Kind {
			t.Errorf("%s: the file's answer %+v %q, the listing's %+v %q", listed.Name, one.CanEdit, one.Kind, listed.CanEdit, listed.Kind)
		}
		if !w.editable {
			continue
		}
		data, _, err := f.svc.Open(ctx, f.ann, f.pa, p)
		if err != nil {
			t.Fatal(err)
		}
		data.Close()
		content, _ := os.ReadFile(filepath.Join(f.dir, "z", listed.Name))
		saved, err := f.svc.Save(ctx, f.ann, f.pa, p, string(content), workspace.Version(one.Version))
		if err != nil {
			t.Fatalf("save %s unchanged: %v", listed.Name, err)
		}
		if saved.CanEdit != listed.CanEdit || saved.EditorMode != listed.EditorMode || saved.Type != listed.Type {
			t.Errorf("%s: the save's answer %+v %q, the listing's %+v %q", listed.Name, saved.CanEdit, saved.EditorMode, listed.CanEdit, listed.EditorMode)
		}
	}
	// New files of the web's source types may be made; the documented list is the allowed one.
	if _, err := f.svc.Save(ctx, f.ann, f.pa, workspace.MustPath("z/new.mdx"), "# New\n", workspace.NoVersion); err != nil {
		t.Fatalf("a new .mdx: %v", err)
	}
	for _, e := range []string{"mdx", "tsx", "vue", "yaml", "toml", "png", "pdf", "woff2"} {
		if !strings.Contains(","+strings.Join(asset.AllowedExtensions(), ",")+",", ","+e+",") {
			t.Errorf("%s not allowed", e)
		}
	}
}

// JSON with comments (issue 30 item 3): saved as text where the file is JSONC by its name or
// was not strict JSON; strict where it was, or has a schema.
func TestJSONWithComments(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	tsconfig := "{\n  \"compilerOptions\": {\n    // the target\n    \"target\": \"es2022\", /* and more */\n  },\n}\n"
	loose := "{\n  // a locale file someone commented\n  \"a\": 1\n}\n"
	writeFiles(t, f.dir, map[string]string{"apps/site/tsconfig.json": tsconfig, "conf/loose.json": loose,
		"conf/x.jsonc": "// c\n{}\n", "conf/strict.json": "{\"a\": 1}\n"})
	save := func(p, data string) (*asset.Asset, error) {
		t.Helper()
		cur, err := f.svc.Get(ctx, f.ann, f.pa, workspace.MustPath(p))
		if err != nil {
			t.Fatal(err)
		}
		return f.svc.Save(ctx, f.ann, f.pa, workspace.MustPath(p), data, workspace.Version(cur.Version))
	}
	for p, data := range map[string]string{"apps/site/tsconfig.json": tsconfig, "conf/loose.json": loose + "\n", "conf/x.jsonc": "// c\n{,}\n"} {
		if a, err := save(p, data); err != nil || a.StrictJSON {
			t.Errorf("%s: %v %+v", p, err, a)
		}
		if got, _ := os.ReadFile(filepath.Join(f.dir, p)); string(got) != data {
			t.Errorf("%s: stored %q", p, got)
		}
	}
	// Strict JSON stays strict: a break is refused with its line and column, nothing written.
	if a, _ := f.svc.Get(ctx, f.ann, f.pa, workspace.MustPath("conf/strict.json")); !a.StrictJSON {
		t.Errorf("strict.json: not strict %+v", a)
	}
	_, err := save("conf/strict.json", "{\n  \"a\": 1,\n  // no\n}\n")
	e := testkit.APIError(t, err, http.StatusBadRequest, asset.CodeContentInvalid)
	if !strings.HasPrefix(e.Message, "Wrong JSON Format: line 3, column 3:") {
		t.Errorf("message: %q", e.Message)
	}
	if got, _ := os.ReadFile(filepath.Join(f.dir, "conf/strict.json")); string(got) != "{\"a\": 1}\n" {
		t.Errorf("written: %q", got)
	}
	// A new JSON file is strict; a JSONC-by-name file with a schema is strict too.
	_, err = f.svc.Save(ctx, f.ann, f.pa, workspace.MustPath("conf/new.json"), "{//\n}", workspace.NoVersion)
	testkit.APIError(t, err, http.StatusBadRequest, asset.CodeContentInvalid)
	writeFiles(t, f.dir, map[string]string{"apps/site/tsconfig.json.schema": `{"type":"object"}`})
	_, err = save("apps/site/tsconfig.json", tsconfig)
	testkit.APIError(t, err, http.StatusBadRequest, asset.CodeContentInvalid)
}

// References through a site root (issue 30 item 7): a file below apps/site/public is
// referenced by its root-relative web path.
func TestDeleteThroughSiteRoots(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	writeFiles(t, f.dir, map[string]string{
		"apps/site/public/static/documents/2016-survey-report.pdf": "%PDF-1.4",
		"apps/site/public/static/documents/unused.pdf":             "%PDF-1.4",
		"apps/site/public/static/documents/near.pdf":               "%PDF-1.4",
		"apps/site/pages/en/a.md":                                  "See [the report](/static/documents/2016-survey-report.pdf).\n",
		"apps/site/pages/fr/b.mdx":                                 "![cover](/static/documents/2016-survey-report.pdf \"t\")\n",
		"apps/site/pages/en/c.md":                                  "[x](/old/static/documents/near.pdf) [y](/static/documents/near.pdf.bak)\n",
		"site/assets/brochure.pdf":                                 "%PDF-1.4",
		"content/d.html":                                           `<a href="/assets/brochure.pdf?v=2">b</a>`,
	})
	res, err := f.svc.Delete(ctx, f.ann, f.pa, []string{
		"/apps/site/public/static/documents/2016-survey-report.pdf",
		"/apps/site/public/static/documents/unused.pdf",
		"/apps/site/public/static/documents/near.pdf",
		"/site/assets/brochure.pdf",
	})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Result || res[0].Error == nil || !strings.Contains(res[0].Error.Error, asset.MsgUsed) ||
		!strings.Contains(res[0].Error.Error, `"data":["apps/site/pages/en/a.md","apps/site/pages/fr/b.mdx"]`) {
		t.Errorf("the referenced report: %+v %v", res[0], res[0].Error)
	}
	if !res[1].Result || !res[2].Result {
		t.Errorf("unreferenced: %+v %+v", res[1], res[2])
	}
	if !res[3].Result { // site/ is no site root without the setting
		t.Errorf("brochure without the setting: %+v", res[3])
	}
	if _, err := os.Stat(filepath.Join(f.dir, "apps/site/public/static/documents/2016-survey-report.pdf")); err != nil {
		t.Errorf("the referenced file is gone: %v", err)
	}
	// A site root of the portal's settings (portal.json siteRoots).
	writeFiles(t, f.dir, map[string]string{"portal.json": `{"siteRoots":["site"]}`, "site/assets/brochure.pdf": "%PDF-1.4"})
	res, err = f.svc.Delete(ctx, f.ann, f.pa, []string{"/site/assets/brochure.pdf"})
	if err != nil || res[0].Result || !strings.Contains(res[0].Error.Error, `"data":["content/d.html"]`) {
		t.Errorf("brochure with the setting: %+v %v", res, err)
	}
}
