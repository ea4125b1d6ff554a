package asset_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"portalwright/internal/notice"
	"strings"
	"testing"
	"testing/fstest"

	"portalwright/internal/apperr"
	"portalwright/internal/asset"
	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/gitcli"
	"portalwright/internal/portalaccess"
	"portalwright/internal/testkit"
	"portalwright/internal/workspace"
)

type inDomain struct{}

func (inDomain) Load(context.Context, int64, int64) (portalaccess.Record, error) {
	return portalaccess.Record{Name: "Crew", DomainName: "Home", Active: true}, nil
}

type sent struct {
	portalID int64
	title    string
	data     asset.Uploaded
}

type notices struct{ got []sent }

func (n *notices) Progress(context.Context, int64, notice.Card) {}

func (n *notices) Publish(_ context.Context, to notice.Room, title string, data any) {
	n.got = append(n.got, sent{to.ID, title, data.(asset.Uploaded)})
}

type names struct{}

func (names) Person(context.Context, int64) (editing.Person, error) {
	return editing.Person{FirstName: "Ann", LastName: "Lee"}, nil
}

type fixture struct {
	svc   *asset.Service
	ann   caller.Caller
	pa    portalaccess.Portal
	dir   string
	notes *notices
}

func setup(t *testing.T) fixture {
	t.Helper()
	ctx := context.Background()
	g, err := gitcli.New(ctx, gitcli.Options{Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	repos := workspace.NewRepos(g, gitcli.NewLocks(), t.TempDir())
	files := fstest.MapFS{
		"portal.json":                      {Data: []byte(`{}`)},
		"pages/home.html":                  {Data: []byte(`<img src="images/logo.svg">`)},
		"images/logo.svg":                  {Data: []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 40"></svg>`)},
		"images/icon.svg":                  {Data: []byte(`<svg width="24px" height="16"></svg>`)},
		"data/x.json":                      {Data: []byte(`{}`)},
		"data/x.json.schema":               {Data: []byte(`{"type":"object"}`)},
		"data/y.json":                      {Data: []byte(`{}`)},
		"microsites/m/content.json":        {Data: []byte(`{}`)},
		"microsites/m/content.json.schema": {Data: []byte(`{}`)},
	}
	if err := repos.Core().CreateFromFiles(ctx, 1, files, "Create", workspace.SystemAuthor); err != nil {
		t.Fatal(err)
	}
	ann := caller.Caller{UserID: 2, Username: "ann"}
	if _, err := repos.Open(ctx, ann.UserID, 1, "master", false); err != nil {
		t.Fatal(err)
	}
	pa, err := portalaccess.NewChecker(inDomain{}).Check(ctx, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	n := &notices{}
	svc := asset.NewService(editing.New(repos, nil), asset.Limits{Image: 100, Video: 1000, PDF: 1000, Default: 50}, n, names{})
	return fixture{svc: svc, ann: ann, pa: pa, dir: repos.WorkspaceDir(ann.UserID, 1), notes: n}
}

func multipartOf(t *testing.T, files map[string][]byte, order ...string) *multipart.Reader {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, name := range order {
		w, _ := mw.CreateFormFile("files", name)
		w.Write(files[name])
	}
	mw.Close()
	return multipart.NewReader(&b, mw.Boundary())
}

func TestListingAndEditRules(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	root, err := f.svc.Get(ctx, f.ann, f.pa, workspace.Root)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, c := range root.Children {
		order = append(order, c.Name)
		if c.Name == ".git" {
			t.Fatal(".git listed")
		}
	}
	if strings.Join(order, ",") != "data,images,microsites,pages,portal.json" || !root.HasChildren {
		t.Fatalf("root children: %v", order)
	}
	if !root.Children[2].HasChildren || root.Children[0].HasChildren || !root.Children[4].IsHidden || root.Children[0].IsHidden {
		t.Fatalf("hasChildren/isHidden: %+v", root.Children)
	}
	images, _ := f.svc.Get(ctx, f.ann, f.pa, workspace.MustPath("images"))
	if images.Children[0].Name != "icon.svg" || images.Children[0].Dimensions != "24x16" || images.Children[1].Dimensions != "120x40" || images.Children[1].Type != "image/svg+xml" {
		t.Fatalf("svg sizes: %+v %+v", images.Children[0], images.Children[1])
	}
	data, _ := f.svc.Get(ctx, f.ann, f.pa, workspace.MustPath("data"))
	edit := map[string]asset.CanEdit{}
	for _, c := range data.Children {
		edit[c.Name] = c.CanEdit
	}
	if !edit["x.json"].Editable || !edit["y.json"].Editable || edit["y.json"].ToolTipMessage != asset.MsgNoSchemaSource || !edit["x.json.schema"].Editable {
		t.Fatalf("canEdit: %+v", edit)
	}
	ms, _ := f.svc.Get(ctx, f.ann, f.pa, workspace.MustPath("microsites/m/content.json"))
	if ms.CanEdit.Editable || ms.CanEdit.ToolTipMessage != asset.MsgMicrosite || ms.Version == "" || ms.Type != "application/json" {
		t.Fatalf("microsite json: %+v", ms)
	}
	if _, err := f.svc.Get(ctx, f.ann, f.pa, workspace.MustPath("nothing")); err == nil {
		t.Fatal("a missing path answered")
	} else {
		testkit.APIError(t, err, http.StatusNotFound, "FILE_NOT_FOUND")
	}
}

func TestUploadRules(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	files := map[string][]byte{"a.txt": []byte("hello"), "b$.txt": []byte("x"), "c%.txt": []byte("x"), "d.exe": []byte("x")}
	res, err := f.svc.Upload(ctx, f.ann, f.pa, workspace.MustPath("docs/new"), multipartOf(t, files, "a.txt", "b$.txt", "c%.txt", "d.exe"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(res.Success, ",") != "a.txt,b$.txt" || len(res.Errors) != 2 || res.Errors[0].Filename != "c%.txt" ||
		!strings.Contains(res.Errors[0].Error, asset.MsgSpecialChars) || !strings.Contains(res.Errors[1].Error, `"ruleErrors":[{"message"`) {
		t.Fatalf("upload: %+v", res)
	}
	if len(f.notes.got) != 2 || f.notes.got[0].title != asset.EventUploaded || f.notes.got[0].portalID != 1 {
		t.Fatalf("notices: %+v", f.notes.got)
	}
	n := f.notes.got[0].data
	if n.File != "a.txt" || n.UploadPath != "/docs/new" || n.Branch != "master" || n.User.FirstName != "Ann" || n.User.ID != f.ann.UserID || n.Domain != "Home" || n.Portal != "Crew" {
		t.Fatalf("notice: %+v", n)
	}
	// Over the type limit (default 50): 413, nothing of it stored.
	_, err = f.svc.Upload(ctx, f.ann, f.pa, workspace.Root, multipartOf(t, map[string][]byte{"big.txt": bytes.Repeat([]byte("x"), 51)}, "big.txt"))
	testkit.APIError(t, err, http.StatusRequestEntityTooLarge, "FILE_SIZE_EXCEEDED")
	if _, err := os.Stat(filepath.Join(f.dir, "big.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("big.txt stored: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(f.dir, ".git", "pw-uploads")); len(entries) != 0 {
		t.Fatalf("temporary files left: %d", len(entries))
	}
	// A body cut mid-file: 400 UPLOAD_INTERRUPTED, nothing of it stored.
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	w, _ := mw.CreateFormFile("files", "cut.txt")
	w.Write(bytes.Repeat([]byte("y"), 40))
	cut := multipart.NewReader(io.LimitReader(bytes.NewReader(b.Bytes()), int64(b.Len())), mw.Boundary())
	_, err = f.svc.Upload(ctx, f.ann, f.pa, workspace.Root, cut)
	testkit.APIError(t, err, http.StatusBadRequest, "UPLOAD_INTERRUPTED")
	if _, err := os.Stat(filepath.Join(f.dir, "cut.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("cut.txt stored: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(f.dir, ".git", "pw-uploads")); len(entries) != 0 {
		t.Fatalf("temporary files left: %d", len(entries))
	}
	// Into a file: refused.
	_, err = f.svc.Upload(ctx, f.ann, f.pa, workspace.MustPath("portal.json"), multipartOf(t, files, "a.txt"))
	testkit.APIError(t, err, http.StatusBadRequest, "NOT_A_FOLDER")

	// A JSON file with a companion schema keeps it when uploaded too: the breaking copy is
	// refused with its rule and not stored, the keeping one replaces the file.
	schema := []byte(`{"type":"object","required":["title"],"properties":{"title":{"type":"string","minLength":1}}}`)
	if err := os.WriteFile(filepath.Join(f.dir, "menu.json.schema"), schema, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err = f.svc.Upload(ctx, f.ann, f.pa, workspace.Root, multipartOf(t, map[string][]byte{"menu.json": []byte(`{"title":""}`)}, "menu.json"))
	if err != nil || len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Error, `"errorCodeDesc":"CONTENT_VALIDATION_FAILED"`) ||
		!strings.Contains(res.Errors[0].Error, "/title") {
		t.Fatalf("a JSON upload breaking its schema: %+v, %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(f.dir, "menu.json")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the refused menu.json was stored: %v", err)
	}
	res, err = f.svc.Upload(ctx, f.ann, f.pa, workspace.Root, multipartOf(t, map[string][]byte{"menu.json": []byte(`{"title":"Menu"}`)}, "menu.json"))
	if err != nil || len(res.Success) != 1 {
		t.Fatalf("a JSON upload keeping its schema: %+v, %v", res, err)
	}

	// A JSON file uploaded with its schema is checked against that schema, whichever part
	// comes first (issue 22 item 3).
	strict := []byte(`{"type":"object","required":["name"]}`)
	for _, order := range [][]string{{"menu.json", "menu.json.schema"}, {"menu.json.schema", "menu.json"}} {
		if err := os.WriteFile(filepath.Join(f.dir, "menu.json.schema"), schema, 0o644); err != nil {
			t.Fatal(err)
		}
		files := map[string][]byte{"menu.json": []byte(`{"title":"Still a menu"}`), "menu.json.schema": strict}
		res, err = f.svc.Upload(ctx, f.ann, f.pa, workspace.Root, multipartOf(t, files, order...))
		if err != nil || len(res.Errors) != 1 || res.Errors[0].Filename != "menu.json" || !strings.Contains(res.Errors[0].Error, "name") {
			t.Fatalf("%v: a JSON upload breaking the schema uploaded with it: %+v, %v", order, res, err)
		}
		files["menu.json"] = []byte(`{"name":"Menu"}`)
		res, err = f.svc.Upload(ctx, f.ann, f.pa, workspace.Root, multipartOf(t, files, order...))
		if err != nil || len(res.Success) != 2 {
			t.Fatalf("%v: a JSON upload keeping the schema uploaded with it: %+v, %v", order, res, err)
		}
	}
}

func TestDeleteAndSave(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	res, err := f.svc.Delete(ctx, f.ann, f.pa, []string{"/images/logo.svg", "/images/icon.svg", "/images", "/../x", "/missing.png"})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Result || !strings.Contains(res[0].Error.Error, `"data":["pages/home.html"]`) || !res[1].Result ||
		res[2].Result || !strings.Contains(res[2].Error.Error, asset.MsgChildren) || res[3].Result || res[4].Result {
		t.Fatalf("delete: %+v", res)
	}
	// Save: schema-checked JSON.
	_, err = f.svc.Save(ctx, f.ann, f.pa, workspace.MustPath("data/x.json"), `[1]`, workspace.VersionOf([]byte(`{}`)))
	e := testkit.APIError(t, err, http.StatusBadRequest, asset.CodeContentInvalid)
	if rules, _ := e.Data.(map[string]any)["ruleErrors"].([]asset.RuleError); len(rules) == 0 || rules[0].Message == "" {
		t.Fatalf("rule errors: %+v", e.Data)
	}
	_, err = f.svc.Save(ctx, f.ann, f.pa, workspace.MustPath("data/y.json"), `{not json`, workspace.VersionOf([]byte(`{}`)))
	testkit.APIError(t, err, http.StatusBadRequest, asset.CodeContentInvalid)
	a, err := f.svc.Save(ctx, f.ann, f.pa, workspace.MustPath("data/x.json"), `{"a":1}`, workspace.VersionOf([]byte(`{}`)))
	if err != nil || a.Version != string(workspace.VersionOf([]byte(`{"a":1}`))) {
		t.Fatalf("save: %v %+v", err, a)
	}
	_, err = f.svc.Save(ctx, f.ann, f.pa, workspace.MustPath("data/x.json"), `{"a":2}`, workspace.VersionOf([]byte(`{}`)))
	testkit.APIError(t, err, http.StatusConflict, editing.CodeFileChanged)
	// A schema may not read other documents.
	if _, err := f.svc.Save(ctx, f.ann, f.pa, workspace.MustPath("data/z.json.schema"), `{"$ref":"file:///etc/passwd"}`, workspace.NoVersion); err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.Save(ctx, f.ann, f.pa, workspace.MustPath("data/z.json"), `{}`, workspace.NoVersion)
	testkit.APIError(t, err, http.StatusBadRequest, asset.CodeContentInvalid)
	var ae *apperr.Error
	if errors.As(err, &ae) && strings.Contains(ae.Message, "root:") {
		t.Fatalf("the schema read a file: %s", ae.Message)
	}
	// Open streams with the version.
	r, info, err := f.svc.Open(ctx, f.ann, f.pa, workspace.MustPath("data/x.json"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r)
	r.Close()
	if string(b) != `{"a":1}` || string(info.Version) != a.Version {
		t.Fatalf("open: %q %+v", b, info)
	}
}
