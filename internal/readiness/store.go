package readiness

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"portalwright/internal/store"
)

// gateStore keeps the approval gate per portal (table readiness_settings, migration 00020).
// A portal without a row has the gate on: portals created after the migration start with it
// on, the ones that existed then were given a row with it off.
type gateStore struct{ db *store.DB }

// gate tells whether the portal's approval gate is on.
func (g gateStore) gate(ctx context.Context, portalID int64) (bool, error) {
	var on bool
	err := g.db.QueryRowContext(ctx, `SELECT gate FROM readiness_settings WHERE portal_id = ?`, portalID).Scan(&on)
	if errors.Is(err, sql.ErrNoRows) {
		return true, nil
	}
	return on, err
}

// setGate records the portal's gate.
func (g gateStore) setGate(ctx context.Context, portalID, userID int64, on bool, now time.Time) error {
	_, err := g.db.ExecContext(ctx, `INSERT INTO readiness_settings (portal_id, gate, updated_by, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (portal_id) DO UPDATE SET gate = excluded.gate, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
		portalID, on, userID, now)
	return err
}
