package notify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"mime/quotedprintable"
	"net/http"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"portalwright/internal/apperr"
	"portalwright/internal/store"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
)

// clock is a test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

type fixture struct {
	db    *store.DB
	clock *clock
	logs  *testkit.SyncBuffer
}

func newFixture(db *store.DB) *fixture {
	return &fixture{db: db, clock: &clock{t: time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)}, logs: &testkit.SyncBuffer{}}
}

// outbox makes an outbox ("a server instance") on the fixture's database and clock.
func (f *fixture) outbox(cfg SMTPConfig, optOut OptOut) *Outbox {
	log := slog.New(slog.NewTextHandler(f.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	o := NewOutbox(f.db, log, cfg, optOut)
	o.now = f.clock.Now
	return o
}

func mustEnqueue(t *testing.T, o *Outbox, m Mail) int64 {
	t.Helper()
	id, err := o.Enqueue(context.Background(), m)
	if err != nil {
		t.Fatalf("Enqueue(%+v): %v", m, err)
	}
	return id
}

func mustGet(t *testing.T, o *Outbox, id int64) Message {
	t.Helper()
	m, err := o.Get(context.Background(), id)
	if err != nil {
		t.Fatalf("Get(%d): %v", id, err)
	}
	return m
}

func deliver(t *testing.T, o *Outbox, want int) {
	t.Helper()
	n, err := o.DeliverDue(context.Background())
	if err != nil {
		t.Fatalf("DeliverDue: %v", err)
	}
	if n != want {
		t.Fatalf("DeliverDue sent %d, want %d", n, want)
	}
}

func simpleMail(to string) Mail {
	return Mail{To: to, Subject: "Hello", Text: "Hi there.", Kind: Transactional}
}

func TestDeliverHeadersAndBody(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := startServer(t, serverOptions{})
		f := newFixture(db)
		o := f.outbox(srv.config(), nil)
		text := "Hello Ünal,\n\nyour reset link: https://portal.example/#/confirm-password/abc=def\r\n" +
			"trailing space \n" + strings.Repeat("long line ", 20) + "\n.\nend"
		id := mustEnqueue(t, o, Mail{To: "alice@example.com", ToName: "Alice Ünal", Subject: "Passwort zurücksetzen – Portalwright",
			Text: text, Kind: Transactional})
		if m := mustGet(t, o, id); m.Status != StatusPending || m.NextAttemptAt == nil || m.Attempts != 0 {
			t.Fatalf("after enqueue: %+v", m)
		}
		deliver(t, o, 1)

		msgs := srv.messages()
		if len(msgs) != 1 {
			t.Fatalf("server got %d messages, want 1", len(msgs))
		}
		got := msgs[0]
		if got.From != "noreply@portalwright.test" || len(got.To) != 1 || got.To[0] != "alice@example.com" {
			t.Fatalf("envelope = %q → %q", got.From, got.To)
		}
		if strings.Contains(strings.ReplaceAll(got.Data, "\r\n", ""), "\n") || strings.Contains(strings.ReplaceAll(got.Data, "\r\n", ""), "\r") {
			t.Fatalf("message has bare CR or LF:\n%q", got.Data)
		}
		for _, line := range strings.Split(got.Data, "\r\n") {
			if len(line) > 78 {
				t.Errorf("line longer than 78 characters: %q", line)
			}
		}
		pm, err := mail.ReadMessage(strings.NewReader(got.Data))
		if err != nil {
			t.Fatal(err)
		}
		h := pm.Header
		from, err := mail.ParseAddress(h.Get("From"))
		if err != nil || from.Address != "noreply@portalwright.test" || from.Name != "Portalwright" {
			t.Errorf("From = %q (%v)", h.Get("From"), err)
		}
		to, err := mail.ParseAddress(h.Get("To"))
		if err != nil || to.Address != "alice@example.com" || to.Name != "Alice Ünal" {
			t.Errorf("To = %q → %+v (%v)", h.Get("To"), to, err)
		}
		if !strings.HasPrefix(h.Get("Subject"), "=?utf-8?q?") {
			t.Errorf("Subject not Q-encoded: %q", h.Get("Subject"))
		}
		subject, err := new(mime.WordDecoder).DecodeHeader(h.Get("Subject"))
		if err != nil || subject != "Passwort zurücksetzen – Portalwright" {
			t.Errorf("Subject = %q (%v)", subject, err)
		}
		if d, err := h.Date(); err != nil || !d.Equal(f.clock.Now()) {
			t.Errorf("Date = %q (%v)", h.Get("Date"), err)
		}
		if id := h.Get("Message-ID"); !strings.HasPrefix(id, "<") || !strings.HasSuffix(id, "@portalwright.test>") {
			t.Errorf("Message-ID = %q", id)
		}
		for k, v := range map[string]string{"MIME-Version": "1.0", "Content-Type": "text/plain; charset=utf-8",
			"Content-Transfer-Encoding": "quoted-printable", "Auto-Submitted": "auto-generated"} {
			if h.Get(k) != v {
				t.Errorf("%s = %q, want %q", k, h.Get(k), v)
			}
		}
		body, err := io.ReadAll(quotedprintable.NewReader(pm.Body))
		if err != nil {
			t.Fatal(err)
		}
		wantBody := strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\n", "\r\n") + "\r\n"
		if string(body) != wantBody {
			t.Errorf("body = %q\nwant   %q", body, wantBody)
		}

		m := mustGet(t, o, id)
		if m.Status != StatusSent || m.Attempts != 1 || m.SentAt == nil || !m.SentAt.Equal(f.clock.Now()) || m.NextAttemptAt != nil || m.LastError != "" {
			t.Fatalf("after delivery: %+v", m)
		}
		// Nothing is due any more.
		deliver(t, o, 0)
		if len(srv.messages()) != 1 {
			t.Fatal("a sent message was delivered again")
		}
	})
}

