package portal_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"portalwright/internal/access"
	"portalwright/internal/caller"
	"portalwright/internal/gitcli"
	"portalwright/internal/portal"
	"portalwright/internal/store"
	"portalwright/internal/store/storetest"
	"portalwright/internal/workspace"
)

// countedGit is a git whose runs are counted (a wrapper script in front of the real one).
func countedGit(t *testing.T) (*gitcli.Git, func() int) {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs")
	bin := filepath.Join(dir, "git")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho \"$1\" >> '"+runs+"'\nexec '"+real+"' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	g, err := gitcli.New(context.Background(), gitcli.Options{Binary: bin, Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return g, func() int {
		data, _ := os.ReadFile(runs)
		return bytes.Count(data, []byte("\n"))
	}
}

// countingPeople answers users and counts the lookups: one by one and in batches.
type countingPeople struct{ single, batches atomic.Int64 }

func (p *countingPeople) Person(_ context.Context, id int64) (portal.Person, error) {
	p.single.Add(1)
	return portal.Person{ID: id, UserName: "u" + string(rune('0'+id%10)), FirstName: "User"}, nil
}

func (p *countingPeople) People(_ context.Context, ids []int64) (map[int64]portal.Person, error) {
	p.batches.Add(1)
	out := map[int64]portal.Person{}
	for _, id := range ids {
		out[id] = portal.Person{ID: id, UserName: "u" + string(rune('0'+id%10)), FirstName: "User"}
	}
	return out, nil
}

type wsStarter struct{}

func (wsStarter) List() []portal.Starter { return []portal.Starter{{ID: "crew", Name: "Crew"}} }
func (wsStarter) FS(string) (fs.FS, error) {
	return fstest.MapFS{
		"portal.json":     {Data: []byte(`{"formatVersion":1,"engineType":"PORTAL_ENGINE"}`)},
		"index.html":      {Data: []byte("<html></html>")},
		"pages/home.html": {Data: []byte("<p>home</p>\n")},
	}, nil
}

type wsFixture struct {
	svc     *portal.Service
	repos   *workspace.Repos
	people  *countingPeople
	domain  int64
	portal  int64
	gitRuns func() int
}

// instance is one server over a data dir and database (a restart makes a new one).
func newWSInstance(t *testing.T, db *store.DB, g *gitcli.Git, runs func() int, dataDir string) *wsFixture {
	repos := workspace.NewRepos(g, gitcli.NewLocks(), dataDir)
	people := &countingPeople{}
	return &wsFixture{svc: portal.NewService(portal.NewSQLStore(db), portal.NewCategoryStore(db), portal.NewTemplateStore(db), repos, wsStarter{}, people, nil, nil), repos: repos, people: people, gitRuns: runs}
}

func principal(id int64) caller.Caller {
	return caller.Caller{UserID: id, Username: "u", Admin: true}
}

// TestWorkspaceChangesCostTheSameWithManyWorkspaces is issue 8 item 7: other users' changes
// ran git status once per workspace and looked each user up alone; now a call runs no git
// process and no per-user lookup once the workspaces have records, with 4 or 40 of them.
func TestWorkspaceChangesCostTheSameWithManyWorkspaces(t *testing.T) {
	ctx := context.Background()
	db := storetest.SQLite(t)
	g, runs := countedGit(t)
	data := t.TempDir()
	acc := access.NewService(access.NewSQLStore(db), nil)
	d, err := acc.CreateDomain(ctx, principal(1), "Sky")
	if err != nil {
		t.Fatal(err)
	}
	f := newWSInstance(t, db, g, runs, data)
	pt, err := f.svc.CreateFromTemplate(ctx, principal(1), d.ID, portal.NewPortal{Name: "Crew"}, 0, "crew")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Open(ctx, principal(1), checked(t, f.svc, d.ID, pt.ID), "", false); err != nil {
		t.Fatal(err)
	}
	src := f.repos.WorkspaceDir(1, pt.ID)
	have := int64(1)
	for _, n := range []int64{4, 40} {
		for u := have + 1; u <= n; u++ {
			dst := f.repos.WorkspaceDir(u, pt.ID)
			os.MkdirAll(filepath.Dir(dst), 0o755)
			if out, err := exec.Command("cp", "-a", src, dst).CombinedOutput(); err != nil {
				t.Fatalf("cp: %v %s", err, out)
			}
		}
		have = n
		f := newWSInstance(t, db, g, runs, data) // restarted: finds the new workspaces
		list, err := f.svc.Workspace().WorkspaceChanges(ctx, checked(t, f.svc, d.ID, pt.ID), "master")
		if err != nil || int64(len(list)) != n {
			t.Fatalf("%d workspaces: %d changes, %v", n, len(list), err)
		}
		settle(t, runs, func() { f.svc.Workspace().WorkspaceChanges(ctx, checked(t, f.svc, d.ID, pt.ID), "master") })
		before, batches := runs(), f.people.batches.Load()
		for i := 0; i < 5; i++ {
			list, err := f.svc.Workspace().WorkspaceChanges(ctx, checked(t, f.svc, d.ID, pt.ID), "master")
			if err != nil || int64(len(list)) != n {
				t.Fatalf("%d workspaces: %d changes, %v", n, len(list), err)
			}
		}
		if extra := runs() - before; extra != 0 {
			t.Fatalf("%d workspaces: 5 calls ran %d git processes, want none", n, extra)
		}
		// The names come in batches, never one by one; once the statuses settled, none at all
		// (a status re-checked while settling is a new answer, named by one batch).
		if f.people.single.Load() != 0 || batches == 0 || f.people.batches.Load() != batches {
			t.Fatalf("%d workspaces: %d single and %d batch user lookups (%d before the 5 calls), want batches only, none in the 5 calls",
				n, f.people.single.Load(), f.people.batches.Load(), batches)
		}
	}
}

