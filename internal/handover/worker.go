package handover

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"portalwright/internal/store"
)

// Run delivers due hand-overs until ctx is done: after every Enqueue/Retry and every few
// seconds.
func (s *Service) Run(ctx context.Context) {
	t := time.NewTicker(pollInterval)
	defer t.Stop()
	for {
		if err := s.DeliverDue(ctx); err != nil && ctx.Err() == nil {
			s.log.Error("handover: delivery pass failed", "error", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-s.wake:
			select {
			case <-ctx.Done():
				return
			case <-time.After(wakeDelay):
			}
		}
	}
}

// DeliverDue makes one pass over the due deliveries (QUEUED and due, or SENDING with a stale
// claim). Delivery failures are recorded on the deliveries; the error is a database failure
// or ctx's.
func (s *Service) DeliverDue(ctx context.Context) error {
	for range maxBatches {
		ids, err := s.dueIDs(ctx)
		if err != nil {
			return err
		}
		for _, id := range ids {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := s.deliver(ctx, id); err != nil {
				return err
			}
		}
		if len(ids) < batchSize {
			break
		}
	}
	return nil
}

const dueCondition = `((status = 'QUEUED' AND next_attempt_at <= ?) OR (status = 'SENDING' AND claimed_at <= ?))`

func (s *Service) dueIDs(ctx context.Context) ([]int64, error) {
	now := s.utcNow()
	return s.db.Int64s(ctx, `SELECT id FROM handover_deliveries WHERE `+dueCondition+
		` ORDER BY next_attempt_at, id LIMIT `+strconv.Itoa(batchSize), now, now.Add(-s.StaleClaim))
}

// claimed is a delivery a worker owns while it handles it.
type claimed struct {
	id, loadableID      int64
	token               string
	target, system      string
	pkg                 Package
	attempts, retryBase int
	createdBy           int64
}

// result is how one attempt ends.
type result struct {
	outcome    string // Outcome*
	httpStatus int
	err        error
	permanent  bool
}

func (s *Service) deliver(ctx context.Context, id int64) error {
	c, ok, err := s.claim(ctx, id)
	if err != nil || !ok {
		return err
	}
	d := &Delivery{ID: c.id, LoadableID: c.loadableID, Target: c.target, System: c.system, Status: StatusSending, CreatedBy: c.createdBy}
	info := pkgInfo{name: c.pkg.Name, version: c.pkg.Version, portalID: c.pkg.PortalID, portalName: c.pkg.PortalName,
		domainID: c.pkg.DomainID, domainName: c.pkg.DomainName}
	s.report(ctx, d, info, "PROGRESS", 10, fmt.Sprintf("Handing over to %s (attempt %d).", c.target, c.attempts+1))

	start := s.now()
	stop := s.heartbeat(ctx, c)
	res := s.attempt(ctx, c)
	stop()
	return s.finish(ctx, c, d, info, res, start)
}

// claim takes delivery id if it is still due, atomically: of several workers racing for it
// exactly one changes the row.
func (s *Service) claim(ctx context.Context, id int64) (*claimed, bool, error) {
	now := s.utcNow()
	token := randomHex(12)
	res, err := s.db.ExecContext(ctx, `UPDATE handover_deliveries SET status = 'SENDING', claimed_at = ?, claim_token = ?
		WHERE id = ? AND `+dueCondition, now, token, id, now, now.Add(-s.StaleClaim))
	if err != nil {
		return nil, false, fmt.Errorf("claim hand-over %d: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return nil, false, err
	}
	c := &claimed{id: id, token: token}
	var manifest string
	p := &c.pkg
	err = s.db.QueryRowContext(ctx, `SELECT loadable_id, domain_id, portal_id, domain_name, portal_name, target, system, name,
		version, part_number, file_name, archive_path, archive_sha256, manifest, attempts, retry_base, created_by
		FROM handover_deliveries WHERE id = ? AND claim_token = ?`, id, token).
		Scan(&p.LoadableID, &p.DomainID, &p.PortalID, &p.DomainName, &p.PortalName, &c.target, &c.system, &p.Name,
			&p.Version, &p.PartNumber, &p.FileName, &p.ArchivePath, &p.SHA256, &manifest, &c.attempts, &c.retryBase, &c.createdBy)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil // taken over in the meantime
	}
	if err != nil {
		return nil, false, fmt.Errorf("read claimed hand-over %d: %w", id, err)
	}
	p.Manifest = []byte(manifest)
	c.loadableID = p.LoadableID
	return c, true, nil
}

// heartbeat refreshes the claim while an attempt runs, so a long upload is not taken for a
// dead instance's; the returned func stops it.
func (s *Service) heartbeat(ctx context.Context, c *claimed) func() {
	every := s.StaleClaim / 5
	if every <= 0 {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				_, err := s.db.ExecContext(ctx, `UPDATE handover_deliveries SET claimed_at = ? WHERE id = ? AND status = 'SENDING' AND claim_token = ?`,
					s.utcNow(), c.id, c.token)
				if err != nil && ctx.Err() == nil {
					s.log.Warn("handover: heartbeat failed", "delivery_id", c.id, "error", err)
				}
			}
		}
	}()
	return func() { close(done); <-finished }
}

