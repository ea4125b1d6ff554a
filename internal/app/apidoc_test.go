package app

import (
	"context"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"

	"portalwright/internal/httpx"
)

// TestAPIDocListsEveryRoute keeps docs/api.md true: each registered route (the frame origin's
// too) must appear there as "| METHOD | /api/v1/pattern | access |". Run with -update-api-doc to print the table rows.
func TestAPIDocListsEveryRoute(t *testing.T) {
	cfg := testConfig(t)
	cfg.AdminPassword = "x-admin-pass"
	a, err := New(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	doc, err := os.ReadFile("../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for _, r := range append(a.HTTP.Routes, a.HTTP.Frame.Routes...) {
		row := "| " + r.Method + " | `" + r.Pattern + "` | " + AccessLabel(r.Access) + " |"
		if !strings.Contains(string(doc), row) {
			missing = append(missing, row)
		}
	}
	if len(missing) > 0 {
		t.Errorf("docs/api.md lacks these routes (or their access changed):\n%s", strings.Join(missing, "\n"))
	}
}

// AccessLabel is how docs/api.md writes an access rule.
func AccessLabel(a httpx.Access) string {
	switch a.Kind {
	case httpx.AccessPublic:
		return "public"
	case httpx.AccessAuthenticated:
		return "signed in"
	case httpx.AccessAdmin:
		return "admin"
	case httpx.AccessMember:
		return "member of `{" + a.DomainParam + "}`"
	case httpx.AccessReadToken:
		where := "`t`"
		switch {
		case a.TokenParam != "":
			where = "`{" + a.TokenParam + "}`"
		case a.TokenCookie != "":
			where = "cookie `" + a.TokenCookie + "`"
		}
		return "read token " + where + " (`" + a.Permission + "` in `{" + a.DomainParam + "}`)"
	default:
		return "`" + a.Permission + "` in `{" + a.DomainParam + "}`"
	}
}
