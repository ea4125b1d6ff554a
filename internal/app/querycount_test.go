package app

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"portalwright/internal/store"
	"portalwright/internal/testkit"
)

// TestTranslationSaveQueries holds a translation save to its budget of database statements:
// the checked portal is loaded once, with its names, and handed on (portalaccess), so the
// save and the WORKSPACE_LOCAL_CHANGES it publishes cost at most 2 statements beyond the
// guard's session lookup — the portal with its domain's name, and the person who saved.
// The request runs in process with a context that records every statement run under it.
func TestTranslationSaveQueries(t *testing.T) {
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	tok := testkit.Login(t, srv.base, "admin", "admin-pass")
	if got := testkit.Call(t, "GET", srv.base+"/api/v1/portal/1/1/open", tok, ""); got.Status != 200 {
		t.Fatalf("open: %d %s", got.Status, got.Body)
	}
	var tr struct {
		Versions map[string]string `json:"versions"`
	}
	testkit.Call(t, "GET", srv.base+"/api/v1/translation/1/1", tok, "").JSON(t, &tr)

	save := func(value string) []string {
		t.Helper()
		body, _ := json.Marshal(map[string]any{"data": map[string]map[string]string{"fr_FR": {"TXT_QUERY_BUDGET": value}},
			"versions": map[string]string{"fr_FR": tr.Versions["fr_FR"]}})
		ctx, log := store.WithQueryLog(t.Context())
		req := httptest.NewRequestWithContext(ctx, http.MethodPut, "/api/v1/translation/1/1", strings.NewReader(string(body)))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		srv.app.HTTP.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("save: %d %s", rec.Code, rec.Body)
		}
		var answer struct {
			Versions map[string]string `json:"versions"`
		}
		_ = json.Unmarshal(rec.Body.Bytes(), &answer)
		if v := answer.Versions["fr_FR"]; v != "" {
			tr.Versions["fr_FR"] = v
		}
		return log.Queries()
	}
	save("warm-up") // the first write of a workspace may create its records
	queries := save("Budget")
	var handler []string
	for _, q := range queries {
		if strings.Contains(q, "FROM sessions") { // the guard's authentication (every route has it)
			continue
		}
		handler = append(handler, strings.Join(strings.Fields(q), " "))
	}
	if len(handler) > 2 {
		t.Fatalf("a translation save ran %d statements beyond authentication, want ≤ 2:\n%s", len(handler), strings.Join(handler, "\n"))
	}
	if len(queries) == len(handler) {
		t.Fatalf("the session lookup was not seen: is the query log reaching the store? %q", queries)
	}
	t.Logf("a translation save: %d statements (%d beyond authentication): %q", len(queries), len(handler), handler)
}
