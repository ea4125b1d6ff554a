package gitssh

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"regexp"
	"strconv"

	"golang.org/x/crypto/ssh"

	"portalwright/internal/caller"
	"portalwright/internal/gitcli"
	"portalwright/internal/store"
)

// session serves one session channel: at most one exec (or a shell request, answered with
// a message), an optional GIT_PROTOCOL before it, nothing else.
func (s *Server) session(ctx context.Context, sc *ssh.ServerConn, ch ssh.Channel, reqs <-chan *ssh.Request) {
	defer ch.Close()
	protocol := ""
	for req := range reqs {
		switch req.Type {
		case "env":
			var kv struct{ Name, Value string }
			ok := ssh.Unmarshal(req.Payload, &kv) == nil && kv.Name == "GIT_PROTOCOL" && gitProtocol.MatchString(kv.Value)
			if ok {
				protocol = kv.Value
			}
			_ = req.Reply(ok, nil)
		case "exec":
			var p struct{ Command string }
			if err := ssh.Unmarshal(req.Payload, &p); err != nil {
				_ = req.Reply(false, nil)
				return
			}
			_ = req.Reply(true, nil)
			go ssh.DiscardRequests(reqs) // signals, window changes, …: refused
			exit(ch, s.command(ctx, sc, ch, p.Command, protocol))
			return
		case "shell":
			_ = req.Reply(true, nil)
			go ssh.DiscardRequests(reqs)
			fmt.Fprintln(ch.Stderr(), ErrCommand.Error())
			exit(ch, 1)
			return
		default: // pty-req, subsystem, x11-req, auth-agent-req@openssh.com, …
			_ = req.Reply(false, nil)
		}
	}
}

// gitProtocol is the one environment variable accepted: the wire protocol version git asks for.
var gitProtocol = regexp.MustCompile(`^version=[0-2]$`)

// exit ends the channel's output and reports the exit status.
func exit(ch ssh.Channel, status uint32) {
	_ = ch.CloseWrite()
	_, _ = ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{status}))
}

// command checks and runs one git command; it returns the exit status.
func (s *Server) command(ctx context.Context, sc *ssh.ServerConn, ch ssh.Channel, command, protocol string) uint32 {
	fail := func(err error) uint32 { fmt.Fprintln(ch.Stderr(), err.Error()); return 1 }
	req, err := ParseCommand(command)
	if err != nil {
		return fail(err)
	}
	c, err := s.caller(ctx, sc)
	if err != nil {
		return fail(err)
	}
	repo, err := s.authorize(ctx, c, req)
	if err != nil {
		return fail(err)
	}
	log := s.cfg.Log.With("user", c.Username, "command", string(req.Service), "repository", req.Path())
	if req.Service == ReceivePack {
		return s.receive(ctx, log, c, req, repo, ch, protocol)
	}
	cmd := gitcli.Command("upload-pack", "--strict").Option("--timeout", strconv.Itoa(int(s.cfg.IdleTimeout.Seconds()))).Value(repo)
	return s.run(ctx, log, cmd, protocol, ch, func(w *os.File) { _, _ = io.Copy(w, ch) })
}

// errInternal answers what went wrong on our side (the log has the cause).
var errInternal = errors.New("Portalwright: internal error; please try again")

// caller is the connection's user, with the key checked again now: a key replaced since the
// connection was opened no longer works.
func (s *Server) caller(ctx context.Context, sc *ssh.ServerConn) (caller.Caller, error) {
	key, err := ssh.ParsePublicKey([]byte(sc.Permissions.Extensions[extKey]))
	if err != nil {
		return caller.Caller{}, errInternal
	}
	c, ok, err := s.deps.Users.KeyOwner(ctx, sc.User(), key)
	if err != nil {
		s.cfg.Log.Error("ssh: key lookup failed", "user", sc.User(), "error", err)
		return caller.Caller{}, errInternal
	}
	if !ok || strconv.FormatInt(c.UserID, 10) != sc.Permissions.Extensions[extUserID] {
		return caller.Caller{}, errors.New("Portalwright: this key is no longer the key of your profile")
	}
	return c, nil
}

// authorize applies the API's rules and returns the canonical repository's path. A portal
// that does not exist, is in another domain, or that the user may not read all get the
// same answer.
func (s *Server) authorize(ctx context.Context, c caller.Caller, req Request) (string, error) {
	domainID, err := s.deps.Portals.DomainOf(ctx, req.PortalID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && domainID != req.DomainID) {
		return "", notFound(req)
	}
	if err != nil {
		s.cfg.Log.Error("ssh: portal lookup failed", "error", err)
		return "", errInternal
	}
	domain := strconv.FormatInt(domainID, 10)
	read, err := s.deps.Access.Allowed(ctx, c, "portal:r", domain)
	if err != nil {
		s.cfg.Log.Error("ssh: permission check failed", "error", err)
		return "", errInternal
	}
	write := false
	if req.Service == ReceivePack {
		if write, err = s.deps.Access.Allowed(ctx, c, "portal:w", domain); err != nil {
			s.cfg.Log.Error("ssh: permission check failed", "error", err)
			return "", errInternal
		}
	}
	if !read && !write {
		return "", notFound(req)
	}
	if req.Service == ReceivePack && !write {
		return "", errNoPush
	}
	repo, ok := s.deps.Repos.CanonicalRepo(req.PortalID)
	if !ok {
		return "", notFound(req)
	}
	return repo, nil
}

// run runs a git command for the client on ch. feed writes the command's standard input (a
// pipe git reads directly, so when git exits nothing waits on the client's end of the
// stream; the pipe is closed when feed returns or git ends); its standard output goes to the
// client, and its stderr, which gitcli keeps, too when it fails.
func (s *Server) run(ctx context.Context, log *slog.Logger, cmd *gitcli.Cmd, protocol string, ch ssh.Channel, feed func(w *os.File)) uint32 {
	pr, pw, err := os.Pipe()
	if err != nil {
		return 1
	}
	go func() { feed(pw); pw.Close() }()
	if protocol != "" {
		cmd.Env("GIT_PROTOCOL", protocol)
	}
	err = s.deps.Repos.Git().Stream(ctx, "", cmd.Stdin(pr).Timeout(s.cfg.MaxSession), ch)
	pr.Close()
	pw.Close() // a feed still waiting for the client fails on its next write
	if err == nil {
		return 0
	}
	var ge *gitcli.Error
	if errors.As(err, &ge) {
		_, _ = io.WriteString(ch.Stderr(), ge.Stderr)
		log.Warn("ssh: git failed", "exit", ge.ExitCode, "error", err)
		if ge.ExitCode > 0 {
			return uint32(ge.ExitCode)
		}
		return 1
	}
	log.Warn("ssh: git failed", "error", err)
	return 1
}
