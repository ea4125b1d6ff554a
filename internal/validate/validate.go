// Package validate implements the input rules of the spec (spec 1 §5) once for the server.
// Each rule returns the spec's message, so handlers pass it straight to the client.
// The web client has the same rules in web/src/lib/validation.ts.
package validate

import (
	"fmt"
	"regexp"
	"unicode/utf8"
)

// Constants of spec 1 §9.
const (
	MinPasswordLength = 5
	MaxUsernameLength = 20
)

// Messages of spec 1 §5.
const (
	MsgMissingCredentials = "Missing username or password"
	MsgUsername           = "Username not valid. Please enter only alphanumeric characters, dashes and underscores with a max length of 20."
	MsgFieldRequired      = "The field is required"
)

var usernamePattern = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_-]{0,19}$`)

// Username checks spec 1 §5.3: 1 to 20 letters, digits, dashes or underscores, not starting
// with a dash or whitespace.
func Username(s string) error {
	if !usernamePattern.MatchString(s) {
		return fmt.Errorf("%s", MsgUsername)
	}
	return nil
}

// PasswordLength checks the minimum length of a new password (spec 1 §5.1).
func PasswordLength(s string) error {
	if utf8.RuneCountInString(s) < MinPasswordLength {
		return fmt.Errorf("Your password needs to be at least %d characters.", MinPasswordLength)
	}
	return nil
}
