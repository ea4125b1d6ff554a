// Package identity owns users, passwords and sign-in sessions: login, token refresh,
// logout and the profile of the caller.
package identity

import (
	"strings"
	"time"
)

// User is a person who signs in. JSON names follow spec 1 §3.
type User struct {
	ID                 int64      `json:"id"`
	UserName           string     `json:"userName"`
	FirstName          string     `json:"firstName"`
	MiddleName         string     `json:"middleName"`
	LastName           string     `json:"lastName"`
	Email              string     `json:"email"`
	Admin              bool       `json:"admin"`
	PublicKey          string     `json:"publicKey"`
	OptOutNotification bool       `json:"optOutNotification"`
	LastLoggedIn       *time.Time `json:"lastLoggedIn"`

	PasswordHash      string     `json:"-"`
	MustResetPassword bool       `json:"-"`
	OTPExpiresAt      *time.Time `json:"-"` // when the one-time password stops working
	CreatedAt         time.Time  `json:"-"`
	UpdatedAt         time.Time  `json:"-"`
}

// FullName joins the name parts that are set.
func (u *User) FullName() string {
	parts := make([]string, 0, 3)
	for _, p := range []string{u.FirstName, u.MiddleName, u.LastName} {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, " ")
}

// usernameKey is the case-insensitive identity of a user name.
func usernameKey(username string) string { return strings.ToLower(strings.TrimSpace(username)) }

// Session is one sign-in: the access tokens issued for it name it, so revoking it ends them.
type Session struct {
	ID            string
	UserID        int64
	RefreshHash   string
	CreatedAt     time.Time
	RefreshedAt   time.Time
	ExpiresAt     time.Time
	RevokedAt     *time.Time
	RevokedReason string
	ClientAddr    string
	UserAgent     string
}

// Reasons a session ends.
const (
	RevokedLogout          = "logout"
	RevokedSuperseded      = "superseded" // the user signed in elsewhere (one live session per user)
	RevokedReuse           = "refresh_reuse"
	RevokedPasswordChanged = "password_changed"
	RevokedUserDeleted     = "user_deleted"
)
