package config

import (
	"flag"
	"io"
	"strings"
	"testing"
	"time"
)

func load(t *testing.T, args []string, env map[string]string) (Config, error) {
	t.Helper()
	cfg := Defaults()
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	b := Register(fs, &cfg)
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	return cfg, b.Resolve(func(k string) string { return env[k] })
}

func TestPrecedenceFlagsOverEnvOverDefaults(t *testing.T) {
	cfg, err := load(t, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Addr != "127.0.0.1:8080" || cfg.DataDir != "./data" || cfg.DatabaseURL != "" {
		t.Fatalf("defaults: %+v", cfg)
	}
	if got := cfg.DatabaseDSN(); got != "sqlite:data/portalwright.db" {
		t.Fatalf("default DSN = %q", got)
	}

	env := map[string]string{
		"PORTALWRIGHT_ADDR":             "0.0.0.0:9000",
		"PORTALWRIGHT_DATA_DIR":         "/srv/pw",
		"PORTALWRIGHT_DATABASE_URL":     "postgres://u:secret@db/pw",
		"PORTALWRIGHT_ACCESS_TOKEN_TTL": "5m",
		"PORTALWRIGHT_ADMIN_PASSWORD":   "s3cret",
	}
	cfg, err = load(t, nil, env)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Addr != "0.0.0.0:9000" || cfg.DataDir != "/srv/pw" || cfg.DatabaseURL != "postgres://u:secret@db/pw" ||
		cfg.AccessTokenTTL != 5*time.Minute || cfg.AdminPassword != "s3cret" {
		t.Fatalf("env not applied: %+v", cfg)
	}

	cfg, err = load(t, []string{"--addr", "127.0.0.1:1", "--data-dir=/tmp/x"}, env)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Addr != "127.0.0.1:1" || cfg.DataDir != "/tmp/x" {
		t.Fatalf("flags must win over env: %+v", cfg)
	}
	if cfg.DatabaseURL != "postgres://u:secret@db/pw" {
		t.Fatalf("env must still fill flags not given: %+v", cfg)
	}
	if r := cfg.Redacted(); strings.Contains(r, "secret") {
		t.Fatalf("Redacted leaks the password: %s", r)
	}
}

func TestInvalidValuesAreRejected(t *testing.T) {
	cases := []struct {
		args []string
		env  map[string]string
		want string
	}{
		{args: []string{"--log-format", "xml"}, want: "log-format must be text or json"},
		{args: []string{"--log-level", "loud"}, want: "log-level must be"},
		{args: []string{"--database-url", "mysql://x"}, want: "database-url must start with"},
		{args: []string{"--addr", ""}, want: "addr must not be empty"},
		{env: map[string]string{"PORTALWRIGHT_ACCESS_TOKEN_TTL": "soon"}, want: "PORTALWRIGHT_ACCESS_TOKEN_TTL"},
		{args: []string{"--access-token-ttl", "10s"}, want: "at least 1m"},
		{args: []string{"--access-token-ttl", "2h", "--refresh-token-ttl", "1h"}, want: "must not be shorter"},
	}
	for _, c := range cases {
		_, err := load(t, c.args, c.env)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("args %v env %v: err = %v, want %q", c.args, c.env, err, c.want)
		}
	}
}

func TestPrivateGitHostsAndMetricsOptions(t *testing.T) {
	cfg, err := load(t, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.AllowPrivateGitHosts || cfg.MetricsAddr != "" || cfg.MetricsToken != "" {
		t.Fatalf("private git hosts and metrics must be off by default: %+v", cfg)
	}
	cfg, err = load(t, nil, map[string]string{
		"PORTALWRIGHT_ALLOW_PRIVATE_GIT_HOSTS": "true",
		"PORTALWRIGHT_METRICS_ADDR":            "127.0.0.1:9090",
		"PORTALWRIGHT_METRICS_TOKEN":           "0123456789abcdef-metrics",
	})
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.AllowPrivateGitHosts || cfg.MetricsAddr != "127.0.0.1:9090" || cfg.MetricsToken != "0123456789abcdef-metrics" {
		t.Fatalf("env not applied: %+v", cfg)
	}
	cfg, err = load(t, []string{"--allow-private-git-hosts=false", "--metrics-addr", "127.0.0.1:9191"}, map[string]string{"PORTALWRIGHT_ALLOW_PRIVATE_GIT_HOSTS": "true"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.AllowPrivateGitHosts || cfg.MetricsAddr != "127.0.0.1:9191" {
		t.Fatalf("flags must win: %+v", cfg)
	}
	// The token is a secret: never a flag (flags show in the process list).
	if _, err := load(t, []string{"--metrics-token", "0123456789abcdef"}, nil); err == nil {
		t.Fatal("--metrics-token must not exist")
	}
	for _, c := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{args: []string{"--metrics-addr", "9090"}, want: "metrics-addr must be host:port"},
		{args: []string{"--metrics-addr", "127.0.0.1:8080"}, want: "metrics-addr must differ from addr"},
		{env: map[string]string{"PORTALWRIGHT_METRICS_TOKEN": "short"}, want: "at least 16 characters"},
		{env: map[string]string{"PORTALWRIGHT_ALLOW_PRIVATE_GIT_HOSTS": "maybe"}, want: "PORTALWRIGHT_ALLOW_PRIVATE_GIT_HOSTS"},
		// The designer's frame origin needs an address of its own.
		{args: []string{"--frame-addr", "8081"}, want: "frame-addr must be host:port"},
		{args: []string{"--frame-addr", "127.0.0.1:8080"}, want: "frame-addr must differ from addr"},
		{args: []string{"--frame-url", "https://frames.example"}, want: "frame-url needs frame-addr"},
		{args: []string{"--frame-addr", ":8081", "--frame-url", "https://frames.example/path"}, want: "frame-url must be scheme://host[:port]"},
		{env: map[string]string{"PORTALWRIGHT_FRAME_ADDR": ":8081", "PORTALWRIGHT_FRAME_URL": "ftp://frames.example"}, want: "frame-url must be scheme://host[:port]"},
	} {
		if _, err := load(t, c.args, c.env); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("args %v env %v: err = %v, want %q", c.args, c.env, err, c.want)
		}
	}
}
