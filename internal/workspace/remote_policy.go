package workspace

// The remote host policy. Importing a portal (StageURL) and listing a remote's branches
// (RemoteBranches) make the server fetch a git URL that a user typed. Without a check, anyone
// allowed to import could make the server talk to its own loopback services, to the cloud's
// metadata endpoint (169.254.169.254) or to hosts of the internal network (server-side request
// forgery): the answers or error messages would tell them what is there.
//
// Unless the operator allows private git hosts (--allow-private-git-hosts, for git servers on
// the internal network, and for tests), a git URL is refused when its host is, or resolves to,
// any address that is not a public unicast address: loopback, private (RFC 1918, fc00::/7),
// carrier-grade NAT (100.64.0.0/10), link-local, unspecified, "this network" (0.0.0.0/8),
// multicast, broadcast and reserved ranges, and IPv4-mapped, IPv4-compatible or NAT64 forms of
// those. Every resolved address must pass, not only the first.
//
// Between the check and git's own connection the host name is resolved again, so a name that
// resolves to a public address for the check and to a private one a moment later (DNS
// rebinding) could slip through. For http(s) the window is closed: git is told to use the
// checked addresses (http.curloptResolve, git 2.37 and later) and not to follow redirects (a
// public server could otherwise redirect to an internal one). For ssh:// and git:// git
// resolves the name itself; the window there is the few milliseconds between the two lookups.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"portalwright/internal/gitcli"
)

// ErrRemoteRefused is matched (errors.Is) by every *RemoteRefusedError.
var ErrRemoteRefused = errors.New("git URL refused by the remote host policy")

// RemoteRefusal says why the policy refused a git URL.
type RemoteRefusal int

const (
	// RefusedPrivateAddress: the host is, or resolves to, a non-public address.
	RefusedPrivateAddress RemoteRefusal = iota + 1
	// RefusedHostNotFound: the host name does not resolve.
	RefusedHostNotFound
	// RefusedBadHost: the URL's host part is not a plain host name or IP address.
	RefusedBadHost
)

// RemoteRefusedError is a git URL the remote host policy refused, before git ran.
type RemoteRefusedError struct {
	Reason RemoteRefusal
	Host   string     // the URL's host, as written
	Addr   netip.Addr // RefusedPrivateAddress: the first non-public address found
	Err    error      // RefusedHostNotFound: the resolver's error
}

func (e *RemoteRefusedError) Error() string {
	switch e.Reason {
	case RefusedPrivateAddress:
		if e.Addr.String() == e.Host {
			return fmt.Sprintf("git host %s is a non-public address", e.Host)
		}
		return fmt.Sprintf("git host %s resolves to the non-public address %s", e.Host, e.Addr)
	case RefusedHostNotFound:
		return fmt.Sprintf("git host %s could not be resolved: %v", e.Host, e.Err)
	default:
		return fmt.Sprintf("git URL host %q is not a plain host name or IP address", e.Host)
	}
}

// Is makes errors.Is(err, ErrRemoteRefused) true.
func (e *RemoteRefusedError) Is(target error) bool { return target == ErrRemoteRefused }

// Unwrap returns the resolver's error, if any.
func (e *RemoteRefusedError) Unwrap() error { return e.Err }

// AllowPrivateGitHosts switches the remote host policy off (true) or on (false, the default):
// with it off, git URLs may point at loopback, private and link-local hosts.
func (r *Repos) AllowPrivateGitHosts(allow bool) *Repos {
	r.allowPrivateHosts = allow
	return r
}

// CheckRemote applies the remote host policy to a git URL without fetching anything: nil, or
// a *RemoteRefusedError. StageURL and RemoteBranches check again themselves.
func (c Core) CheckRemote(ctx context.Context, url string) error {
	_, err := c.r.guardRemote(ctx, url, nil)
	return err
}

// remoteAccess is how git must reach a remote that the policy checked.
type remoteAccess struct {
	noRedirects bool
	resolve     string // http.curloptResolve: host:port:addr[,addr…]
}

func (a *remoteAccess) apply(c *gitcli.Cmd) *gitcli.Cmd {
	if a == nil {
		return c
	}
	if a.noRedirects {
		c = c.Config("http.followRedirects", "false")
	}
	if a.resolve != "" {
		c = c.Config("http.curloptResolve", a.resolve)
	}
	return c
}

