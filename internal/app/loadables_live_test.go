package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"portalwright/internal/testkit"
)

// TestLoadableChangedReachesPortalRoom: a reader in the portal's room hears LOADABLE_CHANGED
// when a loadable is created (issue 22 item 8: Manage Loadables lists refresh live).
func TestLoadableChangedReachesPortalRoom(t *testing.T) {
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	ctx := context.Background()
	_, _, _ = newWithReader(t, cfg)

	admin := testkit.SignIn(t, srv.base, "admin", "admin-pass")
	bobAPI := testkit.SignIn(t, srv.base, "bob", "bob-pass")
	if r := admin.Do("GET", "/portal/1/2/open", ""); r.Status != 200 {
		t.Fatalf("open: %d %s", r.Status, r.Body)
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
	conn.Write(ctx, websocket.MessageText, []byte(`{"type":"join","room":"portal-2","ack":1}`))
	if m := readJSON(t, conn); m["ok"] != true {
		t.Fatalf("join: %v", m)
	}
	body := `{"name":"live-one","partNumber":"PW-POR-NEWS","versionPrefix":"1.0","type":"PORTAL","gitRef":"master",` +
		`"copyrightData":{"metaData":{"accept":true,"ipAddress":"203.0.113.9"}}}`
	if r := admin.Do("POST", "/loadable/1/2", body); r.Status >= 300 {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		m := readJSON(t, conn)
		if m["room"] == "portal-2" && m["title"] == "LOADABLE_CHANGED" {
			data := m["data"].(map[string]any)
			if data["action"] != "CREATED" || data["status"] != "PENDING" || data["portalId"] != float64(2) || data["loadableId"] == float64(0) {
				t.Fatalf("LOADABLE_CHANGED data: %v", data)
			}
			return
		}
	}
	t.Fatal("bob did not receive LOADABLE_CHANGED")
}
