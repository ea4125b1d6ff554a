package taskrunner

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The tests run real bwrap and real processes: no mock of the sandbox.

func newSandbox(t testing.TB, lim Limits) *Bubblewrap {
	t.Helper()
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("bwrap is not installed (Debian: apt-get install bubblewrap); the sandbox tests need it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := NewBubblewrap(ctx, BubblewrapOptions{Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func newRunner(t testing.TB, lim Limits) *Runner {
	t.Helper()
	r, err := New(Config{Sandbox: newSandbox(t, lim), ScratchRoot: filepath.Join(os.TempDir(), "portalwright-taskrunner-test")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// layout is a data dir like the product's: a database, this user's workspace and another's.
type layout struct {
	data, db, workspace, other string
}

func newLayout(t testing.TB) layout {
	t.Helper()
	data := t.TempDir()
	l := layout{
		data:      data,
		db:        filepath.Join(data, "portalwright.db"),
		workspace: filepath.Join(data, "workspaces", "1", "7"),
		other:     filepath.Join(data, "workspaces", "2", "7"),
	}
	for _, d := range []string{l.workspace, l.other, filepath.Join(l.workspace, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, l.db, "SECRET-DATABASE")
	write(t, filepath.Join(l.other, "secret.json"), `{"secret":"OTHER-WORKSPACE"}`)
	write(t, filepath.Join(l.workspace, ".git", "config"), "[core]\n")
	write(t, filepath.Join(l.workspace, "content.json"), `{"a":1}`)
	return l
}

func write(t testing.TB, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func settings(dockerfile string) Settings {
	return Settings{Active: true, Extensions: []string{"json"}, OutputPath: "pw-dist", DockerFileContent: dockerfile}
}

func run(t testing.TB, r *Runner, l layout, dockerfile string) State {
	t.Helper()
	k := Key{UserID: 1, PortalID: 7}
	h, err := r.Start(Request{Key: k, Workspace: l.workspace, Settings: settings(dockerfile)})
	if err != nil {
		t.Fatal(err)
	}
	st := h.Wait()
	if got := r.State(k); got.Phase != st.Phase {
		t.Fatalf("stored phase %s, run ended %s", got.Phase, st.Phase)
	}
	return st
}

func fast() Limits { return Limits{WallTime: 20 * time.Second} }

func TestSuccessCopiesOutputBack(t *testing.T) {
	r := newRunner(t, fast())
	l := newLayout(t)
	write(t, filepath.Join(l.workspace, "pw-dist", "stale.txt"), "old build")
	var changes []Phase
	r.cfg.OnChange = func(_ Key, s State) { changes = append(changes, s.Phase) }
	st := run(t, r, l, `FROM node:20
WORKDIR /workspace
ENV GREETING=hello WHO=world
ARG MODE=prod
RUN test ! -e .git && test ! -e pw-dist && test -f content.json && echo "in $(pwd) as $(id -u)"
RUN mkdir -p pw-dist/sub && echo "$GREETING $WHO $MODE" > pw-dist/sub/out.txt && ln -s /etc/passwd pw-dist/link && touch scratch-only.txt
`)
	if st.Phase != Stable {
		t.Fatalf("phase %s, error %+v, output:\n%s", st.Phase, st.Error, st.Output)
	}
	if got, _ := os.ReadFile(filepath.Join(l.workspace, "pw-dist", "sub", "out.txt")); string(got) != "hello world prod\n" {
		t.Fatalf("output file %q", got)
	}
	if _, err := os.Stat(filepath.Join(l.workspace, "pw-dist", "stale.txt")); !os.IsNotExist(err) {
		t.Fatal("the old output folder was not replaced")
	}
	// A link made by the task comes back as a plain file holding its text, never followed.
	if fi, err := os.Lstat(filepath.Join(l.workspace, "pw-dist", "link")); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("link came back as %v, %v", fi, err)
	}
	if _, err := os.Stat(filepath.Join(l.workspace, "scratch-only.txt")); !os.IsNotExist(err) {
		t.Fatal("a file written outside the output folder reached the workspace")
	}
	if !strings.Contains(st.Output, "in /workspace as 65534") {
		t.Fatalf("output:\n%s", st.Output)
	}
	if st.LastRunDate == nil || st.Error != nil {
		t.Fatalf("state %+v", st)
	}
	if strings.Join(phaseList(changes), ",") != "VALIDATING,RUNNING,STABLE" {
		t.Fatalf("phases %v", changes)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(l.workspace, ".pw-dist.new-*")); len(leftovers) > 0 {
		t.Fatalf("temporary folders left: %v", leftovers)
	}
	if runs, _ := os.ReadDir(r.cfg.ScratchRoot); len(runs) > 0 {
		t.Fatalf("scratch copies left: %d", len(runs))
	}
}

func phaseList(ps []Phase) []string {
	var out []string
	for _, p := range ps {
		if len(out) == 0 || out[len(out)-1] != string(p) {
			out = append(out, string(p))
		}
	}
	return out
}

func TestFailureIsUnstableWithOutput(t *testing.T) {
	r := newRunner(t, fast())
	l := newLayout(t)
	write(t, filepath.Join(l.workspace, "pw-dist", "index.html"), "previous build")
	st := run(t, r, l, "FROM x\nRUN mkdir pw-dist && echo partial > pw-dist/index.html\nRUN echo 'content.json: broken' >&2; exit 3\nRUN echo never\n")
	if st.Phase != Unstable || st.Error == nil || !strings.Contains(st.Error.Message, "exit status 3") {
		t.Fatalf("state %+v", st)
	}
	if !strings.Contains(st.Output, "content.json: broken") || strings.Contains(st.Output, "never\n") {
		t.Fatalf("output:\n%s", st.Output)
	}
	if got, _ := os.ReadFile(filepath.Join(l.workspace, "pw-dist", "index.html")); string(got) != "previous build" {
		t.Fatalf("a failed run changed the output folder: %q", got)
	}
	if r.Output(Key{1, 7}) != st.Output {
		t.Fatal("Output differs from the state's")
	}
}

// sandboxProcesses counts host processes whose command line holds marker.
func sandboxProcesses(marker string) int {
	n := 0
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if strings.Contains(string(b), marker) {
			n++
		}
	}
	return n
}

func TestTimeoutKillsEverything(t *testing.T) {
	r := newRunner(t, Limits{WallTime: 2 * time.Second})
	l := newLayout(t)
	start := time.Now()
	st := run(t, r, l, "FROM x\nRUN (sleep 4242 &) ; sh -c 'sleep 4243' & sleep 4244\n")
	if st.Phase != Unstable || st.Error == nil || st.Error.Title != "Tasks timed out" {
		t.Fatalf("state %+v\n%s", st, st.Output)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("took %s", d)
	}
	time.Sleep(200 * time.Millisecond)
	if n := sandboxProcesses("sleep 424"); n > 0 {
		t.Fatalf("%d processes survived the time-out", n)
	}
}

const netProbe = `
const net = require('net'), dns = require('dns');
const port = +process.argv[2];
let open = 0;
function done(what, ok) { console.log(what + (ok ? ' CONNECTED' : ' blocked')); if (ok) open++; }
const tries = [
  new Promise((res) => { const s = net.connect(port, '127.0.0.1'); s.on('connect', () => { done('loopback', true); s.destroy(); res(); }); s.on('error', () => { done('loopback', false); res(); }); }),
  new Promise((res) => { const s = net.connect(53, '1.1.1.1'); s.setTimeout(3000, () => { done('internet', false); s.destroy(); res(); }); s.on('connect', () => { done('internet', true); s.destroy(); res(); }); s.on('error', () => { done('internet', false); res(); }); }),
  new Promise((res) => dns.lookup('deb.debian.org', (err) => { done('dns', !err); res(); })),
];
Promise.all(tries).then(() => { console.log(open ? 'NETWORK OPEN' : 'NETWORK CLOSED'); process.exit(open ? 1 : 0); });
`

func TestNoNetwork(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	l := newLayout(t)
	write(t, filepath.Join(l.workspace, "probe.js"), netProbe)

	// The probe does reach the server when it runs directly: it would see a leak.
	direct := exec.Command("node", filepath.Join(l.workspace, "probe.js"), port)
	out, _ := direct.CombinedOutput()
	if !strings.Contains(string(out), "loopback CONNECTED") || accepted.Load() != 1 {
		t.Fatalf("the probe does not work outside the sandbox: %s", out)
	}

	r := newRunner(t, fast())
	st := run(t, r, l, "FROM x\nRUN node probe.js "+port+"\n")
	if st.Phase != Unstable && st.Phase != Stable {
		t.Fatalf("phase %s", st.Phase)
	}
	if !strings.Contains(st.Output, "NETWORK CLOSED") || strings.Contains(st.Output, "CONNECTED") {
		t.Fatalf("network reachable from the sandbox:\n%s", st.Output)
	}
	if accepted.Load() != 1 {
		t.Fatalf("the server got %d connections", accepted.Load())
	}
}

func TestNoWayOut(t *testing.T) {
	r := newRunner(t, fast())
	l := newLayout(t)
	home, _ := os.UserHomeDir()
	script := fmt.Sprintf(`
leak() { echo "LEAK: $*"; }
for f in %[1]q %[2]q /etc/shadow /etc/passwd %[4]q/.bash_history; do cat "$f" >/dev/null 2>&1 && leak read $f; done
for d in %[3]q %[4]q /root /home /var /srv /run /sys/fs/cgroup; do ls "$d" >/dev/null 2>&1 && [ -n "$(ls -A "$d" 2>/dev/null)" ] && leak list $d; done
for f in %[5]q/pwned %[3]q/pwned /usr/pwned /etc/pwned /pwned /bin/pwned /proc/pwned %[6]q/pwned; do (echo x > "$f") 2>/dev/null && leak write $f; done
[ "$(ls /proc | grep -c '^[0-9]')" -lt 10 ] || leak sees the host processes
touch /workspace/fine /tmp/fine || leak cannot write its own folders
mkdir -p pw-dist && echo ok > pw-dist/ok
echo "checked as $(id -u):$(id -g)"
`, l.db, filepath.Join(l.other, "secret.json"), l.data, home, l.workspace, l.other)
	write(t, filepath.Join(l.workspace, "escape.sh"), script)
	st := run(t, r, l, "FROM x\nRUN sh escape.sh\n")
	if st.Phase != Stable {
		t.Fatalf("state %+v\n%s", st, st.Output)
	}
	if strings.Contains(st.Output, "LEAK") || !strings.Contains(st.Output, "checked as 65534:65534") {
		t.Fatalf("the task got out:\n%s", st.Output)
	}
	for _, p := range []string{filepath.Join(l.workspace, "pwned"), filepath.Join(l.data, "pwned"), filepath.Join(l.other, "pwned"), "/usr/pwned", "/pwned", filepath.Join(l.workspace, "fine")} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Fatalf("%s exists on the host", p)
		}
	}
}

func TestForkBombIsContained(t *testing.T) {
	if os.Getuid() != 0 {
		t.Log("not root: the process limit counts every process of this user")
	}
	const limit = 64
	r := newRunner(t, Limits{WallTime: 4 * time.Second, Processes: limit})
	l := newLayout(t)
	var peak atomic.Int64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() { // the host's view: the bomb's processes
		defer close(sampled)
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
			if n := int64(bombProcesses()); n > peak.Load() {
				peak.Store(n)
			}
		}
	}()
	start := time.Now()
	st := run(t, r, l, "FROM x\nRUN "+forkBomb+"\n")
	close(stop)
	<-sampled
	// Contained either way: the build is stopped at its process limit (pids cgroup), the wall
	// time runs out, or the bomb's own shell dies of "Cannot fork".
	if st.Phase != Unstable || st.Error == nil {
		t.Fatalf("state %+v\n%.2000s", st, st.Output)
	}
	t.Logf("ended: %s: %s", st.Error.Title, st.Error.Message)
	if d := time.Since(start); d > 15*time.Second {
		t.Fatalf("took %s", d)
	}
	if peak.Load() > limit+8 {
		t.Fatalf("%d processes of the bomb at the peak (limit %d)", peak.Load(), limit)
	}
	if sb := r.cfg.Sandbox.(*Bubblewrap); sb.cg != nil {
		// With the build's pids cgroup the first refused fork stops the whole build, naming the limit.
		if !strings.Contains(st.Error.Message, "more than 64 processes (task process limit)") {
			t.Fatalf("message %q", st.Error.Message)
		}
	} else if !strings.Contains(st.Output, "fork") {
		t.Fatalf("the process limit was never hit:\n%.2000s", st.Output)
	}
	for deadline := time.Now().Add(3 * time.Second); bombProcesses() > 0; {
		if time.Now().After(deadline) {
			t.Fatalf("%d processes of the bomb left", bombProcesses())
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The host is fine: it starts processes, and the next run works.
	if err := exec.Command("true").Run(); err != nil {
		t.Fatal(err)
	}
	if st := run(t, r, l, "FROM x\nRUN mkdir -p pw-dist\n"); st.Phase != Stable {
		t.Fatalf("next run: %+v\n%s", st, st.Output)
	}
	t.Logf("peak %d processes (limit %d)", peak.Load(), limit)
}

// forkBomb is a RUN step that forks without end; bombProcesses counts its processes on the host
// by their command line (the shells keep the step's, the sleeps are "sleep 4248"), so that other
// test packages' sandboxes running at once are not counted.
const forkBomb = "bomb() { bomb | bomb & sleep 4248; }; bomb"

func bombProcesses() int { return sandboxProcesses("bomb()") + sandboxProcesses("sleep\x004248") }

func TestOutputFileAndMemoryLimits(t *testing.T) {
	r := newRunner(t, Limits{WallTime: 20 * time.Second, OutputBytes: 64 << 10, FileSizeBytes: 1 << 20, MemoryBytes: 256 << 20})
	l := newLayout(t)

	st := run(t, r, l, "FROM x\nRUN head -c 5000000 /dev/zero | tr '\\0' a; mkdir -p pw-dist\n")
	if st.Phase != Stable {
		t.Fatalf("state %+v", st.Error)
	}
	if len(st.Output) > 66<<10 || !strings.Contains(st.Output, "bytes were dropped") {
		t.Fatalf("output of %d bytes:\n%.300s…%s", len(st.Output), st.Output, st.Output[max(0, len(st.Output)-400):])
	}

	st = run(t, r, l, "FROM x\nRUN mkdir -p pw-dist && head -c 2000000 /dev/zero > pw-dist/big.bin\n")
	if st.Phase != Unstable {
		t.Fatalf("a 2 MB file under a 1 MiB limit: %s\n%s", st.Phase, st.Output)
	}
	if _, err := os.Stat(filepath.Join(l.workspace, "pw-dist", "big.bin")); !os.IsNotExist(err) {
		t.Fatal("the big file reached the workspace")
	}

	st = run(t, r, l, "FROM x\nRUN node -e 'const a=[]; for (let i=0;i<40;i++) a.push(Buffer.alloc(64<<20, 1)); console.log(\"ALLO\"+\"CATED\")'\n")
	if st.Phase != Unstable || strings.Contains(st.Output, "ALLOCATED") {
		t.Fatalf("2.5 GB under a 256 MiB limit: %s\n%s", st.Phase, st.Output)
	}
	if r.cfg.Sandbox.(*Bubblewrap).cg != nil && !strings.Contains(st.Error.Message, "more than 256 MB of memory (task memory limit)") {
		t.Fatalf("message %q", st.Error.Message)
	}
}

// copyTemplate makes a workspace from templates/passenger, as a git checkout would (.git too).
func copyTemplate(t testing.TB, name string) (layout, Settings) {
	t.Helper()
	l := newLayout(t)
	src := filepath.Join("..", "..", "templates", name)
	if err := copyTree(src, l.workspace+".tpl", nil, -1); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(l.workspace); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(l.workspace+".tpl", l.workspace); err != nil {
		t.Fatal(err)
	}
	git := exec.Command("git", "init", "-q", l.workspace)
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(l.workspace, "portal.json"))
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		TaskRunnerSettings Settings `json:"taskRunnerSettings"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	return l, p.TaskRunnerSettings
}

func TestPassengerStarterBuildsInTheSandbox(t *testing.T) {
	r := newRunner(t, fast())
	l, s := copyTemplate(t, "passenger")
	if !s.Active || s.DockerFileContent != "" || s.TemplateName != "" {
		t.Fatalf("the starter's settings changed: %+v (update this test)", s)
	}
	k := Key{UserID: 1, PortalID: 7}
	h, err := r.Start(Request{Key: k, Workspace: l.workspace, Settings: s})
	if err != nil {
		t.Fatal(err)
	}
	st := h.Wait()
	if st.Phase != Stable {
		t.Fatalf("state %+v\n%s", st.Error, st.Output)
	}
	for _, f := range []string{"index.html", "en_GB/index.html", "en_GB/data.json", "de_DE/index.html", "de_DE/data.json"} {
		if fi, err := os.Stat(filepath.Join(l.workspace, "pw-dist", f)); err != nil || fi.Size() == 0 {
			t.Fatalf("%s: %v", f, err)
		}
	}
	if !strings.Contains(st.Output, "built pw-dist/ for en_GB, de_DE") {
		t.Fatalf("output:\n%s", st.Output)
	}

	// A content change with a listed extension makes it STALE; other files do not.
	if r.Changed(k, []string{"assets/logo.svg", "pw-dist/en_GB/data.json"}) {
		t.Fatal("a change of an unlisted extension or of the output made it stale")
	}
	if !r.Changed(k, []string{"content/en_GB/menu.json"}) || r.State(k).Phase != Stale {
		t.Fatalf("phase %s after a content change", r.State(k).Phase)
	}

	// Broken content: the build fails, the last good output stays.
	write(t, filepath.Join(l.workspace, "content", "en_GB", "menu.json"), `{"title": 5}`)
	st = mustWait(t, r, Request{Key: k, Workspace: l.workspace, Settings: s})
	if st.Phase != Unstable || !strings.Contains(st.Output, "menu.json") {
		t.Fatalf("state %s\n%s", st.Phase, st.Output)
	}
	if _, err := os.Stat(filepath.Join(l.workspace, "pw-dist", "en_GB", "index.html")); err != nil {
		t.Fatal("the last good output was removed by a failed run")
	}

	// Clear removes the output.
	if err := r.Clear(k, l.workspace, s); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(l.workspace, "pw-dist")); !os.IsNotExist(err) || r.State(k).Phase != Uninitiated {
		t.Fatal("clear left the output or the state")
	}
}

func mustWait(t testing.TB, r *Runner, req Request) State {
	t.Helper()
	h, err := r.Start(req)
	if err != nil {
		t.Fatal(err)
	}
	return h.Wait()
}

func TestNewRunSupersedesRunningOne(t *testing.T) {
	r := newRunner(t, fast())
	l := newLayout(t)
	k := Key{UserID: 1, PortalID: 7}
	first, err := r.Start(Request{Key: k, Workspace: l.workspace, Settings: settings("FROM x\nRUN mkdir -p pw-dist && echo first > pw-dist/who && sleep 4245\n")})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for r.State(k).Phase != Running || sandboxProcesses("sleep 4245") == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the first run never ran: %+v", r.State(k))
		}
		time.Sleep(20 * time.Millisecond)
	}
	start := time.Now()
	second, err := r.Start(Request{Key: k, Workspace: l.workspace, Settings: settings("FROM x\nRUN mkdir -p pw-dist && echo second > pw-dist/who\n")})
	if err != nil {
		t.Fatal(err)
	}
	if f := first.Wait(); f.Phase != Unstable || f.Error == nil || f.Error.Title != "Task run cancelled" {
		t.Fatalf("first run ended %+v", f)
	}
	st := second.Wait()
	if st.Phase != Stable || r.State(k).Phase != Stable {
		t.Fatalf("second run %+v, state %s", st.Error, r.State(k).Phase)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("superseding took %s", d)
	}
	if got, _ := os.ReadFile(filepath.Join(l.workspace, "pw-dist", "who")); string(got) != "second\n" {
		t.Fatalf("output %q", got)
	}
	if n := sandboxProcesses("sleep 4245"); n > 0 {
		t.Fatal("the superseded run's process survived")
	}
}

func TestStatesInactiveStaleRestore(t *testing.T) {
	r := newRunner(t, fast())
	l := newLayout(t)
	k := Key{UserID: 3, PortalID: 4}
	if st := r.State(k); st.Phase != Uninitiated {
		t.Fatalf("initial %s", st.Phase)
	}
	s := settings("FROM x\nRUN mkdir -p pw-dist\n")
	s.Active = false
	if st := mustWait(t, r, Request{Key: k, Workspace: l.workspace, Settings: s}); st.Phase != Inactive {
		t.Fatalf("inactive runner ran: %s", st.Phase)
	}
	if r.Changed(k, []string{"a.json"}) {
		t.Fatal("an inactive runner went stale")
	}

	// After a restart nothing is RUNNING.
	r2 := newRunner(t, fast())
	now := time.Now()
	r2.Restore(k, State{Phase: Running, LastRunDate: &now, Output: "step 1"})
	if st := r2.State(k); st.Phase != Stale || st.Error == nil || !strings.Contains(st.Output, "restarted") {
		t.Fatalf("restored %+v", st)
	}
	r2.Restore(Key{9, 9}, State{Phase: Stable})
	if r2.State(Key{9, 9}).Phase != Stable {
		t.Fatal("a finished state was not kept")
	}

	// autoRun: a listed change starts a run.
	s.Active, s.AutoRun = true, true
	mustWait(t, r, Request{Key: k, Workspace: l.workspace, Settings: s})
	write(t, filepath.Join(l.workspace, "pw-dist-marker.json"), "{}")
	if !r.Changed(k, []string{"content.json"}) {
		t.Fatal("no stale on change")
	}
	deadline := time.Now().Add(10 * time.Second)
	for r.State(k).Phase != Stable || r.State(k).LastRunDate == nil {
		if time.Now().After(deadline) {
			t.Fatalf("autoRun did not run: %s", r.State(k).Phase)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestDockerfilePlanAndLint(t *testing.T) {
	p, err := ParseDockerfile(`FROM node:20 as Build
MAINTAINER someone
ARG OUT=dist
ENV A=1 B=$A-2
WORKDIR /app
COPY . .
WORKDIR web
SHELL ["/bin/bash", "-c"]
RUN echo $A && node build.js
RUN ["node", "build.js", "--check"]
EXPOSE 80
`)
	if err != nil {
		t.Fatal(err)
	}
	if p.MountAt != "/app" || len(p.Steps) != 2 {
		t.Fatalf("plan %+v", p)
	}
	s0, s1 := p.Steps[0].Task, p.Steps[1].Task
	if strings.Join(s0.Argv, "|") != "/bin/bash|-c|echo $A && node build.js" || s0.Dir != "/app/web" {
		t.Fatalf("step 1 %+v", s0)
	}
	if strings.Join(s1.Argv, "|") != "node|build.js|--check" {
		t.Fatalf("step 2 %+v", s1)
	}
	if strings.Join(s0.Env, " ") != "OUT=dist A=1 B=1-2" {
		t.Fatalf("env %v", s0.Env)
	}
	var rules []string
	for _, w := range p.Lint {
		rules = append(rules, w.Rule)
	}
	sort.Strings(rules)
	if !strings.Contains(strings.Join(rules, ","), "MaintainerDeprecated") || !strings.Contains(strings.Join(rules, ","), "StageNameCasing") {
		t.Fatalf("lint %+v", p.Lint)
	}
	if _, err := ParseDockerfile("FROM x\nWORKDIR /usr\nCOPY . .\nRUN true\n"); err == nil {
		t.Fatal("a build folder in /usr was accepted")
	}
	if _, err := ParseDockerfile("FROM x\nWORKDIR /var/www\nRUN true\n"); err == nil {
		t.Fatal("a WORKDIR outside the build folder was accepted")
	}
	if _, err := ParseDockerfile("FROM x\n"); err == nil {
		t.Fatal("no RUN accepted")
	}
	for _, tpl := range Templates() {
		if w, err := Lint(tpl.Dockerfile); err != nil || len(w) > 0 {
			t.Fatalf("template %s: %v %+v", tpl.Name, err, w)
		}
	}
	if _, err := (Settings{TemplateName: "nope"}).Dockerfile(); err == nil {
		t.Fatal("unknown template accepted")
	}
}

// TestBenchSandboxOverhead compares the passenger starter's build in the sandbox with the
// same command run directly (issue 13: ≤ 1.2×). PORTALWRIGHT_BENCH=1 runs it.
func TestBenchSandboxOverhead(t *testing.T) {
	if os.Getenv("PORTALWRIGHT_BENCH") == "" {
		t.Skip("set PORTALWRIGHT_BENCH=1 to measure the sandbox overhead")
	}
	sb := newSandbox(t, fast())
	l, _ := copyTemplate(t, "passenger")
	// One build's budget (its control group) for all the sandboxed runs, as the runner has one
	// per run of all its steps.
	bud, err := sb.newBudget(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s, err := newScratch(filepath.Join(os.TempDir(), "portalwright-taskrunner-bench"), l.workspace, "pw-dist", DefaultMountPoint, bud)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Remove()
	t.Logf("sandbox: %s", sb.Mode())
	const n = 21
	var direct, boxed, whole []time.Duration
	r := newRunner(t, fast())
	// The direct run works in its own copy, like the sandbox's scratch (no .git, no output).
	plain := filepath.Join(t.TempDir(), "plain")
	if err := copyTree(l.workspace, plain, func(rel string, _ fs.DirEntry) bool { return rel == ".git" || rel == "pw-dist" }, -1); err != nil {
		t.Fatal(err)
	}
	runDirect := func() {
		start := time.Now()
		cmd := exec.Command("node", "build.js")
		cmd.Dir = plain
		cmd.Env = baseEnv
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
		direct = append(direct, time.Since(start))
	}
	runBoxed := func() {
		start := time.Now()
		log := NewLog(1 << 20)
		res, err := sb.Run(context.Background(), s, Task{Argv: []string{"node", "build.js"}, Dir: DefaultMountPoint}, log)
		if err != nil || !res.OK() {
			t.Fatalf("%v %+v %s", err, res, log)
		}
		boxed = append(boxed, time.Since(start))
	}
	for i := 0; i < n; i++ { // alternate the order so neither side always runs warm
		if i%2 == 0 {
			runDirect()
			runBoxed()
		} else {
			runBoxed()
			runDirect()
		}
		start := time.Now()
		if st := mustWait(t, r, Request{Key: Key{1, 7}, Workspace: l.workspace, Settings: Settings{Active: true}}); st.Phase != Stable {
			t.Fatal(st.Output)
		}
		whole = append(whole, time.Since(start))
	}
	// The sandbox's fixed cost: starting `true` in it.
	var empty []time.Duration
	for i := 0; i < n; i++ {
		start := time.Now()
		if res, err := sb.Run(context.Background(), s, Task{Argv: []string{"true"}}, NewLog(1024)); err != nil || !res.OK() {
			t.Fatalf("%v %+v", err, res)
		}
		empty = append(empty, time.Since(start))
	}
	t.Logf("sandbox start-up (`true` in bwrap) median %s", median(empty))
	md, mb, mw := median(direct), median(boxed), median(whole)
	t.Logf("passenger build (%d runs, %d CPUs): direct median %s, sandboxed median %s, ratio %.2f×; whole run (copy in, sandbox, copy back) median %s, ratio %.2f×",
		n, runtime.NumCPU(), md.Round(time.Millisecond/10), mb.Round(time.Millisecond/10), float64(mb)/float64(md), mw.Round(time.Millisecond/10), float64(mw)/float64(md))
	fmt.Printf("BENCH sandbox overhead: direct %s sandboxed %s ratio %.2f; whole run %s ratio %.2f; bwrap start-up %s\n", md, mb, float64(mb)/float64(md), mw, float64(mw)/float64(md), median(empty))
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration{}, d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
