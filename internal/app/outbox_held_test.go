package app

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"portalwright/internal/identity"
	"portalwright/internal/testkit"
)

// Issue 30 item 8: without SMTP, a mail is held in the outbox (docs/operations.md "Mail"), not
// left pending: the worker of the running server marks it held within a pass.
func TestOutboxWithoutSMTPHoldsMail(t *testing.T) {
	cfg := testConfig(t)
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	admin := testkit.Login(t, srv.base, "admin", "admin-pass")
	if _, err := srv.app.Identity.CreateUser(context.Background(), identity.NewUser{UserName: "rita", Password: "rita-pass-1",
		FirstName: "Rita", LastName: "Reader", Email: "rita@example.com"}); err != nil {
		t.Fatal(err)
	}
	if got := testkit.Call(t, "POST", srv.base+"/api/v1/user/reset-password", "", `{"userName":"rita","newPassword":"rita-new-pass"}`); got.Status != 200 {
		t.Fatalf("reset: %d %s", got.Status, got.Body)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		var list []struct{ Status, Subject string }
		got := testkit.Call(t, "GET", srv.base+"/api/v1/admin/outbox", admin, "")
		_ = json.Unmarshal([]byte(got.Body), &list)
		if len(list) > 0 && list[0].Status == "held" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the outbox after 10 s: %d %s", got.Status, got.Body)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
