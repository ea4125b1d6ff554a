// Package portalwright holds facts about the product itself: its version.
package portalwright

import (
	_ "embed"
	"strings"
)

//go:embed VERSION
var versionFile string

// Build is the build number, set at link time:
// go build -ldflags "-X portalwright.Build=42". It is the fourth part of the back-end version.
var Build = "0"

// Version is the product (and front-end) version, e.g. "3.4.10".
func Version() string { return strings.TrimSpace(versionFile) }

// BackendVersion is the version the API reports: product version plus build number, e.g. "3.4.10.42".
func BackendVersion() string { return Version() + "." + Build }
