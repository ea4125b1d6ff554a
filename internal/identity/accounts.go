package identity

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"portalwright/internal/apperr"
	"portalwright/internal/audit"
	"portalwright/internal/caller"
	"portalwright/internal/store"
	"portalwright/internal/validate"
)

// Mail is an e-mail identity sends (reset links, one-time passwords, admin messages).
type Mail struct {
	To, ToName, Subject, Text string
	UserID                    int64
	Transactional             bool // sent even when the user opted out of notifications
}

// Mailer queues mail in the caller's transaction, so an account change and its e-mail
// are stored together or not at all.
type Mailer interface {
	QueueTx(ctx context.Context, tx *store.Tx, m Mail) error
}

// Auditor records sign-in and account actions.
type Auditor interface {
	Record(ctx context.Context, e audit.Entry)
}

// WithMailer and WithAuditor complete a Service.
func (s *Service) WithMailer(m Mailer) *Service   { s.mailer = m; return s }
func (s *Service) WithAuditor(a Auditor) *Service { s.audit = a; return s }

// Lifetimes and limits of the account flows.
const (
	ResetTokenTTL      = time.Hour
	OneTimePasswordTTL = 7 * 24 * time.Hour
	OneTimePasswordLen = 12
)

// Messages of the account flows (spec 1 §5.1, §5.2, §8 where it has them).
const (
	MsgResetInvalid         = "Password or Token was invalid, try again."
	MsgResetRequested       = "Please check your email for the password reset link"
	MsgTooManyAttempts      = "Too many failed sign-in attempts. Please wait %s and try again."
	MsgTooManyResets        = "Too many password reset requests. Please wait %s and try again."
	MsgCurrentPasswordWrong = "The current password is incorrect."
	MsgEmailAdminOnly       = "Only administrators can change the e-mail address."
	MsgUserNotFound         = "The user does not exist."
	MsgCannotDeleteSelf     = "You cannot delete your own account."
)

func (s *Service) record(ctx context.Context, action string, actor *User, p *caller.Caller, entityID int64, details, addr string) {
	if s.audit == nil {
		return
	}
	e := audit.Entry{Action: action, EntityType: "USER", Details: details, ClientAddr: addr}
	if entityID != 0 {
		e.EntityID = strconv.FormatInt(entityID, 10)
	}
	switch {
	case p != nil:
		id := p.UserID
		e.ActorID, e.ActorName = &id, p.Username
	case actor != nil:
		id := actor.ID
		e.ActorID, e.ActorName = &id, actor.UserName
	}
	s.audit.Record(ctx, e)
}

func (s *Service) queue(ctx context.Context, tx *store.Tx, m Mail) error {
	if s.mailer == nil {
		return errors.New("identity: no mailer configured")
	}
	return s.mailer.QueueTx(ctx, tx, m)
}

func (s *Service) link(fragment string) string {
	return strings.TrimRight(s.cfg.PublicURL, "/") + "/#/" + fragment
}

// password reset --------------------------------------------------------------------------

