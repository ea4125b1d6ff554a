// Package audit records sign-in and administration actions and answers the history lookups
// of the administration area (spec 3 §7: lookup/type/historyType, lookup/accounts/…/history).
package audit

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/apperr"
	"portalwright/internal/httpx"
	"portalwright/internal/store"
)

// Categories and the history types (actions) each holds.
var HistoryTypes = map[string][]string{
	"SIGN_IN":    {"LOGIN_SUCCEEDED", "LOGIN_FAILED", "LOGIN_RATE_LIMITED", "LOGOUT", "SSO_LOGIN", "PASSWORD_RESET_REQUESTED", "PASSWORD_RESET_CONFIRMED", "PASSWORD_CHANGED", "ONE_TIME_PASSWORD_USED"},
	"USER":       {"USER_CREATED", "USER_UPDATED", "USER_DELETED", "USER_FORCE_RESET", "USER_EMAILED", "SSH_KEY_CHANGED"},
	"DOMAIN":     {"DOMAIN_CREATED", "DOMAIN_RENAMED", "DOMAIN_DELETED", "DOMAIN_LOGO_CHANGED", "DOMAIN_USER_ADDED", "DOMAIN_USER_REMOVED", "DOMAIN_EMAILED"},
	"GROUP":      {"GROUP_CREATED", "GROUP_PERMISSIONS_UPDATED", "GROUP_DELETED", "ROLE_ASSIGNED", "ROLE_REMOVED", "PERMISSION_CHANGE_REFUSED"},
	"PREFERENCE": {"PREFERENCE_UPDATED"},
	"PORTAL": {"PORTAL_CREATED", "PORTAL_ACTIVATED", "PORTAL_DEACTIVATED", "PORTAL_DELETED", "BRANCH_CREATED", "BRANCH_MERGED",
		"BRANCH_DELETED", "CATEGORY_CREATED", "CATEGORY_RENAMED", "CATEGORY_DELETED", "TEMPLATE_CREATED", "TEMPLATE_UPDATED",
		"TEMPLATE_DELETED", "READINESS_GATE_CHANGED", "LOADABLE_APPROVED_OVER_READINESS"},
}

// Entry is one recorded action.
type Entry struct {
	ID         int64     `json:"id"`
	At         time.Time `json:"at"`
	Category   string    `json:"category"`
	Action     string    `json:"historyType"`
	ActorID    *int64    `json:"userId"`
	ActorName  string    `json:"userName"`
	DomainID   *int64    `json:"domainId"`
	EntityType string    `json:"entity"`
	EntityID   string    `json:"entityId"`
	Details    string    `json:"details"`
	ClientAddr string    `json:"clientAddr"`
}

// Log writes and reads the audit log.
type Log struct {
	db  *store.DB
	log *slog.Logger
}

func New(db *store.DB, log *slog.Logger) *Log { return &Log{db: db, log: log} }