// guardRemote checks url against the policy and returns the credentials to use for it,
// carrying how git must reach the checked host (remoteCmd applies that).
func (r *Repos) guardRemote(ctx context.Context, url string, creds *Credentials) (*Credentials, error) {
	if r.allowPrivateHosts {
		return creds, nil
	}
	t, err := parseRemote(url)
	if err != nil {
		return nil, err
	}
	addrs, err := resolveHost(ctx, t.host)
	if err != nil {
		return nil, err
	}
	for _, a := range addrs {
		if !publicAddr(a) {
			return nil, &RemoteRefusedError{Reason: RefusedPrivateAddress, Host: t.host, Addr: a}
		}
	}
	out := &Credentials{}
	if creds != nil {
		*out = *creds
	}
	out.access = &remoteAccess{noRedirects: true}
	if _, literal := parseIP(t.host); !literal && (t.scheme == "http" || t.scheme == "https") && r.gitHasCurlResolve() {
		out.access.resolve = curlResolve(t.host, t.port, addrs)
	}
	return out, nil
}

// gitHasCurlResolve tells whether git knows http.curloptResolve (git 2.37).
func (r *Repos) gitHasCurlResolve() bool {
	return versionAtLeast(r.git.Version(), 2, 37)
}

func versionAtLeast(v string, major, minor int) bool {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return false
	}
	maj, err1 := strconv.Atoi(parts[0])
	mnr, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return false
	}
	return maj > major || (maj == major && mnr >= minor)
}

// curlResolve is curl's RESOLVE entry pinning host:port to the addresses (IPv6 in brackets).
func curlResolve(host, port string, addrs []netip.Addr) string {
	list := make([]string, len(addrs))
	for i, a := range addrs {
		if a.Is4() {
			list[i] = a.String()
		} else {
			list[i] = "[" + a.String() + "]"
		}
	}
	return host + ":" + port + ":" + strings.Join(list, ",")
}

// remoteTarget is where a git URL leads.
type remoteTarget struct {
	scheme string // https, http, git or ssh
	host   string // a host name (lower case) or an IP literal without brackets
	port   string // the URL's port or the scheme's default
}

var defaultPorts = map[string]string{"https": "443", "http": "80", "git": "9418", "ssh": "22"}

func badHost(host string) error { return &RemoteRefusedError{Reason: RefusedBadHost, Host: host} }

// parseRemote reads the host and port of a git URL in the forms users give: scheme://
// [user[:password]@]host[:port]/path for https, http, git and ssh (git+ssh, ssh+git), and
// the scp-like [user@]host:path. Anything unusual in the authority — a second '@', '#', '?',
// '\', '%', white space or control characters, a host that is not a plain name or IP — is
// refused rather than guessed at, so this parser and git's (and curl's) cannot disagree about
// which host is meant.
func parseRemote(url string) (remoteTarget, error) {
	if i := strings.Index(url, "://"); i >= 0 {
		scheme := strings.ToLower(url[:i])
		switch scheme {
		case "git+ssh", "ssh+git":
			scheme = "ssh"
		case "https", "http", "git", "ssh":
		default:
			return remoteTarget{}, badHost(url)
		}
		rest := url[i+3:]
		authority := rest
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			authority = rest[:j]
		}
		if strings.ContainsAny(authority, "#?\\") || hasSpaceOrControl(authority) || strings.Count(authority, "@") > 1 {
			return remoteTarget{}, badHost(authority)
		}
		if k := strings.LastIndexByte(authority, '@'); k >= 0 {
			authority = authority[k+1:]
		}
		host, port, err := splitHostPort(authority)
		if err != nil {
			return remoteTarget{}, err
		}
		if port == "" {
			port = defaultPorts[scheme]
		}
		return remoteTarget{scheme: scheme, host: host, port: port}, nil
	}
	// scp-like: [user@]host:path, or [user@][v6]:path.
	if hasSpaceOrControl(url) {
		return remoteTarget{}, badHost(url)
	}
	rest := url
	if at := strings.IndexByte(rest, '@'); at >= 0 && at < strings.IndexAny(rest+":", ":[/") {
		rest = rest[at+1:]
	}
	var host string
	if strings.HasPrefix(rest, "[") {
		end := strings.IndexByte(rest, ']')
		if end < 0 || !strings.HasPrefix(rest[end+1:], ":") {
			return remoteTarget{}, badHost(rest)
		}
		host = rest[:end+1]
	} else {
		colon := strings.IndexByte(rest, ':')
		if colon < 0 || strings.ContainsAny(rest[:colon], "/@") {
			return remoteTarget{}, badHost(url) // a local path, not a remote
		}
		host = rest[:colon]
	}
	if strings.ContainsAny(host, "#?\\%") {
		return remoteTarget{}, badHost(host)
	}
	h, _, err := splitHostPort(host)
	if err != nil {
		return remoteTarget{}, err
	}
	return remoteTarget{scheme: "ssh", host: h, port: "22"}, nil
}

