package realtime

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"time"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/store"
)

// TicketTTL is how long a WebSocket ticket can be redeemed.
const TicketTTL = 30 * time.Second

// Tickets issues and redeems single-use WebSocket tickets.
type Tickets struct {
	db  *store.DB
	now func() time.Time
}

func NewTickets(db *store.DB) *Tickets {
	return &Tickets{db: db, now: func() time.Time { return time.Now().UTC() }}
}

func hashTicket(t string) string {
	sum := sha256.Sum256([]byte(t))
	return hex.EncodeToString(sum[:])
}

// Issue makes a ticket for the caller's session.
func (t *Tickets) Issue(ctx context.Context, p caller.Caller) (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	ticket := base64.RawURLEncoding.EncodeToString(b)
	now := t.now()
	_, err := t.db.ExecContext(ctx, "INSERT INTO ws_tickets (ticket_hash, user_id, session_id, expires_at) VALUES (?, ?, ?, ?)",
		hashTicket(ticket), p.UserID, p.SessionID, now.Add(TicketTTL))
	if err != nil {
		return "", err
	}
	// Forget tickets that can no longer be used.
	_, _ = t.db.ExecContext(ctx, "DELETE FROM ws_tickets WHERE expires_at < ?", now.Add(-time.Hour))
	return ticket, nil
}

// Redeem uses a ticket once and returns whose it was: its user id and session id.
func (t *Tickets) Redeem(ctx context.Context, ticket string) (userID int64, sessionID string, err error) {
	if ticket == "" {
		return 0, "", errBadTicket
	}
	now := t.now()
	h := hashTicket(ticket)
	err = t.db.WithTx(ctx, func(tx *store.Tx) error {
		if err := store.Affected(tx.ExecContext(ctx, "UPDATE ws_tickets SET used_at = ? WHERE ticket_hash = ? AND used_at IS NULL AND expires_at > ?", now, h, now)); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, "SELECT user_id, session_id FROM ws_tickets WHERE ticket_hash = ?", h).Scan(&userID, &sessionID)
	})
	if err != nil {
		return 0, "", errBadTicket
	}
	return userID, sessionID, nil
}

var errBadTicket = apperr.Unauthorized("INVALID_TICKET", "The WebSocket ticket is missing, used or expired. Ask for a new one.")
