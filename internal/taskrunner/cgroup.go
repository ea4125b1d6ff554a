package taskrunner

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The cgroup modes of BubblewrapOptions.Cgroup (--task-cgroup).
const (
	CgroupAuto = "auto" // v2 when delegated, else v1, else none
	CgroupV2   = "v2"   // a delegated cgroup v2 subtree with the pids and memory controllers
	CgroupV1   = "v1"   // the cgroup v1 pids and memory hierarchies, writable (root)
	CgroupOff  = "off"  // no control group: a uid per build and per-process limits
)

// groupPrefix starts the name of every per-build control group:
// pw-build-<pid namespace>-<pid>-<start>-<n>, with the pid namespace (inode), pid and start time
// (clock ticks after boot) of the server that made it, so a server starting later in the same
// pid namespace can tell the groups of dead runs (swept) from a live server's; another
// namespace's groups are never touched.
const groupPrefix = "pw-build-"

// cgroupHost is where this server makes its builds' control groups.
type cgroupHost struct {
	version int
	// v1: the server's own groups in the pids and memory hierarchies (builds go below them).
	pids, mem string
	// v2: the group the builds go below (the server's own, or its parent when the server moved
	// itself into a leaf; see detectV2).
	dir    string
	prefix string // groupPrefix + "<pid>-<start>-"
}

// groupSeq numbers the build groups of this process (all its sandboxes share it).
var groupSeq atomic.Int64

// describe is the mode as the start-up log line tells it.
func (h *cgroupHost) describe() string {
	if h.version == 2 {
		return "cgroup v2 (pids, memory) below " + h.dir
	}
	return "cgroup v1 (pids, memory) below " + h.pids + " and " + h.mem
}

// detectCgroups finds the control groups the builds can have in this mode; nil (and why) when
// the mode is off or, in auto, none is usable.
func detectCgroups(mode string) (*cgroupHost, error) {
	switch mode {
	case CgroupOff:
		return nil, errors.New("turned off (--task-cgroup=off)")
	case CgroupV2:
		return detectV2()
	case CgroupV1:
		return detectV1()
	case "", CgroupAuto:
		h, err2 := detectV2()
		if err2 == nil {
			return h, nil
		}
		h, err1 := detectV1()
		if err1 == nil {
			return h, nil
		}
		return nil, fmt.Errorf("no cgroup v2 (%v), no cgroup v1 (%v)", err2, err1)
	default:
		return nil, fmt.Errorf("unknown cgroup mode %q (auto, v2, v1 or off)", mode)
	}
}

// ownerTag is "<pid namespace>-<pid>-<start time>" of this process.
func ownerTag() string {
	start, _ := processStart(os.Getpid())
	return strconv.FormatUint(pidNamespace(), 10) + "-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(start, 10)
}

// pidNamespace is the inode of this process's pid namespace (0 when unknown).
func pidNamespace() uint64 {
	var st unix.Stat_t
	if unix.Stat("/proc/self/ns/pid", &st) != nil {
		return 0
	}
	return st.Ino
}

// processStart is field 22 of /proc/<pid>/stat: when the process started, in clock ticks.
func processStart(pid int) (uint64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	i := bytes.LastIndexByte(b, ')') // the command name may hold spaces and parentheses
	if i < 0 {
		return 0, errors.New("bad stat")
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return 0, errors.New("bad stat")
	}
	return strconv.ParseUint(f[19], 10, 64)
}

// mountInfo is one line of /proc/self/mountinfo.
type mountInfo struct {
	root, point, fstype string
	super               []string // super options (for cgroup v1: the controllers)
}

func mounts() ([]mountInfo, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []mountInfo
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		a, b := strings.Fields(pre), strings.Fields(post)
		if !ok || len(a) < 5 || len(b) < 3 {
			continue
		}
		out = append(out, mountInfo{root: unescape(a[3]), point: unescape(a[4]), fstype: b[0], super: strings.Split(b[2], ",")})
	}
	return out, sc.Err()
}

// unescape undoes mountinfo's octal escapes (\040 for a space).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ownGroups reads /proc/self/cgroup: controller list → path ("" for the v2 line).
func ownGroups() (map[string]string, error) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			out[""] = parts[2]
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			out[c] = parts[2]
		}
	}
	return out, nil
}

// hostPath is where the group path (as /proc/self/cgroup names it) is in the mount m.
func hostPath(m mountInfo, group string) (string, bool) {
	rel := group
	if m.root != "/" {
		var ok bool
		if rel, ok = strings.CutPrefix(group, m.root); !ok || (rel != "" && rel[0] != '/') {
			return "", false
		}
	}
	return filepath.Join(m.point, filepath.FromSlash(rel)), true
}

