package identity

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"time"

	"portalwright/internal/store"
)

// SQLStore keeps users, sessions, resets and sign-in failures in the metadata database.
type SQLStore struct{ db *store.DB }

func NewSQLStore(db *store.DB) *SQLStore { return &SQLStore{db: db} }

const userColumns = `id, username, first_name, middle_name, last_name, email, password_hash, admin,
	public_key, opt_out_notification, must_reset_password, last_logged_in, created_at, updated_at, otp_expires_at`

func scanUser(row interface{ Scan(...any) error }) (*User, error) {
	var u User
	var last, otp sql.NullTime
	err := row.Scan(&u.ID, &u.UserName, &u.FirstName, &u.MiddleName, &u.LastName, &u.Email, &u.PasswordHash,
		&u.Admin, &u.PublicKey, &u.OptOutNotification, &u.MustResetPassword, &last, &u.CreatedAt, &u.UpdatedAt, &otp)
	if err != nil {
		return nil, store.NotFound(err)
	}
	u.LastLoggedIn = store.TimeOrNil(last)
	u.OTPExpiresAt = store.TimeOrNil(otp)
	return &u, nil
}

func (s *SQLStore) CountUsers(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM users").Scan(&n)
	return n, err
}

// ErrUsernameTaken is returned when a user name exists already (case-insensitively).
var ErrUsernameTaken = errors.New("username taken")

func (s *SQLStore) CreateUser(ctx context.Context, u *User) error {
	return s.db.WithTx(ctx, func(tx *store.Tx) error { return s.CreateUserTx(ctx, tx, u) })
}

// CreateUserTx inserts a user inside the caller's transaction.
func (s *SQLStore) CreateUserTx(ctx context.Context, tx *store.Tx, u *User) error {
	now := time.Now().UTC()
	u.CreatedAt, u.UpdatedAt = now, now
	err := tx.QueryRowContext(ctx, `INSERT INTO users (username, username_key, first_name, middle_name, last_name,
		email, password_hash, admin, public_key, opt_out_notification, must_reset_password, otp_expires_at, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		u.UserName, usernameKey(u.UserName), u.FirstName, u.MiddleName, u.LastName, u.Email, u.PasswordHash,
		u.Admin, u.PublicKey, u.OptOutNotification, u.MustResetPassword, u.OTPExpiresAt, now, now).Scan(&u.ID)
	if store.IsUniqueViolation(err) {
		return ErrUsernameTaken
	}
	return err
}

func (s *SQLStore) UserByID(ctx context.Context, id int64) (*User, error) {
	return scanUser(s.db.QueryRowContext(ctx, "SELECT "+userColumns+" FROM users WHERE id = ?", id))
}

func (s *SQLStore) UserByUsername(ctx context.Context, username string) (*User, error) {
	return scanUser(s.db.QueryRowContext(ctx, "SELECT "+userColumns+" FROM users WHERE username_key = ?", usernameKey(username)))
}

func (s *SQLStore) StartSession(ctx context.Context, sess *Session) error {
	return s.db.WithTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET revoked_at = ?, revoked_reason = ?
			WHERE user_id = ? AND revoked_at IS NULL`, sess.CreatedAt, RevokedSuperseded, sess.UserID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, user_id, refresh_hash, created_at, refreshed_at,
			expires_at, client_addr, user_agent) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			sess.ID, sess.UserID, sess.RefreshHash, sess.CreatedAt, sess.RefreshedAt, sess.ExpiresAt, sess.ClientAddr, sess.UserAgent); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "UPDATE users SET last_logged_in = ? WHERE id = ?", sess.CreatedAt, sess.UserID)
		return err
	})
}

// SessionWithUser reads a session and its user in one query (every authenticated request
// asks for both).
func (s *SQLStore) SessionWithUser(ctx context.Context, sessionID string) (*Session, *User, error) {
	var sess Session
	var revoked sql.NullTime
	row := s.db.QueryRowContext(ctx, `SELECT s.id, s.user_id, s.refresh_hash, s.created_at, s.refreshed_at, s.expires_at,
		s.revoked_at, s.revoked_reason, s.client_addr, s.user_agent, `+sessionUserColumns+`
		FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ?`, sessionID)
	u, err := scanUser(scanAfter{row, []any{&sess.ID, &sess.UserID, &sess.RefreshHash, &sess.CreatedAt, &sess.RefreshedAt,
		&sess.ExpiresAt, &revoked, &sess.RevokedReason, &sess.ClientAddr, &sess.UserAgent}})
	if err != nil {
		return nil, nil, err
	}
	if revoked.Valid {
		t := revoked.Time
		sess.RevokedAt = &t
	}
	return &sess, u, nil
}

// scanAfter scans leading columns into first, the rest as the caller asks (scanUser).
type scanAfter struct {
	row   *sql.Row
	first []any
}

func (s scanAfter) Scan(dest ...any) error { return s.row.Scan(append(s.first, dest...)...) }

// sessionUserColumns are userColumns aliased u., in the same order.
var sessionUserColumns = func() string {
	cols := strings.Split(userColumns, ",")
	for i, c := range cols {
		cols[i] = "u." + strings.TrimSpace(c)
	}
	return strings.Join(cols, ", ")
}()

// RotateRefresh swaps the refresh hash only if it still is oldHash, so two concurrent
// refreshes with the same token cannot both succeed.
func (s *SQLStore) RotateRefresh(ctx context.Context, sessionID, oldHash, newHash string, at time.Time) (bool, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE sessions SET refresh_hash = ?, refreshed_at = ?
		WHERE id = ? AND refresh_hash = ? AND revoked_at IS NULL`, newHash, at, sessionID, oldHash)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func (s *SQLStore) RevokeSession(ctx context.Context, sessionID, reason string, at time.Time) error {
	_, err := s.db.ExecContext(ctx, `UPDATE sessions SET revoked_at = ?, revoked_reason = ?
		WHERE id = ? AND revoked_at IS NULL`, at, reason, sessionID)
	return err
}

// SigningKey returns the token signing key, creating it on first use. Every instance
// sharing the database reads the same key.
func (s *SQLStore) SigningKey(ctx context.Context) (string, error) {
	const name = "jwt_signing_key"
	if _, err := s.db.ExecContext(ctx, `INSERT INTO server_secrets (name, value, created_at) VALUES (?, ?, ?)
		ON CONFLICT (name) DO NOTHING`, name, newSigningKey(), time.Now().UTC()); err != nil {
		return "", err
	}
	var key string
	err := s.db.QueryRowContext(ctx, "SELECT value FROM server_secrets WHERE name = ?", name).Scan(&key)
	return key, err
}

func formatID(id int64) string { return strconv.FormatInt(id, 10) }

// IsAdmin reports whether a user exists and is an administrator.
func (s *SQLStore) IsAdmin(ctx context.Context, userID int64) (exists, admin bool, err error) {
	err = s.db.QueryRowContext(ctx, "SELECT admin FROM users WHERE id = ?", userID).Scan(&admin)
	if errors.Is(err, sql.ErrNoRows) {
		return false, false, nil
	}
	return err == nil, admin, err
}