func hasSpaceOrControl(s string) bool {
	for _, r := range s {
		if r <= ' ' || r == 0x7f {
			return true
		}
	}
	return false
}

// splitHostPort reads host[:port] or [v6][:port] and checks both parts.
func splitHostPort(hp string) (host, port string, err error) {
	if strings.HasPrefix(hp, "[") {
		end := strings.IndexByte(hp, ']')
		if end < 0 {
			return "", "", badHost(hp)
		}
		host, after := hp[1:end], hp[end+1:]
		a, err := netip.ParseAddr(host)
		if err != nil || !a.Is6() || a.Zone() != "" {
			return "", "", badHost(hp)
		}
		if after != "" {
			p, ok := strings.CutPrefix(after, ":")
			if !ok {
				return "", "", badHost(hp)
			}
			port = p
		}
		if port != "" && !validPort(port) {
			return "", "", badHost(hp)
		}
		return host, port, nil
	}
	host = hp
	if i := strings.LastIndexByte(hp, ':'); i >= 0 {
		host, port = hp[:i], hp[i+1:]
		if !validPort(port) {
			return "", "", badHost(hp)
		}
	}
	if !validHostName(host) {
		return "", "", badHost(host)
	}
	return strings.ToLower(host), port, nil
}

func validPort(p string) bool {
	n, err := strconv.Atoi(p)
	return err == nil && n > 0 && n <= 65535 && p[0] != '+' && p[0] != '-'
}

// validHostName: letters, digits, '-', '_' and '.', not starting with '-' or '.' (ssh would
// read a leading '-' as an option). A dotted IPv4 literal passes too.
func validHostName(h string) bool {
	if h == "" || len(h) > 253 || h[0] == '-' || h[0] == '.' {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// parseIP reads an IP literal host. Only the canonical dotted-quad and IPv6 forms count as
// literals; the other spellings resolvers accept for IPv4 (2130706433, 0x7f.1, 127.1, 0177.0.0.1)
// are refused by resolveHost.
func parseIP(host string) (netip.Addr, bool) {
	a, err := netip.ParseAddr(host)
	return a, err == nil
}

// resolveHost returns the addresses a host stands for: itself when it is an IP literal,
// else every address the resolver gives.
func resolveHost(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, ok := parseIP(host); ok {
		return []netip.Addr{a}, nil
	}
	// A name whose last label is numeric (2130706433, 127.1, 0x7f.0.0.1, 0177.0.0.1) is an IPv4
	// address in a spelling that C resolvers (git's) accept and Go's does not: never a real
	// host name (top-level domains are not numeric), so refuse rather than disagree.
	last := strings.TrimSuffix(host, ".")
	if i := strings.LastIndexByte(last, '.'); i >= 0 {
		last = last[i+1:]
	}
	if last == "" || isNumericLabel(last) {
		return nil, badHost(host)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err == nil && len(addrs) == 0 {
		err = errors.New("no address")
	}
	if err != nil {
		return nil, &RemoteRefusedError{Reason: RefusedHostNotFound, Host: host, Err: err}
	}
	return addrs, nil
}

func isNumericLabel(s string) bool {
	if t, ok := strings.CutPrefix(strings.ToLower(s), "0x"); ok {
		s = t
		for i := 0; i < len(s); i++ {
			if !(s[i] >= '0' && s[i] <= '9' || s[i] >= 'a' && s[i] <= 'f') {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// nonPublic are ranges that the netip predicates below do not already cover.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network": 0.x.x.x reaches the local host
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT (RFC 6598)
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, and 255.255.255.255 broadcast
	netip.MustParsePrefix("::/96"),           // IPv4-compatible (deprecated), :: and ::1 among them
	netip.MustParsePrefix("100::/64"),        // discard-only
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("fec0::/10"),       // site-local (deprecated)
}

var nat64 = []netip.Prefix{netip.MustParsePrefix("64:ff9b::/96"), netip.MustParsePrefix("64:ff9b:1::/48")}

// publicAddr tells whether a is an address the server may fetch from without the operator's
// permission: a global unicast address outside every private, shared and reserved range.
func publicAddr(a netip.Addr) bool {
	a = a.WithZone("").Unmap()
	for _, p := range nat64 {
		if p.Contains(a) { // the IPv4 address in the last 32 bits decides
			b := a.As16()
			return publicAddr(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}))
		}
	}
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsUnspecified() || a.IsLinkLocalUnicast() ||
		a.IsLinkLocalMulticast() || a.IsInterfaceLocalMulticast() || a.IsMulticast() || !a.IsGlobalUnicast() {
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(a) {
			return false
		}
	}
	return true
}