// RequestPasswordReset stores the chosen new password and e-mails a link that confirms it.
// It answers the same whether or not the user exists, so it cannot be used to find names:
// the throttle counts every name alike (a looser cap per client address answers 429 whatever
// the name), the password is hashed either way, and at most one mail per user name is queued
// per ResetMailInterval — further requests answer as success and queue nothing.
func (s *Service) RequestPasswordReset(ctx context.Context, userName, newPassword string, client ClientInfo) error {
	userName = strings.TrimSpace(userName)
	if userName == "" || newPassword == "" {
		return apperr.Validation(validate.MsgFieldRequired)
	}
	if err := validate.PasswordLength(newPassword); err != nil {
		return apperr.Validation(err.Error())
	}
	now := s.now()
	if wait, err := s.store.Reserve(ctx, now, []bucket{{bucketName("reset-addr", client.Addr), resetAddrLimit}}); err != nil {
		return err
	} else if wait > 0 {
		return tooMany(MsgTooManyResets, wait)
	}
	hash, err := HashPassword(newPassword)
	if err != nil {
		return err
	}
	wait, err := s.store.Reserve(ctx, now, []bucket{{bucketName("reset-user", usernameKey(userName)), resetUserLimit}})
	if err != nil {
		return err
	}
	u, err := s.store.UserByUsername(ctx, userName)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if wait > 0 {
		s.record(ctx, "PASSWORD_RESET_REQUESTED", u, nil, u.ID, "throttled: a reset mail was sent within the last few minutes; none queued", client.Addr)
		return nil
	}
	if u.Email == "" {
		s.record(ctx, "PASSWORD_RESET_REQUESTED", u, nil, u.ID, "no e-mail address on file", client.Addr)
		return nil
	}
	token := uuid.NewString()
	err = s.store.DB().WithTx(ctx, func(tx *store.Tx) error {
		if err := s.store.CreateResetTx(ctx, tx, hashSecret(token), u.ID, hash, s.now().Add(ResetTokenTTL)); err != nil {
			return err
		}
		return s.queue(ctx, tx, Mail{To: u.Email, ToName: u.FullName(), UserID: u.ID, Transactional: true,
			Subject: "Confirm your new Portalwright password",
			Text: fmt.Sprintf("Hello %s,\r\n\r\nA new password was requested for your Portalwright account %q.\r\n"+
				"To make it your password, open this link within one hour and confirm it:\r\n\r\n%s\r\n\r\n"+
				"If you did not ask for this, ignore this message: your password stays as it is.\r\n",
				firstNonEmpty(u.FirstName, u.UserName), u.UserName, s.link("confirm-password/"+token)),
		})
	})
	if err != nil {
		return err
	}
	s.record(ctx, "PASSWORD_RESET_REQUESTED", u, nil, u.ID, "", client.Addr)
	return nil
}

// ConfirmPasswordReset finishes a reset and signs the user in. token is either the link's
// token (the password must match the one chosen at request time) or, with a username, the
// one-time password of an account that must set a new password.
func (s *Service) ConfirmPasswordReset(ctx context.Context, token, password, username string, client ClientInfo) (*Tokens, error) {
	if token == "" || password == "" {
		return nil, apperr.Validation(validate.MsgConfirmPassword)
	}
	if r, err := s.store.reset(ctx, hashSecret(token)); err == nil {
		return s.confirmReset(ctx, token, r, password, client)
	} else if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	if username != "" {
		return s.replaceOneTimePassword(ctx, username, token, password, client)
	}
	return nil, apperr.BadRequest("RESET_INVALID", MsgResetInvalid)
}

func (s *Service) confirmReset(ctx context.Context, token string, r *passwordReset, password string, client ClientInfo) (*Tokens, error) {
	invalid := apperr.BadRequest("RESET_INVALID", MsgResetInvalid)
	if r.UsedAt != nil || !s.now().Before(r.ExpiresAt) {
		return nil, invalid
	}
	if ok, err := VerifyPassword(r.PasswordHash, password); err != nil || !ok {
		return nil, invalid
	}
	var used bool
	err := s.store.DB().WithTx(ctx, func(tx *store.Tx) error {
		var err error
		if used, err = s.store.UseResetTx(ctx, tx, hashSecret(token), s.now()); err != nil || !used {
			return err
		}
		return s.store.SetPasswordTx(ctx, tx, r.UserID, r.PasswordHash, false, nil)
	})
	if err != nil {
		return nil, err
	}
	if !used {
		return nil, invalid
	}
	u, err := s.store.UserByID(ctx, r.UserID)
	if err != nil {
		return nil, err
	}
	s.record(ctx, "PASSWORD_RESET_CONFIRMED", u, nil, u.ID, "", client.Addr)
	return s.startSession(ctx, u, client)
}

