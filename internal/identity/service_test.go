package identity

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"portalwright/internal/store"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
	"portalwright/internal/validate"
)

func newService(t *testing.T, db *store.DB) *Service {
	t.Helper()
	svc, err := NewService(context.Background(), NewSQLStore(db), Config{AccessTokenTTL: 15 * time.Minute, RefreshTokenTTL: 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

func TestIdentity(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc := newService(t, db)
		if _, err := svc.CreateUser(ctx, NewUser{UserName: "Alice", Password: "secret1", FirstName: "Alice", LastName: "Smith", Email: "alice@example.com"}); err != nil {
			t.Fatal(err)
		}

		t.Run("login returns tokens and the profile", func(t *testing.T) {
			tok, err := svc.Login(ctx, "alice", "secret1", ClientInfo{Addr: "127.0.0.1"})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Count(tok.IDToken, ".") != 2 || tok.RefreshToken == "" || tok.ExpiresIn <= 0 {
				t.Fatalf("tokens = %+v", tok)
			}
			if u := tok.Profile.User; u.UserName != "Alice" || u.Admin || u.LastLoggedIn == nil || u.PasswordHash == "" {
				t.Fatalf("profile user = %+v", u)
			}
			p, err := svc.Authenticate(ctx, tok.IDToken)
			if err != nil || p.Username != "Alice" {
				t.Fatalf("Authenticate = %+v, %v", p, err)
			}
		})

		t.Run("wrong password and unknown user look the same", func(t *testing.T) {
			_, err1 := svc.Login(ctx, "alice", "wrong-pass", ClientInfo{})
			_, err2 := svc.Login(ctx, "nobody", "wrong-pass", ClientInfo{})
			e1 := testkit.APIError(t, err1, http.StatusUnauthorized, CodeInvalidCredentials)
			e2 := testkit.APIError(t, err2, http.StatusUnauthorized, CodeInvalidCredentials)
			if e1.Message != MsgIncorrectCredentials || e2.Message != e1.Message {
				t.Fatalf("messages %q / %q", e1.Message, e2.Message)
			}
		})

		t.Run("missing credentials", func(t *testing.T) {
			for _, c := range [][2]string{{"", "x"}, {"alice", ""}, {"  ", "secret1"}} {
				_, err := svc.Login(ctx, c[0], c[1], ClientInfo{})
				if e := testkit.APIError(t, err, http.StatusBadRequest, "MISSING_CREDENTIALS"); e.Message != validate.MsgMissingCredentials {
					t.Fatalf("message %q", e.Message)
				}
			}
		})

		t.Run("one-time password answers 403 with code 149", func(t *testing.T) {
			if _, err := svc.CreateUser(ctx, NewUser{UserName: "otp", Password: "onetime1", MustResetPassword: true}); err != nil {
				t.Fatal(err)
			}
			_, err := svc.Login(ctx, "otp", "onetime1", ClientInfo{})
			testkit.APIError(t, err, http.StatusForbidden, CodeOneTimePassword)
		})

		t.Run("a new sign-in ends the older session with SESSION_EXPIRED", func(t *testing.T) {
			first, err := svc.Login(ctx, "alice", "secret1", ClientInfo{})
			if err != nil {
				t.Fatal(err)
			}
			second, err := svc.Login(ctx, "alice", "secret1", ClientInfo{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = svc.Authenticate(ctx, first.IDToken)
			testkit.APIError(t, err, http.StatusUnauthorized, CodeSessionExpired)
			_, err = svc.Refresh(ctx, first.RefreshToken)
			testkit.APIError(t, err, http.StatusUnauthorized, CodeSessionExpired)
			if _, err := svc.Authenticate(ctx, second.IDToken); err != nil {
				t.Fatalf("newest session must work: %v", err)
			}
		})

		t.Run("refresh rotates and a reused refresh token ends the session", func(t *testing.T) {
			tok, err := svc.Login(ctx, "alice", "secret1", ClientInfo{})
			if err != nil {
				t.Fatal(err)
			}
			next, err := svc.Refresh(ctx, tok.RefreshToken)
			if err != nil {
				t.Fatal(err)
			}
			if next.RefreshToken == tok.RefreshToken {
				t.Fatal("refresh token was not rotated")
			}
			if _, err := svc.Authenticate(ctx, next.IDToken); err != nil {
				t.Fatal(err)
			}
			_, err = svc.Refresh(ctx, tok.RefreshToken) // replay of the old one
			testkit.APIError(t, err, http.StatusUnauthorized, CodeInvalidRefreshToken)
			_, err = svc.Authenticate(ctx, next.IDToken)
			testkit.APIError(t, err, http.StatusUnauthorized, CodeUnauthorized)
			for _, bad := range []string{"", "garbage", "nosuchsession.secret"} {
				_, err = svc.Refresh(ctx, bad)
				testkit.APIError(t, err, http.StatusUnauthorized, CodeInvalidRefreshToken)
			}
		})

		t.Run("concurrent refreshes with one token: exactly one wins", func(t *testing.T) {
			tok, err := svc.Login(ctx, "alice", "secret1", ClientInfo{})
			if err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			var mu sync.Mutex
			wins := 0
			for range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if _, err := svc.Refresh(ctx, tok.RefreshToken); err == nil {
						mu.Lock()
						wins++
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			if wins > 1 {
				t.Fatalf("%d refreshes succeeded with one token", wins)
			}
		})

		t.Run("logout ends the session", func(t *testing.T) {
			tok, err := svc.Login(ctx, "alice", "secret1", ClientInfo{})
			if err != nil {
				t.Fatal(err)
			}
			p, err := svc.Authenticate(ctx, tok.IDToken)
			if err != nil {
				t.Fatal(err)
			}
			if err := svc.Logout(ctx, p); err != nil {
				t.Fatal(err)
			}
			_, err = svc.Authenticate(ctx, tok.IDToken)
			testkit.APIError(t, err, http.StatusUnauthorized, CodeUnauthorized)
		})

		t.Run("expired and forged access tokens are refused", func(t *testing.T) {
			tok, err := svc.Login(ctx, "alice", "secret1", ClientInfo{})
			if err != nil {
				t.Fatal(err)
			}
			later := newService(t, db)
			later.now = func() time.Time { return time.Now().UTC().Add(16 * time.Minute) }
			_, err = later.Authenticate(ctx, tok.IDToken)
			testkit.APIError(t, err, http.StatusUnauthorized, CodeUnauthorized)

			parts := strings.Split(tok.IDToken, ".")
			forged := parts[0] + "." + parts[1] + "." + strings.Repeat("A", len(parts[2]))
			_, err = svc.Authenticate(ctx, forged)
			testkit.APIError(t, err, http.StatusUnauthorized, CodeUnauthorized)
			_, err = svc.Authenticate(ctx, "")
			if e := testkit.APIError(t, err, http.StatusUnauthorized, CodeUnauthorized); e.Message != MsgNoToken {
				t.Fatalf("message %q", e.Message)
			}
		})

		t.Run("the signing key is shared by services on one database", func(t *testing.T) {
			tok, err := svc.Login(ctx, "alice", "secret1", ClientInfo{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := newService(t, db).Authenticate(ctx, tok.IDToken); err != nil {
				t.Fatalf("a second instance must accept the token: %v", err)
			}
		})

		t.Run("create user rules", func(t *testing.T) {
			_, err := svc.CreateUser(ctx, NewUser{UserName: "ALICE", Password: "secret1"})
			testkit.APIError(t, err, http.StatusConflict, "USERNAME_TAKEN")
			_, err = svc.CreateUser(ctx, NewUser{UserName: "-bad", Password: "secret1"})
			if e := testkit.APIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR"); e.Message != validate.MsgUsername {
				t.Fatalf("message %q", e.Message)
			}
			_, err = svc.CreateUser(ctx, NewUser{UserName: "shorty", Password: "1234"})
			if e := testkit.APIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR"); e.Message != "Your password needs to be at least 5 characters." {
				t.Fatalf("message %q", e.Message)
			}
			if _, err := NewSQLStore(db).UserByUsername(ctx, "shorty"); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("a rejected user must not be stored: %v", err)
			}
		})
	})
}

func TestInitialAdmin(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc := newService(t, db)
		created, generated, err := svc.EnsureInitialAdmin(ctx, "")
		if err != nil || !created || len(generated) != 16 {
			t.Fatalf("EnsureInitialAdmin = %v %q %v", created, generated, err)
		}
		tok, err := svc.Login(ctx, "admin", generated, ClientInfo{})
		if err != nil || !tok.Profile.User.Admin {
			t.Fatalf("admin login: %+v %v", tok, err)
		}
		created, _, err = svc.EnsureInitialAdmin(ctx, "other-pass")
		if err != nil || created {
			t.Fatalf("second EnsureInitialAdmin must do nothing: %v %v", created, err)
		}
	})
}

func TestPasswordHashing(t *testing.T) {
	h, err := HashPassword("correct horse")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=12288,t=3,p=1$") {
		t.Fatalf("hash format %q", h)
	}
	if ok, err := VerifyPassword(h, "correct horse"); !ok || err != nil {
		t.Fatalf("verify = %v %v", ok, err)
	}
	if ok, _ := VerifyPassword(h, "wrong"); ok {
		t.Fatal("wrong password verified")
	}
	h2, _ := HashPassword("correct horse")
	if h == h2 {
		t.Fatal("hashes must be salted")
	}
	for _, bad := range []string{"", "$bcrypt$x", "$argon2id$v=1$m=1,t=1,p=1$AA$AA"} {
		if _, err := VerifyPassword(bad, "x"); err == nil {
			t.Errorf("VerifyPassword(%q) accepted a malformed hash", bad)
		}
	}
}
