// Package gitcli runs the git command line for portal repositories and workspaces.
//
// Safety rules, enforced by the types:
//   - Options are of type Flag. Only untyped constants convert to it implicitly, so a string
//     variable (user input) cannot be passed as an option by accident: it must go through
//     Value (refused if it starts with '-'), Option (always "--name=value") or Paths (after
//     "--"), none of which git reads as an option.
//   - Every command runs with a fixed environment: LC_ALL=C for parseable output, no terminal
//     prompts, no system or user configuration (HOME points at an empty directory), so the
//     machine's git setup cannot change what the product does.
//   - Every command has a time-out.
//   - No checkout ever materialises a symbolic link: every command runs with
//     core.symlinks=false, so a link in portal content becomes a plain file holding the
//     target's text (portal content is untrusted; see internal/workspace/paths.go). Config
//     entries are passed only through Cmd.Config, which keeps that one in place.
package gitcli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// MinVersion is the oldest git the product supports.
const MinVersion = "2.31" // GIT_CONFIG_COUNT

// DefaultTimeout bounds a command that was given no time-out of its own.
const DefaultTimeout = 2 * time.Minute

// Flag is a git option or subcommand written in the code. Only constants convert to it
// implicitly; never convert user input to Flag.
type Flag string

// Git runs commands with one binary, environment and default time-out.
type Git struct {
	bin     string
	env     []string
	timeout time.Duration
	version string
}

// Options configure New.
type Options struct {
	// Binary is the git executable; empty: "git" on PATH.
	Binary string
	// Home is an empty directory used as HOME and XDG_CONFIG_HOME so no user configuration
	// is read. Required.
	Home string
	// Timeout is the default per-command time-out.
	Timeout time.Duration
}

// New finds git, checks its version and prepares the environment.
func New(ctx context.Context, opts Options) (*Git, error) {
	bin := opts.Binary
	if bin == "" {
		bin = "git"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, fmt.Errorf("git is not installed (need git %s or newer; on Debian: apt-get install git): %w", MinVersion, err)
	}
	if opts.Home == "" {
		return nil, errors.New("gitcli: Options.Home is required")
	}
	if abs, err := filepath.Abs(opts.Home); err == nil {
		opts.Home = abs
	}
	if err := os.MkdirAll(opts.Home, 0o700); err != nil {
		return nil, err
	}
	g := &Git{bin: path, timeout: opts.Timeout, env: cleanEnv(opts.Home)}
	if g.timeout <= 0 {
		g.timeout = DefaultTimeout
	}
	out, err := g.Run(ctx, "", Command("version"))
	if err != nil {
		return nil, fmt.Errorf("run %s --version: %w", path, err)
	}
	v, ok := parseVersion(string(out))
	if !ok {
		return nil, fmt.Errorf("cannot read the git version from %q", strings.TrimSpace(string(out)))
	}
	if !versionAtLeast(v, MinVersion) {
		return nil, fmt.Errorf("git %s is too old: Portalwright needs git %s or newer", v, MinVersion)
	}
	g.version = v
	return g, nil
}

// Version is the git version found by New, e.g. "2.39.5".
func (g *Git) Version() string { return g.version }

func cleanEnv(home string) []string {
	env := []string{
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + home,
		"LC_ALL=C",
		"LANG=C",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_ASKPASS=/bin/false",
		"SSH_ASKPASS=/bin/false",
		"GIT_SSH_COMMAND=ssh -o BatchMode=yes -o StrictHostKeyChecking=accept-new",
	}
	if p := os.Getenv("PATH"); p != "" {
		env = append(env, "PATH="+p)
	}
	return env
}

var versionPattern = regexp.MustCompile(`git version (\d+)\.(\d+)(?:\.(\d+))?`)

func parseVersion(s string) (string, bool) {
	m := versionPattern.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	v := m[1] + "." + m[2]
	if m[3] != "" {
		v += "." + m[3]
	}
	return v, true
}

func versionAtLeast(have, want string) bool {
	h, w := strings.Split(have, "."), strings.Split(want, ".")
	for i := 0; i < len(w); i++ {
		var hv int
		if i < len(h) {
			hv, _ = strconv.Atoi(h[i])
		}
		wv, _ := strconv.Atoi(w[i])
		if hv != wv {
			return hv > wv
		}
	}
	return true
}

// Cmd is one git invocation under construction.
type Cmd struct {
	args    []string
	env     []string
	config  [][2]string
	stdin   io.Reader
	timeout time.Duration
	err     error
}

// Command starts a command: the subcommand and its constant options.
func Command(sub Flag, flags ...Flag) *Cmd {
	c := &Cmd{args: []string{string(sub)}}
	return c.Flags(flags...)
}

// Flags adds constant options.
func (c *Cmd) Flags(flags ...Flag) *Cmd {
	for _, f := range flags {
		c.args = append(c.args, string(f))
	}
	return c
}

// Value adds a positional value (a branch, a commit, a remote URL). A value git could read as
// an option, or one with a NUL byte, is refused and the command will not run.
func (c *Cmd) Value(values ...string) *Cmd {
	for _, v := range values {
		if v == "" || strings.HasPrefix(v, "-") || strings.ContainsRune(v, 0) {
			c.fail(fmt.Errorf("gitcli: refused argument %q", v))
			continue
		}
		c.args = append(c.args, v)
	}
	return c
}

