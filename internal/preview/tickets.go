package preview

import (
	"context"
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

// Tickets issues and redeems the single-use tickets of the frame origin (frame_tickets,
// store.RedeemTicket): the frame's first URL carries one, and the frame origin exchanges it for a
// cookie.
type Tickets struct {
	db  *store.DB
	now func() time.Time
}

// NewTickets keeps tickets in db.
func NewTickets(db *store.DB) *Tickets {
	return &Tickets{db: db, now: func() time.Time { return time.Now().UTC() }}
}

// Issue makes a ticket for the user's workspace of the portal.
func (t *Tickets) Issue(ctx context.Context, userID, domainID, portalID int64) (string, error) {
	ticket, hash, err := store.NewTicket(ticketPrefix)
	if err != nil {
		return "", err
	}
	_, err = t.db.ExecContext(ctx, "INSERT INTO frame_tickets (ticket_hash, user_id, domain_id, portal_id, expires_at) VALUES (?, ?, ?, ?, ?)",
		hash, userID, domainID, portalID, t.now().Add(TicketTTL))
	return ticket, err
}

// Redeem uses a ticket once and returns what it was issued for; a second use, an unknown or an
// expired ticket is a 401.
func (t *Tickets) Redeem(ctx context.Context, ticket string) (readtoken.Claims, error) {
	var c readtoken.Claims
	if ticket == "" || t.db.RedeemTicket(ctx, "frame_tickets", "user_id, domain_id, portal_id", ticket, t.now(), &c.UserID, &c.DomainID, &c.PortalID) != nil {
		return readtoken.Claims{}, errBadTicket()
	}
	return c, nil
}

func errBadTicket() error {
	return apperr.Unauthorized("INVALID_FRAME_TICKET", "The frame ticket is unknown, used or expired: open the designer again.")
}
