package hostsync

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"portalwright/internal/gitcli"
	"portalwright/internal/workspace"
)

// TestUpstreamSSHKeyIsATemporaryFile: a deploy key reaches ssh only as a 0600 file named in
// GIT_SSH_COMMAND (IdentitiesOnly, accept-new, the portal's own known_hosts), removed when
// git ends; the host keys ssh wrote are handed back; a refused key is workspace.RemoteAuth. A fake ssh
// on PATH stands in for the network.
func TestUpstreamSSHKeyIsATemporaryFile(t *testing.T) {
	bin := t.TempDir()
	log := filepath.Join(t.TempDir(), "ssh.log")
	fake := `#!/bin/sh
key=""
hosts=""
prev=""
for a in "$@"; do
  case "$prev" in -i) key="$a";; esac
  case "$a" in UserKnownHostsFile=*) hosts="${a#UserKnownHostsFile=}";; esac
  prev="$a"
done
{ echo "args: $*"; echo "mode: $(stat -c %a "$key")"; echo "key: $(cat "$key")"; echo "key-path: $key"; echo "hosts-before: $(cat "$hosts")"; } >> ` + log + `
echo "git.example.org ssh-ed25519 AAAAnew" >> "$hosts"
echo "git@git.example.org: Permission denied (publickey)." >&2
exit 255
`
	if err := os.WriteFile(filepath.Join(bin, "ssh"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	ctx := context.Background()
	g, err := gitcli.New(ctx, gitcli.Options{Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	r := workspace.NewRepos(g, gitcli.NewLocks(), root).AllowPrivateGitHosts(true)
	if _, err := r.Core().Run(ctx, "", gitcli.Command("init", "-q", "--bare").Value(r.Core().Bare(1))); err != nil {
		t.Fatal(err)
	}
	hosts := "git.example.org ssh-ed25519 AAAAold\n"
	up := Upstream{URL: "ssh://git@git.example.org/crew/portal.git", Creds: &workspace.Credentials{SSHKey: []byte("PRIVATE-KEY-MATERIAL\n")}}
	err = New(r).FetchUpstream(ctx, 1, up, &hosts, 10*time.Second)
	var re *workspace.RemoteError
	if !errors.As(err, &re) || re.Failure != workspace.RemoteAuth {
		t.Fatalf("fetch with a refused key = %v, want workspace.RemoteAuth", err)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	out := string(data)
	for _, want := range []string{"-o IdentitiesOnly=yes", "-o StrictHostKeyChecking=accept-new", "-o BatchMode=yes", "mode: 600", "key: PRIVATE-KEY-MATERIAL", "hosts-before: git.example.org ssh-ed25519 AAAAold"} {
		if !strings.Contains(out, want) {
			t.Errorf("ssh did not get %q:\n%s", want, out)
		}
	}
	keyPath := strings.TrimSpace(out[strings.Index(out, "key-path: ")+len("key-path: "):])
	keyPath = strings.SplitN(keyPath, "\n", 2)[0]
	if _, err := os.Stat(keyPath); !os.IsNotExist(err) {
		t.Errorf("the key file %s is still there: %v", keyPath, err)
	}
	if !strings.Contains(hosts, "AAAAnew") {
		t.Errorf("the host key ssh learnt was not handed back: %q", hosts)
	}
	if cfg, _ := r.Core().Run(ctx, r.Core().Bare(1), gitcli.Command("config", "--list")); strings.Contains(cfg, "git.example.org") || strings.Contains(cfg, "PRIVATE") {
		t.Errorf("the upstream is in the git configuration:\n%s", cfg)
	}
	left, _ := filepath.Glob(filepath.Join(root, ".stage-ssh-*"))
	if len(left) != 0 {
		t.Errorf("temporary folders left: %v", left)
	}
}
