package appinfo

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"portalwright/internal/testkit"
	"strings"
	"testing"

	"portalwright/internal/httpx"
)

func serve(t *testing.T, h httpx.Routes, path string) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	testkit.Routes(h.Routes()).ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
	return w
}

func TestLookupEnums(t *testing.T) {
	h := NewLookupHandler(t.TempDir())
	want := map[string][]string{
		"PortalType":  {"CREW", "PASSENGER"},
		"ScopeType":   {"FULL", "MICROSITE", "CAPTIVE"},
		"PreviewType": {"PORTAL_LOCKED", "PORTAL_LIVE", "LOADABLE"},
		"PayloadType": {"PORTAL", "MICROSITE", "CAPTIVE", "MEDIA"},
	}
	for name, keys := range want {
		w := serve(t, h, "/lookup/"+name)
		if w.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", name, w.Code, w.Body)
		}
		var got []KeyValue
		if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(keys) {
			t.Fatalf("%s = %+v", name, got)
		}
		for i, k := range keys {
			if got[i].Key != k || got[i].Value == "" {
				t.Fatalf("%s = %+v, want keys %v", name, got, keys)
			}
		}
	}
	w := serve(t, h, "/lookup/NoSuchEnum")
	if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), "UNKNOWN_ENUM") {
		t.Fatalf("unknown enum: %d %s", w.Code, w.Body)
	}
}

func TestInfoMessage(t *testing.T) {
	dir := t.TempDir()
	h := NewLookupHandler(dir)
	get := func() InfoMessage {
		w := serve(t, h, "/config/infoMessage")
		if w.Code != http.StatusOK {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
		var m InfoMessage
		if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	if m := get(); m.Message != "" {
		t.Fatalf("no file: %+v", m)
	}
	if err := os.MkdirAll(filepath.Join(dir, "web-config"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "web-config", "info-message.txt")
	if err := os.WriteFile(file, []byte("  Maintenance on Sunday 02:00 UTC.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if m := get(); m.Message != "Maintenance on Sunday 02:00 UTC." {
		t.Fatalf("message = %q", m.Message)
	}
	if err := os.WriteFile(file, []byte(strings.Repeat("x", MaxInfoMessage*2)), 0o644); err != nil {
		t.Fatal(err)
	}
	if m := get(); len(m.Message) != MaxInfoMessage {
		t.Fatalf("long message: %d bytes", len(m.Message))
	}
}
