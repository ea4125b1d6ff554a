// Package notify sends e-mail through a durable outbox.
//
// Every mail is stored in the mail_outbox table first: Enqueue, or EnqueueTx inside the
// caller's transaction, so that "create a user and mail the one-time password" either
// happens completely or not at all. A background worker (Run) delivers due messages over
// SMTP. Temporary failures (4xx replies, network errors) are retried with exponential
// backoff (30 s, 1 min, 2 min, … capped at 1 h) up to MaxAttempts; permanent failures (5xx
// replies) fail at once. The last error is stored with the message.
//
// Several server instances may share the database: a worker claims a message atomically
// (pending → sending) before it sends it, so each message is sent by one instance. A
// message left in sending for more than 10 minutes (its instance died mid-send) is
// claimable again.
//
// Without SMTP configured, mails are not lost: the worker marks them held and logs their
// recipient and subject at INFO — never the body, which may carry a reset link or a
// one-time password. Administrators read held mails, body included, in the Administration
// area (GET /admin/outbox), so a local user can still finish a password reset.
//
// Held messages stay held when SMTP is configured later (a restart with SMTP settings):
// they may be stale (an expired reset link) or already passed on by hand, so they are not
// sent behind the administrator's back. An administrator re-queues a held (or failed)
// message with Retry (POST /admin/outbox/{id}/retry).
//
// Users may opt out of e-mail notifications. The opt-out is checked when a Notification
// mail is delivered (not when it is enqueued); such a mail is marked skipped and never sent.
// Transactional mails (password reset, one-time password) are always sent.
package notify

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"portalwright/internal/apperr"
	"portalwright/internal/store"
)

// Kind says whether a mail honours the recipient's opt-out.
type Kind string

const (
	Transactional Kind = "transactional" // password reset, one-time password: always sent
	Notification  Kind = "notification"  // admin e-mails, activity: skipped when the user opted out
)

// Message statuses.
const (
	StatusPending = "pending" // waiting to be sent (again)
	StatusSending = "sending" // claimed by a worker
	StatusSent    = "sent"    // accepted by the SMTP server
	StatusFailed  = "failed"  // permanent error, or MaxAttempts temporary ones
	StatusHeld    = "held"    // SMTP not configured: kept for administrators
	StatusSkipped = "skipped" // notification to a user who opted out
)

// Statuses lists every status, for validating filters.
var Statuses = []string{StatusPending, StatusSending, StatusSent, StatusFailed, StatusHeld, StatusSkipped}

// MaxAttempts is how many delivery attempts a message gets before it fails.
const MaxAttempts = 8

const (
	baseBackoff   = 30 * time.Second
	maxBackoff    = time.Hour
	staleClaim    = 10 * time.Minute       // a sending message older than this is claimable again
	pollInterval  = 5 * time.Second        // Run's pass interval without wake-ups
	wakeDelay     = 100 * time.Millisecond // lets the enqueuing transaction commit before a pass
	batchSize     = 50
	maxBatches    = 100 // per DeliverDue pass, a guard against endless loops
	maxErrorLen   = 1000
	maxSubjectLen = 500 // runes
	maxAddressLen = 254
)

// ErrInvalidMail is wrapped by every validation error of Enqueue/EnqueueTx. The returned
// error is also an *apperr.Error (400 VALIDATION_ERROR).
var ErrInvalidMail = errors.New("notify: invalid mail")

// Errors of Retry, as API errors.
var (
	ErrNotFound    = apperr.NotFound("MAIL_NOT_FOUND", "The e-mail was not found.")
	ErrAlreadySent = apperr.Conflict("MAIL_ALREADY_SENT", "The e-mail was already sent.")
	ErrSending     = apperr.Conflict("MAIL_SENDING", "The e-mail is being sent right now. Try again in a moment.")
)

// Mail is a message to enqueue.
type Mail struct {
	To      string // address
	ToName  string // optional display name
	Subject string
	Text    string // plain-text body
	UserID  int64  // recipient user id, 0 when not a user; used for the opt-out check
	Kind    Kind
}

