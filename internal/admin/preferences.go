// Package admin holds the system-wide administration features: preferences (the banner
// every signed-in user sees) and e-mails to users (spec 3 §7 Admin-related).
package admin

import (
	"context"
	"net/http"
	"portalwright/internal/notice"
	"strings"
	"time"
	"unicode/utf8"

	"portalwright/internal/apperr"
	"portalwright/internal/audit"
	"portalwright/internal/caller"
	"portalwright/internal/httpx"
	"portalwright/internal/store"
)

// Banner states.
const (
	BannerOn  = "BANNER_ON"
	BannerOff = "BANNER_OFF"
)

// MaxBannerLength bounds the banner text.
const MaxBannerLength = 500

// Preference is the system preference record (spec 1 §3).
type Preference struct {
	ID            int64     `json:"id"`
	BannerStatus  string    `json:"bannerStatus"`
	BannerMessage string    `json:"bannerMessage"`
	UpdatedAt     time.Time `json:"updatedAt"`
	UpdatedBy     string    `json:"updatedBy"`
}

// Auditor records administration actions.
type Auditor interface {
	Record(ctx context.Context, e audit.Entry)
}

// Preferences reads and changes system preferences.
type Preferences struct {
	db    *store.DB
	audit Auditor
	// notices pushes every update to signed-in clients live (PREFERENCE_UPDATED: the banner).
	notices notice.Publisher
}

func NewPreferences(db *store.DB, a Auditor, notices notice.Publisher) *Preferences {
	return &Preferences{db: db, audit: a, notices: notice.Or(notices)}
}

// EventPreference is the title of the message every client gets after an update.
const EventPreference = "PREFERENCE_UPDATED"

// All returns the preference records (one today).
func (p *Preferences) All(ctx context.Context) ([]Preference, error) {
	rows, err := p.db.QueryContext(ctx, "SELECT id, banner_status, banner_message, updated_at, updated_by FROM preferences ORDER BY id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Preference{}
	for rows.Next() {
		var pr Preference
		if err := rows.Scan(&pr.ID, &pr.BannerStatus, &pr.BannerMessage, &pr.UpdatedAt, &pr.UpdatedBy); err != nil {
			return nil, err
		}
		pr.UpdatedAt = pr.UpdatedAt.UTC()
		out = append(out, pr)
	}
	return out, rows.Err()
}

// Update changes the banner. The message is plain text (the client never renders it as HTML).
func (p *Preferences) Update(ctx context.Context, by caller.Caller, in Preference) (*Preference, error) {
	switch in.BannerStatus {
	case BannerOn, BannerOff:
	case "ON":
		in.BannerStatus = BannerOn
	case "OFF":
		in.BannerStatus = BannerOff
	default:
		return nil, apperr.Validation("bannerStatus must be BANNER_ON or BANNER_OFF.")
	}
	in.BannerMessage = strings.TrimSpace(in.BannerMessage)
	if in.BannerStatus == BannerOn && in.BannerMessage == "" {
		return nil, apperr.Validation("Enter the banner message to show.")
	}
	if utf8.RuneCountInString(in.BannerMessage) > MaxBannerLength {
		return nil, apperr.Validation("The banner message must be at most 500 characters.")
	}
	if in.ID == 0 {
		in.ID = 1
	}
	now := time.Now().UTC()
	res, err := p.db.ExecContext(ctx, "UPDATE preferences SET banner_status = ?, banner_message = ?, updated_at = ?, updated_by = ? WHERE id = ?",
		in.BannerStatus, in.BannerMessage, now, by.Username, in.ID)
	if err != nil {
		return nil, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, apperr.NotFound("PREFERENCE_NOT_FOUND", "The preference record does not exist.")
	}
	out := Preference{ID: in.ID, BannerStatus: in.BannerStatus, BannerMessage: in.BannerMessage, UpdatedAt: now, UpdatedBy: by.Username}
	if p.audit != nil {
		id := by.UserID
		p.audit.Record(ctx, audit.Entry{Action: "PREFERENCE_UPDATED", ActorID: &id, ActorName: by.Username, EntityType: "PREFERENCE", EntityID: "1",
			Details: in.BannerStatus + ": " + in.BannerMessage})
	}
	p.notices.Publish(context.Background(), notice.Everyone, EventPreference, out)
	return &out, nil
}

// PreferencesHandler serves /preference.
type PreferencesHandler struct{ p *Preferences }

func NewPreferencesHandler(p *Preferences) *PreferencesHandler { return &PreferencesHandler{p: p} }

func (h *PreferencesHandler) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: http.MethodGet, Pattern: "/preference/all", Access: httpx.Authenticated, Handler: h.all, Out: []Preference{}},
		{Method: http.MethodPut, Pattern: "/preference/update", Access: httpx.AdminOnly, Handler: h.update, In: Preference{}, Out: Preference{}},
	}
}

func (h *PreferencesHandler) all(w http.ResponseWriter, r *http.Request) error {
	prefs, err := h.p.All(r.Context())
	if err != nil {
		return err
	}
	return httpx.OK(w, prefs)
}

func (h *PreferencesHandler) update(w http.ResponseWriter, r *http.Request) error {
	var in Preference
	if err := httpx.Decode(r, &in); err != nil {
		return err
	}
	out, err := h.p.Update(r.Context(), caller.Must(r.Context()), in)
	if err != nil {
		return err
	}
	return httpx.OK(w, out)
}
