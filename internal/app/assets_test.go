package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"mime/multipart"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"portalwright/internal/caller"
	"portalwright/internal/config"
	"portalwright/internal/identity"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
)

func TestAssets(t *testing.T) { assetSuite(t, testConfig(t)) }

func TestAssetsPostgres(t *testing.T) {
	cfg := testConfig(t)
	cfg.DatabaseURL = storetest.PostgresURL(t) // skips without TEST_DATABASE_URL
	assetSuite(t, cfg)
}

type upFile struct {
	name string
	data []byte
}

func multipartBody(files ...upFile) (string, []byte) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, f := range files {
		w, _ := mw.CreateFormFile("files", f.name)
		w.Write(f.data)
	}
	mw.Close()
	return mw.FormDataContentType(), b.Bytes()
}

// assetSuite walks every asset call over HTTP on the demo portal 1 of domain 1.
func assetSuite(t *testing.T, cfg config.Config) {
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	cfg.AssetLimits.Image = 4000
	srv := start(t, cfg)
	tok := testkit.Login(t, srv.base, "admin", "admin-pass")
	base := srv.base + "/api/v1/assets/1/1"
	call := func(method, path, body string, hdr ...string) testkit.Reply {
		t.Helper()
		return testkit.Call(t, method, base+path, tok, body, hdr...)
	}
	if got := testkit.Call(t, "GET", srv.base+"/api/v1/portal/1/1/open", tok, ""); got.Status != 200 {
		t.Fatalf("open: %d %s", got.Status, got.Body)
	}
	ws := filepath.Join(cfg.DataDir, "workspaces")
	var wsDir string
	filepath.WalkDir(ws, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == ".git" && wsDir == "" {
			wsDir = filepath.Dir(p)
		}
		return nil
	})
	if wsDir == "" {
		t.Fatalf("no workspace under %s", ws)
	}
	nothingLeft := func(name string) {
		t.Helper()
		if _, err := os.Stat(filepath.Join(wsDir, name)); err == nil {
			t.Fatalf("%s was stored", name)
		}
		entries, _ := os.ReadDir(filepath.Join(wsDir, ".git", "pw-uploads"))
		if len(entries) > 0 {
			t.Fatalf("unfinished uploads left: %d", len(entries))
		}
	}

	// Limits.
	var limits struct {
		Portal struct {
			Image struct {
				AssocExts      []string `json:"assocExts"`
				SizeLimitBytes int64    `json:"sizeLimitBytes"`
			} `json:"image"`
		} `json:"portal"`
		TotalLimitBytes int64 `json:"totalLimitBytes"`
	}
	if got := testkit.Call(t, "GET", srv.base+"/api/v1/assets/assetSizeLimits", tok, ""); got.Status != 200 {
		t.Fatalf("limits: %d", got.Status)
	} else {
		got.JSON(t, &limits)
	}
	if limits.Portal.Image.SizeLimitBytes != 4000 || limits.TotalLimitBytes != 419430400 || len(limits.Portal.Image.AssocExts) == 0 {
		t.Fatalf("limits: %+v", limits)
	}

	// Folder create: made, then 409; a space is refused.
	if got := call("POST", "/folder/create", `["/media"]`); got.Status != 201 || !strings.Contains(got.Body, `"type":"DIR"`) {
		t.Fatalf("mkdir: %d %s", got.Status, got.Body)
	}
	if got := call("POST", "/folder/create", `["/media"]`); got.Status != 409 {
		t.Fatalf("mkdir again: %d", got.Status)
	}
	if got := call("POST", "/folder/create", `["/my media"]`); got.Status != 400 || !strings.Contains(got.Body, "VALIDATION_ERROR") {
		t.Fatalf("mkdir with a space: %d %s", got.Status, got.Body)
	}

	// Upload: a PNG and a text file; a bad name and a bad extension are listed as errors.
	var img bytes.Buffer
	png.Encode(&img, image.NewRGBA(image.Rect(0, 0, 64, 32)))
	ct, body := multipartBody(upFile{"logo.png", img.Bytes()}, upFile{"notes.txt", []byte("hello")},
		upFile{"bad#name.png", []byte("x")}, upFile{"virus.exe", []byte("x")})
	up := call("POST", "/multi/src/media", string(body), "Content-Type", ct)
	var ur struct {
		Success []string
		Errors  []struct{ Filename, Error string }
	}
	up.JSON(t, &ur)
	if up.Status != 200 || len(ur.Success) != 2 || len(ur.Errors) != 2 || !strings.Contains(ur.Errors[0].Error, "CONTENT_VALIDATION_FAILED") {
		t.Fatalf("upload: %d %s", up.Status, up.Body)
	}
	nothingLeft("media/bad#name.png")
	nothingLeft("media/virus.exe")

	// Listing: folders first, types, dimensions; the file's bytes and meta; info.
	var folder struct {
		Type     string
		Children []struct {
			Name, Path, Type, Dimensions string
			Width, Height                int
			IsHidden                     bool
			CanEdit                      struct{ Editable bool }
		}
	}
	call("GET", "/src/media", "").JSON(t, &folder)
	if folder.Type != "DIR" || len(folder.Children) != 2 || folder.Children[0].Name != "logo.png" || folder.Children[0].Dimensions != "64x32" ||
		folder.Children[0].Type != "image/png" || !folder.Children[0].IsHidden || folder.Children[0].CanEdit.Editable || !folder.Children[1].CanEdit.Editable {
		t.Fatalf("listing: %+v", folder)
	}
	if got := call("GET", "/src/", ""); got.Status != 200 || !strings.Contains(got.Body, `"/media"`) || strings.Contains(got.Body, `".git"`) {
		t.Fatalf("root: %d %s", got.Status, got.Body)
	}
	raw := call("GET", "/src/media/logo.png", "")
	if raw.Status != 200 || raw.Body != img.String() || raw.Header.Get("Content-Type") != "image/png" || raw.ETag() == "" {
		t.Fatalf("bytes: %d %q", raw.Status, raw.Header)
	}
	if got := call("GET", "/src/info/media/logo.png", ""); got.Status != 200 || !strings.Contains(got.Body, `"width":64,"height":32`) {
		t.Fatalf("info: %d %s", got.Status, got.Body)
	}
	if got := call("GET", "/buffered/media/logo.png", ""); got.Status != 200 || !strings.Contains(got.Header.Get("Content-Disposition"), "attachment") || got.Body != img.String() {
		t.Fatalf("download: %d %q", got.Status, got.Header)
	}

	// Upload over the image limit → 413, nothing stored.
	ct, body = multipartBody(upFile{"big.png", bytes.Repeat([]byte("x"), 4001)})
	if got := call("POST", "/multi/src/media", string(body), "Content-Type", ct); got.Status != 413 || !strings.Contains(got.Body, "file size exceeded") {
		t.Fatalf("over the limit: %d %s", got.Status, got.Body)
	}
	nothingLeft("media/big.png")

	// A connection cut mid-upload: nothing stored.
	cutUpload(t, srv.base, tok, "/api/v1/assets/1/1/multi/src/media", "cut.txt")
	time.Sleep(300 * time.Millisecond)
	nothingLeft("media/cut.txt")

	// JSON with a companion schema: invalid refused, valid saved; a stale version → 409.
	if got := call("POST", "/src/data/x.json.schema", `{"data":"{\"type\":\"object\",\"required\":[\"title\"]}"}`); got.Status != 200 {
		t.Fatalf("schema save: %d %s", got.Status, got.Body)
	}
	bad := call("POST", "/src/data/x.json", `{"data":"{\"other\":1}"}`)
	if bad.Status != 400 || !strings.Contains(bad.Body, "CONTENT_VALIDATION_FAILED") || !strings.Contains(bad.Body, "ruleErrors") {
		t.Fatalf("invalid json: %d %s", bad.Status, bad.Body)
	}
	nothingLeft("data/x.json")
	saved := call("POST", "/src/data/x.json", `{"data":"{\"title\":\"a\"}"}`)
	if saved.Status != 200 || saved.ETag() == "" || !strings.Contains(saved.Body, `"editable":true`) {
		t.Fatalf("json save: %d %s", saved.Status, saved.Body)
	}
	if got := call("POST", "/src/data/x.json", `{"data":"{\"title\":\"b\"}"}`, "If-Match", `"stale"`); got.Status != 409 || !strings.Contains(got.Body, "FILE_CHANGED") {
		t.Fatalf("stale save: %d %s", got.Status, got.Body)
	}
	if got := call("POST", "/src/data/x.json", `{"data":"{\"title\":\"b\"}"}`, "If-Match", `"`+saved.ETag()+`"`); got.Status != 200 {
		t.Fatalf("save: %d %s", got.Status, got.Body)
	}

	// Rename file and folder; the root cannot be renamed; a target that exists is 409.
	if got := call("PUT", "/file/rename", `{"oldPath":"/media/notes.txt","newPath":"/media/readme.txt"}`); got.Status != 200 {
		t.Fatalf("file rename: %d %s", got.Status, got.Body)
	}
	// A rename cannot make a type an upload would refuse.
	if got := call("PUT", "/file/rename", `{"oldPath":"/media/readme.txt","newPath":"/media/readme.exe"}`); got.Status != 400 || !strings.Contains(got.Body, "not allowed") {
		t.Fatalf("rename to a refused type: %d %s", got.Status, got.Body)
	}
	if got := call("PUT", "/folder/rename", `{"oldPath":"/","newPath":"/x"}`); got.Status != 400 {
		t.Fatalf("root rename: %d", got.Status)
	}
	if got := call("PUT", "/folder/rename", `{"oldPath":"/media","newPath":"/data"}`); got.Status != 409 {
		t.Fatalf("rename onto a folder: %d %s", got.Status, got.Body)
	}
	if got := call("PUT", "/folder/rename", `{"oldPath":"/media","newPath":"/pictures"}`); got.Status != 200 {
		t.Fatalf("folder rename: %d %s", got.Status, got.Body)
	}

	// Delete: refused while a page mentions the asset, allowed after; a folder with children.
	if got := call("POST", "/src/pages/uses.html", `{"data":"<img src=\"pictures/logo.png\">"}`); got.Status != 200 {
		t.Fatalf("page: %d %s", got.Status, got.Body)
	}
	var res []struct {
		File   string
		Result bool
		Error  *struct{ Error string }
	}
	call("POST", "/delete", `["/pictures/logo.png","/pictures","/pictures/readme.txt"]`).JSON(t, &res)
	if len(res) != 3 || res[0].Result || !strings.Contains(res[0].Error.Error, "pages/uses.html") || res[1].Result ||
		!strings.Contains(res[1].Error.Error, "Folder still has children.") || !res[2].Result {
		t.Fatalf("delete: %+v", res)
	}
	page := call("GET", "/src/pages/uses.html?meta=1", "")
	if got := call("POST", "/src/pages/uses.html", `{"data":"<p>none</p>"}`, "If-Match", page.ETag()); got.Status != 200 {
		t.Fatalf("page edit: %d %s", got.Status, got.Body)
	}
	res = nil
	call("POST", "/delete", `["/pictures/logo.png"]`).JSON(t, &res)
	if len(res) != 1 || !res[0].Result {
		t.Fatalf("delete after the reference went: %+v", res)
	}
	nothingLeft("pictures/logo.png")
	res = nil
	call("POST", "/delete", `["/pictures"]`).JSON(t, &res)
	if len(res) != 1 || !res[0].Result {
		t.Fatalf("delete of the empty folder: %+v", res)
	}

	// Traversal of every shape, on every path-taking call.
	outside := []string{"..", "%2e%2e", "%2e%2e/%2e%2e/etc/passwd", ".git/config", "a/.GIT/x", "a%00b", "a%01b", "a%5cb", "..%2f..%2fetc%2fpasswd"}
	bodyPaths := []string{"/..", "/../../etc/passwd", "/etc/../../passwd", "/.git/config", "/a/.GIT/x", "/a\u0000b", "/a\u0001b", "/a\\b", "//etc/passwd"}
	for _, p := range outside {
		for _, rq := range []struct{ method, path, body string }{
			{"GET", "/src/" + p, ""}, {"GET", "/src/info/" + p, ""}, {"GET", "/buffered/" + p, ""},
			{"POST", "/src/" + p, `{"data":"x"}`},
		} {
			if got := call(rq.method, rq.path, rq.body); got.Status != 400 && got.Status != 404 {
				t.Errorf("%s %s = %d %s", rq.method, rq.path, got.Status, got.Body)
			}
		}
		ct, body := multipartBody(upFile{"a.txt", []byte("x")})
		if got := call("POST", "/multi/src/"+p, string(body), "Content-Type", ct); got.Status != 400 && got.Status != 404 {
			t.Errorf("upload into %s = %d %s", p, got.Status, got.Body)
		}
	}
	for _, p := range bodyPaths {
		j, _ := json.Marshal(p)
		for _, rq := range []struct{ method, path, body string }{
			{"POST", "/folder/create", "[" + string(j) + "]"},
			{"PUT", "/folder/rename", fmt.Sprintf(`{"oldPath":"/data","newPath":%s}`, j)},
			{"PUT", "/folder/rename", fmt.Sprintf(`{"oldPath":%s,"newPath":"/y"}`, j)},
			{"PUT", "/file/rename", fmt.Sprintf(`{"oldPath":"/data/x.json","newPath":%s}`, j)},
			{"PUT", "/file/rename", fmt.Sprintf(`{"oldPath":%s,"newPath":"/y.txt"}`, j)},
		} {
			if got := call(rq.method, rq.path, rq.body); got.Status != 400 && got.Status != 404 {
				t.Errorf("%s %s %s = %d %s", rq.method, rq.path, rq.body, got.Status, got.Body)
			}
		}
		res = nil
		call("POST", "/delete", "["+string(j)+"]").JSON(t, &res)
		if len(res) != 1 || res[0].Result {
			t.Errorf("delete %s: %+v", p, res)
		}
	}
	if _, err := os.Stat(filepath.Join(wsDir, ".git", "config")); err != nil {
		t.Fatalf(".git/config touched: %v", err)
	}
	if _, err := os.Stat(filepath.Join(wsDir, "data", "x.json")); err != nil {
		t.Fatalf("data/x.json moved by a refused rename: %v", err)
	}
}

