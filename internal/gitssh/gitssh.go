// Package gitssh is the built-in git-over-SSH server: authors clone, fetch and push the
// portals of their domains with the SSH public key of their profile, at
// ssh://<user>@<host>:<port>/<domainId>/<portalId>.git. It is off unless the operator
// gives it an address (--ssh-addr).
//
// Safety rules:
//   - Public keys only. Password and keyboard-interactive authentication are not offered.
//     The login name must be a user whose profile key is the offered key; the key is read
//     from the database on every connection and again before each command, so a
//     regenerated or replaced key stops the old one at once. Nothing is cached beyond one
//     connection.
//   - Only two commands run: `git-upload-pack '<path>'` and `git-receive-pack '<path>'`,
//     parsed strictly (ParseCommand); the path is /<domainId>/<portalId>.git and becomes the
//     canonical repository's path on our side, never a path the client wrote. Anything else
//     gets a message on stderr and exit status 1. There is no shell, no pty, no subsystem,
//     no port, agent or X11 forwarding, and no environment except GIT_PROTOCOL=version=N.
//   - Authorisation is the API's (Authorizer.Allowed): fetching needs portal:r and pushing
//     portal:w in the portal's domain, and the portal must belong to the domain of the path.
//     A repository the user may not read is answered exactly like one that does not exist.
//   - git runs through internal/gitcli (fixed environment, no system or user configuration,
//     time-outs, the process group killed on cancel) on the canonical bare repository.
//   - A push holds the portal's write lock (workspace.Core.LockPortal, the lock commits
//     take) from before receive-pack starts until it has ended, so it never interleaves with
//     a commit from the browser. Its ref updates are read by the server from the protocol
//     before git sees them (push.go) and must name refs/heads/<branch> with a valid branch
//     name (validate.BranchName); creating a branch needs branch:c; deletions are refused
//     (receive.denyDeletes) and so are non-fast-forward updates
//     (receive.denyNonFastForwards). The server's verdict reaches git through a pre-receive
//     hook in a directory only the server writes (core.hooksPath), which fails closed: git
//     keeps pushed objects in quarantine until the hook accepts, so a refused push leaves
//     nothing behind. Incoming objects are checked (receive.fsckObjects) and bounded in size.
//   - Everything is bounded: concurrent connections, the handshake's time, idle time, a
//     session's total time, sessions per connection.
package gitssh

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/ssh"

	"portalwright/internal/caller"
	"portalwright/internal/gitcli"
)

// Users finds who a key signs in.
type Users interface {
	// KeyOwner is the user signing in as login with key, read from the database now; ok is
	// false when key is not that user's profile key (or there is no such user).
	KeyOwner(ctx context.Context, login string, key ssh.PublicKey) (c caller.Caller, ok bool, err error)
}

// Authorizer is the API's permission check (access.Service).
type Authorizer interface {
	Allowed(ctx context.Context, c caller.Caller, permission, domain string) (bool, error)
}

// Portals answers a portal's domain; an error wrapping store.ErrNotFound when there is no
// such portal.
type Portals interface {
	DomainOf(ctx context.Context, portalID int64) (int64, error)
}

// Repos are the canonical repositories (workspace.Core).
type Repos interface {
	CanonicalRepo(portalID int64) (path string, ok bool)
	LockPortal(ctx context.Context, portalID int64) (unlock func(), err error)
	Git() *gitcli.Git
}

// Events hears about pushed branches, after the push and the lock are over.
type Events interface {
	Pushed(ctx context.Context, c caller.Caller, domainID, portalID int64, branch, commitID string)
}

// Deps are what the server asks of the rest of the product.
type Deps struct {
	Users   Users
	Access  Authorizer
	Portals Portals
	Repos   Repos
	Events  Events // optional
}

