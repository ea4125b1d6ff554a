package portal_test

import (
	"context"
	"net/http"
	"testing"

	"portalwright/internal/portal"
	"portalwright/internal/store"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
)

// With the remote host policy on (the default outside tests), imports from and branch
// lookups of internal hosts answer 400 with words the user can act on, before any progress
// card or portal row exists.
func TestRemoteHostPolicy(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		f.repos.AllowPrivateGitHosts(false)
		for _, url := range []string{"git://127.0.0.1:9/portal.git", "https://10.1.2.3/portal.git", "git://localhost:9/portal.git"} {
			_, err := f.svc.CreateFromURL(ctx, admin, f.domain.ID, portal.NewPortal{Name: "Remote"}, url, nil)
			testkit.APIError(t, err, http.StatusBadRequest, portal.CodeGitHostNotAllowed)
			_, err = f.brs.RemoteBranches(ctx, url, nil)
			testkit.APIError(t, err, http.StatusBadRequest, portal.CodeGitHostNotAllowed)
		}
		_, err := f.brs.RemoteBranches(ctx, "https://no-such-host.invalid/portal.git", nil)
		testkit.APIError(t, err, http.StatusBadRequest, portal.CodeGitHostNotFound)
		_, err = f.brs.RemoteBranches(ctx, "http://2130706433/portal.git", nil)
		testkit.APIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
		if len(f.progress.notes) != 0 {
			t.Fatalf("refused imports reported progress: %+v", f.progress.notes)
		}
		if list, _ := f.svc.Portals(ctx, f.domain.ID); len(list) != 0 {
			t.Fatalf("refused imports left portals: %+v", list)
		}
		// Allowed: git runs (the port is closed, so the remote is unreachable, not refused).
		f.repos.AllowPrivateGitHosts(true)
		_, err = f.brs.RemoteBranches(ctx, "git://127.0.0.1:9/portal.git", nil)
		testkit.APIError(t, err, http.StatusBadRequest, "REMOTE_UNREACHABLE")
	})
}
