package identity

import (
	"context"
	"database/sql"
	"time"

	"portalwright/internal/store"
)

// AllUsers lists every user by user name.
func (s *SQLStore) AllUsers(ctx context.Context) ([]User, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+userColumns+" FROM users ORDER BY username_key")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []User{}
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *u)
	}
	return out, rows.Err()
}

// UsersByEmail finds users by e-mail address, case-insensitively.
func (s *SQLStore) UsersByEmail(ctx context.Context, email string) ([]User, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+userColumns+" FROM users WHERE LOWER(email) = LOWER(?) ORDER BY id", email)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []User
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *u)
	}
	return out, rows.Err()
}

// UpdateUser writes the editable fields of a user.
func (s *SQLStore) UpdateUser(ctx context.Context, u *User) error {
	u.UpdatedAt = time.Now().UTC()
	return store.Affected(s.db.ExecContext(ctx, `UPDATE users SET first_name = ?, middle_name = ?, last_name = ?, email = ?,
		admin = ?, opt_out_notification = ?, public_key = ?, updated_at = ? WHERE id = ?`,
		u.FirstName, u.MiddleName, u.LastName, u.Email, u.Admin, u.OptOutNotification, u.PublicKey, u.UpdatedAt, u.ID))
}

// SetPasswordTx replaces the password. mustReset marks it as a one-time password (expiring at
// otpExpires). Every session of the user ends: a new password signs everybody out.
func (s *SQLStore) SetPasswordTx(ctx context.Context, tx *store.Tx, userID int64, hash string, mustReset bool, otpExpires *time.Time) error {
	now := time.Now().UTC()
	if err := store.Affected(tx.ExecContext(ctx, `UPDATE users SET password_hash = ?, must_reset_password = ?, otp_expires_at = ?, updated_at = ?
		WHERE id = ?`, hash, mustReset, otpExpires, now, userID)); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `UPDATE sessions SET revoked_at = ?, revoked_reason = ? WHERE user_id = ? AND revoked_at IS NULL`,
		now, RevokedPasswordChanged, userID)
	return err
}

// DeleteUser removes a user; sessions, memberships and resets go with it.
func (s *SQLStore) DeleteUser(ctx context.Context, id int64) error {
	return store.Affected(s.db.ExecContext(ctx, "DELETE FROM users WHERE id = ?", id))
}

// passwordReset is a pending reset.
type passwordReset struct {
	UserID       int64
	PasswordHash string
	ExpiresAt    time.Time
	UsedAt       *time.Time
}

func (s *SQLStore) CreateResetTx(ctx context.Context, tx *store.Tx, tokenHash string, userID int64, passwordHash string, expires time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO password_resets (token_hash, user_id, password_hash, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?)`, tokenHash, userID, passwordHash, time.Now().UTC(), expires)
	return err
}

func (s *SQLStore) reset(ctx context.Context, tokenHash string) (*passwordReset, error) {
	var r passwordReset
	var used sql.NullTime
	err := s.db.QueryRowContext(ctx, `SELECT user_id, password_hash, expires_at, used_at FROM password_resets WHERE token_hash = ?`,
		tokenHash).Scan(&r.UserID, &r.PasswordHash, &r.ExpiresAt, &used)
	if err != nil {
		return nil, store.NotFound(err)
	}
	r.UsedAt = store.TimeOrNil(used)
	return &r, nil
}

// UseResetTx marks a reset used; false when it was used already (two confirmations racing).
func (s *SQLStore) UseResetTx(ctx context.Context, tx *store.Tx, tokenHash string, at time.Time) (bool, error) {
	res, err := tx.ExecContext(ctx, "UPDATE password_resets SET used_at = ? WHERE token_hash = ? AND used_at IS NULL", at, tokenHash)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// DB exposes the database for transactions that span identity and other writes (mail).
func (s *SQLStore) DB() *store.DB { return s.db }
