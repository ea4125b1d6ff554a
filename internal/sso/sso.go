// Package sso signs people in through an external OpenID Connect provider (spec 1 §2.4,
// §4.1): /user/sso/login sends the browser to the provider's login page, and
// /user/sso/callback turns the provider's answer into a Portalwright session whose tokens
// it hands to the web client in the URL hash, with the external-login flag set.
//
// The flow is the authorization-code flow with PKCE (S256), a random state and nonce. The
// values the callback checks travel in a short-lived, sealed cookie, so any instance that
// shares Config.CookieKey can finish a sign-in another instance started.
package sso

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"portalwright/internal/apperr"
	"portalwright/internal/httpx"
	"portalwright/internal/identity"
)

// Messages the login screen shows (passed as ssoError in the URL hash).
const (
	MsgFailed   = "Single sign-on failed. Please try again or contact your administrator."
	MsgExpired  = "Your single sign-on attempt has expired or was started in another window. Please try again."
	MsgDenied   = "Single sign-on was cancelled or denied."
	MsgDisabled = "Single sign-on is not configured on this server."
)

// Paths, relative to the API base /api/v1.
const (
	LoginPath    = "/user/sso/login"
	CallbackPath = "/user/sso/callback"
	apiBase      = "/api/v1"
	cookieName   = "pw_sso_flow"
	flowLifetime = 10 * time.Minute
	// discoveryRetry is how long a failed provider discovery is remembered before the
	// next sign-in tries again, so a provider that is down does not stall every request.
	discoveryRetry     = 10 * time.Second
	providerTimeout    = 15 * time.Second
	maxReturnToLength  = 2048
	maxProviderMessage = 300
)

// Config configures single sign-on. It is off unless Issuer and ClientID are set.
type Config struct {
	Issuer, ClientID, ClientSecret string
	Label                          string // text of the SSO button
	Provision                      bool   // create unknown people on their first sign-in
	// PublicURL is how browsers reach the server (e.g. http://127.0.0.1:8080): the base of
	// the redirect URI registered with the provider (<PublicURL>/api/v1/user/sso/callback)
	// and of the web app the browser returns to (<PublicURL>/#/…).
	PublicURL string
	// CookieKey seals the flow cookie. All instances behind one address must share it (use
	// a secret kept in the database). Empty: a random per-process key, which only works
	// with a single instance.
	CookieKey []byte
	// HTTPClient talks to the provider; nil: a client with a 15 s timeout.
	HTTPClient *http.Client
}

// Service serves the SSO routes.
type Service struct {
	cfg      Config
	identity *identity.Service
	log      *slog.Logger
	sealer   *sealer
	http     *http.Client
	now      func() time.Time

	publicURL  string // without trailing slash
	cookiePath string
	secure     bool

	mu        sync.Mutex
	rp        *relyingParty
	lastErr   error
	lastErrAt time.Time
}

// relyingParty is what discovery yields.
type relyingParty struct {
	provider *oidc.Provider
	oauth    oauth2.Config
	verifier *oidc.IDTokenVerifier
}

// New prepares single sign-on. The provider is discovered on first use, so a provider that
// is down while the server starts does not stop the server.
func New(cfg Config, id *identity.Service, log *slog.Logger) *Service {
	if log == nil {
		log = slog.Default()
	}
	cfg.Issuer = strings.TrimSpace(cfg.Issuer)
	cfg.ClientID = strings.TrimSpace(cfg.ClientID)
	s := &Service{cfg: cfg, identity: id, log: log, http: cfg.HTTPClient, now: time.Now}
	if s.http == nil {
		s.http = &http.Client{Timeout: providerTimeout}
	}
	s.publicURL = strings.TrimRight(cfg.PublicURL, "/")
	s.cookiePath = apiBase + "/user/sso"
	if u, err := url.Parse(s.publicURL); err == nil {
		s.secure = u.Scheme == "https"
		s.cookiePath = strings.TrimRight(u.Path, "/") + s.cookiePath
	}
	key := cfg.CookieKey
	if len(key) == 0 {
		key = []byte(randomString(32))
		if s.Enabled() {
			log.Warn("sso: no cookie key configured; using a per-process key, so a sign-in must finish on the instance that started it")
		}
	}
	sl, err := newSealer(key)
	if err != nil {
		panic(err) // AES-256 with a 32-byte key cannot fail
	}
	s.sealer = sl
	if s.Enabled() && s.publicURL == "" {
		log.Error("sso: public URL is not set; the provider cannot send browsers back")
	}
	return s
}

