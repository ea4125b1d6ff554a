package portal

import (
	"context"

	"portalwright/internal/caller"
)

// UserGitURLs gives a user the git URLs they can clone a portal from themselves (the
// built-in SSH server, internal/gitssh): none when it is off.
type UserGitURLs interface {
	UserGitURLs(ctx context.Context, c caller.Caller, domainID, portalID int64) []string
}

// WithUserGitURLs adds the caller's own git URLs to the gitUrls answer.
func (s *Service) WithUserGitURLs(u UserGitURLs) *Service { s.userGitURLs = u; return s }
