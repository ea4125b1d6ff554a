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
	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
	"portalwright/internal/workspace/gitlog"
)

// Log reads a branch's history; *gitlog.Log satisfies it.
type Log interface {
	History(ctx context.Context, portalID int64, branch string, limit int) ([]gitlog.HistoryCommit, error)
}

// Handler serves the history calls.
type Handler struct {
	access *portalaccess.Checker
	log    Log
}

// NewHandler reads history with l; access checks the portal of every call.
func NewHandler(access *portalaccess.Checker, l Log) *Handler {
	return &Handler{access: access, log: l}
}

func (h *Handler) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: http.MethodGet, Pattern: "/portal/{domainId}/{portalId}/commits", Access: httpx.Requires("portal:r", "domainId"), Handler: h.access.Handle(h.commits), Out: []gitlog.HistoryCommit{}},
	}
}

// commits answers ?branch= (default master; a colon stands for a slash, as in routes) and
// ?limit= (default 20, at most 100).
func (h *Handler) commits(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	q := r.URL.Query()
	branch := strings.ReplaceAll(q.Get("branch"), ":", "/")
	if branch == "" {
		branch = workspace.DefaultBranch
	}
	limit := gitlog.DefaultHistoryLimit
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > gitlog.MaxHistoryLimit {
			return apperr.BadRequest("INVALID_LIMIT", "The limit must be a number from 1 to "+strconv.Itoa(gitlog.MaxHistoryLimit)+".")
		}
		limit = n
	}
	commits, err := h.log.History(r.Context(), pa.ID(), branch, limit)
	if errors.Is(err, workspace.ErrBranchMissing) {
		return apperr.NotFound("BRANCH_DOES_NOT_EXIST_IN_PORTAL", "The branch does not exist in this portal.")
	}
	if err != nil {
		return err
	}
	return httpx.OK(w, commits)
}
