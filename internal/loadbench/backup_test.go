package loadbench

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestBackupFigures is the issue 34 benchmark: a data directory of 50 portals, one of them of
// 10,000 files, and 200 authors' workspaces with uncommitted work (SQLite); `portalwright
// backup --include-workspaces` to a folder and to a .tar.gz against `tar -czf` of the same
// directory (time and size), the restore, and the server's read p99 while a backup runs
// against its p99 without one. Scale: PORTALWRIGHT_BENCH_BACKUP_PORTALS (50),
// _FILES (10000), _MB (the large portal's size, 100), _WORKSPACES (200), _LARGE_WORKSPACES
// (of those, on the large portal: 3), _CLIENTS (readers, 20).
func TestBackupFigures(t *testing.T) {
	bin := benchEnv(t)
	portals := envInt("PORTALWRIGHT_BENCH_BACKUP_PORTALS", 50)
	files := envInt("PORTALWRIGHT_BENCH_BACKUP_FILES", 10000)
	mb := envInt("PORTALWRIGHT_BENCH_BACKUP_MB", 100)
	workspaces := envInt("PORTALWRIGHT_BENCH_BACKUP_WORKSPACES", 200)
	large := envInt("PORTALWRIGHT_BENCH_BACKUP_LARGE_WORKSPACES", 3)
	clients := envInt("PORTALWRIGHT_BENCH_BACKUP_CLIENTS", 20)

	setup := time.Now()
	s := newServer(t, bin, "")
	s.start()
	admin := s.login("admin", adminPassword)
	// The large portal: the demo Crew Portal (1) with the files added and committed.
	s.must(admin, "GET", "portal/1/1/open", "")
	writeLargePortal(t, filepath.Join(s.data, "workspaces", "1", "1"), files, int64(mb)<<20)
	s.must(admin, "POST", "portal/1/1/commits", `{"message":"Large portal"}`)
	for i := 4; i <= portals; i++ { // the demo made 3
		s.must(admin, "POST", "portal/create_template/1", fmt.Sprintf(`{"name":"Bench Portal %d","type":"CREW","scope":"FULL","starter":"crew"}`, i))
	}
	ids, names := s.addUsers("backup-", workspaces)
	tokens := make([]string, len(ids))
	inParallel(len(ids), 4, func(i int) {
		p := 2 + i%(portals-1) // the small portals, round robin
		if i < large {
			p = 1
		}
		tokens[i] = s.login(names[i], adminPassword)
		s.must(tokens[i], "GET", fmt.Sprintf("portal/1/%d/open", p), "")
		// Uncommitted work: a new file and a changed one.
		ws := filepath.Join(s.data, "workspaces", strconv.FormatInt(ids[i], 10), strconv.Itoa(p))
		os.WriteFile(filepath.Join(ws, "draft-"+names[i]+".txt"), []byte("draft of "+names[i]), 0o644)
		if f, err := os.OpenFile(filepath.Join(ws, "index.html"), os.O_APPEND|os.O_WRONLY, 0); err == nil {
			f.WriteString("<!-- " + names[i] + " -->\n")
			f.Close()
		}
	})
	dataMB, dataFiles := treeSize(s.data)
	t.Logf("set up in %s", time.Since(setup).Round(time.Second))
	fmt.Printf("== Backup (issue 34), SQLite: %d portals (one of %d files, %d MB), %d workspaces (%d of the large portal) ==\n",
		portals, files, mb, workspaces, large)
	fmt.Printf("data directory: %.0f MB in %d files\n", dataMB, dataFiles)

	out := t.TempDir()
	// run runs a command: its wall time and CPU time (with the processes it waited for: git,
	// gzip); the phases of a backup (its progress lines ending "in …") when asked.
	run := func(phases bool, args ...string) (time.Duration, time.Duration) {
		t.Helper()
		t0 := time.Now()
		cmd := exec.Command(args[0], args[1:]...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		took := time.Since(t0)
		for _, l := range strings.Split(stderr.String(), "\n") {
			if phases && strings.Contains(l, " in ") && !strings.Contains(l, "backup complete") {
				fmt.Printf("    %s\n", strings.TrimPrefix(l, "backup: "))
			}
		}
		return took, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	load1, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("(machine load average %s; wall times on a shared machine: compare the CPU times too)\n", strings.Join(strings.Fields(string(load1))[:3], " "))
	tarFile := filepath.Join(out, "tar.tar.gz")
	wall, cpu := run(false, "tar", "-czf", tarFile, "-C", s.data, ".")
	fmt.Printf("tar -czf of the data directory:          %6.1f s (CPU %5.1f s)   %7.1f MB\n", wall.Seconds(), cpu.Seconds(), fileMB(tarFile))
	backup := func(to string, phases bool) (time.Duration, time.Duration) {
		return run(phases, bin, "backup", "--data-dir", s.data, "--to", to, "--include-workspaces")
	}
	wall, cpu = backup(filepath.Join(out, "folder"), false)
	folderMB, _ := treeSize(filepath.Join(out, "folder"))
	fmt.Printf("portalwright backup --to DIR:            %6.1f s (CPU %5.1f s)   %7.1f MB   (--include-workspaces)\n", wall.Seconds(), cpu.Seconds(), folderMB)
	gzFile := filepath.Join(out, "backup.tar.gz")
	gzTime, cpu := backup(gzFile, true)
	fmt.Printf("portalwright backup --to FILE.tar.gz:    %6.1f s (CPU %5.1f s)   %7.1f MB   (--include-workspaces)\n", gzTime.Seconds(), cpu.Seconds(), fileMB(gzFile))
	wall, cpu = run(false, bin, "restore", "--from", gzFile, "--data-dir", filepath.Join(out, "restored"))
	fmt.Printf("portalwright restore --from FILE.tar.gz: %6.1f s (CPU %5.1f s)\n", wall.Seconds(), cpu.Seconds())
	os.RemoveAll(filepath.Join(out, "restored"))

	// Reads while a backup runs, against the same reads without one: each reader is an author
	// reading their portal's local changes, the portal list, its branches and their profile.
	// The readers run as long as the backup took alone (so every read is while one runs).
	window := max(gzTime, 10*time.Second)
	mix := func(c, i int) request {
		u := c % len(tokens)
		p := 2 + u%(portals-1)
		if u < large {
			p = 1
		}
		paths := []string{fmt.Sprintf("portal/1/%d/local-changes", p), "portal/1/categorized", fmt.Sprintf("portal/1/%d/branches", p), "user/profile"}
		return request{name: "read", method: "GET", path: paths[i%len(paths)], token: tokens[u]}
	}
	quiet := s.load(clients, window, 1<<20, mix)
	var busy result
	var during time.Duration
	done := make(chan struct{})
	go func() {
		defer close(done)
		busy = s.load(clients, gzTime, 1<<20, mix)
	}()
	during, _ = backup(filepath.Join(out, "during.tar.gz"), false)
	<-done
	q, b := summarise(quiet.all, quiet.errors, quiet.elapsed), summarise(busy.all, busy.errors, busy.elapsed)
	fmt.Printf("reads, %d clients: p99 %s without a backup (%.0f s), %s while one runs (%.1f s): %.2fx (goal < 2x); p50 %s and %s; errors %d and %d\n",
		clients, ms(q.p99), window.Seconds(), ms(b.p99), during.Seconds(), float64(b.p99)/float64(q.p99), ms(q.p50), ms(b.p50), quiet.errors, busy.errors)
}

// writeLargePortal adds n files of about total bytes to a workspace: text pages (four in
// five) and images of random bytes, in folders of 100.
func writeLargePortal(t *testing.T, dir string, n int, total int64) {
	t.Helper()
	rng := rand.New(rand.NewSource(34))
	per := total / int64(n)
	words := strings.Fields("portal crew flight safety cabin passenger seat meal connection gate boarding weather arrival departure")
	for i := 0; i < n; i++ {
		folder := filepath.Join(dir, "bench", fmt.Sprintf("f%03d", i/100))
		if i%100 == 0 {
			if err := os.MkdirAll(folder, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		var data []byte
		name := fmt.Sprintf("page-%05d.html", i)
		if i%5 == 4 {
			name = fmt.Sprintf("image-%05d.jpg", i)
			data = make([]byte, per*2)
			rng.Read(data)
		} else {
			var b bytes.Buffer
			for int64(b.Len()) < per*3/4 {
				b.WriteString(words[rng.Intn(len(words))] + " ")
			}
			data = b.Bytes()
		}
		if err := os.WriteFile(filepath.Join(folder, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// treeSize is the size in MB and the number of files of a folder.
func treeSize(dir string) (float64, int) {
	var size int64
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				size += fi.Size()
				n++
			}
		}
		return nil
	})
	return float64(size) / 1e6, n
}

func fileMB(p string) float64 {
	fi, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return float64(fi.Size()) / 1e6
}
