package upstream

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"strings"
	"time"

	"portalwright/internal/store"
)

// Kinds of credentials.
const (
	AuthNone     = "NONE"
	AuthPassword = "PASSWORD"
	AuthSSHKey   = "SSH_KEY"
)

// Kinds of the last error.
const (
	errFetch       = "FETCH"       // the host could not be fetched: the state is unknown
	errPush        = "PUSH"        // a push failed: the portal is ahead
	errMerge       = "MERGE"       // the host's commits conflict with the portal's
	errCredentials = "CREDENTIALS" // the credentials could not be kept or read
)

// record is a portal's upstream row joined with its portal.
type record struct {
	PortalID, DomainID int64
	URL                string // portals.upstream_url; "" when the portal has no upstream

	AuthKind      string
	Sealed        string
	PublicKey     string
	KnownHosts    string
	WebhookNonce  string
	Pending       []string
	LastSyncAt    *time.Time
	LastError     string
	LastErrorKind string
	LastErrorAt   *time.Time
}

// Store keeps portal_upstreams (migration 00017).
type Store struct{ db *store.DB }

func NewStore(db *store.DB) *Store { return &Store{db: db} }

func newNonce() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// load reads a portal's upstream, making its row on first use (portals imported before the row
// existed). store.ErrNotFound when there is no such portal.
func (s *Store) load(ctx context.Context, portalID int64) (*record, error) {
	rec, err := s.read(ctx, portalID)
	if err != nil || rec.WebhookNonce != "" || rec.URL == "" {
		return rec, err
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO portal_upstreams (portal_id, webhook_nonce, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (portal_id) DO NOTHING`, portalID, newNonce(), time.Now().UTC()); err != nil {
		return nil, err
	}
	return s.read(ctx, portalID)
}

func (s *Store) read(ctx context.Context, portalID int64) (*record, error) {
	var r record
	var kind, sealed, pub, hosts, nonce, pending, lastErr, errKind sql.NullString
	var syncAt, errAt sql.NullTime
	err := s.db.QueryRowContext(ctx, `SELECT p.id, p.domain_id, p.upstream_url, u.auth_kind, u.sealed_credentials, u.public_key,
		u.known_hosts, u.webhook_nonce, u.pending_branches, u.last_sync_at, u.last_error, u.last_error_kind, u.last_error_at
		FROM portals p LEFT JOIN portal_upstreams u ON u.portal_id = p.id WHERE p.id = ?`, portalID).Scan(
		&r.PortalID, &r.DomainID, &r.URL, &kind, &sealed, &pub, &hosts, &nonce, &pending, &syncAt, &lastErr, &errKind, &errAt)
	if err != nil {
		return nil, store.NotFound(err)
	}
	r.AuthKind, r.Sealed, r.PublicKey, r.KnownHosts = kind.String, sealed.String, pub.String, hosts.String
	r.WebhookNonce, r.LastError, r.LastErrorKind = nonce.String, lastErr.String, errKind.String
	if r.AuthKind == "" {
		r.AuthKind = AuthNone
	}
	if pending.String != "" {
		r.Pending = strings.Split(pending.String, ",")
	}
	if syncAt.Valid {
		t := syncAt.Time.UTC()
		r.LastSyncAt = &t
	}
	if errAt.Valid {
		t := errAt.Time.UTC()
		r.LastErrorAt = &t
	}
	return &r, nil
}

// setCredentials replaces the credentials (sealed already) and forgets the host keys learnt
// with the old ones.
func (s *Store) setCredentials(ctx context.Context, portalID int64, kind, sealed, publicKey string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE portal_upstreams SET auth_kind = ?, sealed_credentials = ?, public_key = ?,
		known_hosts = '', last_error = CASE WHEN last_error_kind = ? THEN '' ELSE last_error END,
		last_error_kind = CASE WHEN last_error_kind = ? THEN '' ELSE last_error_kind END, updated_at = ? WHERE portal_id = ?`,
		kind, sealed, publicKey, errCredentials, errCredentials, time.Now().UTC(), portalID)
	return err
}

func (s *Store) setKnownHosts(ctx context.Context, portalID int64, hosts string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE portal_upstreams SET known_hosts = ? WHERE portal_id = ?`, hosts, portalID)
	return err
}

func (s *Store) setNonce(ctx context.Context, portalID int64, nonce string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE portal_upstreams SET webhook_nonce = ?, updated_at = ? WHERE portal_id = ?`, nonce, time.Now().UTC(), portalID)
	return err
}

// outcome is what a sync step changes in the row.
type outcome struct {
	synced  bool     // the host answered: last_sync_at = now
	pending []string // the branches whose push failed; nil: unchanged
	clear   []string // error kinds this step resolved (the error is cleared if it is one of them)
	// setError records errText as the last error, of kind errKind (after clear).
	setError         bool
	errKind, errText string
}

func (s *Store) record(ctx context.Context, portalID int64, o outcome) error {
	now := time.Now().UTC()
	return s.db.WithTx(ctx, func(tx *store.Tx) error {
		if o.synced {
			if _, err := tx.ExecContext(ctx, `UPDATE portal_upstreams SET last_sync_at = ? WHERE portal_id = ?`, now, portalID); err != nil {
				return err
			}
		}
		if o.pending != nil {
			if _, err := tx.ExecContext(ctx, `UPDATE portal_upstreams SET pending_branches = ? WHERE portal_id = ?`, strings.Join(o.pending, ","), portalID); err != nil {
				return err
			}
		}
		for _, k := range o.clear {
			if _, err := tx.ExecContext(ctx, `UPDATE portal_upstreams SET last_error = '', last_error_kind = '', last_error_at = NULL
				WHERE portal_id = ? AND last_error_kind = ?`, portalID, k); err != nil {
				return err
			}
		}
		if o.setError {
			if _, err := tx.ExecContext(ctx, `UPDATE portal_upstreams SET last_error = ?, last_error_kind = ?, last_error_at = ? WHERE portal_id = ?`,
				o.errText, o.errKind, now, portalID); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `UPDATE portal_upstreams SET updated_at = ? WHERE portal_id = ?`, now, portalID)
		return err
	})
}