// Config of the server; zero values take the defaults.
type Config struct {
	HostKey ssh.Signer
	// WorkDir is a directory only the server writes: the pre-receive hook and the verdicts
	// of running pushes live there.
	WorkDir string
	Log     *slog.Logger

	MaxConnections   int           // at once; default 64
	HandshakeTimeout time.Duration // default 30s
	IdleTimeout      time.Duration // no byte either way for this long ends the connection; default 5m
	MaxSession       time.Duration // longest a connection may last; default 2h
	MaxPushBytes     int64         // largest pack a push may send; default 2 GiB
}

const maxSessionsPerConn = 4 // at once on one connection; git opens one

// Server is the SSH server. Serve it on a listener; Close ends it.
type Server struct {
	cfg     Config
	deps    Deps
	ssh     *ssh.ServerConfig
	hookDir string
	slots   chan struct{}

	mu     sync.Mutex
	ln     net.Listener
	conns  map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup
	ctx    context.Context
	cancel context.CancelFunc
}

// New prepares a server: the host key, the hook directory and the SSH configuration.
func New(cfg Config, deps Deps) (*Server, error) {
	if cfg.HostKey == nil || cfg.WorkDir == "" || deps.Users == nil || deps.Access == nil || deps.Portals == nil || deps.Repos == nil {
		return nil, errors.New("gitssh: HostKey, WorkDir, Users, Access, Portals and Repos are required")
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.MaxConnections <= 0 {
		cfg.MaxConnections = 64
	}
	if cfg.HandshakeTimeout <= 0 {
		cfg.HandshakeTimeout = 30 * time.Second
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = 5 * time.Minute
	}
	if cfg.MaxSession <= 0 {
		cfg.MaxSession = 2 * time.Hour
	}
	if cfg.MaxPushBytes <= 0 {
		cfg.MaxPushBytes = 2 << 30
	}
	abs, err := filepath.Abs(cfg.WorkDir)
	if err != nil {
		return nil, err
	}
	cfg.WorkDir = abs
	s := &Server{cfg: cfg, deps: deps, slots: make(chan struct{}, cfg.MaxConnections), conns: map[net.Conn]struct{}{}}
	if s.hookDir, err = writeHook(abs); err != nil {
		return nil, err
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.ssh = &ssh.ServerConfig{
		// No PasswordCallback, no KeyboardInteractiveCallback: public keys only.
		PublicKeyCallback: s.authenticate,
		MaxAuthTries:      6,
		ServerVersion:     "SSH-2.0-Portalwright",
	}
	s.ssh.AddHostKey(cfg.HostKey)
	return s, nil
}

// Extensions of ssh.Permissions carrying the signed-in user through the connection.
const (
	extUserID = "pw-user-id"
	extKey    = "pw-key"
)

// authenticate accepts a key that is the login's profile key now.
func (s *Server) authenticate(meta ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
	ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
	defer cancel()
	c, ok, err := s.deps.Users.KeyOwner(ctx, meta.User(), key)
	if err != nil {
		s.cfg.Log.Error("ssh: key lookup failed", "user", meta.User(), "error", err)
		return nil, errors.New("key lookup failed")
	}
	if !ok {
		return nil, errors.New("unknown key")
	}
	return &ssh.Permissions{Extensions: map[string]string{
		extUserID: strconv.FormatInt(c.UserID, 10),
		extKey:    string(key.Marshal()),
	}}, nil
}

// Serve accepts connections on ln until Close. It returns nil after Close.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ln.Close()
		return nil
	}
	s.ln = ln
	s.mu.Unlock()
	for {
		nc, err := ln.Accept()
		if err != nil {
			s.mu.Lock()
			closed := s.closed
			s.mu.Unlock()
			if closed {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				time.Sleep(50 * time.Millisecond)
				continue
			}
			return err
		}
		select {
		case s.slots <- struct{}{}:
		default: // full: refuse at once rather than queue
			s.cfg.Log.Warn("ssh: too many connections; refused one", "remote", nc.RemoteAddr().String())
			nc.Close()
			continue
		}
		if !s.track(nc) {
			<-s.slots
			nc.Close()
			return nil
		}
		s.wg.Add(1)
		go func() {
			defer func() { s.untrack(nc); <-s.slots; s.wg.Done() }()
			s.handle(nc)
		}()
	}
}

