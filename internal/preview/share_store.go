package preview

import (
	"context"
	"database/sql"
	"errors"
	"portalwright/internal/notice"
	"time"

	"portalwright/internal/heartbeat"
	"portalwright/internal/store"
)

// ShareStore keeps the shared previews (table previews, migration 00014): one row per
// preview, found by its id (its creator's calls) or by its link token (the viewer).
type ShareStore struct{ db *store.DB }

// NewShareStore returns the preview store over db.
func NewShareStore(db *store.DB) *ShareStore { return &ShareStore{db: db} }

const shareColumns = `id, token, type, status, domain_id, portal_id, user_id, branch, commit_id, language, page,
	version_tag, emulator, root, error_title, error_message, created_at, expires_at`

func scanShare(row interface{ Scan(...any) error }) (*Preview, error) {
	var p Preview
	var errTitle, errMessage string
	err := row.Scan(&p.ID, &p.token, &p.Type, &p.Status, &p.DomainID, &p.PortalID, &p.UserID, &p.Branch, &p.CommitID,
		&p.Language, &p.Page, &p.VersionTag, &p.Emulator, &p.root, &errTitle, &errMessage, &p.CreatedAt, &p.ExpiresAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	if errTitle != "" || errMessage != "" {
		p.Error = &notice.ErrorInfo{Title: errTitle, Message: errMessage}
	}
	p.CreatedAt, p.ExpiresAt = p.CreatedAt.UTC(), p.ExpiresAt.UTC()
	return &p, nil
}

// Insert stores a new preview and sets its id.
func (s *ShareStore) Insert(ctx context.Context, p *Preview) error {
	beat, owner := liveness(p)
	return s.db.QueryRowContext(ctx, `INSERT INTO previews (token, type, status, domain_id, portal_id, user_id, branch,
		commit_id, language, page, version_tag, emulator, root, error_title, error_message, created_at, expires_at,
		heartbeat_at, owner)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', '', ?, ?, ?, ?) RETURNING id`,
		p.token, p.Type, p.Status, p.DomainID, p.PortalID, p.UserID, p.Branch, p.CommitID, p.Language, p.Page,
		p.VersionTag, p.Emulator, p.root, p.CreatedAt, p.ExpiresAt, beat, owner).Scan(&p.ID)
}

// Update saves what a preview's preparation found out: status, commit, served folder, error,
// expiry, language and page.
func (s *ShareStore) Update(ctx context.Context, p *Preview) error {
	title, message := "", ""
	if p.Error != nil {
		title, message = p.Error.Title, p.Error.Message
	}
	beat, owner := liveness(p)
	_, err := s.db.ExecContext(ctx, `UPDATE previews SET status = ?, commit_id = ?, root = ?, error_title = ?,
		error_message = ?, expires_at = ?, language = ?, page = ?, heartbeat_at = ?, owner = ? WHERE id = ?`,
		p.Status, p.CommitID, p.root, title, message, p.ExpiresAt, p.Language, p.Page, beat, owner, p.ID)
	return err
}

// liveness is what a row records of the process preparing a preview: while PROGRESS, the
// time of its last beat and the process (heartbeat.Self); otherwise nothing.
func liveness(p *Preview) (any, string) {
	if p.Status != StatusProgress {
		return nil, ""
	}
	return time.Now().UTC(), heartbeat.Self()
}

// Heartbeat records that a preview's preparation is alive.
func (s *ShareStore) Heartbeat(ctx context.Context, id int64, now time.Time) error {
	_, err := s.db.ExecContext(ctx, `UPDATE previews SET heartbeat_at = ? WHERE id = ? AND status = ?`, now, id, StatusProgress)
	return err
}

// Interrupted marks FAILED the previews in PROGRESS whose preparation stopped: its process on
// this host is gone, or it has not beaten since now-staleAfter (on any host). It returns the
// previews it marked.
func (s *ShareStore) Interrupted(ctx context.Context, now time.Time, staleAfter time.Duration, info notice.ErrorInfo) ([]*Preview, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, owner, heartbeat_at FROM previews WHERE status = ?`, StatusProgress)
	if err != nil {
		return nil, err
	}
	var dead []int64
	for rows.Next() {
		var id int64
		var owner string
		var beat sql.NullTime
		if err := rows.Scan(&id, &owner, &beat); err != nil {
			rows.Close()
			return nil, err
		}
		if heartbeat.Dead(owner) || !beat.Valid || beat.Time.Before(now.Add(-staleAfter)) {
			dead = append(dead, id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var marked []*Preview
	for _, id := range dead {
		res, err := s.db.ExecContext(ctx, `UPDATE previews SET status = ?, error_title = ?, error_message = ?, heartbeat_at = NULL,
			owner = '' WHERE id = ? AND status = ?`, StatusFailed, info.Title, info.Message, id, StatusProgress)
		if err != nil {
			return nil, err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			if p, err := s.Get(ctx, id); err == nil {
				marked = append(marked, p)
			}
		}
	}
	return marked, nil
}

// Get loads a preview by id.
func (s *ShareStore) Get(ctx context.Context, id int64) (*Preview, error) {
	return scanShare(s.db.QueryRowContext(ctx, `SELECT `+shareColumns+` FROM previews WHERE id = ?`, id))
}

// ByToken loads the preview of a link token.
func (s *ShareStore) ByToken(ctx context.Context, token string) (*Preview, error) {
	return scanShare(s.db.QueryRowContext(ctx, `SELECT `+shareColumns+` FROM previews WHERE token = ?`, token))
}

// Latest is the user's newest unexpired preview of the portal, of type t when t is not empty.
func (s *ShareStore) Latest(ctx context.Context, userID, portalID int64, t Type, now time.Time) (*Preview, error) {
	q := `SELECT ` + shareColumns + ` FROM previews WHERE user_id = ? AND portal_id = ? AND expires_at > ?`
	args := []any{userID, portalID, now}
	if t != "" {
		q += ` AND type = ?`
		args = append(args, t)
	}
	return scanShare(s.db.QueryRowContext(ctx, q+` ORDER BY created_at DESC, id DESC LIMIT 1`, args...))
}

// Live is the user's unexpired live preview of the portal's branch (there is at most one).
func (s *ShareStore) Live(ctx context.Context, userID, portalID int64, branch string, now time.Time) (*Preview, error) {
	return scanShare(s.db.QueryRowContext(ctx, `SELECT `+shareColumns+` FROM previews WHERE user_id = ? AND portal_id = ?
		AND type = ? AND branch = ? AND expires_at > ? ORDER BY id DESC LIMIT 1`, userID, portalID, Live, branch, now))
}

// Older lists the ids of the user's snapshot previews of the portal beyond the newest keep.
func (s *ShareStore) Older(ctx context.Context, userID, portalID int64, keep int) ([]int64, error) {
	ids, err := s.ids(ctx, `SELECT id FROM previews WHERE user_id = ? AND portal_id = ? AND type <> ?
		ORDER BY created_at DESC, id DESC`, userID, portalID, Live)
	if err != nil || len(ids) <= keep {
		return nil, err
	}
	return ids[keep:], nil
}

// Expired lists the ids of previews that expired before now.
func (s *ShareStore) Expired(ctx context.Context, now time.Time) ([]int64, error) {
	return s.ids(ctx, `SELECT id FROM previews WHERE expires_at <= ?`, now)
}

// IDs lists every preview id (the janitor removes folders of rows that are gone).
func (s *ShareStore) IDs(ctx context.Context) ([]int64, error) {
	return s.ids(ctx, `SELECT id FROM previews`)
}

func (s *ShareStore) ids(ctx context.Context, query string, args ...any) ([]int64, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// Delete removes a preview's row.
func (s *ShareStore) Delete(ctx context.Context, id int64) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM previews WHERE id = ?`, id)
	return err
}
