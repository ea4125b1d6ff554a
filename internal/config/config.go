// Package config resolves the server configuration: command-line flags win over
// PORTALWRIGHT_* environment variables, which win over built-in defaults.
package config

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"path/filepath"
	"strconv"
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

	// PublicURL is how browsers reach the server (links in e-mails, SSO redirects); empty:
	// derived from the listening address.
	PublicURL string

	SMTP SMTP
	OIDC OIDC

	// Demo fills a new installation with a demo domain and portals on first start.
	Demo bool

	// AllowPrivateGitHosts lets users import from git URLs whose host is a loopback, private,
	// link-local or otherwise internal address (refused by default: server-side request forgery).
	AllowPrivateGitHosts bool

	// MetricsAddr, when set, serves /metrics (only) on this separate address. MetricsToken
	// (env only: a secret), when set, serves /metrics on the main address to requests that
	// carry it as a bearer token. Without either, /metrics is not served.
	MetricsAddr  string
	MetricsToken string

	AccessTokenTTL  time.Duration
	RefreshTokenTTL time.Duration

	// TrustedProxies lists the reverse proxies (CIDRs or addresses, comma-separated) whose
	// X-Forwarded-For header names the client; from other peers the header is ignored.
	TrustedProxies string

	// AssetLimits are the largest uploads, in bytes, per type of asset.
	AssetLimits AssetLimits

	// Tasks are the limits of a portal's task run in the sandbox (issue 13).
	Tasks TaskLimits

	// Thumbnails bound the thumbnailer's image work and its disk cache (issue 23).
	Thumbnails ThumbnailLimits

	// PreviewTTL is how long a preview link stays valid; PreviewMaxMB bounds the files of a
	// locked preview's snapshot.
	PreviewTTL   time.Duration
	PreviewMaxMB int
	// Heartbeat is how often a running loadable generation or preview preparation beats, and
	// how often every instance sweeps: what stopped beating for more than two intervals is
	// marked FAILED (issue 23 item 3).
	Heartbeat time.Duration
	// HandoverConfig is the path of the loadable hand-over targets file (internal/handover);
	// empty: <data-dir>/handover.json if it exists, else no targets.
	HandoverConfig string

	// SecretsKeyFile names a file holding the 32-byte key (base64, or the raw bytes) that
	// seals the credentials of portals' git hosts at rest (internal/upstream); SecretsKey (env
	// only: a secret) is the same key given as base64 directly. Without either, credentials
	// cannot be stored.
	SecretsKeyFile string
	SecretsKey     string
	// UpstreamFetchTimeout bounds the fetch from a portal's git host when the portal is opened
	// or committed to; UpstreamPushTimeout bounds a push or a Sync now.
	UpstreamFetchTimeout time.Duration
	UpstreamPushTimeout  time.Duration

	// FrameAddr, when set, serves the designer's preview frame on this separate address
	// (host:port): an origin of its own, where the frame's key is an HttpOnly cookie instead of
	// a token in its URL (internal/preview/frame.go); empty: the frame is served on the app's
	// origin. FrameURL is how browsers reach it (scheme://host[:port]); empty: the app's
	// scheme and host name with FrameAddr's port.
	FrameAddr string
	FrameURL  string

	// SSHAddr, when set, starts the built-in git-over-SSH server (internal/gitssh) on this
	// address (host:port); empty: off.
	SSHAddr string
	// SSHHostKeyFile is the SSH server's host key (OpenSSH format), generated on first start
	// with mode 0600 and kept; empty: <data-dir>/ssh_host_ed25519_key.
	SSHHostKeyFile string
	// SSHPublicHost is the host, or host:port, that users' clone URLs name; empty: the host of
	// --public-url (else of --ssh-addr) with the SSH server's port.
	SSHPublicHost string
}