// Enabled tells whether single sign-on is configured.
func (s *Service) Enabled() bool { return s.cfg.Issuer != "" && s.cfg.ClientID != "" }

// Label is the SSO button's text.
func (s *Service) Label() string { return s.cfg.Label }

// LoginURL is the address the web client sends the browser to (relative to the server).
func (s *Service) LoginURL() string { return apiBase + LoginPath }

// RedirectURL is the callback address to register with the provider.
func (s *Service) RedirectURL() string { return s.publicURL + apiBase + CallbackPath }

func (s *Service) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: http.MethodGet, Pattern: LoginPath, Access: httpx.Public, Handler: s.login, Out: httpx.Redirect},
		{Method: http.MethodGet, Pattern: CallbackPath, Access: httpx.Public, Handler: s.callback, Out: httpx.Redirect},
	}
}

// relyingParty discovers the provider once; a failure is remembered for a short while.
func (s *Service) relyingParty(ctx context.Context) (*relyingParty, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rp != nil {
		return s.rp, nil
	}
	if s.lastErr != nil && s.now().Sub(s.lastErrAt) < discoveryRetry {
		return nil, s.lastErr
	}
	// Not cancelled with the request: a browser that gives up must not make the failure
	// (remembered for everyone) look like the provider's.
	ctx, cancel := context.WithTimeout(s.clientContext(context.WithoutCancel(ctx)), providerTimeout)
	defer cancel()
	p, err := oidc.NewProvider(ctx, s.cfg.Issuer)
	if err != nil {
		s.lastErr, s.lastErrAt = fmt.Errorf("discover OpenID provider %s: %w", s.cfg.Issuer, err), s.now()
		return nil, s.lastErr
	}
	s.rp = &relyingParty{
		provider: p,
		oauth: oauth2.Config{
			ClientID:     s.cfg.ClientID,
			ClientSecret: s.cfg.ClientSecret,
			Endpoint:     p.Endpoint(),
			RedirectURL:  s.RedirectURL(),
			Scopes:       []string{oidc.ScopeOpenID, "profile", "email"},
		},
		verifier: p.Verifier(&oidc.Config{ClientID: s.cfg.ClientID}),
	}
	s.lastErr = nil
	return s.rp, nil
}

// clientContext makes go-oidc and oauth2 use our HTTP client.
func (s *Service) clientContext(ctx context.Context) context.Context {
	ctx = oidc.ClientContext(ctx, s.http)
	return context.WithValue(ctx, oauth2.HTTPClient, s.http)
}

// login sends the browser to the provider.
func (s *Service) login(w http.ResponseWriter, r *http.Request) error {
	if !s.Enabled() {
		return apperr.NotFound("SSO_DISABLED", MsgDisabled)
	}
	rp, err := s.relyingParty(r.Context())
	if err != nil {
		s.log.ErrorContext(r.Context(), "sso: provider unavailable", "error", err)
		s.toApp(w, r, errorFragment(MsgFailed))
		return nil
	}
	st := flowState{
		State:    randomString(24),
		Nonce:    randomString(24),
		Verifier: oauth2.GenerateVerifier(),
		ReturnTo: s.cleanReturnTo(r.URL.Query().Get("returnTo")),
		Expires:  s.now().Add(flowLifetime).Unix(),
	}
	sealed, err := s.sealer.seal(st)
	if err != nil {
		s.log.ErrorContext(r.Context(), "sso: seal flow cookie", "error", err)
		s.toApp(w, r, errorFragment(MsgFailed))
		return nil
	}
	http.SetCookie(w, s.cookie(sealed, int(flowLifetime/time.Second)))
	target := rp.oauth.AuthCodeURL(st.State, oidc.Nonce(st.Nonce), oauth2.S256ChallengeOption(st.Verifier))
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, target, http.StatusFound)
	return nil
}

