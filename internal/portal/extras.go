package portal

import (
	"context"
	"regexp"
	"strings"

	"portalwright/internal/apperr"
	"portalwright/internal/editing"
	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace/gitlog"
)

// Microsite is a microsite portal as a portal links it.
type Microsite struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Status string `json:"status"`
	Target string `json:"target"` // microsites/<name>/index.html
}

// Microsites are the domain's microsite portals and the links of a portal to them (a linked
// microsite is reached at its MicrositeTarget). They are a type of their own beside Service,
// over its store.
type Microsites struct {
	svc *Service
}

// NewMicrosites serves the microsite links over the portal service's dependencies.
func NewMicrosites(svc *Service) *Microsites { return &Microsites{svc: svc} }

var nonWord = regexp.MustCompile(`\W+`)

// MicrositeTarget is where a linked microsite is reached: its name lowercased, non-word
// characters replaced by a dash (spec 3 §3).
func MicrositeTarget(name string) string {
	return "microsites/" + nonWord.ReplaceAllString(strings.ToLower(strings.TrimSpace(name)), "-") + "/index.html"
}

func toMicrosite(p Portal) Microsite {
	return Microsite{ID: p.ID, Name: p.Name, Status: p.Status, Target: MicrositeTarget(p.Name)}
}

// Microsites lists the domain's microsite portals.
func (s *Microsites) Microsites(ctx context.Context, domainID int64) ([]Microsite, error) {
	portals, err := s.svc.store.Portals(ctx, domainID)
	if err != nil {
		return nil, err
	}
	out := []Microsite{}
	for _, p := range portals {
		if p.Scope == ScopeMicrosite {
			out = append(out, toMicrosite(p))
		}
	}
	return out, nil
}

// LinkedMicrosites lists the microsites linked into a portal.
func (s *Microsites) LinkedMicrosites(ctx context.Context, pa portalaccess.Portal) ([]Microsite, error) {
	linked, err := s.svc.store.LinkedMicrosites(ctx, pa.ID())
	if err != nil {
		return nil, err
	}
	out := make([]Microsite, 0, len(linked))
	for _, p := range linked {
		out = append(out, toMicrosite(p))
	}
	return out, nil
}

// LinkMicrosites links or unlinks microsites of the same domain into a portal.
func (s *Microsites) LinkMicrosites(ctx context.Context, pa portalaccess.Portal, micrositeIDs []int64, link bool) error {
	domainID, portalID := pa.DomainID(), pa.ID()
	if len(micrositeIDs) == 0 {
		return apperr.Validation("Choose at least one microsite.")
	}
	for _, m := range micrositeIDs {
		ms, err := s.svc.Portal(ctx, domainID, m)
		if err != nil {
			return apperr.NotFound("MICROSITE_NOT_FOUND", "Could not retrieve Microsites: a microsite does not exist in this domain.")
		}
		if ms.Scope != ScopeMicrosite || ms.ID == portalID {
			return apperr.Validation("'" + ms.Name + "' is not a microsite of this portal's domain.")
		}
	}
	return s.svc.store.SetMicrositeLinks(ctx, portalID, micrositeIDs, link)
}

// Statistics answers GET statistics: the size of the branch and its history.
func (s *Service) Statistics(ctx context.Context, pa portalaccess.Portal, branch string) (*gitlog.Statistics, error) {
	portalID := pa.ID()
	pt, err := s.Checked(ctx, pa)
	if err != nil {
		return nil, err
	}
	if branch == "" {
		branch = pt.ActiveBranch
	}
	if err := checkBranch(branch); err != nil {
		return nil, err
	}
	st, err := s.log.Statistics(ctx, portalID, branch)
	return st, editing.GitError(err)
}