// Message is a stored mail as administrators see it.
type Message struct {
	ID            int64      `json:"id"`
	Kind          Kind       `json:"kind"`
	UserID        *int64     `json:"userId"`
	To            string     `json:"to"`
	ToName        string     `json:"toName"`
	Subject       string     `json:"subject"`
	Text          string     `json:"text"`
	Status        string     `json:"status"`
	Attempts      int        `json:"attempts"`
	LastError     string     `json:"lastError"`
	CreatedAt     time.Time  `json:"createdAt"`
	NextAttemptAt *time.Time `json:"nextAttemptAt"`
	SentAt        *time.Time `json:"sentAt"`
}

// Filter selects messages for List; zero values select everything.
type Filter struct {
	Status string // one of Statuses
	To     string // case-insensitive substring of the recipient address
	Limit  int    // default 100, at most 1000
}

// OptOut tells whether a user opted out of notification e-mails.
type OptOut func(ctx context.Context, userID int64) (bool, error)

// Outbox stores mails and delivers them.
type Outbox struct {
	db     *store.DB
	log    *slog.Logger
	smtp   SMTPConfig
	from   *mail.Address // parsed smtp.From; nil when SMTP is not (validly) configured
	optOut OptOut
	wake   chan struct{}
	now    func() time.Time // injectable for tests
	send   func(ctx context.Context, cfg SMTPConfig, from, to string, msg []byte) error
}

// NewOutbox returns an outbox on db. With smtp not Enabled (or an unparsable From) mails
// are held; optOut may be nil (nobody opted out).
func NewOutbox(db *store.DB, log *slog.Logger, smtp SMTPConfig, optOut OptOut) *Outbox {
	if log == nil {
		log = slog.Default()
	}
	o := &Outbox{db: db, log: log, smtp: smtp, optOut: optOut, wake: make(chan struct{}, 1), now: time.Now, send: sendSMTP}
	if smtp.Enabled() {
		from, err := mail.ParseAddress(smtp.From)
		if err != nil {
			log.Error("mail: the SMTP from address is invalid; e-mails are held in the outbox", "from", smtp.From, "error", err)
		} else {
			o.from = from
		}
	} else {
		log.Info("mail: SMTP is not configured; e-mails are held in the outbox for administrators")
	}
	return o
}

// Configured tells whether the outbox can deliver (SMTP enabled with a valid From).
func (o *Outbox) Configured() bool { return o.from != nil }

func (o *Outbox) utcNow() time.Time { return o.now().UTC() }

// Enqueue validates m and stores it for delivery; it returns the message id.
func (o *Outbox) Enqueue(ctx context.Context, m Mail) (int64, error) {
	if err := validate(&m); err != nil {
		return 0, err
	}
	var id int64
	err := o.db.WithTx(ctx, func(tx *store.Tx) error {
		var err error
		id, err = o.EnqueueTx(ctx, tx, m)
		return err
	})
	if err != nil {
		return 0, err
	}
	o.signal()
	return id, nil
}

// EnqueueTx is Enqueue inside the caller's transaction: the mail exists only if tx commits.
func (o *Outbox) EnqueueTx(ctx context.Context, tx *store.Tx, m Mail) (int64, error) {
	if err := validate(&m); err != nil {
		return 0, err
	}
	var userID *int64
	if m.UserID != 0 {
		userID = &m.UserID
	}
	now := o.utcNow()
	var id int64
	err := tx.QueryRowContext(ctx, `INSERT INTO mail_outbox (kind, user_id, recipient, recipient_name, subject, body,
		message_key, status, attempts, last_error, created_at, next_attempt_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, '', ?, ?) RETURNING id`,
		string(m.Kind), userID, m.To, m.ToName, m.Subject, m.Text, randomHex(16), StatusPending, now, now).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("enqueue mail: %w", err)
	}
	// The worker waits wakeDelay after a signal, so usually the transaction has committed by
	// then; otherwise the next poll picks the message up.
	o.signal()
	return id, nil
}

func (o *Outbox) signal() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

func invalid(msg string) error {
	return apperr.Validation(msg).WithCause(ErrInvalidMail)
}

