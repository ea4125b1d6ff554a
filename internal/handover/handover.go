// Package handover hands approved loadables over to downstream systems (issue 14 item 2;
// spec 3 §7 unity/{x} and scmdb/{x}): an HTTP endpoint that receives the archive, or a
// directory the archive is dropped into. The targets are configured in a JSON file (Load).
//
// Every hand-over is a row of handover_deliveries first (Enqueue), one per (loadable,
// target); a background worker (Run) sends the due ones, like the mail outbox of
// internal/notify: a worker claims a delivery atomically (QUEUED → SENDING) before it sends
// it, so several instances sharing the database never send the same delivery at the same
// time; while it sends it refreshes its claim (a heartbeat), and a delivery whose claim was
// not refreshed for 10 minutes (its instance died) is claimable again. Temporary failures
// (5xx, 408, 429, network errors, an unreachable directory) are retried with exponential
// backoff (30 s doubling, capped at 1 h) up to MaxAttempts, then the delivery is FAILED;
// permanent failures (other 4xx, a redirect, a different file already in the directory, an
// archive whose SHA-256 no longer matches) fail at once. Every attempt is recorded in
// handover_attempts. Retry (or Enqueue again) puts a FAILED delivery back in the queue.
//
// Safety rules:
//
//   - Secrets (a target's HMAC key) are never logged, stored in the database, returned by
//     Targets or written into errors; URLs are logged and shown without their query.
//   - Idempotency: Enqueue returns the existing delivery of a (loadable, target) instead of
//     making a second one, so a package is never queued twice. An HTTP delivery carries the
//     same delivery id (X-Portalwright-Delivery) on every attempt, so a receiver that got a
//     package but whose answer was lost recognises the repeat; receivers must de-duplicate on
//     it. A directory delivery whose file is already there with the same SHA-256 counts as
//     delivered.
//   - Redirects are refused (a 3xx fails the delivery): the package and its signature go only
//     to the configured URL.
//   - The directory drop is atomic: the manifest and then the archive are written to hidden
//     temporary names in the target directory, synced and linked (or renamed) into place; a
//     different existing file of the same name is never overwritten.
//   - Archives are streamed from disk, never held in memory, and their SHA-256 is checked
//     against the approved one before each attempt.
package handover

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"portalwright/internal/apperr"
	"portalwright/internal/notice"
	"portalwright/internal/store"
)

// Delivery statuses.
const (
	StatusQueued    = "QUEUED"
	StatusSending   = "SENDING"
	StatusDelivered = "DELIVERED"
	StatusFailed    = "FAILED"
)

// Attempt outcomes.
const (
	OutcomeDelivered   = "DELIVERED"   // the target accepted the package
	OutcomeRetry       = "RETRY"       // temporary failure, another attempt is scheduled
	OutcomeFailed      = "FAILED"      // permanent failure, or the last allowed attempt
	OutcomeInterrupted = "INTERRUPTED" // the server shut down mid-attempt; does not count
)

// MessageType is the progress notification's type (spec 3 §3 loadable upload notification).
const MessageType = "UPLOAD_LOADABLE"

// Defaults of the Service's tunables.
const (
	DefaultMaxAttempts = 8
	DefaultBackoff     = 30 * time.Second
	DefaultMaxBackoff  = time.Hour
	DefaultStaleClaim  = 10 * time.Minute
)

const (
	pollInterval    = 5 * time.Second
	wakeDelay       = 100 * time.Millisecond
	batchSize       = 50
	maxBatches      = 100
	maxErrorLen     = 1000
	maxManifestSize = 64 << 20 // the manifest of the largest package (it is stored with the delivery)
	maxTextLen      = 500
)

// Errors of the API.
var (
	ErrNotFound         = apperr.NotFound("DELIVERY_NOT_FOUND", "The hand-over delivery was not found.")
	ErrAlreadyDelivered = apperr.Conflict("DELIVERY_ALREADY_DELIVERED", "The package was already handed over to this target.")
	ErrSending          = apperr.Conflict("DELIVERY_SENDING", "The package is being handed over right now. Try again in a moment.")
)

