package sso

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/zitadel/oidc/v3/example/server/exampleop"
	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"portalwright/internal/identity"
	"portalwright/internal/store/storetest"
)

// The provider in these tests is zitadel's OpenID provider (pkg/op) with its example
// in-memory storage and login form, served on a local port: a real authorization server
// with discovery, JWKS, PKCE, signed ID tokens and userinfo.

const (
	clientID     = "portalwright"
	clientSecret = "s3cret-for-tests"
	opPassword   = "op-password"
)

// opUsers are the people the provider knows, by provider subject.
type opUsers map[string]*storage.User

func (u opUsers) GetUserByID(id string) *storage.User { return u[id] }
func (u opUsers) GetUserByUsername(name string) *storage.User {
	for _, usr := range u {
		if usr.Username == name {
			return usr
		}
	}
	return nil
}
func (u opUsers) ExampleClientID() string { return "service" }

func providerUsers() opUsers {
	users := opUsers{}
	add := func(id, username, email string, verified bool, first, last string) {
		users[id] = &storage.User{ID: id, Username: username, Password: opPassword, Email: email, EmailVerified: verified, FirstName: first, LastName: last}
	}
	add("sub-alice", "alice", "alice@corp.example", true, "Alice", "Anders") // same user name as a local user
	add("sub-bob", "robert.b", "bob@example.com", true, "Robert", "Brown")   // other name, verified local e-mail
	add("sub-carol", "carol.x", "carol@example.com", false, "Carol", "Cole") // other name, unverified local e-mail
	add("sub-dave", "dave.new", "dave@new.example", true, "Dave", "Newman")  // nobody here
	add("sub-erin", "erin.new", "erin@new.example", true, "Erin", "Newton")  // nobody here (provisioned)
	return users
}

// listener reserves a local address so the URL is known before the handler is built.
func listener(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	t.Cleanup(srv.Close)
	return srv, "http://" + srv.Listener.Addr().String()
}

// startProvider serves zitadel's OP on srv for one confidential client. With
// claimsInIDToken the profile and e-mail claims are put in the ID token and the userinfo
// endpoint fails, as seen with providers that only use the ID token.
func startProvider(srv *httptest.Server, issuer string, claimsInIDToken bool, appURLs ...string) {
	var redirects []string
	for _, u := range appURLs {
		redirects = append(redirects, u+apiBase+CallbackPath)
	}
	client := storage.WebClient(clientID, clientSecret, redirects...)
	st := storage.NewStorageWithClients(providerUsers(), map[string]*storage.Client{clientID: client})
	var opStore exampleop.Storage = st
	if claimsInIDToken {
		opStore = idTokenClaimsStorage{st}
	}
	srv.Config.Handler = exampleop.SetupServer(issuer, opStore, quietLog(), false)
	srv.Start()
}

type idTokenClaimsStorage struct{ *storage.Storage }

type idTokenClaimsClient struct{ op.Client }

func (idTokenClaimsClient) IDTokenUserinfoClaimsAssertion() bool { return true }

func (s idTokenClaimsStorage) GetClientByClientID(ctx context.Context, id string) (op.Client, error) {
	c, err := s.Storage.GetClientByClientID(ctx, id)
	if err != nil {
		return nil, err
	}
	return idTokenClaimsClient{c}, nil
}

func (idTokenClaimsStorage) SetUserinfoFromToken(context.Context, *oidc.UserInfo, string, string, string) error {
	return errors.New("userinfo is switched off in this test")
}

// app serves the SSO routes under /api/v1 like the real router does.
func app(t *testing.T, srv *httptest.Server, svc *Service) {
	t.Helper()
	mux := http.NewServeMux()
	for _, rt := range svc.Routes() {
		mux.Handle(rt.Method+" "+apiBase+rt.Pattern, rt.Handler)
	}
	srv.Config.Handler = mux
	srv.Start()
}

func quietLog() *slog.Logger { return slog.New(slog.DiscardHandler) }

