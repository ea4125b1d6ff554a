package history

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"portalwright/internal/testkit"
	"strings"
	"testing"

	"portalwright/internal/apperr"
	"portalwright/internal/httpx"
	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
	"portalwright/internal/workspace/gitlog"
)

type fakeLog struct {
	portal int64
	branch string
	limit  int
}

func (f *fakeLog) History(_ context.Context, portalID int64, branch string, limit int) ([]gitlog.HistoryCommit, error) {
	f.portal, f.branch, f.limit = portalID, branch, limit
	if branch == "gone" {
		return nil, workspace.ErrBranchMissing
	}
	return []gitlog.HistoryCommit{{CommitID: "abc", Message: "m", Files: []gitlog.HistoryFile{{Path: "a", Change: "ADD"}}, FilesTotal: 1}}, nil
}

// inDomain knows one portal: 2 of domain 1.
type inDomain struct{}

func (inDomain) Load(_ context.Context, d, p int64) (portalaccess.Record, error) {
	if d != 1 || p != 2 {
		return portalaccess.Record{}, apperr.NotFound("PORTAL_NOT_FOUND", "no such portal")
	}
	return portalaccess.Record{Name: "Crew", DomainName: "Home", Active: true}, nil
}

func serve(h *Handler, path string) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	testkit.Routes(h.Routes()).ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
	return w
}

func TestCommits(t *testing.T) {
	log := &fakeLog{}
	h := NewHandler(portalaccess.NewChecker(inDomain{}), log)
	if rt := h.Routes()[0]; rt.Access != httpx.Requires("portal:r", "domainId") {
		t.Fatalf("access %+v", rt.Access)
	}

	w := serve(h, "/portal/1/2/commits?branch=feature:summer&limit=5")
	var got []gitlog.HistoryCommit
	if err := json.Unmarshal(w.Body.Bytes(), &got); w.Code != 200 || err != nil || len(got) != 1 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	if log.portal != 2 || log.branch != "feature/summer" || log.limit != 5 {
		t.Fatalf("asked %+v", log)
	}
	serve(h, "/portal/1/2/commits")
	if log.branch != workspace.DefaultBranch || log.limit != gitlog.DefaultHistoryLimit {
		t.Fatalf("defaults %+v", log)
	}
	for path, want := range map[string]string{
		"/portal/9/2/commits":             "PORTAL_NOT_FOUND",
		"/portal/1/2/commits?branch=gone": "BRANCH_DOES_NOT_EXIST_IN_PORTAL",
		"/portal/1/2/commits?limit=0":     "INVALID_LIMIT",
		"/portal/1/2/commits?limit=101":   "INVALID_LIMIT",
		"/portal/x/2/commits":             "INVALID_ID",
	} {
		if w := serve(h, path); w.Code < 400 || !strings.Contains(w.Body.String(), want) {
			t.Fatalf("%s: %d %s", path, w.Code, w.Body)
		}
	}
}
