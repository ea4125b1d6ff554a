package identity

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"portalwright/internal/apperr"
	"portalwright/internal/audit"
	"portalwright/internal/httpx"
	"portalwright/internal/store"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
)

// clock is a settable time for the throttle tests: back-off is measured in it, so the tests
// do not depend on how fast the machine is.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time          { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func throttled(t *testing.T, db *store.DB) (*Service, *captureMailer, *audit.Log, *clock) {
	t.Helper()
	svc, mailer, log := accountService(t, db)
	c := &clock{t: time.Now().UTC()}
	svc.now = c.now
	return svc, mailer, log, c
}

func retryAfter(t *testing.T, err error) time.Duration {
	t.Helper()
	e := testkit.APIError(t, err, http.StatusTooManyRequests, "TOO_MANY_ATTEMPTS")
	d, ok := e.Data.(map[string]int)
	if !ok || d["retryAfter"] <= 0 {
		t.Fatalf("429 without retryAfter: %+v", e)
	}
	return time.Duration(d["retryAfter"]) * time.Second
}

// TestParallelWrongPasswordsAreCountedAtomically (issue 8, item 4): 40 wrong passwords sent at
// once for one user from one address are not all checked. Before, every attempt read the
// failure count before any of them wrote it, so all 40 were checked despite the limit of 10.
func TestParallelWrongPasswordsAreCountedAtomically(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc, _, log, _ := throttled(t, db)
		if _, err := svc.CreateUser(ctx, NewUser{UserName: "jo", Password: "jo-password"}); err != nil {
			t.Fatal(err)
		}
		const attempts = 40
		var wg sync.WaitGroup
		var mu sync.Mutex
		answers := map[int]int{}
		start := make(chan struct{})
		for range attempts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, err := svc.Login(ctx, "jo", "wrong-password", ClientInfo{Addr: "203.0.113.9"})
				mu.Lock()
				answers[apperr.AsError(err).Status]++
				mu.Unlock()
			}()
		}
		close(start)
		wg.Wait()
		checked, _ := log.List(ctx, audit.Filter{Action: "LOGIN_FAILED"})
		if len(checked) > pairLimit.free || answers[http.StatusUnauthorized] != len(checked) {
			t.Fatalf("%d of %d parallel attempts were checked (answers %v); at most %d may be", len(checked), attempts, answers, pairLimit.free)
		}
		if answers[http.StatusUnauthorized]+answers[http.StatusTooManyRequests] != attempts {
			t.Fatalf("answers %v", answers)
		}
		limited, _ := log.List(ctx, audit.Filter{Action: "LOGIN_RATE_LIMITED"})
		if len(limited) != answers[http.StatusTooManyRequests] {
			t.Fatalf("%d LOGIN_RATE_LIMITED entries for %d refusals", len(limited), answers[http.StatusTooManyRequests])
		}
	})
}

