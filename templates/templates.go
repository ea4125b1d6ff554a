// Package templates holds the starter portals that Portalwright embeds: the demo portals created on
// first start and the sources for "create from template". Each starter is a folder in portal
// format v1 (docs/portal-format.md) with a portal.json at its root.
package templates

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
)

//go:embed all:crew all:passenger all:legacy
var files embed.FS

// Starter describes one embedded starter portal. EngineType, SupportLevel, Scope and PortalType
// repeat the template's portal.json (the tests keep them equal).
type Starter struct {
	ID, Name, Description string
	EngineType            string // PORTAL_ENGINE, UNIVERSAL, JS_ENGINE, UNKNOWN
	SupportLevel          string // FULL, LIMITED
	Scope                 string // FULL, MICROSITE, CAPTIVE
	PortalType            string // CREW, PASSENGER
}

// ErrUnknown is returned (wrapped) by FS for an id that is not a starter.
var ErrUnknown = errors.New("unknown starter template")

var starters = []Starter{
	{
		ID:          "crew",
		Name:        "Crew Portal",
		Description: "Portal engine site for crew: master page, eight pages, widgets, translations in English, French and Arabic (right to left), and a duty-free microsite.",
		EngineType:  "PORTAL_ENGINE", SupportLevel: "FULL", Scope: "FULL", PortalType: "CREW",
	},
	{
		ID:          "passenger",
		Name:        "Passenger Portal",
		Description: "Data-driven passenger portal: JSON content with schemas in English and German, built by the task runner into pw-dist.",
		EngineType:  "UNIVERSAL", SupportLevel: "FULL", Scope: "FULL", PortalType: "PASSENGER",
	},
	{
		ID:          "legacy",
		Name:        "Legacy Captive Portal",
		Description: "Static captive portal (HTML, CSS, JavaScript) with limited support, edited through the file explorer only.",
		EngineType:  "JS_ENGINE", SupportLevel: "LIMITED", Scope: "CAPTIVE", PortalType: "CREW",
	},
}

// List returns the starters in display order: crew, passenger, legacy.
func List() []Starter {
	out := make([]Starter, len(starters))
	copy(out, starters)
	return out
}

// Get returns the starter with the given id.
func Get(id string) (Starter, bool) {
	for _, s := range starters {
		if s.ID == id {
			return s, true
		}
	}
	return Starter{}, false
}

// FS returns the files of the starter with the given id, rooted at its folder (portal.json is at
// the root of the returned file system).
func FS(id string) (fs.FS, error) {
	if _, ok := Get(id); !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknown, id)
	}
	return fs.Sub(files, id)
}