// Package is one approved loadable ready to be handed over. The archive file is immutable
// once generated.
type Package struct {
	LoadableID  int64
	DomainID    int64
	PortalID    int64
	DomainName  string // optional, passed on in progress notifications
	PortalName  string // optional, passed on in progress notifications
	Name        string // loadable name
	Version     string // e.g. "1.2.3"
	PartNumber  string
	FileName    string // e.g. "crew-news-1.2.3.tar.gz"
	ArchivePath string // absolute path of the .tar.gz on disk
	SHA256      string // hex of the archive
	Manifest    []byte // the manifest.json bytes inside the archive (also sent alongside)
}

// Attempt is one recorded delivery attempt.
type Attempt struct {
	Attempt    int       `json:"attempt"` // 1, 2, … for the delivery
	At         time.Time `json:"at"`
	Outcome    string    `json:"outcome"`    // DELIVERED, RETRY, FAILED, INTERRUPTED
	HTTPStatus int       `json:"httpStatus"` // 0 without an HTTP answer
	Error      string    `json:"error"`
	DurationMs int64     `json:"durationMs"`
}

// Delivery is the hand-over of one loadable to one target.
type Delivery struct {
	ID            int64      `json:"id"`
	LoadableID    int64      `json:"loadableId"`
	Target        string     `json:"target"`
	System        string     `json:"system"`
	Status        string     `json:"status"` // QUEUED, SENDING, DELIVERED, FAILED
	Attempts      int        `json:"attempts"`
	LastError     string     `json:"lastError"`
	LastAttempt   *time.Time `json:"lastAttemptAt"`
	NextAttemptAt *time.Time `json:"nextAttemptAt"`
	DeliveredAt   *time.Time `json:"deliveredAt"`
	CreatedAt     time.Time  `json:"createdAt"`
	CreatedBy     int64      `json:"createdBy"`
	AttemptLog    []Attempt  `json:"attempts_log"`
}

// NotificationData is the Data of a hand-over's progress card (notice.Card, UPLOAD_LOADABLE).
type NotificationData struct {
	PortalID   int64  `json:"portalId"`
	PortalName string `json:"portalName,omitempty"`
	DomainID   int64  `json:"domainId"`
	DomainName string `json:"domainName,omitempty"`
	LoadableID int64  `json:"loadableId"`
	DeliveryID int64  `json:"deliveryId"`
	Target     string `json:"target"`
	System     string `json:"system"`
	Status     string `json:"status"` // the delivery's status
	Progress   int    `json:"progress"`
	Details    string `json:"details"`
}

// Service queues and delivers hand-overs.
type Service struct {
	// Tunables; set them before Run or DeliverDue is first called.
	MaxAttempts int           // attempts per queueing before FAILED (DefaultMaxAttempts)
	Backoff     time.Duration // wait after the first failed attempt, doubled after each (DefaultBackoff)
	MaxBackoff  time.Duration // longest wait (DefaultMaxBackoff)
	StaleClaim  time.Duration // a SENDING delivery without heartbeat this long is claimable again (DefaultStaleClaim)

	db       *store.DB
	cfg      *Config
	log      *slog.Logger
	progress notice.Publisher
	wake     chan struct{}
	now      func() time.Time
	clients  map[string]*http.Client // per http target
}

// New returns a service over db delivering to cfg's targets; cfg, log and progress may be nil.
func New(db *store.DB, cfg *Config, log *slog.Logger, progress notice.Publisher) *Service {
	if cfg == nil {
		cfg = &Config{}
	}
	if log == nil {
		log = slog.Default()
	}
	s := &Service{
		MaxAttempts: DefaultMaxAttempts,
		Backoff:     DefaultBackoff,
		MaxBackoff:  DefaultMaxBackoff,
		StaleClaim:  DefaultStaleClaim,
		db:          db, cfg: cfg, log: log, progress: progress,
		wake:    make(chan struct{}, 1),
		now:     time.Now,
		clients: map[string]*http.Client{},
	}
	for _, t := range cfg.Targets {
		if t.Kind == KindHTTP {
			s.clients[t.Name] = newHTTPClient()
		}
	}
	return s
}