// replaceOneTimePassword sets the password of an account that signed in with a one-time
// password (the login answered 403 / 149).
func (s *Service) replaceOneTimePassword(ctx context.Context, username, oneTime, password string, client ClientInfo) (*Tokens, error) {
	invalid := apperr.BadRequest("RESET_INVALID", MsgResetInvalid)
	if err := s.reserveSignIn(ctx, username, client.Addr); err != nil {
		return nil, err
	}
	u, err := s.store.UserByUsername(ctx, username)
	if errors.Is(err, store.ErrNotFound) {
		_, _ = VerifyPassword(dummyHash(), oneTime)
		return nil, invalid
	}
	if err != nil {
		return nil, err
	}
	if !u.MustResetPassword || (u.OTPExpiresAt != nil && !s.now().Before(*u.OTPExpiresAt)) {
		_, _ = VerifyPassword(dummyHash(), oneTime) // costs what a real check costs
		return nil, invalid
	}
	if ok, err := VerifyPassword(u.PasswordHash, oneTime); err != nil || !ok {
		return nil, invalid
	}
	s.signInSucceeded(ctx, u, username, client.Addr)
	if err := validate.PasswordLength(password); err != nil {
		return nil, apperr.Validation(err.Error())
	}
	if password == oneTime {
		return nil, apperr.Validation(validate.MsgPasswordUnchanged)
	}
	hash, err := HashPassword(password)
	if err != nil {
		return nil, err
	}
	if err := s.store.DB().WithTx(ctx, func(tx *store.Tx) error {
		return s.store.SetPasswordTx(ctx, tx, u.ID, hash, false, nil)
	}); err != nil {
		return nil, err
	}
	s.record(ctx, "ONE_TIME_PASSWORD_USED", u, nil, u.ID, "", client.Addr)
	u.MustResetPassword = false
	return s.startSession(ctx, u, client)
}

// one-time passwords ----------------------------------------------------------------------

func (s *Service) oneTimePasswordMail(u *User, otp string) Mail {
	return Mail{To: u.Email, ToName: u.FullName(), UserID: u.ID, Transactional: true,
		Subject: "Your Portalwright one-time password",
		Text: fmt.Sprintf("Hello %s,\r\n\r\nYour Portalwright user name is %q and your one-time password is:\r\n\r\n    %s\r\n\r\n"+
			"Sign in at %s with it within 7 days; you will then choose your own password.\r\n",
			firstNonEmpty(u.FirstName, u.UserName), u.UserName, otp, s.link("")),
	}
}

// AdminUser is what an admin fills in to create or edit a user.
type AdminUser struct {
	UserName           string `json:"userName"`
	FirstName          string `json:"firstName"`
	MiddleName         string `json:"middleName"`
	LastName           string `json:"lastName"`
	Email              string `json:"email"`
	Admin              bool   `json:"admin"`
	OptOutNotification bool   `json:"optOutNotification"`
}

func checkPersonFields(first, middle, last, email string) error {
	if err := validate.PersonName(first, true); err != nil {
		return apperr.Validation("First name: " + err.Error())
	}
	if err := validate.PersonName(middle, false); err != nil {
		return apperr.Validation("Middle name: " + err.Error())
	}
	if err := validate.PersonName(last, true); err != nil {
		return apperr.Validation("Last name: " + err.Error())
	}
	if err := validate.Email(email); err != nil {
		return apperr.Validation(err.Error())
	}
	return nil
}

