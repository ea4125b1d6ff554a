package identity

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/store"
	"portalwright/internal/validate"
)

// Error codes and messages of sign-in (spec 1 §8). The spec's UI shows
// 'Incorrect Username or Password.' for a failed login.
const (
	CodeInvalidCredentials  = "INVALID_CREDENTIALS"
	CodeOneTimePassword     = "149" // login with a one-time password: the client switches to the reset form
	CodeUnauthorized        = "UNAUTHORIZED"
	CodeSessionExpired      = "SESSION_EXPIRED"
	CodeInvalidRefreshToken = "INVALID_REFRESH_TOKEN"

	MsgIncorrectCredentials   = "Incorrect Username or Password."
	MsgOneTimePassword        = "You signed in with a one-time password. Please create a new password."
	MsgOneTimePasswordExpired = "Your one-time password has expired. Please ask your administrator for a new one."
	MsgNoToken                = "No JWT present"
	MsgSessionExpired         = "It appears you have logged into another session"
	MsgSessionEnded           = "Your session has ended. Please sign in again."
)

// Config holds token lifetimes and where links in e-mails point.
type Config struct {
	AccessTokenTTL  time.Duration
	RefreshTokenTTL time.Duration
	PublicURL       string // base URL of the web app, for links in e-mails
}

// Service implements sign-in and the caller's profile.
type Service struct {
	store  *SQLStore
	cfg    Config
	signer *tokenSigner
	now    func() time.Time
	mailer Mailer
	audit  Auditor
	events SessionEvents // ended sessions (see events.go)
}

// NewService loads (or creates) the shared signing key.
func NewService(ctx context.Context, st *SQLStore, cfg Config) (*Service, error) {
	key, err := st.SigningKey(ctx)
	if err != nil {
		return nil, fmt.Errorf("load token signing key: %w", err)
	}
	raw, err := base64.RawStdEncoding.DecodeString(key)
	if err != nil || len(raw) < 32 {
		return nil, errors.New("token signing key in the database is malformed")
	}
	s := &Service{store: st, cfg: cfg, now: func() time.Time { return time.Now().UTC() }}
	s.signer = &tokenSigner{key: raw, ttl: cfg.AccessTokenTTL, now: func() time.Time { return s.now() }}
	return s, nil
}

// Tokens is what a successful login or refresh returns (spec 1 §3 login response).
type Tokens struct {
	IDToken      string   `json:"id_token"`
	RefreshToken string   `json:"refresh_token"`
	TokenType    string   `json:"token_type"`
	ExpiresIn    int      `json:"expires_in"` // seconds until id_token expires
	Profile      *Profile `json:"profile"`
}

// Profile is the signed-in user as the client sees it.
type Profile struct {
	User *User `json:"user"`
}

// ClientInfo describes where a sign-in comes from, for the session record.
type ClientInfo struct {
	Addr      string
	UserAgent string
}

// Login checks the credentials and starts a new session, ending any other session of
// the user.
func (s *Service) Login(ctx context.Context, username, password string, client ClientInfo) (*Tokens, error) {
	username = strings.TrimSpace(username)
	if username == "" || password == "" {
		return nil, apperr.BadRequest("MISSING_CREDENTIALS", validate.MsgMissingCredentials)
	}
	// The attempt is counted before the password is checked (see throttle.go).
	if err := s.reserveSignIn(ctx, username, client.Addr); err != nil {
		s.record(ctx, "LOGIN_RATE_LIMITED", nil, nil, 0, username, client.Addr)
		return nil, err
	}
	u, err := s.store.UserByUsername(ctx, username)
	if errors.Is(err, store.ErrNotFound) {
		_, _ = VerifyPassword(dummyHash(), password)
		s.record(ctx, "LOGIN_FAILED", nil, nil, 0, username, client.Addr)
		return nil, apperr.Unauthorized(CodeInvalidCredentials, MsgIncorrectCredentials)
	}
	if err != nil {
		return nil, err
	}
	ok, err := VerifyPassword(u.PasswordHash, password)
	if err != nil {
		return nil, err
	}
	if !ok {
		s.record(ctx, "LOGIN_FAILED", u, nil, u.ID, username, client.Addr)
		return nil, apperr.Unauthorized(CodeInvalidCredentials, MsgIncorrectCredentials)
	}
	s.signInSucceeded(ctx, u, username, client.Addr)
	if u.MustResetPassword {
		if u.OTPExpiresAt != nil && !s.now().Before(*u.OTPExpiresAt) {
			return nil, apperr.Forbidden("ONE_TIME_PASSWORD_EXPIRED", MsgOneTimePasswordExpired)
		}
		return nil, apperr.Forbidden(CodeOneTimePassword, MsgOneTimePassword).WithData(map[string]string{"username": u.UserName})
	}
	s.record(ctx, "LOGIN_SUCCEEDED", u, nil, u.ID, "", client.Addr)
	return s.startSession(ctx, u, client)
}

