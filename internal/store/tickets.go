package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"time"
)

// Single-use tickets: short-lived keys for a URL that opens something once (a WebSocket, the
// designer's frame), kept in a table with ticket_hash, expires_at and used_at, so a ticket one
// instance issued can be redeemed at another. Only the hash is stored.

// NewTicket is a new ticket, prefix followed by 32 random bytes (base64url), and its hash.
func NewTicket(prefix string) (ticket, hash string, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", "", err
	}
	ticket = prefix + base64.RawURLEncoding.EncodeToString(b)
	return ticket, TicketHash(ticket), nil
}

// TicketHash is what a table keeps of a ticket.
func TicketHash(ticket string) string {
	sum := sha256.Sum256([]byte(ticket))
	return hex.EncodeToString(sum[:])
}

// RedeemTicket uses a ticket of table once, before it expires, and scans the ticket's columns
// into dest; ErrNotFound when it is unknown, used or expired. Tickets expired for an hour are
// forgotten on the way. table and columns are the caller's constants, never input.
func (db *DB) RedeemTicket(ctx context.Context, table, columns, ticket string, now time.Time, dest ...any) error {
	h := TicketHash(ticket)
	err := db.WithTx(ctx, func(tx *Tx) error {
		if err := Affected(tx.ExecContext(ctx, "UPDATE "+table+" SET used_at = ? WHERE ticket_hash = ? AND used_at IS NULL AND expires_at > ?", now, h, now)); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, "SELECT "+columns+" FROM "+table+" WHERE ticket_hash = ?", h).Scan(dest...)
	})
	_, _ = db.ExecContext(ctx, "DELETE FROM "+table+" WHERE expires_at < ?", now.Add(-time.Hour))
	return err
}