func TestAuthentication(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := startServer(t, serverOptions{users: map[string]string{"mailer": "s3cret"}})
		f := newFixture(db)

		cfg := srv.config()
		noAuth := mustEnqueue(t, f.outbox(cfg, nil), simpleMail("a@example.com"))
		deliver(t, f.outbox(cfg, nil), 0)
		if m := mustGet(t, f.outbox(cfg, nil), noAuth); m.Status != StatusFailed || !strings.Contains(m.LastError, "502") {
			t.Fatalf("without credentials (502 is permanent): %+v", m)
		}

		cfg.Username, cfg.Password = "mailer", "wrong"
		o := f.outbox(cfg, nil)
		bad := mustEnqueue(t, o, simpleMail("b@example.com"))
		deliver(t, o, 0)
		if m := mustGet(t, o, bad); m.Status != StatusFailed || !strings.Contains(m.LastError, "535") {
			t.Fatalf("wrong password (535 is permanent): %+v", m)
		}

		cfg.Password = "s3cret"
		o = f.outbox(cfg, nil)
		good := mustEnqueue(t, o, simpleMail("c@example.com"))
		deliver(t, o, 1)
		if m := mustGet(t, o, good); m.Status != StatusSent {
			t.Fatalf("with credentials: %+v", m)
		}
		if msgs := srv.messages(); len(msgs) != 1 || msgs[0].User != "mailer" || msgs[0].To[0] != "c@example.com" {
			t.Fatalf("server got %+v", msgs)
		}
	})
}

