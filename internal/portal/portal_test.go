package portal_test

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"portalwright/internal/notice"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"portalwright/internal/access"
	"portalwright/internal/caller"
	"portalwright/internal/gitcli"
	"portalwright/internal/portal"
	"portalwright/internal/portalaccess"
	"portalwright/internal/store"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
	"portalwright/internal/workspace"
)

type starters map[string]fstest.MapFS

func (s starters) List() []portal.Starter {
	return []portal.Starter{{ID: "crew", Name: "Crew Portal", EngineType: "PORTAL_ENGINE"}}
}

func (s starters) FS(id string) (fs.FS, error) {
	if f, ok := s[id]; ok {
		return f, nil
	}
	return nil, errors.New("no such starter")
}

type people struct{}

func (people) Person(_ context.Context, id int64) (portal.Person, error) {
	return portal.Person{ID: id, UserName: "user" + strconv.FormatInt(id, 10), FirstName: "User", LastName: strconv.FormatInt(id, 10)}, nil
}

type recorder struct {
	notes []notice.Card
	hook  func(notice.Card) // called on each report, when set
}

func (r *recorder) Publish(context.Context, notice.Room, string, any) {}

func (r *recorder) Progress(_ context.Context, _ int64, n notice.Card) {
	r.notes = append(r.notes, n)
	if r.hook != nil {
		r.hook(n)
	}
}

func crewStarter() fstest.MapFS {
	return fstest.MapFS{
		"portal.json":     {Data: []byte(`{"formatVersion":1,"engineType":"PORTAL_ENGINE","supportLevel":"FULL","scope":"FULL","languageSettings":{"languages":["en_GB","fr_FR"],"defaultLanguage":"en_GB","languageMode":"TRANSLATION"},"custom":{"kept":true}}`)},
		"index.html":      {Data: []byte("<html></html>")},
		"pages/home.html": {Data: []byte("<p>home</p>")},
	}
}

