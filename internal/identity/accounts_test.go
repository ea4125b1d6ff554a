package identity

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"portalwright/internal/audit"
	"portalwright/internal/caller"
	"portalwright/internal/store"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
	"portalwright/internal/validate"
)

// captureMailer records queued mail; failNext makes the next QueueTx fail so tests can check
// that the surrounding change is rolled back.
type captureMailer struct {
	mu       sync.Mutex
	mails    []Mail
	failNext bool
}

func (m *captureMailer) QueueTx(_ context.Context, _ *store.Tx, mail Mail) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failNext {
		m.failNext = false
		return errors.New("outbox unavailable")
	}
	m.mails = append(m.mails, mail)
	return nil
}

func (m *captureMailer) last(t *testing.T) Mail {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.mails) == 0 {
		t.Fatal("no mail queued")
	}
	return m.mails[len(m.mails)-1]
}

func (m *captureMailer) count() int { m.mu.Lock(); defer m.mu.Unlock(); return len(m.mails) }

var (
	linkToken = regexp.MustCompile(`#/confirm-password/([0-9a-f-]{36})`)
	otpLine   = regexp.MustCompile(`one-time password is:\r\n\r\n    (\S+)`)
)

func accountService(t *testing.T, db *store.DB) (*Service, *captureMailer, *audit.Log) {
	t.Helper()
	svc, err := NewService(context.Background(), NewSQLStore(db), Config{AccessTokenTTL: 15 * time.Minute, RefreshTokenTTL: time.Hour, PublicURL: "https://pw.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	m := &captureMailer{}
	a := audit.New(db, slog.New(slog.NewTextHandler(io.Discard, nil)))
	return svc.WithMailer(m).WithAuditor(a), m, a
}

func TestPasswordResetFlow(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc, mailer, _ := accountService(t, db)
		u, _ := svc.CreateUser(ctx, NewUser{UserName: "dana", Password: "old-pass", FirstName: "Dana", LastName: "X", Email: "dana@example.com"})
		old, _ := svc.Login(ctx, "dana", "old-pass", ClientInfo{})

		if err := svc.RequestPasswordReset(ctx, "dana", "new-pass", ClientInfo{}); err != nil {
			t.Fatal(err)
		}
		mail := mailer.last(t)
		if mail.To != "dana@example.com" || !mail.Transactional || !strings.Contains(mail.Text, "https://pw.example.com/#/confirm-password/") {
			t.Fatalf("reset mail = %+v", mail)
		}
		token := linkToken.FindStringSubmatch(mail.Text)[1]

		// The old password still works until the link is confirmed.
		if _, err := svc.Login(ctx, "dana", "old-pass", ClientInfo{}); err != nil {
			t.Fatalf("old password must work before confirmation: %v", err)
		}
		_, err := svc.ConfirmPasswordReset(ctx, token, "not-the-new-one", "", ClientInfo{})
		if e := testkit.APIError(t, err, http.StatusBadRequest, "RESET_INVALID"); e.Message != MsgResetInvalid {
			t.Fatalf("message %q", e.Message)
		}
		tok, err := svc.ConfirmPasswordReset(ctx, token, "new-pass", "", ClientInfo{})
		if err != nil || tok.Profile.User.ID != u.ID {
			t.Fatalf("confirm: %+v %v", tok, err)
		}
		if _, err := svc.Login(ctx, "dana", "new-pass", ClientInfo{}); err != nil {
			t.Fatalf("new password: %v", err)
		}
		_, err = svc.Login(ctx, "dana", "old-pass", ClientInfo{})
		testkit.APIError(t, err, http.StatusUnauthorized, CodeInvalidCredentials)
		if _, err = svc.Authenticate(ctx, old.IDToken); err == nil {
			t.Fatal("sessions from before the reset must end")
		}

		_, err = svc.ConfirmPasswordReset(ctx, token, "new-pass", "", ClientInfo{})
		testkit.APIError(t, err, http.StatusBadRequest, "RESET_INVALID") // single use
		_, err = svc.ConfirmPasswordReset(ctx, "00000000-0000-0000-0000-000000000000", "new-pass", "", ClientInfo{})
		testkit.APIError(t, err, http.StatusBadRequest, "RESET_INVALID")

		// One reset mail per user name per ResetMailInterval: each further request here comes later.
		shift := func(d time.Duration) { svc.now = func() time.Time { return time.Now().UTC().Add(d) } }

		t.Run("expired link", func(t *testing.T) {
			shift(ResetMailInterval + time.Second)
			before := mailer.count()
			if err := svc.RequestPasswordReset(ctx, "dana", "third-pass", ClientInfo{}); err != nil {
				t.Fatal(err)
			}
			if mailer.count() != before+1 {
				t.Fatal("no mail queued")
			}
			token := linkToken.FindStringSubmatch(mailer.last(t).Text)[1]
			later, _, _ := accountService(t, db)
			later.now = func() time.Time { return time.Now().UTC().Add(ResetMailInterval + ResetTokenTTL + time.Minute) }
			_, err := later.ConfirmPasswordReset(ctx, token, "third-pass", "", ClientInfo{})
			testkit.APIError(t, err, http.StatusBadRequest, "RESET_INVALID")
		})

		t.Run("unknown user looks like success and sends nothing", func(t *testing.T) {
			before := mailer.count()
			if err := svc.RequestPasswordReset(ctx, "nobody", "whatever1", ClientInfo{}); err != nil {
				t.Fatal(err)
			}
			if mailer.count() != before {
				t.Fatal("a mail was queued for an unknown user")
			}
		})

		t.Run("rules", func(t *testing.T) {
			err := svc.RequestPasswordReset(ctx, "dana", "1234", ClientInfo{})
			if e := testkit.APIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR"); e.Message != "Your password needs to be at least 5 characters." {
				t.Fatalf("message %q", e.Message)
			}
			err = svc.RequestPasswordReset(ctx, "", "12345", ClientInfo{})
			testkit.APIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
		})

		t.Run("a failing outbox leaves no reset behind", func(t *testing.T) {
			shift(2*ResetMailInterval + 2*time.Second)
			mailer.failNext = true
			if err := svc.RequestPasswordReset(ctx, "dana", "fourth-pass", ClientInfo{}); err == nil {
				t.Fatal("expected the outbox failure")
			}
			var n int
			db.QueryRowContext(ctx, "SELECT COUNT(*) FROM password_resets WHERE used_at IS NULL AND user_id = ?", u.ID).Scan(&n)
			if n != 1 { // only the expired one from the subtest above
				t.Fatalf("%d open resets", n)
			}
		})
	})
}