func TestTemporaryFailureIsRetried(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := startServer(t, serverOptions{})
		f := newFixture(db)
		o := f.outbox(srv.config(), nil)
		srv.failData(errTempFail)
		id := mustEnqueue(t, o, simpleMail("alice@example.com"))
		deliver(t, o, 0)
		m := mustGet(t, o, id)
		if m.Status != StatusPending || m.Attempts != 1 || !strings.Contains(m.LastError, "451") || m.SentAt != nil {
			t.Fatalf("after 451: %+v", m)
		}
		if m.NextAttemptAt == nil || !m.NextAttemptAt.Equal(f.clock.Now().Add(30*time.Second)) {
			t.Fatalf("next attempt = %v, want now + 30 s", m.NextAttemptAt)
		}
		// Not due yet.
		f.clock.Add(29 * time.Second)
		deliver(t, o, 0)
		if srv.dataCount() != 1 {
			t.Fatalf("server saw %d DATA commands, want 1 (no early retry)", srv.dataCount())
		}
		f.clock.Add(2 * time.Second)
		deliver(t, o, 1)
		m = mustGet(t, o, id)
		if m.Status != StatusSent || m.Attempts != 2 || m.LastError != "" || m.NextAttemptAt != nil {
			t.Fatalf("after the retry: %+v", m)
		}
		if len(srv.messages()) != 1 {
			t.Fatalf("server got %d messages", len(srv.messages()))
		}
	})
}

func TestGivesUpAfterMaxAttempts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := startServer(t, serverOptions{})
		f := newFixture(db)
		o := f.outbox(srv.config(), nil)
		for range MaxAttempts {
			srv.failData(errTempFail)
		}
		id := mustEnqueue(t, o, simpleMail("alice@example.com"))
		var waits []time.Duration
		for i := 1; i <= MaxAttempts; i++ {
			deliver(t, o, 0)
			m := mustGet(t, o, id)
			if m.Attempts != i {
				t.Fatalf("attempt %d: %+v", i, m)
			}
			if i < MaxAttempts {
				if m.Status != StatusPending || m.NextAttemptAt == nil {
					t.Fatalf("attempt %d: %+v", i, m)
				}
				waits = append(waits, m.NextAttemptAt.Sub(f.clock.Now()))
				f.clock.Add(m.NextAttemptAt.Sub(f.clock.Now()))
			} else if m.Status != StatusFailed || m.NextAttemptAt != nil || !strings.Contains(m.LastError, "451") {
				t.Fatalf("after %d attempts: %+v", i, m)
			}
		}
		want := []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute, 32 * time.Minute}
		if fmt.Sprint(waits) != fmt.Sprint(want) {
			t.Fatalf("backoff = %v, want %v", waits, want)
		}
	})
}

func TestBackoffIsCapped(t *testing.T) {
	for attempts, want := range map[int]time.Duration{1: 30 * time.Second, 2: time.Minute, 7: 32 * time.Minute, 8: time.Hour, 9: time.Hour, 64: time.Hour} {
		if got := backoff(attempts); got != want {
			t.Errorf("backoff(%d) = %v, want %v", attempts, got, want)
		}
	}
}

func TestPermanentFailure(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := startServer(t, serverOptions{})
		srv.setRcptErr(errNoUser)
		f := newFixture(db)
		o := f.outbox(srv.config(), nil)
		id := mustEnqueue(t, o, simpleMail("nobody@example.com"))
		deliver(t, o, 0)
		m := mustGet(t, o, id)
		if m.Status != StatusFailed || m.Attempts != 1 || !strings.Contains(m.LastError, "550") || m.NextAttemptAt != nil {
			t.Fatalf("after 550: %+v", m)
		}
		f.clock.Add(2 * time.Hour)
		deliver(t, o, 0)
		if m := mustGet(t, o, id); m.Attempts != 1 {
			t.Fatalf("a failed message was retried: %+v", m)
		}
	})
}

func TestServerDown(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFixture(db)
		o := f.outbox(SMTPConfig{Host: "127.0.0.1", Port: closedPort(t), From: "noreply@portalwright.test"}, nil)
		id := mustEnqueue(t, o, simpleMail("alice@example.com"))
		deliver(t, o, 0)
		m := mustGet(t, o, id)
		if m.Status != StatusPending || m.Attempts != 1 || !strings.Contains(m.LastError, "connect") || m.NextAttemptAt == nil || !m.NextAttemptAt.After(f.clock.Now()) {
			t.Fatalf("with the server down: %+v", m)
		}
	})
}

