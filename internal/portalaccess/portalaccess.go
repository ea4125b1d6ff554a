// Package portalaccess is the checked access to one portal, made once per request as
// Gitea's repository context is: every portal-scoped service method takes a Portal, and
// the only way to get one is Checker.Check, which proves the portal belongs to the domain of
// the URL and, in the same query, loads what handlers and services need of it (its name, its
// domain's name, whether it is active, its type, scope and active branch). Nothing downstream
// fetches the portal's record again to name it. The router's guard has already checked the caller's permission in that domain
// (the route's httpx.Access), so holding a Portal means "this caller may act on this portal
// with this route's permission".
//
// Rules:
//   - Portal's fields are unexported: no other package can build one, so a portal-scoped
//     method cannot be called with ids taken straight from the URL.
//   - The zero Portal is refused in one place: its accessors panic (a wiring bug, answered
//     500 by the router's recoverer), so a method that forgot to require a checked value
//     cannot silently act on portal 0.
//   - Routes with {domainId}/{portalId} wrap their handler in Checker.Handle: the check runs
//     once, before the handler, and the handler receives the Portal as an argument.
package portalaccess

import (
	"context"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/apperr"
	"portalwright/internal/httpx"
)

// Portal is a portal checked to belong to its domain, with its record as the check loaded
// it. Copy it freely; build it only with Checker.Check.
type Portal struct {
	domainID int64
	portalID int64
	rec      Record
}

// Record is what the check loads with the portal, in one query (Finder.Load).
type Record struct {
	Name       string // the portal's name
	DomainName string // the name of its domain
	Active     bool   // its status is active (inactive portals cannot be previewed or built)
	Type       string // CREW or PASSENGER
	Scope      string // FULL, MICROSITE or CAPTIVE
	// ActiveBranch is the branch the portal's record names as active; the portal service
	// resolves it against the branches the repository has (a host may have deleted it).
	ActiveBranch string
	// Imported says the portal was imported from a git URL: its repository is a project's,
	// with a host it pushes to (its settings are kept outside the tree, its commit messages
	// follow git hosts' convention by default; internal/editing/settings.go).
	Imported bool
}

// ID is the portal's id.
func (p Portal) ID() int64 { p.must(); return p.portalID }

// DomainID is the id of the domain the portal was checked to belong to.
func (p Portal) DomainID() int64 { p.must(); return p.domainID }

// Name is the portal's name.
func (p Portal) Name() string { p.must(); return p.rec.Name }

// DomainName is the name of the portal's domain.
func (p Portal) DomainName() string { p.must(); return p.rec.DomainName }

// Record is everything the check loaded of the portal.
func (p Portal) Record() Record { p.must(); return p.rec }

func (p Portal) must() {
	if p.portalID == 0 {
		panic("portalaccess: unchecked portal (the zero Portal); get it from Checker.Check")
	}
}

// String names the portal for logs.
func (p Portal) String() string {
	return "portal " + strconv.FormatInt(p.portalID, 10) + " of domain " + strconv.FormatInt(p.domainID, 10)
}

// Finder loads a portal of a domain in one query: its record, or the API error to answer
// (404 PORTAL_NOT_FOUND when it is not in that domain).
type Finder interface {
	Load(ctx context.Context, domainID, portalID int64) (Record, error)
}

// Checker makes checked Portals. One is built at start-up over the portal store.
type Checker struct{ find Finder }

// NewChecker returns a checker over find.
func NewChecker(find Finder) *Checker { return &Checker{find: find} }

// Check proves the portal belongs to the domain and returns it, loaded, as a checked Portal.
func (c *Checker) Check(ctx context.Context, domainID, portalID int64) (Portal, error) {
	if domainID <= 0 || portalID <= 0 {
		return Portal{}, apperr.BadID("portalId")
	}
	rec, err := c.find.Load(ctx, domainID, portalID)
	if err != nil {
		return Portal{}, err
	}
	return Portal{domainID: domainID, portalID: portalID, rec: rec}, nil
}

// HandlerFunc serves a portal-scoped call with the checked portal.
type HandlerFunc func(w http.ResponseWriter, r *http.Request, p Portal) error

// Handle checks the portal named by the URL parameters domainId and portalId, then runs h
// with it. A bad id is a 400, a portal outside the domain a 404, before h runs. The result is
// an httpx.HandlerFunc (this package does not import httpx: services that take a Portal stay
// free of HTTP helpers).
func (c *Checker) Handle(h HandlerFunc) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		p, err := c.CheckURL(r)
		if err != nil {
			return err
		}
		return h(w, r, p)
	}
}

// CheckURL checks the portal named by the request's URL parameters domainId and portalId (a
// bad id is a 400, a portal outside the domain a 404): Handle's check, for the handlers that
// must verify something else first (a read token in the URL).
func (c *Checker) CheckURL(r *http.Request) (Portal, error) {
	domainID, err := urlID(r, "domainId")
	if err != nil {
		return Portal{}, err
	}
	portalID, err := urlID(r, "portalId")
	if err != nil {
		return Portal{}, err
	}
	return c.Check(r.Context(), domainID, portalID)
}

func urlID(r *http.Request, name string) (int64, error) {
	v, ok := httpx.ParseID(chi.URLParam(r, name))
	if !ok {
		return 0, apperr.BadID(name)
	}
	return v, nil
}