// validate checks m and trims the recipient address.
func validate(m *Mail) error {
	if m.Kind != Transactional && m.Kind != Notification {
		return invalid("The e-mail kind must be transactional or notification.")
	}
	for _, f := range []struct{ name, v string }{{"recipient", m.To}, {"recipient name", m.ToName}, {"subject", m.Subject}} {
		if hasControl(f.v) {
			return invalid("The e-mail " + f.name + " must not contain line breaks or control characters.")
		}
		if !utf8.ValidString(f.v) {
			return invalid("The e-mail " + f.name + " is not valid text.")
		}
	}
	m.To = strings.TrimSpace(m.To)
	if m.To == "" {
		return invalid("The e-mail recipient is required.")
	}
	a, err := mail.ParseAddress(m.To)
	if err != nil || a.Name != "" || a.Address != m.To || len(m.To) > maxAddressLen {
		return invalid("The e-mail recipient '" + m.To + "' is not a valid e-mail address.")
	}
	if strings.TrimSpace(m.Subject) == "" {
		return invalid("The e-mail subject is required.")
	}
	if utf8.RuneCountInString(m.Subject) > maxSubjectLen || utf8.RuneCountInString(m.ToName) > maxSubjectLen {
		return invalid("The e-mail subject or recipient name is too long.")
	}
	if !utf8.ValidString(m.Text) {
		return invalid("The e-mail body is not valid text.")
	}
	if m.UserID < 0 {
		return invalid("The e-mail user id must not be negative.")
	}
	return nil
}

// hasControl reports ASCII control characters (CR and LF above all: header injection);
// a tab is allowed.
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t') || c == 0x7f {
			return true
		}
	}
	return false
}

