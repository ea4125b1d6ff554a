package taskrunner

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// Budgets per build (issue 23): real bwrap, real control groups where the machine has them.

// needCgroups skips a test that needs the builds' control groups when this machine gives none.
func needCgroups(t testing.TB, sb *Bubblewrap) {
	t.Helper()
	if sb.cg == nil {
		t.Skipf("no control group for builds here: %s", sb.Mode())
	}
}

// memAvailable is MemAvailable of /proc/meminfo, in bytes.
func memAvailable(t testing.TB) int64 {
	t.Helper()
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	t.Fatal("no MemAvailable")
	return 0
}

// ourGroups are this process's build groups that exist now.
func ourGroups(sb *Bubblewrap) []string {
	if sb.cg == nil {
		return nil
	}
	var out []string
	for _, d := range []string{sb.cg.pids, sb.cg.mem, sb.cg.dir} {
		if d == "" {
			continue
		}
		m, _ := filepath.Glob(filepath.Join(d, sb.cg.prefix+"*"))
		out = append(out, m...)
	}
	return out
}

func TestSandboxMode(t *testing.T) {
	sb := newSandbox(t, fast())
	t.Logf("task runner sandbox: %s", sb.Mode())
	if os.Getuid() == 0 && sb.cg == nil && !strings.Contains(sb.Mode(), "host uid per build") {
		t.Fatalf("root without control groups must give each build its own uid: %s", sb.Mode())
	}
}

