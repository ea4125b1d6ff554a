package app

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"portalwright/internal/caller"
	"portalwright/internal/config"
	"portalwright/internal/identity"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
)

type running struct {
	app     *App // for setting up data the API has no call for
	base    string
	console *testkit.SyncBuffer
	stop    func() error
}

// start runs a real server on a free port with a temp data dir.
func start(t *testing.T, cfg config.Config) *running {
	t.Helper()
	console := &testkit.SyncBuffer{}
	a, err := New(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), console)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.ServeListener(ctx, ln) }()
	r := &running{app: a, base: "http://" + ln.Addr().String(), console: console}
	var once sync.Once
	var stopErr error
	r.stop = func() error {
		once.Do(func() {
			cancel()
			stopErr = <-done
			a.Close()
		})
		return stopErr
	}
	t.Cleanup(func() { _ = r.stop() })
	waitReady(t, r.base)
	return r
}

func waitReady(t *testing.T, base string) {
	t.Helper()
	// A guard, not a timing: a loaded machine may take a while to migrate and start.
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("server at %s never became ready", base)
}

func testConfig(t *testing.T) config.Config {
	cfg := config.Defaults()
	cfg.DataDir = t.TempDir()
	cfg.Demo = false // TestDemoOnFirstStart covers it; the others start faster without
	return cfg
}

func TestDemoOnFirstStart(t *testing.T) {
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "chosen-pass"
	srv := start(t, cfg)
	token := testkit.Login(t, srv.base, "admin", "chosen-pass")
	get := func(path string, v any) {
		req, _ := http.NewRequest("GET", srv.base+path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s = %d", path, resp.StatusCode)
		}
		json.NewDecoder(resp.Body).Decode(v)
	}
	var domains []struct {
		ID   int64
		Name string
	}
	get("/api/v1/domain/", &domains)
	if len(domains) != 1 || domains[0].Name != DemoDomain {
		t.Fatalf("domains %+v", domains)
	}
	var cats []struct {
		Name     string
		Children []struct{ Name, Scope string }
	}
	get("/api/v1/portal/"+itoa(domains[0].ID)+"/categorized", &cats)
	names := map[string]string{}
	for _, c := range cats {
		for _, p := range c.Children {
			names[p.Name] = c.Name
		}
	}
	if names["Crew Portal"] != "Crew Portals" || names["Passenger Portal"] != "Passenger Portals" || names["Legacy Crew Portal"] != "Legacy Portals" {
		t.Fatalf("demo portals %+v", cats)
	}
	var opened struct {
		Branch   string
		Settings struct{ EngineType, SupportLevel string }
	}
	get("/api/v1/portal/"+itoa(domains[0].ID)+"/1/open", &opened)
	if opened.Branch != "master" || opened.Settings.EngineType != "PORTAL_ENGINE" || opened.Settings.SupportLevel != "FULL" {
		t.Fatalf("open demo crew portal %+v", opened)
	}
}

func TestFirstStartCreatesAdminAndServes(t *testing.T) {
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			cfg := testConfig(t)
			if db == "postgres" {
				cfg.DatabaseURL = storetest.PostgresURL(t)
			}
			srv := start(t, cfg)

			out := srv.console.String()
			if !strings.Contains(out, "is running at http://127.0.0.1:") {
				t.Fatalf("console lacks the URL: %q", out)
			}
			pwFile := filepath.Join(cfg.DataDir, InitialAdminPasswordFile)
			raw, err := os.ReadFile(pwFile)
			if err != nil {
				t.Fatal(err)
			}
			password := strings.TrimSpace(string(raw))
			if !strings.Contains(out, password) {
				t.Fatalf("the generated password is not printed: %q", out)
			}
			if st, _ := os.Stat(pwFile); st.Mode().Perm() != 0o600 {
				t.Fatalf("password file mode %v", st.Mode().Perm())
			}

			resp, err := http.Get(srv.base + "/readyz")
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("readyz: %v %v", resp, err)
			}
			resp.Body.Close()

			token := testkit.Login(t, srv.base, "admin", password)
			req, _ := http.NewRequest("GET", srv.base+"/api/v1/user/profile", nil)
			req.Header.Set("Authorization", "Bearer "+token)
			resp, err = http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var profile struct {
				User struct {
					UserName string
					Admin    bool
				}
			}
			json.NewDecoder(resp.Body).Decode(&profile)
			resp.Body.Close()
			if resp.StatusCode != 200 || profile.User.UserName != "admin" || !profile.User.Admin {
				t.Fatalf("profile %d %+v", resp.StatusCode, profile)
			}
			if err := srv.stop(); err != nil {
				t.Fatalf("graceful stop: %v", err)
			}
		})
	}
}

func TestAdminPasswordFromEnvironment(t *testing.T) {
	cfg := testConfig(t)
	cfg.AdminPassword = "chosen-pass"
	srv := start(t, cfg)
	if _, err := os.Stat(filepath.Join(cfg.DataDir, InitialAdminPasswordFile)); !os.IsNotExist(err) {
		t.Fatalf("no password file expected when the password is given: %v", err)
	}
	if strings.Contains(srv.console.String(), "chosen-pass") {
		t.Fatal("a given password must not be echoed")
	}
	testkit.Login(t, srv.base, "admin", "chosen-pass")
}

