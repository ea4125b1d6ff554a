package gitssh

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseCommand(t *testing.T) {
	good := map[string]Request{
		"git-upload-pack '/1/2.git'":    {UploadPack, 1, 2},
		"git-receive-pack '/12/34.git'": {ReceivePack, 12, 34},
		"git-upload-pack '1/2.git'":     {UploadPack, 1, 2}, // scp-like URL: no leading slash
		"git-upload-pack '/1/2'":        {UploadPack, 1, 2},
	}
	for cmd, want := range good {
		got, err := ParseCommand(cmd)
		if err != nil || got != want {
			t.Errorf("%q: %+v %v, want %+v", cmd, got, err, want)
		}
	}
	bad := []string{
		"", "ls", "sh -c 'ls'", "git-upload-archive '/1/2.git'", "git upload-pack '/1/2.git'",
		"git-upload-pack /1/2.git", "git-upload-pack '/1/2.git' ; ls", "git-upload-pack '/1/2.git''",
		"git-upload-pack '/1/2.git' '/3/4.git'", "git-upload-pack '/../1/2.git'", "git-upload-pack '/1/../2.git'",
		"git-upload-pack '/01/2.git'", "git-upload-pack '/0/2.git'", "git-upload-pack '/-1/2.git'",
		"git-upload-pack '/1/2.git/'", "git-upload-pack '~/1/2.git'", "git-upload-pack '/1/2.git\n'",
		"git-upload-pack '/1/2.git\x00'", "git-upload-pack '/a/b.git'", "git-upload-pack '/1/2/3.git'",
		"git-upload-pack '/1/99999999999999999999.git'", "git-upload-pack '--upload-pack=x'",
		"git-upload-pack  '/1/2.git'", "git-receive-pack '/1/2.git' --help",
	}
	for _, cmd := range bad {
		if got, err := ParseCommand(cmd); err == nil {
			t.Errorf("%q accepted as %+v", cmd, got)
		}
	}
}

func pkt(s string) string { return fmt.Sprintf("%04x%s", len(s)+4, s) }

const (
	zero = "0000000000000000000000000000000000000000"
	oidA = "1111111111111111111111111111111111111111"
	oidB = "2222222222222222222222222222222222222222"
)

func TestGatePush(t *testing.T) {
	verdict := filepath.Join(t.TempDir(), "verdict")
	commands := pkt("shallow "+oidA+"\n") + pkt(oidA+" "+oidB+" refs/heads/master\x00report-status side-band-64k\n") +
		pkt(zero+" "+oidB+" refs/heads/feature\n") + "0000"
	stream := commands + "PACK…the rest of the stream"
	var got []update
	var out bytes.Buffer
	gatePush(strings.NewReader(stream), &out, verdict, func(u []update) []string { got = u; return nil })
	if out.String() != stream {
		t.Fatalf("passed on %q", out.String())
	}
	if v, _ := os.ReadFile(verdict); string(v) != "ok" {
		t.Fatalf("verdict %q", v)
	}
	if len(got) != 2 || got[0] != (update{oidA, oidB, "refs/heads/master"}) || got[1].Ref != "refs/heads/feature" {
		t.Fatalf("updates %+v", got)
	}

	// A refusal is the verdict; the stream still goes on (git reports it to the client).
	out.Reset()
	gatePush(strings.NewReader(stream), &out, verdict, func([]update) []string { return []string{"no", "never"} })
	if v, _ := os.ReadFile(verdict); string(v) != "no\nnever" || out.String() != stream {
		t.Fatalf("verdict %q, passed on %q", v, out.String())
	}

	// Malformed lists are refused and not passed on.
	for _, s := range []string{"", "00", "zzzz", "0003", pkt("not a command\n") + "0000", pkt(oidA+" "+oidB+"\n") + "0000",
		pkt("push-cert\x00caps\n") + "0000", pkt(oidA + " " + oidB + " refs/heads/x\n")} {
		out.Reset()
		gatePush(strings.NewReader(s), &out, verdict, func([]update) []string { return nil })
		if v, _ := os.ReadFile(verdict); string(v) == "ok" || out.Len() != 0 {
			t.Fatalf("%q: verdict %q, passed on %q", s, v, out.String())
		}
	}
}

func TestCheckUpdates(t *testing.T) {
	cases := []struct {
		u         update
		canCreate bool
		refused   string
	}{
		{update{oidA, oidB, "refs/heads/master"}, false, ""},
		{update{oidA, oidB, "refs/heads/release/2.0"}, false, ""},
		{update{zero, oidB, "refs/heads/feature"}, true, ""},
		{update{zero, oidB, "refs/heads/feature"}, false, "branch:c"},
		{update{oidA, zero, "refs/heads/master"}, true, "delete"},
		{update{zero, oidB, "refs/tags/v1"}, true, "only branches"},
		{update{zero, oidB, "refs/portalwright/x"}, true, "only branches"},
		{update{zero, oidB, "HEAD"}, true, "only branches"},
		{update{zero, oidB, "refs/heads/_x"}, true, "Alphanumeric"},
		{update{zero, oidB, "refs/heads/a..b"}, true, "Alphanumeric"},
		{update{zero, oidB, "refs/heads/a/.b"}, true, "Alphanumeric"},
		{update{zero, oidB, "refs/heads/x.lock"}, true, "Alphanumeric"},
		{update{zero, oidB, "refs/heads/origin/x"}, true, "Alphanumeric"},
		{update{zero, oidB, "refs/heads/HEAD"}, true, "Alphanumeric"},
		{update{zero, oidB, "refs/heads/a b"}, true, "Alphanumeric"},
	}
	for _, c := range cases {
		p := checkUpdates([]update{c.u}, c.canCreate)
		switch {
		case c.refused == "" && len(p) > 0:
			t.Errorf("%+v refused: %v", c.u, p)
		case c.refused != "" && (len(p) != 1 || !strings.Contains(p[0], c.refused)):
			t.Errorf("%+v: %v, want a refusal with %q", c.u, p, c.refused)
		}
	}
}

func TestHostKeyMadeOnceAndKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys", "ssh_host_ed25519_key")
	k1, err := LoadOrCreateHostKey(path)
	if err != nil {
		t.Fatal(err)
	}
	k2, err := LoadOrCreateHostKey(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(k1.PublicKey().Marshal(), k2.PublicKey().Marshal()) || k1.PublicKey().Type() != "ssh-ed25519" {
		t.Fatal("the host key changed between starts")
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v %v", st.Mode(), err)
	}
	if err := os.WriteFile(path, []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOrCreateHostKey(path); err == nil {
		t.Fatal("a broken host key file was replaced silently")
	}
}
