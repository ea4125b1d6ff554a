package taskrunner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// DefaultSandboxUID is the host uid (and gid) bwrap runs as when the server runs as root:
// nobody/nogroup on Debian.
const DefaultSandboxUID = 65534

// BubblewrapOptions configure NewBubblewrap.
type BubblewrapOptions struct {
	// Bwrap and Prlimit are the executables; empty: "bwrap" and "prlimit" on PATH.
	Bwrap, Prlimit string
	// UID is the unprivileged host uid (and gid) bwrap runs as when the server is root;
	// 0: DefaultSandboxUID. Ignored when the server is not root (it runs as the server's uid).
	UID int
	// Limits of every step; zero fields take DefaultLimits.
	Limits Limits
	// ReadOnly are extra host folders mounted read-only at the same path (e.g. /opt/node for a
	// Node.js outside /usr). /usr and the system links are always there.
	ReadOnly []string
}

// Bubblewrap runs tasks with bwrap (Debian package bubblewrap); limits are set with prlimit
// (util-linux) just before bwrap starts, and inherited by everything in the sandbox.
type Bubblewrap struct {
	bwrap, prlimit string
	uid, gid       int  // host ids of the sandbox's files and processes
	setuid         bool // switch to uid/gid before starting bwrap (the server is root)
	lim            Limits
	system         []string // bwrap arguments for the read-only system view
}

// NewBubblewrap finds bwrap and prlimit and checks that a sandbox can start on this machine.
func NewBubblewrap(ctx context.Context, opts BubblewrapOptions) (*Bubblewrap, error) {
	b := &Bubblewrap{lim: opts.Limits.withDefaults(), uid: os.Getuid(), gid: os.Getgid()}
	var err error
	if b.bwrap, err = exec.LookPath(or(opts.Bwrap, "bwrap")); err != nil {
		return nil, fmt.Errorf("the task runner needs bubblewrap (on Debian: apt-get install bubblewrap): %w", err)
	}
	if b.prlimit, err = exec.LookPath(or(opts.Prlimit, "prlimit")); err != nil {
		return nil, fmt.Errorf("the task runner needs prlimit (on Debian: apt-get install util-linux): %w", err)
	}
	if b.uid == 0 {
		b.setuid = true
		b.uid, b.gid = DefaultSandboxUID, DefaultSandboxUID
		if opts.UID > 0 {
			b.uid, b.gid = opts.UID, opts.UID
		}
	}
	b.system = systemView(opts.ReadOnly)
	// Prove it works here (user namespaces allowed, bwrap runnable as the sandbox uid).
	dir, err := os.MkdirTemp("", "portalwright-bwrap-check-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o711); err != nil { // the sandbox uid passes through
		return nil, err
	}
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		return nil, err
	}
	s, err := newScratch(filepath.Join(dir, "scratch"), empty, "", "/check", b.uid, b.gid)
	if err != nil {
		return nil, err
	}
	log := NewLog(4096)
	res, err := b.Run(ctx, s, Task{Argv: []string{"true"}, Dir: "/check"}, log)
	if err == nil && !res.OK() {
		err = fmt.Errorf("exit %d %s: %s", res.ExitCode, res.Signal, log.String())
	}
	if err != nil {
		return nil, fmt.Errorf("bubblewrap cannot start a sandbox on this machine (are unprivileged user namespaces disabled?): %w", err)
	}
	return b, nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// systemView mounts /usr read-only, recreates the merged-/usr links (or mounts the folders
// where the host has real ones), and a few files of /etc programs need. Nothing else.
func systemView(extra []string) []string {
	args := []string{"--ro-bind", "/usr", "/usr"}
	for _, d := range []string{"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"} {
		st, err := os.Lstat(d)
		switch {
		case err != nil:
		case st.Mode()&os.ModeSymlink != 0:
			if target, err := os.Readlink(d); err == nil {
				args = append(args, "--symlink", target, d)
			}
		case st.IsDir():
			args = append(args, "--ro-bind", d, d)
		}
	}
	for _, f := range []string{"/etc/alternatives", "/etc/ssl", "/etc/ca-certificates", "/etc/ld.so.cache", "/etc/localtime", "/etc/mime.types"} {
		args = append(args, "--ro-bind-try", f, f)
	}
	for _, d := range extra {
		if path.IsAbs(d) && checkMountPoint(path.Clean(d)) == nil {
			args = append(args, "--ro-bind-try", d, d)
		}
	}
	return args
}

