package identity

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"portalwright/internal/apperr"
	"portalwright/internal/store"
)

// Sign-in throttle (issue 8, item 4). Every password check first takes an attempt from a few
// buckets in one database transaction (so parallel attempts, on any instance, cannot race past
// a limit); a bucket gives a number of attempts freely, then makes each further attempt wait
// twice as long as the one before, up to a ceiling — a back-off that slows guessing, never a
// wall that locks the owner out:
//
//   - user name + client address: the tight limit an attacker meets first;
//   - user name (any address) and client address (any user name): looser limits so an attack
//     spread over many addresses or many names is still slowed. They do not apply to an address
//     the user has signed in from with the right password before (a known client), so an
//     attacker elsewhere cannot slow the owner down at home.
//
// The right password clears the pair bucket and gives the attempt back to the looser ones.
// Unknown user names are counted exactly like known ones.

// limit is one bucket's rule.
type limit struct {
	free   int           // attempts without any delay
	base   time.Duration // the delay after the first attempt beyond free
	max    time.Duration // the longest delay
	forget time.Duration // a bucket idle this long starts over
}

var (
	pairLimit = limit{free: 5, base: time.Second, max: 15 * time.Minute, forget: time.Hour}
	userLimit = limit{free: 20, base: time.Second, max: 5 * time.Minute, forget: time.Hour}
	addrLimit = limit{free: 50, base: time.Second, max: 5 * time.Minute, forget: time.Hour}
	// Password-reset requests: per client address like sign-ins, and at most one mail per
	// user name per ResetMailInterval.
	resetAddrLimit = limit{free: 10, base: time.Second, max: 5 * time.Minute, forget: time.Hour}
	resetUserLimit = limit{free: 1, base: ResetMailInterval, max: ResetMailInterval, forget: time.Hour}
)

// ResetMailInterval is the least time between two password-reset mails for one user name;
// requests in between answer as usual and queue nothing.
const ResetMailInterval = 5 * time.Minute

// KnownClientTTL is how long a successful sign-in makes its address a known client.
const KnownClientTTL = 90 * 24 * time.Hour

// delay is the wait after the n-th attempt of a bucket (0 while n < free).
func (l limit) delay(n int) time.Duration {
	if n < l.free {
		return 0
	}
	shift := n - l.free
	if shift > 30 {
		return l.max
	}
	return min(l.base<<shift, l.max)
}

type bucket struct {
	key   string
	limit limit
}

// bucketName keeps keys bounded whatever a client sends as a user name.
func bucketName(kind, v string) string {
	if len(v) > 200 {
		v = strings.ToValidUTF8(v[:200], "") // PostgreSQL text must stay valid UTF-8
	}
	return kind + ":" + v
}

func signInBuckets(username, addr string, known bool) []bucket {
	name := usernameKey(username)
	b := []bucket{{bucketName("pair", name+"|"+addr), pairLimit}}
	if !known {
		b = append(b, bucket{bucketName("user", name), userLimit})
		if addr != "" {
			b = append(b, bucket{bucketName("addr", addr), addrLimit})
		}
	}
	return b
}

// Reserve takes one attempt from every bucket in one transaction. When a bucket is still
// waiting out a delay, nothing is taken and the longest remaining wait is returned. Rows are
// locked in key order by an upsert, so concurrent reservations queue instead of deadlocking.
func (s *SQLStore) Reserve(ctx context.Context, now time.Time, buckets []bucket) (time.Duration, error) {
	buckets = slices.Clone(buckets)
	slices.SortFunc(buckets, func(a, b bucket) int {
		switch {
		case a.key < b.key:
			return -1
		case a.key > b.key:
			return 1
		}
		return 0
	})
	var wait time.Duration
	err := s.db.WithTx(ctx, func(tx *store.Tx) error {
		wait = 0
		counts := make([]int, len(buckets))
		for i, b := range buckets {
			var n int
			var last time.Time
			var nb sql.NullTime
			if err := tx.QueryRowContext(ctx, `INSERT INTO login_throttle (bucket, failures, last_at) VALUES (?, 0, ?)
				ON CONFLICT (bucket) DO UPDATE SET bucket = excluded.bucket
				RETURNING failures, last_at, blocked_until`, b.key, now).Scan(&n, &last, &nb); err != nil {
				return err
			}
			blocked := store.TimeOrNil(nb)
			if now.Sub(last) > b.limit.forget {
				n, blocked = 0, nil
			}
			if blocked != nil && blocked.After(now) {
				wait = max(wait, blocked.Sub(now))
			}
			counts[i] = n
		}
		if wait > 0 {
			return nil
		}
		for i, b := range buckets {
			n := counts[i] + 1
			var until *time.Time
			if d := b.limit.delay(n); d > 0 {
				t := now.Add(d)
				until = &t
			}
			if _, err := tx.ExecContext(ctx, "UPDATE login_throttle SET failures = ?, last_at = ?, blocked_until = ? WHERE bucket = ?",
				n, now, until, b.key); err != nil {
				return err
			}
		}
		return nil
	})
	return wait, err
}

