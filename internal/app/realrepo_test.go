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

// Issue 24 over HTTP with a real repository served by git daemon: a symbolic link, a
// submodule and a Git LFS pointer are listed as what they are and never changed by the
// product (a commit of other files keeps them byte for byte on the host).
func TestRealRepositories(t *testing.T) { realRepoSuite(t, testConfig(t)) }

func TestRealRepositoriesPostgres(t *testing.T) {
	cfg := testConfig(t)
	cfg.DatabaseURL = storetest.PostgresURL(t) // skips without TEST_DATABASE_URL
	realRepoSuite(t, cfg)
}

const lfsPointer = "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345678\n"

// newRealRepo makes a bare repository with the entries real repositories carry.
func newRealRepo(t *testing.T, root string) string {
	t.Helper()
	bare := filepath.Join(root, "real.git")
	gitT(t, root, "init", "-q", "--bare", "--initial-branch=master", bare)
	work := filepath.Join(t.TempDir(), "seed")
	gitT(t, "", "clone", "-q", bare, work)
	write := func(name, content string) {
		os.MkdirAll(filepath.Dir(filepath.Join(work, name)), 0o755)
		if err := os.WriteFile(filepath.Join(work, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("README.md", "# Real\n")
	write("odd/hash#percent q?.md", "odd name\n")
	write("index.html", "<h1>Real</h1>\n")
	write("assets/photo.png", lfsPointer)
	write("locales/en.json", "{\n  \"nav\": {\n    \"home\": \"Home\"\n  }\n}\n")
	if err := os.Symlink("../README.md", filepath.Join(work, "docs-link.md")); err != nil {
		t.Fatal(err)
	}
	gitT(t, work, "add", "-A")
	// A submodule entry (a gitlink) without cloning anything.
	gitT(t, work, "update-index", "--add", "--cacheinfo", "160000,4d7a214614ab2935c943f9e0ff69d22eadbb8f32,vendor/lib")
	gitT(t, work, "commit", "-q", "-m", "Seed")
	gitT(t, work, "push", "-q", "origin", "master")
	return bare
}

func realRepoSuite(t *testing.T, cfg config.Config) {
	h := startGitHosted(t, cfg, "Real")
	call := h.call
	bare := newRealRepo(t, h.hosts)
	p, id := h.importPortal(t, "Real", "real.git")

	var root struct {
		Children []struct {
			Name, Kind, Target string
			Size               int64
			CanEdit            struct{ Editable bool }
		}
	}
	_ = json.Unmarshal([]byte(call("GET", "/assets/"+p+"/src/", "").Body), &root)
	kinds := map[string]string{}
	for _, c := range root.Children {
		kinds[c.Name] = c.Kind
		if c.Name == "docs-link.md" && (c.Target != "../README.md" || c.CanEdit.Editable) {
			t.Errorf("the link: %+v", c)
		}
	}
	if kinds["docs-link.md"] != "link" || kinds["README.md"] != "" {
		t.Errorf("kinds at the top: %v", kinds)
	}
	var assets struct {
		Children []struct {
			Name, Kind string
			Size       int64
		}
	}
	_ = json.Unmarshal([]byte(call("GET", "/assets/"+p+"/src/assets", "").Body), &assets)
	if len(assets.Children) != 1 || assets.Children[0].Kind != "lfs" || assets.Children[0].Size != 12345678 {
		t.Errorf("the LFS object: %+v", assets.Children)
	}
	var vendor struct {
		Children []struct{ Name, Kind string }
	}
	_ = json.Unmarshal([]byte(call("GET", "/assets/"+p+"/src/vendor", "").Body), &vendor)
	if len(vendor.Children) != 1 || vendor.Children[0].Kind != "submodule" {
		t.Errorf("the submodule: %+v", vendor.Children)
	}

	// Nothing the product writes changes them.
	meta := call("GET", "/assets/"+p+"/src/docs-link.md?meta=1", "")
	for what, got := range map[string]testkit.Reply{
		"save the link":        call("POST", "/assets/"+p+"/src/docs-link.md", `{"data":"../README.md\n<!-- edited -->\n"}`, "If-Match", meta.Header.Get("ETag")),
		"rename the link":      call("PUT", "/assets/"+p+"/file/rename", `{"oldPath":"/docs-link.md","newPath":"/moved.md"}`),
		"save the LFS pointer": call("POST", "/assets/"+p+"/src/assets/photo.png", `{"data":"not a png"}`, "If-Match", call("GET", "/assets/"+p+"/src/assets/photo.png?meta=1", "").Header.Get("ETag")),
		"rename the submodule": call("PUT", "/assets/"+p+"/folder/rename", `{"oldPath":"/vendor","newPath":"/vendored"}`),
		"write in a submodule": call("POST", "/assets/"+p+"/src/vendor/lib/x.css", `{"data":"a{}"}`),
	} {
		if got.Status < 400 || got.Status >= 500 {
			t.Errorf("%s: %d %s", what, got.Status, got.Body)
		}
	}
	del := call("POST", "/assets/"+p+"/delete", `["/docs-link.md","/assets/photo.png"]`)
	if strings.Contains(del.Body, `"result":true`) {
		t.Errorf("delete: %s", del.Body)
	}

	// A commit of another file keeps every special entry as the host has it.
	if got := call("POST", "/assets/"+p+"/src/index.html", `{"data":"<h1>Edited</h1>\n"}`, "If-Match", call("GET", "/assets/"+p+"/src/index.html?meta=1", "").Header.Get("ETag")); got.Status != 200 {
		t.Fatalf("save index.html: %d %s", got.Status, got.Body)
	}
	if got := call("POST", "/portal/"+p+"/commits", `{"message":"Edit index"}`); got.Status != 200 {
		t.Fatalf("commit: %d %s", got.Status, got.Body)
	}
	// A name the upload rule would refuse is kept: the file can be saved, and renamed away.
	const odd = "/assets/%s/src/odd/hash%23percent%20q%3F.md"
	oddMeta := call("GET", strings.Replace(odd, "%s", p, 1)+"?meta=1", "")
	if oddMeta.Status != 200 {
		t.Fatalf("odd name meta: %d %s", oddMeta.Status, oddMeta.Body)
	}
	if got := call("POST", strings.Replace(odd, "%s", p, 1), `{"data":"odd name, edited\n"}`, "If-Match", oddMeta.Header.Get("ETag")); got.Status != 200 {
		t.Errorf("save an existing odd name: %d %s", got.Status, got.Body)
	}
	if got := call("POST", "/assets/"+p+"/src/odd/new%23name.md", `{"data":"x"}`); got.Status != 400 {
		t.Errorf("a new odd name: %d %s", got.Status, got.Body)
	}
	// Search sees every text file, not only the portal format's folders.
	var found struct {
		Results []struct {
			Type, Path, Title string
			Line              int
		}
	}
	_ = json.Unmarshal([]byte(call("GET", "/portal/"+p+"/search?phrase=ODD+NAME", "").Body), &found)
	if len(found.Results) != 1 || found.Results[0].Type != "file" || found.Results[0].Path != "odd/hash#percent q?.md" || found.Results[0].Line != 1 {
		t.Errorf("search: %+v", found.Results)
	}
	canonical := filepath.Join(cfg.DataDir, "repos", strconv.FormatInt(id, 10)+".git")
	tree := gitT(t, canonical, "ls-tree", "-r", "master")
	for _, want := range []string{"120000 blob", "160000 commit 4d7a214614ab2935c943f9e0ff69d22eadbb8f32\tvendor/lib"} {
		if !strings.Contains(tree, want) {
			t.Errorf("master lost %q:\n%s", want, tree)
		}
	}
	if target := gitT(t, canonical, "cat-file", "-p", "master:docs-link.md"); target != "../README.md" {
		t.Errorf("the link's target on master: %q", target)
	}
	if ptr := gitT(t, canonical, "cat-file", "-p", "master:assets/photo.png"); ptr+"\n" != lfsPointer {
		t.Errorf("the LFS pointer on master: %q", ptr)
	}
	_ = bare
}
