// Package apperr is the API error: what a service returns for every failure a user can cause
// or act on. It speaks no HTTP beyond the status number the error carries; internal/httpx
// writes it as the JSON error body. Services, the task runner and realtime import it instead
// of httpx.
package apperr

import (
	"errors"
	"fmt"
	"net/http"
)

// Error is an API error. Its JSON form is the error object of the spec:
// {errorTitle, errorMessage, errorCode, errorCodeDesc, httpStatus, data}, plus requestId.
// Services return it for every failure a user can cause or act on.
type Error struct {
	Status   int    `json:"httpStatus"`
	Title    string `json:"errorTitle"`
	Message  string `json:"errorMessage"`
	Code     string `json:"errorCode"`
	CodeDesc string `json:"errorCodeDesc"`
	Data     any    `json:"data"`
	Err      error  `json:"-"` // the cause, logged but never sent
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s (%d %s): %v", e.Message, e.Status, e.Code, e.Err)
	}
	return fmt.Sprintf("%s (%d %s)", e.Message, e.Status, e.Code)
}

func (e *Error) Unwrap() error { return e.Err }

// WithData attaches details for the client (e.g. rule warnings) and returns e.
func (e *Error) WithData(d any) *Error { e.Data = d; return e }

// WithCause records the underlying error for the log and returns e.
func (e *Error) WithCause(err error) *Error { e.Err = err; return e }

// NewError builds an error; code is a stable machine-readable name (e.g. INVALID_CREDENTIALS).
func NewError(status int, code, title, message string) *Error {
	return &Error{Status: status, Code: code, Title: title, Message: message, CodeDesc: codeDesc(code, status)}
}

// codeDesc is the human label of a code: the code itself, or the status text without one.
func codeDesc(code string, status int) string {
	if code != "" {
		return code
	}
	return http.StatusText(status)
}

// Constructors for the common cases. The message is what the user reads: use the spec's wording.
func BadRequest(code, message string) *Error {
	return NewError(http.StatusBadRequest, code, "Bad Request", message)
}
func Unauthorized(code, message string) *Error {
	return NewError(http.StatusUnauthorized, code, "Unauthorized", message)
}
func Forbidden(code, message string) *Error {
	return NewError(http.StatusForbidden, code, "Forbidden", message)
}
func NotFound(code, message string) *Error {
	return NewError(http.StatusNotFound, code, "Not Found", message)
}
func Conflict(code, message string) *Error {
	return NewError(http.StatusConflict, code, "Conflict", message)
}
func TooManyRequests(code, message string) *Error {
	return NewError(http.StatusTooManyRequests, code, "Too Many Requests", message)
}

// Internal wraps an unexpected failure: the client sees a generic message, the log the cause.
func Internal(err error) *Error {
	return NewError(http.StatusInternalServerError, "INTERNAL_ERROR", "Error", "An unexpected error occurred. Please try again or contact your administrator.").WithCause(err)
}

// AsError returns err as an *Error, wrapping anything else as an internal error.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return Internal(err)
}

// Validation is a 400 for a rule the input broke; message is the rule's wording.
func Validation(message string) *Error {
	return BadRequest("VALIDATION_ERROR", message)
}

// BadID is the 400 for a URL parameter that should be a positive number and is not.
func BadID(name string) *Error {
	return BadRequest("INVALID_ID", "The "+name+" must be a positive number.")
}