func TestOptOut(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := startServer(t, serverOptions{})
		f := newFixture(db)
		var mu sync.Mutex
		var asked []int64
		optOut := func(_ context.Context, userID int64) (bool, error) {
			mu.Lock()
			defer mu.Unlock()
			asked = append(asked, userID)
			switch userID {
			case 7:
				return true, nil
			case 9:
				return false, errors.New("database unavailable")
			}
			return false, nil
		}
		o := f.outbox(srv.config(), optOut)
		skipped := mustEnqueue(t, o, Mail{To: "out@example.com", Subject: "Activity", Text: "x", UserID: 7, Kind: Notification})
		reset := mustEnqueue(t, o, Mail{To: "out@example.com", Subject: "Reset", Text: "x", UserID: 7, Kind: Transactional})
		other := mustEnqueue(t, o, Mail{To: "in@example.com", Subject: "Activity", Text: "x", UserID: 8, Kind: Notification})
		noUser := mustEnqueue(t, o, Mail{To: "list@example.com", Subject: "Activity", Text: "x", Kind: Notification})
		broken := mustEnqueue(t, o, Mail{To: "err@example.com", Subject: "Activity", Text: "x", UserID: 9, Kind: Notification})
		deliver(t, o, 3)

		if m := mustGet(t, o, skipped); m.Status != StatusSkipped || m.SentAt != nil || m.NextAttemptAt != nil {
			t.Errorf("opted-out notification: %+v", m)
		}
		for _, id := range []int64{reset, other, noUser} {
			if m := mustGet(t, o, id); m.Status != StatusSent {
				t.Errorf("message %d: %+v", id, m)
			}
		}
		if m := mustGet(t, o, broken); m.Status != StatusPending || m.Attempts != 1 || !strings.Contains(m.LastError, "database unavailable") {
			t.Errorf("opt-out lookup failure: %+v", m)
		}
		var to []string
		for _, m := range srv.messages() {
			to = append(to, m.To[0])
			if strings.Contains(m.Data, "Subject: Activity") && m.To[0] == "out@example.com" {
				t.Error("the opted-out notification was sent")
			}
		}
		if fmt.Sprint(to) != "[out@example.com in@example.com list@example.com]" {
			t.Errorf("sent to %v", to)
		}
		mu.Lock()
		defer mu.Unlock()
		if fmt.Sprint(asked) != "[7 8 9]" { // transactional and user-less mails are not checked
			t.Errorf("opt-out asked for %v", asked)
		}
	})
}

func TestUserOptOut(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Now().UTC()
		ids := map[string]int64{}
		for _, u := range []struct {
			name string
			out  bool
		}{{"in", false}, {"out", true}} {
			var id int64
			err := db.WithTx(ctx, func(tx *store.Tx) error {
				return tx.QueryRowContext(ctx, `INSERT INTO users (username, username_key, password_hash, opt_out_notification, created_at, updated_at)
					VALUES (?, ?, 'x', ?, ?, ?) RETURNING id`, u.name, u.name, u.out, now, now).Scan(&id)
			})
			if err != nil {
				t.Fatal(err)
			}
			ids[u.name] = id
		}
		check := UserOptOut(db)
		for _, c := range []struct {
			id   int64
			want bool
		}{{ids["in"], false}, {ids["out"], true}, {ids["out"] + 100, true}} {
			got, err := check(ctx, c.id)
			if err != nil || got != c.want {
				t.Errorf("UserOptOut(%d) = %v, %v; want %v", c.id, got, err, c.want)
			}
		}
	})
}