// CreateUserByAdmin creates an account with a one-time password e-mailed to the user.
func (s *Service) CreateUserByAdmin(ctx context.Context, p caller.Caller, in AdminUser) (*User, error) {
	in.UserName = strings.TrimSpace(in.UserName)
	in.Email = strings.TrimSpace(in.Email)
	if err := validate.Username(in.UserName); err != nil {
		return nil, apperr.Validation(err.Error())
	}
	if err := checkPersonFields(in.FirstName, in.MiddleName, in.LastName, in.Email); err != nil {
		return nil, err
	}
	otp := RandomPassword(OneTimePasswordLen)
	hash, err := HashPassword(otp)
	if err != nil {
		return nil, err
	}
	expires := s.now().Add(OneTimePasswordTTL)
	u := &User{UserName: in.UserName, FirstName: in.FirstName, MiddleName: in.MiddleName, LastName: in.LastName,
		Email: in.Email, Admin: in.Admin, OptOutNotification: in.OptOutNotification,
		PasswordHash: hash, MustResetPassword: true, OTPExpiresAt: &expires}
	err = s.store.DB().WithTx(ctx, func(tx *store.Tx) error {
		if err := s.store.CreateUserTx(ctx, tx, u); err != nil {
			return err
		}
		return s.queue(ctx, tx, s.oneTimePasswordMail(u, otp))
	})
	if errors.Is(err, ErrUsernameTaken) {
		return nil, apperr.Conflict("USERNAME_TAKEN", "A user with this username already exists.")
	}
	if err != nil {
		return nil, err
	}
	s.record(ctx, "USER_CREATED", nil, &p, u.ID, u.UserName, "")
	return u, nil
}

// ForceResetPassword replaces a user's password with a new one-time password, ends their
// sessions and e-mails it.
func (s *Service) ForceResetPassword(ctx context.Context, p caller.Caller, userID int64) error {
	u, err := s.userOr404(ctx, userID)
	if err != nil {
		return err
	}
	if u.Email == "" {
		return apperr.Validation("The user has no e-mail address to send a one-time password to.")
	}
	otp := RandomPassword(OneTimePasswordLen)
	hash, err := HashPassword(otp)
	if err != nil {
		return err
	}
	expires := s.now().Add(OneTimePasswordTTL)
	if err := s.store.DB().WithTx(ctx, func(tx *store.Tx) error {
		if err := s.store.SetPasswordTx(ctx, tx, u.ID, hash, true, &expires); err != nil {
			return err
		}
		return s.queue(ctx, tx, s.oneTimePasswordMail(u, otp))
	}); err != nil {
		return err
	}
	s.record(ctx, "USER_FORCE_RESET", nil, &p, u.ID, u.UserName, "")
	s.sessionsChanged(ctx, u.ID)
	return nil
}

// users -----------------------------------------------------------------------------------

func (s *Service) userOr404(ctx context.Context, id int64) (*User, error) {
	u, err := s.store.UserByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, apperr.NotFound("USER_NOT_FOUND", MsgUserNotFound)
	}
	return u, err
}

// UserByName finds a user for callers that identify users by name.
func (s *Service) UserByName(ctx context.Context, name string) (*User, error) {
	u, err := s.store.UserByUsername(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return nil, apperr.NotFound("USER_NOT_FOUND", MsgUserNotFound)
	}
	return u, err
}

// Users lists every user (admins).
func (s *Service) Users(ctx context.Context) ([]User, error) { return s.store.AllUsers(ctx) }

// User returns one user by id.
func (s *Service) User(ctx context.Context, id int64) (*User, error) { return s.userOr404(ctx, id) }

// DeleteUser removes an account (admins; not their own).
func (s *Service) DeleteUser(ctx context.Context, p caller.Caller, id int64) error {
	if id == p.UserID {
		return apperr.Validation(MsgCannotDeleteSelf)
	}
	u, err := s.userOr404(ctx, id)
	if err != nil {
		return err
	}
	if err := s.store.DeleteUser(ctx, id); err != nil {
		return err
	}
	s.record(ctx, "USER_DELETED", nil, &p, id, u.UserName, "")
	s.sessionsChanged(ctx, id)
	return nil
}