// Option adds "--name=value"; git never reads the value as an option.
func (c *Cmd) Option(name Flag, value string) *Cmd {
	if !strings.HasPrefix(string(name), "--") || strings.Contains(string(name), "=") {
		c.fail(fmt.Errorf("gitcli: Option needs a --long-name, got %q", name))
		return c
	}
	if strings.ContainsRune(value, 0) {
		c.fail(errors.New("gitcli: refused option value with a NUL byte"))
		return c
	}
	c.args = append(c.args, string(name)+"="+value)
	return c
}

// Paths adds "--" and then paths, which git then never reads as options or revisions.
func (c *Cmd) Paths(paths ...string) *Cmd {
	c.args = append(c.args, "--")
	for _, p := range paths {
		if strings.ContainsRune(p, 0) {
			c.fail(errors.New("gitcli: refused path with a NUL byte"))
			continue
		}
		c.args = append(c.args, p)
	}
	return c
}

// Env adds environment variables for this command (e.g. GIT_AUTHOR_NAME); names are constants.
func (c *Cmd) Env(name Flag, value string) *Cmd {
	if strings.HasPrefix(string(name), "GIT_CONFIG_") && name != "GIT_CONFIG_PARAMETERS" {
		c.fail(fmt.Errorf("gitcli: set configuration with Config, not %s", name))
		return c
	}
	c.env = append(c.env, string(name)+"="+value)
	return c
}

// Config sets a git configuration entry for this command only (like "git -c key=value",
// passed in the environment so it is never parsed as an option). The fixed entries
// (core.symlinks=false) always come first and cannot be overridden here.
func (c *Cmd) Config(key Flag, value string) *Cmd {
	if strings.EqualFold(string(key), "core.symlinks") {
		c.fail(errors.New("gitcli: core.symlinks is fixed to false"))
		return c
	}
	if strings.ContainsAny(value, "\x00\n") {
		c.fail(errors.New("gitcli: refused config value with a NUL byte or newline"))
		return c
	}
	c.config = append(c.config, [2]string{string(key), value})
	return c
}

// fixedConfig applies to every command.
var fixedConfig = [][2]string{{"core.symlinks", "false"}}

func configEnv(extra [][2]string) []string {
	all := append(append([][2]string(nil), fixedConfig...), extra...)
	env := []string{"GIT_CONFIG_COUNT=" + strconv.Itoa(len(all))}
	for i, kv := range all {
		n := strconv.Itoa(i)
		env = append(env, "GIT_CONFIG_KEY_"+n+"="+kv[0], "GIT_CONFIG_VALUE_"+n+"="+kv[1])
	}
	return env
}

// Stdin feeds the command's standard input.
func (c *Cmd) Stdin(r io.Reader) *Cmd { c.stdin = r; return c }

// Timeout overrides the default time-out for this command.
func (c *Cmd) Timeout(d time.Duration) *Cmd { c.timeout = d; return c }

// Args returns the arguments (for logs and tests).
func (c *Cmd) Args() []string { return append([]string(nil), c.args...) }

func (c *Cmd) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}

// Error is a git command that failed: its arguments, exit code and what it printed on stderr.
type Error struct {
	Args     []string
	ExitCode int
	Stderr   string
	Err      error
}

func (e *Error) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if msg == "" && e.Err != nil {
		msg = e.Err.Error()
	}
	return fmt.Sprintf("git %s: exit %d: %s", strings.Join(e.Args, " "), e.ExitCode, msg)
}

func (e *Error) Unwrap() error { return e.Err }

// ErrTimeout is wrapped by errors of commands that ran out of time.
var ErrTimeout = errors.New("git command timed out")

// Run runs the command in dir ("" for no particular directory) and returns its stdout.
func (g *Git) Run(ctx context.Context, dir string, c *Cmd) ([]byte, error) {
	var out bytes.Buffer
	err := g.Stream(ctx, dir, c, &out)
	return out.Bytes(), err
}

// Stream runs the command and writes its stdout to w.
func (g *Git) Stream(ctx context.Context, dir string, c *Cmd, w io.Writer) error {
	if c.err != nil {
		return c.err
	}
	timeout := c.timeout
	if timeout <= 0 {
		timeout = g.timeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, g.bin, c.args...)
	cmd.Dir = dir
	cmd.Env = append(append(append([]string(nil), g.env...), c.env...), configEnv(c.config)...)
	cmd.Stdin = c.stdin
	cmd.Stdout = w
	var stderr bytes.Buffer
	cmd.Stderr = &limitedWriter{w: &stderr, n: 64 << 10}
	cmd.WaitDelay = 5 * time.Second
	// git runs helpers of its own (a local push runs receive-pack): on a time-out the whole
	// process group is killed, so when Run returns no process of ours still holds a git lock
	// file of the repository (internal/workspace relies on that to remove stale ones).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	err := cmd.Run()
	if err == nil {
		return nil
	}
	gitErr := &Error{Args: c.args, ExitCode: -1, Stderr: stderr.String(), Err: err}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		gitErr.ExitCode = exitErr.ExitCode()
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		gitErr.Err = fmt.Errorf("%w after %s", ErrTimeout, timeout)
	}
	return gitErr
}

// limitedWriter keeps the first n bytes (stderr can be large on some failures).
type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		l.n -= k
		if _, err := l.w.Write(p[:k]); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}
