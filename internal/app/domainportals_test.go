package app

import (
	"context"
	"os"
	"path/filepath"
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
