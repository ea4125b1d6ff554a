// Package realtime is the WebSocket channel (design §6, spec 3 §4 "Realtime channel"): a
// client opens /api/v1/ws with a single-use ticket, joins rooms (user-<id>, domain-<id>,
// portal-<id>) with acknowledged join/leave messages, and receives room messages
// {room, title, data, messageType}. A join is authorised like an API call. Messages are
// published through a Bus so several instances can share them (in-process by default).
package realtime

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"portalwright/internal/caller"
	"portalwright/internal/httpx"
)

// Message types of room messages (spec 3 §3 Realtime message).
const (
	TypeProgress     = "PROGRESS"
	TypeNotification = "NOTIFICATION"
)

// Message is what a room receives.
type Message struct {
	Room        string `json:"room"`
	Title       string `json:"title"`
	Data        any    `json:"data"`
	MessageType string `json:"messageType"`
	// Revalidate makes this a control message between instances (never sent to a client):
	// re-check the sockets in its scope. See Hub.Revalidate.
	Revalidate *Scope `json:"revalidate,omitempty"`
}

// clientMessage is what a client sends.
type clientMessage struct {
	Type string          `json:"type"` // join or leave
	Room string          `json:"room"`
	Ack  json.RawMessage `json:"ack"`
}

// ackMessage answers a join or leave with the client's ack value.
type ackMessage struct {
	Type  string          `json:"type"` // "ack"
	Ack   json.RawMessage `json:"ack"`
	OK    bool            `json:"ok"`
	Room  string          `json:"room"`
	Error string          `json:"error,omitempty"`
}

// Timing of the connection.
const (
	HeartbeatInterval = 25 * time.Second
	writeTimeout      = 10 * time.Second
	sendBuffer        = 256
	// DuplicateWindow drops a client message repeated within this window (spec 3 §9: 25 ms).
	DuplicateWindow = 25 * time.Millisecond
	maxMessageBytes = 4 << 10
)

// Authorizer decides whether a user may join a room.
type Authorizer func(ctx context.Context, p caller.Caller, room string) (bool, error)

// Authenticator turns a redeemed ticket's user and session into the caller (checks the
// session is still live).
type Authenticator func(ctx context.Context, userID int64, sessionID string) (caller.Caller, error)

// Hub keeps the connected clients and their rooms.
type Hub struct {
	log     *slog.Logger
	tickets *Tickets
	auth    Authenticator
	authz   Authorizer
	bus     Bus
	sweep   time.Duration // how often Run re-checks every socket

	mu      sync.RWMutex
	rooms   map[string]map[*client]struct{}
	clients map[*client]struct{}
}

// NewHub builds a hub; bus nil means in-process only.
func NewHub(log *slog.Logger, tickets *Tickets, auth Authenticator, authz Authorizer, bus Bus) *Hub {
	h := &Hub{log: log, tickets: tickets, auth: auth, authz: authz, sweep: SweepInterval,
		rooms: map[string]map[*client]struct{}{}, clients: map[*client]struct{}{}}
	if bus == nil {
		bus = NewLocalBus()
	}
	h.bus = bus
	bus.Subscribe(h.deliver)
	return h
}

// Publish sends a message to a room on every instance.
func (h *Hub) Publish(ctx context.Context, m Message) {
	if err := h.bus.Publish(ctx, m); err != nil {
		h.log.WarnContext(ctx, "realtime publish failed", "room", m.Room, "error", err)
	}
}

// Everyone is the room of messages for every connected client (the system banner). Clients
// cannot join it; they are always in it.
const Everyone = "*"

// deliver hands a message to the local members of its room. The sends (which never block)
// happen under the read lock, so once a client has been taken out of a room (h.leave, under
// the write lock) no message of that room is queued for it any more.
func (h *Hub) deliver(m Message) {
	if m.Revalidate != nil {
		go h.revalidate(*m.Revalidate)
		return
	}
	data, err := json.Marshal(m)
	if err != nil {
		return
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	set := h.rooms[m.Room]
	if m.Room == Everyone {
		set = h.clients
	}
	for c := range set {
		c.send(data)
	}
}

// Clients is the number of connected clients (metrics, tests).
func (h *Hub) Clients() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.clients)
}