func detectV1() (*cgroupHost, error) {
	own, err := ownGroups()
	if err != nil {
		return nil, err
	}
	ms, err := mounts()
	if err != nil {
		return nil, err
	}
	h := &cgroupHost{version: 1, prefix: groupPrefix + ownerTag() + "-"}
	for _, c := range []string{"pids", "memory"} {
		group, ok := own[c]
		if !ok {
			return nil, fmt.Errorf("the %s controller is not in a v1 hierarchy of this process", c)
		}
		var dir string
		for _, m := range ms {
			if m.fstype == "cgroup" && slices.Contains(m.super, c) {
				if d, ok := hostPath(m, group); ok {
					dir = d
					break
				}
			}
		}
		if dir == "" {
			return nil, fmt.Errorf("the v1 %s hierarchy is not mounted", c)
		}
		if c == "pids" {
			h.pids = dir
		} else {
			h.mem = dir
		}
	}
	if h.pids == h.mem {
		return nil, errors.New("pids and memory share one v1 hierarchy")
	}
	if err := h.probe(); err != nil {
		return nil, err
	}
	return h, nil
}

// detectV2 finds a delegated cgroup v2 group: this process's own, with the pids and memory
// controllers available. When they are not enabled for its children yet, the server moves
// itself into a leaf group "portalwright-server" of it and enables them (the kernel allows
// controllers only on groups without processes of their own), as systemd's Delegate= asks.
func detectV2() (*cgroupHost, error) {
	own, err := ownGroups()
	if err != nil {
		return nil, err
	}
	group, ok := own[""]
	if !ok {
		return nil, errors.New("this process is in no v2 group")
	}
	ms, err := mounts()
	if err != nil {
		return nil, err
	}
	dir := ""
	for _, m := range ms {
		if m.fstype == "cgroup2" {
			if d, ok := hostPath(m, group); ok {
				dir = d
				break
			}
		}
	}
	if dir == "" {
		return nil, errors.New("no cgroup2 mount holds this process's group")
	}
	has := func(file string) bool {
		b, err := os.ReadFile(filepath.Join(dir, file))
		f := strings.Fields(string(b))
		return err == nil && slices.Contains(f, "pids") && slices.Contains(f, "memory")
	}
	if !has("cgroup.controllers") {
		return nil, fmt.Errorf("the pids and memory controllers are not delegated to %s", dir)
	}
	h := &cgroupHost{version: 2, dir: dir, prefix: groupPrefix + ownerTag() + "-"}
	if !has("cgroup.subtree_control") {
		leaf := filepath.Join(dir, "portalwright-server")
		if err := os.Mkdir(leaf, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
			return nil, err
		}
		if err := writeFile(filepath.Join(leaf, "cgroup.procs"), strconv.Itoa(os.Getpid())); err != nil {
			return nil, fmt.Errorf("moving the server into %s: %w", leaf, err)
		}
		if err := writeFile(filepath.Join(dir, "cgroup.subtree_control"), "+pids +memory"); err != nil {
			_ = writeFile(filepath.Join(dir, "cgroup.procs"), strconv.Itoa(os.Getpid()))
			return nil, fmt.Errorf("enabling pids and memory in %s: %w", dir, err)
		}
	}
	if err := h.probe(); err != nil {
		return nil, err
	}
	return h, nil
}

// probe makes and removes a group with limits, to know the hierarchy is really writable.
func (h *cgroupHost) probe() error {
	g, err := h.newGroup(Limits{Processes: 8, MemoryBytes: 64 << 20})
	if err != nil {
		return err
	}
	return g.remove()
}

func writeFile(p, s string) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(s)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// cgroup is one build's control group (two directories in v1: pids and memory).
type cgroup struct {
	host      *cgroupHost
	pids, mem string // v1
	dir       string // v2
	fd        int    // v2: the group's directory, for clone3(CLONE_INTO_CGROUP); -1 otherwise
}

