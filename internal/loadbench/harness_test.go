package loadbench

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite"
)

const adminPassword = "bench-pass"

// recordFile is the workspace status record (internal/workspace); copies of a workspace
// leave it out so each copy starts as a workspace made before the record existed.
const recordFile = "portalwright-status.json"

// benchEnv skips the test unless the benchmarks were asked for, and returns the binary.
func benchEnv(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("PORTALWRIGHT_BIN")
	if os.Getenv("PORTALWRIGHT_BENCH") == "" || bin == "" {
		t.Skip("set PORTALWRIGHT_BENCH=1 and PORTALWRIGHT_BIN (make bench) to run")
	}
	return bin
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// server is the real binary serving one data dir (and database) on loopback.
type server struct {
	t       *testing.T
	bin     string
	data    string
	dbURL   string // "" for SQLite in the data dir
	base    string
	cmd     *exec.Cmd
	client  *http.Client
	started bool
}

func newServer(t *testing.T, bin, dbURL string) *server {
	tr := &http.Transport{MaxIdleConns: 1024, MaxIdleConnsPerHost: 1024, IdleConnTimeout: time.Minute}
	timeout := time.Duration(envInt("PORTALWRIGHT_BENCH_TIMEOUT_SECONDS", 120)) * time.Second
	s := &server{t: t, bin: bin, data: t.TempDir(), dbURL: dbURL, client: &http.Client{Transport: tr, Timeout: timeout}}
	t.Cleanup(func() { s.stop(); tr.CloseIdleConnections() })
	return s
}

func (s *server) start() {
	s.t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	level := os.Getenv("PORTALWRIGHT_BENCH_LOG_LEVEL")
	if level == "" {
		level = "error"
	}
	args := []string{"serve", "--addr", addr, "--data-dir", s.data, "--log-level", level}
	if s.dbURL != "" {
		args = append(args, "--database-url", s.dbURL)
	}
	s.cmd = exec.Command(s.bin, args...)
	s.cmd.Env = append(os.Environ(), "PORTALWRIGHT_ADMIN_PASSWORD="+adminPassword)
	s.cmd.Stderr = os.Stderr
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.started = true
	s.base = "http://" + addr
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(s.base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.t.Fatalf("server at %s never became ready", s.base)
}

func (s *server) stop() {
	if !s.started {
		return
	}
	s.started = false
	_ = s.cmd.Process.Signal(syscall.SIGTERM) // background jobs ignore SIGINT
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
	}
}

func (s *server) pid() int { return s.cmd.Process.Pid }

// do sends one request and returns its body (gunzipped).
func (s *server) do(token, method, path, body string) (int, []byte, error) {
	code, data, gz, err := s.doRaw(token, method, path, body)
	if err == nil && gz {
		zr, zerr := gzip.NewReader(bytes.NewReader(data))
		if zerr != nil {
			return code, data, zerr
		}
		data, err = io.ReadAll(zr)
	}
	return code, data, err
}

// doRaw sends one request as a browser does (accepting gzip) and reads the body as it came:
// the load figures leave out the client's work of unpacking, which a browser does on its
// own machine.
func (s *server) doRaw(token, method, path, body string) (int, []byte, bool, error) {
	req, err := http.NewRequest(method, s.base+"/api/v1/"+path, strings.NewReader(body))
	if err != nil {
		return 0, nil, false, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, nil, false, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp.StatusCode, data, resp.Header.Get("Content-Encoding") == "gzip", err
}

func (s *server) must(token, method, path, body string) []byte {
	s.t.Helper()
	code, data, err := s.do(token, method, path, body)
	if err != nil || code >= 300 {
		s.t.Fatalf("%s %s: %d %v %s", method, path, code, err, data)
	}
	return data
}

func (s *server) login(user, pass string) string {
	s.t.Helper()
	body, _ := json.Marshal(map[string]string{"username": user, "password": pass})
	data := s.must("", "POST", "user/login", string(body))
	var out struct {
		IDToken string `json:"id_token"`
	}
	if err := json.Unmarshal(data, &out); err != nil || out.IDToken == "" {
		s.t.Fatalf("login %s: %v %s", user, err, data)
	}
	return out.IDToken
}

// db opens the server's database directly (to create users in one batch).
func (s *server) db() (*sql.DB, bool) {
	s.t.Helper()
	if s.dbURL != "" {
		db, err := sql.Open("pgx", s.dbURL)
		if err != nil {
			s.t.Fatal(err)
		}
		return db, true
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(s.data, "portalwright.db")+
		"?_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_time_format=sqlite")
	if err != nil {
		s.t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	return db, false
}

// addUsers creates n authors in one transaction: members of domain 1 holding a group that
// reads and writes portals, branches and settings, all with the admin's password (hashing
// thousands of passwords would dominate the setup). It returns their ids and user names.
func (s *server) addUsers(prefix string, n int) ([]int64, []string) {
	s.t.Helper()
	db, pg := s.db()
	defer db.Close()
	q := func(query string) string {
		if !pg {
			return query
		}
		var b strings.Builder
		n := 0
		for _, r := range query {
			if r == '?' {
				n++
				b.WriteString("$" + strconv.Itoa(n))
				continue
			}
			b.WriteRune(r)
		}
		return b.String()
	}
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	defer tx.Rollback()
	var hash string
	if err := tx.QueryRow(q("SELECT password_hash FROM users WHERE username_key = ?"), "admin").Scan(&hash); err != nil {
		s.t.Fatal(err)
	}
	now := time.Now().UTC()
	var group int64
	err = tx.QueryRow(q("SELECT id FROM permission_groups WHERE domain_id = 1 AND name_key = ?"), "bench authors").Scan(&group)
	if err == sql.ErrNoRows {
		if err := tx.QueryRow(q("INSERT INTO permission_groups (domain_id, name, name_key, created_at) VALUES (1, ?, ?, ?) RETURNING id"),
			"Bench Authors", "bench authors", now).Scan(&group); err != nil {
			s.t.Fatal(err)
		}
		for _, p := range []string{"domain_read", "portal_read", "portal_write", "branch_read", "portal_settings_read", "portal_settings_write", "template_read", "category_read"} {
			if _, err := tx.Exec(q("INSERT INTO group_permissions (group_id, permission) VALUES (?, ?)"), group, p); err != nil {
				s.t.Fatal(err)
			}
		}
	} else if err != nil {
		s.t.Fatal(err)
	}
	ids := make([]int64, 0, n)
	names := make([]string, 0, n)
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("%s%05d", prefix, i)
		var id int64
		if err := tx.QueryRow(q(`INSERT INTO users (username, username_key, first_name, last_name, email, password_hash, admin, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`), name, name, "Bench", "Author "+strconv.Itoa(i), name+"@bench.invalid", hash, false, now, now).Scan(&id); err != nil {
			s.t.Fatal(err)
		}
		if _, err := tx.Exec(q("INSERT INTO domain_users (domain_id, user_id, created_at) VALUES (1, ?, ?)"), id, now); err != nil {
			s.t.Fatal(err)
		}
		if _, err := tx.Exec(q("INSERT INTO user_groups (domain_id, user_id, group_id) VALUES (1, ?, ?)"), id, group); err != nil {
			s.t.Fatal(err)
		}
		ids = append(ids, id)
		names = append(names, name)
	}
	if err := tx.Commit(); err != nil {
		s.t.Fatal(err)
	}
	return ids, names
}

// copyWorkspaces gives each user a workspace of the portal: a copy of src with the same
// layout the product makes (data/workspaces/<userId>/<portalId>), the status record left out.
func (s *server) copyWorkspaces(src string, portalID int64, users []int64) {
	s.t.Helper()
	errs := make(chan error, len(users))
	inParallel(len(users), 4, func(i int) {
		dst := filepath.Join(s.data, "workspaces", strconv.FormatInt(users[i], 10), strconv.FormatInt(portalID, 10))
		if err := copyTree(src, dst); err != nil {
			errs <- err
		}
	})
	close(errs)
	for err := range errs {
		s.t.Fatal(err)
	}
}

func copyTree(src, dst string) error {
	// Folders get their source's times too, once their content is written (as cp -a).
	var dirs []string
	defer func() {
		for i := len(dirs) - 1; i >= 0; i-- {
			if info, err := os.Stat(dirs[i]); err == nil {
				rel, _ := filepath.Rel(src, dirs[i])
				os.Chtimes(filepath.Join(dst, rel), info.ModTime(), info.ModTime())
			}
		}
	}()
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			dirs = append(dirs, p)
			return os.MkdirAll(target, info.Mode().Perm())
		case d.Name() == recordFile || strings.HasSuffix(d.Name(), ".lock"):
			return nil
		case info.Mode()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(target, data, info.Mode().Perm()); err != nil {
			return err
		}
		return os.Chtimes(target, info.ModTime(), info.ModTime())
	})
}