func (s *Service) startSession(ctx context.Context, u *User, client ClientInfo) (*Tokens, error) {
	now := s.now()
	secret, hash := newRefreshSecret()
	sess := &Session{
		ID:          uuid.NewString(),
		UserID:      u.ID,
		RefreshHash: hash,
		CreatedAt:   now,
		RefreshedAt: now,
		ExpiresAt:   now.Add(s.cfg.RefreshTokenTTL),
		ClientAddr:  truncate(client.Addr, 100),
		UserAgent:   truncate(client.UserAgent, 300),
	}
	if err := s.store.StartSession(ctx, sess); err != nil {
		return nil, err
	}
	s.sessionsChanged(ctx, u.ID) // the user's other sessions ended
	u.LastLoggedIn = &now
	return s.tokens(u, sess.ID, secret)
}

func (s *Service) tokens(u *User, sessionID, refreshSecret string) (*Tokens, error) {
	access, exp, err := s.signer.issue(u, sessionID)
	if err != nil {
		return nil, err
	}
	return &Tokens{
		IDToken:      access,
		RefreshToken: sessionID + "." + refreshSecret,
		TokenType:    "Bearer",
		ExpiresIn:    int(exp.Sub(s.now()).Seconds()),
		Profile:      &Profile{User: u},
	}, nil
}

// Authenticate resolves an access token to its caller. The session must still be live,
// and the user's current admin flag is read from the database rather than the token.
func (s *Service) Authenticate(ctx context.Context, token string) (caller.Caller, error) {
	if token == "" {
		return caller.Caller{}, apperr.Unauthorized(CodeUnauthorized, MsgNoToken)
	}
	claims, err := s.signer.parse(token)
	if err != nil {
		return caller.Caller{}, apperr.Unauthorized(CodeUnauthorized, MsgSessionEnded)
	}
	sess, u, err := s.store.SessionWithUser(ctx, claims.SessionID)
	if errors.Is(err, store.ErrNotFound) {
		return caller.Caller{}, apperr.Unauthorized(CodeUnauthorized, MsgSessionEnded)
	}
	if err != nil {
		return caller.Caller{}, err
	}
	if err := s.checkLive(sess); err != nil {
		return caller.Caller{}, err
	}
	if strconv.FormatInt(u.ID, 10) != claims.Subject {
		return caller.Caller{}, apperr.Unauthorized(CodeUnauthorized, MsgSessionEnded)
	}
	return caller.Caller{UserID: u.ID, Username: u.UserName, Admin: u.Admin, SessionID: sess.ID}, nil
}

// AuthenticateSession resolves a user and session (from a redeemed WebSocket ticket) to the
// caller, if the session is still live.
func (s *Service) AuthenticateSession(ctx context.Context, userID int64, sessionID string) (caller.Caller, error) {
	sess, u, err := s.store.SessionWithUser(ctx, sessionID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && u.ID != userID) {
		return caller.Caller{}, apperr.Unauthorized(CodeUnauthorized, MsgSessionEnded)
	}
	if err != nil {
		return caller.Caller{}, err
	}
	if err := s.checkLive(sess); err != nil {
		return caller.Caller{}, err
	}
	return caller.Caller{UserID: u.ID, Username: u.UserName, Admin: u.Admin, SessionID: sess.ID}, nil
}

// checkLive tells why a session can no longer be used: ended by a newer sign-in elsewhere
// (the client shows the session-conflict dialog), or otherwise.
func (s *Service) checkLive(sess *Session) error {
	if sess.RevokedAt != nil {
		if sess.RevokedReason == RevokedSuperseded {
			return apperr.Unauthorized(CodeSessionExpired, MsgSessionExpired)
		}
		return apperr.Unauthorized(CodeUnauthorized, MsgSessionEnded)
	}
	if !s.now().Before(sess.ExpiresAt) {
		return apperr.Unauthorized(CodeUnauthorized, MsgSessionEnded)
	}
	return nil
}

