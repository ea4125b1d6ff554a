package config

import (
	"strings"
	"testing"
)

func TestTrustedProxiesOption(t *testing.T) {
	cfg, err := load(t, nil, nil)
	if err != nil || cfg.TrustedProxies != "" || len(cfg.TrustedProxyPrefixes()) != 0 {
		t.Fatalf("no proxy is trusted by default: %q %v", cfg.TrustedProxies, err)
	}
	cfg, err = load(t, nil, map[string]string{"PORTALWRIGHT_TRUSTED_PROXIES": "10.0.0.0/8, 192.0.2.7 fd00::/8,::ffff:198.51.100.1"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range cfg.TrustedProxyPrefixes() {
		got = append(got, p.String())
	}
	if want := "10.0.0.0/8 192.0.2.7/32 fd00::/8 198.51.100.1/32"; strings.Join(got, " ") != want {
		t.Fatalf("prefixes = %v, want %s", got, want)
	}
	cfg, err = load(t, []string{"--trusted-proxies", "127.0.0.1"}, map[string]string{"PORTALWRIGHT_TRUSTED_PROXIES": "10.0.0.0/8"})
	if err != nil || cfg.TrustedProxies != "127.0.0.1" {
		t.Fatalf("the flag must win: %q %v", cfg.TrustedProxies, err)
	}
	for _, bad := range []string{"10.0.0.0/33", "proxy.example.com", "10.0.0.1/8/8"} {
		if _, err := load(t, []string{"--trusted-proxies", bad}, nil); err == nil || !strings.Contains(err.Error(), "trusted-proxies") {
			t.Errorf("%q: err = %v", bad, err)
		}
	}
}