func (s *Service) utcNow() time.Time { return s.now().UTC() }

// Targets returns the configured targets of system ("" for all), without secrets.
func (s *Service) Targets(system string) []Target {
	out := []Target{}
	for _, t := range s.cfg.Targets {
		if system == "" || t.System == system {
			out = append(out, t.public())
		}
	}
	return out
}

func invalid(msg string) error { return apperr.Validation(msg) }

// validatePackage checks what the worker relies on and normalises the SHA-256.
func validatePackage(p *Package) error {
	p.SHA256 = strings.ToLower(strings.TrimSpace(p.SHA256))
	switch {
	case p.LoadableID <= 0:
		return invalid("The loadable id must be a positive number.")
	case p.ArchivePath == "" || !filepath.IsAbs(p.ArchivePath):
		return invalid("The loadable's archive path must be absolute.")
	case len(p.SHA256) != 64 || !isHex(p.SHA256):
		return invalid("The loadable's archive SHA-256 must be 64 hexadecimal digits.")
	case !validFileName(p.FileName):
		return invalid("The loadable's file name must be a plain file name.")
	case len(p.Manifest) > maxManifestSize:
		return invalid("The loadable's manifest is too large to hand over.")
	case !utf8.Valid(p.Manifest) || strings.ContainsRune(string(p.Manifest), 0):
		return invalid("The loadable's manifest is not valid text.")
	}
	for _, f := range []string{p.Name, p.Version, p.PartNumber, p.PortalName, p.DomainName} {
		if len(f) > maxTextLen || hasControl(f) || !utf8.ValidString(f) {
			return invalid("The loadable's name, version, part number, portal and domain names must be short single-line text.")
		}
	}
	return nil
}

func validFileName(n string) bool {
	return n != "" && len(n) <= 255 && n == filepath.Base(n) && !strings.ContainsAny(n, `/\`) &&
		!strings.HasPrefix(n, ".") && !hasControl(n) && utf8.ValidString(n)
}

func isHex(s string) bool {
	_, err := hex.DecodeString(s)
	return err == nil
}

func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return true
		}
	}
	return false
}

// Enqueue queues pkg's hand-over to target for userID. It is idempotent per (loadable,
// target): an existing QUEUED, SENDING or DELIVERED delivery is returned as is, a FAILED one
// is queued again. An unknown target is a 400 UNKNOWN_TARGET.
func (s *Service) Enqueue(ctx context.Context, userID int64, pkg Package, target string) (*Delivery, error) {
	t, ok := s.cfg.Target(target)
	if !ok {
		return nil, apperr.BadRequest("UNKNOWN_TARGET", "The hand-over target '"+target+"' is not configured.")
	}
	if err := validatePackage(&pkg); err != nil {
		return nil, err
	}
	now := s.utcNow()
	var id int64
	var requeued, created bool
	err := s.db.WithTx(ctx, func(tx *store.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO handover_deliveries (loadable_id, domain_id, portal_id, domain_name,
			portal_name, target, system, name, version, part_number, file_name, archive_path, archive_sha256, manifest,
			status, attempts, retry_base, last_error, created_at, created_by, next_attempt_at, claim_token)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, '', ?, ?, ?, '')
			ON CONFLICT (loadable_id, target) DO NOTHING`,
			pkg.LoadableID, pkg.DomainID, pkg.PortalID, pkg.DomainName, pkg.PortalName, t.Name, t.System, pkg.Name,
			pkg.Version, pkg.PartNumber, pkg.FileName, pkg.ArchivePath, pkg.SHA256, string(pkg.Manifest),
			StatusQueued, now, userID, now)
		if err != nil {
			return fmt.Errorf("enqueue hand-over: %w", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		created = n == 1
		var status, sha string
		if err := tx.QueryRowContext(ctx, `SELECT id, status, archive_sha256 FROM handover_deliveries WHERE loadable_id = ? AND target = ?`,
			pkg.LoadableID, t.Name).Scan(&id, &status, &sha); err != nil {
			return fmt.Errorf("read hand-over: %w", err)
		}
		if created {
			return nil
		}
		if sha != pkg.SHA256 {
			// Same loadable, different archive: never hand over two packages under one delivery id.
			return apperr.Conflict("HANDOVER_PACKAGE_CHANGED", "This loadable was already handed over to '"+t.Name+"' with a different archive.")
		}
		if status != StatusFailed {
			return nil
		}
		// A failed delivery is queued again: the same row and id, so a receiver still de-duplicates.
		_, err = tx.ExecContext(ctx, `UPDATE handover_deliveries SET status = ?, retry_base = attempts, next_attempt_at = ?,
			claimed_at = NULL, claim_token = '', archive_path = ? WHERE id = ? AND status = ?`,
			StatusQueued, now, pkg.ArchivePath, id, StatusFailed)
		requeued = err == nil
		return err
	})
	if err != nil {
		return nil, err
	}
	d, err := s.get(ctx, id)
	if err != nil {
		return nil, err
	}
	if created || requeued {
		what := "Queued"
		if requeued {
			what = "Queued again"
		}
		s.report(ctx, d, pkgInfo{name: pkg.Name, version: pkg.Version, portalID: pkg.PortalID, portalName: pkg.PortalName,
			domainID: pkg.DomainID, domainName: pkg.DomainName}, "PROGRESS", 0, what+" for hand-over to "+t.Name+".")
		s.log.Info("handover: queued", "delivery_id", id, "loadable_id", pkg.LoadableID, "target", t.Name, "requeued", requeued)
		s.signal()
	}
	return d, nil
}