// callback finishes the sign-in and sends the browser back to the web app, with the
// tokens or an error message in the URL hash. The flow cookie is cleared in every case.
func (s *Service) callback(w http.ResponseWriter, r *http.Request) error {
	if !s.Enabled() {
		return apperr.NotFound("SSO_DISABLED", MsgDisabled)
	}
	ctx := r.Context()
	http.SetCookie(w, s.cookie("", -1))
	q := r.URL.Query()

	st, err := s.flowFromCookie(r)
	if err == nil && subtle.ConstantTimeCompare([]byte(st.State), []byte(q.Get("state"))) != 1 {
		err = errors.New("state does not match the flow cookie")
	}
	if err != nil {
		s.log.WarnContext(ctx, "sso: rejected callback", "error", err)
		s.toApp(w, r, errorFragment(MsgExpired))
		return nil
	}
	if code := q.Get("error"); code != "" {
		desc := q.Get("error_description")
		s.log.WarnContext(ctx, "sso: provider refused the sign-in", "error", code, "description", desc)
		s.toApp(w, r, errorFragment(providerMessage(code, desc)))
		return nil
	}
	if q.Get("code") == "" {
		s.log.WarnContext(ctx, "sso: callback without code or error")
		s.toApp(w, r, errorFragment(MsgFailed))
		return nil
	}
	ext, err := s.identify(ctx, q.Get("code"), st)
	if err != nil {
		s.log.ErrorContext(ctx, "sso: sign-in with the provider failed", "error", err)
		s.toApp(w, r, errorFragment(MsgFailed))
		return nil
	}
	tokens, err := s.identity.ExternalLogin(ctx, ext, s.cfg.Provision, clientInfo(r))
	if err != nil {
		var apiErr *apperr.Error
		if errors.As(err, &apiErr) && apiErr.Status < 500 {
			s.log.InfoContext(ctx, "sso: sign-in refused", "subject", ext.Subject, "username", ext.Username, "code", apiErr.Code)
			s.toApp(w, r, errorFragment(apiErr.Message))
			return nil
		}
		s.log.ErrorContext(ctx, "sso: external login failed", "subject", ext.Subject, "error", err)
		s.toApp(w, r, errorFragment(MsgFailed))
		return nil
	}
	frag := "/?id_token=" + url.QueryEscape(tokens.IDToken) +
		"&refresh_token=" + url.QueryEscape(tokens.RefreshToken) + "&external=1"
	if st.ReturnTo != "" {
		frag += "&reUrl=" + url.QueryEscape(st.ReturnTo)
	}
	s.toApp(w, r, frag)
	return nil
}

func (s *Service) flowFromCookie(r *http.Request) (flowState, error) {
	c, err := r.Cookie(cookieName)
	if err != nil {
		return flowState{}, errors.New("no flow cookie (expired, or the sign-in was started elsewhere)")
	}
	return s.sealer.open(c.Value, s.now())
}

// claims are the ID token and userinfo fields single sign-on reads.
type claims struct {
	Subject           string   `json:"sub"`
	PreferredUsername string   `json:"preferred_username"`
	Email             string   `json:"email"`
	EmailVerified     flexBool `json:"email_verified"`
	GivenName         string   `json:"given_name"`
	FamilyName        string   `json:"family_name"`
}