func TestHeldWithoutSMTP(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(db)
		o := f.outbox(SMTPConfig{}, nil)
		const secret = "one-time password: Zebra-42-Quartz"
		id := mustEnqueue(t, o, Mail{To: "local@example.com", Subject: "Your account", Text: secret, Kind: Transactional})
		deliver(t, o, 0)
		m := mustGet(t, o, id)
		if m.Status != StatusHeld || m.Attempts != 0 || m.NextAttemptAt != nil {
			t.Fatalf("without SMTP: %+v", m)
		}
		logs := f.logs.String()
		if !strings.Contains(logs, "local@example.com") || !strings.Contains(logs, "Your account") || !strings.Contains(logs, "level=INFO") {
			t.Errorf("the held mail is not logged with recipient and subject:\n%s", logs)
		}
		if strings.Contains(logs, "Zebra") {
			t.Errorf("the log shows the body:\n%s", logs)
		}
		// Administrators read it, body included.
		held, err := o.List(ctx, Filter{Status: StatusHeld})
		if err != nil || len(held) != 1 || held[0].Text != secret {
			t.Fatalf("List(held) = %+v, %v", held, err)
		}

		// A restart with SMTP configured does not send held mails on its own…
		srv := startServer(t, serverOptions{})
		o2 := f.outbox(srv.config(), nil)
		f.clock.Add(time.Hour)
		deliver(t, o2, 0)
		if m := mustGet(t, o2, id); m.Status != StatusHeld {
			t.Fatalf("held mail changed on its own: %+v", m)
		}
		// …an administrator's Retry does.
		if err := o2.Retry(ctx, id); err != nil {
			t.Fatal(err)
		}
		if m := mustGet(t, o2, id); m.Status != StatusPending || m.Attempts != 0 {
			t.Fatalf("after Retry: %+v", m)
		}
		deliver(t, o2, 1)
		if msgs := srv.messages(); len(msgs) != 1 || !strings.Contains(msgs[0].Data, "Zebra-42-Quartz") {
			t.Fatalf("server got %+v", msgs)
		}
	})
}

func TestInvalidMailIsRejected(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(db)
		o := f.outbox(SMTPConfig{}, nil)
		ok := Mail{To: "alice@example.com", ToName: "Alice", Subject: "Hi", Text: "x", Kind: Transactional}
		cases := map[string]func(m *Mail){
			"CRLF in subject":   func(m *Mail) { m.Subject = "Hi\r\nBcc: victim@example.com" },
			"LF in subject":     func(m *Mail) { m.Subject = "Hi\nX-Evil: 1" },
			"CR in name":        func(m *Mail) { m.ToName = "Alice\rBcc: victim@example.com" },
			"LF in recipient":   func(m *Mail) { m.To = "alice@example.com\nBcc: victim@example.com" },
			"not an address":    func(m *Mail) { m.To = "alice" },
			"name in recipient": func(m *Mail) { m.To = "Alice <alice@example.com>" },
			"two recipients":    func(m *Mail) { m.To = "alice@example.com, bob@example.com" },
			"empty recipient":   func(m *Mail) { m.To = "" },
			"empty subject":     func(m *Mail) { m.Subject = "  " },
			"no kind":           func(m *Mail) { m.Kind = "" },
			"unknown kind":      func(m *Mail) { m.Kind = "spam" },
			"negative user":     func(m *Mail) { m.UserID = -1 },
			"invalid UTF-8":     func(m *Mail) { m.Text = "\xff" },
		}
		for name, mutate := range cases {
			m := ok
			mutate(&m)
			_, err := o.Enqueue(ctx, m)
			if !errors.Is(err, ErrInvalidMail) {
				t.Errorf("%s: err = %v, want ErrInvalidMail", name, err)
			}
			var apiErr *apperr.Error
			if !errors.As(err, &apiErr) || apiErr.Status != http.StatusBadRequest {
				t.Errorf("%s: err = %v, want a 400 API error", name, err)
			}
			err = db.WithTx(ctx, func(tx *store.Tx) error {
				_, err := o.EnqueueTx(ctx, tx, m)
				return err
			})
			if !errors.Is(err, ErrInvalidMail) {
				t.Errorf("%s (tx): err = %v, want ErrInvalidMail", name, err)
			}
		}
		if all, err := o.List(ctx, Filter{}); err != nil || len(all) != 0 {
			t.Fatalf("stored after rejected mails: %+v, %v", all, err)
		}
		// Surrounding spaces on the address are trimmed, not rejected.
		m := ok
		m.To = " alice@example.com "
		id := mustEnqueue(t, o, m)
		if got := mustGet(t, o, id); got.To != "alice@example.com" {
			t.Fatalf("To = %q", got.To)
		}
	})
}

