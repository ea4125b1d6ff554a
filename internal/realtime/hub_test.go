package realtime

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/go-chi/chi/v5"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/httpx"
	"portalwright/internal/store"
	"portalwright/internal/store/storetest"
)

type harness struct {
	hub     *Hub
	tickets *Tickets
	srv     *httptest.Server

	mu     sync.Mutex
	ended  map[string]bool // sessions that have ended
	denied map[string]bool // "<user>:<room>" no longer allowed
	down   bool            // auth and authz fail as if the database were unreachable
}

func (h *harness) setDown(down bool) { h.mu.Lock(); h.down = down; h.mu.Unlock() }

// endSession and deny change what the harness's auth and authz answer from now on.
func (h *harness) endSession(s string) { h.mu.Lock(); h.ended[s] = true; h.mu.Unlock() }
func (h *harness) deny(user int64, room string) {
	h.mu.Lock()
	h.denied[itoa(user)+":"+room] = true
	h.mu.Unlock()
}

// newHarness serves the hub with users 1 and 2 (sessions "s1", "s2"); user 1 may join
// domain-1 and portal-1; nobody may join domain-2.
func newHarness(t *testing.T, db *store.DB) *harness {
	t.Helper()
	return newHarnessOn(t, db, nil)
}

// newHarnessOn is newHarness with a bus (nil: in-process).
func newHarnessOn(t *testing.T, db *store.DB, bus Bus) *harness {
	t.Helper()
	hs := &harness{ended: map[string]bool{}, denied: map[string]bool{}}
	ctx := context.Background()
	for _, id := range []int64{1, 2} {
		if _, err := db.ExecContext(ctx, `INSERT INTO users (id, username, username_key, password_hash, created_at, updated_at)
			VALUES (?, ?, ?, 'x', ?, ?) ON CONFLICT (id) DO NOTHING`, id, "u"+itoa(id), "u"+itoa(id), time.Now().UTC(), time.Now().UTC()); err != nil {
			t.Fatal(err)
		}
	}
	tickets := NewTickets(db)
	auth := func(_ context.Context, userID int64, session string) (caller.Caller, error) {
		hs.mu.Lock()
		ended, down := hs.ended[session], hs.down
		hs.mu.Unlock()
		if down {
			return caller.Caller{}, errors.New("database unreachable")
		}
		if session != "s"+itoa(userID) || ended {
			return caller.Caller{}, apperr.Unauthorized("UNAUTHORIZED", "session ended")
		}
		return caller.Caller{UserID: userID, SessionID: session}, nil
	}
	authz := func(_ context.Context, p caller.Caller, room string) (bool, error) {
		hs.mu.Lock()
		denied, down := hs.denied[itoa(p.UserID)+":"+room], hs.down
		hs.mu.Unlock()
		if down {
			return false, errors.New("database unreachable")
		}
		if denied {
			return false, nil
		}
		kind, id, _ := ParseRoom(room)
		switch kind {
		case "user":
			return id == p.UserID, nil
		case "domain", "portal":
			return p.UserID == 1 && id == 1, nil
		}
		return false, nil
	}
	hub := NewHub(slog.New(slog.NewTextHandler(io.Discard, nil)), tickets, auth, authz, bus)
	r := chi.NewRouter()
	for _, rt := range hub.Routes() {
		h := rt.Handler
		if rt.Access.Kind != httpx.AccessPublic {
			h = func(w http.ResponseWriter, r *http.Request) error {
				u := int64(1)
				if r.Header.Get("X-User") == "2" {
					u = 2
				}
				return rt.Handler(w, r.WithContext(caller.With(r.Context(), caller.Caller{UserID: u, SessionID: "s" + itoa(u)})))
			}
		}
		r.Method(rt.Method, rt.Pattern, h)
	}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	hs.hub, hs.tickets, hs.srv = hub, tickets, srv
	return hs
}

func (h *harness) ticket(t *testing.T, user int64) string {
	t.Helper()
	req, _ := http.NewRequest("POST", h.srv.URL+"/ws/ticket", nil)
	req.Header.Set("X-User", itoa(user))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct{ Ticket string }
	json.NewDecoder(resp.Body).Decode(&out)
	if out.Ticket == "" {
		t.Fatalf("no ticket: %d", resp.StatusCode)
	}
	return out.Ticket
}

func (h *harness) dial(t *testing.T, ticket string) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	url := "ws" + strings.TrimPrefix(h.srv.URL, "http") + "/ws?ticket=" + ticket
	c, resp, err := websocket.Dial(ctx, url, nil)
	if c != nil {
		t.Cleanup(func() { c.CloseNow() })
	}
	return c, resp, err
}