// TestSignInBackOffSlowsTheAttackerNotTheOwner: failures earn a growing wait, never a wall;
// the owner's right password works once the wait is over, from another address at once, and
// from an address they signed in from before even while an attack spread over many addresses
// slows everybody else down for that name.
func TestSignInBackOffSlowsTheAttackerNotTheOwner(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc, _, _, clk := throttled(t, db)
		if _, err := svc.CreateUser(ctx, NewUser{UserName: "kim", Password: "kim-password"}); err != nil {
			t.Fatal(err)
		}
		home := ClientInfo{Addr: "198.51.100.20"}
		if _, err := svc.Login(ctx, "kim", "kim-password", home); err != nil {
			t.Fatal(err)
		}

		attacker := ClientInfo{Addr: "203.0.113.66"}
		for range pairLimit.free {
			_, err := svc.Login(ctx, "kim", "guess", attacker)
			testkit.APIError(t, err, http.StatusUnauthorized, CodeInvalidCredentials)
		}
		_, err := svc.Login(ctx, "kim", "kim-password", attacker)
		e := testkit.APIError(t, err, http.StatusTooManyRequests, "TOO_MANY_ATTEMPTS")
		if e.Message != "Too many failed sign-in attempts. Please wait 1 second and try again." {
			t.Fatalf("message %q", e.Message)
		}
		// Each further failure doubles the wait.
		var waits []time.Duration
		for range 4 {
			clk.advance(retryAfter(t, err))
			_, err = svc.Login(ctx, "kim", "guess", attacker)
			testkit.APIError(t, err, http.StatusUnauthorized, CodeInvalidCredentials)
			_, err = svc.Login(ctx, "kim", "guess", attacker)
			waits = append(waits, retryAfter(t, err))
		}
		if waits[0] != 2*time.Second || waits[3] != 16*time.Second {
			t.Fatalf("waits %v, want 2s 4s 8s 16s", waits)
		}
		// Another address is not held back by this pair, and the owner at home is not either.
		if _, err := svc.Login(ctx, "kim", "kim-password", ClientInfo{Addr: "192.0.2.44"}); err != nil {
			t.Fatalf("another address: %v", err)
		}
		if _, err := svc.Login(ctx, "kim", "kim-password", home); err != nil {
			t.Fatalf("home: %v", err)
		}
		// Waiting out the delay lets even the attacker's address in with the right password,
		// and that success clears its pair.
		clk.advance(waits[3])
		if _, err := svc.Login(ctx, "kim", "kim-password", attacker); err != nil {
			t.Fatalf("after the wait: %v", err)
		}
		_, err = svc.Login(ctx, "kim", "guess", attacker)
		testkit.APIError(t, err, http.StatusUnauthorized, CodeInvalidCredentials)

		t.Run("an attack from many addresses", func(t *testing.T) {
			clk.advance(2 * time.Hour) // everything above is forgotten
			for i := range userLimit.free + 5 {
				_, err := svc.Login(ctx, "kim", "guess", ClientInfo{Addr: "203.0.113." + strconv.Itoa(100+i)})
				if i < userLimit.free {
					testkit.APIError(t, err, http.StatusUnauthorized, CodeInvalidCredentials)
				}
			}
			// Slowed for every address that never signed in as kim …
			_, err := svc.Login(ctx, "kim", "kim-password", ClientInfo{Addr: "192.0.2.200"})
			retryAfter(t, err)
			// … but not for kim at home.
			if _, err := svc.Login(ctx, "kim", "kim-password", home); err != nil {
				t.Fatalf("the owner at a known address must not be slowed: %v", err)
			}
		})

		t.Run("unknown names are counted like known ones", func(t *testing.T) {
			clk.advance(2 * time.Hour)
			for _, name := range []string{"kim", "nobody-here", strings.Repeat("é", 150)} {
				addr := ClientInfo{Addr: "203.0.113.250"}
				var got []int
				for range pairLimit.free + 2 {
					_, err := svc.Login(ctx, name, "guess", addr)
					got = append(got, apperr.AsError(err).Status)
				}
				want := "401 401 401 401 401 429 429"
				if s := intsText(got); s != want {
					t.Fatalf("%s: answers %s, want %s", name, s, want)
				}
			}
		})
	})
}

func intsText(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, " ")
}