// Name implements Sandbox.
func (b *Bubblewrap) Name() string { return "bubblewrap" }

func (b *Bubblewrap) owner() (int, int) {
	if !b.setuid {
		return -1, -1
	}
	return b.uid, b.gid
}

func (b *Bubblewrap) limits() Limits { return b.lim }

// args is the whole command line: prlimit, then bwrap, then the task after "--".
func (b *Bubblewrap) args(s *Scratch, t Task) ([]string, error) {
	if len(t.Argv) == 0 {
		return nil, errors.New("empty command")
	}
	if err := checkMountPoint(s.mountAt); err != nil {
		return nil, err
	}
	dir := t.Dir
	if dir == "" {
		dir = s.mountAt
	}
	if !path.IsAbs(dir) {
		return nil, fmt.Errorf("working directory %q is not absolute", dir)
	}
	l := b.lim
	a := []string{b.prlimit,
		"--as=" + strconv.FormatInt(l.MemoryBytes, 10),
		"--nproc=" + strconv.Itoa(l.Processes),
		"--fsize=" + strconv.FormatInt(l.FileSizeBytes, 10),
		"--nofile=" + strconv.Itoa(l.OpenFiles),
		"--core=0",
		"--", b.bwrap,
		"--unshare-user", "--disable-userns",
		"--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
		"--uid", strconv.Itoa(DefaultSandboxUID), "--gid", strconv.Itoa(DefaultSandboxUID),
		"--hostname", "sandbox",
		"--die-with-parent", "--new-session", "--cap-drop", "ALL",
		"--clearenv",
	}
	a = append(a, b.system...)
	a = append(a,
		"--proc", "/proc",
		"--dev", "/dev",
		"--size", strconv.FormatInt(l.TmpBytes, 10), "--tmpfs", "/tmp",
		"--bind", s.dir, s.mountAt,
		"--remount-ro", "/", // bwrap's root (where /etc and the mount points live) is read-only
		"--chdir", dir,
	)
	for _, kv := range append(append([]string{}, baseEnv...), t.Env...) {
		name, value, ok := cut(kv)
		if !ok || !envName.MatchString(name) {
			return nil, fmt.Errorf("invalid environment variable %q", kv)
		}
		a = append(a, "--setenv", name, value)
	}
	a = append(a, "--")
	return append(a, t.Argv...), nil
}

func cut(kv string) (string, string, bool) {
	for i := 0; i < len(kv); i++ {
		if kv[i] == '=' {
			return kv[:i], kv[i+1:], true
		}
	}
	return "", "", false
}

// Run implements Sandbox.
func (b *Bubblewrap) Run(ctx context.Context, s *Scratch, t Task, out *Log) (Result, error) {
	args, err := b.args(s, t)
	if err != nil {
		return Result{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, b.lim.WallTime)
	defer cancel()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = []string{"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C"}
	cmd.Dir = "/"
	cmd.Stdin = nil
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if b.setuid {
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(b.uid), Gid: uint32(b.gid), Groups: []uint32{}}
	}
	// Output pipes are closed this long after the process ends, even if something kept them.
	cmd.WaitDelay = 2 * time.Second
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Result{}, err
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			// The whole process group: prlimit/bwrap and, by --die-with-parent and the pid
			// namespace, everything inside.
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		case <-done:
		}
	}()
	werr := cmd.Wait()
	close(done)
	res := Result{Duration: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case werr == nil:
	case errors.As(werr, &ee):
		res.ExitCode = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.ExitCode = -1
			res.Signal = ws.Signal().String()
		}
	case errors.Is(werr, exec.ErrWaitDelay):
	default:
		return res, werr
	}
	if ctx.Err() != nil {
		res.TimedOut = errors.Is(ctx.Err(), context.DeadlineExceeded)
		if res.ExitCode == 0 && res.Signal == "" {
			res.ExitCode = -1
			res.Signal = "killed"
		}
	}
	return res, nil
}