// Record appends an entry. It never fails the caller's operation: a failure to record is
// logged instead.
func (l *Log) Record(ctx context.Context, e Entry) {
	if e.At.IsZero() {
		e.At = time.Now().UTC()
	}
	if e.Category == "" {
		e.Category = CategoryOf(e.Action)
	}
	_, err := l.db.ExecContext(ctx, `INSERT INTO audit_log (at, category, action, actor_id, actor_name, domain_id, entity_type, entity_id, details, client_addr)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, e.At, e.Category, e.Action, e.ActorID, e.ActorName, e.DomainID, e.EntityType, e.EntityID, e.Details, e.ClientAddr)
	if err != nil {
		l.log.ErrorContext(ctx, "audit record failed", "action", e.Action, "error", err)
	}
}

// CategoryOf finds the category of an action.
func CategoryOf(action string) string {
	for c, actions := range HistoryTypes {
		if slices.Contains(actions, action) {
			return c
		}
	}
	return "OTHER"
}

// Filter selects entries; zero values select everything.
type Filter struct {
	DomainID   *int64
	EntityType string
	EntityID   string
	Action     string
	ActorID    *int64
	Limit      int
}

// List returns matching entries, newest first.
func (l *Log) List(ctx context.Context, f Filter) ([]Entry, error) {
	q := `SELECT id, at, category, action, actor_id, actor_name, domain_id, entity_type, entity_id, details, client_addr FROM audit_log WHERE 1=1`
	var args []any
	if f.DomainID != nil {
		q += " AND domain_id = ?"
		args = append(args, *f.DomainID)
	}
	if f.EntityType != "" {
		q += " AND entity_type = ?"
		args = append(args, f.EntityType)
	}
	if f.EntityID != "" {
		q += " AND entity_id = ?"
		args = append(args, f.EntityID)
	}
	if f.Action != "" {
		q += " AND action = ?"
		args = append(args, f.Action)
	}
	if f.ActorID != nil {
		q += " AND actor_id = ?"
		args = append(args, *f.ActorID)
	}
	if f.Limit <= 0 || f.Limit > 1000 {
		f.Limit = 200
	}
	q += " ORDER BY at DESC, id DESC LIMIT " + strconv.Itoa(f.Limit)
	rows, err := l.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Entry{}
	for rows.Next() {
		var e Entry
		if err := rows.Scan(&e.ID, &e.At, &e.Category, &e.Action, &e.ActorID, &e.ActorName, &e.DomainID, &e.EntityType, &e.EntityID, &e.Details, &e.ClientAddr); err != nil {
			return nil, err
		}
		e.At = e.At.UTC()
		out = append(out, e)
	}
	return out, rows.Err()
}

// ClientAddr is the address a request came from, for entries (httpx.ClientAddr: the router
// works it out once, believing X-Forwarded-For only from trusted proxies).
func ClientAddr(r *http.Request) string { return httpx.ClientAddr(r) }

// Handler serves the history lookups.
type Handler struct{ log *Log }

func NewHandler(l *Log) *Handler { return &Handler{log: l} }

func (h *Handler) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: http.MethodGet, Pattern: "/lookup/type/historyType/category/{category}", Access: httpx.Authenticated, Handler: h.historyTypes, Out: []keyValue{}},
		// {domainId}: the domain whose history is read (0: system-wide, admins only);
		// {entityId}: the entity of type {entity} (USER, DOMAIN, GROUP, PREFERENCE), or 0 for all.
		{Method: http.MethodGet, Pattern: "/lookup/accounts/{domainId}/{entityId}/entities/{entity}/history", Access: httpx.Requires("domain:w", "domainId"), Handler: h.history, Out: []Entry{}},
	}
}

type keyValue struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

func (h *Handler) historyTypes(w http.ResponseWriter, r *http.Request) error {
	types, ok := HistoryTypes[chi.URLParam(r, "category")]
	if !ok {
		return apperr.NotFound("UNKNOWN_CATEGORY", "Unknown history category '"+chi.URLParam(r, "category")+"'.")
	}
	out := make([]keyValue, 0, len(types))
	for _, t := range types {
		out = append(out, keyValue{Key: t, Value: words(t)})
	}
	return httpx.OK(w, out)
}

func (h *Handler) history(w http.ResponseWriter, r *http.Request) error {
	var f Filter
	domainID, ok := httpx.ParseID(chi.URLParam(r, "domainId"))
	if !ok {
		return apperr.BadRequest("INVALID_ID", "The domain id must be a number.")
	}
	if domainID != 0 {
		f.DomainID = &domainID
	}
	if e := chi.URLParam(r, "entity"); e != "ALL" {
		f.EntityType = e
	}
	if id := chi.URLParam(r, "entityId"); id != "0" {
		f.EntityID = id
	}
	f.Action = r.URL.Query().Get("historyType")
	if u := r.URL.Query().Get("userId"); u != "" {
		uid, ok := httpx.ParseID(u)
		if !ok {
			return apperr.BadRequest("INVALID_ID", "The user id must be a number.")
		}
		f.ActorID = &uid
	}
	entries, err := h.log.List(r.Context(), f)
	if err != nil {
		return err
	}
	return httpx.OK(w, entries)
}

// words is a history type as the screen shows it: 'PORTAL_CREATED' → 'Portal created'.
func words(code string) string {
	s := strings.ReplaceAll(strings.ToLower(code), "_", " ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