func TestRestartKeepsDataAndSessions(t *testing.T) {
	cfg := testConfig(t)
	cfg.AdminPassword = "chosen-pass"
	first := start(t, cfg)
	token := testkit.Login(t, first.base, "admin", "chosen-pass")
	if err := first.stop(); err != nil {
		t.Fatal(err)
	}
	second := start(t, cfg)
	if strings.Contains(second.console.String(), "Created the user") {
		t.Fatal("a restart must not create the admin again")
	}
	req, _ := http.NewRequest("GET", second.base+"/api/v1/user/profile", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("a token from before the restart must still work: %d", resp.StatusCode)
	}
}

func TestGracefulShutdownFinishesInFlightRequests(t *testing.T) {
	cfg := testConfig(t)
	cfg.AdminPassword = "chosen-pass"
	srv := start(t, cfg)
	// A login takes a while (argon2id); stop the server while it runs.
	result := make(chan int, 1)
	go func() {
		resp, err := http.Post(srv.base+"/api/v1/user/login", "application/json", strings.NewReader(`{"username":"admin","password":"chosen-pass"}`))
		if err != nil {
			result <- -1
			return
		}
		resp.Body.Close()
		result <- resp.StatusCode
	}()
	time.Sleep(5 * time.Millisecond)
	if err := srv.stop(); err != nil {
		t.Fatal(err)
	}
	if code := <-result; code != 200 && code != -1 {
		t.Fatalf("in-flight login answered %d", code)
	}
}

// TestFeaturesCarryTheLimits: the screens time a stuck task run by --task-timeout and state the
// discarded work's retention from the server's answer, never from numbers of their own.
func TestFeaturesCarryTheLimits(t *testing.T) {
	cfg := testConfig(t)
	cfg.Tasks.Timeout = 30 * time.Minute
	srv := start(t, cfg)
	r := testkit.Call(t, "GET", srv.base+"/api/v1/config/features", "", "")
	var got struct {
		Limits struct {
			TaskTimeoutMs     int64
			DiscardedWorkDays int
		}
	}
	if r.Status != 200 || json.Unmarshal([]byte(r.Body), &got) != nil {
		t.Fatalf("features: %d %s", r.Status, r.Body)
	}
	if got.Limits.TaskTimeoutMs != 30*60*1000 || got.Limits.DiscardedWorkDays != 60 {
		t.Fatalf("limits: %+v", got.Limits)
	}
}

func TestPublicURL(t *testing.T) {
	for addr, want := range map[string]string{
		"0.0.0.0:8080":   "http://localhost:8080/",
		"[::]:8080":      "http://localhost:8080/",
		"127.0.0.1:8080": "http://127.0.0.1:8080/",
		"[::1]:9":        "http://[::1]:9/",
	} {
		a, _ := net.ResolveTCPAddr("tcp", addr)
		if got := PublicURL(a); got != want {
			t.Errorf("PublicURL(%s) = %s, want %s", addr, got, want)
		}
	}
}

func TestProbeConfigCanBeReplacedFromTheDataDir(t *testing.T) {
	cfg := testConfig(t)
	cfg.AdminPassword = "chosen-pass"
	dir := filepath.Join(cfg.DataDir, "web-config")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	custom := `{"documentation":[{"title":"User Guide","url":"api/v1/document/usr/user-guide"}]}`
	if err := os.WriteFile(filepath.Join(dir, "probe.config.json"), []byte(custom), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := start(t, cfg)
	resp, err := http.Get(srv.base + "/assets/config/probe.config.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || string(body) != custom || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("probe config = %d %q %q", resp.StatusCode, body, resp.Header.Get("Cache-Control"))
	}
}

// TestRelativeDataDir is the default (`./data`): git runs in other working directories and
// must still find the repositories.
func TestRelativeDataDir(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	cfg := testConfig(t)
	cfg.DataDir = "data"
	cfg.Demo = true
	cfg.AdminPassword = "chosen-pass"
	srv := start(t, cfg)
	token := testkit.Login(t, srv.base, "admin", "chosen-pass")
	req, _ := http.NewRequest("GET", srv.base+"/api/v1/portal/1/1/open", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("open the demo crew portal with a relative data dir: %d", resp.StatusCode)
	}
	if _, err := os.Stat(filepath.Join(dir, "data", "repos", "1.git")); err != nil {
		t.Fatal(err)
	}
}

// newWithReader opens a second handle on cfg's data (for set-up beside a running server) with
// user bob (password bob-pass) reading the portals of domain 1, the demo domain.
func newWithReader(t *testing.T, cfg config.Config) (*App, caller.Caller, *identity.User) {
	t.Helper()
	ctx := context.Background()
	a, err := New(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	root := caller.Caller{UserID: 1, Username: "admin", Admin: true}
	bob, err := a.Identity.CreateUser(ctx, identity.NewUser{UserName: "bob", Password: "bob-pass"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Access.Grants().CreateGroup(ctx, root, 1, "Readers", []string{"portal:r"}); err != nil {
		t.Fatal(err)
	}
	if err := a.Access.Grants().AssignRole(ctx, root, bob.ID, 1, "Readers"); err != nil {
		t.Fatal(err)
	}
	return a, root, bob
}
