package taskrunner

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Limits are a build's budget: what one run (all its steps together) may use. Zero fields take
// the defaults of DefaultLimits. How each is enforced depends on the host (see Bubblewrap.Mode
// and docs/operations.md "Task runner sandbox").
type Limits struct {
	// WallTime bounds one run (all its steps together) and, separately, each step.
	WallTime time.Duration
	// MemoryBytes is the memory of the whole build: all its processes together, with their
	// /tmp and /dev/shm files and the page cache they cause (memory cgroup). Without a control
	// group it is RLIMIT_AS (address space) of each process.
	MemoryBytes int64
	// Processes bounds the processes and threads of the build together (pids cgroup). Without
	// a control group it is RLIMIT_NPROC of the build's own host uid.
	Processes int
	// FileSizeBytes is RLIMIT_FSIZE: the largest file a task can write (never more than
	// DiskBytes).
	FileSizeBytes int64
	// OpenFiles is RLIMIT_NOFILE.
	OpenFiles int
	// TmpBytes and ShmBytes are the sizes of the build's own /tmp and /dev/shm (tmpfs).
	TmpBytes, ShmBytes int64
	// DiskBytes bounds what the build writes to its scratch folder (its output included),
	// beyond the copy of the workspace it starts from.
	DiskBytes int64
	// OutputBytes caps the captured stdout+stderr of a run; the rest is dropped with a note.
	OutputBytes int
	// CopyBackBytes caps the build output copied back into the workspace.
	CopyBackBytes int64
}

// DefaultLimits are the limits of a run when the configuration leaves them out.
var DefaultLimits = Limits{
	WallTime:      10 * time.Minute,
	MemoryBytes:   4 << 30,
	Processes:     256,
	FileSizeBytes: 256 << 20,
	OpenFiles:     1024,
	TmpBytes:      256 << 20,
	ShmBytes:      64 << 20,
	DiskBytes:     1 << 30,
	OutputBytes:   1 << 20,
	CopyBackBytes: 1 << 30,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.WallTime <= 0 {
		l.WallTime = d.WallTime
	}
	if l.MemoryBytes <= 0 {
		l.MemoryBytes = d.MemoryBytes
	}
	if l.Processes <= 0 {
		l.Processes = d.Processes
	}
	if l.FileSizeBytes <= 0 {
		l.FileSizeBytes = d.FileSizeBytes
	}
	if l.OpenFiles <= 0 {
		l.OpenFiles = d.OpenFiles
	}
	if l.TmpBytes <= 0 {
		l.TmpBytes = d.TmpBytes
	}
	if l.ShmBytes <= 0 {
		l.ShmBytes = d.ShmBytes
	}
	if l.DiskBytes <= 0 {
		l.DiskBytes = d.DiskBytes
	}
	if l.OutputBytes <= 0 {
		l.OutputBytes = d.OutputBytes
	}
	if l.CopyBackBytes <= 0 {
		l.CopyBackBytes = d.CopyBackBytes
	}
	l.FileSizeBytes = min(l.FileSizeBytes, l.DiskBytes)
	return l
}

// Task is one command to run in a sandbox: a RUN step of the Dockerfile.
type Task struct {
	// Argv is the command; Argv[0] is looked up on the sandbox's PATH.
	Argv []string
	// Dir is the working directory inside the sandbox (absolute).
	Dir string
	// Env are extra variables (NAME=value) on top of the sandbox's fixed environment.
	Env []string
}

// Result tells how a step ended.
type Result struct {
	ExitCode int           // -1 when killed by a signal
	Signal   string        // the signal that ended it, if any
	TimedOut bool          // the wall time ran out
	Duration time.Duration // wall time of the step
	// Limit, when set, names the limit the build went over (it was stopped, or the step
	// failed on it): "The build used more than 512 MB of memory (task memory limit)."
	Limit string
}

// OK tells whether the step succeeded.
func (r Result) OK() bool { return r.ExitCode == 0 && !r.TimedOut && r.Signal == "" && r.Limit == "" }

// Sandbox runs tasks isolated from the host. Only this package implements it (see the package
// comment): Bubblewrap now; a Docker daemon is the operator's alternative to come.
type Sandbox interface {
	// Name says which sandbox it is, for logs and the run output.
	Name() string
	// Mode says how the builds' budgets are enforced on this host, for the start-up log.
	Mode() string
	// Run runs t with s as its only writable folder, writing its stdout and stderr to out,
	// within the budget of s's build. An error means the sandbox could not be started; a task
	// that fails is a Result.
	Run(ctx context.Context, s *Scratch, t Task, out *Log) (Result, error)
	// newBudget starts a build's budget (its control group or its uid); the Scratch made with
	// it owns it and ends it in Remove.
	newBudget(ctx context.Context) (*budget, error)
	// limits are the sandbox's limits (with defaults).
	limits() Limits
}

// Fixed environment of every task (the Dockerfile's ENV comes on top).
var baseEnv = []string{
	"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
	"HOME=/tmp",
	"TMPDIR=/tmp",
	"LANG=C.UTF-8",
	"CI=true",
	"NODE_OPTIONS=",
	"npm_config_offline=true",
	"npm_config_update_notifier=false",
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// checkMountPoint refuses a mount point that would hide or sit in the sandbox's system folders.
func checkMountPoint(p string) error {
	if !path.IsAbs(p) || path.Clean(p) != p || p == "/" {
		return fmt.Errorf("the build folder %q must be an absolute, clean path below /", p)
	}
	top := strings.SplitN(strings.TrimPrefix(p, "/"), "/", 2)[0]
	switch top {
	case "usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "proc", "dev", "sys", "run", "tmp":
		return fmt.Errorf("the build folder %q cannot be in /%s", p, top)
	}
	return nil
}

// Log is the captured output of a run: safe for concurrent use, capped at max bytes; what goes
// over the cap is counted and dropped.
type Log struct {
	mu      sync.Mutex
	buf     []byte
	max     int
	dropped int64
}

// NewLog makes a log that keeps at most max bytes.
func NewLog(max int) *Log { return &Log{max: max} }

// Write keeps what fits and drops the rest; it never fails, so a task's output cannot block.
func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	room := l.max - len(l.buf)
	if room > 0 {
		n := min(room, len(p))
		l.buf = append(l.buf, p[:n]...)
		l.dropped += int64(len(p) - n)
	} else {
		l.dropped += int64(len(p))
	}
	return len(p), nil
}

// Notef adds a line from the runner itself (never dropped: it goes past the cap).
func (l *Log) Notef(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buf) > 0 && l.buf[len(l.buf)-1] != '\n' {
		l.buf = append(l.buf, '\n')
	}
	l.buf = fmt.Appendf(l.buf, "[task runner] "+format+"\n", args...)
}

// Dropped is how many bytes of task output went over the cap.
func (l *Log) Dropped() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.dropped
}

// String is the captured output, with a note when some was dropped.
func (l *Log) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := string(l.buf)
	if l.dropped > 0 {
		if s != "" && !strings.HasSuffix(s, "\n") {
			s += "\n"
		}
		s += fmt.Sprintf("[task runner] output over %d bytes: %d more bytes were dropped\n", l.max, l.dropped)
	}
	return s
}
