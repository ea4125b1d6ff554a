package portal

import (
	"errors"
	"net/http"

	"portalwright/internal/apperr"
	"portalwright/internal/validate"
	"portalwright/internal/workspace"
)

// Answers to git URLs the remote host policy refuses (internal/workspace/remote_policy.go).
const (
	CodeGitHostNotAllowed = "GIT_HOST_NOT_ALLOWED"
	MsgGitHostNotAllowed  = "This git URL points to a private or local network address, which this server does not fetch from. Ask your administrator to allow private git hosts."
	CodeGitHostNotFound   = "GIT_HOST_NOT_FOUND"
	MsgGitHostNotFound    = "The host name in this git URL could not be found. Check the URL for typing errors and that the git server's name is known on the network."
)

// refusedRemote answers a git URL the remote host policy refused; any other error is
// returned as it is.
func refusedRemote(err error) error {
	var refused *workspace.RemoteRefusedError
	if !errors.As(err, &refused) {
		return err
	}
	switch refused.Reason {
	case workspace.RefusedPrivateAddress:
		return apperr.NewError(http.StatusBadRequest, CodeGitHostNotAllowed, "Bad Request", MsgGitHostNotAllowed).WithCause(err)
	case workspace.RefusedHostNotFound:
		return apperr.NewError(http.StatusBadRequest, CodeGitHostNotFound, "Bad Request", MsgGitHostNotFound).WithCause(err)
	default:
		return apperr.Validation(validate.MsgGitURL).WithCause(err)
	}
}