// TestPasswordResetRevealsNoNamesAndMailsOncePerUser (issue 8, item 4): a reset request answers
// the same for known and unknown user names however often it is sent (before, unknown names
// met 429 after 10 requests and known names never did), and at most one mail per user name is
// queued per ResetMailInterval (before, 30 requests queued 30 mails).
func TestPasswordResetRevealsNoNamesAndMailsOncePerUser(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc, mailer, log, clk := throttled(t, db)
		u, err := svc.CreateUser(ctx, NewUser{UserName: "lee", Password: "lee-password", FirstName: "Lee", Email: "lee@example.com"})
		if err != nil {
			t.Fatal(err)
		}

		answers := func(name, addr string) []string {
			var out []string
			for range 30 {
				err := svc.RequestPasswordReset(ctx, name, "brand-new-pass", ClientInfo{Addr: addr})
				if err == nil {
					out = append(out, "ok")
					continue
				}
				b, _ := json.Marshal(apperr.AsError(err))
				out = append(out, string(b))
			}
			return out
		}
		known, unknown := answers("lee", "198.51.100.1"), answers("nobody-at-all", "198.51.100.2")
		if strings.Join(known, "\n") != strings.Join(unknown, "\n") {
			t.Fatalf("known and unknown names answer differently:\n%v\n%v", known, unknown)
		}
		if known[resetAddrLimit.free-1] != "ok" || known[resetAddrLimit.free] == "ok" {
			t.Fatalf("the per-address cap: %v", known)
		}
		if mailer.count() != 1 {
			t.Fatalf("%d mails queued, want 1", mailer.count())
		}

		// Thirty requests from thirty addresses: every answer a success, still one mail.
		clk.advance(2 * time.Hour)
		before := mailer.count()
		for i := range 30 {
			if err := svc.RequestPasswordReset(ctx, "lee", "brand-new-pass", ClientInfo{Addr: "192.0.2." + strconv.Itoa(i+1)}); err != nil {
				t.Fatal(err)
			}
		}
		if mailer.count() != before+1 {
			t.Fatalf("%d mails queued by 30 requests, want 1", mailer.count()-before)
		}
		clk.advance(ResetMailInterval)
		if err := svc.RequestPasswordReset(ctx, "lee", "brand-new-pass", ClientInfo{Addr: "192.0.2.1"}); err != nil || mailer.count() != before+2 {
			t.Fatalf("after the interval a new mail goes out: %v, %d", err, mailer.count()-before)
		}
		entries, _ := log.List(ctx, audit.Filter{Action: "PASSWORD_RESET_REQUESTED", EntityID: strconv.FormatInt(u.ID, 10), Limit: 1000})
		throttledEntries := 0
		for _, e := range entries {
			if strings.HasPrefix(e.Details, "throttled") {
				throttledEntries++
			}
		}
		if throttledEntries == 0 {
			t.Fatal("suppressed requests are audited")
		}
	})
}

// TestClientsBehindOneProxyAreNotLockedTogether: with the proxy trusted, one client's failures
// behind it do not slow another client behind the same proxy, and the 429 carries Retry-After.
func TestClientsBehindOneProxyAreNotLockedTogether(t *testing.T) {
	db := storetest.SQLite(t)
	ctx := context.Background()
	svc, _, _, _ := throttled(t, db)
	if _, err := svc.CreateUser(ctx, NewUser{UserName: "max", Password: "max-password"}); err != nil {
		t.Fatal(err)
	}
	h := NewHandler(svc)
	proxies := httpx.TrustedProxies{netip.MustParsePrefix("10.0.0.1/32")} // as the router does
	login := func(client, password string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/user/login", strings.NewReader(`{"username":"max","password":"`+password+`"}`))
		r.RemoteAddr = "10.0.0.1:40000"
		r.Header.Set("X-Forwarded-For", client)
		w := httptest.NewRecorder()
		httpx.HandlerFunc(h.login).ServeHTTP(w, proxies.WithClientAddr(r))
		return w
	}
	for range pairLimit.free {
		if w := login("203.0.113.1", "wrong"); w.Code != http.StatusUnauthorized {
			t.Fatalf("attempt answered %d", w.Code)
		}
	}
	w := login("203.0.113.1", "max-password")
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "1" {
		t.Fatalf("the guessing client: %d Retry-After %q", w.Code, w.Header().Get("Retry-After"))
	}
	if w := login("198.51.100.2", "max-password"); w.Code != http.StatusOK {
		t.Fatalf("another client behind the same proxy: %d %s", w.Code, w.Body)
	}
}