// TestOneBuildCannotStarveAnother: portal A's build runs a fork bomb, portal C's a memory hog,
// while portal B builds. B succeeds; A and C fail naming their limit; the host keeps its free
// memory; the product's own git commands and a new sandbox (the start-up probe) still work.
func TestOneBuildCannotStarveAnother(t *testing.T) {
	lim := Limits{WallTime: 20 * time.Second, Processes: 64, MemoryBytes: 128 << 20}
	r := newRunner(t, lim)
	sb := r.cfg.Sandbox.(*Bubblewrap)
	needCgroups(t, sb)
	l := newLayout(t)
	hog := filepath.Join(l.workspace, "hog.js")
	write(t, hog, `const a = []; for (let i = 0; i < 64; i++) a.push(Buffer.alloc(32 << 20, 1)); console.log("HOG " + "SURVIVED");`)

	// The hog tries to take 2 GB: the floor is 1 GB below the start (the builds, their node
	// processes and the rest of the machine have room; a hog without its budget would pass it).
	floor := memAvailable(t) - 1<<30
	var low atomic.Int64
	low.Store(1 << 62)
	stop := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Add(1)
	go func() {
		defer sampler.Done()
		for {
			if m := memAvailable(t); m < low.Load() {
				low.Store(m)
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()

	start := func(k Key, dockerfile string) *Run {
		h, err := r.Start(Request{Key: k, Workspace: l.workspace, Settings: settings(dockerfile)})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	// B holds 40 processes (more than half of the limit: with one process limit for all
	// builds the bomb would take the rest) while A's bomb and C's hog run.
	b := start(Key{UserID: 2, PortalID: 2}, `FROM x
RUN for i in $(seq 40); do sleep 2.01 & done; wait; mkdir -p pw-dist && node -e 'require("fs").writeFileSync("pw-dist/ok.txt", "built")'
`)
	for deadline := time.Now().Add(10 * time.Second); sandboxProcesses("sleep\x002.01") < 40; {
		if time.Now().After(deadline) {
			t.Fatal("B's processes did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	a := start(Key{UserID: 1, PortalID: 1}, "FROM x\nRUN "+forkBomb+"\n")
	c := start(Key{UserID: 1, PortalID: 3}, "FROM x\nRUN node hog.js\n")
	for deadline := time.Now().Add(5 * time.Second); bombProcesses() < 40 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	// Meanwhile the product works: git, and a new sandbox (the server's start-up probe).
	repo := t.TempDir()
	for _, args := range [][]string{{"init", "-q", repo}, {"-C", repo, "status", "--short"}, {"-C", repo, "log", "--oneline", "-1"}} {
		out, err := exec.Command("git", args...).CombinedOutput()
		if err != nil && !strings.Contains(string(out), "does not have any commits") {
			t.Fatalf("git %v during the bomb: %v %s", args, err, out)
		}
	}
	if _, err := NewBubblewrap(context.Background(), BubblewrapOptions{Limits: lim}); err != nil {
		t.Fatalf("a new sandbox cannot start during the bomb: %v", err)
	}

	sa, sc := a.Wait(), c.Wait()
	sb2 := b.Wait()
	close(stop)
	sampler.Wait()
	if sb2.Phase != Stable {
		t.Fatalf("portal B's build failed: %+v\n%s", sb2.Error, sb2.Output)
	}
	if got, _ := os.ReadFile(filepath.Join(l.workspace, "pw-dist", "ok.txt")); string(got) != "built" {
		t.Fatalf("B's output %q", got)
	}
	if sa.Phase != Unstable || sa.Error == nil || !strings.Contains(sa.Error.Message, "more than 64 processes (task process limit)") {
		t.Fatalf("the fork bomb: %+v\n%.1500s", sa.Error, sa.Output)
	}
	if sc.Phase != Unstable || sc.Error == nil || !strings.Contains(sc.Error.Message, "more than 128 MB of memory (task memory limit)") || strings.Contains(sc.Output, "HOG SURVIVED") {
		t.Fatalf("the memory hog: %+v\n%.1500s", sc.Error, sc.Output)
	}
	t.Logf("A: %s; C: %s", sa.Error.Message, sc.Error.Message)
	t.Logf("MemAvailable: lowest %d MB, floor %d MB", low.Load()>>20, floor>>20)
	if low.Load() < floor {
		t.Fatalf("the host's free memory fell to %d MB (floor %d MB)", low.Load()>>20, floor>>20)
	}
	if g := ourGroups(sb); len(g) > 0 {
		t.Fatalf("control groups left after the builds: %v", g)
	}
}

// TestNoSharedProcessLimit: processes of the sandbox's host uid outside this build (another
// test package's builds, another server) do not count against this build's process limit.
func TestNoSharedProcessLimit(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root: the other processes run as the sandbox's uid")
	}
	sb := newSandbox(t, fast())
	needCgroups(t, sb)
	other := exec.Command("setpriv", "--reuid", strconv.Itoa(DefaultSandboxUID), "--regid", strconv.Itoa(DefaultSandboxUID), "--clear-groups",
		"sh", "-c", "for i in $(seq 80); do sleep 4246 & done; wait")
	other.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-other.Process.Pid, syscall.SIGKILL) // the shell and its sleeps
		_ = other.Wait()
	})
	for deadline := time.Now().Add(5 * time.Second); sandboxProcesses("sleep\x004246") < 80; {
		if time.Now().After(deadline) {
			t.Fatal("the other processes did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	r := newRunner(t, Limits{WallTime: 20 * time.Second, Processes: 64})
	st := run(t, r, newLayout(t), "FROM x\nRUN for i in $(seq 30); do sleep 0.3 & done; wait; mkdir -p pw-dist\n")
	if st.Phase != Stable {
		t.Fatalf("80 processes of uid %d elsewhere starved the build: %+v\n%s", DefaultSandboxUID, st.Error, st.Output)
	}
}

func TestShmTmpAndDiskLimits(t *testing.T) {
	r := newRunner(t, Limits{WallTime: 20 * time.Second, MemoryBytes: 256 << 20, DiskBytes: 32 << 20, ShmBytes: 8 << 20, TmpBytes: 8 << 20})
	sb := r.cfg.Sandbox.(*Bubblewrap)
	l := newLayout(t)
	write(t, filepath.Join(l.workspace, "big-input.bin"), strings.Repeat("x", 40<<20)) // the copy does not count

	for _, c := range []struct {
		name, run, want string
		quick           bool // the watcher stops it long before the step's own end
	}{
		{"within", "mkdir -p pw-dist && head -c 4000000 /dev/zero > /dev/shm/a && head -c 4000000 /dev/zero > /tmp/a && head -c 20000000 /dev/zero > pw-dist/a", "", false},
		{"shm", "head -c 16000000 /dev/zero > /dev/shm/big", "more than 8 MB to /dev/shm (task shm limit)", false},
		{"tmp", "head -c 16000000 /dev/zero > /tmp/big", "more than 8 MB to /tmp (task tmp limit)", false},
		{"disk", "mkdir -p pw-dist && for i in 1 2 3 4 5; do head -c 10000000 /dev/zero > pw-dist/f$i; done", "wrote more than 32 MB (task disk limit)", false},
		{"disk-watcher", "for i in 1 2 3 4 5; do head -c 10000000 /dev/zero > f$i; done; sleep 30", "wrote more than 32 MB (task disk limit)", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			st := run(t, r, l, "FROM x\nRUN "+c.run+"\n")
			if c.want == "" {
				if st.Phase != Stable {
					t.Fatalf("%+v\n%s", st.Error, st.Output)
				}
				return
			}
			if st.Phase != Unstable || st.Error == nil {
				t.Fatalf("%s: %+v\n%s", st.Phase, st.Error, st.Output)
			}
			if sb.tmpfsNamed() || c.name == "disk" || c.name == "disk-watcher" {
				if !strings.Contains(st.Error.Message, c.want) {
					t.Fatalf("message %q, want %q\n%s", st.Error.Message, c.want, st.Output)
				}
			}
			if d := time.Since(start); c.quick && d > 5*time.Second {
				t.Fatalf("stopped after %s", d)
			}
			t.Logf("%s: %s", st.Error.Title, st.Error.Message)
		})
	}
}

// tmpfsNamed tells whether a failed step can name a full /tmp or /dev/shm here (the server
// can read /proc/<pid>/root of the sandbox: root).
func (b *Bubblewrap) tmpfsNamed() bool { return os.Getuid() == 0 }

// TestBuildUIDWithoutCgroups: as root with --task-cgroup=off, each build runs as a host uid of
// its own, so a fork bomb in one build does not starve another.
func TestBuildUIDWithoutCgroups(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root")
	}
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("bwrap is not installed")
	}
	lim := Limits{WallTime: 4 * time.Second, Processes: 48}
	sb, err := NewBubblewrap(context.Background(), BubblewrapOptions{Limits: lim, Cgroup: CgroupOff, BuildUIDs: "2000001000-2000001009"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sb.Mode(), "host uid per build (2000001000-2000001009)") {
		t.Fatalf("mode %s", sb.Mode())
	}
	r, err := New(Config{Sandbox: sb, ScratchRoot: filepath.Join(os.TempDir(), "portalwright-taskrunner-test")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	l := newLayout(t)
	a, err := r.Start(Request{Key: Key{1, 1}, Workspace: l.workspace, Settings: settings("FROM x\nRUN " + forkBomb + "\n")})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	b, err := r.Start(Request{Key: Key{2, 2}, Workspace: l.workspace, Settings: settings("FROM x\nRUN for i in $(seq 30); do sleep 0.5 & done; wait; mkdir -p pw-dist; id -u\n")})
	if err != nil {
		t.Fatal(err)
	}
	if st := b.Wait(); st.Phase != Stable || !strings.Contains(st.Output, "65534") {
		t.Fatalf("B during A's bomb: %+v\n%s", st.Error, st.Output)
	}
	if st := a.Wait(); st.Phase != Unstable {
		t.Fatalf("A: %s", st.Phase)
	}
}

// TestSweepLeftoverGroups: the control groups of a dead server's runs (and their processes)
// are removed when a sandbox starts; a live server's are left alone.
func TestSweepLeftoverGroups(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root")
	}
	sb := newSandbox(t, fast())
	needCgroups(t, sb)
	live, err := sb.cg.newGroup(sb.lim)
	if err != nil {
		t.Fatal(err)
	}
	defer live.remove()
	// A dead server's group (no process has pid 4194999) with a process left in it, and one of
	// another pid namespace (not ours to judge).
	ns := strconv.FormatUint(pidNamespace(), 10)
	dead := &cgroupHost{version: sb.cg.version, pids: sb.cg.pids, mem: sb.cg.mem, dir: sb.cg.dir, prefix: groupPrefix + ns + "-4194999-12345-"}
	foreignHost := &cgroupHost{version: sb.cg.version, pids: sb.cg.pids, mem: sb.cg.mem, dir: sb.cg.dir, prefix: groupPrefix + "1-4194999-12345-"}
	foreign, err := foreignHost.newGroup(sb.lim)
	if err != nil {
		t.Fatal(err)
	}
	defer foreign.remove()
	g, err := dead.newGroup(sb.lim)
	if err != nil {
		t.Fatal(err)
	}
	left := exec.Command("sleep", "4247")
	left.SysProcAttr = &syscall.SysProcAttr{}
	if err := g.start(left); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- left.Wait() }()
	if _, err := NewBubblewrap(context.Background(), BubblewrapOptions{Limits: fast()}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-waited:
	case <-time.After(5 * time.Second):
		t.Fatal("the dead run's process is still running")
	}
	for _, d := range []string{g.pids, g.mem, g.dir} {
		if _, err := os.Stat(d); d != "" && !os.IsNotExist(err) {
			t.Fatalf("%s is still there", d)
		}
	}
	for _, d := range []string{live.pids, live.mem, live.dir, foreign.pids, foreign.mem, foreign.dir} {
		if _, err := os.Stat(d); d != "" && err != nil {
			t.Fatalf("a live server's group, or another pid namespace's, was removed: %v", err)
		}
	}
}