// RoomSize is the number of local clients in a room.
func (h *Hub) RoomSize(room string) int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.rooms[room])
}

func (h *Hub) join(c *client, room string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.rooms[room] == nil {
		h.rooms[room] = map[*client]struct{}{}
	}
	h.rooms[room][c] = struct{}{}
	c.rooms[room] = true
}

func (h *Hub) leave(c *client, room string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.rooms[room], c)
	if len(h.rooms[room]) == 0 {
		delete(h.rooms, room)
	}
	delete(c.rooms, room)
}

func (h *Hub) remove(c *client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for room := range c.rooms {
		delete(h.rooms[room], c)
		if len(h.rooms[room]) == 0 {
			delete(h.rooms, room)
		}
	}
	delete(h.clients, c)
}

// client is one connection.
type client struct {
	// mu serialises the joins of this client with the re-checks of its rights, so a join
	// authorised just before a right was lost is always seen (and undone) by the re-check.
	mu     sync.Mutex
	userID int64         // never changes
	p      caller.Caller // guarded by mu: refreshed by every check
	out    chan []byte
	rooms  map[string]bool // guarded by Hub.mu; changed only while mu is held
	once   sync.Once
	done   chan struct{}
	// Set once, before done is closed: how to close the socket (0: without a close frame).
	closeCode   websocket.StatusCode
	closeReason string

	lastMsg  string
	lastTime time.Time
}

// send queues a message; a client that cannot keep up is disconnected rather than
// slowing everyone down.
func (c *client) send(data []byte) {
	select {
	case c.out <- data:
	case <-c.done:
	default:
		c.close()
	}
}

func (c *client) close() { c.end(0, "") }

// end stops the client; with a code, the socket is closed with that status and reason.
func (c *client) end(code websocket.StatusCode, reason string) {
	c.once.Do(func() {
		c.closeCode, c.closeReason = code, reason
		close(c.done)
	})
}

// closeConn closes the socket as end asked (call after done is closed).
func (c *client) closeConn(conn *websocket.Conn) {
	if c.closeCode != 0 {
		_ = conn.Close(c.closeCode, c.closeReason)
		return
	}
	_ = conn.CloseNow()
}

// Routes registers the ticket call and the socket.
func (h *Hub) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: http.MethodPost, Pattern: "/ws/ticket", Access: httpx.Authenticated, Handler: h.ticket, In: httpx.NoBody, Out: TicketAnswer{}},
		// The ticket in the query authenticates the socket (browsers cannot set headers on it).
		{Method: http.MethodGet, Pattern: "/ws", Access: httpx.Public, Handler: h.serveWS, Out: httpx.WebSocket},
	}
}

// TicketAnswer is a socket ticket: single use, valid for ExpiresIn seconds.
type TicketAnswer struct {
	Ticket    string `json:"ticket"`
	ExpiresIn int    `json:"expiresIn"`
}

func (h *Hub) ticket(w http.ResponseWriter, r *http.Request) error {
	t, err := h.tickets.Issue(r.Context(), caller.Must(r.Context()))
	if err != nil {
		return err
	}
	return httpx.OK(w, TicketAnswer{Ticket: t, ExpiresIn: int(TicketTTL.Seconds())})
}

func (h *Hub) serveWS(w http.ResponseWriter, r *http.Request) error {
	userID, sessionID, err := h.tickets.Redeem(r.Context(), r.URL.Query().Get("ticket"))
	if err != nil {
		return err
	}
	// The client is registered before its session is checked: a session that ends after
	// this check is re-checked by its revalidation, which then sees this client.
	c := &client{userID: userID, p: caller.Caller{UserID: userID, SessionID: sessionID}, out: make(chan []byte, sendBuffer),
		rooms: map[string]bool{}, done: make(chan struct{})}
	h.mu.Lock()
	h.clients[c] = struct{}{}
	h.mu.Unlock()
	defer h.remove(c)
	c.mu.Lock()
	p, err := h.auth(r.Context(), userID, sessionID)
	if err == nil {
		c.p = p
	}
	c.mu.Unlock()
	if err != nil {
		return err
	}
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{})
	if err != nil {
		return nil // Accept has answered the client
	}
	conn.SetReadLimit(maxMessageBytes)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go h.writeLoop(ctx, conn, c)
	h.readLoop(ctx, conn, c)
	c.end(websocket.StatusNormalClosure, "") // unless the client was ended already
	c.closeConn(conn)
	return nil
}

