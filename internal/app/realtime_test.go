package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"portalwright/internal/testkit"
)

// TestCommitReachesOtherUsersLive: user B, in the portal's room, receives user A's commit
// and the workspace changes that raise B's behind count, without asking.
func TestCommitReachesOtherUsersLive(t *testing.T) {
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	ctx := context.Background()
	_, _, bob := newWithReader(t, cfg)

	admin := testkit.SignIn(t, srv.base, "admin", "admin-pass")
	bobAPI := testkit.SignIn(t, srv.base, "bob", "bob-pass")
	for _, c := range []*testkit.Client{admin, bobAPI} {
		if resp := c.Do("GET", "/portal/1/1/open", ""); resp.Status != 200 {
			t.Fatalf("open: %d", resp.Status)
		}
	}

	var tk struct{ Ticket string }
	bobAPI.Do("POST", "/ws/ticket", "").JSON(t, &tk)
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
	if resp := admin.Do("POST", "/portal/1/1/commits", `{"message":"Live page"}`); resp.Status != 200 {
		t.Fatalf("commit: %d %s", resp.Status, resp.Body)
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
	var changes []struct {
		User        struct{ ID int64 }
		BehindCount int
	}
	bobAPI.Do("GET", "/portal/1/1/wsChanges/master", "").JSON(t, &changes)
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
