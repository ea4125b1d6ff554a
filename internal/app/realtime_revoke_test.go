package app

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"portalwright/internal/caller"
	"portalwright/internal/identity"
	"portalwright/internal/realtime"
	"portalwright/internal/testkit"
)

// rtServer is a real server (demo domain 1 with portal 1) whose App the test can reach: the
// triggers go through the API, the room messages through the server's own hub.
type rtServer struct {
	t     *testing.T
	app   *App
	base  string
	admin string // the admin's token
}

func startRealtime(t *testing.T) *rtServer {
	t.Helper()
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	a, err := New(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard)
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
	t.Cleanup(func() { cancel(); <-done; a.Close() })
	s := &rtServer{t: t, app: a, base: "http://" + ln.Addr().String()}
	waitReady(t, s.base)
	s.admin = testkit.Login(t, s.base, "admin", "admin-pass")
	return s
}

func (s *rtServer) call(token, method, path, body string) (int, string) {
	s.t.Helper()
	r := testkit.Call(s.t, method, s.base+path, token, body)
	return r.Status, r.Body
}

func (s *rtServer) must(token, method, path, body string) string {
	s.t.Helper()
	code, out := s.call(token, method, path, body)
	if code >= 300 {
		s.t.Fatalf("%s %s: %d %s", method, path, code, out)
	}
	return out
}

var rtRoot = caller.Caller{UserID: 1, Username: "admin", Admin: true}

// reader creates a user of domain 1 who reads its portals through a group of their own, and
// signs them in. It returns the user's id, group and token.
func (s *rtServer) reader(t *testing.T, name string) (int64, string, string) {
	t.Helper()
	ctx := context.Background()
	u, err := s.app.Identity.CreateUser(ctx, identity.NewUser{UserName: name, Password: name + "-pass-1",
		FirstName: "Test", LastName: "Reader", Email: name + "@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	group := "Readers" + name
	if _, err := s.app.Access.Grants().CreateGroup(ctx, rtRoot, 1, group, []string{"portal:r"}); err != nil {
		t.Fatal(err)
	}
	if err := s.app.Access.Grants().AssignRole(ctx, rtRoot, u.ID, 1, group); err != nil {
		t.Fatal(err)
	}
	return u.ID, group, testkit.Login(t, s.base, name, name+"-pass-1")
}

// socket opens a socket with the token's session and joins the rooms.
func (s *rtServer) socket(t *testing.T, token string, rooms ...string) *websocket.Conn {
	t.Helper()
	var tk struct{ Ticket string }
	json.Unmarshal([]byte(s.must(token, "POST", "/api/v1/ws/ticket", "")), &tk)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.base, "http")+"/api/v1/ws?ticket="+tk.Ticket, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.CloseNow() })
	for i, room := range rooms {
		conn.Write(ctx, websocket.MessageText, []byte(`{"type":"join","room":"`+room+`","ack":`+itoa(int64(i+1))+`}`))
		if m := readJSON(t, conn); m["type"] != "ack" || m["ok"] != true {
			t.Fatalf("join %s: %v", room, m)
		}
	}
	return conn
}

// expectClosed: the server closes the socket for an ended session, with the API's code.
func expectClosed(t *testing.T, conn *websocket.Conn, code string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		_, data, err := conn.Read(ctx)
		if err == nil {
			continue
		}
		var ce websocket.CloseError
		if !errors.As(err, &ce) {
			t.Fatalf("the socket of the ended session is still open: %v (last message %s)", err, data)
		}
		if ce.Code != realtime.StatusSessionEnded || !strings.HasPrefix(ce.Reason, code+": ") {
			t.Fatalf("closed with %d %q, want %d %q", ce.Code, ce.Reason, realtime.StatusSessionEnded, code)
		}
		return
	}
}

// expectLeft: the server tells the client it left these rooms.
func expectLeft(t *testing.T, conn *websocket.Conn, rooms ...string) {
	t.Helper()
	want := map[string]bool{}
	for _, r := range rooms {
		want[r] = true
	}
	for range rooms {
		m := readJSON(t, conn)
		if m["type"] != "left" || !want[m["room"].(string)] {
			t.Fatalf("want left %v, got %v", rooms, m)
		}
		delete(want, m["room"].(string))
	}
}