func randomKey(t *testing.T) []byte {
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		t.Fatal(err)
	}
	return k
}

// browser follows no redirect by itself, so each step of the chain is visible.
type browser struct {
	t *testing.T
	c *http.Client
}

func newBrowser(t *testing.T) *browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &browser{t: t, c: &http.Client{
		Jar:           jar,
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

type page struct {
	status   int
	location string // absolute
	body     string
	header   http.Header
}

func (b *browser) do(req *http.Request) page {
	b.t.Helper()
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	p := page{status: resp.StatusCode, body: string(body), header: resp.Header}
	if loc := resp.Header.Get("Location"); loc != "" {
		u, err := req.URL.Parse(loc)
		if err != nil {
			b.t.Fatalf("bad Location %q: %v", loc, err)
		}
		p.location = u.String()
	}
	return p
}

func (b *browser) get(u string) page {
	b.t.Helper()
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		b.t.Fatal(err)
	}
	return b.do(req)
}

func (b *browser) postForm(u string, form url.Values) page {
	b.t.Helper()
	req, err := http.NewRequest(http.MethodPost, u, strings.NewReader(form.Encode()))
	if err != nil {
		b.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.do(req)
}

var hiddenID = regexp.MustCompile(`name="id" value="([^"]+)"`)

// toCallback walks our login → provider authorize → provider login form (filled in as
// opUser) → provider callback, and returns the URL the provider sends the browser to on
// our side, without visiting it.
func (b *browser) toCallback(appURL, returnTo, opUser string) string {
	b.t.Helper()
	loc := appURL + apiBase + LoginPath
	if returnTo != "" {
		loc += "?returnTo=" + url.QueryEscape(returnTo)
	}
	for range 10 {
		if strings.HasPrefix(loc, appURL+apiBase+CallbackPath) {
			return loc
		}
		p := b.get(loc)
		switch {
		case p.status == http.StatusFound || p.status == http.StatusSeeOther:
			loc = p.location
		case p.status == http.StatusOK && strings.Contains(loc, "/login/username"):
			m := hiddenID.FindStringSubmatch(p.body)
			if m == nil {
				b.t.Fatalf("provider login page without auth request id:\n%s", p.body)
			}
			post := b.postForm(strings.Split(loc, "?")[0], url.Values{"id": {m[1]}, "username": {opUser}, "password": {opPassword}})
			if post.status != http.StatusFound {
				b.t.Fatalf("provider login as %s: %d %s", opUser, post.status, post.body)
			}
			loc = post.location
		default:
			b.t.Fatalf("GET %s: unexpected %d %s", loc, p.status, p.body)
		}
	}
	b.t.Fatalf("redirect chain too long, at %s", loc)
	return ""
}

// finish visits our callback and returns the parameters in the web app's hash route.
func (b *browser) finish(appURL, callbackURL string) url.Values {
	b.t.Helper()
	p := b.get(callbackURL)
	if p.status != http.StatusFound {
		b.t.Fatalf("callback: %d %s", p.status, p.body)
	}
	return appParams(b.t, appURL, p.location)
}

func (b *browser) signIn(appURL, returnTo, opUser string) url.Values {
	b.t.Helper()
	return b.finish(appURL, b.toCallback(appURL, returnTo, opUser))
}

// appParams checks that loc is the web app (<appURL>/#/?…) and returns the hash's query.
func appParams(t *testing.T, appURL, loc string) url.Values {
	t.Helper()
	if !strings.HasPrefix(loc, appURL+"/#/?") {
		t.Fatalf("redirect to %s, want the web app %s/#/?…", loc, appURL)
	}
	u, err := url.Parse(loc)
	if err != nil {
		t.Fatal(err)
	}
	_, query, _ := strings.Cut(u.EscapedFragment(), "?")
	v, err := url.ParseQuery(query)
	if err != nil {
		t.Fatalf("hash query %q: %v", query, err)
	}
	return v
}

func (b *browser) flowCookie(appURL string) *http.Cookie {
	u, _ := url.Parse(appURL + apiBase + CallbackPath)
	for _, c := range b.c.Jar.Cookies(u) {
		if c.Name == cookieName {
			return c
		}
	}
	return nil
}

func TestSingleSignOn(t *testing.T) {
	ctx := context.Background()
	db := storetest.SQLite(t)
	ids, err := identity.NewService(ctx, identity.NewSQLStore(db), identity.Config{AccessTokenTTL: 15 * time.Minute, RefreshTokenTTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []identity.NewUser{
		{UserName: "alice", Password: "local-pass", Email: "alice@local.example"},
		{UserName: "bob", Password: "local-pass", Email: "bob@example.com"},
		{UserName: "carol", Password: "local-pass", Email: "carol@example.com"},
	} {
		if _, err := ids.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}

	// Two app instances: one that refuses unknown people, one that provisions them.
	strictSrv, strictURL := listener(t)
	provSrv, provURL := listener(t)
	opSrv, issuer := listener(t)

	startProvider(opSrv, issuer, false, strictURL, provURL)

	key := randomKey(t)
	cfg := Config{Issuer: issuer, ClientID: clientID, ClientSecret: clientSecret, Label: "Corp SSO", PublicURL: strictURL, CookieKey: key}
	strict := New(cfg, ids, quietLog())
	app(t, strictSrv, strict)
	cfg.PublicURL, cfg.Provision = provURL, true
	app(t, provSrv, New(cfg, ids, quietLog()))

	userCount := func() int {
		t.Helper()
		all, err := ids.Users(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return len(all)
	}
	signedInAs := func(t *testing.T, v url.Values) string {
		t.Helper()
		if v.Get("external") != "1" || v.Get("refresh_token") == "" || v.Get("ssoError") != "" {
			t.Fatalf("hash params = %v, want tokens and external=1", v)
		}
		p, err := ids.Authenticate(ctx, v.Get("id_token"))
		if err != nil {
			t.Fatalf("Authenticate(id_token): %v", err)
		}
		return p.Username
	}

	t.Run("enabled and labelled", func(t *testing.T) {
		if !strict.Enabled() || strict.Label() != "Corp SSO" || strict.LoginURL() != "/api/v1/user/sso/login" {
			t.Fatalf("Enabled=%v Label=%q LoginURL=%q", strict.Enabled(), strict.Label(), strict.LoginURL())
		}
	})

	t.Run("login redirects to the provider with PKCE, state and nonce in a sealed cookie", func(t *testing.T) {
		b := newBrowser(t)
		p := b.get(strictURL + apiBase + LoginPath)
		if p.status != http.StatusFound || !strings.HasPrefix(p.location, issuer+"/") {
			t.Fatalf("login: %d to %q", p.status, p.location)
		}
		u, _ := url.Parse(p.location)
		q := u.Query()
		if q.Get("client_id") != clientID || q.Get("response_type") != "code" || q.Get("scope") != "openid profile email" ||
			q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("state") == "" || q.Get("nonce") == "" ||
			q.Get("redirect_uri") != strictURL+"/api/v1/user/sso/callback" {
			t.Fatalf("authorize query = %v", q)
		}
		var set *http.Cookie
		for _, c := range (&http.Response{Header: p.header}).Cookies() {
			if c.Name == cookieName {
				set = c
			}
		}
		if set == nil || !set.HttpOnly || set.SameSite != http.SameSiteLaxMode || set.Path != "/api/v1/user/sso" || set.MaxAge != 600 || set.Secure {
			t.Fatalf("flow cookie = %+v", set)
		}
		if strings.Contains(set.Value, q.Get("state")) || strings.Contains(set.Value, q.Get("nonce")) {
			t.Fatal("flow cookie shows the state or nonce in the clear")
		}
	})

	t.Run("known user matched by user name", func(t *testing.T) {
		b := newBrowser(t)
		v := b.signIn(strictURL, "", "alice")
		if got := signedInAs(t, v); got != "alice" {
			t.Fatalf("signed in as %q", got)
		}
		if v.Has("reUrl") {
			t.Fatalf("reUrl without returnTo: %v", v)
		}
		if b.flowCookie(strictURL) != nil {
			t.Fatal("flow cookie not cleared after the callback")
		}
	})

	t.Run("matched by verified e-mail when the user name differs", func(t *testing.T) {
		if got := signedInAs(t, newBrowser(t).signIn(strictURL, "", "robert.b")); got != "bob" {
			t.Fatalf("signed in as %q, want bob", got)
		}
	})

	t.Run("unverified e-mail does not match", func(t *testing.T) {
		before := userCount()
		v := newBrowser(t).signIn(strictURL, "", "carol.x")
		if v.Get("ssoError") != identity.MsgSSOUnknownUser || v.Has("id_token") {
			t.Fatalf("hash params = %v", v)
		}
		if userCount() != before {
			t.Fatal("a user was created")
		}
	})

	t.Run("unknown user without provisioning is refused", func(t *testing.T) {
		before := userCount()
		b := newBrowser(t)
		v := b.signIn(strictURL, "#/admin", "dave.new")
		if v.Get("ssoError") != identity.MsgSSOUnknownUser || v.Has("id_token") || v.Has("refresh_token") {
			t.Fatalf("hash params = %v", v)
		}
		if userCount() != before {
			t.Fatal("a user was created")
		}
		if b.flowCookie(strictURL) != nil {
			t.Fatal("flow cookie not cleared after a refused sign-in")
		}
	})

	t.Run("unknown user with provisioning gets an account and is signed in", func(t *testing.T) {
		before := userCount()
		got := signedInAs(t, newBrowser(t).signIn(provURL, "", "erin.new"))
		if userCount() != before+1 {
			t.Fatalf("users %d → %d, want one new", before, userCount())
		}
		u, err := ids.UserByName(ctx, got)
		if err != nil {
			t.Fatal(err)
		}
		if u.UserName != "erin_new" || u.Email != "erin@new.example" || u.FirstName != "Erin" || u.LastName != "Newton" {
			t.Fatalf("provisioned user = %+v", u)
		}
		// The second sign-in finds the account by its (verified) e-mail address.
		if again := signedInAs(t, newBrowser(t).signIn(provURL, "", "erin.new")); again != got || userCount() != before+1 {
			t.Fatalf("second sign-in as %q, users %d", again, userCount())
		}
	})

	t.Run("tampered state is rejected", func(t *testing.T) {
		b := newBrowser(t)
		cb := b.toCallback(strictURL, "", "alice")
		u, _ := url.Parse(cb)
		q := u.Query()
		q.Set("state", q.Get("state")+"x")
		u.RawQuery = q.Encode()
		v := b.finish(strictURL, u.String())
		if v.Get("ssoError") != MsgExpired || v.Has("id_token") {
			t.Fatalf("hash params = %v", v)
		}
		if b.flowCookie(strictURL) != nil {
			t.Fatal("flow cookie not cleared")
		}
	})

	t.Run("callback without the flow cookie is rejected", func(t *testing.T) {
		cb := newBrowser(t).toCallback(strictURL, "", "alice")
		v := newBrowser(t).finish(strictURL, cb) // another browser: no cookie
		if v.Get("ssoError") != MsgExpired || v.Has("id_token") {
			t.Fatalf("hash params = %v", v)
		}
	})

	t.Run("forged flow cookie is rejected", func(t *testing.T) {
		b := newBrowser(t)
		cb := b.toCallback(strictURL, "", "alice")
		cbURL, _ := url.Parse(cb)
		other, _ := newSealer(randomKey(t))
		forged, _ := other.seal(flowState{State: cbURL.Query().Get("state"), Expires: time.Now().Add(time.Minute).Unix()})
		b.c.Jar.SetCookies(cbURL, []*http.Cookie{{Name: cookieName, Value: forged, Path: "/api/v1/user/sso"}})
		if v := b.finish(strictURL, cb); v.Get("ssoError") != MsgExpired || v.Has("id_token") {
			t.Fatalf("hash params = %v", v)
		}
	})

	t.Run("a code cannot be used twice", func(t *testing.T) {
		b := newBrowser(t)
		cb := b.toCallback(strictURL, "", "alice")
		cookie := b.flowCookie(strictURL)
		signedInAs(t, b.finish(strictURL, cb))
		cbURL, _ := url.Parse(cb)
		b.c.Jar.SetCookies(cbURL, []*http.Cookie{cookie}) // replay cookie and code
		if v := b.finish(strictURL, cb); v.Get("ssoError") != MsgFailed || v.Has("id_token") {
			t.Fatalf("hash params = %v", v)
		}
	})

	t.Run("the provider's error is shown", func(t *testing.T) {
		b := newBrowser(t)
		p := b.get(strictURL + apiBase + LoginPath)
		authz, _ := url.Parse(p.location)
		state := authz.Query().Get("state")
		cb := strictURL + apiBase + CallbackPath + "?" + url.Values{
			"error": {"access_denied"}, "error_description": {"The user cancelled the sign-in."}, "state": {state},
		}.Encode()
		if v := b.finish(strictURL, cb); v.Get("ssoError") != "The user cancelled the sign-in." || v.Has("id_token") {
			t.Fatalf("hash params = %v", v)
		}
		if b.flowCookie(strictURL) != nil {
			t.Fatal("flow cookie not cleared")
		}
	})

	t.Run("returnTo hash route is kept as reUrl, foreign addresses are dropped", func(t *testing.T) {
		v := newBrowser(t).signIn(strictURL, "#/admin/users/1", "alice")
		signedInAs(t, v)
		if v.Get("reUrl") != "#/admin/users/1" {
			t.Fatalf("reUrl = %q", v.Get("reUrl"))
		}
		v = newBrowser(t).signIn(strictURL, strictURL+"/#/documents/7?tab=2", "alice")
		if v.Get("reUrl") != "#/documents/7?tab=2" {
			t.Fatalf("reUrl from the app's own URL = %q", v.Get("reUrl"))
		}
		v = newBrowser(t).signIn(strictURL, "https://evil.example", "alice")
		signedInAs(t, v)
		if v.Has("reUrl") {
			t.Fatalf("foreign returnTo kept: %v", v)
		}
	})
}

func TestClaimsFromTheIDToken(t *testing.T) {
	ctx := context.Background()
	ids, err := identity.NewService(ctx, identity.NewSQLStore(storetest.SQLite(t)), identity.Config{AccessTokenTTL: time.Minute, RefreshTokenTTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ids.CreateUser(ctx, identity.NewUser{UserName: "bob", Password: "local-pass", Email: "bob@example.com"}); err != nil {
		t.Fatal(err)
	}
	appSrv, appURL := listener(t)
	opSrv, issuer := listener(t)
	startProvider(opSrv, issuer, true, appURL)
	app(t, appSrv, New(Config{Issuer: issuer, ClientID: clientID, ClientSecret: clientSecret, PublicURL: appURL, CookieKey: randomKey(t)}, ids, quietLog()))

	v := newBrowser(t).signIn(appURL, "", "robert.b") // matched by the e-mail in the ID token
	p, err := ids.Authenticate(ctx, v.Get("id_token"))
	if err != nil || p.Username != "bob" {
		t.Fatalf("hash params %v: %+v, %v", v, p, err)
	}
	v = newBrowser(t).signIn(appURL, "", "carol.x") // unverified e-mail in the ID token
	if v.Get("ssoError") != identity.MsgSSOUnknownUser {
		t.Fatalf("hash params = %v", v)
	}
}

func TestDisabled(t *testing.T) {
	svc := New(Config{ClientID: "x", PublicURL: "http://127.0.0.1:1"}, nil, quietLog())
	if svc.Enabled() {
		t.Fatal("enabled without an issuer")
	}
	for _, path := range []string{LoginPath, CallbackPath} {
		rec := httptest.NewRecorder()
		for _, rt := range svc.Routes() {
			if rt.Pattern == path {
				rt.Handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, apiBase+path, nil))
			}
		}
		var body struct {
			Code   string `json:"errorCode"`
			Status int    `json:"httpStatus"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || rec.Code != http.StatusNotFound || body.Code != "SSO_DISABLED" {
			t.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
		}
	}
}

func TestProviderDownAtStart(t *testing.T) {
	down := httptest.NewServer(http.NotFoundHandler())
	issuer := down.URL
	down.Close() // nothing listens there any more
	srv, appURL := listener(t)
	app(t, srv, New(Config{Issuer: issuer, ClientID: "x", PublicURL: appURL, CookieKey: randomKey(t)}, nil, quietLog()))
	p := newBrowser(t).get(appURL + apiBase + LoginPath)
	if v := appParams(t, appURL, p.location); v.Get("ssoError") != MsgFailed {
		t.Fatalf("hash params = %v", v)
	}
}

func TestCleanReturnTo(t *testing.T) {
	s := New(Config{PublicURL: "https://portal.example/"}, nil, quietLog())
	for in, want := range map[string]string{
		"":                                   "",
		"#/":                                 "#/",
		"#/admin/users/1":                    "#/admin/users/1",
		"#/search?q=a%20b":                   "#/search?q=a%20b",
		"https://portal.example/#/x":         "#/x",
		"https://PORTAL.example/app/#/x?y=1": "#/x?y=1",
		"https://portal.example/":            "",
		"https://evil.example/#/x":           "",
		"http://portal.example/#/x":          "",
		"https://user@portal.example/#/x":    "",
		"https://evil.example":               "",
		"//evil.example/#/x":                 "",
		"/#/x":                               "",
		"#admin":                             "",
		"#//evil.example":                    "",
		"#/\\evil":                           "",
		"#/a\nb":                             "",
		"javascript:alert(1)//#/x":           "",
		"#/" + strings.Repeat("a", 3000):     "",
	} {
		if got := s.cleanReturnTo(in); got != want {
			t.Errorf("cleanReturnTo(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSealer(t *testing.T) {
	s, _ := newSealer([]byte("shared secret"))
	now := time.Now()
	st := flowState{State: "st", Nonce: "no", Verifier: "ve", ReturnTo: "#/x", Expires: now.Add(time.Minute).Unix()}
	sealed, err := s.seal(st)
	if err != nil {
		t.Fatal(err)
	}
	// Another instance with the same key opens it.
	other, _ := newSealer([]byte("shared secret"))
	if got, err := other.open(sealed, now); err != nil || got != st {
		t.Fatalf("open = %+v, %v", got, err)
	}
	if _, err := s.open(sealed, now.Add(2*time.Minute)); err == nil {
		t.Fatal("expired state accepted")
	}
	wrong, _ := newSealer([]byte("other secret"))
	if _, err := wrong.open(sealed, now); err == nil {
		t.Fatal("opened with another key")
	}
	b := []byte(sealed)
	b[len(b)/2] ^= 1
	if _, err := s.open(string(b), now); err == nil {
		t.Fatal("tampered cookie accepted")
	}
	if _, err := s.open("not base64!", now); err == nil {
		t.Fatal("garbage accepted")
	}
}

func TestProviderMessage(t *testing.T) {
	if got := providerMessage("access_denied", ""); got != MsgDenied {
		t.Errorf("access_denied = %q", got)
	}
	if got := providerMessage("server_error", ""); got != MsgFailed {
		t.Errorf("server_error = %q", got)
	}
	if got := providerMessage("x", "line\nbreak"); got != "line break" {
		t.Errorf("control characters = %q", got)
	}
	if got := providerMessage("x", strings.Repeat("é", 400)); len(got) > maxProviderMessage+len("…") || !strings.HasSuffix(got, "…") {
		t.Errorf("long description = %d bytes", len(got))
	}
}