func TestPortals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		repos, progress, svc, acc, d := f.repos, f.progress, f.svc, f.acc, f.domain
		var err error

		cat, err := f.cat.CreateCategory(ctx, admin, d.ID, "Crew Portals")
		if err != nil {
			t.Fatal(err)
		}
		crew, err := svc.CreateFromTemplate(ctx, admin, d.ID, portal.NewPortal{Name: "Crew (A320)", CategoryID: &cat.ID}, 0, "crew")
		if err != nil {
			t.Fatal(err)
		}
		if crew.Status != "active" || crew.Category != "Crew Portals" || crew.Type != "CREW" || crew.Scope != "FULL" {
			t.Fatalf("created %+v", crew)
		}
		last := progress.notes[len(progress.notes)-1]
		if last.Status != "SUCCESS" || last.Progress != 100 || last.MessageType != "CREATE_PORTAL" {
			t.Fatalf("progress %+v", progress.notes)
		}

		t.Run("creation rules leave nothing behind", func(t *testing.T) {
			_, err := svc.CreateFromTemplate(ctx, admin, d.ID, portal.NewPortal{Name: "crew (a320)"}, 0, "crew")
			testkit.APIError(t, err, http.StatusConflict, "PORTAL_EXISTS")
			card := progress.notes[len(progress.notes)-1]
			retry, _ := card.Data.(map[string]any)["retry"].(map[string]any)
			if card.Status != "ERROR" || retry["kind"] != "template" || retry["starter"] != "crew" || retry["domainId"] != d.ID {
				t.Fatalf("error card %+v", card)
			}
			_, err = svc.CreateFromTemplate(ctx, admin, d.ID, portal.NewPortal{Name: "-bad"}, 0, "crew")
			testkit.APIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
			_, err = svc.CreateFromTemplate(ctx, admin, d.ID, portal.NewPortal{Name: "Other"}, 0, "nope")
			testkit.APIError(t, err, http.StatusNotFound, "TEMPLATE_NOT_FOUND")
			_, err = svc.CreateFromURL(ctx, admin, d.ID, portal.NewPortal{Name: "Remote"}, "file:///etc", nil)
			testkit.APIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
			_, err = svc.CreateFromURL(ctx, admin, d.ID, portal.NewPortal{Name: "Remote"}, "https://127.0.0.1:1/none.git", nil)
			testkit.APIError(t, err, http.StatusBadRequest, "IMPORT_FAILED")
			list, _ := svc.Portals(ctx, d.ID)
			if len(list) != 1 {
				t.Fatalf("failed creations left portals: %+v", list)
			}
		})

		t.Run("two authors, local changes, commit, other users' changes", func(t *testing.T) {
			opened, err := svc.Open(ctx, ann, checked(t, svc, d.ID, crew.ID), "", false)
			if err != nil || opened.Branch != "master" || opened.Settings.EngineType != "PORTAL_ENGINE" {
				t.Fatalf("open: %+v %v", opened, err)
			}
			if _, err := svc.Open(ctx, bob, checked(t, svc, d.ID, crew.ID), "master", false); err != nil {
				t.Fatal(err)
			}
			dir := repos.WorkspaceDir(ann.UserID, crew.ID)
			os.WriteFile(filepath.Join(dir, "pages", "news.html"), []byte("<p>news</p>"), 0o644)
			st, _ := svc.Workspace().LocalChanges(ctx, ann, checked(t, svc, d.ID, crew.ID))
			if st.Changes["pages/news.html"] != "ADD" {
				t.Fatalf("changes %v", st.Changes)
			}
			changes, _ := svc.Workspace().WorkspaceChanges(ctx, checked(t, svc, d.ID, crew.ID), "master")
			if len(changes) != 2 || !changes[0].HasChanges || changes[0].User.ID != ann.UserID || changes[0].PortalName != "Crew (A320)" {
				t.Fatalf("wsChanges %+v", changes)
			}
			_, err = svc.Workspace().Commits().Commit(ctx, ann, checked(t, svc, d.ID, crew.ID), "Fix: typo")
			testkit.APIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
			ans, err := svc.Workspace().Commits().Commit(ctx, ann, checked(t, svc, d.ID, crew.ID), "Add news page")
			if err != nil || ans.CommitID == "" || ans.Code != "" {
				t.Fatalf("commit %+v %v", ans, err)
			}
			_, err = svc.Workspace().Commits().Commit(ctx, ann, checked(t, svc, d.ID, crew.ID), "Again")
			testkit.APIError(t, err, http.StatusBadRequest, "NOTHING_TO_COMMIT")
			changes, _ = svc.Workspace().WorkspaceChanges(ctx, checked(t, svc, d.ID, crew.ID), "master")
			for _, c := range changes {
				if c.User.ID == bob.UserID && c.BehindCount != 1 {
					t.Fatalf("bob behind = %d", c.BehindCount)
				}
			}
			os.WriteFile(filepath.Join(dir, "data.json"), []byte("{bad"), 0o644)
			ans, err = svc.Workspace().Commits().Commit(ctx, ann, checked(t, svc, d.ID, crew.ID), "Add data")
			if err != nil || ans.Code != portal.CodeWarnings || len(ans.RuleWarnings) != 1 {
				t.Fatalf("commit with warnings %+v %v", ans, err)
			}
		})

		t.Run("settings are read with defaults and written into the workspace", func(t *testing.T) {
			s, v0, err := svc.Workspace().Settings(ctx, ann, checked(t, svc, d.ID, crew.ID))
			if err != nil || s.TaskRunnerSettings.OutputPath != "pw-dist" || s.LanguageSettings.TranslationsBasePath != "translations" {
				t.Fatalf("settings %+v %v", s, err)
			}
			s.LanguageSettings.Languages = append(s.LanguageSettings.Languages, "ar_SA")
			_, v1, err := svc.Workspace().SaveSettings(ctx, ann, checked(t, svc, d.ID, crew.ID), s, v0)
			if err != nil || v1 == v0 {
				t.Fatal(v1, err)
			}
			// A save based on the old version (a second tab, a view not refreshed after a
			// revert) is refused and changes nothing: no lost update.
			stale := s
			stale.LanguageSettings.Languages = []string{"en_GB"}
			_, _, err = svc.Workspace().SaveSettings(ctx, ann, checked(t, svc, d.ID, crew.ID), stale, v0)
			e := testkit.APIError(t, err, http.StatusConflict, portal.CodeFileChanged)
			if e.Data.(map[string]string)["currentVersion"] != string(v1) {
				t.Fatalf("conflict data %+v", e.Data)
			}
			if _, now, _ := svc.Workspace().Settings(ctx, ann, checked(t, svc, d.ID, crew.ID)); now != v1 {
				t.Fatalf("a refused save wrote: %s", now)
			}
			data, _ := os.ReadFile(filepath.Join(repos.WorkspaceDir(ann.UserID, crew.ID), "portal.json"))
			if !containsAll(string(data), `"ar_SA"`, `"custom"`, `"kept": true`) {
				t.Fatalf("portal.json %s", data)
			}
			st, _ := svc.Workspace().LocalChanges(ctx, ann, checked(t, svc, d.ID, crew.ID))
			if st.Changes["portal.json"] != "MODIFY" {
				t.Fatalf("settings must be a local change: %v", st.Changes)
			}
			bad := s
			bad.LanguageSettings.DefaultLanguage = "de_DE"
			_, _, err = svc.Workspace().SaveSettings(ctx, ann, checked(t, svc, d.ID, crew.ID), bad, v1)
			testkit.APIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
			bad = s
			bad.TaskRunnerSettings.OutputPath = "../../etc"
			_, _, err = svc.Workspace().SaveSettings(ctx, ann, checked(t, svc, d.ID, crew.ID), bad, v1)
			testkit.APIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
			if err := svc.Workspace().Commits().RevertAll(ctx, ann, checked(t, svc, d.ID, crew.ID)); err != nil {
				t.Fatal(err)
			}
			// After Revert All the file is back at its first version: a save based on the
			// discarded edit is stale.
			_, _, err = svc.Workspace().SaveSettings(ctx, ann, checked(t, svc, d.ID, crew.ID), s, v1)
			testkit.APIError(t, err, http.StatusConflict, portal.CodeFileChanged)
			if _, now, _ := svc.Workspace().Settings(ctx, ann, checked(t, svc, d.ID, crew.ID)); now != v0 {
				t.Fatalf("after revert the version is %s, want %s", now, v0)
			}
		})

		t.Run("branches", func(t *testing.T) {
			if err := f.brs.CreateBranch(ctx, ann, checked(t, svc, d.ID, crew.ID), "release/2027", ""); err != nil {
				t.Fatal(err)
			}
			err := f.brs.CreateBranch(ctx, ann, checked(t, svc, d.ID, crew.ID), "bad..name", "")
			testkit.APIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
			err = f.brs.CreateBranch(ctx, ann, checked(t, svc, d.ID, crew.ID), "release/2027", "")
			testkit.APIError(t, err, http.StatusConflict, "BRANCH_EXISTS")
			refs, err := f.brs.References(ctx, ann, checked(t, svc, d.ID, crew.ID))
			if err != nil || len(refs.AllReferences) != 2 || refs.CurrentRef != "master" {
				t.Fatalf("refs %+v %v", refs, err)
			}
			opened, err := svc.Open(ctx, ann, checked(t, svc, d.ID, crew.ID), "release/2027", false)
			if err != nil || opened.Branch != "release/2027" {
				t.Fatalf("open branch: %+v %v", opened, err)
			}
			_, err = svc.Open(ctx, ann, checked(t, svc, d.ID, crew.ID), "no-such", false)
			testkit.APIError(t, err, http.StatusNotFound, "BRANCH_DOES_NOT_EXIST_IN_PORTAL")
			_, err = svc.Open(ctx, ann, checked(t, svc, d.ID, crew.ID), "bad name", false)
			testkit.APIError(t, err, http.StatusBadRequest, "INVALID_BRANCH_NAME")
			err = f.brs.DeleteBranch(ctx, ann, checked(t, svc, d.ID, crew.ID), "master")
			testkit.APIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR")

			// Ann has release/2027 open with an uncommitted change: the branch stays.
			os.WriteFile(filepath.Join(repos.WorkspaceDir(ann.UserID, crew.ID), "pages", "draft.html"), []byte("<p>draft</p>"), 0o644)
			err = f.brs.DeleteBranch(ctx, admin, checked(t, svc, d.ID, crew.ID), "release/2027")
			testkit.APIError(t, err, http.StatusConflict, portal.CodeBranchCheckedOut)
			// Reset recovers from a branch that is gone: it lands on the active branch.
			pt, _ := svc.Portal(ctx, d.ID, crew.ID)
			st, err := svc.Workspace().Commits().Reset(ctx, ann, checked(t, svc, d.ID, pt.ID), "gone/branch")
			if err != nil || st.Branch != "release/2027" || st.HasChanges() {
				t.Fatalf("reset keeps the branch it is on when the one asked for is gone: %+v %v", st, err)
			}
			if err := f.brs.DeleteBranch(ctx, admin, checked(t, svc, d.ID, crew.ID), "release/2027"); err != nil {
				t.Fatalf("a clean workspace does not hold a branch: %v", err)
			}
			st, err = svc.Workspace().Commits().Reset(ctx, ann, checked(t, svc, d.ID, pt.ID), "release/2027")
			if err != nil || st.Branch != "master" {
				t.Fatalf("reset after the branch was deleted: %+v %v", st, err)
			}
			if err := f.brs.CreateBranch(ctx, ann, checked(t, svc, d.ID, crew.ID), "release/2027", ""); err != nil {
				t.Fatal(err)
			}
		})

		t.Run("categories, status and clone", func(t *testing.T) {
			cats, _ := f.cat.Categorized(ctx, d.ID)
			if len(cats) != 1 || cats[0].Name != "Crew Portals" || cats[0].Deactivated || len(cats[0].Children) != 1 {
				t.Fatalf("categorized %+v", cats)
			}
			if _, err := svc.SetStatus(ctx, admin, checked(t, svc, d.ID, crew.ID), false, "end of season"); err != nil {
				t.Fatal(err)
			}
			cats, _ = f.cat.Categorized(ctx, d.ID)
			if len(cats) != 2 || !cats[0].Deactivated || cats[1].Name != portal.InactiveGroup || len(cats[1].Children) != 1 {
				t.Fatalf("after deactivate %+v", cats)
			}
			svc.SetStatus(ctx, admin, checked(t, svc, d.ID, crew.ID), true, "back")
			copyOf, err := svc.Clone(ctx, admin, checked(t, svc, d.ID, crew.ID), portal.NewPortal{Name: "Crew copy"})
			if err != nil {
				t.Fatal(err)
			}
			branches, _ := f.brs.Branches(ctx, checked(t, svc, d.ID, copyOf.ID))
			if len(branches) != 2 {
				t.Fatalf("clone copies every branch: %v", branches)
			}
			if err := f.cat.LinkPortals(ctx, d.ID, cat.ID, []int64{copyOf.ID, 9999}, true); err == nil {
				t.Fatal("linking a missing portal must fail")
			}
			if p, _ := svc.Portal(ctx, d.ID, copyOf.ID); p.CategoryID != nil {
				t.Fatal("a failed link must change nothing")
			}
			if err := svc.Delete(ctx, admin, checked(t, svc, d.ID, copyOf.ID), "not needed"); err != nil {
				t.Fatal(err)
			}
			_, err = svc.Portal(ctx, d.ID, copyOf.ID)
			testkit.APIError(t, err, http.StatusNotFound, "PORTAL_NOT_FOUND")
			other, _ := acc.CreateDomain(ctx, admin, "Other")
			_, err = portalaccess.NewChecker(svc).Check(ctx, other.ID, crew.ID)
			testkit.APIError(t, err, http.StatusNotFound, "PORTAL_NOT_FOUND") // a portal is reached only through its domain
		})

		t.Run("templates", func(t *testing.T) {
			tpl, err := f.tmpl.CreateTemplate(ctx, admin, d.ID, "Crew base", "", &crew.ID)
			if err != nil {
				t.Fatal(err)
			}
			list, _ := f.tmpl.Templates(ctx, d.ID)
			if len(list) != 2 || !list[0].BuiltIn || list[1].Name != "Crew base" {
				t.Fatalf("templates %+v", list)
			}
			p, err := svc.CreateFromTemplate(ctx, admin, d.ID, portal.NewPortal{Name: "From own template"}, tpl.ID, "")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := svc.Open(ctx, ann, checked(t, svc, d.ID, p.ID), "release/2027", false); err != nil {
				t.Fatalf("a portal made from a portal template has its branches: %v", err)
			}
		})
	})
}