// expectNotIn: a message to each room is followed by one to the user's own room; the user's
// message is the next one the socket gets, so none of the rooms' reached it.
func (s *rtServer) expectNotIn(t *testing.T, conn *websocket.Conn, userID int64, rooms ...string) {
	t.Helper()
	ctx := context.Background()
	for _, room := range rooms {
		s.app.Hub.Publish(ctx, realtime.Message{Room: room, Title: "WORKSPACE_COMMIT", Data: map[string]string{"path": "pages/secret.html"}, MessageType: realtime.TypeNotification})
	}
	s.app.Hub.Publish(ctx, realtime.Message{Room: realtime.UserRoom(userID), Title: "MARK", MessageType: realtime.TypeNotification})
	if m := readJSON(t, conn); m["title"] != "MARK" {
		t.Fatalf("the socket still gets the messages of %v: %v", rooms, m)
	}
}

// expectIn: the socket still gets the room's messages.
func (s *rtServer) expectIn(t *testing.T, conn *websocket.Conn, room string) {
	t.Helper()
	s.app.Hub.Publish(context.Background(), realtime.Message{Room: room, Title: "STILL_HERE", MessageType: realtime.TypeNotification})
	if m := readJSON(t, conn); m["room"] != room || m["title"] != "STILL_HERE" {
		t.Fatalf("the socket lost %s: %v", room, m)
	}
}

// expectStill: the socket (which got other messages meanwhile) still gets the room's.
func (s *rtServer) expectStill(t *testing.T, conn *websocket.Conn, room string) {
	t.Helper()
	s.app.Hub.Publish(context.Background(), realtime.Message{Room: room, Title: "STILL_HERE", MessageType: realtime.TypeNotification})
	for {
		if m := readJSON(t, conn); m["room"] == room && m["title"] == "STILL_HERE" {
			return
		}
	}
}

