package app

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"portalwright/internal/caller"
	"portalwright/internal/identity"
	"portalwright/internal/testkit"
)

type wlAnswer struct {
	Whitelist []struct {
		URL string `json:"url"`
	} `json:"whitelist"`
	Version string `json:"version"`
}

type wlCheck struct {
	URLs []struct {
		URL     string `json:"url"`
		Allowed bool   `json:"allowed"`
		UsedIn  []struct {
			Path string `json:"path"`
			Line int    `json:"line"`
		} `json:"usedIn"`
	} `json:"urls"`
	NotAllowed int  `json:"notAllowed"`
	Scanned    int  `json:"scanned"`
	Truncated  bool `json:"truncated"`
}

func wlBody(version string, urls ...string) string {
	entries := make([]map[string]string, len(urls))
	for i, u := range urls {
		entries[i] = map[string]string{"url": u}
	}
	b, _ := json.Marshal(map[string]any{"whitelist": entries, "baseVersion": version})
	return string(b)
}

// TestWhitelist walks issue 14's whitelist over HTTP on the demo Crew Portal (portal 1 of
// domain 1): get (empty) → save → get; check-portal finds a URL written into a page as not
// allowed, then allowed once whitelisted; a stale baseVersion is a 409, a bad URL a 400 that
// changes nothing, and the permissions hold (whitelist:r to read and check, whitelist:w to save).
func TestWhitelist(t *testing.T) {
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	ctx := context.Background()
	root := caller.Caller{UserID: 1, Username: "admin", Admin: true}
	groups := map[string][]string{"WLReaders": {"portal:r", "whitelist:r"}, "NoWL": {"portal:r"}}
	for name, perms := range groups {
		if _, err := srv.app.Access.Grants().CreateGroup(ctx, root, 1, name, perms); err != nil {
			t.Fatal(err)
		}
	}
	for name, group := range map[string]string{"reader": "WLReaders", "nowl": "NoWL"} {
		u, err := srv.app.Identity.CreateUser(ctx, identity.NewUser{UserName: name, Password: name + "-pass-1"})
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.app.Access.Grants().AssignRole(ctx, root, u.ID, 1, group); err != nil {
			t.Fatal(err)
		}
	}
	admin := testkit.SignIn(t, srv.base, "admin", "admin-pass")
	reader := testkit.SignIn(t, srv.base, "reader", "reader-pass-1")
	nowl := testkit.SignIn(t, srv.base, "nowl", "nowl-pass-1")
	for _, c := range []*testkit.Client{admin, reader, nowl} {
		if r := c.Do("GET", "/portal/1/1/open", ""); r.Status != 200 {
			t.Fatalf("open: %d %s", r.Status, r.Body)
		}
	}
	const p = "/whitelist/1/1"
	get := func(c *testkit.Client) wlAnswer {
		t.Helper()
		r := c.Do("GET", p+"/get-whitelist", "")
		if r.Status != 200 {
			t.Fatalf("get: %d %s", r.Status, r.Body)
		}
		var a wlAnswer
		r.JSON(t, &a)
		return a
	}
	check := func() wlCheck {
		t.Helper()
		r := admin.Do("GET", p+"/check-portal", "")
		if r.Status != 200 {
			t.Fatalf("check: %d %s", r.Status, r.Body)
		}
		var c wlCheck
		r.JSON(t, &c)
		return c
	}

	// Empty at first: no whitelist.json, version "0".
	first := get(admin)
	if len(first.Whitelist) != 0 || first.Version != "0" || !strings.Contains(admin.Do("GET", p+"/get-whitelist", "").Body, `"whitelist":[]`) {
		t.Fatalf("first get: %+v", first)
	}

	// A page with an external URL, a file in the task runner's output folder (not scanned).
	const cdn = "https://cdn.wl-test.example.com/lib/widget.js"
	putWorkspaceFile(t, cfg.DataDir, 1, 1, "pages/wl-test.html", []byte("<div>\n<p>x</p>\n<script src=\""+cdn+"\"></script>\n<img src=\"https://placehold.it/10\">\n<link href=\"//fonts.wl-test.example.net/f.css\">\n</div>\n"))
	putWorkspaceFile(t, cfg.DataDir, 1, 1, "pw-dist/built.html", []byte(`<img src="https://built.example.com/x.png">`))
	c := check()
	var found bool
	for _, u := range c.URLs {
		if strings.Contains(u.URL, "built.example.com") || strings.Contains(u.URL, "placehold") {
			t.Fatalf("listed %s", u.URL)
		}
		if u.URL == cdn {
			found = true
			if u.Allowed || len(u.UsedIn) != 1 || u.UsedIn[0].Path != "pages/wl-test.html" || u.UsedIn[0].Line != 3 {
				t.Fatalf("cdn: %+v", u)
			}
		}
	}
	if !found || c.NotAllowed != len(c.URLs) || c.Scanned < 5 {
		t.Fatalf("check: %+v", c)
	}

	// Save (the origin of the page's URL and the handbook), then get returns it.
	r := admin.Do("PUT", p+"/save-whitelist", wlBody(first.Version, " https://cdn.wl-test.example.com ", "https://example.org/crew-handbook/", "https://cdn.wl-test.example.com"))
	if r.Status != 200 {
		t.Fatalf("save: %d %s", r.Status, r.Body)
	}
	var saved wlAnswer
	r.JSON(t, &saved)
	if len(saved.Whitelist) != 2 || saved.Whitelist[0].URL != "https://cdn.wl-test.example.com" || saved.Version == "0" {
		t.Fatalf("saved: %+v", saved)
	}
	if again := get(admin); again.Version != saved.Version || len(again.Whitelist) != 2 {
		t.Fatalf("get after save: %+v", again)
	}
	// It is a local change of the workspace, versioned with the branch.
	if r := admin.Do("GET", "/portal/1/1/local-changes", ""); !strings.Contains(r.Body, `"whitelist.json":"ADD"`) {
		t.Fatalf("local changes: %s", r.Body)
	}
	c = check()
	if c.NotAllowed == len(c.URLs) || c.NotAllowed == 0 {
		t.Fatalf("after save, some allowed and some not: %+v", c)
	}
	for i, u := range c.URLs {
		if i > 0 && c.URLs[i-1].Allowed && !u.Allowed {
			t.Fatalf("not-allowed URLs must come first: %+v", c.URLs)
		}
		if (u.URL == cdn || strings.HasPrefix(u.URL, "https://example.org/crew-handbook/")) != u.Allowed {
			t.Fatalf("after save: %+v", u)
		}
	}

	// A stale baseVersion is a 409 with the current version; nothing changes.
	r = admin.Do("PUT", p+"/save-whitelist", wlBody(first.Version, "https://other.example.com"))
	if r.Status != 409 || r.Code != "FILE_CHANGED" || !strings.Contains(r.Body, `"currentVersion":"`+saved.Version+`"`) {
		t.Fatalf("stale: %d %s", r.Status, r.Body)
	}
	// A bad URL is a 400 with the spec's message; nothing changes.
	r = admin.Do("PUT", p+"/save-whitelist", wlBody(saved.Version, "https://ok.example.com", "ftp://bad.example.com"))
	if r.Status != 400 || r.Message != "Please make sure the URL is valid and starts with http:// or https://" {
		t.Fatalf("bad url: %d %s", r.Status, r.Body)
	}
	// No baseVersion: 428.
	if r := admin.Do("PUT", p+"/save-whitelist", `{"whitelist":[]}`); r.Status != 428 {
		t.Fatalf("no version: %d %s", r.Status, r.Body)
	}
	if now := get(admin); now.Version != saved.Version || len(now.Whitelist) != 2 {
		t.Fatalf("changed by refused saves: %+v", now)
	}

	// Permissions: whitelist:r reads and checks its own workspace (branch-versioned: the
	// admin's unsaved-to-branch whitelist is not theirs) but cannot save; without it, 403.
	if w := get(reader); len(w.Whitelist) != 0 {
		t.Fatalf("reader sees another workspace: %+v", w)
	}
	if r := reader.Do("GET", p+"/check-portal", ""); r.Status != 200 {
		t.Fatalf("reader check: %d %s", r.Status, r.Body)
	}
	if r := reader.Do("PUT", p+"/save-whitelist", wlBody("0", "https://x.example.com")); r.Status != 403 {
		t.Fatalf("reader save: %d %s", r.Status, r.Body)
	}
	for _, path := range []string{"/get-whitelist", "/check-portal"} {
		if r := nowl.Do("GET", p+path, ""); r.Status != 403 {
			t.Fatalf("no whitelist:r %s: %d %s", path, r.Status, r.Body)
		}
	}
	// A broken whitelist.json: get says so (422), a save based on its version replaces it.
	putWorkspaceFile(t, cfg.DataDir, 1, 1, "whitelist.json", []byte("not json"))
	r = admin.Do("GET", p+"/get-whitelist", "")
	var broken struct {
		Data struct {
			CurrentVersion string `json:"currentVersion"`
		} `json:"data"`
	}
	r.JSON(t, &broken)
	if r.Status != 422 || broken.Data.CurrentVersion == "" {
		t.Fatalf("broken: %d %s", r.Status, r.Body)
	}
	if r := admin.Do("PUT", p+"/save-whitelist", wlBody(broken.Data.CurrentVersion, "https://fixed.example.com")); r.Status != 200 {
		t.Fatalf("fix: %d %s", r.Status, r.Body)
	}
}
