package realtime

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"portalwright/internal/store"
	"portalwright/internal/store/storetest"
)

// joinAll joins the rooms and expects every join to be accepted.
func joinAll(t *testing.T, c *websocket.Conn, rooms ...string) {
	t.Helper()
	for i, room := range rooms {
		send(t, c, map[string]any{"type": "join", "room": room, "ack": i + 1})
		if m := read(t, c); m["type"] != "ack" || m["ok"] != true {
			t.Fatalf("join %s: %v", room, m)
		}
	}
}

// readClose reads until the socket is closed and returns the close error.
func readClose(t *testing.T, c *websocket.Conn) websocket.CloseError {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		_, data, err := c.Read(ctx)
		if err == nil {
			continue // whatever was still queued
		}
		var ce websocket.CloseError
		if !errors.As(err, &ce) {
			t.Fatalf("the socket was not closed by the server: %v (last %s)", err, data)
		}
		return ce
	}
}

func dialJoined(t *testing.T, h *harness, user int64, rooms ...string) *websocket.Conn {
	t.Helper()
	c, _, err := h.dial(t, h.ticket(t, user))
	if err != nil {
		t.Fatal(err)
	}
	joinAll(t, c, rooms...)
	return c
}

// TestRevocation: a socket follows its session and the rights it joined its rooms with.
func TestRevocation(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()

		t.Run("an ended session closes its sockets, and only those", func(t *testing.T) {
			h := newHarness(t, db)
			c1 := dialJoined(t, h, 1, "user-1", "domain-1", "portal-1")
			c2 := dialJoined(t, h, 2, "user-2")
			h.endSession("s1")
			h.hub.Revalidate(ctx, Scope{UserID: 1})
			ce := readClose(t, c1)
			if ce.Code != StatusSessionEnded || !strings.HasPrefix(ce.Reason, "UNAUTHORIZED: ") {
				t.Fatalf("close %d %q", ce.Code, ce.Reason)
			}
			waitFor(t, func() bool { return h.hub.RoomSize("portal-1") == 0 && h.hub.Clients() == 1 })
			h.hub.Publish(ctx, Message{Room: Everyone, Title: "BANNER", MessageType: TypeNotification})
			if m := read(t, c2); m["title"] != "BANNER" {
				t.Fatalf("the other user's socket: %v", m)
			}
		})

		t.Run("a lost right takes the socket out of that room only", func(t *testing.T) {
			h := newHarness(t, db)
			c := dialJoined(t, h, 1, "user-1", "domain-1", "portal-1")
			h.deny(1, "portal-1")
			h.hub.Revalidate(ctx, Scope{DomainID: 1})
			if m := read(t, c); m["type"] != "left" || m["room"] != "portal-1" || m["reason"] != MsgRoomRevoked {
				t.Fatalf("left %v", m)
			}
			h.hub.Publish(ctx, Message{Room: "portal-1", Title: "WORKSPACE_COMMIT", MessageType: TypeNotification})
			h.hub.Publish(ctx, Message{Room: "domain-1", Title: "TEMPLATE_CREATED", MessageType: TypeNotification})
			if m := read(t, c); m["room"] != "domain-1" {
				t.Fatalf("a message of the room it left, or none of the room it kept: %v", m)
			}
			if h.hub.RoomSize("portal-1") != 0 || h.hub.RoomSize("domain-1") != 1 || h.hub.RoomSize("user-1") != 1 {
				t.Fatal("rooms after the revalidation")
			}
			send(t, c, map[string]any{"type": "join", "room": "portal-1", "ack": 9})
			if m := read(t, c); m["ok"] != false {
				t.Fatalf("re-join: %v", m)
			}
		})

		t.Run("a revalidation of another user or domain leaves the socket alone", func(t *testing.T) {
			h := newHarness(t, db)
			c := dialJoined(t, h, 1, "user-1", "domain-1")
			h.deny(1, "domain-1")
			h.hub.Revalidate(ctx, Scope{UserID: 2})
			h.hub.Revalidate(ctx, Scope{DomainID: 2})
			time.Sleep(100 * time.Millisecond)
			if h.hub.RoomSize("domain-1") != 1 {
				t.Fatal("a revalidation out of scope took the socket out of its room")
			}
			h.hub.Revalidate(ctx, Scope{DomainID: 1})
			if m := read(t, c); m["type"] != "left" || m["room"] != "domain-1" {
				t.Fatalf("left %v", m)
			}
		})

		t.Run("the sweep catches what no revalidation announced", func(t *testing.T) {
			h := newHarness(t, db)
			c := dialJoined(t, h, 1, "user-1", "domain-1", "portal-1")
			h.deny(1, "domain-1")
			h.hub.Sweep(ctx)
			if m := read(t, c); m["type"] != "left" || m["room"] != "domain-1" {
				t.Fatalf("left %v", m)
			}
			h.hub.SetSweepInterval(20 * time.Millisecond)
			runCtx, stop := context.WithCancel(ctx)
			defer stop()
			go h.hub.Run(runCtx)
			h.endSession("s1") // e.g. expired: nobody announces that
			if ce := readClose(t, c); ce.Code != StatusSessionEnded {
				t.Fatalf("close %v", ce)
			}
		})

		t.Run("a check that cannot be made keeps the socket as it is", func(t *testing.T) {
			h := newHarness(t, db)
			c := dialJoined(t, h, 1, "user-1", "domain-1", "portal-1")
			h.setDown(true)
			h.endSession("s1")
			h.deny(1, "portal-1")
			h.hub.Sweep(ctx)
			h.hub.Publish(ctx, Message{Room: "portal-1", Title: "STILL", MessageType: TypeNotification})
			if m := read(t, c); m["title"] != "STILL" {
				t.Fatalf("a failed check dropped the socket or its room: %v", m)
			}
			send(t, c, map[string]any{"type": "join", "room": "domain-1", "ack": 5})
			if m := read(t, c); m["ok"] != false || m["error"] != "could not check the room" {
				t.Fatalf("join while checks fail: %v", m)
			}
			h.setDown(false)
			h.hub.Sweep(ctx)
			if ce := readClose(t, c); ce.Code != StatusSessionEnded {
				t.Fatalf("close %v", ce)
			}
		})

		t.Run("a ticket of an ended session is refused and leaves nothing registered", func(t *testing.T) {
			h := newHarness(t, db)
			ticket := h.ticket(t, 1)
			h.endSession("s1")
			if _, resp, err := h.dial(t, ticket); err == nil || resp == nil || resp.StatusCode != 401 {
				t.Fatalf("dial with an ended session: %v", err)
			}
			if h.hub.Clients() != 0 {
				t.Fatal("a refused socket stayed registered")
			}
		})

		t.Run("a join re-reads the session", func(t *testing.T) {
			h := newHarness(t, db)
			c := dialJoined(t, h, 1, "user-1")
			h.endSession("s1") // nobody announces it; the next join notices
			send(t, c, map[string]any{"type": "join", "room": "domain-1", "ack": 1})
			if ce := readClose(t, c); ce.Code != StatusSessionEnded {
				t.Fatalf("close %v", ce)
			}
			if h.hub.RoomSize("domain-1") != 0 {
				t.Fatal("joined with an ended session")
			}
		})
	})
}

