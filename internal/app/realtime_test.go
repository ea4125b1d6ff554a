package app

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"portalwright/internal/httpx"
	"portalwright/internal/identity"
)

// TestCommitReachesOtherUsersLive: user B, in the portal's room, receives user A's commit
// and the workspace changes that raise B's behind count, without asking.
func TestCommitReachesOtherUsersLive(t *testing.T) {
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	ctx := context.Background()
	a, err := New(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard) // a second handle on the same data, for set-up
	if err == nil {
		t.Cleanup(func() { a.Close() })
	}
	if err != nil {
		t.Fatal(err)
	}
	root := httpx.Principal{UserID: 1, Username: "admin", Admin: true}
	bob, err := a.Identity.CreateUser(ctx, identity.NewUser{UserName: "bob", Password: "bob-pass"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Access.CreateGroup(ctx, root, 1, "Readers", []string{"portal:r"}); err != nil {
		t.Fatal(err)
	}
	if err := a.Access.AssignRole(ctx, root, bob.ID, 1, "Readers"); err != nil {
		t.Fatal(err)
	}

	call := func(token, method, path, body string) *http.Response {
		req, _ := http.NewRequest(method, srv.base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	adminToken := login(t, srv.base, "admin", "admin-pass")
	bobToken := login(t, srv.base, "bob", "bob-pass")
	for _, tok := range []string{adminToken, bobToken} {
		if resp := call(tok, "GET", "/api/v1/portal/1/1/open", ""); resp.StatusCode != 200 {
			t.Fatalf("open: %d", resp.StatusCode)
		}
	}

	resp := call(bobToken, "POST", "/api/v1/ws/ticket", "")
	var tk struct{ Ticket string }
	json.NewDecoder(resp.Body).Decode(&tk)
	resp.Body.Close()
	dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(dctx, "ws"+strings.TrimPrefix(srv.base, "http")+"/api/v1/ws?ticket="+tk.Ticket, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	conn.Write(ctx, websocket.MessageText, []byte(`{"type":"join","room":"portal-1","ack":1}`))
	conn.Write(ctx, websocket.MessageText, []byte(`{"type":"join","room":"domain-1","ack":2}`))
	conn.Write(ctx, websocket.MessageText, []byte(`{"type":"join","room":"user-1","ack":3}`)) // the admin's room: refused
	acks := map[float64]bool{}
	for len(acks) < 3 {
		m := readJSON(t, conn)
		acks[m["ack"].(float64)] = m["ok"].(bool)
	}
	if !acks[1] || !acks[2] || acks[3] {
		t.Fatalf("acks %v", acks)
	}

	ws := filepath.Join(cfg.DataDir, "workspaces", "1", "1", "pages", "live.html")
	if err := os.WriteFile(ws, []byte("<p>live</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if resp := call(adminToken, "POST", "/api/v1/portal/1/1/commits", `{"message":"Live page"}`); resp.StatusCode != 200 {
		body, _ := io.ReadAll(resp.Body)
		t.Fatalf("commit: %d %s", resp.StatusCode, body)
	}
	var sawCommit bool
	deadline := time.Now().Add(5 * time.Second)
	for !sawCommit && time.Now().Before(deadline) {
		m := readJSON(t, conn)
		if m["room"] == "portal-1" && m["title"] == "WORKSPACE_COMMIT" {
			data := m["data"].(map[string]any)
			sawCommit = data["branch"] == "master" && data["commitId"] != ""
		}
	}
	if !sawCommit {
		t.Fatal("bob did not receive the commit")
	}
	// Bob's own workspace is now one behind, as wsChanges reports.
	resp = call(bobToken, "GET", "/api/v1/portal/1/1/wsChanges/master", "")
	var changes []struct {
		User        struct{ ID int64 }
		BehindCount int
	}
	json.NewDecoder(resp.Body).Decode(&changes)
	resp.Body.Close()
	found := false
	for _, c := range changes {
		if c.User.ID == bob.ID {
			found = c.BehindCount == 1
		}
	}
	if !found {
		t.Fatalf("bob's behind count: %+v", changes)
	}
}

func readJSON(t *testing.T, c *websocket.Conn) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, data, err := c.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(data, &m)
	return m
}
