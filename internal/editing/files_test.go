package editing_test

import (
	"context"
	"net/http"
	"testing"
	"testing/fstest"

	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/gitcli"
	"portalwright/internal/portalaccess"
	"portalwright/internal/testkit"
	"portalwright/internal/workspace"
)

type inDomain struct{}

func (inDomain) Load(context.Context, int64, int64) (portalaccess.Record, error) {
	return portalaccess.Record{Name: "Portal", DomainName: "Domain", Active: true}, nil
}

type published struct{ statuses []*workspace.Status }

func (p *published) WorkspaceChanged(_ context.Context, _ caller.Caller, _ portalaccess.Portal, st *workspace.Status) {
	p.statuses = append(p.statuses, st)
}

func (p *published) Committed(context.Context, caller.Caller, portalaccess.Portal, *workspace.Status, string) {
}

// Every change through the file layer is published once, with the status the write took;
// a stale version is the API's 409 FILE_CHANGED and publishes nothing.
func TestFilesPublishTheStatusOfEachChange(t *testing.T) {
	ctx := context.Background()
	g, err := gitcli.New(ctx, gitcli.Options{Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	repos := workspace.NewRepos(g, gitcli.NewLocks(), t.TempDir())
	files := fstest.MapFS{"portal.json": {Data: []byte(`{}`)}, "pages/home.html": {Data: []byte("<h1>Home</h1>")}}
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
	pub := &published{}
	f := editing.New(repos, pub)

	news := workspace.MustPath("pages/news.html")
	v, err := f.Files().Write(ctx, ann, pa, news, []byte("<h1>News</h1>"), workspace.NoVersion, "pages/news.html")
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.Files().Write(ctx, ann, pa, news, []byte("again"), workspace.NoVersion, "pages/news.html")
	testkit.APIError(t, err, http.StatusConflict, editing.CodeFileChanged)
	if err := f.Files().Move(ctx, ann, pa, news, workspace.MustPath("pages/latest.html"), v); err != nil {
		t.Fatal(err)
	}
	if err := f.Files().Remove(ctx, ann, pa, workspace.MustPath("pages/latest.html"), v); err != nil {
		t.Fatal(err)
	}
	if len(pub.statuses) != 3 || !pub.statuses[0].HasChanges() || pub.statuses[2].HasChanges() {
		t.Fatalf("published %d statuses: %+v", len(pub.statuses), pub.statuses)
	}
	_, err = f.Files().Stat(ctx, ann, pa, workspace.MustPath("pages/latest.html"))
	testkit.APIError(t, err, http.StatusNotFound, "FILE_NOT_FOUND")
	list, err := f.Files().List(ctx, ann, pa, workspace.MustPath("pages"))
	if err != nil || len(list) != 1 || list[0].Name != "home.html" {
		t.Fatalf("pages: %+v %v", list, err)
	}
}