// TaskLimits are a build's budget in the sandbox (one task run, all its steps together) and how
// the host enforces it (issue 23).
type TaskLimits struct {
	Timeout   time.Duration
	MemoryMB  int // all the build's processes together (with its /tmp and /dev/shm)
	Processes int // processes and threads of the build together
	DiskMB    int // what the build writes to its scratch folder (output included)
	TmpMB     int // size of the build's /tmp
	ShmMB     int // size of the build's /dev/shm
	// Cgroup: auto, v2, v1 or off: how each build gets its control group.
	Cgroup string
	// BuildUIDs ("first-last"): the host uids of builds, one per build, when the server runs as
	// root without control groups.
	BuildUIDs string
}

// ThumbnailLimits bound the thumbnailer (internal/thumbnail): the largest decoded image
// (pixels × bytes per pixel, from its header) and the decoded MiB of all decodes at once,
// how many decode at once (0: one per CPU), and the disk cache's size.
type ThumbnailLimits struct {
	DecodeMB, MemoryMB, Decodes, CacheMB int
}

// AssetLimits are the per-type upload limits of the asset manager, in bytes (spec 2 §5).
type AssetLimits struct {
	Image, Video, PDF, Default int
}

// SMTP configures outgoing e-mail; without Host and From mails are held in the outbox.
type SMTP struct {
	Host, Username, Password, From string
	Port                           int
	StartTLS                       bool
}

// OIDC configures single sign-on with an OpenID Connect provider; off without Issuer.
type OIDC struct {
	Issuer, ClientID, ClientSecret string
	Label                          string // the SSO button's text
	Provision                      bool   // create unknown users on first SSO sign-in
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
		SMTP:            SMTP{Port: 587, StartTLS: true},
		OIDC:            OIDC{Label: "Sign in with SSO"},
		Demo:            true,
		AssetLimits:     AssetLimits{Image: 20 << 20, Video: 200 << 20, PDF: 50 << 20, Default: 20 << 20},
		Tasks:           TaskLimits{Timeout: 10 * time.Minute, MemoryMB: 4096, Processes: 256, DiskMB: 1024, TmpMB: 256, ShmMB: 64, Cgroup: "auto", BuildUIDs: "2000000000-2000000999"},
		PreviewTTL:      72 * time.Hour,
		PreviewMaxMB:    2048,
		Heartbeat:       30 * time.Second,
		Thumbnails:      ThumbnailLimits{DecodeMB: 96, MemoryMB: 96, CacheMB: 512},

		UpstreamFetchTimeout: 15 * time.Second,
		UpstreamPushTimeout:  2 * time.Minute,
	}
}