// Run delivers due messages until ctx is done: after every Enqueue/Retry and every few
// seconds.
func (o *Outbox) Run(ctx context.Context) {
	t := time.NewTicker(pollInterval)
	defer t.Stop()
	for {
		if _, err := o.DeliverDue(ctx); err != nil && ctx.Err() == nil {
			o.log.Error("mail: delivery pass failed", "error", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-o.wake:
			select {
			case <-ctx.Done():
				return
			case <-time.After(wakeDelay):
			}
		}
	}
}

// DeliverDue makes one pass over the due messages (pending and due, or stuck in sending)
// and returns how many it sent. Delivery failures are recorded on the messages; the error
// is a database failure or ctx's.
func (o *Outbox) DeliverDue(ctx context.Context) (int, error) {
	sent := 0
	for range maxBatches {
		ids, err := o.dueIDs(ctx)
		if err != nil {
			return sent, err
		}
		for _, id := range ids {
			if err := ctx.Err(); err != nil {
				return sent, err
			}
			ok, err := o.deliver(ctx, id)
			if err != nil {
				return sent, err
			}
			if ok {
				sent++
			}
		}
		if len(ids) < batchSize {
			break
		}
	}
	return sent, nil
}

const dueCondition = `((status = 'pending' AND next_attempt_at <= ?) OR (status = 'sending' AND claimed_at <= ?))`

func (o *Outbox) dueIDs(ctx context.Context) ([]int64, error) {
	now := o.utcNow()
	return o.db.Int64s(ctx, `SELECT id FROM mail_outbox WHERE `+dueCondition+
		` ORDER BY next_attempt_at, id LIMIT `+strconv.Itoa(batchSize), now, now.Add(-staleClaim))
}

// claimed is a message a worker owns while it handles it.
type claimed struct {
	id         int64
	token      string
	kind       Kind
	userID     *int64
	to, toName string
	subject    string
	text       string
	messageKey string
	attempts   int
	createdAt  time.Time
}

// result is how a claimed message ends.
type result struct {
	status    string
	attempts  int
	lastError string
	next      *time.Time
	sentAt    *time.Time
}

// deliver claims message id and handles it; sent tells whether it went out.
func (o *Outbox) deliver(ctx context.Context, id int64) (sent bool, err error) {
	c, ok, err := o.claim(ctx, id)
	if err != nil || !ok {
		return false, err
	}
	res := o.handle(ctx, c)
	if err := o.finish(ctx, c, res); err != nil {
		return false, err
	}
	return res.status == StatusSent, nil
}

// claim takes message id if it is still due, atomically: of several workers racing for it
// exactly one changes the row.
func (o *Outbox) claim(ctx context.Context, id int64) (*claimed, bool, error) {
	now := o.utcNow()
	token := randomHex(12)
	res, err := o.db.ExecContext(ctx, `UPDATE mail_outbox SET status = 'sending', claimed_at = ?, claim_token = ?
		WHERE id = ? AND `+dueCondition, now, token, id, now, now.Add(-staleClaim))
	if err != nil {
		return nil, false, fmt.Errorf("claim mail %d: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return nil, false, err
	}
	c := &claimed{id: id, token: token}
	var kind string
	err = o.db.QueryRowContext(ctx, `SELECT kind, user_id, recipient, recipient_name, subject, body, message_key, attempts, created_at
		FROM mail_outbox WHERE id = ? AND claim_token = ?`, id, token).
		Scan(&kind, &c.userID, &c.to, &c.toName, &c.subject, &c.text, &c.messageKey, &c.attempts, &c.createdAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil // taken over in the meantime
	}
	if err != nil {
		return nil, false, fmt.Errorf("read claimed mail %d: %w", id, err)
	}
	c.kind = Kind(kind)
	c.createdAt = c.createdAt.UTC()
	return c, true, nil
}

// handle decides the fate of a claimed message: skipped, held, sent, or failed / retried.
func (o *Outbox) handle(ctx context.Context, c *claimed) result {
	if c.kind == Notification && c.userID != nil && o.optOut != nil {
		out, err := o.optOut(ctx, *c.userID)
		if err != nil {
			return o.failed(ctx, c, fmt.Errorf("opt-out lookup: %w", err))
		}
		if out {
			o.log.Info("mail: skipped, the user opted out of notifications", "id", c.id, "user_id", *c.userID)
			return result{status: StatusSkipped, attempts: c.attempts}
		}
	}
	if !o.Configured() {
		// Recipient and subject only: the body may hold a reset link or one-time password.
		o.log.Info("mail: held, SMTP is not configured; administrators find it under Administration (outbox)",
			"id", c.id, "to", c.to, "subject", c.subject)
		return result{status: StatusHeld, attempts: c.attempts}
	}
	if err := o.send(ctx, o.smtp, o.from.Address, c.to, buildMessage(*o.from, c)); err != nil {
		return o.failed(ctx, c, err)
	}
	now := o.utcNow()
	o.log.Info("mail: sent", "id", c.id, "to", c.to, "attempts", c.attempts+1)
	return result{status: StatusSent, attempts: c.attempts + 1, sentAt: &now}
}

// failed is the result of a failed attempt: failed at once for a permanent error or after
// MaxAttempts, else pending again after a backoff.
func (o *Outbox) failed(ctx context.Context, c *claimed, err error) result {
	now := o.utcNow()
	msg := truncate(err.Error())
	if ctx.Err() != nil {
		// Shutting down: not the message's fault, so the attempt does not count.
		return result{status: StatusPending, attempts: c.attempts, lastError: truncate("interrupted: " + err.Error()), next: &now}
	}
	attempts := c.attempts + 1
	switch {
	case isPermanent(err):
		o.log.Error("mail: failed permanently", "id", c.id, "to", c.to, "error", err)
		return result{status: StatusFailed, attempts: attempts, lastError: msg}
	case attempts >= MaxAttempts:
		o.log.Error("mail: failed, giving up", "id", c.id, "to", c.to, "attempts", attempts, "error", err)
		return result{status: StatusFailed, attempts: attempts, lastError: msg}
	default:
		next := now.Add(backoff(attempts))
		o.log.Warn("mail: delivery failed, will retry", "id", c.id, "to", c.to, "attempts", attempts, "next_attempt_at", next, "error", err)
		return result{status: StatusPending, attempts: attempts, lastError: msg, next: &next}
	}
}

// finish records the result, if the message is still ours (a worker that took longer than
// staleClaim may have lost it to another).
func (o *Outbox) finish(ctx context.Context, c *claimed, r result) error {
	// Record the outcome even when ctx was cancelled during the send.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	res, err := o.db.ExecContext(ctx, `UPDATE mail_outbox SET status = ?, attempts = ?, last_error = ?, next_attempt_at = ?,
		sent_at = ?, claimed_at = NULL, claim_token = '' WHERE id = ? AND status = 'sending' AND claim_token = ?`,
		r.status, r.attempts, r.lastError, r.next, r.sentAt, c.id, c.token)
	if err != nil {
		return fmt.Errorf("record mail %d: %w", c.id, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		o.log.Warn("mail: the message was taken over by another worker before its result was recorded", "id", c.id, "status", r.status)
	}
	return nil
}

// backoff is the wait after the given number of failed attempts: 30 s × 2^(attempts-1),
// capped at one hour.
func backoff(attempts int) time.Duration {
	if attempts < 1 {
		return baseBackoff
	}
	if attempts > 20 {
		return maxBackoff
	}
	return min(baseBackoff<<(attempts-1), maxBackoff)
}

func truncate(s string) string {
	if len(s) <= maxErrorLen {
		return s
	}
	s = s[:maxErrorLen]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}

const messageColumns = `id, kind, user_id, recipient, recipient_name, subject, body, status, attempts, last_error,
	created_at, next_attempt_at, sent_at`

// List returns matching messages, newest first.
func (o *Outbox) List(ctx context.Context, f Filter) ([]Message, error) {
	q := `SELECT ` + messageColumns + ` FROM mail_outbox WHERE 1=1`
	var args []any
	if f.Status != "" {
		q += " AND status = ?"
		args = append(args, f.Status)
	}
	if f.To != "" {
		q += ` AND lower(recipient) LIKE ? ESCAPE '\'`
		args = append(args, "%"+store.EscapeLike(strings.ToLower(f.To))+"%")
	}
	if f.Limit <= 0 {
		f.Limit = 100
	}
	f.Limit = min(f.Limit, 1000)
	q += " ORDER BY id DESC LIMIT " + strconv.Itoa(f.Limit)
	rows, err := o.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Message{}
	for rows.Next() {
		m, err := scanMessage(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// Get returns one message.
func (o *Outbox) Get(ctx context.Context, id int64) (Message, error) {
	m, err := scanMessage(o.db.QueryRowContext(ctx, `SELECT `+messageColumns+` FROM mail_outbox WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Message{}, ErrNotFound
	}
	return m, err
}

func scanMessage(row interface{ Scan(...any) error }) (Message, error) {
	var m Message
	var kind string
	var next, sent sql.NullTime
	if err := row.Scan(&m.ID, &kind, &m.UserID, &m.To, &m.ToName, &m.Subject, &m.Text, &m.Status, &m.Attempts,
		&m.LastError, &m.CreatedAt, &next, &sent); err != nil {
		return Message{}, err
	}
	m.Kind = Kind(kind)
	m.CreatedAt = m.CreatedAt.UTC()
	m.NextAttemptAt = store.TimeOrNil(next)
	m.SentAt = store.TimeOrNil(sent)
	return m, nil
}

// Retry puts a failed, held, skipped or pending message back to pending, due now, with its
// attempts reset. It returns ErrNotFound, ErrAlreadySent, or ErrSending while a worker holds it.
func (o *Outbox) Retry(ctx context.Context, id int64) error {
	res, err := o.db.ExecContext(ctx, `UPDATE mail_outbox SET status = 'pending', attempts = 0, next_attempt_at = ?,
		claimed_at = NULL, claim_token = '' WHERE id = ? AND status IN ('pending', 'failed', 'held', 'skipped')`, o.utcNow(), id)
	if err != nil {
		return fmt.Errorf("retry mail %d: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 1 {
		o.signal()
		return nil
	}
	m, err := o.Get(ctx, id)
	if err != nil {
		return err
	}
	if m.Status == StatusSent {
		return ErrAlreadySent
	}
	return ErrSending
}

// UserOptOut is an OptOut reading users.opt_out_notification. A user that no longer exists
// counts as opted out: a notification has nobody to go to.
func UserOptOut(db *store.DB) OptOut {
	return func(ctx context.Context, userID int64) (bool, error) {
		var out bool
		err := db.QueryRowContext(ctx, `SELECT opt_out_notification FROM users WHERE id = ?`, userID).Scan(&out)
		if errors.Is(err, sql.ErrNoRows) {
			return true, nil
		}
		return out, err
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go ≥ 1.24)
	return hex.EncodeToString(b)
}