// Retry queues a FAILED delivery again (a QUEUED one becomes due now). It returns
// ErrNotFound, ErrAlreadyDelivered, or ErrSending while a worker holds it.
func (s *Service) Retry(ctx context.Context, deliveryID int64) (*Delivery, error) {
	now := s.utcNow()
	res, err := s.db.ExecContext(ctx, `UPDATE handover_deliveries SET status = ?, next_attempt_at = ?, claimed_at = NULL, claim_token = '',
		retry_base = CASE WHEN status = ? THEN attempts ELSE retry_base END
		WHERE id = ? AND status IN (?, ?)`, StatusQueued, now, StatusFailed, deliveryID, StatusFailed, StatusQueued)
	if err != nil {
		return nil, fmt.Errorf("retry hand-over %d: %w", deliveryID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return nil, err
	}
	d, err := s.get(ctx, deliveryID)
	if err != nil {
		return nil, err
	}
	if n == 1 {
		if info, err := s.info(ctx, deliveryID); err == nil {
			s.report(ctx, d, info, "PROGRESS", 0, "Queued again for hand-over to "+d.Target+".")
		}
		s.log.Info("handover: queued again", "delivery_id", deliveryID, "target", d.Target)
		s.signal()
		return d, nil
	}
	switch d.Status {
	case StatusDelivered:
		return nil, ErrAlreadyDelivered
	case StatusSending:
		return nil, ErrSending
	}
	return d, nil // changed in between (e.g. re-queued by another call)
}

func (s *Service) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

const deliveryColumns = `id, loadable_id, target, system, status, attempts, last_error, last_attempt_at, next_attempt_at,
	delivered_at, created_at, created_by`

func scanDelivery(row interface{ Scan(...any) error }) (Delivery, error) {
	var d Delivery
	var last, next, delivered sql.NullTime
	if err := row.Scan(&d.ID, &d.LoadableID, &d.Target, &d.System, &d.Status, &d.Attempts, &d.LastError, &last, &next,
		&delivered, &d.CreatedAt, &d.CreatedBy); err != nil {
		return Delivery{}, err
	}
	d.CreatedAt = d.CreatedAt.UTC()
	d.LastAttempt = store.TimeOrNil(last)
	d.DeliveredAt = store.TimeOrNil(delivered)
	if d.Status == StatusQueued {
		d.NextAttemptAt = store.TimeOrNil(next)
	}
	d.AttemptLog = []Attempt{}
	return d, nil
}

// get returns one delivery with its attempts.
func (s *Service) get(ctx context.Context, id int64) (*Delivery, error) {
	d, err := scanDelivery(s.db.QueryRowContext(ctx, `SELECT `+deliveryColumns+` FROM handover_deliveries WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read hand-over %d: %w", id, err)
	}
	logs, err := s.attempts(ctx, `delivery_id = ?`, id)
	if err != nil {
		return nil, err
	}
	d.AttemptLog = append(d.AttemptLog, logs[id]...)
	return &d, nil
}

// Get returns one delivery with its attempt log (ErrNotFound when there is none).
func (s *Service) Get(ctx context.Context, deliveryID int64) (*Delivery, error) {
	return s.get(ctx, deliveryID)
}

// Deliveries returns the deliveries of a loadable, oldest first, with their attempt logs.
func (s *Service) Deliveries(ctx context.Context, loadableID int64) ([]Delivery, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+deliveryColumns+` FROM handover_deliveries WHERE loadable_id = ? ORDER BY id`, loadableID)
	if err != nil {
		return nil, fmt.Errorf("list hand-overs: %w", err)
	}
	out := []Delivery{}
	for rows.Next() {
		d, err := scanDelivery(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return out, nil
	}
	logs, err := s.attempts(ctx, `delivery_id IN (SELECT id FROM handover_deliveries WHERE loadable_id = ?)`, loadableID)
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].AttemptLog = append(out[i].AttemptLog, logs[out[i].ID]...)
	}
	return out, nil
}

func (s *Service) attempts(ctx context.Context, where string, arg any) (map[int64][]Attempt, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT delivery_id, attempt, at, outcome, http_status, error, duration_ms
		FROM handover_attempts WHERE `+where+` ORDER BY delivery_id, id`, arg)
	if err != nil {
		return nil, fmt.Errorf("list hand-over attempts: %w", err)
	}
	defer rows.Close()
	out := map[int64][]Attempt{}
	for rows.Next() {
		var id int64
		var a Attempt
		if err := rows.Scan(&id, &a.Attempt, &a.At, &a.Outcome, &a.HTTPStatus, &a.Error, &a.DurationMs); err != nil {
			return nil, err
		}
		a.At = a.At.UTC()
		out[id] = append(out[id], a)
	}
	return out, rows.Err()
}

// pkgInfo is what notifications say about the package.
type pkgInfo struct {
	name, version          string
	portalID, domainID     int64
	portalName, domainName string
}

func (s *Service) info(ctx context.Context, id int64) (pkgInfo, error) {
	var p pkgInfo
	err := s.db.QueryRowContext(ctx, `SELECT name, version, portal_id, portal_name, domain_id, domain_name
		FROM handover_deliveries WHERE id = ?`, id).Scan(&p.name, &p.version, &p.portalID, &p.portalName, &p.domainID, &p.domainName)
	return p, err
}

// report sends a progress notification to the delivery's creator.
func (s *Service) report(ctx context.Context, d *Delivery, p pkgInfo, status string, progress int, details string) {
	if s.progress == nil || d.CreatedBy == 0 { // no outlet, or nobody to tell
		return
	}
	s.progress.Progress(ctx, d.CreatedBy, notice.Card{
		ID:          MessageType + "-" + strconv.FormatInt(d.ID, 10),
		Title:       strings.TrimSpace(p.name+" "+p.version) + " → " + d.Target,
		Details:     details,
		Status:      status,
		Progress:    progress,
		MessageType: MessageType,
		Data: NotificationData{PortalID: p.portalID, PortalName: p.portalName, DomainID: p.domainID, DomainName: p.domainName,
			LoadableID: d.LoadableID, DeliveryID: d.ID, Target: d.Target, System: d.System, Status: d.Status,
			Progress: progress, Details: details},
	})
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

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