// newGroup makes a build's group with its limits: processes and memory (swap included).
func (h *cgroupHost) newGroup(lim Limits) (*cgroup, error) {
	name := h.prefix + strconv.FormatInt(groupSeq.Add(1), 10)
	g := &cgroup{host: h, fd: -1}
	var err error
	if h.version == 1 {
		g.pids, g.mem = filepath.Join(h.pids, name), filepath.Join(h.mem, name)
		err = os.Mkdir(g.pids, 0o755)
		if err == nil {
			if err = os.Mkdir(g.mem, 0o755); err != nil {
				_ = os.Remove(g.pids)
			}
		}
		if err != nil {
			return nil, err
		}
		err = errors.Join(
			writeFile(filepath.Join(g.pids, "pids.max"), strconv.Itoa(lim.Processes)),
			writeFile(filepath.Join(g.mem, "memory.limit_in_bytes"), strconv.FormatInt(lim.MemoryBytes, 10)))
		if err == nil { // memory and swap together; only where swap accounting is on
			if werr := writeFile(filepath.Join(g.mem, "memory.memsw.limit_in_bytes"), strconv.FormatInt(lim.MemoryBytes, 10)); werr != nil && !errors.Is(werr, os.ErrNotExist) {
				err = werr
			}
		}
	} else {
		g.dir = filepath.Join(h.dir, name)
		if err := os.Mkdir(g.dir, 0o755); err != nil {
			return nil, err
		}
		err = errors.Join(
			writeFile(filepath.Join(g.dir, "pids.max"), strconv.Itoa(lim.Processes)),
			writeFile(filepath.Join(g.dir, "memory.max"), strconv.FormatInt(lim.MemoryBytes, 10)))
		if err == nil {
			if werr := writeFile(filepath.Join(g.dir, "memory.swap.max"), "0"); werr != nil && !errors.Is(werr, os.ErrNotExist) {
				err = werr
			}
			_ = writeFile(filepath.Join(g.dir, "memory.oom.group"), "1") // an OOM kill takes the whole build
		}
		if err == nil {
			g.fd, err = unix.Open(g.dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		}
	}
	if err != nil {
		_ = g.remove()
		return nil, fmt.Errorf("setting up the build's control group: %w", err)
	}
	return g, nil
}

// start starts cmd (with its own process group) inside the group. v2: clone3 puts the child
// there directly. v1 has no such call: the calling OS thread moves into the build's groups (v1
// moves single threads), forks, and moves straight back, so the child is in the groups from its
// first instruction, before it can fork, and the server is in them only for that instant (in a
// build's memory group it could be the OOM killer's pick). A thread that could not move back
// kills the child and ends with its goroutine (locked, so the thread exits, out of the groups).
func (g *cgroup) start(cmd *exec.Cmd) error {
	if g.host.version == 2 {
		cmd.SysProcAttr.UseCgroupFD = true
		cmd.SysProcAttr.CgroupFD = g.fd
		return cmd.Start()
	}
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never cloned into new runtime threads (LockOSThread guarantees it)
		tid := strconv.Itoa(unix.Gettid())
		err := writeFile(filepath.Join(g.pids, "tasks"), tid)
		if err == nil {
			err = writeFile(filepath.Join(g.mem, "tasks"), tid)
		}
		if err == nil {
			err = cmd.Start()
		}
		back := errors.Join(writeFile(filepath.Join(g.host.pids, "tasks"), tid), writeFile(filepath.Join(g.host.mem, "tasks"), tid))
		if back == nil {
			runtime.UnlockOSThread()
			errc <- err
			return
		}
		if err == nil { // started, but this thread is stuck in the build's groups
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			_ = cmd.Wait()
		}
		errc <- fmt.Errorf("leaving the build's control group: %w", back)
	}()
	return <-errc
}

// procs are the processes in the group (the server itself left out: a thread of it may be
// passing through, see start).
func (g *cgroup) procs() []int {
	dir := g.dir
	if g.host.version == 1 {
		dir = g.pids
	}
	b, _ := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	var out []int
	self := os.Getpid()
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil && pid != self {
			out = append(out, pid)
		}
	}
	return out
}

// kill ends every process of the group: forks are stopped first (pids.max 0), then all get
// SIGKILL until none is left (v2: cgroup.kill). It waits at most a few seconds.
func (g *cgroup) kill() {
	if g.host.version == 2 {
		_ = writeFile(filepath.Join(g.dir, "cgroup.kill"), "1")
		_ = writeFile(filepath.Join(g.dir, "pids.max"), "0")
	} else {
		_ = writeFile(filepath.Join(g.pids, "pids.max"), "0")
	}
	g.reap(true)
}

