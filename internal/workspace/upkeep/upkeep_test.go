package upkeep

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"portalwright/internal/gitcli"
	"portalwright/internal/workspace"
	"portalwright/internal/workspace/workspacetest"
)

// Background maintenance packs refs and loose objects and writes a commit-graph without the
// product's locks; while it runs, the stale-lock hygiene leaves git's ref locks alone.
func TestMaintenancePacksInTheBackground(t *testing.T) {
	ctx := context.Background()
	r := workspacetest.NewRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, workspacetest.Starter(), "Create portal", workspace.SystemAuthor); err != nil {
		t.Fatal(err)
	}
	bare := r.Core().Bare(1)
	workspacetest.Open(t, r, 1, "master")
	for i := 0; i < 3; i++ {
		workspacetest.Write(t, r, 1, fmt.Sprintf("pages/p%d.html", i), fmt.Sprintf("<p>%d</p>\n", i))
		if _, err := r.Commit(ctx, 1, 1, fmt.Sprintf("Commit %d", i), workspacetest.Ann); err != nil {
			t.Fatal(err)
		}
	}
	ws := r.WorkspaceDir(1, 1)
	wsGit := filepath.Join(ws, ".git")
	var b strings.Builder
	for i := 0; i < looseRefsDue; i++ {
		fmt.Fprintf(&b, "create refs/portalwright/loose-%03d HEAD\n", i)
	}
	if _, err := r.Core().Run(ctx, ws, gitcli.Command("update-ref", "--stdin").Stdin(strings.NewReader(b.String()))); err != nil {
		t.Fatal(err)
	}
	if !New(r).maintenanceDue(wsGit, time.Hour) {
		t.Fatal("many loose refs do not make a workspace's maintenance due")
	}
	// While maintenance holds the repository, the portal lock's hygiene keeps git's ref locks.
	if err := os.WriteFile(filepath.Join(bare, workspace.MaintenanceMarker), []byte(fmt.Sprint(time.Now().Add(time.Minute).UnixNano())), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"packed-refs.lock", "refs/heads/x.lock", "index.lock"} {
		os.WriteFile(filepath.Join(bare, p), nil, 0o644)
	}
	lockPortal := func() { // the portal lock removes stale lock files (workspace/core.go)
		t.Helper()
		unlock, err := r.Core().LockPortal(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		unlock()
	}
	lockPortal()
	for p, want := range map[string]bool{"packed-refs.lock": true, "refs/heads/x.lock": true, "index.lock": false} {
		if _, err := os.Stat(filepath.Join(bare, p)); (err == nil) != want {
			t.Errorf("%s kept = %v, want %v", p, err == nil, want)
		}
	}
	os.Remove(filepath.Join(bare, workspace.MaintenanceMarker))
	lockPortal()
	if _, err := os.Stat(filepath.Join(bare, "packed-refs.lock")); err == nil {
		t.Error("a stale packed-refs.lock stays after maintenance")
	}

	up := New(r)
	up.StartMaintenance(time.Hour)
	r.Core().Refs().PackSoon(wsGit)
	r.Core().Refs().PackSoon(bare) // not due: first seen an instant ago
	up.maintenanceIdle()
	up.StopMaintenance()
	if loose, _ := filepath.Glob(filepath.Join(wsGit, "refs", "portalwright", "*")); len(loose) != 0 {
		t.Errorf("loose refs after maintenance: %d", len(loose))
	}
	if _, err := os.Stat(filepath.Join(wsGit, workspace.MaintenanceMarker)); !os.IsNotExist(err) {
		t.Errorf("the marker stays: %v", err)
	}
	if err := up.maintain(ctx, bare); err != nil {
		t.Fatal(err)
	}
	if count := workspacetest.GitOut(t, r, bare, "count-objects", "-v"); !strings.Contains(count, "count: 0\n") {
		t.Errorf("loose objects after maintenance:\n%s", count)
	}
	if _, err := os.Stat(filepath.Join(bare, "objects", "info", "commit-graphs", "commit-graph-chain")); err != nil {
		t.Errorf("no commit-graph: %v", err)
	}
	// Nothing was lost: the workspace still reads its history, a commit still works.
	workspacetest.Write(t, r, 1, "pages/after.html", "<p>after</p>\n")
	if _, err := r.Commit(ctx, 1, 1, "After maintenance", workspacetest.Ann); err != nil {
		t.Fatal(err)
	}
	if err := up.maintain(ctx, wsGit); err != nil {
		t.Fatal(err)
	}
	if n := workspacetest.GitOut(t, r, ws, "rev-list", "--count", "HEAD"); n != "5" {
		t.Errorf("history after workspace maintenance: %s commits", n)
	}
	if _, err := r.Core().Run(ctx, ws, gitcli.Command("fsck", "--no-dangling")); err != nil {
		t.Errorf("fsck: %v", err)
	}
}

