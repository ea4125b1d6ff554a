package thumbnail

import (
	"time"

	"portalwright/internal/readtoken"
)

// Read tokens (internal/readtoken). A browser loads thumbnails through <img src>, which
// cannot carry the Authorization header, so the URL carries a read token instead (query t=):
// one user's read access to one portal's thumbnails for ten minutes.

// TokenTTL is how long a read token is valid.
const TokenTTL = 10 * time.Minute

// Kind is the thumbnail read token.
var Kind = readtoken.Kind{
	Purpose: "portalwright thumbnail read token v1",
	Prefix:  "pwr1.",
	TTL:     TokenTTL,
	Hint:    "No read token present: ask for one with POST /thumbnail/{domainId}/{portalId}/token and pass it as t=",
}

// Signer mints and verifies thumbnail read tokens.
type Signer = readtoken.Signer

// Claims is what a read token binds.
type Claims = readtoken.Claims

// NewSigner derives the thumbnail read-token key from the server's signing secret.
func NewSigner(secret string) *Signer { return readtoken.New(secret, Kind) }