// TestRevocationAcrossInstances: two hubs on one PostgreSQL database, each with its own
// LISTEN connection. A revalidation announced on instance A re-checks the sockets of
// instance B.
func TestRevocationAcrossInstances(t *testing.T) {
	url := storetest.PostgresURL(t) // skips without TEST_DATABASE_URL
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Migrate(ctx, nil); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	busA, readyA := NewPGBus(ctx, db, url, log)
	busB, readyB := NewPGBus(ctx, db, url, log)
	<-readyA
	<-readyB
	a := newHarnessOn(t, db, busA)
	b := newHarnessOn(t, db, busB)

	room := dialJoined(t, b, 1, "user-1", "domain-1", "portal-1")
	b.deny(1, "portal-1")
	a.hub.Revalidate(ctx, Scope{DomainID: 1})
	if m := read(t, room); m["type"] != "left" || m["room"] != "portal-1" {
		t.Fatalf("left on B: %v", m)
	}
	a.hub.Publish(ctx, Message{Room: "portal-1", Title: "WORKSPACE_COMMIT", MessageType: TypeNotification})
	a.hub.Publish(ctx, Message{Room: "user-1", Title: "MARK", MessageType: TypeNotification})
	if m := read(t, room); m["title"] != "MARK" {
		t.Fatalf("B's socket got a message of the room it left: %v", m)
	}

	b.endSession("s1")
	a.hub.Revalidate(ctx, Scope{UserID: 1})
	if ce := readClose(t, room); ce.Code != StatusSessionEnded {
		t.Fatalf("close on B: %v", ce)
	}
	waitFor(t, func() bool { return b.hub.Clients() == 0 })
}
