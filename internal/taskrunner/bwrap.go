package taskrunner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// DefaultSandboxUID is the host uid (and gid) bwrap runs as when the server runs as root and
// the builds have control groups: nobody/nogroup on Debian.
const DefaultSandboxUID = 65534

// DefaultBuildUIDs are the host uids builds run as, one per build at a time, when the server
// runs as root without control groups (BubblewrapOptions.BuildUIDs).
const DefaultBuildUIDs = "2000000000-2000000999"

// BubblewrapOptions configure NewBubblewrap.
type BubblewrapOptions struct {
	// Bwrap and Prlimit are the executables; empty: "bwrap" and "prlimit" on PATH.
	Bwrap, Prlimit string
	// UID is the unprivileged host uid (and gid) bwrap runs as when the server is root and the
	// builds have control groups; 0: DefaultSandboxUID. Ignored when the server is not root
	// (it runs as the server's uid).
	UID int
	// Cgroup is how builds get their budgets: CgroupAuto (""), CgroupV2, CgroupV1 or CgroupOff.
	// A mode named explicitly that the host cannot give makes NewBubblewrap fail.
	Cgroup string
	// BuildUIDs ("first-last") are the host uids of builds when the server is root and has no
	// control groups: each build runs as one of them alone; "": DefaultBuildUIDs.
	BuildUIDs string
	// Limits of every build; zero fields take DefaultLimits.
	Limits Limits
	// ReadOnly are extra host folders mounted read-only at the same path (e.g. /opt/node for a
	// Node.js outside /usr). /usr and the system links are always there.
	ReadOnly []string
}

// Bubblewrap runs tasks with bwrap (Debian package bubblewrap); per-process limits are set
// with prlimit (util-linux) just before bwrap starts, and inherited by everything in the
// sandbox; each build's budget is a control group of its own (or a host uid of its own).
type Bubblewrap struct {
	bwrap, prlimit string
	uid, gid       int  // host ids of the sandbox's files and processes (with control groups)
	setuid         bool // switch to the build's uid/gid before starting bwrap (the server is root)
	lim            Limits
	system         []string // bwrap arguments for the read-only system view

	cg    *cgroupHost // the builds' control groups; nil: none on this host (why: noCg)
	noCg  string
	pool  *uidPool // builds' own uids (root without control groups)
	nproc string   // RLIMIT_NPROC with control groups: as far as the server's hard limit
	swept int      // control groups of dead runs removed at start
}

// NewBubblewrap finds bwrap and prlimit, sets up the builds' budgets (control groups, or uids)
// and checks that a sandbox can start on this machine. It removes the control groups that runs
// of a dead server left.
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
	mode := or(opts.Cgroup, CgroupAuto)
	if b.cg, err = detectCgroups(mode); err != nil {
		if mode == CgroupV1 || mode == CgroupV2 {
			return nil, fmt.Errorf("the task runner cannot use cgroup %s (--task-cgroup=%s): %w", mode, mode, err)
		}
		if mode != CgroupAuto && mode != CgroupOff {
			return nil, err
		}
		b.noCg = err.Error()
	}
	if b.cg != nil {
		b.swept = b.cg.sweep()
		b.nproc = "unlimited"
		var rl unix.Rlimit
		if unix.Getrlimit(unix.RLIMIT_NPROC, &rl) == nil && rl.Max != unix.RLIM_INFINITY {
			b.nproc = strconv.FormatUint(rl.Max, 10)
		}
	} else if b.setuid {
		first, count, err := ParseUIDRange(or(opts.BuildUIDs, DefaultBuildUIDs))
		if err != nil {
			return nil, fmt.Errorf("build uids: %w", err)
		}
		b.pool = &uidPool{first: first, count: count}
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
	bud, err := b.newBudget(ctx)
	if err != nil {
		return nil, err
	}
	s, err := newScratch(filepath.Join(dir, "scratch"), empty, "", "/check", bud)
	if err != nil {
		return nil, err
	}
	defer s.Remove()
	log := NewLog(4096)
	res, err := b.Run(ctx, s, Task{Argv: []string{"true"}, Dir: "/check"}, log)
	if err == nil && !res.OK() {
		err = fmt.Errorf("exit %d %s %s: %s", res.ExitCode, res.Signal, res.Limit, log.String())
	}
	if err != nil {
		return nil, fmt.Errorf("bubblewrap cannot start a sandbox on this machine (are unprivileged user namespaces disabled?): %w", err)
	}
	return b, nil
}

// Mode implements Sandbox: how the builds' budgets are enforced here.
func (b *Bubblewrap) Mode() string {
	switch {
	case b.cg != nil:
		return "bubblewrap, budgets by " + b.cg.describe()
	case b.pool != nil:
		return fmt.Sprintf("bubblewrap, budgets by a host uid per build (%d-%d): processes by RLIMIT_NPROC, memory by RLIMIT_AS per process (no control group: %s)",
			b.pool.first, b.pool.first+b.pool.count-1, b.noCg)
	default:
		return "bubblewrap, no budget per build: the server is not root and has no control group (" + b.noCg +
			"); processes are counted over the server's own uid, memory per process"
	}
}