func send(t *testing.T, c *websocket.Conn, v any) {
	t.Helper()
	data, _ := json.Marshal(v)
	if err := c.Write(context.Background(), websocket.MessageText, data); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, c *websocket.Conn) map[string]any {
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

func TestHub(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHarness(t, db)

		t.Run("tickets are single use and required", func(t *testing.T) {
			ticket := h.ticket(t, 1)
			if _, _, err := h.dial(t, ticket); err != nil {
				t.Fatal(err)
			}
			_, resp, err := h.dial(t, ticket)
			if err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("reused ticket: %v %v", resp, err)
			}
			_, resp, err = h.dial(t, "")
			if err == nil || resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("no ticket: %v", err)
			}
			h.tickets.now = func() time.Time { return time.Now().UTC().Add(-2 * TicketTTL) }
			old := h.ticket(t, 1)
			h.tickets.now = func() time.Time { return time.Now().UTC() }
			if _, resp, err = h.dial(t, old); err == nil || resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("expired ticket: %v", err)
			}
		})

		t.Run("joins are acknowledged and authorised; rooms receive messages", func(t *testing.T) {
			c, _, err := h.dial(t, h.ticket(t, 1))
			if err != nil {
				t.Fatal(err)
			}
			send(t, c, map[string]any{"type": "join", "room": "portal-1", "ack": 7})
			if m := read(t, c); m["type"] != "ack" || m["ack"] != float64(7) || m["ok"] != true {
				t.Fatalf("ack %v", m)
			}
			send(t, c, map[string]any{"type": "join", "room": "domain-2", "ack": "x"})
			if m := read(t, c); m["ok"] != false || m["ack"] != "x" || m["error"] == "" {
				t.Fatalf("refused join %v", m)
			}
			send(t, c, map[string]any{"type": "join", "room": "user-2", "ack": 8})
			if m := read(t, c); m["ok"] != false {
				t.Fatalf("another user's room %v", m)
			}
			c.Write(context.Background(), websocket.MessageText, []byte("{not json"))
			send(t, c, map[string]any{"type": "shout", "room": "portal-1"})
			h.hub.Publish(context.Background(), Message{Room: "portal-1", Title: "WORKSPACE_COMMIT", Data: map[string]int{"userId": 2}, MessageType: TypeNotification})
			h.hub.Publish(context.Background(), Message{Room: "domain-2", Title: "secret", MessageType: TypeNotification})
			m := read(t, c) // the unparseable and unknown messages were dropped without an answer
			if m["room"] != "portal-1" || m["title"] != "WORKSPACE_COMMIT" || m["messageType"] != "NOTIFICATION" {
				t.Fatalf("room message %v", m)
			}
			send(t, c, map[string]any{"type": "leave", "room": "portal-1", "ack": 9})
			if m := read(t, c); m["ok"] != true || m["ack"] != float64(9) {
				t.Fatalf("leave ack %v", m)
			}
			waitFor(t, func() bool { return h.hub.RoomSize("portal-1") == 0 })
		})

		t.Run("messages for everyone reach every client without a join", func(t *testing.T) {
			c, _, err := h.dial(t, h.ticket(t, 2))
			if err != nil {
				t.Fatal(err)
			}
			waitFor(t, func() bool { return h.hub.Clients() > 0 })
			send(t, c, map[string]any{"type": "join", "room": "*", "ack": 5})
			if m := read(t, c); m["ok"] != false {
				t.Fatalf("joining * must be refused: %v", m)
			}
			h.hub.Publish(context.Background(), Message{Room: Everyone, Title: "PREFERENCE_UPDATED", MessageType: TypeNotification})
			if m := read(t, c); m["title"] != "PREFERENCE_UPDATED" {
				t.Fatalf("broadcast %v", m)
			}
		})

		t.Run("a duplicate within the window is dropped", func(t *testing.T) {
			c, _, err := h.dial(t, h.ticket(t, 1))
			if err != nil {
				t.Fatal(err)
			}
			msg := map[string]any{"type": "join", "room": "domain-1", "ack": 1}
			send(t, c, msg)
			send(t, c, msg)
			send(t, c, map[string]any{"type": "join", "room": "user-1", "ack": 2})
			if m := read(t, c); m["ack"] != float64(1) {
				t.Fatalf("first %v", m)
			}
			if m := read(t, c); m["ack"] != float64(2) {
				t.Fatalf("the duplicate was not dropped: %v", m)
			}
		})

		t.Run("disconnecting removes the client from its rooms", func(t *testing.T) {
			c, _, err := h.dial(t, h.ticket(t, 2))
			if err != nil {
				t.Fatal(err)
			}
			send(t, c, map[string]any{"type": "join", "room": "user-2", "ack": 1})
			read(t, c)
			if h.hub.RoomSize("user-2") != 1 {
				t.Fatal("not joined")
			}
			c.Close(websocket.StatusNormalClosure, "")
			waitFor(t, func() bool { return h.hub.RoomSize("user-2") == 0 })
		})
	})
}

func TestParseRoom(t *testing.T) {
	for room, ok := range map[string]bool{"user-1": true, "domain-22": true, "portal-3": true, "portal-0": false, "team-1": false, "user-x": false, "user": false} {
		_, _, err := ParseRoom(room)
		if (err == nil) != ok {
			t.Errorf("ParseRoom(%q) = %v", room, err)
		}
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in time")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
