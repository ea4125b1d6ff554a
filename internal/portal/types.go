// Package portal owns portals as a domain sees them: their metadata (name, type, scope,
// status, category), how they are created (from a template, a git URL or another portal),
// activated, deactivated and deleted, their settings (portal.json, versioned per branch), and
// the calls that drive an author's workspace of a portal (open, branches, local changes,
// commit, revert, reset, other users' changes). The git work itself is internal/workspace.
//
// The package has a type per role, each built over the one Service's dependencies
// (NewTemplates(svc), …) and wired in internal/app:
//
//   - Service: the portal records — create (from a template, a git URL or another portal),
//     load, list, search, activate, deactivate, delete — and what a checked portal needs of
//     them: open, users, git URLs, statistics, kept settings, the workspace events
//     (events.go) and the sweep of the data directory.
//   - Templates: what portals are made from — the shipped starters and a domain's own
//     templates, made from a starter or a portal (templates.go).
//   - Branches: a portal's branches and tags in its canonical repository, the branch it opens
//     on, a git URL's branches before an import (branches.go).
//   - Catalog: a domain's categories and the portal selector's grouping by them (catalog.go).
//   - Microsites: the microsite portals and a portal's links to them (extras.go).
//
// The stores, over one database: SQLStore keeps the portal records, CategoryStore the
// categories (store_category.go), TemplateStore the templates (store_template.go).
package portal

import (
	"time"

	"portalwright/internal/editing"
)

// Portal statuses, types and scopes (spec 3 §3).
const (
	StatusActive   = "active"
	StatusInactive = "inactive"

	TypeCrew      = "CREW"
	TypePassenger = "PASSENGER"

	ScopeFull      = editing.ScopeFull
	ScopeMicrosite = editing.ScopeMicrosite
	ScopeCaptive   = editing.ScopeCaptive
)

// InactiveGroup is the category the selector shows inactive portals under (spec 1 §2.1).
const InactiveGroup = "Inactive Portals"

// UncategorizedGroup holds active portals without a category.
const UncategorizedGroup = "Uncategorized"

// Portal is a portal's metadata.
type Portal struct {
	ID           int64     `json:"id"`
	DomainID     int64     `json:"domainId"`
	Name         string    `json:"name"`
	Type         string    `json:"type"`
	Scope        string    `json:"scope"`
	Status       string    `json:"status"`
	CategoryID   *int64    `json:"categoryId"`
	Category     string    `json:"category"`
	ActiveBranch string    `json:"activeBranch"`
	URL          string    `json:"url"` // upstream git URL, when imported
	Source       string    `json:"source"`
	CreatedAt    time.Time `json:"createdAt"`
	LastModified time.Time `json:"lastModified"`
	Deactivated  bool      `json:"deactivated"`
}

// Category groups portals.
type Category struct {
	ID          int64     `json:"id"`
	Name        string    `json:"name"`
	Deactivated bool      `json:"deactivated"` // true when no child is active
	Children    []Portal  `json:"children"`
	CreatedAt   time.Time `json:"createdAt,omitzero"`
}

// Template is what a domain creates portals from.
type Template struct {
	ID           int64   `json:"id"`
	Name         string  `json:"name"`
	TemplateName string  `json:"templateName"`
	Starter      string  `json:"starter,omitempty"`
	PortalID     *int64  `json:"portalId"`
	URL          string  `json:"url"` // the source portal's upstream git URL, when it has one
	Accounts     []int64 `json:"accounts"`
	EngineType   string  `json:"engineType,omitempty"`
	Updating     bool    `json:"updating"`    // true while a CREATE_TEMPLATE or UPDATE_TEMPLATE runs
	UpdateError  string  `json:"updateError"` // why the last update failed; "" when it did not
	BuiltIn      bool    `json:"builtIn"`
}

// The settings of a portal (portal.json) belong to the editing unit (internal/editing): every
// feature reads them there. These names keep the portal package's callers working.
type (
	Settings           = editing.Settings
	LanguageSettings   = editing.LanguageSettings
	TaskRunnerSettings = editing.TaskRunnerSettings
	EngineInfo         = editing.EngineInfo
)

// Defaults of the spec (spec 1 §9, spec 3 §3), kept in editing.
const (
	DefaultEngineType   = editing.DefaultEngineType
	DefaultSupportLevel = editing.DefaultSupportLevel
	DefaultLanguage     = editing.DefaultLanguage
	DefaultTranslations = editing.DefaultTranslations
	DefaultOutputPath   = editing.DefaultOutputPath
	SettingsFile        = editing.SettingsFile
	ProbeSettingsFile   = editing.ProbeSettingsFile
)

var (
	scopes      = editing.Scopes
	portalTypes = []string{TypeCrew, TypePassenger}
)

// ParseSettings reads portal.json with the spec's defaults (editing.ParseSettings).
func ParseSettings(data []byte) (Settings, error) { return editing.ParseSettings(data) }
