package workspace

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/cgi"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"portalwright/internal/gitcli"
)

func TestParseRemote(t *testing.T) {
	for url, want := range map[string]remoteTarget{
		"https://git.example.com/team/portal.git":             {"https", "git.example.com", "443"},
		"https://user:p%40ss@Git.Example.com:8443/portal.git": {"https", "git.example.com", "8443"},
		"http://10.0.0.1/portal.git":                          {"http", "10.0.0.1", "80"},
		"git://127.0.0.1:9418/portal.git":                     {"git", "127.0.0.1", "9418"},
		"ssh://git@git.example.com:2222/team/portal.git":      {"ssh", "git.example.com", "2222"},
		"git+ssh://git@example.com/portal.git":                {"ssh", "example.com", "22"},
		"http://[::1]:8080/portal.git":                        {"http", "::1", "8080"},
		"ssh://[fd00::1]/portal.git":                          {"ssh", "fd00::1", "22"},
		"git@github.com:team/portal.git":                      {"ssh", "github.com", "22"},
		"git@[::1]:portal.git":                                {"ssh", "::1", "22"},
		"deploy@192.168.1.10:portal.git":                      {"ssh", "192.168.1.10", "22"},
		"https://git.example.com":                             {"https", "git.example.com", "443"},
		"https://localhost./portal.git":                       {"https", "localhost.", "443"},
		"https://a@b.example.com/x@y.git":                     {"https", "b.example.com", "443"},
		"git@git.example.com:/srv/git/portal.git":             {"ssh", "git.example.com", "22"},
	} {
		got, err := parseRemote(url)
		if err != nil || got != want {
			t.Errorf("parseRemote(%q) = %+v, %v; want %+v", url, got, err, want)
		}
	}
	// Forms where parsers could disagree about the host, and non-remote forms, are refused.
	for _, url := range []string{
		"https://evil.example.com#@127.0.0.1/x.git",
		"https://127.0.0.1#@evil.example.com/x.git",
		"https://127.0.0.1?@evil.example.com/x.git",
		"https://a@127.0.0.1@evil.example.com/x.git",
		"https://evil.example.com\\@127.0.0.1/x.git",
		"https://127%2e0%2e0%2e1/x.git",
		"https://exa mple.com/x.git",
		"https://example.com\t/x.git",
		"ssh://-oProxyCommand=touch%20x/x.git",
		"ssh://-oProxyCommand/x.git",
		"https://[fe80::1%25eth0]/x.git",
		"https://[127.0.0.1]/x.git",
		"https://::1/x.git",
		"https://example.com:0/x.git",
		"https://example.com:99999/x.git",
		"https://example.com:+80/x.git",
		"https:///x.git",
		"file:///srv/portal.git",
		"ext::sh -c touch% /tmp/pwned",
		"/srv/portal.git",
		"./portal.git",
		"portal.git",
		"dir/sub:portal.git",
		"[example.com]:portal.git",
		"git@[::1]portal.git",
	} {
		if got, err := parseRemote(url); !errors.Is(err, ErrRemoteRefused) {
			t.Errorf("parseRemote(%q) = %+v, %v; want a refusal", url, got, err)
		}
	}
}

func TestPublicAddr(t *testing.T) {
	for _, s := range []string{
		"127.0.0.1", "127.1.2.3", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "100.64.0.1", "100.127.255.254",
		"169.254.169.254", "0.0.0.0", "0.1.2.3", "224.0.0.1", "239.255.255.250", "255.255.255.255", "240.0.0.1", "192.0.2.1",
		"198.18.0.1", "::1", "::", "fc00::1", "fd12:3456::1", "fe80::1", "fe80::1%eth0", "ff02::1", "ff05::2", "fec0::1",
		"::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::127.0.0.1", "64:ff9b::7f00:1", "64:ff9b::a00:1",
		"2001:db8::1", "100::1",
	} {
		if publicAddr(netip.MustParseAddr(s)) {
			t.Errorf("%s counted as public", s)
		}
	}
	for _, s := range []string{"8.8.8.8", "140.82.112.3", "1.1.1.1", "100.63.255.255", "100.128.0.1", "172.32.0.1", "2606:4700::1111",
		"2a00:1450:4001:80b::200e", "::ffff:8.8.8.8", "64:ff9b::808:808"} {
		if !publicAddr(netip.MustParseAddr(s)) {
			t.Errorf("%s counted as non-public", s)
		}
	}
}