func TestEnqueueTx(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(db)
		o := f.outbox(SMTPConfig{}, nil)
		boom := errors.New("creating the user failed")
		err := db.WithTx(ctx, func(tx *store.Tx) error {
			if _, err := o.EnqueueTx(ctx, tx, simpleMail("rolled@example.com")); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("WithTx = %v", err)
		}
		if all, err := o.List(ctx, Filter{}); err != nil || len(all) != 0 {
			t.Fatalf("after rollback: %+v, %v", all, err)
		}
		var id int64
		err = db.WithTx(ctx, func(tx *store.Tx) error {
			id, err = o.EnqueueTx(ctx, tx, Mail{To: "kept@example.com", Subject: "OTP", Text: "x", UserID: 3, Kind: Transactional})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		m := mustGet(t, o, id)
		if m.Status != StatusPending || m.To != "kept@example.com" || m.UserID == nil || *m.UserID != 3 || m.Kind != Transactional {
			t.Fatalf("after commit: %+v", m)
		}
	})
}

func TestConcurrentInstancesSendOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := startServer(t, serverOptions{})
		f := newFixture(db)
		const n = 30
		instances := []*Outbox{f.outbox(srv.config(), nil), f.outbox(srv.config(), nil), f.outbox(srv.config(), nil)}
		for i := range n {
			mustEnqueue(t, instances[i%len(instances)], Mail{To: fmt.Sprintf("user%d@example.com", i), Subject: fmt.Sprintf("Mail %d", i), Text: "x", Kind: Transactional})
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		total := 0
		for _, o := range instances {
			for range 2 {
				wg.Go(func() {
					sent, err := o.DeliverDue(context.Background())
					if err != nil {
						t.Error(err)
					}
					mu.Lock()
					total += sent
					mu.Unlock()
				})
			}
		}
		wg.Wait()
		if total != n {
			t.Errorf("instances report %d sent, want %d", total, n)
		}
		seen := map[string]int{}
		for _, m := range srv.messages() {
			seen[m.To[0]]++
		}
		if len(seen) != n {
			t.Errorf("server got %d distinct recipients, want %d", len(seen), n)
		}
		for to, c := range seen {
			if c != 1 {
				t.Errorf("%s got %d copies", to, c)
			}
		}
		all, err := instances[0].List(context.Background(), Filter{Status: StatusSent})
		if err != nil || len(all) != n {
			t.Fatalf("sent messages: %d, %v", len(all), err)
		}
	})
}

func TestStaleClaimIsTakenOver(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		srv := startServer(t, serverOptions{})
		f := newFixture(db)
		o := f.outbox(srv.config(), nil)
		id := mustEnqueue(t, o, simpleMail("alice@example.com"))
		// Another instance claimed it and died.
		if _, err := db.ExecContext(ctx, `UPDATE mail_outbox SET status = 'sending', claimed_at = ?, claim_token = 'dead' WHERE id = ?`, f.clock.Now(), id); err != nil {
			t.Fatal(err)
		}
		f.clock.Add(9 * time.Minute)
		deliver(t, o, 0)
		if m := mustGet(t, o, id); m.Status != StatusSending {
			t.Fatalf("a fresh claim was taken over: %+v", m)
		}
		if err := o.Retry(ctx, id); !errors.Is(err, ErrSending) {
			t.Fatalf("Retry while sending = %v, want ErrSending", err)
		}
		f.clock.Add(2 * time.Minute)
		deliver(t, o, 1)
		if m := mustGet(t, o, id); m.Status != StatusSent {
			t.Fatalf("after the claim went stale: %+v", m)
		}
	})
}

