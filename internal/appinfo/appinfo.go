// Package appinfo serves facts about the running server: its version and the optional
// features the client adapts to (spec 1 §7, configuration and versions).
package appinfo

import (
	"net/http"

	"portalwright"
	"portalwright/internal/httpx"
)

// SSO describes single sign-on as the login screen needs it.
type SSO struct {
	Enabled  bool   `json:"enabled"`
	Label    string `json:"label"`
	LoginURL string `json:"loginUrl"`
}

// Limits are the server's settings the screens state or time by, so they never say another
// number than the server keeps to.
type Limits struct {
	// TaskTimeoutMs is the longest a task run may take (--task-timeout): a run that has shown
	// no change for longer is stuck.
	TaskTimeoutMs int64 `json:"taskTimeoutMs"`
	// DiscardedWorkDays is how long discarded work stays restorable.
	DiscardedWorkDays int `json:"discardedWorkDays"`
}

// Features is the answer of GET /config/features.
type Features struct {
	SSO    SSO    `json:"sso"`
	Limits Limits `json:"limits"`
}

// Handler serves /api/v1/config.
type Handler struct {
	features func() Features
}

// NewHandler takes a function so features that are configured later (SSO) are reported live.
func NewHandler(features func() Features) *Handler { return &Handler{features: features} }

func (h *Handler) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: http.MethodGet, Pattern: "/config/backend-version", Access: httpx.Public, Handler: h.backendVersion, Out: httpx.PlainText},
		{Method: http.MethodGet, Pattern: "/config/features", Access: httpx.Public, Handler: h.featureList, Out: Features{}},
	}
}

func (h *Handler) backendVersion(w http.ResponseWriter, _ *http.Request) error {
	return httpx.Text(w, http.StatusOK, portalwright.BackendVersion())
}

func (h *Handler) featureList(w http.ResponseWriter, _ *http.Request) error {
	return httpx.OK(w, h.features())
}
