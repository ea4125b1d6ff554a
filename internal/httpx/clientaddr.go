package httpx

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// The client address is worked out once per request, by the router's first middleware, and
// every feature (sign-in limits, sessions, audit, SSO) reads it with ClientAddr: one rule for
// which X-Forwarded-For to believe, in one place.

// TrustedProxies are the peers (reverse proxies, load balancers) whose X-Forwarded-For header
// is believed (--trusted-proxies). From any other peer the header is ignored: a client cannot
// pick the address its sign-in attempts are counted under.
type TrustedProxies []netip.Prefix

func (t TrustedProxies) trusts(a netip.Addr) bool {
	for _, p := range t {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// addr is the address a request came from: the peer's address, or — when the peer is a
// trusted proxy — the nearest address in X-Forwarded-For that is not itself a trusted proxy
// (read from the right, where each proxy appended the address it saw). An entry that is not
// an address ends the walk at the last trusted hop.
func (t TrustedProxies) addr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	peer = peer.Unmap()
	if len(t) == 0 || !t.trusts(peer) {
		return peer.String()
	}
	var hops []string
	for _, h := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(h, ",")...)
	}
	client := peer
	for i := len(hops) - 1; i >= 0; i-- {
		a, ok := parseHop(hops[i])
		if !ok {
			break
		}
		client = a
		if !t.trusts(a) {
			break
		}
	}
	return client.String()
}

func parseHop(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap(), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	return netip.Addr{}, false
}

type clientAddrKey struct{}

// WithClientAddr returns r with its client address (as t sees it) in its context.
func (t TrustedProxies) WithClientAddr(r *http.Request) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), clientAddrKey{}, t.addr(r)))
}

// ClientAddr is the address the request came from: what the router's middleware stored, or
// (outside the router, in tests) the peer's address.
func ClientAddr(r *http.Request) string {
	if a, ok := r.Context().Value(clientAddrKey{}).(string); ok {
		return a
	}
	return TrustedProxies(nil).addr(r)
}