// serveDaemon serves the repositories in dir with a real git daemon on 127.0.0.1 (flags: more
// of git daemon's, e.g. --enable=receive-pack).
func serveDaemon(t *testing.T, dir string, flags ...string) string {
	t.Helper()
	port := freePort(t)
	args := append([]string{"daemon", "--reuseaddr", "--export-all", "--listen=127.0.0.1", "--port=" + port, "--base-path=" + dir}, flags...)
	daemon := exec.Command("git", append(args, dir)...)
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { daemon.Process.Kill(); daemon.Wait() })
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if c, err := net.DialTimeout("tcp", "127.0.0.1:"+port, time.Second); err == nil {
			c.Close()
			break
		}
	}
	return port
}

// servedRepo makes dir/portal.git with two branches.
func servedRepo(t *testing.T, r *Repos, dir string) {
	t.Helper()
	ctx := context.Background()
	if err := r.Core().CreateFromFiles(ctx, 99, starter(), "Upstream", SystemAuthor); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "portal.git")
	if err := os.Rename(r.bare(99), src); err != nil {
		t.Fatal(err)
	}
	if _, err := r.git.Run(ctx, src, gitcli.Command("branch").Value("release/1.0")); err != nil {
		t.Fatal(err)
	}
}

// Git URLs to loopback, to private addresses and to names that resolve to loopback are
// refused before git runs, and leave nothing behind; with private hosts allowed, the same
// loopback server imports.
func TestRemoteHostPolicy(t *testing.T) {
	ctx := context.Background()
	g, err := gitcli.New(ctx, gitcli.Options{Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	r := NewRepos(g, gitcli.NewLocks(), root) // the default: the policy is on
	served := t.TempDir()
	servedRepo(t, r, served)
	port := serveDaemon(t, served)

	loopback := "git://127.0.0.1:" + port + "/portal.git"
	byName := "git://localhost:" + port + "/portal.git"
	for url, reason := range map[string]RemoteRefusal{
		loopback:                                   RefusedPrivateAddress,
		byName:                                     RefusedPrivateAddress,
		"https://10.1.2.3/team/portal.git":         RefusedPrivateAddress,
		"https://192.168.0.10:8443/portal.git":     RefusedPrivateAddress,
		"http://169.254.169.254/latest/x.git":      RefusedPrivateAddress,
		"http://100.64.1.1/x.git":                  RefusedPrivateAddress,
		"http://[::1]:" + port + "/portal.git":     RefusedPrivateAddress,
		"http://[::ffff:127.0.0.1]/portal.git":     RefusedPrivateAddress,
		"http://[fd00::1]/portal.git":              RefusedPrivateAddress,
		"http://0.0.0.0:" + port + "/portal.git":   RefusedPrivateAddress,
		"ssh://git@localhost/portal.git":           RefusedPrivateAddress,
		"git@127.0.0.1:portal.git":                 RefusedPrivateAddress,
		"git@localhost:portal.git":                 RefusedPrivateAddress,
		"http://2130706433/portal.git":             RefusedBadHost,
		"http://127.1/portal.git":                  RefusedBadHost,
		"http://0x7f.0.0.1/portal.git":             RefusedBadHost,
		"http://0177.0.0.1/portal.git":             RefusedBadHost,
		"https://no-such-host.invalid/portal.git":  RefusedHostNotFound,
		"https://127.0.0.1#@example.com/portal.gi": RefusedBadHost,
	} {
		var refused *RemoteRefusedError
		if err := r.Core().CheckRemote(ctx, url); !errors.As(err, &refused) || refused.Reason != reason {
			t.Errorf("CheckRemote(%s) = %v, want reason %d", url, err, reason)
		}
		if _, err := r.Core().RemoteBranches(ctx, url, nil); !errors.Is(err, ErrRemoteRefused) {
			t.Errorf("RemoteBranches(%s) = %v, want a refusal", url, err)
		}
		st, err := r.Core().StageURL(ctx, url, &Credentials{Username: "u", Password: "p"})
		if !errors.Is(err, ErrRemoteRefused) {
			t.Errorf("StageURL(%s) = %v, want a refusal", url, err)
		}
		if st != nil {
			st.Discard()
		}
	}
	if err := r.Core().ImportURL(ctx, 1, loopback, nil); !errors.Is(err, ErrRemoteRefused) {
		t.Fatalf("ImportURL(loopback) = %v", err)
	}
	// Nothing was staged or installed (repos/ is left empty by servedRepo).
	var left []string
	filepath.WalkDir(root, func(p string, _ os.DirEntry, _ error) error {
		if p != root && p != filepath.Join(root, "repos") {
			left = append(left, p)
		}
		return nil
	})
	if len(left) != 0 {
		t.Fatalf("refused imports left %v in the data dir", left)
	}

	// The operator's switch: the same URLs work.
	r.AllowPrivateGitHosts(true)
	for _, url := range []string{loopback, byName} {
		branches, err := r.Core().RemoteBranches(ctx, url, nil)
		if err != nil || strings.Join(branches, ",") != "master,release/1.0" {
			t.Fatalf("allowed RemoteBranches(%s) = %v %v", url, branches, err)
		}
	}
	if err := r.Core().ImportURL(ctx, 1, loopback, nil); err != nil {
		t.Fatalf("allowed import from 127.0.0.1: %v", err)
	}
	if err := r.Core().ImportURL(ctx, 2, byName, nil); err != nil {
		t.Fatalf("allowed import from localhost: %v", err)
	}
	if err := r.Core().CheckRemote(ctx, "https://10.1.2.3/team/portal.git"); err != nil {
		t.Fatalf("allowed private literal: %v", err)
	}
	// The protocol allow-list still holds with private hosts allowed.
	if _, err := r.Core().RemoteBranches(ctx, "file://"+filepath.Join(served, "portal.git"), nil); err == nil {
		t.Fatal("file:// must stay refused")
	}
}

// For http(s), git connects to the addresses the policy checked (http.curloptResolve) rather
// than resolving the name again, and does not follow redirects: a real git HTTP server on
// 127.0.0.1 is reached under a name that does not resolve at all, and a redirect is refused.
func TestPinnedAddressAndNoRedirects(t *testing.T) {
	ctx := context.Background()
	r := newRepos(t)
	if !r.gitHasCurlResolve() {
		t.Skipf("git %s has no http.curloptResolve", r.git.Version())
	}
	served := t.TempDir()
	servedRepo(t, r, served)
	execPath, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Fatal(err)
	}
	backend := &cgi.Handler{Path: filepath.Join(strings.TrimSpace(string(execPath)), "git-http-backend"),
		Env: []string{"GIT_PROJECT_ROOT=" + served, "GIT_HTTP_EXPORT_ALL=1"}}
	mux := http.NewServeMux()
	mux.Handle("/moved/", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		http.Redirect(w, req, strings.TrimPrefix(req.URL.RequestURI(), "/moved"), http.StatusFound)
	}))
	mux.Handle("/", backend)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	port := strings.TrimPrefix(ln.Addr().String(), "127.0.0.1:")

	lsRemote := func(url string, creds *Credentials) (string, error) {
		return r.run(ctx, "", remoteCmd(gitcli.Command("ls-remote", "--heads").Value(url), creds).Timeout(30*time.Second))
	}
	const name = "pinned.invalid" // .invalid never resolves (RFC 6761)
	pinned := &Credentials{access: &remoteAccess{noRedirects: true,
		resolve: curlResolve(name, port, []netip.Addr{netip.MustParseAddr("127.0.0.1")})}}
	out, err := lsRemote("http://"+name+":"+port+"/portal.git", pinned)
	if err != nil || !strings.Contains(out, "refs/heads/release/1.0") {
		t.Fatalf("pinned ls-remote: %q %v", out, err)
	}
	if _, err := lsRemote("http://"+name+":"+port+"/portal.git", nil); err == nil {
		t.Fatal("without the pin the name must not resolve")
	}
	moved := "http://127.0.0.1:" + port + "/moved/portal.git"
	if out, err := lsRemote(moved, nil); err != nil || !strings.Contains(out, "refs/heads/master") {
		t.Fatalf("git follows the redirect by default: %q %v", out, err)
	}
	if _, err := lsRemote(moved, &Credentials{access: &remoteAccess{noRedirects: true}}); err == nil {
		t.Fatal("a redirect must not be followed for a checked remote")
	}
	if got := curlResolve("h.example", "443", []netip.Addr{netip.MustParseAddr("2001:4860::1"), netip.MustParseAddr("8.8.8.8")}); got != "h.example:443:[2001:4860::1],8.8.8.8" {
		t.Fatalf("curlResolve = %q", got)
	}
	for v, want := range map[string]bool{"2.39.5": true, "2.37": true, "2.36.9": false, "3.0": true, "1.99": false, "": false} {
		if versionAtLeast(v, 2, 37) != want {
			t.Errorf("versionAtLeast(%q, 2.37) != %v", v, want)
		}
	}
}