// expectRoomSize waits (sockets closed by the test go away asynchronously) for the room to
// have n local sockets.
func (s *rtServer) expectRoomSize(t *testing.T, room string, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for s.app.Hub.RoomSize(room) != n {
		if time.Now().After(deadline) {
			t.Fatalf("%s has %d sockets, want %d", room, s.app.Hub.RoomSize(room), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

var resetLink = regexp.MustCompile(`#/confirm-password/([0-9a-f-]{36})`)

// TestSocketsFollowTheSession: when a session ends, its open socket is closed (status 4401,
// the API's code in the reason) and gets nothing more; other users' sockets are untouched.
func TestSocketsFollowTheSession(t *testing.T) {
	s := startRealtime(t)
	bystander := s.socket(t, s.admin, "user-1", "domain-1", "portal-1")
	rooms := func(id int64) []string { return []string{realtime.UserRoom(id), "domain-1", "portal-1"} }

	t.Run("logout", func(t *testing.T) {
		id, _, tok := s.reader(t, "lena")
		conn := s.socket(t, tok, rooms(id)...)
		s.must(tok, "POST", "/api/v1/user/logout", "")
		expectClosed(t, conn, identity.CodeUnauthorized)
	})

	t.Run("password reset by e-mail link", func(t *testing.T) {
		id, _, tok := s.reader(t, "rita")
		conn := s.socket(t, tok, rooms(id)...)
		s.must("", "POST", "/api/v1/user/reset-password", `{"userName":"rita","newPassword":"rita-new-pass"}`)
		var body string
		if err := s.app.DB.QueryRowContext(context.Background(), "SELECT body FROM mail_outbox WHERE user_id = ? ORDER BY id DESC", id).Scan(&body); err != nil {
			t.Fatal(err)
		}
		link := resetLink.FindStringSubmatch(body)
		if link == nil {
			t.Fatalf("no reset link in %q", body)
		}
		s.must("", "POST", "/api/v1/user/confirm-reset-password", `{"token":"`+link[1]+`","confirmedPassword":"rita-new-pass"}`)
		expectClosed(t, conn, identity.CodeUnauthorized)
	})

	t.Run("password reset forced by an administrator", func(t *testing.T) {
		id, _, tok := s.reader(t, "fran")
		conn := s.socket(t, tok, rooms(id)...)
		s.must(s.admin, "POST", "/api/v1/user/force-reset-password", `{"id":`+itoa(id)+`}`)
		expectClosed(t, conn, identity.CodeUnauthorized)
	})

	t.Run("a newer sign-in ends the older session", func(t *testing.T) {
		id, _, tok := s.reader(t, "nina")
		conn := s.socket(t, tok, rooms(id)...)
		testkit.Login(t, s.base, "nina", "nina-pass-1")
		expectClosed(t, conn, identity.CodeSessionExpired)
	})

	t.Run("user deleted", func(t *testing.T) {
		id, _, tok := s.reader(t, "dora")
		conn := s.socket(t, tok, rooms(id)...)
		s.must(s.admin, "DELETE", "/api/v1/user/delete/"+itoa(id), "")
		expectClosed(t, conn, identity.CodeUnauthorized)
	})

	// The administrator's socket kept its rooms through all of it, and is the only one left.
	s.expectStill(t, bystander, "portal-1")
	s.expectRoomSize(t, "portal-1", 1)
}

// TestSocketsFollowTheRights: when a user loses the right to be in a room, their socket
// leaves it (and is told so) and gets none of its messages; the rooms they may still be in
// keep working.
func TestSocketsFollowTheRights(t *testing.T) {
	s := startRealtime(t)
	bystander := s.socket(t, s.admin, "user-1", "domain-1", "portal-1")

	t.Run("removed from the domain", func(t *testing.T) {
		id, _, tok := s.reader(t, "mona")
		conn := s.socket(t, tok, realtime.UserRoom(id), "domain-1", "portal-1")
		s.must(s.admin, "DELETE", "/api/v1/domain/deleteUser/1/"+itoa(id), "")
		expectLeft(t, conn, "domain-1", "portal-1")
		s.expectNotIn(t, conn, id, "domain-1", "portal-1")
	})

	t.Run("the group loses portal read", func(t *testing.T) {
		id, group, tok := s.reader(t, "gina")
		conn := s.socket(t, tok, realtime.UserRoom(id), "domain-1", "portal-1")
		s.must(s.admin, "PUT", "/api/v1/permissions/updatePermissions/1/"+group, `["domain_read"]`)
		expectLeft(t, conn, "portal-1")
		s.expectNotIn(t, conn, id, "portal-1")
		s.expectIn(t, conn, "domain-1") // still a member
	})

	t.Run("taken out of the group", func(t *testing.T) {
		id, group, tok := s.reader(t, "olga")
		conn := s.socket(t, tok, realtime.UserRoom(id), "domain-1", "portal-1")
		s.must(s.admin, "DELETE", "/api/v1/permissions/updateRoles/"+itoa(id)+"/1/"+group, "")
		expectLeft(t, conn, "portal-1")
		s.expectNotIn(t, conn, id, "portal-1")
		s.expectIn(t, conn, "domain-1")
	})

	t.Run("the group is deleted", func(t *testing.T) {
		id, group, tok := s.reader(t, "gwen")
		conn := s.socket(t, tok, realtime.UserRoom(id), "domain-1", "portal-1")
		s.must(s.admin, "DELETE", "/api/v1/permissions/deleteGroup/1/"+group, "")
		expectLeft(t, conn, "portal-1")
		s.expectNotIn(t, conn, id, "portal-1")
	})

	t.Run("the domain is deleted", func(t *testing.T) {
		id, _, tok := s.reader(t, "dina")
		var d struct{ ID int64 }
		json.Unmarshal([]byte(s.must(s.admin, "POST", "/api/v1/domain/", `{"name":"Doomed"}`)), &d)
		s.must(s.admin, "POST", "/api/v1/domain/"+itoa(d.ID)+"/addUser", `{"id":`+itoa(id)+`}`)
		room := realtime.DomainRoom(d.ID)
		conn := s.socket(t, tok, realtime.UserRoom(id), room, "portal-1")
		s.must(s.admin, "DELETE", "/api/v1/domain/"+itoa(d.ID), "")
		expectLeft(t, conn, room)
		s.expectNotIn(t, conn, id, room)
		s.expectIn(t, conn, "portal-1") // the other domain's rooms are untouched
	})

	t.Run("no longer an administrator", func(t *testing.T) {
		u, err := s.app.Identity.CreateUser(context.Background(), identity.NewUser{UserName: "ada", Password: "ada-pass-1",
			FirstName: "Ada", LastName: "Admin", Email: "ada@example.com", Admin: true})
		if err != nil {
			t.Fatal(err)
		}
		tok := testkit.Login(t, s.base, "ada", "ada-pass-1")
		conn := s.socket(t, tok, realtime.UserRoom(u.ID), "domain-1", "portal-1") // not a member: allowed as an administrator
		s.must(s.admin, "PUT", "/api/v1/user/update", `{"id":`+itoa(u.ID)+`,"firstName":"Ada","lastName":"Admin","email":"ada@example.com","admin":false}`)
		expectLeft(t, conn, "domain-1", "portal-1")
		s.expectNotIn(t, conn, u.ID, "domain-1", "portal-1")
	})

	s.expectStill(t, bystander, "portal-1")
	s.expectRoomSize(t, "portal-1", 1) // the subtests' sockets left it or were closed with their subtest
}