// Issue 30 item 8: a canonical repository keeps no remote.origin.url (docs/operations.md "How
// commits travel"): not after a template's first commit or a copy (an import: internal/app's
// TestImportedPortalSettings); a repository
// an older version left with one loses it at the start-up sweep, and still opens.
func TestCanonicalRepositoryKeepsNoRemote(t *testing.T) {
	ctx := context.Background()
	r := workspacetest.NewRepos(t)
	hasOrigin := func(id int64) bool {
		config, err := os.ReadFile(filepath.Join(r.Core().Bare(id), "config"))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Contains(string(config), `[remote "origin"]`)
	}
	if err := r.Core().CreateFromFiles(ctx, 1, workspacetest.Starter(), "Create", workspacetest.Ann); err != nil {
		t.Fatal(err)
	}
	if err := r.Core().CopyPortal(ctx, 2, 1); err != nil {
		t.Fatal(err)
	}
	for _, id := range []int64{1, 2} {
		if hasOrigin(id) {
			t.Errorf("portal %d's canonical repository has remote.origin", id)
		}
	}
	// A repository made by an older version: the sweep removes its remote.
	if _, err := r.Core().Run(ctx, r.Core().Bare(2), gitcli.Command("remote", "add").Value("origin", "https://git.example.org/site.git")); err != nil {
		t.Fatal(err)
	}
	if !hasOrigin(2) {
		t.Fatal("the remote was not added")
	}
	if _, err := New(r).Sweep(ctx, SweepOptions{}); err != nil {
		t.Fatal(err)
	}
	if hasOrigin(2) {
		t.Error("the sweep left remote.origin")
	}
	if _, err := r.Open(ctx, 7, 2, workspace.DefaultBranch, false); err != nil {
		t.Fatalf("open after the sweep: %v", err)
	}
}

func TestSweepRemovesLeftovers(t *testing.T) {
	ctx := context.Background()
	r := workspacetest.NewRepos(t)
	for _, id := range []int64{1, 2} {
		if err := r.Core().CreateFromFiles(ctx, id, workspacetest.Starter(), "Create", workspace.SystemAuthor); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Open(ctx, 7, id, "master", false); err != nil {
			t.Fatal(err)
		}
	}
	stage := filepath.Join(r.DataDir(), ".stage-123")
	os.MkdirAll(filepath.Join(stage, "bare.git"), 0o755)
	tmpClone := r.WorkspaceDir(7, 1) + ".tmp-abc"
	os.MkdirAll(tmpClone, 0o755)
	os.WriteFile(filepath.Join(r.Core().Bare(1), "packed-refs.lock"), nil, 0o644)
	alive := func(id int64) bool { return id == 1 } // portal 2 was deleted with its domain

	// Another instance may be creating a portal right now: fresh leftovers stay.
	rep, err := New(r).Sweep(ctx, SweepOptions{Alive: alive})
	if err != nil || rep.StagingFolders != 0 || rep.OrphanRepositories != 0 || !exists(stage) || !exists(r.Core().Bare(2)) {
		t.Fatalf("a shared data dir keeps fresh leftovers: %+v %v", rep, err)
	}
	if exists(filepath.Join(r.Core().Bare(1), "packed-refs.lock")) {
		t.Fatal("a stale lock file of a live portal must go")
	}
	// Alone on the data dir, everything made before this instance started goes.
	rep, err = New(r).Sweep(ctx, SweepOptions{Alive: alive, Before: time.Now().Add(time.Second)})
	if err != nil || rep.StagingFolders != 2 || rep.OrphanRepositories != 1 || rep.OrphanWorkspaces != 1 {
		t.Fatalf("sweep %+v %v", rep, err)
	}
	if exists(stage) || exists(tmpClone) || exists(r.Core().Bare(2)) || exists(r.WorkspaceDir(7, 2)) {
		t.Fatal("leftovers were not removed")
	}
	if !exists(r.Core().Bare(1)) || !exists(r.WorkspaceDir(7, 1)) {
		t.Fatal("a live portal was removed")
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
