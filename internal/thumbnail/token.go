package thumbnail

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"portalwright/internal/apperr"
)

// Read tokens. A browser loads thumbnails through <img src>, which cannot carry the
// Authorization header, so the URL carries a read token instead (query t=). It is never the
// login token: a URL ends up in logs, proxies and the browser history, so what it holds must
// be worth little — one user's read access to one portal's thumbnails for ten minutes.
//
// Format: "pwr1." + base64url(payload) + "." + base64url(HMAC-SHA256(key, payload)), payload
// "<userId>.<domainId>.<portalId>.<expiry unix seconds>". The key is derived from the
// database-held signing secret (the one access tokens are signed with), so every instance
// accepts every other's tokens, and a read token can never pass for an access token (another
// key, another format).

// TokenTTL is how long a read token is valid.
const TokenTTL = 10 * time.Minute

const tokenPrefix = "pwr1."

// Claims is what a read token binds.
type Claims struct {
	UserID   int64
	DomainID int64
	PortalID int64
	Expires  time.Time
}

// Signer mints and verifies read tokens.
type Signer struct {
	key []byte
	now func() time.Time
}

// NewSigner derives the read-token key from the server's signing secret (identity's
// SigningKey): HMAC-SHA256(secret, purpose), so the secret itself never signs read tokens.
func NewSigner(secret string) *Signer {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("portalwright thumbnail read token v1"))
	return &Signer{key: m.Sum(nil), now: time.Now}
}

// WithClock sets the clock (tests).
func (s *Signer) WithClock(now func() time.Time) *Signer { s.now = now; return s }

// Mint makes a token for the user on the portal, valid for TokenTTL.
func (s *Signer) Mint(userID, domainID, portalID int64) (string, time.Duration) {
	exp := s.now().Add(TokenTTL).Unix()
	payload := strconv.FormatInt(userID, 10) + "." + strconv.FormatInt(domainID, 10) + "." +
		strconv.FormatInt(portalID, 10) + "." + strconv.FormatInt(exp, 10)
	enc := base64.RawURLEncoding
	return tokenPrefix + enc.EncodeToString([]byte(payload)) + "." + enc.EncodeToString(s.sign(payload)), TokenTTL
}

func (s *Signer) sign(payload string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(payload))
	return m.Sum(nil)
}

// Errors of Verify: all 401, in the API's error body (new values each time: apperr errors
// are mutable).
func errNoToken() error {
	return apperr.Unauthorized("UNAUTHORIZED", "No read token present: ask for one with POST /thumbnail/{domainId}/{portalId}/token and pass it as t=")
}
func errBadToken() error {
	return apperr.Unauthorized("INVALID_READ_TOKEN", "The read token is not valid.")
}
func errExpiredToken() error {
	return apperr.Unauthorized("READ_TOKEN_EXPIRED", "The read token has expired: ask for a new one.")
}

// Verify checks a token's signature and expiry and returns what it binds.
func (s *Signer) Verify(token string) (Claims, error) {
	if token == "" {
		return Claims{}, errNoToken()
	}
	rest, ok := strings.CutPrefix(token, tokenPrefix)
	if !ok {
		return Claims{}, errBadToken()
	}
	p64, sig64, ok := strings.Cut(rest, ".")
	if !ok {
		return Claims{}, errBadToken()
	}
	enc := base64.RawURLEncoding
	payload, err1 := enc.DecodeString(p64)
	sig, err2 := enc.DecodeString(sig64)
	if err1 != nil || err2 != nil || !hmac.Equal(sig, s.sign(string(payload))) {
		return Claims{}, errBadToken()
	}
	parts := strings.Split(string(payload), ".")
	if len(parts) != 4 {
		return Claims{}, errBadToken()
	}
	var n [4]int64
	for i, p := range parts {
		v, err := strconv.ParseInt(p, 10, 64)
		if err != nil || v <= 0 {
			return Claims{}, errBadToken()
		}
		n[i] = v
	}
	c := Claims{UserID: n[0], DomainID: n[1], PortalID: n[2], Expires: time.Unix(n[3], 0)}
	if !s.now().Before(c.Expires) {
		return Claims{}, errExpiredToken()
	}
	return c, nil
}