func (h *Hub) writeLoop(ctx context.Context, conn *websocket.Conn, c *client) {
	heartbeat := time.NewTicker(HeartbeatInterval)
	defer heartbeat.Stop()
	for {
		select { // an ended client is closed before anything still queued is written
		case <-c.done:
			c.closeConn(conn)
			return
		default:
		}
		select {
		case data := <-c.out:
			wctx, cancel := context.WithTimeout(ctx, writeTimeout)
			err := conn.Write(wctx, websocket.MessageText, data)
			cancel()
			if err != nil {
				c.close()
				conn.CloseNow()
				return
			}
		case <-heartbeat.C:
			pctx, cancel := context.WithTimeout(ctx, writeTimeout)
			err := conn.Ping(pctx)
			cancel()
			if err != nil {
				c.close()
				conn.CloseNow()
				return
			}
		case <-c.done:
			c.closeConn(conn)
			return
		case <-ctx.Done():
			return
		}
	}
}

func (h *Hub) readLoop(ctx context.Context, conn *websocket.Conn, c *client) {
	for {
		typ, data, err := conn.Read(ctx)
		if err != nil {
			return
		}
		if typ != websocket.MessageText {
			continue
		}
		var m clientMessage
		if err := json.Unmarshal(data, &m); err != nil || (m.Type != "join" && m.Type != "leave") {
			continue // unparseable or unknown messages are dropped
		}
		key := string(data)
		now := time.Now()
		if key == c.lastMsg && now.Sub(c.lastTime) < DuplicateWindow {
			continue // a duplicate of the message just handled
		}
		c.lastMsg, c.lastTime = key, now
		h.handle(ctx, c, m)
	}
}

func (h *Hub) handle(ctx context.Context, c *client, m clientMessage) {
	ack := ackMessage{Type: "ack", Ack: m.Ack, Room: m.Room}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case !validRoom(m.Room):
		ack.Error = "unknown room"
	case m.Type == "leave":
		h.leave(c, m.Room)
		ack.OK = true
	default:
		// A join re-reads the session (and the admin flag) like an API call would.
		live, err := h.refresh(ctx, c)
		if !live {
			return // the session ended: the socket is being closed
		}
		ok := false
		if err == nil {
			ok, err = h.authz(ctx, c.p, m.Room)
		}
		switch {
		case err != nil:
			h.log.WarnContext(ctx, "realtime join check failed", "room", m.Room, "error", err)
			ack.Error = "could not check the room"
		case !ok:
			ack.Error = "not allowed to join this room"
		default:
			h.join(c, m.Room)
			ack.OK = true
		}
	}
	data, _ := json.Marshal(ack)
	c.send(data)
}

// Room names (spec 3 §3: rooms user-{id}, domain-{id}, portal-{id}).
func UserRoom(id int64) string   { return "user-" + itoa(id) }
func DomainRoom(id int64) string { return "domain-" + itoa(id) }
func PortalRoom(id int64) string { return "portal-" + itoa(id) }

// ParseRoom splits a room name into its kind and id.
func ParseRoom(room string) (kind string, id int64, err error) {
	kind, num, ok := strings.Cut(room, "-")
	if !ok || (kind != "user" && kind != "domain" && kind != "portal") {
		return "", 0, errors.New("unknown room")
	}
	id, err = parseID(num)
	return kind, id, err
}

func validRoom(room string) bool { _, _, err := ParseRoom(room); return err == nil }
