package upstream

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// KeySize is the length of the secrets key: AES-256.
const KeySize = 32

// Sealer encrypts credentials at rest with the operator's key (AES-256-GCM).
type Sealer struct{ aead cipher.AEAD }

// LoadKey reads the operator's key: the value of PORTALWRIGHT_SECRETS_KEY (base64) when set,
// else the file (base64, or the 32 raw bytes). Neither: nil, nil (no credentials can be
// stored). Generate one with `head -c32 /dev/urandom | base64`.
func LoadKey(file, value string) (*Sealer, error) {
	var raw []byte
	switch {
	case value != "":
		k, err := decodeKey([]byte(value))
		if err != nil {
			return nil, fmt.Errorf("PORTALWRIGHT_SECRETS_KEY: %w", err)
		}
		raw = k
	case file != "":
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("secrets-key-file: %w", err)
		}
		if len(data) == KeySize {
			raw = data
		} else if raw, err = decodeKey(data); err != nil {
			return nil, fmt.Errorf("secrets-key-file %s: %w", file, err)
		}
	default:
		return nil, nil
	}
	return NewSealer(raw)
}

func decodeKey(text []byte) ([]byte, error) {
	s := strings.TrimSpace(string(text))
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if k, err := enc.DecodeString(s); err == nil && len(k) == KeySize {
			return k, nil
		}
	}
	return nil, errors.New("the key must be 32 bytes, base64-encoded (make one with: head -c32 /dev/urandom | base64)")
}

// NewSealer uses a 32-byte key.
func NewSealer(key []byte) (*Sealer, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("the secrets key must be %d bytes, not %d", KeySize, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Sealer{aead: aead}, nil
}

const sealedPrefix = "v1:"

// aad binds a sealed value to its portal: copied to another portal's row, it does not open.
func aad(portalID int64) []byte {
	return []byte("portalwright upstream credentials\x00portal " + strconv.FormatInt(portalID, 10))
}

// Seal encrypts plain for a portal: "v1:" and base64 of nonce and ciphertext.
func (s *Sealer) Seal(portalID int64, plain []byte) (string, error) {
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	out := s.aead.Seal(nonce, nonce, plain, aad(portalID))
	return sealedPrefix + base64.StdEncoding.EncodeToString(out), nil
}

// ErrUnseal is a sealed value that does not open with this key (another key, or tampered).
var ErrUnseal = errors.New("the stored credentials cannot be decrypted with the configured secrets key")

// Open decrypts what Seal made for the same portal.
func (s *Sealer) Open(portalID int64, sealed string) ([]byte, error) {
	b64, ok := strings.CutPrefix(sealed, sealedPrefix)
	if !ok {
		return nil, ErrUnseal
	}
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(data) < s.aead.NonceSize() {
		return nil, ErrUnseal
	}
	n := s.aead.NonceSize()
	plain, err := s.aead.Open(nil, data[:n], data[n:], aad(portalID))
	if err != nil {
		return nil, ErrUnseal
	}
	return bytes.Clone(plain), nil
}