// flagSpec binds one setting to its flag and environment variable.
type flagSpec struct {
	name, env, usage string
	str              *string
	dur              *time.Duration
	num              *int
	on               *bool
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
	b.add(flagSpec{name: "public-url", env: "PORTALWRIGHT_PUBLIC_URL", usage: "URL browsers use to reach the server, for links in e-mails and SSO (default: from --addr)", str: &c.PublicURL})
	b.add(flagSpec{name: "smtp-host", env: "PORTALWRIGHT_SMTP_HOST", usage: "SMTP server; without it e-mails are held in the outbox", str: &c.SMTP.Host})
	b.add(flagSpec{name: "smtp-port", env: "PORTALWRIGHT_SMTP_PORT", usage: "SMTP port", num: &c.SMTP.Port})
	b.add(flagSpec{name: "smtp-username", env: "PORTALWRIGHT_SMTP_USERNAME", usage: "SMTP user name", str: &c.SMTP.Username})
	b.add(flagSpec{name: "smtp-from", env: "PORTALWRIGHT_SMTP_FROM", usage: "sender address of e-mails", str: &c.SMTP.From})
	b.add(flagSpec{name: "smtp-starttls", env: "PORTALWRIGHT_SMTP_STARTTLS", usage: "require STARTTLS", on: &c.SMTP.StartTLS})
	b.add(flagSpec{name: "demo", env: "PORTALWRIGHT_DEMO", usage: "on first start, create a demo domain with starter portals", on: &c.Demo})
	b.add(flagSpec{name: "oidc-issuer", env: "PORTALWRIGHT_OIDC_ISSUER", usage: "OpenID Connect issuer URL; enables single sign-on", str: &c.OIDC.Issuer})
	b.add(flagSpec{name: "oidc-client-id", env: "PORTALWRIGHT_OIDC_CLIENT_ID", usage: "OpenID Connect client id", str: &c.OIDC.ClientID})
	b.add(flagSpec{name: "oidc-label", env: "PORTALWRIGHT_OIDC_LABEL", usage: "text of the single sign-on button", str: &c.OIDC.Label})
	b.add(flagSpec{name: "trusted-proxies", env: "PORTALWRIGHT_TRUSTED_PROXIES", usage: "reverse proxies whose X-Forwarded-For names the client: CIDRs or addresses, comma-separated (default: none)", str: &c.TrustedProxies})
	b.add(flagSpec{name: "oidc-provision", env: "PORTALWRIGHT_OIDC_PROVISION", usage: "create unknown users on their first single sign-on", on: &c.OIDC.Provision})
	b.add(flagSpec{name: "allow-private-git-hosts", env: "PORTALWRIGHT_ALLOW_PRIVATE_GIT_HOSTS", usage: "allow importing portals from git hosts on loopback, private or link-local addresses", on: &c.AllowPrivateGitHosts})
	b.add(flagSpec{name: "asset-limit-image", env: "PORTALWRIGHT_ASSET_LIMIT_IMAGE", usage: "largest image upload, in bytes", num: &c.AssetLimits.Image})
	b.add(flagSpec{name: "asset-limit-video", env: "PORTALWRIGHT_ASSET_LIMIT_VIDEO", usage: "largest video upload, in bytes", num: &c.AssetLimits.Video})
	b.add(flagSpec{name: "asset-limit-pdf", env: "PORTALWRIGHT_ASSET_LIMIT_PDF", usage: "largest PDF upload, in bytes", num: &c.AssetLimits.PDF})
	b.add(flagSpec{name: "asset-limit-default", env: "PORTALWRIGHT_ASSET_LIMIT_DEFAULT", usage: "largest upload of any other file, in bytes", num: &c.AssetLimits.Default})
	b.add(flagSpec{name: "task-timeout", env: "PORTALWRIGHT_TASK_TIMEOUT", usage: "longest a portal's task run may take", dur: &c.Tasks.Timeout})
	b.add(flagSpec{name: "task-memory-mb", env: "PORTALWRIGHT_TASK_MEMORY_MB", usage: "memory of a portal's build, all its processes together, /tmp and /dev/shm included, in MiB (without a control group: address space of each process)", num: &c.Tasks.MemoryMB})
	b.add(flagSpec{name: "task-processes", env: "PORTALWRIGHT_TASK_PROCESSES", usage: "most processes (and threads) a portal's build may have together", num: &c.Tasks.Processes})
	b.add(flagSpec{name: "task-disk-mb", env: "PORTALWRIGHT_TASK_DISK_MB", usage: "most a portal's build may write to its scratch folder (its output included), in MiB", num: &c.Tasks.DiskMB})
	b.add(flagSpec{name: "task-tmp-mb", env: "PORTALWRIGHT_TASK_TMP_MB", usage: "size of a build's /tmp, in MiB", num: &c.Tasks.TmpMB})
	b.add(flagSpec{name: "task-shm-mb", env: "PORTALWRIGHT_TASK_SHM_MB", usage: "size of a build's /dev/shm, in MiB", num: &c.Tasks.ShmMB})
	b.add(flagSpec{name: "task-cgroup", env: "PORTALWRIGHT_TASK_CGROUP", usage: "control group per build: auto, v2 (a delegated cgroup v2 subtree), v1 (the v1 pids and memory hierarchies) or off", str: &c.Tasks.Cgroup})
	b.add(flagSpec{name: "task-build-uids", env: "PORTALWRIGHT_TASK_BUILD_UIDS", usage: "host uids (first-last) builds run as, one per build, when the server is root without control groups", str: &c.Tasks.BuildUIDs})
	b.add(flagSpec{name: "preview-ttl", env: "PORTALWRIGHT_PREVIEW_TTL", usage: "how long a preview link stays valid", dur: &c.PreviewTTL})
	b.add(flagSpec{name: "heartbeat", env: "PORTALWRIGHT_HEARTBEAT", usage: "how often loadable generations and preview builds beat and every instance sweeps; what stopped beating for two intervals is marked FAILED", dur: &c.Heartbeat})
	b.add(flagSpec{name: "preview-max-mb", env: "PORTALWRIGHT_PREVIEW_MAX_MB", usage: "largest portal a locked preview may copy, in MiB", num: &c.PreviewMaxMB})
	b.add(flagSpec{name: "thumbnail-decode-mb", env: "PORTALWRIGHT_THUMBNAIL_DECODE_MB", usage: "largest decoded image a thumbnail is made of, in MiB (pixels × bytes per pixel, from its header; larger images are refused)", num: &c.Thumbnails.DecodeMB})
	b.add(flagSpec{name: "thumbnail-memory-mb", env: "PORTALWRIGHT_THUMBNAIL_MEMORY_MB", usage: "decoded MiB of all thumbnail decodes at once (others wait)", num: &c.Thumbnails.MemoryMB})
	b.add(flagSpec{name: "thumbnail-decodes", env: "PORTALWRIGHT_THUMBNAIL_DECODES", usage: "most thumbnail decodes at once (0: one per CPU)", num: &c.Thumbnails.Decodes})
	b.add(flagSpec{name: "thumbnail-cache-mb", env: "PORTALWRIGHT_THUMBNAIL_CACHE_MB", usage: "size limit of the thumbnail cache (<data-dir>/cache/thumbnails), in MiB: the least recently used thumbnails are removed above it", num: &c.Thumbnails.CacheMB})
	b.add(flagSpec{name: "metrics-addr", env: "PORTALWRIGHT_METRICS_ADDR", usage: "serve /metrics only on this separate address (host:port); see also PORTALWRIGHT_METRICS_TOKEN", str: &c.MetricsAddr})
	b.add(flagSpec{name: "handover-config", env: "PORTALWRIGHT_HANDOVER_CONFIG", usage: "path of the loadable hand-over targets file (default: <data-dir>/handover.json if it exists)", str: &c.HandoverConfig})
	b.add(flagSpec{name: "secrets-key-file", env: "PORTALWRIGHT_SECRETS_KEY_FILE", usage: "file with the 32-byte key (base64) that encrypts stored git host credentials (see also PORTALWRIGHT_SECRETS_KEY)", str: &c.SecretsKeyFile})
	b.add(flagSpec{name: "upstream-fetch-timeout", env: "PORTALWRIGHT_UPSTREAM_FETCH_TIMEOUT", usage: "longest fetch from a portal's git host when the portal is opened or committed to", dur: &c.UpstreamFetchTimeout})
	b.add(flagSpec{name: "upstream-push-timeout", env: "PORTALWRIGHT_UPSTREAM_PUSH_TIMEOUT", usage: "longest push to a portal's git host (and Sync now)", dur: &c.UpstreamPushTimeout})
	b.add(flagSpec{name: "frame-addr", env: "PORTALWRIGHT_FRAME_ADDR", usage: "serve the designer's preview frame on this separate address (host:port), its own origin, where no token is in the frame's URL; empty: on the app's address", str: &c.FrameAddr})
	b.add(flagSpec{name: "frame-url", env: "PORTALWRIGHT_FRAME_URL", usage: "URL browsers use to reach --frame-addr, scheme://host[:port] on the same site as the app (default: the app's scheme and host with the frame port)", str: &c.FrameURL})
	b.add(flagSpec{name: "ssh-addr", env: "PORTALWRIGHT_SSH_ADDR", usage: "serve git over SSH for authors on this address (host:port); empty: off", str: &c.SSHAddr})
	b.add(flagSpec{name: "ssh-host-key-file", env: "PORTALWRIGHT_SSH_HOST_KEY_FILE", usage: "the SSH server's host key, generated on first start (default: <data-dir>/ssh_host_ed25519_key)", str: &c.SSHHostKeyFile})
	b.add(flagSpec{name: "ssh-public-host", env: "PORTALWRIGHT_SSH_PUBLIC_HOST", usage: "host or host:port of the git SSH URLs shown to users (default: the host of --public-url, else of --ssh-addr, and the SSH port)", str: &c.SSHPublicHost})
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
	case s.num != nil:
		b.fs.IntVar(s.num, s.name, *s.num, s.usage+" (env "+s.env+")")
	case s.on != nil:
		b.fs.BoolVar(s.on, s.name, *s.on, s.usage+" (env "+s.env+")")
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
	// Secrets come only from the environment: flags show in the process list.
	b.cfg.AdminPassword = getenv("PORTALWRIGHT_ADMIN_PASSWORD")
	b.cfg.SMTP.Password = getenv("PORTALWRIGHT_SMTP_PASSWORD")
	b.cfg.OIDC.ClientSecret = getenv("PORTALWRIGHT_OIDC_CLIENT_SECRET")
	b.cfg.MetricsToken = getenv("PORTALWRIGHT_METRICS_TOKEN")
	b.cfg.SecretsKey = getenv("PORTALWRIGHT_SECRETS_KEY")
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
	if c.PublicURL != "" && !strings.HasPrefix(c.PublicURL, "http://") && !strings.HasPrefix(c.PublicURL, "https://") {
		errs = append(errs, fmt.Errorf("public-url must start with http:// or https://, not %q", c.PublicURL))
	}
	if c.SMTP.Host != "" && (c.SMTP.From == "" || c.SMTP.Port <= 0 || c.SMTP.Port > 65535) {
		errs = append(errs, errors.New("smtp-host needs smtp-from and a valid smtp-port"))
	}
	if c.OIDC.Issuer != "" && c.OIDC.ClientID == "" {
		errs = append(errs, errors.New("oidc-issuer needs oidc-client-id (and PORTALWRIGHT_OIDC_CLIENT_SECRET)"))
	}
	if _, err := ParseCIDRs(c.TrustedProxies); err != nil {
		errs = append(errs, fmt.Errorf("trusted-proxies: %w", err))
	}
	if c.RefreshTokenTTL < c.AccessTokenTTL {
		errs = append(errs, errors.New("refresh-token-ttl must not be shorter than access-token-ttl"))
	}
	if c.Tasks.Timeout < 10*time.Second || c.Tasks.MemoryMB < 64 || c.Tasks.Processes < 8 {
		errs = append(errs, errors.New("task-timeout must be at least 10s, task-memory-mb at least 64 and task-processes at least 8"))
	}
	if c.Tasks.DiskMB < 16 || c.Tasks.TmpMB < 1 || c.Tasks.ShmMB < 1 {
		errs = append(errs, errors.New("task-disk-mb must be at least 16, task-tmp-mb and task-shm-mb at least 1"))
	}
	switch c.Tasks.Cgroup {
	case "auto", "v2", "v1", "off":
	default:
		errs = append(errs, fmt.Errorf("task-cgroup must be auto, v2, v1 or off, not %q", c.Tasks.Cgroup))
	}
	if !validUIDRange(c.Tasks.BuildUIDs) {
		errs = append(errs, fmt.Errorf("task-build-uids must be first-last, uids from 1000 to 2147483646, at most 65536 of them, not %q", c.Tasks.BuildUIDs))
	}
	if c.PreviewTTL < time.Minute || c.PreviewMaxMB < 1 {
		errs = append(errs, errors.New("preview-ttl must be at least 1m and preview-max-mb at least 1"))
	}
	if c.Heartbeat < 100*time.Millisecond {
		errs = append(errs, errors.New("heartbeat must be at least 100ms"))
	}
	if t := c.Thumbnails; t.DecodeMB < 1 || t.MemoryMB < t.DecodeMB || t.Decodes < 0 || t.CacheMB < 1 {
		errs = append(errs, errors.New("thumbnail-decode-mb and thumbnail-cache-mb must be at least 1, thumbnail-memory-mb at least thumbnail-decode-mb, thumbnail-decodes at least 0"))
	}
	if c.MetricsAddr != "" {
		if _, _, err := net.SplitHostPort(c.MetricsAddr); err != nil {
			errs = append(errs, fmt.Errorf("metrics-addr must be host:port, not %q", c.MetricsAddr))
		} else if c.MetricsAddr == c.Addr {
			errs = append(errs, errors.New("metrics-addr must differ from addr: /metrics is for operators, not on the public address"))
		}
	}
	for _, l := range []struct {
		name string
		v    int
	}{{"image", c.AssetLimits.Image}, {"video", c.AssetLimits.Video}, {"pdf", c.AssetLimits.PDF}, {"default", c.AssetLimits.Default}} {
		if l.v <= 0 || l.v > 419430400 {
			errs = append(errs, fmt.Errorf("asset-limit-%s must be between 1 and 419430400 bytes (the total upload limit), not %d", l.name, l.v))
		}
	}
	if c.FrameAddr != "" {
		if _, _, err := net.SplitHostPort(c.FrameAddr); err != nil {
			errs = append(errs, fmt.Errorf("frame-addr must be host:port, not %q", c.FrameAddr))
		} else if c.FrameAddr == c.Addr || c.FrameAddr == c.MetricsAddr {
			errs = append(errs, errors.New("frame-addr must differ from addr and metrics-addr: the frame needs an origin of its own"))
		}
	}
	if c.FrameURL != "" {
		if u, err := url.Parse(c.FrameURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.Trim(u.Path, "/") != "" || u.RawQuery != "" || u.User != nil {
			errs = append(errs, fmt.Errorf("frame-url must be scheme://host[:port] with http or https, not %q", c.FrameURL))
		} else if c.FrameAddr == "" {
			errs = append(errs, errors.New("frame-url needs frame-addr"))
		}
	}
	if c.SSHAddr != "" {
		if _, _, err := net.SplitHostPort(c.SSHAddr); err != nil {
			errs = append(errs, fmt.Errorf("ssh-addr must be host:port, not %q", c.SSHAddr))
		} else if c.SSHAddr == c.Addr || c.SSHAddr == c.MetricsAddr {
			errs = append(errs, errors.New("ssh-addr must differ from addr and metrics-addr"))
		}
	}
	if strings.ContainsAny(c.SSHPublicHost, "/@ \t") {
		errs = append(errs, fmt.Errorf("ssh-public-host must be a host or host:port, not %q", c.SSHPublicHost))
	}
	if c.MetricsToken != "" && len(c.MetricsToken) < 16 {
		errs = append(errs, errors.New("PORTALWRIGHT_METRICS_TOKEN must be at least 16 characters"))
	}
	return errors.Join(errs...)
}

// validUIDRange checks "first-last" as taskrunner.ParseUIDRange reads it.
func validUIDRange(s string) bool {
	a, b, ok := strings.Cut(s, "-")
	first, err1 := strconv.Atoi(a)
	last, err2 := strconv.Atoi(b)
	return ok && err1 == nil && err2 == nil && first >= 1000 && last >= first && last < 1<<31-1 && last-first < 1<<16
}

// ParseCIDRs reads a comma- or space-separated list of CIDRs ("10.0.0.0/8", "fd00::/8") and
// single addresses ("192.0.2.7", a /32 or /128).
func ParseCIDRs(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is neither a CIDR nor an IP address", f)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// TrustedProxyPrefixes is the parsed TrustedProxies (validated by Validate).
func (c *Config) TrustedProxyPrefixes() []netip.Prefix {
	p, _ := ParseCIDRs(c.TrustedProxies)
	return p
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

// SSHHostKeyPath is the SSH server's host key file: the configured one or the default.
func (c *Config) SSHHostKeyPath() string {
	if c.SSHHostKeyFile != "" {
		return c.SSHHostKeyFile
	}
	return filepath.Join(c.DataDir, "ssh_host_ed25519_key")
}

// Redacted returns the database URL safe for logs.
func (c *Config) Redacted() string { return redact(c.DatabaseDSN()) }
