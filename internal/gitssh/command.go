package gitssh

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Service is the git program an exec request asks for.
type Service string

const (
	UploadPack  Service = "git-upload-pack"  // clone, fetch, ls-remote
	ReceivePack Service = "git-receive-pack" // push
)

// Request is a parsed exec request: which program, on which portal of which domain.
type Request struct {
	Service  Service
	DomainID int64
	PortalID int64
}

// Path is the repository path the request named, in its canonical form.
func (r Request) Path() string { return RepoPath(r.DomainID, r.PortalID) }

// RepoPath is the path of a portal's repository on the SSH server: /<domainId>/<portalId>.git.
func RepoPath(domainID, portalID int64) string {
	return "/" + strconv.FormatInt(domainID, 10) + "/" + strconv.FormatInt(portalID, 10) + ".git"
}

// Messages of refused commands, written to the client's stderr.
var (
	ErrCommand = errors.New("Portalwright serves git over SSH only: git-upload-pack (clone, fetch) and git-receive-pack (push). There is no shell.")
	ErrPath    = errors.New("Portalwright: the repository path is /<domainId>/<portalId>.git (the portal settings' git URL)")
)

// repoPath is /<domainId>/<portalId>.git; the leading slash (scp-like URLs omit it) and the
// .git suffix are optional. Ids are positive decimal numbers without leading zeros.
var repoPath = regexp.MustCompile(`^/?([1-9][0-9]{0,17})/([1-9][0-9]{0,17})(?:\.git)?$`)

// ParseCommand reads an exec request's command: exactly `git-upload-pack '<path>'` or
// `git-receive-pack '<path>'`, as git's ssh transport sends it. The path must be one
// single-quoted word of the form /<domainId>/<portalId>.git; anything else is refused.
func ParseCommand(command string) (Request, error) {
	name, arg, ok := strings.Cut(command, " ")
	if !ok {
		return Request{}, ErrCommand
	}
	svc := Service(name)
	if svc != UploadPack && svc != ReceivePack {
		return Request{}, ErrCommand
	}
	if len(arg) < 2 || arg[0] != '\'' || arg[len(arg)-1] != '\'' || strings.ContainsAny(arg[1:len(arg)-1], "'\\\x00\n") {
		return Request{}, ErrPath
	}
	m := repoPath.FindStringSubmatch(arg[1 : len(arg)-1])
	if m == nil {
		return Request{}, ErrPath
	}
	d, err1 := strconv.ParseInt(m[1], 10, 64)
	p, err2 := strconv.ParseInt(m[2], 10, 64)
	if err1 != nil || err2 != nil {
		return Request{}, ErrPath
	}
	return Request{Service: svc, DomainID: d, PortalID: p}, nil
}

// notFound is the one answer for a repository that does not exist and for one the user may
// not read, so the answer tells nothing about what exists.
func notFound(r Request) error {
	return fmt.Errorf("Portalwright: repository '%s' not found", r.Path())
}

// errNoPush answers a push by a user who may read the portal but not write it.
var errNoPush = errors.New("Portalwright: You do not have the right permission to push to this portal (portal:w).")
