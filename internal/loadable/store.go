package loadable

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"portalwright/internal/heartbeat"
	"portalwright/internal/notice"
	"portalwright/internal/store"
)

// SQLStore keeps the loadables' records (table loadables, migration 00015).
type SQLStore struct{ db *store.DB }

// NewSQLStore returns the loadable store over db.
func NewSQLStore(db *store.DB) *SQLStore { return &SQLStore{db: db} }

const columns = `id, domain_id, portal_id, name, part_number, version_prefix, version, type, git_ref, commit_id, status,
	file_name, size, sha256, copyright, error_title, error_message, error_code, output, reject_reason,
	created_by, approved_by, rejected_by, created_at, generated_at, decided_at, override_reason, override_errors`

func scan(row interface{ Scan(...any) error }) (*Loadable, error) {
	var l Loadable
	var copyright, errTitle, errMessage, errCode string
	var approved, rejected sql.NullInt64
	var generated, decided sql.NullTime
	var overrideReason string
	var overrideErrors int
	err := row.Scan(&l.ID, &l.DomainID, &l.PortalID, &l.Name, &l.PartNumber, &l.VersionPrefix, &l.Version, &l.Type, &l.GitRef,
		&l.CommitID, &l.Status, &l.FileName, &l.Size, &l.SHA256, &copyright, &errTitle, &errMessage, &errCode, &l.Output,
		&l.RejectReason, &l.CreatedBy.ID, &approved, &rejected, &l.CreatedAt, &generated, &decided,
		&overrideReason, &overrideErrors)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	_ = json.Unmarshal([]byte(copyright), &l.Copyright)
	if errTitle != "" || errMessage != "" {
		l.Error = &notice.ErrorInfo{Title: errTitle, Message: errMessage, Code: errCode, Output: l.Output}
	}
	if approved.Valid {
		l.ApprovedBy = &Person{ID: approved.Int64}
	}
	if overrideReason != "" {
		l.ApprovalOverride = &ApprovalOverride{Reason: overrideReason, Errors: overrideErrors}
	}
	if rejected.Valid {
		l.RejectedBy = &Person{ID: rejected.Int64}
	}
	l.CreatedAt = l.CreatedAt.UTC()
	if generated.Valid {
		t := generated.Time.UTC()
		if l.Status == Generating { // while generating, the column is the generation's heartbeat
			l.heartbeat = t
		} else {
			l.GeneratedAt = &t
		}
	}
	if decided.Valid {
		t := decided.Time.UTC()
		l.DecidedAt = &t
	}
	return &l, nil
}

