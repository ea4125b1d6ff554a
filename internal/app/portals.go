package app

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"

	"portalwright/internal/access"
	"portalwright/internal/asset"
	"portalwright/internal/caller"
	"portalwright/internal/gitcli"
	"portalwright/internal/identity"
	"portalwright/internal/portal"
	"portalwright/internal/store"
	"portalwright/internal/workspace"
	"portalwright/templates"
)

// starterCatalog offers the embedded starter portals to the portal service.
type starterCatalog struct{}

func (starterCatalog) List() []portal.Starter {
	var out []portal.Starter
	for _, s := range templates.List() {
		out = append(out, portal.Starter{ID: s.ID, Name: s.Name, Description: s.Description,
			EngineType: s.EngineType, SupportLevel: s.SupportLevel, Scope: s.Scope, PortalType: s.PortalType})
	}
	return out
}

func (starterCatalog) FS(id string) (fs.FS, error) { return templates.FS(id) }

// people answers who a user is, from identity.
type people struct{ identity *identity.Service }

func (p people) Person(ctx context.Context, id int64) (portal.Person, error) {
	u, err := p.identity.User(ctx, id)
	if err != nil {
		return portal.Person{}, err
	}
	return portal.Person{ID: u.ID, UserName: u.UserName, FirstName: u.FirstName, LastName: u.LastName, Email: u.Email}, nil
}

// People looks many users up in one query (portal.PeopleBatch: other users' changes).
func (p people) People(ctx context.Context, ids []int64) (map[int64]portal.Person, error) {
	users, err := p.identity.UsersByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]portal.Person, len(users))
	for _, u := range users {
		out[u.ID] = portal.Person{ID: u.ID, UserName: u.UserName, FirstName: u.FirstName, LastName: u.LastName, Email: u.Email}
	}
	return out, nil
}

// domainMembers lists a domain's members as people (portal.DomainMembers: the portal's users).
type domainMembers struct{ access *access.Service }

func (d domainMembers) Members(ctx context.Context, domainID int64) ([]portal.Person, error) {
	members, err := d.access.Members(ctx, domainID)
	people := make([]portal.Person, 0, len(members))
	for _, m := range members {
		people = append(people, portal.Person{ID: m.ID, UserName: m.UserName, FirstName: m.FirstName, LastName: m.LastName})
	}
	return people, err
}

// newRepos checks git and prepares the repositories under the data dir. Git writes are
// serialised per portal in-process, or across instances with PostgreSQL advisory locks.
func newRepos(ctx context.Context, dataDir string, db *store.DB) (*workspace.Repos, error) {
	g, err := gitcli.New(ctx, gitcli.Options{Home: filepath.Join(dataDir, "git-home")})
	if err != nil {
		return nil, err
	}
	var locks gitcli.Locker = gitcli.NewLocks()
	if db.Dialect == store.Postgres {
		locks = gitcli.NewPGLocks(db.SQL())
	}
	// The commit-time content check validates JSON files against their companion schemas
	// with the asset manager's validator (the one every JSON save runs).
	return workspace.NewRepos(g, locks, dataDir).WithSchemaCheck(asset.SchemaProblems), nil
}

// DemoDomain is the domain the first start fills with the starter portals.
const DemoDomain = "Demo Airline"

// createDemo makes the demo domain: the crew and passenger starters and the legacy portal,
// each in a category, so a first sign-in has something to open.
func createDemo(ctx context.Context, acc *access.Service, portals *portal.Service, catalog *portal.Catalog, adminID int64) error {
	admin := caller.Caller{UserID: adminID, Username: identity.InitialAdminName, Admin: true}
	d, err := acc.CreateDomain(ctx, admin, DemoDomain)
	if err != nil {
		return fmt.Errorf("demo domain: %w", err)
	}
	demo := []struct{ category, starter, name, typ, scope string }{
		{"Crew Portals", "crew", "Crew Portal", portal.TypeCrew, portal.ScopeFull},
		{"Passenger Portals", "passenger", "Passenger Portal", portal.TypePassenger, portal.ScopeFull},
		{"Legacy Portals", "legacy", "Legacy Crew Portal", portal.TypeCrew, portal.ScopeCaptive},
	}
	for _, p := range demo {
		c, err := catalog.CreateCategory(ctx, admin, d.ID, p.category)
		if err != nil {
			return fmt.Errorf("demo category: %w", err)
		}
		if _, err := portals.CreateFromTemplate(ctx, admin, d.ID, portal.NewPortal{Name: p.name, Type: p.typ, Scope: p.scope, CategoryID: &c.ID}, 0, p.starter); err != nil {
			return fmt.Errorf("demo portal %s: %w", p.name, err)
		}
	}
	return nil
}
