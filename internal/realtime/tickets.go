package realtime

import (
	"context"
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

// Issue makes a ticket for the caller's session.
func (t *Tickets) Issue(ctx context.Context, p caller.Caller) (string, error) {
	ticket, hash, err := store.NewTicket("")
	if err != nil {
		return "", err
	}
	_, err = t.db.ExecContext(ctx, "INSERT INTO ws_tickets (ticket_hash, user_id, session_id, expires_at) VALUES (?, ?, ?, ?)",
		hash, p.UserID, p.SessionID, t.now().Add(TicketTTL))
	return ticket, err
}

// Redeem uses a ticket once and returns whose it was: its user id and session id.
func (t *Tickets) Redeem(ctx context.Context, ticket string) (userID int64, sessionID string, err error) {
	if ticket == "" || t.db.RedeemTicket(ctx, "ws_tickets", "user_id, session_id", ticket, t.now(), &userID, &sessionID) != nil {
		return 0, "", errBadTicket
	}
	return userID, sessionID, nil
}

var errBadTicket = apperr.Unauthorized("INVALID_TICKET", "The WebSocket ticket is missing, used or expired. Ask for a new one.")