// Insert stores a new loadable with the next build number of its version prefix (in one
// transaction: two creations never get the same version).
func (s *SQLStore) Insert(ctx context.Context, l *Loadable) error {
	copyright, err := json.Marshal(l.Copyright)
	if err != nil {
		return err
	}
	return s.db.WithTx(ctx, func(tx *store.Tx) error {
		var taken int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM loadables WHERE portal_id = ? AND name = ?`, l.PortalID, l.Name).Scan(&taken); err != nil {
			return err
		}
		if taken > 0 {
			return errNameTaken
		}
		rows, err := tx.QueryContext(ctx, `SELECT version FROM loadables WHERE portal_id = ? AND version_prefix = ?`, l.PortalID, l.VersionPrefix)
		if err != nil {
			return err
		}
		next := 1
		for rows.Next() {
			var v string
			if err := rows.Scan(&v); err != nil {
				rows.Close()
				return err
			}
			if n, err := strconv.Atoi(v[strings.LastIndex(v, ".")+1:]); err == nil && n >= next {
				next = n + 1
			}
		}
		rows.Close()
		l.Version = l.VersionPrefix + "." + strconv.Itoa(next)
		l.FileName = FileName(l.Name, l.Version)
		return tx.QueryRowContext(ctx, `INSERT INTO loadables (domain_id, portal_id, name, part_number, version_prefix, version, type,
			git_ref, commit_id, status, file_name, size, sha256, copyright, error_title, error_message, error_code, output,
			reject_reason, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, '', ?, '', '', '', '', '', ?, ?) RETURNING id`,
			l.DomainID, l.PortalID, l.Name, l.PartNumber, l.VersionPrefix, l.Version, l.Type, l.GitRef, l.CommitID, l.Status,
			l.FileName, string(copyright), l.CreatedBy.ID, l.CreatedAt).Scan(&l.ID)
	})
}

// Get loads one loadable of a portal.
func (s *SQLStore) Get(ctx context.Context, portalID, id int64) (*Loadable, error) {
	return scan(s.db.QueryRowContext(ctx, `SELECT `+columns+` FROM loadables WHERE portal_id = ? AND id = ?`, portalID, id))
}

// ByFileName loads the loadable of a package file name.
func (s *SQLStore) ByFileName(ctx context.Context, portalID int64, name string) (*Loadable, error) {
	return scan(s.db.QueryRowContext(ctx, `SELECT `+columns+` FROM loadables WHERE portal_id = ? AND file_name = ?`, portalID, name))
}

// ByVersion loads the loadable of a version (a loadable preview's versionTag).
func (s *SQLStore) ByVersion(ctx context.Context, portalID int64, version string) (*Loadable, error) {
	return scan(s.db.QueryRowContext(ctx, `SELECT `+columns+` FROM loadables WHERE portal_id = ? AND version = ?`, portalID, version))
}

// List lists a portal's loadables, newest first.
func (s *SQLStore) List(ctx context.Context, portalID int64) ([]*Loadable, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+columns+` FROM loadables WHERE portal_id = ? ORDER BY created_at DESC, id DESC`, portalID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Loadable
	for rows.Next() {
		l, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// NameTaken tells whether the portal has a loadable of that name.
func (s *SQLStore) NameTaken(ctx context.Context, portalID int64, name string) bool {
	var n int
	_ = s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM loadables WHERE portal_id = ? AND name = ?`, portalID, name).Scan(&n)
	return n > 0
}

// Transition moves a loadable from one of the statuses from to status to, with the change's
// other fields; false when it was in none of them (somebody else moved it first).
func (s *SQLStore) Transition(ctx context.Context, l *Loadable, from []Status, to Status) (bool, error) {
	marks := strings.TrimSuffix(strings.Repeat("?, ", len(from)), ", ")
	owner := ""
	if to == Generating {
		owner = heartbeat.Self() // the process that generates it (Interrupted: dead or alive)
	}
	args := []any{to, owner, l.CommitID, l.Size, l.SHA256}
	title, message, code := "", "", ""
	if l.Error != nil {
		title, message, code = l.Error.Title, l.Error.Message, l.Error.Code
	}
	var approved, rejected any
	if l.ApprovedBy != nil {
		approved = l.ApprovedBy.ID
	}
	if l.RejectedBy != nil {
		rejected = l.RejectedBy.ID
	}
	overrideReason, overrideErrors := "", 0
	if l.ApprovalOverride != nil {
		overrideReason, overrideErrors = l.ApprovalOverride.Reason, l.ApprovalOverride.Errors
	}
	args = append(args, title, message, code, l.Output, l.RejectReason, approved, rejected, l.GeneratedAt, l.DecidedAt,
		overrideReason, overrideErrors, l.ID)
	for _, f := range from {
		args = append(args, f)
	}
	res, err := s.db.ExecContext(ctx, `UPDATE loadables SET status = ?, owner = ?, commit_id = ?, size = ?, sha256 = ?, error_title = ?,
		error_message = ?, error_code = ?, output = ?, reject_reason = ?, approved_by = ?, rejected_by = ?, generated_at = ?,
		decided_at = ?, override_reason = ?, override_errors = ? WHERE id = ? AND status IN (`+marks+`)`, args...)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	if err == nil && n == 1 {
		l.Status = to
	}
	return n == 1, err
}

// Heartbeat records that a generation is alive (its instance still runs it): generated_at
// holds the time while the status is GENERATING.
func (s *SQLStore) Heartbeat(ctx context.Context, id int64, now time.Time) error {
	_, err := s.db.ExecContext(ctx, `UPDATE loadables SET generated_at = ? WHERE id = ? AND status = ?`, now, id, Generating)
	return err
}

// StaleAfter is how long a generation may go without a heartbeat before it counts as cut short
// (two heartbeat intervals of the default 30 s; Config.Heartbeat sets another interval).
const StaleAfter = heartbeat.StaleBeats * heartbeat.DefaultInterval

// Interrupted marks FAILED the GENERATING loadables whose generation stopped: its process on
// this host is gone, or it has not beaten since now-staleAfter (a crash, a kill, a restart of
// the instance running it, on any host). It lists the ids of those still generating, whose
// files must be left alone, and returns the loadables it marked.
func (s *SQLStore) Interrupted(ctx context.Context, now time.Time, staleAfter time.Duration) ([]*Loadable, map[int64]bool, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, owner, generated_at FROM loadables WHERE status = ?`, Generating)
	if err != nil {
		return nil, nil, err
	}
	live := map[int64]bool{}
	var dead []int64
	for rows.Next() {
		var id int64
		var owner string
		var beat sql.NullTime
		if err := rows.Scan(&id, &owner, &beat); err != nil {
			rows.Close()
			return nil, nil, err
		}
		if heartbeat.Dead(owner) || !beat.Valid || beat.Time.Before(now.Add(-staleAfter)) {
			dead = append(dead, id)
		} else {
			live[id] = true
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	var marked []*Loadable
	for _, id := range dead {
		res, err := s.db.ExecContext(ctx, `UPDATE loadables SET status = ?, owner = '', generated_at = NULL, error_title = ?, error_message = ?, error_code = ?
			WHERE id = ? AND status = ?`, Failed, interrupted.Title, interrupted.Message, interrupted.Code, id, Generating)
		if err != nil {
			return nil, nil, err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			if l, err := scan(s.db.QueryRowContext(ctx, `SELECT `+columns+` FROM loadables WHERE id = ?`, id)); err == nil {
				marked = append(marked, l)
			}
		}
	}
	return marked, live, nil
}
