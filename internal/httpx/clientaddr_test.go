package httpx

import (
	"net/http/httptest"
	"net/netip"
	"testing"
)

func TestClientAddrTrustsOnlyConfiguredProxies(t *testing.T) {
	proxies := TrustedProxies{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}
	for _, c := range []struct {
		proxies TrustedProxies
		remote  string
		xff     []string
		want    string
	}{
		{nil, "203.0.113.5:4000", []string{"198.51.100.7"}, "203.0.113.5"},             // no proxies: the header is ignored
		{proxies, "203.0.113.5:4000", []string{"198.51.100.7"}, "203.0.113.5"},         // not from a proxy: ignored
		{proxies, "10.1.2.3:4000", []string{"198.51.100.7"}, "198.51.100.7"},           // from the proxy
		{proxies, "10.1.2.3:4000", []string{"1.2.3.4, 198.51.100.7"}, "198.51.100.7"},  // a spoofed left part is skipped
		{proxies, "10.1.2.3:4000", []string{"198.51.100.7, 10.9.9.9"}, "198.51.100.7"}, // two proxies
		{proxies, "10.1.2.3:4000", []string{"198.51.100.7", "10.9.9.9"}, "198.51.100.7"},
		{proxies, "10.1.2.3:4000", []string{"not-an-ip"}, "10.1.2.3"},
		{proxies, "10.1.2.3:4000", nil, "10.1.2.3"},
		{proxies, "[fd00::1]:4000", []string{"2001:db8::7"}, "2001:db8::7"},
		{proxies, "[::ffff:10.0.0.1]:4000", []string{"198.51.100.8:5555"}, "198.51.100.8"},
	} {
		r := httptest.NewRequest("POST", "/user/login", nil)
		r.RemoteAddr = c.remote
		for _, v := range c.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := ClientAddr(c.proxies.WithClientAddr(r)); got != c.want {
			t.Errorf("%v from %s with %q = %s, want %s", c.proxies, c.remote, c.xff, got, c.want)
		}
	}
}