// ProfileUpdate is the body of PUT /user/update: the user's details and preferences.
type ProfileUpdate struct {
	ID                 int64  `json:"id"`
	FirstName          string `json:"firstName"`
	MiddleName         string `json:"middleName"`
	LastName           string `json:"lastName"`
	Email              string `json:"email"`
	OptOutNotification *bool  `json:"optOutNotification"`
	Admin              *bool  `json:"admin"` // admins only, and not on their own account
}

// UpdateProfile changes a user's details (their own, or anyone's for admins). Only admins
// may change the e-mail address or the admin flag (spec 1 §5.2).
func (s *Service) UpdateProfile(ctx context.Context, p caller.Caller, in ProfileUpdate) (*User, error) {
	if in.ID == 0 {
		in.ID = p.UserID
	}
	if in.ID != p.UserID && !p.Admin {
		return nil, apperr.Forbidden("FORBIDDEN", "You can only change your own profile.")
	}
	u, err := s.userOr404(ctx, in.ID)
	if err != nil {
		return nil, err
	}
	in.Email = strings.TrimSpace(in.Email)
	if !p.Admin && !strings.EqualFold(in.Email, u.Email) {
		return nil, apperr.Forbidden("EMAIL_ADMIN_ONLY", MsgEmailAdminOnly)
	}
	if err := checkPersonFields(in.FirstName, in.MiddleName, in.LastName, in.Email); err != nil {
		return nil, err
	}
	u.FirstName, u.MiddleName, u.LastName, u.Email = in.FirstName, in.MiddleName, in.LastName, in.Email
	if in.OptOutNotification != nil {
		u.OptOutNotification = *in.OptOutNotification
	}
	if in.Admin != nil && *in.Admin != u.Admin {
		if !p.Admin || u.ID == p.UserID {
			return nil, apperr.Forbidden("FORBIDDEN", "Only another administrator can change the administrator flag.")
		}
		u.Admin = *in.Admin
	}
	if err := s.store.UpdateUser(ctx, u); err != nil {
		return nil, err
	}
	s.record(ctx, "USER_UPDATED", nil, &p, u.ID, u.UserName, "")
	s.sessionsChanged(ctx, u.ID) // the admin flag may have gone
	return u, nil
}

// ChangePassword changes the caller's password after checking the current one. The session
// the caller uses stays; others end.
func (s *Service) ChangePassword(ctx context.Context, p caller.Caller, current, next string) error {
	if current == "" || next == "" {
		return apperr.Validation(validate.MsgFieldRequired)
	}
	for _, pw := range []string{current, next} {
		if err := validate.PasswordCharacters(pw); err != nil {
			return apperr.Validation(err.Error())
		}
	}
	if err := validate.PasswordLength(next); err != nil {
		return apperr.Validation(err.Error())
	}
	if next == current {
		return apperr.Validation(validate.MsgPasswordUnchanged)
	}
	u, err := s.userOr404(ctx, p.UserID)
	if err != nil {
		return err
	}
	if ok, err := VerifyPassword(u.PasswordHash, current); err != nil || !ok {
		return apperr.BadRequest("CURRENT_PASSWORD_WRONG", MsgCurrentPasswordWrong)
	}
	hash, err := HashPassword(next)
	if err != nil {
		return err
	}
	err = s.store.DB().WithTx(ctx, func(tx *store.Tx) error {
		if err := s.store.SetPasswordTx(ctx, tx, u.ID, hash, false, nil); err != nil {
			return err
		}
		// Keep the caller signed in: reopen the session SetPasswordTx just closed.
		_, err := tx.ExecContext(ctx, "UPDATE sessions SET revoked_at = NULL, revoked_reason = '' WHERE id = ?", p.SessionID)
		return err
	})
	if err != nil {
		return err
	}
	s.record(ctx, "PASSWORD_CHANGED", u, nil, u.ID, "", "")
	s.sessionsChanged(ctx, u.ID) // the user's other sessions ended
	return nil
}

func firstNonEmpty(v ...string) string {
	for _, s := range v {
		if s != "" {
			return s
		}
	}
	return ""
}
