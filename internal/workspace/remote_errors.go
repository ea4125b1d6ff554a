package workspace

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"portalwright/internal/gitcli"
)

// RemoteFailure says why talking to a user-given remote failed, in terms the user can act on.
type RemoteFailure int

const (
	RemoteOther         RemoteFailure = iota
	RemoteUnreachable                 // no such host, refused, timed out connecting
	RemoteAuth                        // credentials missing or refused
	RemoteNotRepository               // the server answered, but there is no repository there
	RemoteCorrupt                     // the transfer broke off or the remote's data is damaged
	RemoteTimeout                     // our own time-out ran out
	RemoteEmpty                       // the repository has no branch
)

// RemoteError is a failed fetch, clone or lookup of a remote repository.
type RemoteError struct {
	Failure RemoteFailure
	Err     error
}

func (e *RemoteError) Error() string { return e.Err.Error() }
func (e *RemoteError) Unwrap() error { return e.Err }

// stderr patterns of git and its transports (git 2.30+, curl, ssh), lower-cased.
var remotePatterns = []struct {
	failure RemoteFailure
	words   []string
}{
	{RemoteNotRepository, []string{"repository not found", "does not appear to be a git repository", "the requested url returned error: 404",
		"repository not exported", "not found", "no such repository", "not a git repository"}},
	{RemoteAuth, []string{"authentication failed", "could not read username", "could not read password", "terminal prompts disabled",
		"permission denied (publickey", "the requested url returned error: 401", "the requested url returned error: 403", "access denied", "invalid credentials"}},
	{RemoteUnreachable, []string{"could not resolve host", "name or service not known", "connection refused", "connection timed out",
		"failed to connect", "network is unreachable", "no route to host", "could not connect", "unable to connect", "temporary failure in name resolution",
		"ssl certificate problem", "connection reset"}},
	{RemoteCorrupt, []string{"early eof", "unexpected disconnect", "index-pack failed", "protocol error", "corrupt", "bad object",
		"invalid index-pack output", "did not send all necessary objects", "fetch-pack: invalid", "rpc failed"}},
}

// ClassifyRemote turns a git error of a remote operation into a *RemoteError.
func ClassifyRemote(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, gitcli.ErrTimeout) || errors.Is(err, context.DeadlineExceeded) {
		return &RemoteError{Failure: RemoteTimeout, Err: err}
	}
	var ge *gitcli.Error
	if !errors.As(err, &ge) {
		return err
	}
	text := strings.ToLower(ge.Stderr)
	for _, p := range remotePatterns {
		for _, w := range p.words {
			if strings.Contains(text, w) {
				return &RemoteError{Failure: p.failure, Err: err}
			}
		}
	}
	return &RemoteError{Failure: RemoteOther, Err: err}
}

// ErrNoSuchBranch is a start branch asked for that the staged repository does not have.
var ErrNoSuchBranch = errors.New("the repository has no such branch")

// StartBranch is the branch a staged import starts on: the one asked for (ErrNoSuchBranch
// when the repository lacks it), else the remote's default branch (its HEAD), else master,
// else the first branch. It fails with RemoteEmpty when there is none.
func (s *Staged) StartBranch(ctx context.Context, wanted string) (string, error) {
	branches, err := s.r.refs(ctx, s.bare, "refs/heads/")
	if err != nil {
		return "", err
	}
	if len(branches) == 0 {
		return "", &RemoteError{Failure: RemoteEmpty, Err: errors.New("the repository has no branch")}
	}
	if wanted != "" {
		if slices.Contains(branches, wanted) {
			return wanted, nil
		}
		return "", ErrNoSuchBranch
	}
	head, _ := os.ReadFile(filepath.Join(s.bare, "HEAD"))
	if name, ok := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: refs/heads/"); ok {
		for _, b := range branches {
			if b == name {
				return name, nil
			}
		}
	}
	for _, b := range branches {
		if b == DefaultBranch {
			return b, nil
		}
	}
	return branches[0], nil
}