// freshPostgres returns a URL of a new schema on the benchmark's PostgreSQL server
// (PORTALWRIGHT_BENCH_DATABASE_URL, else TEST_DATABASE_URL), dropped at the end; "" without.
func freshPostgres(t *testing.T) string {
	base := os.Getenv("PORTALWRIGHT_BENCH_DATABASE_URL")
	if base == "" {
		base = os.Getenv("TEST_DATABASE_URL")
	}
	if base == "" {
		return ""
	}
	b := make([]byte, 5)
	rand.Read(b)
	schema := "pwbench_" + hex.EncodeToString(b)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		admin.Close()
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec("DROP SCHEMA " + schema + " CASCADE")
		admin.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// figures summarises latencies.
type figures struct {
	n        int
	errors   int
	p50, p99 time.Duration
	max      time.Duration
	rps      float64
}

func summarise(lat []time.Duration, errors int, elapsed time.Duration) figures {
	f := figures{n: len(lat), errors: errors}
	if len(lat) == 0 {
		return f
	}
	s := append([]time.Duration(nil), lat...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	f.p50 = s[len(s)/2]
	f.p99 = s[min(len(s)-1, int(math.Ceil(float64(len(s))*0.99))-1)]
	f.max = s[len(s)-1]
	if elapsed > 0 {
		f.rps = float64(len(s)) / elapsed.Seconds()
	}
	return f
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64) + " ms"
}

func medianDur(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func medianFloat(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// load runs clients concurrent closed-loop callers for at most d (and at most perClient
// requests each); next picks each caller's next request. It returns every latency, per
// request name, and the number of failed requests (transport errors and non-2xx answers).
type request struct{ name, method, path, token string }

type result struct {
	byName   map[string][]time.Duration
	all      []time.Duration
	errors   int
	elapsed  time.Duration
	firstErr string
}

func (s *server) load(clients int, d time.Duration, perClient int, next func(client, i int) request) result {
	var mu sync.Mutex
	res := result{byName: map[string][]time.Duration{}}
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(d)
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			var local []time.Duration
			names := []string{}
			errs := 0
			first := ""
			for i := 0; i < perClient && time.Now().Before(deadline); i++ {
				r := next(c, i)
				t0 := time.Now()
				code, body, _, err := s.doRaw(r.token, r.method, r.path, "")
				lat := time.Since(t0)
				if err != nil || code >= 300 {
					errs++
					if first == "" {
						first = fmt.Sprintf("%s %s: %d %v %.200s", r.method, r.path, code, err, bytes.TrimSpace(body))
					}
					continue
				}
				local = append(local, lat)
				names = append(names, r.name)
			}
			mu.Lock()
			res.all = append(res.all, local...)
			for i, n := range names {
				res.byName[n] = append(res.byName[n], local[i])
			}
			res.errors += errs
			if res.firstErr == "" {
				res.firstErr = first
			}
			mu.Unlock()
		}(c)
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	return res
}

// cpuSeconds is the user+system CPU time the process and its waited-for children (git) have
// used (from /proc).
func cpuSeconds(pid int) float64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+2:]))
	if len(f) < 15 {
		return 0
	}
	var total float64
	for _, i := range []int{11, 12, 13, 14} { // utime stime cutime cstime
		v, _ := strconv.ParseFloat(f[i], 64)
		total += v
	}
	return total / 100 // USER_HZ
}

// machineBusy is the machine's busy and total CPU time so far (from /proc/stat, in ticks).
func machineBusy() (busy, total float64) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	line, _, _ := strings.Cut(string(data), "\n")
	f := strings.Fields(line)
	for i, v := range f[1:] {
		x, _ := strconv.ParseFloat(v, 64)
		total += x
		if i != 3 && i != 4 { // idle, iowait
			busy += x
		}
	}
	return busy, total
}

// inParallel calls fn(0) … fn(n-1) on workers goroutines and waits for all.
func inParallel(n, workers int, fn func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}