// attempt makes one delivery attempt to the delivery's target.
func (s *Service) attempt(ctx context.Context, c *claimed) result {
	t, ok := s.cfg.Target(c.target)
	if !ok {
		return result{err: fmt.Errorf("the target %q is no longer configured", c.target), permanent: true}
	}
	switch t.Kind {
	case KindHTTP:
		return s.sendHTTP(ctx, t, c)
	case KindDirectory:
		return dropDir(t, c)
	}
	return result{err: fmt.Errorf("unknown target kind %q", t.Kind), permanent: true}
}

// finish records the attempt and the delivery's new state, if the delivery is still ours (a
// worker that lost its claim records the attempt only), and reports the outcome.
func (s *Service) finish(ctx context.Context, c *claimed, d *Delivery, info pkgInfo, r result, start time.Time) error {
	// Record the outcome even when ctx was cancelled during the attempt.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	now := s.utcNow()
	duration := s.now().Sub(start).Milliseconds()
	attempts := c.attempts + 1
	var (
		status    string
		lastError string
		next      *time.Time
		delivered *time.Time
	)
	errText := ""
	if r.err != nil {
		errText = truncate(r.err.Error())
	}
	switch {
	case r.err == nil:
		r.outcome, status, delivered = OutcomeDelivered, StatusDelivered, &now
	case ctx.Err() != nil:
		// Shutting down: not the delivery's fault, so the attempt does not count.
		r.outcome, status, next, attempts = OutcomeInterrupted, StatusQueued, &now, c.attempts
		errText = truncate("interrupted: " + errText)
		lastError = errText
	case r.permanent || attempts-c.retryBase >= s.MaxAttempts:
		r.outcome, status, lastError = OutcomeFailed, StatusFailed, errText
	default:
		n := now.Add(s.backoff(attempts - c.retryBase))
		r.outcome, status, lastError, next = OutcomeRetry, StatusQueued, errText, &n
	}
	var taken bool
	err := s.db.WithTx(rctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(rctx, `INSERT INTO handover_attempts (delivery_id, attempt, at, outcome, http_status, error, duration_ms)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, c.id, c.attempts+1, now, r.outcome, r.httpStatus, errText, duration); err != nil {
			return err
		}
		res, err := tx.ExecContext(rctx, `UPDATE handover_deliveries SET status = ?, attempts = ?, last_error = ?, next_attempt_at = ?,
			delivered_at = ?, last_attempt_at = ?, claimed_at = NULL, claim_token = '' WHERE id = ? AND status = 'SENDING' AND claim_token = ?`,
			status, attempts, lastError, next, delivered, now, c.id, c.token)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		taken = n != 1
		return err
	})
	if err != nil {
		return fmt.Errorf("record hand-over %d: %w", c.id, err)
	}
	if taken {
		s.log.Warn("handover: the delivery was taken over by another worker before its result was recorded", "delivery_id", c.id, "outcome", r.outcome)
		return nil
	}
	d.Status = status
	log := s.log.With("delivery_id", c.id, "loadable_id", c.loadableID, "target", c.target, "attempt", c.attempts+1, "http_status", r.httpStatus)
	switch r.outcome {
	case OutcomeDelivered:
		log.Info("handover: delivered")
		s.report(rctx, d, info, "SUCCESS", 100, "Handed over to "+c.target+".")
	case OutcomeFailed:
		log.Error("handover: failed", "error", errText)
		s.report(rctx, d, info, "ERROR", 100, "The hand-over to "+c.target+" failed: "+errText)
	case OutcomeRetry:
		log.Warn("handover: attempt failed, will retry", "next_attempt_at", next, "error", errText)
		s.report(rctx, d, info, "PROGRESS", 0, fmt.Sprintf("Attempt %d failed (%s); retrying at %s.", c.attempts+1, errText, next.Format(time.RFC3339)))
	case OutcomeInterrupted:
		log.Info("handover: interrupted by shutdown, queued again")
	}
	return nil
}

// backoff is the wait after n failed attempts: Backoff × 2^(n-1), capped at MaxBackoff.
func (s *Service) backoff(n int) time.Duration {
	if n < 1 {
		n = 1
	}
	d := s.Backoff
	for i := 1; i < n && d < s.MaxBackoff; i++ {
		d *= 2
	}
	return min(d, s.MaxBackoff)
}
