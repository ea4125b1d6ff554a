package portal

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"regexp"
	"strings"

	"portalwright/internal/httpx"
	"portalwright/internal/workspace"
)

// Microsite is a microsite portal as a portal links it.
type Microsite struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Status string `json:"status"`
	Target string `json:"target"` // microsites/<name>/index.html
}

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
func (s *Service) Microsites(ctx context.Context, domainID int64) ([]Microsite, error) {
	portals, err := s.store.Portals(ctx, domainID)
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
func (s *Service) LinkedMicrosites(ctx context.Context, domainID, portalID int64) ([]Microsite, error) {
	if _, err := s.Portal(ctx, domainID, portalID); err != nil {
		return nil, err
	}
	linked, err := s.store.LinkedMicrosites(ctx, portalID)
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
func (s *Service) LinkMicrosites(ctx context.Context, domainID, portalID int64, micrositeIDs []int64, link bool) error {
	if len(micrositeIDs) == 0 {
		return httpx.Validation("Choose at least one microsite.")
	}
	if _, err := s.Portal(ctx, domainID, portalID); err != nil {
		return err
	}
	for _, m := range micrositeIDs {
		ms, err := s.Portal(ctx, domainID, m)
		if err != nil {
			return httpx.NotFound("MICROSITE_NOT_FOUND", "Could not retrieve Microsites: a microsite does not exist in this domain.")
		}
		if ms.Scope != ScopeMicrosite || ms.ID == portalID {
			return httpx.Validation("'" + ms.Name + "' is not a microsite of this portal's domain.")
		}
	}
	return s.store.SetMicrositeLinks(ctx, portalID, micrositeIDs, link)
}

// ProbeSettingsFile holds a portal's probe settings (the designer's per-portal options).
const ProbeSettingsFile = "probe-settings.json"

var probeSettingsPath = workspace.MustPath(ProbeSettingsFile)

// ProbeSettings reads the probe settings of the user's workspace ({} when there are none)
// with the version a save must be based on.
func (s *Service) ProbeSettings(ctx context.Context, userID, portalID int64) (json.RawMessage, workspace.Version, error) {
	data, version, err := s.repos.ReadFile(userID, portalID, probeSettingsPath)
	if errors.Is(err, fs.ErrNotExist) {
		return json.RawMessage("{}"), workspace.NoVersion, nil
	}
	if err != nil {
		return nil, version, fileError(err, ProbeSettingsFile)
	}
	if !json.Valid(data) {
		return nil, version, httpx.Validation("Could not load probe settings file: it is not valid JSON.")
	}
	return data, version, nil
}

// SaveProbeSettings writes the probe settings into the user's workspace (a local change) if
// the file is still at version base.
func (s *Service) SaveProbeSettings(ctx context.Context, userID, portalID int64, data json.RawMessage, base workspace.Version) (workspace.Version, error) {
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
		return base, httpx.Validation("The probe settings must be a JSON object.")
	}
	pretty, err := json.MarshalIndent(obj, "", "  ")
	if err != nil {
		return base, err
	}
	version, err := s.repos.WriteFile(ctx, userID, portalID, probeSettingsPath, append(pretty, '\n'), base)
	if err != nil {
		return base, fileError(err, ProbeSettingsFile)
	}
	s.changed(ctx, userID, portalID)
	return version, nil
}

// Statistics answers GET statistics: the size of the branch and its history.
func (s *Service) Statistics(ctx context.Context, domainID, portalID int64, branch string) (*workspace.Statistics, error) {
	pt, err := s.Portal(ctx, domainID, portalID)
	if err != nil {
		return nil, err
	}
	if branch == "" {
		branch = pt.ActiveBranch
	}
	if err := checkBranch(branch); err != nil {
		return nil, err
	}
	st, err := s.repos.Statistics(ctx, portalID, branch)
	return st, gitError(err)
}

// ContentCheck is the answer of check-content.
type ContentCheck struct {
	Branch       string   `json:"branch"`
	RuleWarnings []string `json:"ruleWarnings"`
}

// CheckContent runs the commit-time content check over every file of the user's workspace.
func (s *Service) CheckContent(ctx context.Context, userID, portalID int64) (*ContentCheck, error) {
	st, err := s.repos.Status(ctx, userID, portalID)
	if err != nil {
		return nil, gitError(err)
	}
	warnings, err := s.repos.CheckAll(ctx, userID, portalID)
	if err != nil {
		return nil, gitError(err)
	}
	return &ContentCheck{Branch: st.Branch, RuleWarnings: warnings}, nil
}

// EngineInfo is the answer of the engine-version call.
type EngineInfo struct {
	EngineType    string `json:"engineType"`
	EngineVersion string `json:"engineVersion"` // "" when the portal carries no portal engine
}

var enginePath = workspace.MustPath("engine/portal-engine.js")

var engineVersion = regexp.MustCompile(`VERSION\s*=\s*'([0-9][0-9A-Za-z.\-]*)'`)

// Engine reports the engine type and the version of the engine file in the user's workspace.
func (s *Service) Engine(ctx context.Context, userID, portalID int64) (*EngineInfo, error) {
	settings, _, err := s.Settings(ctx, userID, portalID)
	if err != nil {
		return nil, err
	}
	info := &EngineInfo{EngineType: settings.EngineType}
	data, _, err := s.repos.ReadFile(userID, portalID, enginePath)
	if err == nil {
		if m := engineVersion.FindSubmatch(data); m != nil {
			info.EngineVersion = string(m[1])
		}
	}
	return info, nil
}
