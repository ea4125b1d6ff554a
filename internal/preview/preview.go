// Package preview serves a user's own workspace of a portal to the designer's preview frame
// (spec 2 §4 "Pages and designer": api/v1/workspace/{token}/{domain}/{portal}/[{outputPath}/]
// [{language}/]index.html), uncommitted edits included, and a page's HTML to a bearer call
// (GET /workspace/{domain}/{portal}/{branch}/{page path}).
//
// Portal content is untrusted: a portal imported from a URL carries its own scripts. The
// safety rules, each enforced here rather than by callers:
//
//   - A frame cannot send the Authorization header, so its URLs carry a preview token
//     (internal/readtoken, its own key and prefix): one user, one portal, 30 minutes. A
//     thumbnail token or a login token is not one. The user's right to read pages is checked
//     again on every file, so a token stops working when the right goes.
//   - Every path goes through workspace.CleanPath and the workspace file layer (no "..", no
//     .git, no links out); the token binds the workspace, the URL cannot name another.
//   - Every answer is sandboxed (policy.go): Content-Security-Policy "sandbox allow-scripts …"
//     without allow-same-origin makes the document an opaque origin even when opened on its
//     own, so a portal script cannot read the app's storage, cookies or tokens, nor call the
//     API as the user; and every request it makes (fetch, beacon, image, frame, form…) may
//     only go to this server or the portal's whitelist. It may still fetch its own files:
//     answers allow any origin (CORS "*", without credentials), which is safe because the
//     token in the URL is the only key.
//   - Referrer-Policy no-referrer: a link out of the portal does not leak the token.
//   - The token in the frame's URL can be read by the portal's scripts (an opaque origin gets
//     no cookies). With a frame origin of its own (frame.go) the frame's URLs carry no key: a
//     single-use ticket is exchanged for an HttpOnly cookie.
package preview

import (
	"context"
	"time"

	"portalwright/internal/readtoken"
)

// TokenTTL is how long a preview token is valid; the designer asks for a new one before.
const TokenTTL = 30 * time.Minute

// Permission is what the token's minting and every file read need (the designer reads pages).
const Permission = "page:r"

// Kind is the preview token.
var Kind = readtoken.Kind{
	Purpose: "portalwright workspace preview token v1",
	Prefix:  "pwp1.",
	TTL:     TokenTTL,
	Hint:    "No preview token present: ask for one with POST /workspace/{domainId}/{portalId}/token",
}

// NewSigner derives the preview-token key from the server's signing secret.
func NewSigner(secret string) *readtoken.Signer { return readtoken.New(secret, Kind) }

// Rights tells whether a user still holds a permission in a domain (admins hold every one).
type Rights interface {
	Holds(ctx context.Context, userID, domainID int64, permission string) (bool, error)
}
