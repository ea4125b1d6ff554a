package preview

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"time"

	"portalwright/internal/apperr"
	"portalwright/internal/readtoken"
	"portalwright/internal/store"
)

// TicketTTL is how long a frame ticket can be redeemed: the designer loads the frame as soon
// as it has one.
const TicketTTL = 2 * time.Minute

// ticketPrefix starts every ticket (never a digit: the frame's route tells it from a domain id).
const ticketPrefix = "pwf1."

// Tickets issues and redeems the single-use tickets of the frame origin (frame_tickets): the
// frame's first URL carries one, and the frame origin exchanges it for a cookie. Only a hash is
// stored.
type Tickets struct {
	db  *store.DB
	now func() time.Time
}

// NewTickets keeps tickets in db.
func NewTickets(db *store.DB) *Tickets {
	return &Tickets{db: db, now: func() time.Time { return time.Now().UTC() }}
}

func hashTicket(t string) string {
	sum := sha256.Sum256([]byte(t))
	return hex.EncodeToString(sum[:])
}

// Issue makes a ticket for the user's workspace of the portal.
func (t *Tickets) Issue(ctx context.Context, userID, domainID, portalID int64) (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	ticket := ticketPrefix + base64.RawURLEncoding.EncodeToString(b)
	now := t.now()
	if _, err := t.db.ExecContext(ctx, "INSERT INTO frame_tickets (ticket_hash, user_id, domain_id, portal_id, expires_at) VALUES (?, ?, ?, ?, ?)",
		hashTicket(ticket), userID, domainID, portalID, now.Add(TicketTTL)); err != nil {
		return "", err
	}
	// Forget tickets that can no longer be used.
	_, _ = t.db.ExecContext(ctx, "DELETE FROM frame_tickets WHERE expires_at < ?", now.Add(-time.Hour))
	return ticket, nil
}

// Redeem uses a ticket once and returns what it was issued for; a second use, an unknown or an
// expired ticket is a 401.
func (t *Tickets) Redeem(ctx context.Context, ticket string) (readtoken.Claims, error) {
	var c readtoken.Claims
	if ticket == "" {
		return c, errBadTicket()
	}
	now := t.now()
	h := hashTicket(ticket)
	err := t.db.WithTx(ctx, func(tx *store.Tx) error {
		if err := store.Affected(tx.ExecContext(ctx, "UPDATE frame_tickets SET used_at = ? WHERE ticket_hash = ? AND used_at IS NULL AND expires_at > ?", now, h, now)); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, "SELECT user_id, domain_id, portal_id FROM frame_tickets WHERE ticket_hash = ?", h).Scan(&c.UserID, &c.DomainID, &c.PortalID)
	})
	if err != nil {
		return readtoken.Claims{}, errBadTicket()
	}
	return c, nil
}

func errBadTicket() error {
	return apperr.Unauthorized("INVALID_FRAME_TICKET", "The frame ticket is unknown, used or expired: open the designer again.")
}
