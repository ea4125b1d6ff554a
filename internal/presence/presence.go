// Package presence tells who has which file of a portal open now, and whether they are
// changing it (issue 21 item 5). It is advisory, never a lock: an editor announces itself
// when it opens (viewing), on the author's first change (editing) and every HeartbeatEvery
// while open, and leaves when it closes; an entry not renewed within TTL is ignored.
//
// Entries live in the database, so every instance answers the same list; each change is
// also published to the portal's room (title EventPresence) through the Notifier, which on
// PostgreSQL reaches the clients of every instance.
package presence

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"portalwright/internal/notice"
	"strings"
	"time"
	"unicode/utf8"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/httpx"
	"portalwright/internal/portalaccess"
	"portalwright/internal/store"
)

// EventPresence is the title of presence messages in the portal room.
const EventPresence = "PRESENCE"

// TTL is how long an entry lives after its last heartbeat; clients renew every
// HeartbeatEvery.
const (
	TTL            = 60 * time.Second
	HeartbeatEvery = 20 * time.Second
)

// States of an entry; StateLeft is only ever published.
const (
	StateViewing = "viewing"
	StateEditing = "editing"
	StateLeft    = "left"
)

// Entry is one user's presence at one file.
type Entry struct {
	User  editing.Person `json:"user"`
	Path  string         `json:"path"`
	State string         `json:"state"`
	Since time.Time      `json:"since"`
}

// Event is what the portal room receives.
type Event struct {
	PortalID int64          `json:"portalId"`
	User     editing.Person `json:"user"`
	Path     string         `json:"path"`
	State    string         `json:"state"`
}

// Service keeps presence.
type Service struct {
	db     *store.DB
	people editing.People
	notify notice.Publisher
	now    func() time.Time
}

// NewService keeps presence in db; people names the users, notify publishes (may be nil).
func NewService(db *store.DB, people editing.People, notify notice.Publisher) *Service {
	return &Service{db: db, people: people, notify: notify, now: func() time.Time { return time.Now().UTC() }}
}

// maxPathLen bounds a presence path (a file path of the portal).
const maxPathLen = 1024

func checkPath(p string) (string, error) {
	p = strings.TrimPrefix(strings.TrimSpace(p), "/")
	if p == "" || len(p) > maxPathLen || !utf8.ValidString(p) || strings.ContainsAny(p, "\x00\n\r") {
		return "", apperr.Validation("The path of a presence must be a file path of the portal.")
	}
	return p, nil
}

