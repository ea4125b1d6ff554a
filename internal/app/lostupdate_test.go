package app

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"

	"portalwright/internal/identity"
)

// TestNoLostUpdatesOfPortalSettings walks issue 8's scenario over HTTP: an author adds a
// language and commits; the admin, whose screen still holds the settings it read before,
// reloads the workspace and saves on top of the old list. The save is refused (409
// FILE_CHANGED) instead of silently dropping the author's language; after reading the
// current settings the admin's language goes in next to the author's.
func TestNoLostUpdatesOfPortalSettings(t *testing.T) {
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	ctx := context.Background()
	a, err := New(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	if _, err := a.Identity.CreateUser(ctx, identity.NewUser{UserName: "ann", Password: "ann-pass-1", Admin: true}); err != nil {
		t.Fatal(err)
	}
	type answer struct {
		status int
		etag   string
		body   []byte
	}
	call := func(token, method, path, ifMatch, body string) answer {
		t.Helper()
		req, _ := http.NewRequest(method, srv.base+"/api/v1"+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		if ifMatch != "" {
			req.Header.Set("If-Match", ifMatch)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return answer{resp.StatusCode, resp.Header.Get("ETag"), data}
	}
	type settings = map[string]any
	languages := func(b []byte) []string {
		var s struct {
			LanguageSettings struct{ Languages []string } `json:"languageSettings"`
		}
		_ = json.Unmarshal(b, &s)
		return s.LanguageSettings.Languages
	}
	withLanguage := func(b []byte, lang string) string {
		var s settings
		_ = json.Unmarshal(b, &s)
		ls := s["languageSettings"].(map[string]any)
		ls["languages"] = append(ls["languages"].([]any), lang)
		out, _ := json.Marshal(s)
		return string(out)
	}
	admin := login(t, srv.base, "admin", "admin-pass")
	ann := login(t, srv.base, "ann", "ann-pass-1")
	for _, tok := range []string{admin, ann} {
		if got := call(tok, "GET", "/portal/1/1/open", "", ""); got.status != 200 {
			t.Fatalf("open: %d %s", got.status, got.body)
		}
	}
	adminRead := call(admin, "GET", "/settings/1/1", "", "")
	annRead := call(ann, "GET", "/settings/1/1", "", "")
	if adminRead.etag == "" || adminRead.etag != annRead.etag {
		t.Fatalf("ETags %q %q", adminRead.etag, annRead.etag)
	}

	// A save that does not say what it was based on is refused.
	if got := call(ann, "PUT", "/settings/1/1", "", withLanguage(annRead.body, "de_DE")); got.status != http.StatusPreconditionRequired {
		t.Fatalf("save without If-Match: %d %s", got.status, got.body)
	}
	saved := call(ann, "PUT", "/settings/1/1", annRead.etag, withLanguage(annRead.body, "de_DE"))
	if saved.status != 200 || saved.etag == "" || saved.etag == annRead.etag {
		t.Fatalf("ann's save: %d %q %s", saved.status, saved.etag, saved.body)
	}
	if got := call(ann, "POST", "/portal/1/1/commits", "", `{"message":"Add German"}`); got.status != 200 {
		t.Fatalf("ann's commit: %d %s", got.status, got.body)
	}

	// The admin clicks Reload Now (the workspace fast-forwards) but saves from the old read.
	if got := call(admin, "GET", "/portal/1/1/open", "", ""); got.status != 200 {
		t.Fatalf("reload: %d", got.status)
	}
	stale := call(admin, "PUT", "/settings/1/1", adminRead.etag, withLanguage(adminRead.body, "es_ES"))
	if stale.status != http.StatusConflict || !strings.Contains(string(stale.body), `"FILE_CHANGED"`) {
		t.Fatalf("stale save: %d %s", stale.status, stale.body)
	}
	fresh := call(admin, "GET", "/settings/1/1", "", "")
	if !slices.Contains(languages(fresh.body), "de_DE") || !strings.Contains(string(stale.body), strings.Trim(fresh.etag, `"`)) {
		t.Fatalf("after reload the admin reads %v (%s); the conflict named %s", languages(fresh.body), fresh.etag, stale.body)
	}
	if got := call(admin, "PUT", "/settings/1/1", fresh.etag, withLanguage(fresh.body, "es_ES")); got.status != 200 {
		t.Fatalf("admin's save: %d %s", got.status, got.body)
	}
	if got := call(admin, "POST", "/portal/1/1/commits", "", `{"message":"Add Spanish"}`); got.status != 200 {
		t.Fatalf("admin's commit: %d %s", got.status, got.body)
	}
	call(ann, "GET", "/portal/1/1/open", "", "")
	if got := languages(call(ann, "GET", "/settings/1/1", "", "").body); !slices.Contains(got, "de_DE") || !slices.Contains(got, "es_ES") {
		t.Fatalf("master must have both languages, has %v", got)
	}

	// Revert All: a save based on the discarded edit is stale too.
	before := call(ann, "GET", "/settings/1/1", "", "")
	edited := call(ann, "PUT", "/settings/1/1", before.etag, withLanguage(before.body, "it_IT"))
	if edited.status != 200 {
		t.Fatalf("edit: %d %s", edited.status, edited.body)
	}
	if got := call(ann, "POST", "/portal/1/1/revert", "", `{}`); got.status >= 300 {
		t.Fatalf("revert all: %d %s", got.status, got.body)
	}
	if got := call(ann, "PUT", "/settings/1/1", edited.etag, withLanguage(edited.body, "nl_NL")); got.status != http.StatusConflict {
		t.Fatalf("save after revert: %d %s", got.status, got.body)
	}
	if got := call(ann, "GET", "/settings/1/1", "", ""); got.etag != before.etag || slices.Contains(languages(got.body), "it_IT") {
		t.Fatalf("after revert: %s %v", got.etag, languages(got.body))
	}
}