func TestStartTLS(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := startServer(t, serverOptions{tls: selfSignedTLS(t), users: map[string]string{"mailer": "s3cret"}})
		f := newFixture(db)
		cfg := srv.config()
		cfg.StartTLS, cfg.Username, cfg.Password = true, "mailer", "s3cret"

		// The self-signed certificate is refused unless verification is off.
		strict := f.outbox(cfg, nil)
		id := mustEnqueue(t, strict, simpleMail("strict@example.com"))
		deliver(t, strict, 0)
		if m := mustGet(t, strict, id); m.Status != StatusPending || !strings.Contains(m.LastError, "certificate") {
			t.Fatalf("unverifiable certificate: %+v", m)
		}

		cfg.InsecureSkipVerify = true
		o := f.outbox(cfg, nil)
		f.clock.Add(time.Minute)
		deliver(t, o, 1)
		msgs := srv.messages()
		if len(msgs) != 1 || !msgs[0].TLS || msgs[0].User != "mailer" {
			t.Fatalf("server got %+v", msgs)
		}
	})
}

func TestStartTLSRequired(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := startServer(t, serverOptions{}) // no STARTTLS offered
		f := newFixture(db)
		cfg := srv.config()
		cfg.StartTLS = true
		o := f.outbox(cfg, nil)
		id := mustEnqueue(t, o, simpleMail("alice@example.com"))
		deliver(t, o, 0)
		if m := mustGet(t, o, id); m.Status != StatusPending || !strings.Contains(m.LastError, "STARTTLS") {
			t.Fatalf("STARTTLS required but not offered: %+v", m)
		}
		if len(srv.messages()) != 0 {
			t.Fatal("sent without TLS")
		}
	})
}

func TestImplicitTLS(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := startServer(t, serverOptions{tls: selfSignedTLS(t), implicitTLS: true})
		f := newFixture(db)
		cfg := srv.config()
		cfg.ImplicitTLS, cfg.InsecureSkipVerify = true, true
		o := f.outbox(cfg, nil)
		mustEnqueue(t, o, simpleMail("alice@example.com"))
		deliver(t, o, 1)
		if msgs := srv.messages(); len(msgs) != 1 || !msgs[0].TLS {
			t.Fatalf("server got %+v", msgs)
		}
	})
}

func TestRunDeliversOnEnqueue(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := startServer(t, serverOptions{})
		o := NewOutbox(db, slog.New(slog.DiscardHandler), srv.config(), nil)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			o.Run(ctx)
		}()
		// Let the first (empty) pass finish, so the mail is picked up by the wake-up and not
		// by the poll.
		time.Sleep(200 * time.Millisecond)
		mustEnqueue(t, o, simpleMail("alice@example.com"))
		deadline := time.Now().Add(pollInterval - time.Second)
		for len(srv.messages()) == 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if len(srv.messages()) != 1 {
			t.Errorf("Run did not deliver the mail on enqueue")
		}
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("Run did not stop")
		}
	})
}

func TestFold(t *testing.T) {
	long := mime.QEncoding.Encode("utf-8", strings.Repeat("Grüße ", 30))
	folded := fold(len("Subject: "), long)
	for i, line := range strings.Split(folded, "\r\n") {
		if len(line) > 78 || (i > 0 && !strings.HasPrefix(line, " ")) {
			t.Errorf("line %d = %q", i, line)
		}
	}
	if strings.ReplaceAll(folded, "\r\n", "") != long {
		t.Errorf("unfolded value differs")
	}
	if got := fold(9, "short"); got != "short" {
		t.Errorf("fold(short) = %q", got)
	}
}
