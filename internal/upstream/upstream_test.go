package upstream

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"portalwright/internal/workspace/hostsync"
)

func TestSealerBindsToPortalAndKey(t *testing.T) {
	key := make([]byte, KeySize)
	rand.Read(key)
	s, err := LoadKey("", base64.StdEncoding.EncodeToString(key))
	if err != nil || s == nil {
		t.Fatal(err)
	}
	sealed, err := s.Seal(7, []byte(`{"password":"hunter2"}`))
	if err != nil || !strings.HasPrefix(sealed, "v1:") || strings.Contains(sealed, "hunter2") {
		t.Fatalf("sealed %q, %v", sealed, err)
	}
	if plain, err := s.Open(7, sealed); err != nil || string(plain) != `{"password":"hunter2"}` {
		t.Fatalf("open: %q %v", plain, err)
	}
	if _, err := s.Open(8, sealed); err != ErrUnseal {
		t.Fatal("a value sealed for portal 7 opened for portal 8")
	}
	other := make([]byte, KeySize)
	rand.Read(other)
	s2, _ := NewSealer(other)
	if _, err := s2.Open(7, sealed); err != ErrUnseal {
		t.Fatal("opened with another key")
	}
	// The key file: base64 (as `head -c32 /dev/urandom | base64` writes it) or the raw bytes.
	dir := t.TempDir()
	b64 := filepath.Join(dir, "b64")
	os.WriteFile(b64, []byte(base64.StdEncoding.EncodeToString(key)+"\n"), 0o600)
	raw := filepath.Join(dir, "raw")
	os.WriteFile(raw, key, 0o600)
	for _, f := range []string{b64, raw} {
		k, err := LoadKey(f, "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := k.Open(7, sealed); err != nil {
			t.Fatalf("key from %s does not open: %v", f, err)
		}
	}
	short := filepath.Join(dir, "short")
	os.WriteFile(short, []byte("dG9vIHNob3J0"), 0o600)
	if _, err := LoadKey(short, ""); err == nil || !strings.Contains(err.Error(), "head -c32 /dev/urandom | base64") {
		t.Fatalf("a short key: %v", err)
	}
	if s, err := LoadKey("", ""); s != nil || err != nil {
		t.Fatal("no key configured must be nil, nil")
	}
}

func TestDeployKey(t *testing.T) {
	private, public, err := newDeployKey(42)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.ParsePrivateKey([]byte(private))
	if err != nil {
		t.Fatal(err)
	}
	pub, comment, _, _, err := ssh.ParseAuthorizedKey([]byte(public))
	if err != nil || comment != "portalwright-portal-42" || pub.Type() != ssh.KeyAlgoED25519 {
		t.Fatalf("public half %q: %v", public, err)
	}
	if string(pub.Marshal()) != string(signer.PublicKey().Marshal()) {
		t.Fatal("the public half is not the private key's")
	}
}

func TestWebhookSignature(t *testing.T) {
	body := []byte(`{"ref":"refs/heads/master"}`)
	m := hmac.New(sha256.New, []byte("s"))
	m.Write(body)
	sig := hex.EncodeToString(m.Sum(nil))
	for _, h := range []http.Header{{"X-Hub-Signature-256": {"sha256=" + sig}}, {"X-Gitea-Signature": {sig}}, {"X-Gitlab-Token": {"s"}}} {
		if !verify("s", body, h) {
			t.Errorf("refused %v", h)
		}
	}
	for _, h := range []http.Header{{}, {"X-Hub-Signature-256": {"sha256=" + sig[:10]}}, {"X-Gitlab-Token": {"t"}}, {"X-Hub-Signature-256": {"sha256=" + sig}}} {
		if verify("other", body, h) {
			t.Errorf("accepted %v", h)
		}
	}
}

func TestURLCredentials(t *testing.T) {
	for _, c := range []struct{ in, clean, user, pass string }{
		{"https://u:p%40ss@git.example.org/a/b.git", "https://git.example.org/a/b.git", "u", "p@ss"},
		{"http://token@git.example.org:8080/r", "http://git.example.org:8080/r", "token", ""},
		{"https://git.example.org/r.git", "https://git.example.org/r.git", "", ""},
		{"ssh://git:pw@git.example.org/r.git", "ssh://git@git.example.org/r.git", "", "pw"},
		{"git@git.example.org:org/r.git", "git@git.example.org:org/r.git", "", ""},
	} {
		clean, user, pass := hostsync.SplitURLCredentials(c.in)
		if clean != c.clean || user != c.user || pass != c.pass {
			t.Errorf("%s → %q %q %q", c.in, clean, user, pass)
		}
	}
	for url, want := range map[string]bool{"git@h:r": true, "ssh://h/r": true, "https://h/r": false, "git://h/r": false} {
		if isSSHURL(url) != want {
			t.Errorf("isSSHURL(%s) != %v", url, want)
		}
	}
}