// identify exchanges the code (with the PKCE verifier), verifies the ID token (signature,
// issuer, audience, expiry, nonce) and reads who the person is, completed from the
// userinfo endpoint for providers that keep profile claims out of the ID token.
func (s *Service) identify(ctx context.Context, code string, st flowState) (identity.ExternalIdentity, error) {
	var ext identity.ExternalIdentity
	rp, err := s.relyingParty(ctx)
	if err != nil {
		return ext, err
	}
	ctx, cancel := context.WithTimeout(s.clientContext(ctx), providerTimeout)
	defer cancel()
	tok, err := rp.oauth.Exchange(ctx, code, oauth2.VerifierOption(st.Verifier))
	if err != nil {
		return ext, fmt.Errorf("exchange code: %w", err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return ext, errors.New("token response has no id_token")
	}
	idt, err := rp.verifier.Verify(ctx, raw)
	if err != nil {
		return ext, fmt.Errorf("verify ID token: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(st.Nonce)) != 1 {
		return ext, errors.New("ID token nonce does not match")
	}
	var c claims
	if err := idt.Claims(&c); err != nil {
		return ext, fmt.Errorf("read ID token claims: %w", err)
	}
	if c.Subject == "" {
		return ext, errors.New("ID token has no subject")
	}
	if rp.provider.UserInfoEndpoint() != "" && tok.AccessToken != "" {
		if err := s.mergeUserInfo(ctx, rp, tok, &c); err != nil {
			if c.PreferredUsername == "" && c.Email == "" {
				return ext, err
			}
			s.log.WarnContext(ctx, "sso: userinfo unavailable; using the ID token's claims", "error", err)
		}
	}
	ext = identity.ExternalIdentity{
		Subject:   c.Subject,
		Username:  strings.TrimSpace(c.PreferredUsername),
		FirstName: strings.TrimSpace(c.GivenName),
		LastName:  strings.TrimSpace(c.FamilyName),
	}
	if c.EmailVerified {
		ext.Email = strings.TrimSpace(c.Email) // an unverified address must not match anyone
	}
	return ext, nil
}

// mergeUserInfo fills c from the userinfo endpoint; its claims win over the ID token's.
func (s *Service) mergeUserInfo(ctx context.Context, rp *relyingParty, tok *oauth2.Token, c *claims) error {
	ui, err := rp.provider.UserInfo(ctx, oauth2.StaticTokenSource(tok))
	if err != nil {
		return fmt.Errorf("userinfo: %w", err)
	}
	var u claims
	if err := ui.Claims(&u); err != nil {
		return fmt.Errorf("read userinfo claims: %w", err)
	}
	if u.Subject != c.Subject {
		return fmt.Errorf("userinfo subject %q differs from the ID token's %q", u.Subject, c.Subject)
	}
	if u.PreferredUsername != "" {
		c.PreferredUsername = u.PreferredUsername
	}
	if u.GivenName != "" {
		c.GivenName = u.GivenName
	}
	if u.FamilyName != "" {
		c.FamilyName = u.FamilyName
	}
	if u.Email != "" {
		c.Email, c.EmailVerified = u.Email, u.EmailVerified
	}
	return nil
}

// flexBool reads a JSON boolean, also as the string "true"/"false" some providers send.
type flexBool bool

func (b *flexBool) UnmarshalJSON(data []byte) error {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	switch t := v.(type) {
	case bool:
		*b = flexBool(t)
	case string:
		*b = flexBool(strings.EqualFold(t, "true"))
	default:
		*b = false
	}
	return nil
}

// cleanReturnTo keeps a web-app route to come back to: a hash route ("#/…"), or an
// absolute URL on the server's own origin reduced to its hash route (the web client sends
// window.location.href). Anything else is dropped, so the callback cannot become an open
// redirect.
func (s *Service) cleanReturnTo(v string) string {
	if v == "" || len(v) > maxReturnToLength {
		return ""
	}
	if !strings.HasPrefix(v, "#") {
		u, err := url.Parse(v)
		if err != nil || u.Scheme == "" {
			return ""
		}
		pub, err := url.Parse(s.publicURL)
		if err != nil || !strings.EqualFold(u.Scheme, pub.Scheme) || !strings.EqualFold(u.Host, pub.Host) || u.User != nil {
			return ""
		}
		if u.Fragment == "" {
			return ""
		}
		v = "#" + u.EscapedFragment()
	}
	if !strings.HasPrefix(v, "#/") || strings.Contains(v, "//") || strings.Contains(v, `\`) {
		return ""
	}
	for _, r := range v {
		if r < 0x20 || r == 0x7f {
			return ""
		}
	}
	return v
}

// providerMessage is what the login screen shows when the provider refused the sign-in.
func providerMessage(code, desc string) string {
	desc = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, strings.TrimSpace(desc))
	if len(desc) > maxProviderMessage {
		desc = strings.ToValidUTF8(desc[:maxProviderMessage], "") + "…"
	}
	switch {
	case desc != "":
		return desc
	case code == "access_denied":
		return MsgDenied
	default:
		return MsgFailed
	}
}

func errorFragment(msg string) string { return "/?ssoError=" + url.QueryEscape(msg) }

// toApp redirects the browser to the web app with the given hash route.
func (s *Service) toApp(w http.ResponseWriter, r *http.Request, fragment string) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, s.publicURL+"/#"+fragment, http.StatusFound)
}

func (s *Service) cookie(value string, maxAge int) *http.Cookie {
	return &http.Cookie{
		Name:     cookieName,
		Value:    value,
		Path:     s.cookiePath,
		MaxAge:   maxAge,
		HttpOnly: true,
		Secure:   s.secure,
		SameSite: http.SameSiteLaxMode,
	}
}

func clientInfo(r *http.Request) identity.ClientInfo { return identity.ClientInfoOf(r) }