// cutUpload sends the start of a multipart upload and closes the connection mid-file.
func cutUpload(t *testing.T, base, tok, path, name string) {
	t.Helper()
	ct, body := multipartBody(upFile{name, bytes.Repeat([]byte("y"), 200000)})
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", path, tok, ct, len(body))
	conn.Write(body[:len(body)/2])
	time.Sleep(100 * time.Millisecond)
	conn.Close()
	_ = io.Discard
}

// Saving a file's source needs code:w besides the route's asset_create (spec 2 §6); a JSON
// file (the JSON editor) needs asset_create only. Refused saves write nothing.
func TestSourceSaveNeedsCodeWrite(t *testing.T) {
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	ctx := context.Background()
	root := caller.Caller{UserID: 1, Username: "admin", Admin: true}
	for name, perms := range map[string][]string{"editors": {"portal:r", "branch:r", "asset:r", "asset:c"}, "coders": {"portal:r", "branch:r", "asset:r", "asset:c", "code:w"}} {
		u, err := srv.app.Identity.CreateUser(ctx, identity.NewUser{UserName: name, Password: name + "-pass"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := srv.app.Access.Grants().CreateGroup(ctx, root, 1, name, perms); err != nil {
			t.Fatal(err)
		}
		if err := srv.app.Access.Grants().AssignRole(ctx, root, u.ID, 1, name); err != nil {
			t.Fatal(err)
		}
	}
	api := srv.base + "/api/v1"
	for _, who := range []string{"editors", "coders"} {
		tok := testkit.Login(t, srv.base, who, who+"-pass")
		if got := testkit.Call(t, "GET", api+"/portal/1/2/open", tok, ""); got.Status >= 300 {
			t.Fatalf("open as %s: %d %s", who, got.Status, got.Body)
		}
		css := testkit.Call(t, "POST", api+"/assets/1/2/src/site.css", tok, `{"data":"body{}"}`)
		json := testkit.Call(t, "POST", api+"/assets/1/2/src/notes.json", tok, `{"data":"{}"}`)
		if json.Status != 200 {
			t.Errorf("%s saving JSON: %d %s", who, json.Status, json.Body)
		}
		switch who {
		case "editors":
			if css.Status != 403 || css.Message != "You do not have the right permission to access to this section. Please contact your Administrator" {
				t.Errorf("a source save without code:w: %d %s", css.Status, css.Body)
			}
			if got := testkit.Call(t, "GET", api+"/assets/1/2/src/site.css", tok, ""); got.Status != 404 {
				t.Errorf("the refused save wrote the file: %d", got.Status)
			}
		case "coders":
			if css.Status != 200 {
				t.Errorf("a source save with code:w: %d %s", css.Status, css.Body)
			}
		}
	}
}
