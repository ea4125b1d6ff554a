package portal

import (
	"context"

	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
	"portalwright/internal/workspace/hostsync"
)

// Upstreams keeps the git host of portals created from a git URL (internal/upstream): told
// of each import with the credentials it used, which it seals or refuses to keep, and sent
// the branches pushed to the portal by other ways than a browser commit.
type Upstreams interface {
	Imported(ctx context.Context, portalID int64, creds *workspace.Credentials)
	// Push sends a branch on to the portal's git host; a failure is kept on the portal's
	// upstream status (the dashboard's Sync now) and answered as a warning.
	Push(ctx context.Context, pa portalaccess.Portal, branch string) string
}

// WithUpstreams sets who keeps imported portals connected to their git host.
func (s *Service) WithUpstreams(u Upstreams) *Service { s.upstreams = u; return s }

// splitCredentials keeps credentials out of the stored URL: a user:password@ in an http(s)
// URL becomes the import's credentials (unless the body gave some), and the URL is kept
// without it.
func splitCredentials(url string, creds *workspace.Credentials) (string, *workspace.Credentials) {
	clean, user, password := hostsync.SplitURLCredentials(url)
	if creds == nil && (user != "" || password != "") {
		creds = &workspace.Credentials{Username: user, Password: password}
	}
	return clean, creds
}
