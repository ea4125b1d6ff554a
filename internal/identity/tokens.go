package identity

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// accessClaims is the payload of an access token (the spec's id_token): a three-part
// signed token with an exp claim in seconds.
type accessClaims struct {
	SessionID string `json:"sid"`
	Username  string `json:"usr"`
	Admin     bool   `json:"adm"`
	jwt.RegisteredClaims
}

const tokenIssuer = "portalwright"

// tokenSigner issues and checks HS256 access tokens with a key shared by every instance.
type tokenSigner struct {
	key []byte
	ttl time.Duration
	now func() time.Time
}

func (s *tokenSigner) issue(u *User, sessionID string) (string, time.Time, error) {
	now := s.now()
	exp := now.Add(s.ttl)
	claims := accessClaims{
		SessionID: sessionID,
		Username:  u.UserName,
		Admin:     u.Admin,
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    tokenIssuer,
			Subject:   formatID(u.ID),
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(exp),
		},
	}
	signed, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(s.key)
	return signed, exp, err
}

var errBadToken = errors.New("invalid token")

func (s *tokenSigner) parse(token string) (*accessClaims, error) {
	var claims accessClaims
	_, err := jwt.ParseWithClaims(token, &claims, func(*jwt.Token) (any, error) { return s.key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(tokenIssuer),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(s.now),
	)
	if err != nil {
		if errors.Is(err, jwt.ErrTokenExpired) {
			return nil, errTokenExpired
		}
		return nil, errBadToken
	}
	if claims.SessionID == "" {
		return nil, errBadToken
	}
	return &claims, nil
}

var errTokenExpired = errors.New("token expired")

// A refresh token is "<sessionID>.<secret>"; only sha256(secret) is stored.
func newRefreshSecret() (secret, hash string) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	secret = base64.RawURLEncoding.EncodeToString(b)
	return secret, hashSecret(secret)
}

func hashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

func splitRefreshToken(token string) (sessionID, secret string, ok bool) {
	sessionID, secret, ok = strings.Cut(token, ".")
	return sessionID, secret, ok && sessionID != "" && secret != ""
}

func secretMatches(secret, storedHash string) bool {
	return subtle.ConstantTimeCompare([]byte(hashSecret(secret)), []byte(storedHash)) == 1
}

func newSigningKey() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return base64.RawStdEncoding.EncodeToString(b)
}