// signedIn records a right password: the pair bucket is cleared, the looser buckets get the
// attempt back, and the address becomes a known client of the user.
func (s *SQLStore) signedIn(ctx context.Context, userID int64, username, addr string, now time.Time) error {
	return s.db.WithTx(ctx, func(tx *store.Tx) error {
		name := usernameKey(username)
		if _, err := tx.ExecContext(ctx, "DELETE FROM login_throttle WHERE bucket = ?", bucketName("pair", name+"|"+addr)); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE login_throttle SET failures = failures - 1 WHERE bucket IN (?, ?) AND failures > 0",
			bucketName("user", name), bucketName("addr", addr)); err != nil {
			return err
		}
		if addr == "" {
			return nil
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO login_known_clients (user_id, addr, last_success_at) VALUES (?, ?, ?)
			ON CONFLICT (user_id, addr) DO UPDATE SET last_success_at = excluded.last_success_at`, userID, addr, now)
		return err
	})
}

// knownClient tells whether the user name has signed in from the address recently.
func (s *SQLStore) knownClient(ctx context.Context, username, addr string, since time.Time) (bool, error) {
	if addr == "" {
		return false, nil
	}
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM login_known_clients k JOIN users u ON u.id = k.user_id
		WHERE u.username_key = ? AND k.addr = ? AND k.last_success_at > ?`, usernameKey(username), addr, since).Scan(&n)
	return n > 0, err
}

// sweepThrottle forgets buckets idle for long and known clients not seen for KnownClientTTL.
func (s *SQLStore) sweepThrottle(ctx context.Context, now time.Time) error {
	if _, err := s.db.ExecContext(ctx, "DELETE FROM login_throttle WHERE last_at < ?", now.Add(-2*time.Hour)); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, "DELETE FROM login_known_clients WHERE last_success_at < ?", now.Add(-KnownClientTTL))
	return err
}

// lastSweep is when this process last swept the throttle tables (unix seconds).
var lastSweep atomic.Int64

func (s *Service) sweep(ctx context.Context) {
	now := s.now()
	last := lastSweep.Load()
	if now.Unix()-last < 600 || !lastSweep.CompareAndSwap(last, now.Unix()) {
		return
	}
	_ = s.store.sweepThrottle(ctx, now)
}

// reserveSignIn takes an attempt for a password check of the user name from the address, or
// answers 429 with the time to wait.
func (s *Service) reserveSignIn(ctx context.Context, username, addr string) error {
	now := s.now()
	known, err := s.store.knownClient(ctx, username, addr, now.Add(-KnownClientTTL))
	if err != nil {
		return err
	}
	wait, err := s.store.Reserve(ctx, now, signInBuckets(username, addr, known))
	if err != nil {
		return err
	}
	if wait > 0 {
		return tooMany(MsgTooManyAttempts, wait)
	}
	return nil
}

// signInSucceeded is called once the password (or one-time password) was right.
func (s *Service) signInSucceeded(ctx context.Context, u *User, username, addr string) {
	_ = s.store.signedIn(ctx, u.ID, username, addr, s.now())
	s.sweep(ctx)
}

// tooMany is the 429 answer, with the wait in the message, in data.retryAfter (seconds) and
// in the Retry-After header the handlers set from it.
func tooMany(format string, wait time.Duration) *apperr.Error {
	secs := int((wait + time.Second - 1) / time.Second)
	return apperr.TooManyRequests("TOO_MANY_ATTEMPTS", fmt.Sprintf(format, waitText(secs))).
		WithData(map[string]int{"retryAfter": secs})
}

func waitText(secs int) string {
	switch {
	case secs <= 1:
		return "1 second"
	case secs < 120:
		return strconv.Itoa(secs) + " seconds"
	default:
		return strconv.Itoa((secs+59)/60) + " minutes"
	}
}