func TestOneTimePasswords(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc, mailer, auditLog := accountService(t, db)
		admin := caller.Caller{UserID: 1, Username: "root", Admin: true}

		u, err := svc.CreateUserByAdmin(ctx, admin, AdminUser{UserName: "erin", FirstName: "Erin", LastName: "Y", Email: "erin@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		otp := otpLine.FindStringSubmatch(mailer.last(t).Text)[1]
		_, err = svc.Login(ctx, "erin", otp, ClientInfo{})
		e := testkit.APIError(t, err, http.StatusForbidden, CodeOneTimePassword)
		if e.Message == "" {
			t.Fatal("the 149 answer carries a message")
		}
		_, err = svc.ConfirmPasswordReset(ctx, "wrong-otp", "erin-pass", "erin", ClientInfo{})
		testkit.APIError(t, err, http.StatusBadRequest, "RESET_INVALID")
		_, err = svc.ConfirmPasswordReset(ctx, otp, "123", "erin", ClientInfo{})
		testkit.APIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
		tok, err := svc.ConfirmPasswordReset(ctx, otp, "erin-pass", "erin", ClientInfo{})
		if err != nil || tok.Profile.User.ID != u.ID {
			t.Fatalf("replace one-time password: %v", err)
		}
		_, err = svc.ConfirmPasswordReset(ctx, otp, "other-pass", "erin", ClientInfo{})
		testkit.APIError(t, err, http.StatusBadRequest, "RESET_INVALID") // single use
		if _, err := svc.Login(ctx, "erin", "erin-pass", ClientInfo{}); err != nil {
			t.Fatal(err)
		}

		t.Run("force reset", func(t *testing.T) {
			live, _ := svc.Login(ctx, "erin", "erin-pass", ClientInfo{})
			if err := svc.ForceResetPassword(ctx, admin, u.ID); err != nil {
				t.Fatal(err)
			}
			_, err := svc.Authenticate(ctx, live.IDToken)
			testkit.APIError(t, err, http.StatusUnauthorized, CodeUnauthorized)
			otp := otpLine.FindStringSubmatch(mailer.last(t).Text)[1]
			_, err = svc.Login(ctx, "erin", otp, ClientInfo{})
			testkit.APIError(t, err, http.StatusForbidden, CodeOneTimePassword)

			later, _, _ := accountService(t, db)
			later.now = func() time.Time { return time.Now().UTC().Add(OneTimePasswordTTL + time.Hour) }
			_, err = later.Login(ctx, "erin", otp, ClientInfo{})
			testkit.APIError(t, err, http.StatusForbidden, "ONE_TIME_PASSWORD_EXPIRED")
		})

		t.Run("admin create rules and atomicity", func(t *testing.T) {
			_, err := svc.CreateUserByAdmin(ctx, admin, AdminUser{UserName: "erin", FirstName: "E", LastName: "Y", Email: "e@example.com"})
			testkit.APIError(t, err, http.StatusConflict, "USERNAME_TAKEN")
			_, err = svc.CreateUserByAdmin(ctx, admin, AdminUser{UserName: "fred", FirstName: "Fred", LastName: "Z", Email: "not-an-address"})
			if e := testkit.APIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR"); e.Message != validate.MsgEmail {
				t.Fatalf("message %q", e.Message)
			}
			mailer.failNext = true
			_, err = svc.CreateUserByAdmin(ctx, admin, AdminUser{UserName: "gina", FirstName: "Gina", LastName: "Z", Email: "gina@example.com"})
			if err == nil {
				t.Fatal("expected the outbox failure")
			}
			if _, err := svc.store.UserByUsername(ctx, "gina"); !errors.Is(err, store.ErrNotFound) {
				t.Fatal("a user whose one-time password could not be mailed must not exist")
			}
		})

		entries, _ := auditLog.List(ctx, audit.Filter{Action: "USER_CREATED"})
		if len(entries) != 1 || entries[0].ActorName != "root" {
			t.Fatalf("audit %+v", entries)
		}
	})
}

