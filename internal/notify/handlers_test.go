package notify

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/caller"
	"portalwright/internal/httpx"
	"portalwright/internal/store"
	"portalwright/internal/store/storetest"
)

// router mounts the routes the way the API router does; the test plays the signed-in admin
// (access rules are enforced by internal/httpapi, checked here only as declarations).
func router(t *testing.T, h *Handler) http.Handler {
	t.Helper()
	r := chi.NewRouter()
	for _, rt := range h.Routes() {
		if rt.Access != httpx.AdminOnly {
			t.Errorf("%s %s: access %+v, want AdminOnly", rt.Method, rt.Pattern, rt.Access)
		}
		r.Method(rt.Method, rt.Pattern, rt.Handler)
	}
	return r
}

func call(t *testing.T, h http.Handler, method, target string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	req = req.WithContext(caller.With(req.Context(), caller.Caller{UserID: 1, Username: "root", Admin: true}))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

func wantError(t *testing.T, w *httptest.ResponseRecorder, status int, code string) {
	t.Helper()
	var body struct {
		Status int    `json:"httpStatus"`
		Code   string `json:"errorCode"`
	}
	if w.Code != status || json.Unmarshal(w.Body.Bytes(), &body) != nil || body.Status != status || body.Code != code {
		t.Fatalf("response %d %s, want %d %s", w.Code, w.Body, status, code)
	}
}

func TestHandler(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		srv := startServer(t, serverOptions{})
		f := newFixture(db)
		o := f.outbox(srv.config(), nil)
		h := router(t, NewHandler(o))

		sent := mustEnqueue(t, o, Mail{To: "sent@example.com", Subject: "Sent", Text: "a", Kind: Transactional})
		deliver(t, o, 1)
		srv.setRcptErr(errNoUser)
		failed := mustEnqueue(t, o, Mail{To: "Failed@Example.com", Subject: "Failed", Text: "reset link", UserID: 5, Kind: Notification})
		deliver(t, o, 0)
		srv.setRcptErr(nil)

		w := call(t, h, http.MethodGet, "/admin/outbox")
		if w.Code != http.StatusOK {
			t.Fatalf("list: %d %s", w.Code, w.Body)
		}
		var list []map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &list); err != nil || len(list) != 2 {
			t.Fatalf("list = %s (%v)", w.Body, err)
		}
		first := list[0] // newest first
		if first["id"] != float64(failed) || first["to"] != "Failed@Example.com" || first["status"] != StatusFailed ||
			first["kind"] != "notification" || first["userId"] != float64(5) || first["text"] != "reset link" ||
			first["attempts"] != float64(1) || first["lastError"] == "" || first["createdAt"] == nil || first["sentAt"] != nil {
			t.Fatalf("first = %v", first)
		}
		if _, ok := first["nextAttemptAt"]; !ok {
			t.Fatalf("nextAttemptAt missing: %v", first)
		}
		if list[1]["id"] != float64(sent) || list[1]["sentAt"] == nil {
			t.Fatalf("second = %v", list[1])
		}

		for target, want := range map[string]int{
			"/admin/outbox?status=failed":       1,
			"/admin/outbox?status=held":         0,
			"/admin/outbox?to=failed@example":   1,
			"/admin/outbox?to=example.com":      2,
			"/admin/outbox?to=%25":              0,
			"/admin/outbox?limit=1":             1,
			"/admin/outbox?status=sent&to=SENT": 1,
		} {
			w := call(t, h, http.MethodGet, target)
			var l []Message
			if w.Code != http.StatusOK || json.Unmarshal(w.Body.Bytes(), &l) != nil || len(l) != want {
				t.Errorf("%s: %d %s, want %d messages", target, w.Code, w.Body, want)
			}
		}
		wantError(t, call(t, h, http.MethodGet, "/admin/outbox?status=lost"), http.StatusBadRequest, "INVALID_STATUS")
		wantError(t, call(t, h, http.MethodGet, "/admin/outbox?limit=many"), http.StatusBadRequest, "INVALID_LIMIT")
		wantError(t, call(t, h, http.MethodGet, "/admin/outbox?limit=0"), http.StatusBadRequest, "INVALID_LIMIT")

		retry := func(id int64) *httptest.ResponseRecorder {
			return call(t, h, http.MethodPost, "/admin/outbox/"+strconv.FormatInt(id, 10)+"/retry")
		}
		if w := retry(failed); w.Code != http.StatusNoContent {
			t.Fatalf("retry failed: %d %s", w.Code, w.Body)
		}
		if m := mustGet(t, o, failed); m.Status != StatusPending || m.Attempts != 0 {
			t.Fatalf("after retry: %+v", m)
		}
		deliver(t, o, 1)
		if m := mustGet(t, o, failed); m.Status != StatusSent {
			t.Fatalf("after retry and delivery: %+v", m)
		}
		wantError(t, retry(sent), http.StatusConflict, "MAIL_ALREADY_SENT")
		wantError(t, retry(failed+1000), http.StatusNotFound, "MAIL_NOT_FOUND")
		wantError(t, call(t, h, http.MethodPost, "/admin/outbox/abc/retry"), http.StatusBadRequest, "INVALID_ID")
		if n, err := o.List(ctx, Filter{Status: StatusSent}); err != nil || len(n) != 2 {
			t.Fatalf("sent = %d, %v", len(n), err)
		}
	})
}
