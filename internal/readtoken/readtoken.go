// Package readtoken mints and verifies the product's URL tokens: short-lived capabilities for
// one user's read access to one portal, for what a browser loads without an Authorization
// header (thumbnails through <img src>, the preview frame's files). A URL ends up in logs,
// proxies and the browser history, so a token is never the login token and is worth little:
// one purpose, one user, one portal, minutes.
//
// Format: prefix + base64url(payload) + "." + base64url(HMAC-SHA256(key, payload)), payload
// "<userId>.<domainId>.<portalId>.<expiry unix seconds>". The key is HMAC-SHA256(secret,
// purpose) over the database-held signing secret (the one access tokens are signed with), so
// every instance accepts every other's tokens, the secret itself never signs a URL token, and
// a token of one purpose never passes for another's (another key, another prefix) or for an
// access token (another format).
package readtoken

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"portalwright/internal/apperr"
)

// Kind names one purpose of tokens: how they are told apart, how long they live, and what a
// caller without one is told.
type Kind struct {
	Purpose string        // mixed into the key, e.g. "portalwright thumbnail read token v1"
	Prefix  string        // e.g. "pwr1."
	TTL     time.Duration // how long a token is valid
	Hint    string        // the 401 message without a token: where to get one
}

// Claims is what a token binds.
type Claims struct {
	UserID   int64
	DomainID int64
	PortalID int64
	Expires  time.Time
}

// Signer mints and verifies the tokens of one Kind.
type Signer struct {
	kind Kind
	key  []byte
	now  func() time.Time
}

// New derives the key of kind from the server's signing secret (identity's SigningKey).
func New(secret string, kind Kind) *Signer {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(kind.Purpose))
	return &Signer{kind: kind, key: m.Sum(nil), now: time.Now}
}

// WithClock sets the clock (tests).
func (s *Signer) WithClock(now func() time.Time) *Signer { s.now = now; return s }

// TTL is how long the tokens of this signer are valid.
func (s *Signer) TTL() time.Duration { return s.kind.TTL }

// Mint makes a token for the user on the portal, valid for the kind's TTL.
func (s *Signer) Mint(userID, domainID, portalID int64) (string, time.Duration) {
	exp := s.now().Add(s.kind.TTL).Unix()
	payload := strconv.FormatInt(userID, 10) + "." + strconv.FormatInt(domainID, 10) + "." +
		strconv.FormatInt(portalID, 10) + "." + strconv.FormatInt(exp, 10)
	enc := base64.RawURLEncoding
	return s.kind.Prefix + enc.EncodeToString([]byte(payload)) + "." + enc.EncodeToString(s.sign(payload)), s.kind.TTL
}

func (s *Signer) sign(payload string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(payload))
	return m.Sum(nil)
}

// Errors of Verify: all 401, in the API's error body (new values each time: apperr errors
// are mutable).
func (s *Signer) errNoToken() error { return apperr.Unauthorized("UNAUTHORIZED", s.kind.Hint) }
func errBadToken() error {
	return apperr.Unauthorized("INVALID_READ_TOKEN", "The read token is not valid.")
}
func errExpiredToken() error {
	return apperr.Unauthorized("READ_TOKEN_EXPIRED", "The read token has expired: ask for a new one.")
}

// Verify checks a token's kind, signature and expiry and returns what it binds.
func (s *Signer) Verify(token string) (Claims, error) {
	if token == "" {
		return Claims{}, s.errNoToken()
	}
	rest, ok := strings.CutPrefix(token, s.kind.Prefix)
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
