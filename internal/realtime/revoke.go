package realtime

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"portalwright/internal/apperr"

	"github.com/coder/websocket"
)

// Open sockets follow the session and the rights they were granted with (issue 8, item 6).
// When a session ends (logout, password reset, a newer sign-in, the user deleted) or a right
// is lost (removed from a domain, a role or a group's permission taken away, the domain
// deleted), the service that made the change calls Hub.Revalidate. That publishes a control
// message on the bus, so every instance hears it and re-checks its sockets in the scope: a
// socket whose session ended is closed with StatusSessionEnded; a room the user may no longer
// join (same rules as the join) is left, and the client is told with a "left" message. Run
// sweeps every socket the same way as a safety net (a change whose message was lost, a
// session that simply expired, a deleted portal).

// StatusSessionEnded is the close status of a socket whose session ended (private-use range
// 4000–4999; 4401 mirrors HTTP 401). The close reason is "<error code>: <message>", the code
// being the one the API answers for that session (UNAUTHORIZED, or SESSION_EXPIRED after a
// newer sign-in elsewhere).
const StatusSessionEnded websocket.StatusCode = 4401

// SweepInterval is how often Run re-checks every socket.
const SweepInterval = 30 * time.Second

// MsgRoomRevoked is the reason of a "left" message.
const MsgRoomRevoked = "You are no longer allowed in this room."

const (
	controlRoom  = "!control" // never a room a client can join (ParseRoom refuses it)
	checkTimeout = time.Minute
)

// Scope names the sockets to re-check.
type Scope struct {
	// UserID limits the check to this user's sockets (0: every user's).
	UserID int64 `json:"userId,omitempty"`
	// DomainID, with UserID 0, limits it to sockets in this domain's room or in any portal
	// room (a portal's domain is only known to the authorizer).
	DomainID int64 `json:"domainId,omitempty"`
}

// leftMessage tells a client that the server took it out of a room.
type leftMessage struct {
	Type   string `json:"type"` // "left"
	Room   string `json:"room"`
	Reason string `json:"reason"`
}

// Revalidate asks every instance to re-check the sockets in scope. Call it after the change
// is stored. If the bus cannot take the message, this instance still checks its own sockets
// (the others catch up at their next sweep).
func (h *Hub) Revalidate(ctx context.Context, s Scope) {
	if err := h.bus.Publish(ctx, Message{Room: controlRoom, Revalidate: &s}); err != nil {
		h.log.WarnContext(ctx, "realtime: revalidation not published; checking this instance only", "error", err)
		go h.revalidate(s)
	}
}

// SetSweepInterval changes how often Run sweeps (call before Run).
func (h *Hub) SetSweepInterval(d time.Duration) { h.sweep = d }

// Run sweeps every socket of this instance every sweep interval until ctx ends.
func (h *Hub) Run(ctx context.Context) {
	t := time.NewTicker(h.sweep)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			h.Sweep(ctx)
		}
	}
}

// Sweep re-checks every socket of this instance now.
func (h *Hub) Sweep(ctx context.Context) { h.check(ctx, Scope{}) }

func (h *Hub) revalidate(s Scope) {
	ctx, cancel := context.WithTimeout(context.Background(), checkTimeout)
	defer cancel()
	h.check(ctx, s)
}

// check re-checks the local sockets in scope, one after the other. A check that cannot be
// made (the database is unreachable) ends the pass and keeps the sockets as they are; the next
// sweep tries again.
func (h *Hub) check(ctx context.Context, s Scope) {
	h.mu.RLock()
	targets := make([]*client, 0, len(h.clients))
	for c := range h.clients {
		if s.UserID == 0 || c.userID == s.UserID {
			targets = append(targets, c)
		}
	}
	h.mu.RUnlock()
	for _, c := range targets {
		if err := h.checkClient(ctx, c, s); err != nil {
			if ctx.Err() == nil {
				h.log.WarnContext(ctx, "realtime: could not re-check the sockets; trying again at the next sweep", "error", err)
			}
			return
		}
	}
}

// checkClient re-reads the client's session and re-authorises each room it joined.
func (h *Hub) checkClient(ctx context.Context, c *client, s Scope) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s.UserID == 0 && s.DomainID != 0 && !h.inDomainScope(c, s.DomainID) {
		return nil
	}
	if live, err := h.refresh(ctx, c); !live || err != nil {
		return err
	}
	for _, room := range h.roomsOf(c) {
		ok, err := h.authz(ctx, c.p, room)
		if err != nil {
			return err
		}
		if !ok {
			h.leave(c, room)
			data, _ := json.Marshal(leftMessage{Type: "left", Room: room, Reason: MsgRoomRevoked})
			c.send(data)
		}
	}
	return nil
}

// refresh re-reads the client's session and user (c.mu held). An ended session takes the
// client out of every room and closes its socket: live is false. A check that could not be
// made keeps the client as it is and answers the error.
func (h *Hub) refresh(ctx context.Context, c *client) (live bool, err error) {
	select {
	case <-c.done:
		return false, nil
	default:
	}
	p, err := h.auth(ctx, c.userID, c.p.SessionID)
	var apiErr *apperr.Error
	switch {
	case err == nil:
		c.p = p
		return true, nil
	case errors.As(err, &apiErr) && apiErr.Status == http.StatusUnauthorized:
		h.remove(c)
		c.end(StatusSessionEnded, closeReason(apiErr))
		return false, nil
	default:
		return true, err
	}
}

func closeReason(e *apperr.Error) string {
	r := e.Code + ": " + e.Message
	if len(r) > 123 { // the most a close frame carries
		r = r[:123]
	}
	return r
}

func (h *Hub) roomsOf(c *client) []string {
	h.mu.RLock()
	defer h.mu.RUnlock()
	rooms := make([]string, 0, len(c.rooms))
	for r := range c.rooms {
		rooms = append(rooms, r)
	}
	return rooms
}

func (h *Hub) inDomainScope(c *client, domainID int64) bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for r := range c.rooms {
		kind, id, err := ParseRoom(r)
		if err == nil && (kind == "portal" || (kind == "domain" && id == domainID)) {
			return true
		}
	}
	return false
}
