// Package history serves a portal branch's recent commits from the canonical repository
// (the portal dashboard's "Recent commits"): GET /portal/{domainId}/{portalId}/commits.
package history

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"portalwright/internal/apperr"
	"portalwright/internal/httpx"
	"portalwright/internal/workspace"
)

// Portals checks that a portal belongs to a domain; the portal service's Portal satisfies it
// (through a small adapter in internal/app). It answers an *apperr.Error (404) when it does not.
type Portals interface {
	PortalInDomain(ctx context.Context, domainID, portalID int64) error
}

// PortalsFunc adapts a function to Portals.
type PortalsFunc func(ctx context.Context, domainID, portalID int64) error

func (f PortalsFunc) PortalInDomain(ctx context.Context, domainID, portalID int64) error {
	return f(ctx, domainID, portalID)
}

// Log reads a branch's history; *workspace.Repos satisfies it.
type Log interface {
	History(ctx context.Context, portalID int64, branch string, limit int) ([]workspace.HistoryCommit, error)
}

// Handler serves the history calls.
type Handler struct {
	portals Portals
	log     Log
}

// NewHandler checks portals with p and reads history with l.
func NewHandler(p Portals, l Log) *Handler { return &Handler{portals: p, log: l} }

func (h *Handler) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: http.MethodGet, Pattern: "/portal/{domainId}/{portalId}/commits", Access: httpx.Requires("portal:r", "domainId"), Handler: h.commits},
	}
}

// commits answers ?branch= (default master; a colon stands for a slash, as in routes) and
// ?limit= (default 20, at most 100).
func (h *Handler) commits(w http.ResponseWriter, r *http.Request) error {
	ids, err := httpx.PathIDs(r, "domainId", "portalId")
	if err != nil {
		return err
	}
	q := r.URL.Query()
	branch := strings.ReplaceAll(q.Get("branch"), ":", "/")
	if branch == "" {
		branch = workspace.DefaultBranch
	}
	limit := workspace.DefaultHistoryLimit
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > workspace.MaxHistoryLimit {
			return apperr.BadRequest("INVALID_LIMIT", "The limit must be a number from 1 to "+strconv.Itoa(workspace.MaxHistoryLimit)+".")
		}
		limit = n
	}
	if err := h.portals.PortalInDomain(r.Context(), ids[0], ids[1]); err != nil {
		return err
	}
	commits, err := h.log.History(r.Context(), ids[1], branch, limit)
	if errors.Is(err, workspace.ErrBranchMissing) {
		return apperr.NotFound("BRANCH_DOES_NOT_EXIST_IN_PORTAL", "The branch does not exist in this portal.")
	}
	if err != nil {
		return err
	}
	return httpx.OK(w, commits)
}
