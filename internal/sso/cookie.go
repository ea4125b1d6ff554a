package sso

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"time"
)

// flowState is what the browser carries between /user/sso/login and /user/sso/callback,
// sealed in a cookie: the values the callback must check and the page to return to.
type flowState struct {
	State    string `json:"s"`
	Nonce    string `json:"n"`
	Verifier string `json:"v"`
	ReturnTo string `json:"r,omitempty"`
	Expires  int64  `json:"e"` // unix seconds; the cookie's Max-Age is only the browser's promise
}

// sealer encrypts and authenticates the flow state (AES-256-GCM), so the browser can
// neither read nor forge it. Every instance that shares the input key can open what any
// other sealed, so the callback may land on another instance behind a load balancer.
type sealer struct{ aead cipher.AEAD }

// cookieKeyLabel separates the cookie key from other uses of the shared secret.
const cookieKeyLabel = "portalwright/sso/state-cookie/v1"

var errBadCookie = errors.New("sso: state cookie is malformed, forged or sealed with another key")

func newSealer(secret []byte) (*sealer, error) {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(cookieKeyLabel))
	block, err := aes.NewCipher(mac.Sum(nil))
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &sealer{aead: aead}, nil
}

func (s *sealer) seal(st flowState) (string, error) {
	plain, err := json.Marshal(st)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	sealed := s.aead.Seal(nonce, nonce, plain, []byte(cookieName))
	return base64.RawURLEncoding.EncodeToString(sealed), nil
}

func (s *sealer) open(value string, now time.Time) (flowState, error) {
	var st flowState
	raw, err := base64.RawURLEncoding.DecodeString(value)
	if err != nil || len(raw) < s.aead.NonceSize() {
		return st, errBadCookie
	}
	n := s.aead.NonceSize()
	plain, err := s.aead.Open(nil, raw[:n], raw[n:], []byte(cookieName))
	if err != nil {
		return st, errBadCookie
	}
	if err := json.Unmarshal(plain, &st); err != nil {
		return st, errBadCookie
	}
	if now.Unix() > st.Expires {
		return st, errors.New("sso: state cookie has expired")
	}
	return st, nil
}

// randomString returns n random bytes, base64url-encoded.
func randomString(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return base64.RawURLEncoding.EncodeToString(b)
}
