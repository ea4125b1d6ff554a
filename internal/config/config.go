// Package config resolves the server configuration: command-line flags win over
// PORTALWRIGHT_* environment variables, which win over built-in defaults.
package config

import (
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// Config is everything the binary needs to start.
type Config struct {
	Addr        string // listen address, host:port
	DataDir     string // repositories, workspaces, SQLite file, caches
	DatabaseURL string // empty: SQLite in DataDir; postgres://… selects PostgreSQL
	LogFormat   string // text or json
	LogLevel    string // debug, info, warn, error
	WebDir      string // serve the SPA from this folder instead of the embedded build (development)

	AdminPassword string // password of the first admin; random when empty (env only: never a flag)

	AccessTokenTTL  time.Duration
	RefreshTokenTTL time.Duration
}

// Defaults are the built-in values.
func Defaults() Config {
	return Config{
		Addr:            "127.0.0.1:8080",
		DataDir:         "./data",
		LogFormat:       "text",
		LogLevel:        "info",
		AccessTokenTTL:  15 * time.Minute,
		RefreshTokenTTL: 30 * 24 * time.Hour,
	}
}

// flagSpec binds one setting to its flag and environment variable.
type flagSpec struct {
	name, env, usage string
	str              *string
	dur              *time.Duration
}

// Register adds the settings to fs, with defaults taken from d. Call Resolve after fs.Parse.
func Register(fs *flag.FlagSet, c *Config) *Binder {
	b := &Binder{fs: fs, cfg: c}
	b.add(flagSpec{name: "addr", env: "PORTALWRIGHT_ADDR", usage: "listen address (host:port)", str: &c.Addr})
	b.add(flagSpec{name: "data-dir", env: "PORTALWRIGHT_DATA_DIR", usage: "data directory (database, repositories, workspaces)", str: &c.DataDir})
	b.add(flagSpec{name: "database-url", env: "PORTALWRIGHT_DATABASE_URL", usage: "database URL; empty for SQLite in the data dir, postgres://… for PostgreSQL", str: &c.DatabaseURL})
	b.add(flagSpec{name: "log-format", env: "PORTALWRIGHT_LOG_FORMAT", usage: "log format: text or json", str: &c.LogFormat})
	b.add(flagSpec{name: "log-level", env: "PORTALWRIGHT_LOG_LEVEL", usage: "log level: debug, info, warn or error", str: &c.LogLevel})
	b.add(flagSpec{name: "web-dir", env: "PORTALWRIGHT_WEB_DIR", usage: "serve the web app from this directory instead of the embedded build", str: &c.WebDir})
	b.add(flagSpec{name: "access-token-ttl", env: "PORTALWRIGHT_ACCESS_TOKEN_TTL", usage: "lifetime of an access token", dur: &c.AccessTokenTTL})
	b.add(flagSpec{name: "refresh-token-ttl", env: "PORTALWRIGHT_REFRESH_TOKEN_TTL", usage: "lifetime of a sign-in session (refresh token)", dur: &c.RefreshTokenTTL})
	return b
}

// Binder remembers which flags belong to which environment variables.
type Binder struct {
	fs    *flag.FlagSet
	cfg   *Config
	specs []flagSpec
}

func (b *Binder) add(s flagSpec) {
	switch {
	case s.str != nil:
		b.fs.StringVar(s.str, s.name, *s.str, s.usage+" (env "+s.env+")")
	case s.dur != nil:
		b.fs.DurationVar(s.dur, s.name, *s.dur, s.usage+" (env "+s.env+")")
	}
	b.specs = append(b.specs, s)
}

// Resolve applies environment variables to every flag not given on the command line,
// reads the env-only settings and validates the result.
func (b *Binder) Resolve(getenv func(string) string) error {
	given := map[string]bool{}
	b.fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for _, s := range b.specs {
		v, ok := lookup(getenv, s.env)
		if given[s.name] || !ok {
			continue
		}
		if err := b.fs.Set(s.name, v); err != nil {
			return fmt.Errorf("%s: %w", s.env, err)
		}
	}
	b.cfg.AdminPassword = getenv("PORTALWRIGHT_ADMIN_PASSWORD")
	return b.cfg.Validate()
}

func lookup(getenv func(string) string, key string) (string, bool) {
	v := getenv(key)
	return v, v != ""
}

// Validate checks values that would otherwise fail later and less clearly.
func (c *Config) Validate() error {
	var errs []error
	if c.Addr == "" {
		errs = append(errs, errors.New("addr must not be empty"))
	}
	if c.DataDir == "" {
		errs = append(errs, errors.New("data-dir must not be empty"))
	}
	switch c.LogFormat {
	case "text", "json":
	default:
		errs = append(errs, fmt.Errorf("log-format must be text or json, not %q", c.LogFormat))
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		errs = append(errs, fmt.Errorf("log-level must be debug, info, warn or error, not %q", c.LogLevel))
	}
	if c.DatabaseURL != "" && !IsPostgresURL(c.DatabaseURL) && !strings.HasPrefix(c.DatabaseURL, "sqlite:") {
		errs = append(errs, fmt.Errorf("database-url must start with postgres://, postgresql:// or sqlite:, not %q", redact(c.DatabaseURL)))
	}
	if c.AccessTokenTTL < time.Minute {
		errs = append(errs, errors.New("access-token-ttl must be at least 1m"))
	}
	if c.RefreshTokenTTL < c.AccessTokenTTL {
		errs = append(errs, errors.New("refresh-token-ttl must not be shorter than access-token-ttl"))
	}
	return errors.Join(errs...)
}

// IsPostgresURL tells whether a database URL selects PostgreSQL.
func IsPostgresURL(u string) bool {
	return strings.HasPrefix(u, "postgres://") || strings.HasPrefix(u, "postgresql://")
}

// DatabaseDSN is the URL the store opens: the configured one, or the SQLite file in the data dir.
func (c *Config) DatabaseDSN() string {
	if c.DatabaseURL != "" {
		return c.DatabaseURL
	}
	return "sqlite:" + filepath.Join(c.DataDir, "portalwright.db")
}

// redact hides a password in a URL before it is printed.
func redact(u string) string {
	at := strings.LastIndex(u, "@")
	scheme := strings.Index(u, "://")
	if at < 0 || scheme < 0 || at < scheme {
		return u
	}
	creds := u[scheme+3 : at]
	if i := strings.Index(creds, ":"); i >= 0 {
		return u[:scheme+3] + creds[:i] + ":***" + u[at:]
	}
	return u
}

// Redacted returns the database URL safe for logs.
func (c *Config) Redacted() string { return redact(c.DatabaseDSN()) }