// Swept is how many control groups of dead runs NewBubblewrap removed.
func (b *Bubblewrap) Swept() int { return b.swept }

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

// newBudget implements Sandbox: a build's control group, or its own uid.
func (b *Bubblewrap) newBudget(ctx context.Context) (*budget, error) {
	bud := &budget{lim: b.lim, uid: -1, gid: -1}
	if b.setuid {
		bud.setuid, bud.uid, bud.gid = true, b.uid, b.gid
	}
	switch {
	case b.cg != nil:
		g, err := b.cg.newGroup(b.lim)
		if err != nil {
			return nil, err
		}
		bud.cg = g
	case b.pool != nil:
		l, err := b.pool.lease(ctx)
		if err != nil {
			return nil, err
		}
		bud.lease, bud.uid, bud.gid = l, l.uid, l.uid
	}
	return bud, nil
}

func (b *Bubblewrap) limits() Limits { return b.lim }

// The descriptors bwrap gets beyond stdin, stdout and stderr (exec.Cmd.ExtraFiles).
const (
	blockFD = "3" // --block-fd: the task waits until the server holds the sandbox's /tmp and /dev/shm
	infoFD  = "4" // --info-fd: bwrap tells the sandbox's pid
)

// args is the whole command line: prlimit, then bwrap, then the task after "--".
func (b *Bubblewrap) args(s *Scratch, t Task, bud *budget) ([]string, error) {
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
	a := []string{b.prlimit}
	if bud.cg != nil {
		// The control group bounds the build's processes and memory. RLIMIT_NPROC counts every
		// process of the host uid, all builds together: it must not be what stops one.
		a = append(a, "--nproc="+b.nproc)
	} else {
		a = append(a, "--as="+strconv.FormatInt(l.MemoryBytes, 10), "--nproc="+strconv.Itoa(l.Processes))
	}
	a = append(a,
		"--fsize="+strconv.FormatInt(l.FileSizeBytes, 10),
		"--nofile="+strconv.Itoa(l.OpenFiles),
		"--core=0",
		"--", b.bwrap,
		"--unshare-user", "--disable-userns",
		"--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
		"--uid", strconv.Itoa(DefaultSandboxUID), "--gid", strconv.Itoa(DefaultSandboxUID),
		"--hostname", "sandbox",
		"--die-with-parent", "--new-session", "--cap-drop", "ALL",
		"--clearenv",
		"--block-fd", blockFD, "--info-fd", infoFD,
	)
	a = append(a, b.system...)
	a = append(a,
		"--proc", "/proc",
		"--dev", "/dev",
		"--perms", "01777", "--size", strconv.FormatInt(l.ShmBytes, 10), "--tmpfs", "/dev/shm",
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

// Run implements Sandbox. The step runs in its build's control group (or as its uid); a
// watcher looks at the build's counters every 250 ms (more seldom when the scratch folder is
// big) and kills the whole build as soon as it goes over a limit.
func (b *Bubblewrap) Run(ctx context.Context, s *Scratch, t Task, out *Log) (Result, error) {
	bud := s.budget
	if bud == nil {
		return Result{}, errors.New("the build has no budget")
	}
	if over := bud.exceeded(); over != "" {
		return Result{ExitCode: -1, Signal: "killed", Limit: over}, nil
	}
	args, err := b.args(s, t, bud)
	if err != nil {
		return Result{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, b.lim.WallTime)
	defer cancel()
	blockR, blockW, err := os.Pipe()
	if err != nil {
		return Result{}, err
	}
	defer blockW.Close()
	infoR, infoW, err := os.Pipe()
	if err != nil {
		blockR.Close()
		return Result{}, err
	}
	defer infoR.Close()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = []string{"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C"}
	cmd.Dir = "/"
	cmd.Stdin = nil
	cmd.Stdout, cmd.Stderr = out, out
	cmd.ExtraFiles = []*os.File{blockR, infoW}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if bud.setuid {
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(bud.uid), Gid: uint32(bud.gid), Groups: []uint32{}}
	}
	// Output pipes are closed this long after the process ends, even if something kept them.
	cmd.WaitDelay = 2 * time.Second
	start := time.Now()
	if bud.cg != nil {
		err = bud.cg.start(cmd)
	} else {
		err = cmd.Start()
	}
	blockR.Close()
	infoW.Close()
	if err != nil {
		return Result{}, err
	}
	ended := make(chan struct{}) // the step's processes have ended
	// kill ends the whole build: the process group of prlimit/bwrap (and, by --die-with-parent
	// and the pid namespace, everything inside) and every process of its control group. Only
	// while the step runs: both goroutines below are done before Run returns.
	cg := bud.cg
	kill := func() {
		select {
		case <-ended:
			return
		default:
		}
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if cg != nil {
			cg.kill()
		}
	}
	var watchers sync.WaitGroup
	defer watchers.Wait()
	watchers.Add(1)
	go func() {
		defer watchers.Done()
		select {
		case <-ctx.Done():
			kill()
		case <-ended:
		}
	}()
	// Hold the sandbox's /tmp and /dev/shm (to tell, after the step, whether a write failed
	// because one was full), then let the task start.
	tmpfs := holdTmpfs(infoR, b.lim)
	defer tmpfs.close()
	_, _ = blockW.Write([]byte{1})
	blockW.Close()
	watchers.Add(1)
	go func() { // the watcher
		defer watchers.Done()
		wait := 250 * time.Millisecond
		for {
			select {
			case <-ended:
				return
			case <-time.After(wait):
			}
			t0 := time.Now()
			if bud.check() != "" {
				kill()
				return
			}
			wait = max(250*time.Millisecond, 20*time.Since(t0))
		}
	}()
	werr := cmd.Wait()
	close(ended)
	watchers.Wait()
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
	res.Limit = bud.check()
	if res.Limit == "" && (res.ExitCode != 0 || res.Signal != "") {
		// A write that failed on a full /tmp or /dev/shm is what made the step fail.
		switch {
		case tmpfs.full(tmpfs.tmp):
			bud.exceed(tmpMessage(b.lim))
		case tmpfs.full(tmpfs.shm):
			bud.exceed(shmMessage(b.lim))
		}
		res.Limit = bud.exceeded()
	}
	return res, nil
}

// sandboxTmpfs holds the sandbox's /tmp and /dev/shm (O_PATH descriptors keep the filesystems
// after the sandbox is gone), to read how full they ended.
type sandboxTmpfs struct{ tmp, shm int }

// holdTmpfs reads the sandbox's pid from bwrap's info descriptor and waits until its /tmp and
// /dev/shm are mounted (bwrap holds the task on --block-fd meanwhile). Best effort: without
// them (bwrap failed, or /proc/<pid>/root is not readable by the server), the limits still
// hold, a failed step just does not say which one it hit.
func holdTmpfs(info *os.File, lim Limits) *sandboxTmpfs {
	h := &sandboxTmpfs{tmp: -1, shm: -1}
	deadline := time.Now().Add(5 * time.Second)
	_ = info.SetReadDeadline(deadline)
	var buf []byte
	pid := 0
	for pid == 0 {
		chunk := make([]byte, 256)
		n, err := info.Read(chunk)
		buf = append(buf, chunk[:n]...)
		if m := childPid.FindSubmatch(buf); m != nil {
			pid, _ = strconv.Atoi(string(m[1]))
		} else if err != nil || len(buf) > 4096 {
			return h
		}
	}
	root := "/proc/" + strconv.Itoa(pid) + "/root"
	var hostShm, hostTmp unix.Stat_t
	_ = unix.Stat("/dev/shm", &hostShm)
	_ = unix.Stat("/tmp", &hostTmp)
	for wait := 50 * time.Microsecond; ; wait = min(2*wait, time.Millisecond) {
		tmp, errT := openTmpfs(root+"/tmp", lim.TmpBytes, hostTmp.Dev)
		shm, errS := openTmpfs(root+"/dev/shm", lim.ShmBytes, hostShm.Dev)
		if errT == nil && errS == nil {
			h.tmp, h.shm = tmp, shm
			return h
		}
		for _, fd := range []int{tmp, shm} {
			if fd >= 0 {
				_ = unix.Close(fd)
			}
		}
		if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err != nil || errors.Is(errT, unix.EACCES) || time.Now().After(deadline) {
			return h // the sandbox is gone (bwrap failed), or not ours to see
		}
		time.Sleep(wait)
	}
}

var childPid = regexp.MustCompile(`"child-pid":\s*([0-9]+)`)

// openTmpfs opens p (O_PATH) when it is a tmpfs of the given size that is not the host's own
// (dev): the sandbox's, once bwrap has mounted it.
func openTmpfs(p string, size int64, hostDev uint64) (int, error) {
	fd, err := unix.Open(p, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	var st unix.Statfs_t
	var fi unix.Stat_t
	if unix.Fstatfs(fd, &st) != nil || unix.Fstat(fd, &fi) != nil || st.Type != unix.TMPFS_MAGIC || fi.Dev == hostDev ||
		int64(st.Blocks)*st.Bsize != (size+st.Bsize-1)/st.Bsize*st.Bsize {
		return fd, errors.New("not mounted yet")
	}
	return fd, nil
}

// full tells whether the tmpfs held by fd has no room left.
func (h *sandboxTmpfs) full(fd int) bool {
	var st unix.Statfs_t
	return fd >= 0 && unix.Fstatfs(fd, &st) == nil && st.Bavail == 0
}

func (h *sandboxTmpfs) close() {
	for _, fd := range []int{h.tmp, h.shm} {
		if fd >= 0 {
			_ = unix.Close(fd)
		}
	}
	h.tmp, h.shm = -1, -1
}