var (
	admin = caller.Caller{UserID: 1, Username: "admin", Admin: true}
	ann   = caller.Caller{UserID: 2, Username: "ann"}
	bob   = caller.Caller{UserID: 3, Username: "bob"}
)

type fixture struct {
	repos    *workspace.Repos
	progress *recorder
	svc      *portal.Service
	tmpl     *portal.Templates
	brs      *portal.Branches
	cat      *portal.Catalog
	sites    *portal.Microsites
	acc      *access.Service
	domain   *access.Domain
}

func newFixture(t *testing.T, db *store.DB) *fixture {
	t.Helper()
	ctx := context.Background()
	g, err := gitcli.New(ctx, gitcli.Options{Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	// Test git servers listen on loopback: allow private git hosts (TestRemoteHostPolicy turns
	// the policy back on).
	f := &fixture{repos: workspace.NewRepos(g, gitcli.NewLocks(), t.TempDir()).AllowPrivateGitHosts(true), progress: &recorder{}}
	f.svc = portal.NewService(portal.NewSQLStore(db), portal.NewCategoryStore(db), portal.NewTemplateStore(db), f.repos, starters{"crew": crewStarter()}, people{}, f.progress, nil)
	f.tmpl = portal.NewTemplates(f.svc)
	f.brs = portal.NewBranches(f.svc)
	f.cat = portal.NewCatalog(f.svc)
	f.sites = portal.NewMicrosites(f.svc)
	f.acc = access.NewService(access.NewSQLStore(db), nil)
	if f.domain, err = f.acc.CreateDomain(ctx, admin, "Sky"); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestPortalExtras(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		d := f.domain
		crew, err := f.svc.CreateFromTemplate(ctx, admin, d.ID, portal.NewPortal{Name: "Crew"}, 0, "crew")
		if err != nil {
			t.Fatal(err)
		}
		site, err := f.svc.CreateFromTemplate(ctx, admin, d.ID, portal.NewPortal{Name: "Duty Free (Sale)", Scope: "MICROSITE"}, 0, "crew")
		if err != nil {
			t.Fatal(err)
		}

		t.Run("microsites", func(t *testing.T) {
			list, _ := f.sites.Microsites(ctx, d.ID)
			if len(list) != 1 || list[0].Target != "microsites/duty-free-sale-/index.html" {
				t.Fatalf("microsites %+v", list)
			}
			if err := f.sites.LinkMicrosites(ctx, checked(t, f.svc, d.ID, crew.ID), []int64{site.ID}, true); err != nil {
				t.Fatal(err)
			}
			linked, _ := f.sites.LinkedMicrosites(ctx, checked(t, f.svc, d.ID, crew.ID))
			if len(linked) != 1 || linked[0].ID != site.ID {
				t.Fatalf("linked %+v", linked)
			}
			testkit.APIError(t, f.sites.LinkMicrosites(ctx, checked(t, f.svc, d.ID, site.ID), []int64{crew.ID}, true), http.StatusBadRequest, "VALIDATION_ERROR")
			if err := f.sites.LinkMicrosites(ctx, checked(t, f.svc, d.ID, crew.ID), []int64{site.ID}, false); err != nil {
				t.Fatal(err)
			}
			if linked, _ := f.sites.LinkedMicrosites(ctx, checked(t, f.svc, d.ID, crew.ID)); len(linked) != 0 {
				t.Fatalf("after unlink %+v", linked)
			}
		})

		if _, err := f.svc.Open(ctx, ann, checked(t, f.svc, d.ID, crew.ID), "", false); err != nil {
			t.Fatal(err)
		}

		t.Run("probe settings", func(t *testing.T) {
			data, v0, err := f.svc.Workspace().ProbeSettings(ctx, ann, checked(t, f.svc, d.ID, crew.ID))
			if err != nil || string(data) != "{}" || v0 != workspace.NoVersion {
				t.Fatalf("default probe settings %s %v", data, err)
			}
			v1, err := f.svc.Workspace().SaveProbeSettings(ctx, ann, checked(t, f.svc, d.ID, crew.ID), []byte(`{"gridSize": 8}`), v0)
			if err != nil {
				t.Fatal(err)
			}
			data, _, _ = f.svc.Workspace().ProbeSettings(ctx, ann, checked(t, f.svc, d.ID, crew.ID))
			if !strings.Contains(string(data), `"gridSize": 8`) {
				t.Fatalf("saved %s", data)
			}
			_, err = f.svc.Workspace().SaveProbeSettings(ctx, ann, checked(t, f.svc, d.ID, crew.ID), []byte(`{"gridSize": 4}`), v0)
			testkit.APIError(t, err, http.StatusConflict, portal.CodeFileChanged)
			_, err = f.svc.Workspace().SaveProbeSettings(ctx, ann, checked(t, f.svc, d.ID, crew.ID), []byte(`[1,2]`), v1)
			testkit.APIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
		})

		t.Run("statistics, content check, engine", func(t *testing.T) {
			st, err := f.svc.Statistics(ctx, checked(t, f.svc, d.ID, crew.ID), "")
			if err != nil || st.Files != 3 || st.Pages != 1 || st.Commits != 1 || st.LastAuthor == "" {
				t.Fatalf("statistics %+v %v", st, err)
			}
			_, err = f.svc.Statistics(ctx, checked(t, f.svc, d.ID, crew.ID), "nope")
			testkit.APIError(t, err, http.StatusNotFound, "BRANCH_DOES_NOT_EXIST_IN_PORTAL")
			os.WriteFile(filepath.Join(f.repos.WorkspaceDir(ann.UserID, crew.ID), "broken.json"), []byte("{"), 0o644)
			check, err := f.svc.Workspace().CheckContent(ctx, ann, checked(t, f.svc, d.ID, crew.ID))
			if err != nil || len(check.RuleWarnings) != 1 || !strings.Contains(check.RuleWarnings[0], "broken.json") {
				t.Fatalf("check %+v %v", check, err)
			}
			eng, err := f.svc.Workspace().Engine(ctx, ann, checked(t, f.svc, d.ID, crew.ID))
			if err != nil || eng.EngineType != "PORTAL_ENGINE" || eng.EngineVersion != "" {
				t.Fatalf("engine %+v %v", eng, err)
			}
		})
	})
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// checked is the portal as a handler receives it: through the one check (portalaccess).
// A portal that is not in the domain fails the test here, as the API answers 404.
func checked(t testing.TB, svc *portal.Service, domainID, portalID int64) portalaccess.Portal {
	t.Helper()
	pa, err := portalaccess.NewChecker(svc).Check(context.Background(), domainID, portalID)
	if err != nil {
		t.Fatalf("portal %d in domain %d: %v", portalID, domainID, err)
	}
	return pa
}
