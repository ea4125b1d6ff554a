package handover

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Systems a target may belong to (spec 3 §7: unity/{x} and scmdb/{x}).
const (
	SystemUnity = "unity"
	SystemSCMDB = "scmdb"
)

// Kinds of target.
const (
	KindHTTP      = "http"
	KindDirectory = "directory"
)

// DefaultFileName is the targets file looked up in the data directory when no path is configured.
const DefaultFileName = "handover.json"

const (
	defaultTimeout = 5 * time.Minute
	minTimeout     = time.Second
	maxTimeout     = 6 * time.Hour
	minSecretLen   = 16
)

var targetNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)

// Target is one downstream system packages are handed over to. Its JSON form (what Targets
// returns to the API) never carries the secret, its environment variable or the URL's query.
type Target struct {
	Name        string `json:"name"`   // unique, e.g. "unity-prod"
	System      string `json:"system"` // "unity" or "scmdb"
	Kind        string `json:"kind"`   // "http" or "directory"
	Description string `json:"description"`

	// http
	URL     string        `json:"url,omitempty"` // http:// or https://; Targets strips its query
	Secret  string        `json:"-"`             // HMAC-SHA256 key (from "secret" or "secretEnv")
	Timeout time.Duration `json:"-"`             // per attempt; default 5 min

	// directory
	Dir string `json:"dir,omitempty"` // absolute path
}

// Config is the parsed targets file.
type Config struct {
	Targets []Target
}

// Target returns the target named name.
func (c *Config) Target(name string) (Target, bool) {
	if c == nil {
		return Target{}, false
	}
	for _, t := range c.Targets {
		if t.Name == name {
			return t, true
		}
	}
	return Target{}, false
}

// fileTarget is a target as written in the targets file.
type fileTarget struct {
	Name        string `json:"name"`
	System      string `json:"system"`
	Kind        string `json:"kind"`
	Description string `json:"description"`
	URL         string `json:"url"`
	Secret      string `json:"secret"`
	SecretEnv   string `json:"secretEnv"`
	Timeout     string `json:"timeout"` // Go duration, e.g. "5m"
	Dir         string `json:"dir"`
}

type fileConfig struct {
	Targets []fileTarget `json:"targets"`
}

// Load reads the targets file at path (JSON {"targets":[…]}). A missing file means no
// targets. Secrets given as secretEnv are read from the environment.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Config{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("handover targets file: %w", err)
	}
	cfg, err := Parse(data, os.Getenv)
	if err != nil {
		return nil, fmt.Errorf("handover targets file %s: %w", path, err)
	}
	return cfg, nil
}

// LoadFor loads the targets file the server is configured with: handoverConfig (the
// --handover-config setting), which must exist when given, or else <dataDir>/handover.json
// when it exists.
func LoadFor(handoverConfig, dataDir string) (*Config, error) {
	if handoverConfig == "" {
		return Load(filepath.Join(dataDir, DefaultFileName))
	}
	if _, err := os.Stat(handoverConfig); err != nil {
		return nil, fmt.Errorf("handover-config: %w", err)
	}
	return Load(handoverConfig)
}

// Parse reads and validates a targets file's content; getenv resolves secretEnv.
func Parse(data []byte, getenv func(string) string) (*Config, error) {
	var fc fileConfig
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&fc); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if dec.More() {
		return nil, errors.New("invalid JSON: data after the top-level object")
	}
	cfg := &Config{}
	var errs []error
	seen := map[string]bool{}
	for i, ft := range fc.Targets {
		t, err := ft.target(getenv)
		if err != nil {
			label := fmt.Sprintf("target %d", i+1)
			if ft.Name != "" {
				label += fmt.Sprintf(" (%q)", ft.Name)
			}
			errs = append(errs, fmt.Errorf("%s: %w", label, err))
			continue
		}
		if seen[t.Name] {
			errs = append(errs, fmt.Errorf("target %d: the name %q is used twice", i+1, t.Name))
			continue
		}
		seen[t.Name] = true
		cfg.Targets = append(cfg.Targets, t)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return cfg, nil
}

func (ft fileTarget) target(getenv func(string) string) (Target, error) {
	t := Target{Name: strings.TrimSpace(ft.Name), System: ft.System, Kind: ft.Kind, Description: ft.Description}
	if !targetNameRE.MatchString(t.Name) {
		return t, errors.New("name must be 1–64 characters of a-z, 0-9, '.', '_' or '-', starting with a letter or digit")
	}
	switch t.System {
	case SystemUnity, SystemSCMDB:
	default:
		return t, fmt.Errorf("system must be %q or %q, not %q", SystemUnity, SystemSCMDB, t.System)
	}
	switch t.Kind {
	case KindHTTP:
		if ft.Dir != "" {
			return t, errors.New("dir is for directory targets only")
		}
		u, err := url.Parse(ft.URL)
		switch {
		case ft.URL == "":
			return t, errors.New("url is required")
		case err != nil:
			return t, errors.New("url is not a valid URL")
		case u.Scheme != "http" && u.Scheme != "https":
			return t, errors.New("url must start with http:// or https://")
		case u.Host == "":
			return t, errors.New("url has no host")
		case u.User != nil:
			return t, errors.New("url must not carry credentials (use secret or secretEnv)")
		case u.Fragment != "":
			return t, errors.New("url must not have a #fragment")
		}
		t.URL = u.String()
		switch {
		case ft.Secret != "" && ft.SecretEnv != "":
			return t, errors.New("give either secret or secretEnv, not both")
		case ft.SecretEnv != "":
			t.Secret = getenv(ft.SecretEnv)
			if t.Secret == "" {
				return t, fmt.Errorf("the environment variable %s (secretEnv) is not set", ft.SecretEnv)
			}
		default:
			t.Secret = ft.Secret
		}
		if t.Secret == "" {
			return t, errors.New("an http target needs secret or secretEnv (the HMAC-SHA256 signing key)")
		}
		if len(t.Secret) < minSecretLen {
			return t, fmt.Errorf("the secret must be at least %d characters", minSecretLen)
		}
		t.Timeout = defaultTimeout
		if ft.Timeout != "" {
			d, err := time.ParseDuration(ft.Timeout)
			if err != nil || d < minTimeout || d > maxTimeout {
				return t, fmt.Errorf("timeout must be a duration between %s and %s (e.g. \"5m\"), not %q", minTimeout, maxTimeout, ft.Timeout)
			}
			t.Timeout = d
		}
	case KindDirectory:
		if ft.URL != "" || ft.Secret != "" || ft.SecretEnv != "" || ft.Timeout != "" {
			return t, errors.New("url, secret, secretEnv and timeout are for http targets only")
		}
		if ft.Dir == "" || !filepath.IsAbs(ft.Dir) {
			return t, fmt.Errorf("dir must be an absolute path, not %q", ft.Dir)
		}
		t.Dir = filepath.Clean(ft.Dir)
	default:
		return t, fmt.Errorf("kind must be %q or %q, not %q", KindHTTP, KindDirectory, t.Kind)
	}
	return t, nil
}

// public is t as the API shows it: no secret, no URL query (it may carry a token).
func (t Target) public() Target {
	t.Secret = ""
	if t.URL != "" {
		if u, err := url.Parse(t.URL); err == nil {
			u.RawQuery, u.ForceQuery = "", false
			t.URL = u.String()
		}
	}
	return t
}

// redactedURL is t's URL without its query, for logs and stored errors.
func (t Target) redactedURL() string { return t.public().URL }
