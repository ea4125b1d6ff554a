package gitssh

import (
	"context"
	"crypto/rand"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"

	"portalwright/internal/workspace"
)

// TestBenchCloneOverSSH is the issue 15 benchmark (make bench): `git clone` of a 10,000-file
// portal (~200 MB, generated as internal/workspace's ratios benchmark does) through the
// built-in SSH server against `git clone` over `git daemon` of the same repository,
// alternating, medians. Skipped unless PORTALWRIGHT_BENCH is set; PORTALWRIGHT_BENCH_FILES
// changes the number of files.
func TestBenchCloneOverSSH(t *testing.T) {
	if os.Getenv("PORTALWRIGHT_BENCH") == "" {
		t.Skip("set PORTALWRIGHT_BENCH=1 (make bench) to run")
	}
	files, size := 10000, 20<<10
	if v, _ := strconv.Atoi(os.Getenv("PORTALWRIGHT_BENCH_FILES")); v > 0 {
		files = v
	}
	f := newFixture(t, nil)
	src := t.TempDir()
	buf := make([]byte, size)
	for i := 0; i < files; i++ {
		rand.Read(buf)
		p := filepath.Join(src, "assets", strconv.Itoa(i%100), "file-"+strconv.Itoa(i)+".bin")
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, buf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.repos.Core().CreateFromFiles(context.Background(), 1, os.DirFS(src), "Big portal", workspace.SystemAuthor); err != nil {
		t.Fatal(err)
	}
	bare, _ := f.repos.Core().CanonicalRepo(1)
	daemon := startDaemon(t, filepath.Dir(bare))

	timeIt := func(args ...string) time.Duration {
		dst := filepath.Join(t.TempDir(), "clone")
		start := time.Now()
		f.must(t, "", append(args, dst)...)
		d := time.Since(start)
		os.RemoveAll(dst)
		return d
	}
	const runs = 3
	t.Logf("portal of %d files, %d MB", files, files*size>>20)
	for _, mode := range [][]string{{"clone", "-q"}, {"clone", "-q", "--bare"}} {
		var viaSSH, viaDaemon []time.Duration
		for i := 0; i < runs; i++ {
			viaSSH = append(viaSSH, timeIt(append(mode, f.url())...))
			viaDaemon = append(viaDaemon, timeIt(append(mode, "git://"+daemon+"/1.git")...))
		}
		s, d := median(viaSSH), median(viaDaemon)
		t.Logf("BENCH git %v: built-in SSH %s, git daemon %s, ratio %.2f× (target ≤ 1.2×)",
			mode, s.Round(time.Millisecond), d.Round(time.Millisecond), float64(s)/float64(d))
	}
}

// startDaemon serves the repositories under base with git daemon on loopback.
func startDaemon(t *testing.T, base string) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_, port, _ := net.SplitHostPort(addr)
	ln.Close()
	cmd := exec.Command("git", "daemon", "--reuseaddr", "--export-all", "--listen=127.0.0.1", "--port="+port, "--base-path="+base, base)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "GIT_CONFIG_NOSYSTEM=1"}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if exec.Command("git", "ls-remote", "git://"+addr+"/1.git").Run() == nil {
			return addr
		}
	}
	t.Fatal("git daemon did not start")
	return ""
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