func TestProfileAndPassword(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc, _, _ := accountService(t, db)
		u, _ := svc.CreateUser(ctx, NewUser{UserName: "hank", Password: "hank-pass", FirstName: "Hank", LastName: "H", Email: "hank@example.com"})
		other, _ := svc.CreateUser(ctx, NewUser{UserName: "ivy", Password: "ivy-pass", FirstName: "Ivy", LastName: "I", Email: "ivy@example.com"})
		tok, _ := svc.Login(ctx, "hank", "hank-pass", ClientInfo{})
		p, _ := svc.Authenticate(ctx, tok.IDToken)
		admin := caller.Caller{UserID: 999, Username: "root", Admin: true}
		optOut := true

		got, err := svc.UpdateProfile(ctx, p, ProfileUpdate{FirstName: "Henry", LastName: "H", Email: "hank@example.com", OptOutNotification: &optOut})
		if err != nil || got.FirstName != "Henry" || !got.OptOutNotification {
			t.Fatalf("update: %+v %v", got, err)
		}
		_, err = svc.UpdateProfile(ctx, p, ProfileUpdate{FirstName: "Henry", LastName: "H", Email: "new@example.com"})
		testkit.APIError(t, err, http.StatusForbidden, "EMAIL_ADMIN_ONLY")
		_, err = svc.UpdateProfile(ctx, p, ProfileUpdate{ID: other.ID, FirstName: "X", LastName: "Y", Email: "ivy@example.com"})
		testkit.APIError(t, err, http.StatusForbidden, "FORBIDDEN")
		_, err = svc.UpdateProfile(ctx, p, ProfileUpdate{FirstName: "H3nry", LastName: "H", Email: "hank@example.com"})
		testkit.APIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
		_, err = svc.UpdateProfile(ctx, p, ProfileUpdate{FirstName: "", LastName: "H", Email: "hank@example.com"})
		testkit.APIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
		yes := true
		_, err = svc.UpdateProfile(ctx, p, ProfileUpdate{FirstName: "Henry", LastName: "H", Email: "hank@example.com", Admin: &yes})
		testkit.APIError(t, err, http.StatusForbidden, "FORBIDDEN")
		got, err = svc.UpdateProfile(ctx, admin, ProfileUpdate{ID: u.ID, FirstName: "Henry", LastName: "H", Email: "henry@example.com"})
		if err != nil || got.Email != "henry@example.com" {
			t.Fatalf("admin changes e-mail: %+v %v", got, err)
		}

		for _, c := range []struct{ cur, next, code, msg string }{
			{"wrong-pass", "brand-new", "CURRENT_PASSWORD_WRONG", MsgCurrentPasswordWrong},
			{"hank-pass", "hank-pass", "VALIDATION_ERROR", validate.MsgPasswordUnchanged},
			{"hank-pass", "1234", "VALIDATION_ERROR", "Your password needs to be at least 5 characters."},
			{"", "brand-new", "VALIDATION_ERROR", validate.MsgFieldRequired},
		} {
			err := svc.ChangePassword(ctx, p, c.cur, c.next)
			if e := testkit.APIError(t, err, http.StatusBadRequest, c.code); e.Message != c.msg {
				t.Errorf("ChangePassword(%q,%q) message %q, want %q", c.cur, c.next, e.Message, c.msg)
			}
		}
		if err := svc.ChangePassword(ctx, p, "hank-pass", "brand-new"); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Authenticate(ctx, tok.IDToken); err != nil {
			t.Fatalf("the session that changed the password stays: %v", err)
		}
		if _, err := svc.Login(ctx, "hank", "brand-new", ClientInfo{}); err != nil {
			t.Fatal(err)
		}

		t.Run("ssh keys", func(t *testing.T) {
			pair, err := svc.GenerateKey(ctx, p)
			if err != nil || !strings.HasPrefix(pair.PublicKey, "ssh-ed25519 ") || !strings.Contains(pair.PrivateKey, "BEGIN OPENSSH PRIVATE KEY") {
				t.Fatalf("GenerateKey = %+v %v", pair, err)
			}
			stored, _ := svc.User(ctx, u.ID)
			if stored.PublicKey != pair.PublicKey || strings.Contains(stored.PublicKey, "PRIVATE") {
				t.Fatalf("stored key %q", stored.PublicKey)
			}
			_, err = svc.SetPublicKey(ctx, p, "  ")
			if e := testkit.APIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR"); e.Message != validate.MsgPublicKeyRequired {
				t.Fatalf("message %q", e.Message)
			}
			_, err = svc.SetPublicKey(ctx, p, "ssh-rsa not-base64")
			testkit.APIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
		})

		t.Run("delete", func(t *testing.T) {
			err := svc.DeleteUser(ctx, admin, admin.UserID)
			testkit.APIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
			if err := svc.DeleteUser(ctx, admin, other.ID); err != nil {
				t.Fatal(err)
			}
			err = svc.DeleteUser(ctx, admin, other.ID)
			testkit.APIError(t, err, http.StatusNotFound, "USER_NOT_FOUND")
		})
	})
}