// Set records that the caller has path open (viewing) or is changing it (editing), and
// announces a change of state. A renewal in the same state announces nothing.
func (s *Service) Set(ctx context.Context, c caller.Caller, pa portalaccess.Portal, path, state string) error {
	p, err := checkPath(path)
	if err != nil {
		return err
	}
	if state != StateViewing && state != StateEditing {
		return apperr.Validation("The state of a presence is viewing or editing.")
	}
	now := s.now()
	var previous string
	err = s.db.WithTx(ctx, func(tx *store.Tx) error {
		row := tx.QueryRowContext(ctx, `SELECT state FROM presence WHERE portal_id = ? AND user_id = ? AND path = ? AND seen_at > ?`,
			pa.ID(), c.UserID, p, now.Add(-TTL))
		if err := row.Scan(&previous); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		since := now
		if previous == state {
			_, err := tx.ExecContext(ctx, `UPDATE presence SET seen_at = ? WHERE portal_id = ? AND user_id = ? AND path = ?`, now, pa.ID(), c.UserID, p)
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO presence (portal_id, user_id, path, state, since, seen_at) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (portal_id, user_id, path) DO UPDATE SET state = excluded.state, since = excluded.since, seen_at = excluded.seen_at`,
			pa.ID(), c.UserID, p, state, since, now)
		return err
	})
	if err != nil {
		return err
	}
	if previous != state {
		s.announce(ctx, c, pa, p, state)
	}
	return nil
}

// Leave removes the caller's presence at path (every path when path is empty).
func (s *Service) Leave(ctx context.Context, c caller.Caller, pa portalaccess.Portal, path string) error {
	if path == "" {
		paths, err := s.paths(ctx, pa.ID(), c.UserID)
		if err != nil {
			return err
		}
		if _, err := s.db.ExecContext(ctx, `DELETE FROM presence WHERE portal_id = ? AND user_id = ?`, pa.ID(), c.UserID); err != nil {
			return err
		}
		for _, p := range paths {
			s.announce(ctx, c, pa, p, StateLeft)
		}
		return nil
	}
	p, err := checkPath(path)
	if err != nil {
		return err
	}
	res, err := s.db.ExecContext(ctx, `DELETE FROM presence WHERE portal_id = ? AND user_id = ? AND path = ?`, pa.ID(), c.UserID, p)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n > 0 {
		s.announce(ctx, c, pa, p, StateLeft)
	}
	return nil
}

func (s *Service) paths(ctx context.Context, portalID, userID int64) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT path FROM presence WHERE portal_id = ? AND user_id = ?`, portalID, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// List answers the live entries of a portal (the caller's own included), oldest first.
// Expired entries of the portal are swept on the way.
func (s *Service) List(ctx context.Context, pa portalaccess.Portal) ([]Entry, error) {
	cutoff := s.now().Add(-TTL)
	if _, err := s.db.ExecContext(ctx, `DELETE FROM presence WHERE portal_id = ? AND seen_at <= ?`, pa.ID(), cutoff); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT user_id, path, state, since FROM presence WHERE portal_id = ? AND seen_at > ? ORDER BY since, user_id, path`, pa.ID(), cutoff)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	entries := []Entry{}
	for rows.Next() {
		var e Entry
		if err := rows.Scan(&e.User.ID, &e.Path, &e.State, &e.Since); err != nil {
			return nil, err
		}
		e.Since = e.Since.UTC()
		entries = append(entries, e)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return s.named(ctx, entries), nil
}

// named fills in the users' names; entries of users that no longer exist are left out.
func (s *Service) named(ctx context.Context, entries []Entry) []Entry {
	if s.people == nil || len(entries) == 0 {
		return entries
	}
	ids := make([]int64, 0, len(entries))
	for _, e := range entries {
		ids = append(ids, e.User.ID)
	}
	var byID map[int64]editing.Person
	if batch, ok := s.people.(editing.PeopleBatch); ok {
		byID, _ = batch.People(ctx, ids)
	} else {
		byID = map[int64]editing.Person{}
		for _, id := range ids {
			if p, err := s.people.Person(ctx, id); err == nil {
				byID[id] = p
			}
		}
	}
	out := entries[:0]
	for _, e := range entries {
		if p, ok := byID[e.User.ID]; ok {
			e.User = p
			out = append(out, e)
		}
	}
	return out
}

func (s *Service) announce(ctx context.Context, c caller.Caller, pa portalaccess.Portal, path, state string) {
	if s.notify == nil {
		return
	}
	person := editing.Person{ID: c.UserID, UserName: c.Username}
	if s.people != nil {
		if p, err := s.people.Person(ctx, c.UserID); err == nil {
			person = p
		}
	}
	s.notify.Publish(ctx, notice.Portal(pa.ID()), EventPresence, Event{PortalID: pa.ID(), User: person, Path: path, State: state})
}

// Handler serves /presence (docs/api.md "Presence").
type Handler struct {
	svc    *Service
	access *portalaccess.Checker
}

// NewHandler returns the presence routes; access checks the portal of every call.
func NewHandler(svc *Service, access *portalaccess.Checker) *Handler {
	return &Handler{svc: svc, access: access}
}

// Routes: presence needs what reading the portal needs.
func (h *Handler) Routes() []httpx.Route {
	in := httpx.Requires("portal:r", "domainId")
	const p = "/presence/{domainId}/{portalId}"
	return []httpx.Route{
		{Method: http.MethodGet, Pattern: p, Access: in, Handler: h.access.Handle(h.list), Out: []Entry{}},
		{Method: http.MethodPut, Pattern: p, Access: in, Handler: h.access.Handle(h.set), In: setBody{}, Out: httpx.NoBody},
		{Method: http.MethodDelete, Pattern: p, Access: in, Handler: h.access.Handle(h.leave), Out: httpx.NoBody},
	}
}

func (h *Handler) list(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	v, err := h.svc.List(r.Context(), pa)
	return httpx.Respond(w, v, err)
}

type setBody struct {
	Path  string `json:"path"`
	State string `json:"state"`
}

func (h *Handler) set(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var b setBody
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	if err := h.svc.Set(r.Context(), caller.Must(r.Context()), pa, b.Path, b.State); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (h *Handler) leave(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	if err := h.svc.Leave(r.Context(), caller.Must(r.Context()), pa, r.URL.Query().Get("path")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
