package app

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"portalwright/internal/audit"
	"portalwright/internal/caller"
)

// TestDeletingADomainDeletesItsPortals (issue 8, items 0 and 5): deleting a domain deletes each
// of its portals as the portal delete call does — one PORTAL_DELETED audit entry per portal,
// the canonical repository and every user's workspace removed — instead of letting the
// database cascade drop the rows and leave the files behind.
func TestDeletingADomainDeletesItsPortals(t *testing.T) {
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	ctx := context.Background()
	a, root, bob := newWithReader(t, cfg)
	portals, err := a.Portals.Portals(ctx, 1)
	if err != nil || len(portals) != 3 {
		t.Fatalf("demo portals = %d, %v", len(portals), err)
	}
	meta, err := a.Access.Meta(ctx, 1)
	if err != nil || meta.PortalCount != 3 {
		t.Fatalf("account-meta portalCount = %+v, %v", meta, err)
	}
	pb := caller.Caller{UserID: bob.ID, Username: "bob"}
	var paths []string
	for _, pt := range portals {
		id := strconv.FormatInt(pt.ID, 10)
		paths = append(paths, filepath.Join(cfg.DataDir, "repos", id+".git"))
		for _, p := range []caller.Caller{root, pb} {
			pa, err := a.PortalAccess.Check(ctx, 1, pt.ID)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := a.Portals.Open(ctx, p, pa, "", false); err != nil {
				t.Fatalf("open %s as %s: %v", pt.Name, p.Username, err)
			}
			paths = append(paths, filepath.Join(cfg.DataDir, "workspaces", strconv.FormatInt(p.UserID, 10), id))
		}
	}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("before: %v", err)
		}
	}

	if err := a.Access.DeleteDomain(ctx, root, 1); err != nil {
		t.Fatal(err)
	}

	for _, p := range paths {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s is still on disk after the domain was deleted (%v)", p, err)
		}
	}
	deleted, err := a.Audit.List(ctx, audit.Filter{Action: "PORTAL_DELETED"})
	if err != nil || len(deleted) != len(portals) {
		t.Fatalf("PORTAL_DELETED entries = %d (%v), want %d", len(deleted), err, len(portals))
	}
	for _, e := range deleted {
		if e.ActorName != "admin" || e.DomainID == nil || *e.DomainID != 1 || !strings.Contains(e.Details, "deleted with the domain") {
			t.Errorf("entry %+v", e)
		}
	}
	dom, _ := a.Audit.List(ctx, audit.Filter{Action: "DOMAIN_DELETED"})
	if len(dom) != 1 || !strings.Contains(dom[0].Details, "portals deleted: ") {
		t.Fatalf("DOMAIN_DELETED = %+v", dom)
	}
	if left, _ := a.Portals.Portals(ctx, 1); len(left) != 0 {
		t.Fatalf("portal rows left: %+v", left)
	}
}

// TestAuditNamesWhatChanged (issue 9 item 8): category and template entries are about that
// category or template (not 'PORTAL 0'), a deleted category is recorded by its name (not its
// id), and the history types of the PORTAL category are listed with words to show.
func TestAuditNamesWhatChanged(t *testing.T) {
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	ctx := context.Background()
	a, root, _ := newWithReader(t, cfg)
	c, err := a.Catalog.CreateCategory(ctx, root, 1, "Summer")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Catalog.RenameCategory(ctx, root, 1, c.ID, "Winter"); err != nil {
		t.Fatal(err)
	}
	if err := a.Catalog.DeleteCategory(ctx, root, 1, c.ID); err != nil {
		t.Fatal(err)
	}
	want := strconv.FormatInt(c.ID, 10)
	for action, details := range map[string]string{"CATEGORY_CREATED": "Summer", "CATEGORY_RENAMED": "Winter", "CATEGORY_DELETED": "Winter"} {
		got, err := a.Audit.List(ctx, audit.Filter{Action: action, EntityID: want})
		if err != nil || len(got) != 1 {
			t.Fatalf("%s entries = %+v, %v", action, got, err)
		}
		if e := got[0]; e.EntityType != "CATEGORY" || e.EntityID != want || e.Details != details || e.Category != "PORTAL" {
			t.Errorf("%s = %+v, want CATEGORY %s with details %q", action, e, want, details)
		}
	}
	if !slices.Contains(audit.HistoryTypes["PORTAL"], "CATEGORY_DELETED") {
		t.Errorf("PORTAL history types = %v", audit.HistoryTypes["PORTAL"])
	}
}
