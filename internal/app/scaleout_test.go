package app

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"portalwright/internal/caller"
	"portalwright/internal/config"
	"portalwright/internal/identity"
	"portalwright/internal/realtime"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
)

// TestTwoInstancesShareEvents runs two server processes (the built binary; in-process
// instances when PORTALWRIGHT_BIN is not set) on one PostgreSQL database and one data dir:
// a user of instance B hears the commit made through instance A (LISTEN/NOTIFY), and
// commits made at the same time through both instances are serialised by the advisory
// lock, so none is lost. A right lost and a session ended through instance A take effect on
// a socket open on instance B.
func TestTwoInstancesShareEvents(t *testing.T) {
	url := storetest.PostgresURL(t) // skips without TEST_DATABASE_URL
	cfg := testConfig(t)
	cfg.DatabaseURL = url
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	var first, second *running
	if bin := os.Getenv("PORTALWRIGHT_BIN"); bin != "" {
		first = startProcess(t, bin, cfg)
		second = startProcess(t, bin, cfg) // same database, same data dir
	} else {
		first = start(t, cfg)
		second = start(t, cfg)
	}

	token := func(base string) string { return testkit.Login(t, base, "admin", "admin-pass") }
	call := func(base, tok, method, path, body string) (int, string) {
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var sb strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := resp.Body.Read(buf)
			sb.Write(buf[:n])
			if err != nil {
				break
			}
		}
		return resp.StatusCode, sb.String()
	}

	// Instance B: a socket in the portal's room. (One live session per user: a second
	// sign-in on A would end this session and close the socket, so A uses the same token.)
	tokB := token(second.base)
	if code, body := call(second.base, tokB, "GET", "/api/v1/portal/1/1/open", ""); code != 200 {
		t.Fatalf("open on B: %d %s", code, body)
	}
	_, body := call(second.base, tokB, "POST", "/api/v1/ws/ticket", "")
	var tk struct{ Ticket string }
	json.Unmarshal([]byte(body), &tk)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(second.base, "http")+"/api/v1/ws?ticket="+tk.Ticket, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	conn.Write(ctx, websocket.MessageText, []byte(`{"type":"join","room":"portal-1","ack":1}`))
	if m := readJSON(t, conn); m["ok"] != true {
		t.Fatalf("join on B: %v", m)
	}

	// Instance A: change a file and commit.
	tokA := tokB
	if code, body := call(first.base, tokA, "GET", "/api/v1/portal/1/1/open", ""); code != 200 {
		t.Fatalf("open on A: %d %s", code, body)
	}
	page := filepath.Join(cfg.DataDir, "workspaces", "1", "1", "pages", "from-a.html")
	os.WriteFile(page, []byte("<p>a</p>"), 0o644)
	if code, body := call(first.base, tokA, "POST", "/api/v1/portal/1/1/commits", `{"message":"From instance A"}`); code != 200 {
		t.Fatalf("commit on A: %d %s", code, body)
	}
	deadline := time.Now().Add(10 * time.Second)
	heard := false
	for !heard && time.Now().Before(deadline) {
		m := readJSON(t, conn)
		heard = m["title"] == "WORKSPACE_COMMIT" && m["room"] == "portal-1"
	}
	if !heard {
		t.Fatal("instance B did not hear the commit made on instance A")
	}

	// Presence (issue 21): announced on A, heard on B's socket and listed by B.
	if code, body := call(first.base, tokA, "PUT", "/api/v1/presence/1/1", `{"path":"pages/home.html","state":"editing"}`); code != 204 {
		t.Fatalf("presence on A: %d %s", code, body)
	}
	heard = false
	for deadline := time.Now().Add(10 * time.Second); !heard && time.Now().Before(deadline); {
		m := readJSON(t, conn)
		heard = m["title"] == "PRESENCE" && m["room"] == "portal-1"
	}
	if !heard {
		t.Fatal("instance B did not hear the presence announced on instance A")
	}
	if code, body := call(second.base, tokB, "GET", "/api/v1/presence/1/1", ""); code != 200 || !strings.Contains(body, `"pages/home.html"`) {
		t.Fatalf("presence listed by B: %d %s", code, body)
	}

	// Two users commit at the same moment, one through each instance: the advisory lock
	// serialises them and the second is rebased, so both changes land.
	setup, err := New(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { setup.Close() })
	root := caller.Caller{UserID: 1, Username: "admin", Admin: true}
	bob, err := setup.Identity.CreateUser(context.Background(), identity.NewUser{UserName: "bob", Password: "bob-pass"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := setup.Access.Grants().CreateGroup(context.Background(), root, 1, "Writers", []string{"portal:r", "portal:w"}); err != nil {
		t.Fatal(err)
	}
	if err := setup.Access.Grants().AssignRole(context.Background(), root, bob.ID, 1, "Writers"); err != nil {
		t.Fatal(err)
	}
	authors := []struct {
		srv     *running
		token   string
		userDir string
	}{
		{first, token(first.base), "1"},
		{second, testkit.Login(t, second.base, "bob", "bob-pass"), itoa(bob.ID)},
	}
	for i, au := range authors {
		if code, body := call(au.srv.base, au.token, "GET", "/api/v1/portal/1/2/open", ""); code != 200 {
			t.Fatalf("open %d: %d %s", i, code, body)
		}
		os.WriteFile(filepath.Join(cfg.DataDir, "workspaces", au.userDir, "2", "content-"+itoa(int64(i))+".json"), []byte("{}"), 0o644)
	}
	var wg sync.WaitGroup
	results := make([]string, len(authors))
	startLine := make(chan struct{})
	for i, au := range authors {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-startLine
			code, body := call(au.srv.base, au.token, "POST", "/api/v1/portal/1/2/commits", `{"message":"Concurrent `+itoa(int64(i))+`"}`)
			results[i] = itoa(int64(code)) + " " + body
		}()
	}
	close(startLine)
	wg.Wait()
	for i, r := range results {
		if !strings.HasPrefix(r, "200 ") {
			t.Fatalf("commit %d: %s", i, r)
		}
	}
	tree, err := exec.Command("git", "-C", filepath.Join(cfg.DataDir, "repos", "2.git"), "ls-tree", "--name-only", "master").Output()
	if err != nil {
		t.Fatal(err)
	}
	for i := range authors {
		if !strings.Contains(string(tree), "content-"+itoa(int64(i))+".json") {
			t.Fatalf("commit %d was lost: %s", i, tree)
		}
	}

	// Carol's socket is on instance B; her right and then her session are taken away through
	// instance A.
	carol, err := setup.Identity.CreateUser(context.Background(), identity.NewUser{UserName: "carol", Password: "carol-pass"})
	if err != nil {
		t.Fatal(err)
	}
	if err := setup.Access.Grants().AssignRole(context.Background(), root, carol.ID, 1, "Writers"); err != nil {
		t.Fatal(err)
	}
	// A fresh deadline: the concurrent commits above may take a while on a loaded machine.
	ctx, cancelCarol := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancelCarol()
	tokCarol := testkit.Login(t, second.base, "carol", "carol-pass")
	_, body = call(second.base, tokCarol, "POST", "/api/v1/ws/ticket", "")
	json.Unmarshal([]byte(body), &tk)
	carolConn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(second.base, "http")+"/api/v1/ws?ticket="+tk.Ticket, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer carolConn.CloseNow()
	for i, room := range []string{"user-" + itoa(carol.ID), "domain-1", "portal-1"} {
		carolConn.Write(ctx, websocket.MessageText, []byte(`{"type":"join","room":"`+room+`","ack":`+itoa(int64(i))+`}`))
		if m := readJSON(t, carolConn); m["ok"] != true {
			t.Fatalf("carol joins %s on B: %v", room, m)
		}
	}
	if code, body := call(first.base, authors[0].token, "DELETE", "/api/v1/permissions/updateRoles/"+itoa(carol.ID)+"/1/Writers", ""); code != 204 {
		t.Fatalf("remove carol's role on A: %d %s", code, body)
	}
	if m := readJSON(t, carolConn); m["type"] != "left" || m["room"] != "portal-1" {
		t.Fatalf("carol's socket on B after losing portal read on A: %v", m)
	}
	if code, body := call(first.base, tokCarol, "POST", "/api/v1/user/logout", ""); code != 204 {
		t.Fatalf("carol logs out on A: %d %s", code, body)
	}
	rctx, rcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer rcancel()
	for {
		_, data, err := carolConn.Read(rctx)
		if err == nil {
			t.Fatalf("carol's socket on B got %s after her logout on A", data)
		}
		if websocket.CloseStatus(err) != realtime.StatusSessionEnded {
			t.Fatalf("carol's socket on B after her logout on A: %v", err)
		}
		break
	}
}

// startProcess runs the binary as its own server process on a free port.
func startProcess(t *testing.T, bin string, cfg config.Config) *running {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(bin, "serve", "--addr", addr, "--data-dir", cfg.DataDir, "--database-url", cfg.DatabaseURL, "--log-level", "warn")
	cmd.Env = append(os.Environ(), "PORTALWRIGHT_ADMIN_PASSWORD="+cfg.AdminPassword)
	var out testkit.SyncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &running{base: "http://" + addr, console: &out}
	var once sync.Once
	r.stop = func() error {
		once.Do(func() { testkit.StopProcess(cmd, 10*time.Second) })
		return nil
	}
	t.Cleanup(func() {
		r.stop()
		if t.Failed() {
			t.Logf("server %s output:\n%s", addr, out.String())
		}
	})
	waitReady(t, r.base)
	return r
}