// TestWorkspaceChangesFollowTheProduct: after each write through the portal service the
// answer is what git says: a file saved, another user's commit, a revert, a branch switch.
func TestWorkspaceChangesFollowTheProduct(t *testing.T) {
	ctx := context.Background()
	db := storetest.SQLite(t)
	g, runs := countedGit(t)
	acc := access.NewService(access.NewSQLStore(db), nil)
	d, err := acc.CreateDomain(ctx, principal(1), "Sky")
	if err != nil {
		t.Fatal(err)
	}
	f := newWSInstance(t, db, g, runs, t.TempDir())
	pt, err := f.svc.CreateFromTemplate(ctx, principal(1), d.ID, portal.NewPortal{Name: "Crew"}, 0, "crew")
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []int64{1, 2, 3} {
		if _, err := f.svc.Open(ctx, principal(u), checked(t, f.svc, d.ID, pt.ID), "", false); err != nil {
			t.Fatal(err)
		}
	}
	changes := func(branch string) map[int64]portal.WorkspaceChange {
		t.Helper()
		list, err := f.svc.Workspace().WorkspaceChanges(ctx, checked(t, f.svc, d.ID, pt.ID), branch)
		if err != nil {
			t.Fatal(err)
		}
		out := map[int64]portal.WorkspaceChange{}
		for _, c := range list {
			out[c.User.ID] = c
		}
		return out
	}
	if got := changes("master"); len(got) != 3 || got[1].HasChanges {
		t.Fatalf("opened: %+v", got)
	}

	if _, err := f.svc.Workspace().SaveProbeSettings(ctx, principal(1), checked(t, f.svc, d.ID, pt.ID), []byte(`{"gridSize":8}`), workspace.NoVersion); err != nil {
		t.Fatal(err)
	}
	before := runs()
	if got := changes("master"); !got[1].HasChanges || got[1].Changes[portal.ProbeSettingsFile] != workspace.ChangeAdd {
		t.Fatalf("after a save: %+v", got[1])
	}
	if extra := runs() - before; extra != 0 {
		t.Fatalf("the save was announced with a status; the read ran %d git processes more", extra)
	}

	if err := os.WriteFile(filepath.Join(f.repos.WorkspaceDir(2, pt.ID), "pages", "b.html"), []byte("b"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Workspace().Commits().Commit(ctx, principal(2), checked(t, f.svc, d.ID, pt.ID), "Add page b"); err != nil {
		t.Fatal(err)
	}
	got := changes("master")
	if got[1].BehindCount != 1 || got[3].BehindCount != 1 || got[2].BehindCount != 0 || got[2].HasChanges {
		t.Fatalf("after another user's commit: 1:%+v 2:%+v 3:%+v", got[1], got[2], got[3])
	}

	if err := f.svc.Workspace().Commits().RevertAll(ctx, principal(1), checked(t, f.svc, d.ID, pt.ID)); err != nil {
		t.Fatal(err)
	}
	if got := changes("master"); got[1].HasChanges {
		t.Fatalf("after revert: %+v", got[1])
	}

	if err := portal.NewBranches(f.svc).CreateBranch(ctx, principal(1), checked(t, f.svc, d.ID, pt.ID), "feature/summer", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Open(ctx, principal(3), checked(t, f.svc, d.ID, pt.ID), "feature/summer", false); err != nil {
		t.Fatal(err)
	}
	if got := changes("master"); len(got) != 2 || got[3].User.ID != 0 {
		t.Fatalf("master after user 3 switched: %+v", got)
	}
	if got := changes("feature/summer"); len(got) != 1 || got[3].Branch != "feature/summer" || got[3].BehindCount != 0 {
		t.Fatalf("feature/summer after user 3 switched: %+v", got)
	}
	refs, err := portal.NewBranches(f.svc).References(ctx, principal(3), checked(t, f.svc, d.ID, pt.ID))
	if err != nil || refs.CurrentRef != "feature/summer" || len(refs.AllReferences) != 2 {
		t.Fatalf("references of user 3: %+v %v", refs, err)
	}
}

// settle calls call until a call runs no git process: a status recorded within the racy margin
// of a change (2 s, internal/workspace/treecheck.go) is taken again by git once that moment is
// past, which on a slow machine falls inside the calls measured after. Bounded: 30 s.
func settle(t *testing.T, runs func() int, call func()) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		time.Sleep(2100 * time.Millisecond)
		before := runs()
		call()
		if runs() == before {
			return
		}
	}
	t.Fatal("every call still ran git after 30 s")
}
