package app

import (
	"context"
	"errors"
	"net"
	"net/url"
	"path/filepath"

	"golang.org/x/crypto/ssh"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/gitssh"
	"portalwright/internal/identity"
)

// gitSSH is the built-in git-over-SSH server as the app runs it (internal/gitssh): made by
// wire when --ssh-addr is set (nil otherwise), listening from Serve, closed by Close.
type gitSSH struct {
	server     *gitssh.Server
	addr       string // --ssh-addr
	publicHost string // --ssh-public-host, else the host of --public-url; "" : the listener's
}

func (a *App) newGitSSH() (*gitSSH, error) {
	if a.Config.SSHAddr == "" {
		return nil, nil
	}
	key, err := gitssh.LoadOrCreateHostKey(a.Config.SSHHostKeyPath())
	if err != nil {
		return nil, err
	}
	srv, err := gitssh.New(gitssh.Config{HostKey: key, WorkDir: filepath.Join(a.Config.DataDir, "ssh"), Log: a.Log}, gitssh.Deps{
		Users:   sshUsers{a.Identity},
		Access:  a.Access,
		Portals: a.Portals,
		Repos:   a.repos.Core(),
		Events:  a.Portals, // a push is announced as a commit and sent on to the portal's git host
	})
	if err != nil {
		return nil, err
	}
	g := &gitSSH{server: srv, addr: a.Config.SSHAddr, publicHost: a.Config.SSHPublicHost}
	if g.publicHost == "" && a.Config.PublicURL != "" {
		if u, err := url.Parse(a.Config.PublicURL); err == nil {
			g.publicHost = u.Hostname()
		}
	}
	a.Portals.WithUserGitURLs(g) // GET settings/{d}/{p}/gitUrls gives each user their URL
	return g, nil
}

// listen starts serving; stop is nil-safe to call when the server is off.
func (g *gitSSH) listen(a *App) (stop func(), err error) {
	if g == nil {
		return func() {}, nil
	}
	ln, err := net.Listen("tcp", g.addr)
	if err != nil {
		return nil, errors.New("listen for git over SSH on " + g.addr + ": " + err.Error())
	}
	a.Log.Info("git over SSH is on", "addr", ln.Addr().String())
	go func() {
		if err := g.server.Serve(ln); err != nil {
			a.Log.Error("git over SSH stopped", "error", err)
		}
	}()
	return func() { g.server.Close() }, nil
}

func (g *gitSSH) close() {
	if g != nil {
		g.server.Close()
	}
}

// Addr is where the SSH server listens (nil when off or not yet listening).
func (g *gitSSH) Addr() net.Addr {
	if g == nil {
		return nil
	}
	return g.server.Addr()
}

// UserGitURLs is ssh://<user>@<host>:<port>/<domainId>/<portalId>.git (portal.UserGitURLs).
func (g *gitSSH) UserGitURLs(_ context.Context, c caller.Caller, domainID, portalID int64) []string {
	addr := g.Addr()
	if addr == nil {
		return nil
	}
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return nil
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	hostPort := net.JoinHostPort(host, port)
	if g.publicHost != "" {
		hostPort = g.publicHost
		if _, _, err := net.SplitHostPort(g.publicHost); err != nil {
			hostPort = net.JoinHostPort(g.publicHost, port)
		}
	}
	u := url.URL{Scheme: "ssh", User: url.User(c.Username), Host: hostPort, Path: gitssh.RepoPath(domainID, portalID)}
	return []string{u.String()}
}

// sshUsers signs users in by the public key of their profile (gitssh.Users): the login name
// is the user name, and the key offered must be that user's key now.
type sshUsers struct{ identity *identity.Service }

func (u sshUsers) KeyOwner(ctx context.Context, login string, key ssh.PublicKey) (caller.Caller, bool, error) {
	usr, err := u.identity.UserByName(ctx, login)
	var ae *apperr.Error
	if errors.As(err, &ae) {
		return caller.Caller{}, false, nil
	}
	if err != nil {
		return caller.Caller{}, false, err
	}
	if usr.PublicKey == "" {
		return caller.Caller{}, false, nil
	}
	stored, _, _, _, err := ssh.ParseAuthorizedKey([]byte(usr.PublicKey))
	if err != nil || ssh.FingerprintSHA256(stored) != ssh.FingerprintSHA256(key) {
		return caller.Caller{}, false, nil
	}
	return caller.Caller{UserID: usr.ID, Username: usr.UserName, Admin: usr.Admin}, true, nil
}
