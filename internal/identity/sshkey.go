package identity

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"strings"

	"golang.org/x/crypto/ssh"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/validate"
)

// KeyPair is the answer of PUT /user/createkey: the private key is shown once and never stored.
type KeyPair struct {
	PublicKey  string `json:"publicKey"`
	PrivateKey string `json:"privateKey"`
}

// GenerateKey makes an ed25519 key pair for git over SSH, stores the public key on the
// caller's account and returns both halves.
func (s *Service) GenerateKey(ctx context.Context, p caller.Caller) (*KeyPair, error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	sshPub, err := ssh.NewPublicKey(pub)
	if err != nil {
		return nil, err
	}
	block, err := ssh.MarshalPrivateKey(priv, p.Username+"@portalwright")
	if err != nil {
		return nil, err
	}
	pair := &KeyPair{
		PublicKey:  strings.TrimSpace(string(ssh.MarshalAuthorizedKey(sshPub))) + " " + p.Username + "@portalwright",
		PrivateKey: string(pem.EncodeToMemory(block)),
	}
	if _, err := s.SetPublicKey(ctx, p, pair.PublicKey); err != nil {
		return nil, err
	}
	return pair, nil
}

// SetPublicKey stores the caller's SSH public key (authorized_keys format).
func (s *Service) SetPublicKey(ctx context.Context, p caller.Caller, key string) (*User, error) {
	key = strings.TrimSpace(key)
	if key == "" {
		return nil, apperr.Validation(validate.MsgPublicKeyRequired)
	}
	if strings.ContainsAny(key, "\r\n") {
		return nil, apperr.Validation("Enter a single public key in OpenSSH format (ssh-ed25519 AAAA…).")
	}
	if _, _, _, _, err := ssh.ParseAuthorizedKey([]byte(key)); err != nil {
		return nil, apperr.Validation("The public key is not a valid OpenSSH public key.")
	}
	u, err := s.userOr404(ctx, p.UserID)
	if err != nil {
		return nil, err
	}
	u.PublicKey = key
	if err := s.store.UpdateUser(ctx, u); err != nil {
		return nil, err
	}
	s.record(ctx, "SSH_KEY_CHANGED", nil, &p, u.ID, "", "")
	return u, nil
}
