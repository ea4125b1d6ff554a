package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"portalwright/internal/gitcli"
)

// Issue 30 item 8: a canonical repository keeps no remote.origin.url (docs/operations.md "How
// commits travel"): not after a template's first commit or a copy (an import: internal/app's
// TestImportedPortalSettings); a repository
// an older version left with one loses it at the start-up sweep, and still opens.
func TestCanonicalRepositoryKeepsNoRemote(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	hasOrigin := func(id int64) bool {
		config, err := os.ReadFile(filepath.Join(r.bare(id), "config"))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Contains(string(config), `[remote "origin"]`)
	}
	if err := r.Core().CreateFromFiles(ctx, 1, starter(), "Create", ann); err != nil {
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
	if _, err := r.run(ctx, r.bare(2), gitcli.Command("remote", "add").Value("origin", "https://git.example.org/site.git")); err != nil {
		t.Fatal(err)
	}
	if !hasOrigin(2) {
		t.Fatal("the remote was not added")
	}
	if _, err := r.Upkeep().Sweep(ctx, SweepOptions{}); err != nil {
		t.Fatal(err)
	}
	if hasOrigin(2) {
		t.Error("the sweep left remote.origin")
	}
	if _, err := r.Open(ctx, 7, 2, DefaultBranch, false); err != nil {
		t.Fatalf("open after the sweep: %v", err)
	}
}
