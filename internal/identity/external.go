package identity

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"portalwright/internal/apperr"
	"portalwright/internal/store"
	"portalwright/internal/validate"
)

// ExternalIdentity is what a single sign-on provider vouches for.
type ExternalIdentity struct {
	Subject   string // the provider's stable id of the person
	Username  string // preferred user name, may be empty
	Email     string // verified e-mail address, may be empty
	FirstName string
	LastName  string
}

// MsgSSOUnknownUser is the answer when SSO names nobody this server knows.
const MsgSSOUnknownUser = "Your single sign-on account is not known to Portalwright. Please contact your administrator."

// ExternalLogin signs in a person the SSO provider vouched for: the user with the same user
// name, else the only user with the same e-mail address; when provision is on, an unknown
// person gets a new account (with no usable password: they sign in through SSO).
func (s *Service) ExternalLogin(ctx context.Context, ext ExternalIdentity, provision bool, client ClientInfo) (*Tokens, error) {
	u, err := s.matchExternal(ctx, ext)
	if errors.Is(err, store.ErrNotFound) && provision {
		u, err = s.provisionExternal(ctx, ext)
	}
	if errors.Is(err, store.ErrNotFound) {
		s.record(ctx, "LOGIN_FAILED", nil, nil, 0, "sso:"+firstNonEmpty(ext.Username, ext.Email, ext.Subject), client.Addr)
		return nil, apperr.Forbidden("SSO_USER_UNKNOWN", MsgSSOUnknownUser)
	}
	if err != nil {
		return nil, err
	}
	s.record(ctx, "SSO_LOGIN", u, nil, u.ID, ext.Subject, client.Addr)
	return s.startSession(ctx, u, client)
}

func (s *Service) matchExternal(ctx context.Context, ext ExternalIdentity) (*User, error) {
	if ext.Username != "" {
		u, err := s.store.UserByUsername(ctx, ext.Username)
		if !errors.Is(err, store.ErrNotFound) {
			return u, err
		}
	}
	if ext.Email != "" {
		users, err := s.store.UsersByEmail(ctx, ext.Email)
		if err != nil {
			return nil, err
		}
		if len(users) == 1 {
			return &users[0], nil
		}
	}
	return nil, store.ErrNotFound
}

var notUsernameChars = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// provisionExternal creates an account for an SSO person, deriving a valid, free user name
// from the preferred name or the e-mail address.
func (s *Service) provisionExternal(ctx context.Context, ext ExternalIdentity) (*User, error) {
	base := ext.Username
	if base == "" {
		base, _, _ = strings.Cut(ext.Email, "@")
	}
	base = strings.TrimLeft(notUsernameChars.ReplaceAllString(base, "_"), "-")
	if base == "" {
		base = "user"
	}
	if len(base) > validate.MaxUsernameLength-3 {
		base = base[:validate.MaxUsernameLength-3]
	}
	hash, err := HashPassword(RandomPassword(32)) // nobody knows it: SSO users sign in through SSO
	if err != nil {
		return nil, err
	}
	for i := 0; i < 100; i++ {
		name := base
		if i > 0 {
			name = base + strconv.Itoa(i)
		}
		u := &User{UserName: name, FirstName: ext.FirstName, LastName: ext.LastName, Email: ext.Email, PasswordHash: hash}
		err := s.store.CreateUser(ctx, u)
		if errors.Is(err, ErrUsernameTaken) {
			continue
		}
		if err != nil {
			return nil, err
		}
		s.record(ctx, "USER_CREATED", u, nil, u.ID, "provisioned by single sign-on", "")
		return u, nil
	}
	return nil, errors.New("no free user name for the SSO account")
}