// reap waits for the group to be empty, killing what is left when kill is set; it tells
// whether the group is empty.
func (g *cgroup) reap(kill bool) bool {
	deadline := time.Now().Add(3 * time.Second)
	for wait := 100 * time.Microsecond; ; wait = min(2*wait, 10*time.Millisecond) {
		ps := g.procs()
		if len(ps) == 0 {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		if kill {
			for _, p := range ps {
				_ = syscall.Kill(p, syscall.SIGKILL)
			}
		}
		time.Sleep(wait)
	}
}

// events are the times the build hit its limits: processes the OOM killer took from the group
// after its own memory limit was reached (an OOM of the host or of a group above, which may also
// pick a build's process, is not the build's limit), and forks refused at the process limit.
func (g *cgroup) events() (oomKills, forkFails int64) {
	if g.host.version == 2 {
		ev := filepath.Join(g.dir, "memory.events")
		if field(ev, "max") > 0 {
			oomKills = field(ev, "oom_kill")
		}
		return oomKills, field(filepath.Join(g.dir, "pids.events"), "max")
	}
	// v1's failcnt is not kept by every kernel: the group's peak reaching its limit tells it.
	limit, peak := number(filepath.Join(g.mem, "memory.limit_in_bytes")), number(filepath.Join(g.mem, "memory.max_usage_in_bytes"))
	if limit > 0 && peak >= limit-limit/50 {
		oomKills = field(filepath.Join(g.mem, "memory.oom_control"), "oom_kill")
	}
	return oomKills, field(filepath.Join(g.pids, "pids.events"), "max")
}

// number reads a cgroup file holding one number (0 when it cannot).
func number(p string) int64 {
	b, _ := os.ReadFile(p)
	n, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return n
}

// field reads "name value" from a flat-keyed cgroup file.
func field(p, name string) int64 {
	b, err := os.ReadFile(p)
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, " "); ok && k == name {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}

// remove kills what is left and removes the group (retrying while the last processes exit).
func (g *cgroup) remove() error {
	if g.fd >= 0 {
		_ = unix.Close(g.fd)
		g.fd = -1
	}
	if len(g.procs()) > 0 {
		g.kill()
	}
	var dirs []string
	if g.host.version == 1 {
		dirs = []string{g.pids, g.mem}
	} else {
		dirs = []string{g.dir}
	}
	return removeGroups(dirs)
}

func removeGroups(dirs []string) error {
	var errs []error
	for _, d := range dirs {
		if d == "" {
			continue
		}
		var err error
		deadline := time.Now().Add(2 * time.Second)
		for wait := 100 * time.Microsecond; ; wait = min(2*wait, 20*time.Millisecond) {
			if err = unix.Rmdir(d); err == nil || errors.Is(err, unix.ENOENT) {
				err = nil
				break
			}
			if !errors.Is(err, unix.EBUSY) || time.Now().After(deadline) {
				break
			}
			time.Sleep(wait)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("removing the control group %s: %w", d, err))
		}
	}
	return errors.Join(errs...)
}

// sweep removes the groups that runs of dead servers left (a crash, a kill -9): their
// processes are killed and the groups removed. It reports how many groups it removed.
func (h *cgroupHost) sweep() int {
	parents := []string{h.dir}
	if h.version == 1 {
		parents = []string{h.pids, h.mem}
	}
	n := 0
	for _, parent := range parents {
		ents, _ := os.ReadDir(parent)
		for _, e := range ents {
			if !e.IsDir() || !strings.HasPrefix(e.Name(), groupPrefix) || !ownerDead(e.Name()) {
				continue
			}
			d := filepath.Join(parent, e.Name())
			_ = writeFile(filepath.Join(d, "cgroup.kill"), "1") // v2
			_ = writeFile(filepath.Join(d, "pids.max"), "0")    // v2, and v1's pids group
			killProcs(d)
			if removeGroups([]string{d}) == nil {
				n++
			}
		}
	}
	return n
}

// killProcs kills the processes listed in dir/cgroup.procs until none is (3 s at most).
func killProcs(dir string) {
	for i := 0; i < 300; i++ {
		b, _ := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
		f := strings.Fields(string(b))
		if len(f) == 0 {
			return
		}
		for _, s := range f {
			if pid, err := strconv.Atoi(s); err == nil && pid != os.Getpid() {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// ownerDead tells whether the server named in a group name
// (pw-build-<pid namespace>-<pid>-<start>-<n>) is gone: no such process in our pid namespace,
// or another one with its pid. A group of another pid namespace is not ours to judge.
func ownerDead(name string) bool {
	f := strings.Split(strings.TrimPrefix(name, groupPrefix), "-")
	if len(f) != 4 || f[0] != strconv.FormatUint(pidNamespace(), 10) {
		return false
	}
	pid, err1 := strconv.Atoi(f[1])
	start, err2 := strconv.ParseUint(f[2], 10, 64)
	if err1 != nil || err2 != nil {
		return false
	}
	got, err := processStart(pid)
	return err != nil || got != start
}