// Refresh exchanges a refresh token for new tokens and rotates it. A refresh token that
// was already used ends the session: someone else may hold a copy.
func (s *Service) Refresh(ctx context.Context, refreshToken string) (*Tokens, error) {
	sessionID, secret, ok := splitRefreshToken(refreshToken)
	if !ok {
		return nil, apperr.Unauthorized(CodeInvalidRefreshToken, MsgSessionEnded)
	}
	sess, u, err := s.store.SessionWithUser(ctx, sessionID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, apperr.Unauthorized(CodeInvalidRefreshToken, MsgSessionEnded)
	}
	if err != nil {
		return nil, err
	}
	if err := s.checkLive(sess); err != nil {
		return nil, err
	}
	now := s.now()
	if !secretMatches(secret, sess.RefreshHash) {
		_ = s.store.RevokeSession(ctx, sess.ID, RevokedReuse, now)
		s.sessionsChanged(ctx, sess.UserID)
		return nil, apperr.Unauthorized(CodeInvalidRefreshToken, MsgSessionEnded)
	}
	newSecret, newHash := newRefreshSecret()
	rotated, err := s.store.RotateRefresh(ctx, sess.ID, sess.RefreshHash, newHash, now)
	if err != nil {
		return nil, err
	}
	if !rotated {
		return nil, apperr.Unauthorized(CodeInvalidRefreshToken, MsgSessionEnded)
	}
	return s.tokens(u, sess.ID, newSecret)
}

// Logout ends the caller's session.
func (s *Service) Logout(ctx context.Context, p caller.Caller) error {
	if err := s.store.RevokeSession(ctx, p.SessionID, RevokedLogout, s.now()); err != nil {
		return err
	}
	s.record(ctx, "LOGOUT", nil, &p, p.UserID, "", "")
	s.sessionsChanged(ctx, p.UserID)
	return nil
}

// Profile returns the caller's user record.
func (s *Service) Profile(ctx context.Context, p caller.Caller) (*Profile, error) {
	u, err := s.store.UserByID(ctx, p.UserID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, apperr.Unauthorized(CodeUnauthorized, MsgSessionEnded)
	}
	if err != nil {
		return nil, err
	}
	return &Profile{User: u}, nil
}

// NewUser is the input of CreateUser.
type NewUser struct {
	UserName, Password              string
	FirstName, MiddleName, LastName string
	Email                           string
	Admin                           bool
	MustResetPassword               bool
}

// CreateUser validates and stores a user with a hashed password.
func (s *Service) CreateUser(ctx context.Context, in NewUser) (*User, error) {
	in.UserName = strings.TrimSpace(in.UserName)
	if err := validate.Username(in.UserName); err != nil {
		return nil, apperr.Validation(err.Error())
	}
	if err := validate.PasswordLength(in.Password); err != nil {
		return nil, apperr.Validation(err.Error())
	}
	hash, err := HashPassword(in.Password)
	if err != nil {
		return nil, err
	}
	u := &User{
		UserName: in.UserName, FirstName: in.FirstName, MiddleName: in.MiddleName, LastName: in.LastName,
		Email: strings.TrimSpace(in.Email), Admin: in.Admin, PasswordHash: hash, MustResetPassword: in.MustResetPassword,
	}
	if err := s.store.CreateUser(ctx, u); err != nil {
		if errors.Is(err, ErrUsernameTaken) {
			return nil, apperr.Conflict("USERNAME_TAKEN", "A user with this username already exists.")
		}
		return nil, err
	}
	return u, nil
}

// InitialAdminName is the account created on first start.
const InitialAdminName = "admin"

// EnsureInitialAdmin creates the user 'admin' when the database has no user yet. With an
// empty password it generates one and returns it so it can be shown once. created is
// false when users already existed (or another instance created the admin first).
func (s *Service) EnsureInitialAdmin(ctx context.Context, password string) (created bool, generated string, err error) {
	n, err := s.store.CountUsers(ctx)
	if err != nil || n > 0 {
		return false, "", err
	}
	if password == "" {
		password = RandomPassword(16)
		generated = password
	}
	_, err = s.CreateUser(ctx, NewUser{UserName: InitialAdminName, Password: password, FirstName: "Portal", LastName: "Administrator", Admin: true})
	var apiErr *apperr.Error
	if errors.As(err, &apiErr) && apiErr.Code == "USERNAME_TAKEN" {
		return false, "", nil
	}
	if err != nil {
		return false, "", fmt.Errorf("create initial admin: %w", err)
	}
	return true, generated, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
