package portal

import (
	"context"
	"time"

	"portalwright/internal/store"
)

// LinkedMicrosites lists the microsite portals linked into a portal.
func (s *SQLStore) LinkedMicrosites(ctx context.Context, portalID int64) ([]Portal, error) {
	return s.queryPortals(ctx, "SELECT "+portalCols+` FROM portal_microsites pm JOIN portals p ON p.id = pm.microsite_id
		LEFT JOIN categories c ON c.id = p.category_id WHERE pm.portal_id = ? ORDER BY p.name_key`, portalID)
}

// SetMicrositeLinks links (or unlinks) microsites into a portal, all or none.
func (s *SQLStore) SetMicrositeLinks(ctx context.Context, portalID int64, micrositeIDs []int64, link bool) error {
	return s.db.WithTx(ctx, func(tx *store.Tx) error {
		for _, m := range micrositeIDs {
			var err error
			if link {
				_, err = tx.ExecContext(ctx, `INSERT INTO portal_microsites (portal_id, microsite_id, created_at) VALUES (?, ?, ?)
					ON CONFLICT (portal_id, microsite_id) DO NOTHING`, portalID, m, time.Now().UTC())
			} else {
				_, err = tx.ExecContext(ctx, "DELETE FROM portal_microsites WHERE portal_id = ? AND microsite_id = ?", portalID, m)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}
