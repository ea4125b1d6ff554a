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
	"portalwright/internal/testkit"
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
	call := func(token, method, path, ifMatch, body string) testkit.Reply {
		t.Helper()
		return testkit.Call(t, method, srv.base+"/api/v1"+path, token, body, "If-Match", ifMatch)
	}
	type settings = map[string]any
	languages := func(b string) []string {
		var s struct {
			LanguageSettings struct{ Languages []string } `json:"languageSettings"`
		}
		_ = json.Unmarshal([]byte(b), &s)
		return s.LanguageSettings.Languages
	}
	withLanguage := func(b string, lang string) string {
		var s settings
		_ = json.Unmarshal([]byte(b), &s)
		ls := s["languageSettings"].(map[string]any)
		ls["languages"] = append(ls["languages"].([]any), lang)
		out, _ := json.Marshal(s)
		return string(out)
	}
	admin := testkit.Login(t, srv.base, "admin", "admin-pass")
	ann := testkit.Login(t, srv.base, "ann", "ann-pass-1")
	for _, tok := range []string{admin, ann} {
		if got := call(tok, "GET", "/portal/1/1/open", "", ""); got.Status != 200 {
			t.Fatalf("open: %d %s", got.Status, got.Body)
		}
	}
	adminRead := call(admin, "GET", "/settings/1/1", "", "")
	annRead := call(ann, "GET", "/settings/1/1", "", "")
	if adminRead.Header.Get("ETag") == "" || adminRead.Header.Get("ETag") != annRead.Header.Get("ETag") {
		t.Fatalf("ETags %q %q", adminRead.Header.Get("ETag"), annRead.Header.Get("ETag"))
	}

	// A save that does not say what it was based on is refused.
	if got := call(ann, "PUT", "/settings/1/1", "", withLanguage(annRead.Body, "de_DE")); got.Status != http.StatusPreconditionRequired {
		t.Fatalf("save without If-Match: %d %s", got.Status, got.Body)
	}
	saved := call(ann, "PUT", "/settings/1/1", annRead.Header.Get("ETag"), withLanguage(annRead.Body, "de_DE"))
	if saved.Status != 200 || saved.Header.Get("ETag") == "" || saved.Header.Get("ETag") == annRead.Header.Get("ETag") {
		t.Fatalf("ann's save: %d %q %s", saved.Status, saved.Header.Get("ETag"), saved.Body)
	}
	if got := call(ann, "POST", "/portal/1/1/commits", "", `{"message":"Add German"}`); got.Status != 200 {
		t.Fatalf("ann's commit: %d %s", got.Status, got.Body)
	}

	// The admin clicks Reload Now (the workspace fast-forwards) but saves from the old read.
	if got := call(admin, "GET", "/portal/1/1/open", "", ""); got.Status != 200 {
		t.Fatalf("reload: %d", got.Status)
	}
	stale := call(admin, "PUT", "/settings/1/1", adminRead.Header.Get("ETag"), withLanguage(adminRead.Body, "es_ES"))
	if stale.Status != http.StatusConflict || !strings.Contains(string(stale.Body), `"FILE_CHANGED"`) {
		t.Fatalf("stale save: %d %s", stale.Status, stale.Body)
	}
	fresh := call(admin, "GET", "/settings/1/1", "", "")
	if !slices.Contains(languages(fresh.Body), "de_DE") || !strings.Contains(string(stale.Body), strings.Trim(fresh.Header.Get("ETag"), `"`)) {
		t.Fatalf("after reload the admin reads %v (%s); the conflict named %s", languages(fresh.Body), fresh.Header.Get("ETag"), stale.Body)
	}
	if got := call(admin, "PUT", "/settings/1/1", fresh.Header.Get("ETag"), withLanguage(fresh.Body, "es_ES")); got.Status != 200 {
		t.Fatalf("admin's save: %d %s", got.Status, got.Body)
	}
	if got := call(admin, "POST", "/portal/1/1/commits", "", `{"message":"Add Spanish"}`); got.Status != 200 {
		t.Fatalf("admin's commit: %d %s", got.Status, got.Body)
	}
	call(ann, "GET", "/portal/1/1/open", "", "")
	if got := languages(call(ann, "GET", "/settings/1/1", "", "").Body); !slices.Contains(got, "de_DE") || !slices.Contains(got, "es_ES") {
		t.Fatalf("master must have both languages, has %v", got)
	}

	// Revert All: a save based on the discarded edit is stale too.
	before := call(ann, "GET", "/settings/1/1", "", "")
	edited := call(ann, "PUT", "/settings/1/1", before.Header.Get("ETag"), withLanguage(before.Body, "it_IT"))
	if edited.Status != 200 {
		t.Fatalf("edit: %d %s", edited.Status, edited.Body)
	}
	if got := call(ann, "POST", "/portal/1/1/revert", "", `{}`); got.Status >= 300 {
		t.Fatalf("revert all: %d %s", got.Status, got.Body)
	}
	if got := call(ann, "PUT", "/settings/1/1", edited.Header.Get("ETag"), withLanguage(edited.Body, "nl_NL")); got.Status != http.StatusConflict {
		t.Fatalf("save after revert: %d %s", got.Status, got.Body)
	}
	if got := call(ann, "GET", "/settings/1/1", "", ""); got.Header.Get("ETag") != before.Header.Get("ETag") || slices.Contains(languages(got.Body), "it_IT") {
		t.Fatalf("after revert: %s %v", got.Header.Get("ETag"), languages(got.Body))
	}
}