func (s *Server) track(nc net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.conns[nc] = struct{}{}
	return true
}

func (s *Server) untrack(nc net.Conn) {
	s.mu.Lock()
	delete(s.conns, nc)
	s.mu.Unlock()
	nc.Close()
}

// Addr is the listening address (nil before Serve).
func (s *Server) Addr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ln == nil {
		return nil
	}
	return s.ln.Addr()
}

// Close stops accepting, ends every connection (running git commands are killed; a push
// that did not finish changes nothing) and waits for their handlers.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	if s.ln != nil {
		s.ln.Close()
	}
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
	return nil
}

// handle runs one connection: handshake, then its session channels.
func (s *Server) handle(nc net.Conn) {
	conn := &idleConn{Conn: nc, idle: s.cfg.IdleTimeout}
	_ = nc.SetDeadline(time.Now().Add(s.cfg.HandshakeTimeout))
	sc, chans, reqs, err := ssh.NewServerConn(conn, s.ssh)
	if err != nil {
		s.cfg.Log.Debug("ssh: handshake failed", "remote", nc.RemoteAddr().String(), "error", err)
		return
	}
	defer sc.Close()
	conn.start() // from now on, the idle time-out
	ctx, cancel := context.WithTimeout(s.ctx, s.cfg.MaxSession)
	go func() { <-ctx.Done(); sc.Close() }() // the session's time is up, or the server closes
	go ssh.DiscardRequests(reqs)             // global requests (tcpip-forward, …) are refused
	var sessions sync.WaitGroup
	// When the connection is gone, its git commands are killed (they may be blocked writing
	// to a client that left), then waited for.
	defer func() { cancel(); sessions.Wait() }()
	var open atomic.Int32 // sessions running on this connection
	for nch := range chans {
		if nch.ChannelType() != "session" {
			_ = nch.Reject(ssh.Prohibited, "only git commands are served")
			continue
		}
		if open.Load() >= maxSessionsPerConn {
			_ = nch.Reject(ssh.ResourceShortage, "too many sessions on one connection")
			continue
		}
		ch, creqs, err := nch.Accept()
		if err != nil {
			continue
		}
		open.Add(1)
		sessions.Add(1)
		go func() { defer sessions.Done(); defer open.Add(-1); s.session(ctx, sc, ch, creqs) }()
	}
}

// idleConn ends a connection on which no byte moved for idle: each read or write pushes the
// deadline out (after the handshake, which has its own deadline).
type idleConn struct {
	net.Conn
	idle time.Duration

	mu      sync.Mutex
	started bool
	last    time.Time
}

func (c *idleConn) start() {
	c.mu.Lock()
	c.started = true
	c.mu.Unlock()
	c.touch()
}

func (c *idleConn) touch() {
	c.mu.Lock()
	defer c.mu.Unlock()
	// Setting a deadline costs a little; once a second is enough for minutes of idle time.
	if !c.started || time.Since(c.last) < time.Second {
		return
	}
	c.last = time.Now()
	_ = c.Conn.SetDeadline(c.last.Add(c.idle))
}

func (c *idleConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.touch()
	}
	return n, err
}

func (c *idleConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	if n > 0 {
		c.touch()
	}
	return n, err
}

// writeHook writes the pre-receive hook that passes on the server's verdict (see push.go).
func writeHook(workDir string) (string, error) {
	dir := filepath.Join(workDir, "hooks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Join(workDir, "verdicts"), 0o700); err != nil {
		return "", err
	}
	// Written aside and renamed: instances sharing the data dir may start together, and a
	// push must never run a half-written hook.
	tmp, err := os.CreateTemp(dir, ".pre-receive-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.WriteString(preReceiveHook)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o755) // whatever the umask
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, "pre-receive"))
	}
	if err != nil {
		return "", fmt.Errorf("install the pre-receive hook: %w", err)
	}
	return dir, nil
}
