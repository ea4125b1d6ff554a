package preview

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"portalwright/internal/store"
	"portalwright/internal/store/storetest"
)

// A ticket opens the frame once: a second use, an unknown or an expired ticket is a 401, on
// either database (another instance redeems what this one issued).
func TestTicketsAreSingleUse(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Now().UTC()
		if _, err := db.ExecContext(ctx, `INSERT INTO users (id, username, username_key, password_hash, created_at, updated_at)
			VALUES (7, 'u7', 'u7', 'x', ?, ?) ON CONFLICT (id) DO NOTHING`, now, now); err != nil {
			t.Fatal(err)
		}
		issuer, other := NewTickets(db), NewTickets(db)
		ticket, err := issuer.Issue(ctx, 7, 1, 2)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(ticket, ticketPrefix) || len(ticket) < 40 {
			t.Fatalf("ticket %q", ticket)
		}
		c, err := other.Redeem(ctx, ticket)
		if err != nil || c.UserID != 7 || c.DomainID != 1 || c.PortalID != 2 {
			t.Fatalf("redeem: %+v %v", c, err)
		}
		for name, tk := range map[string]string{"used": ticket, "unknown": ticketPrefix + "nope", "empty": ""} {
			if _, err := other.Redeem(ctx, tk); err == nil || !strings.Contains(err.Error(), "INVALID_FRAME_TICKET") {
				t.Errorf("%s ticket: %v", name, err)
			}
		}
		late, _ := issuer.Issue(ctx, 7, 1, 2)
		other.now = func() time.Time { return now.Add(TicketTTL + time.Second) }
		if _, err := other.Redeem(ctx, late); err == nil {
			t.Error("an expired ticket was redeemed")
		}
	})
}

// The whitelist's URLs enter the policy as origins, and nothing else of them: an entry that
// would add a directive or a keyword is left out.
func TestWhitelistSources(t *testing.T) {
	raw := `{"whitelist":[{"url":"https://cdn.example.com/lib/a.js"},{"url":"https://CDN.example.com/other"},
		{"url":"http://[::1]:8081/x"},{"url":"https://evil.example;script-src *"},{"url":"https://x.example 'unsafe-inline'"},
		{"url":"javascript:alert(1)"},{"url":"data:text/html,hi"},{"url":"https://user:pw@host.example/"},{"url":"//proto.example/a"}]}`
	got := strings.Join(whitelistSources([]byte(raw)), " ")
	if got != "https://cdn.example.com http://[::1]:8081 https://host.example https://proto.example" {
		t.Errorf("sources: %q", got)
	}
	if whitelistSources([]byte("not json")) != nil {
		t.Error("a broken whitelist gives sources")
	}
	// A long whitelist is cut (the headers name it four times; proxies refuse huge headers).
	var b strings.Builder
	b.WriteString(`{"whitelist":[`)
	for i := range 200 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"url":"https://host-` + strings.Repeat("x", 20) + string(rune('a'+i%26)) + itoa3(i) + `.example"}`)
	}
	b.WriteString(`]}`)
	if n := len(strings.Join(whitelistSources([]byte(b.String())), " ")); n > maxWhitelistChars {
		t.Errorf("whitelist sources: %d characters", n)
	}
}

func itoa3(i int) string {
	return string([]byte{byte('0' + i/100%10), byte('0' + i/10%10), byte('0' + i%10)})
}

// The frame origin's own name and who may frame it come from the request only when they are
// plain hosts: a Host header cannot write the policy.
func TestFrameOriginSources(t *testing.T) {
	o := &FrameOrigin{AppURL: "https://portal.example.com", Port: func() int { return 8081 }}
	r := httptest.NewRequest("GET", "http://portal.example.com:8080/api/v1/workspace/1/1/token", nil)
	if got := o.For(r); got != "http://portal.example.com:8081" {
		t.Errorf("For: %q", got)
	}
	r = httptest.NewRequest("GET", "http://frames.example.com:8081/", nil)
	if o.self(r) != "http://frames.example.com:8081" || o.ancestors(r) != "https://portal.example.com http://frames.example.com:*" {
		t.Errorf("self %q ancestors %q", o.self(r), o.ancestors(r))
	}
	r.Host = "evil.example; script-src *"
	if o.self(r) != "'none'" || o.ancestors(r) != "https://portal.example.com" {
		t.Errorf("a hostile Host: self %q ancestors %q", o.self(r), o.ancestors(r))
	}
	if (&FrameOrigin{}).For(r) != "" || (*FrameOrigin)(nil).For(r) != "" {
		t.Error("no frame origin without a listener")
	}
	configured := &FrameOrigin{URL: "https://frames.example.com/", Port: func() int { return 8081 }}
	if configured.For(r) != "https://frames.example.com" || configured.self(r) != "https://frames.example.com" {
		t.Errorf("configured: %q %q", configured.For(r), configured.self(r))
	}
}
