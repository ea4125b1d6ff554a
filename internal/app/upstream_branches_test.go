package app

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"portalwright/internal/caller"
	"portalwright/internal/config"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
)

// Issue 24 items 2 and 3 over HTTP, with the git host a real repository served by git daemon:
// it gains 2,000 branches and loses them again. The open that sees them and every upstream
// status answer without a git process per branch; workspaces do not grow; the deleted branches
// leave the portal except the one where the author has an unpushed commit, which stays as
// "deleted on the git host" until the author lets it go.
func TestUpstreamThousandsOfBranches(t *testing.T) { upstreamBranchesSuite(t, testConfig(t)) }

func TestUpstreamThousandsOfBranchesPostgres(t *testing.T) {
	cfg := testConfig(t)
	cfg.DatabaseURL = storetest.PostgresURL(t) // skips without TEST_DATABASE_URL
	upstreamBranchesSuite(t, cfg)
}

// hostBranchNames are the branches the host gains.
func hostBranchNames(prefix string, n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("%s-%04d", prefix, i)
	}
	return names
}

// hostRefs creates (sha set) or deletes (sha "") branches of a bare repository on the host in
// one `git update-ref --stdin`, as one push of many refs would.
func hostRefs(t testing.TB, bare string, names []string, sha string) {
	t.Helper()
	var b strings.Builder
	for _, n := range names {
		if sha == "" {
			fmt.Fprintf(&b, "delete refs/heads/%s\n", n)
		} else {
			fmt.Fprintf(&b, "create refs/heads/%s %s\n", n, sha)
		}
	}
	cmd := exec.Command("git", "update-ref", "--stdin")
	cmd.Dir = bare
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
	cmd.Stdin = strings.NewReader(b.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("update-ref on the host: %v\n%s", err, out)
	}
}

// pushBranch commits a file on a branch of the host, as someone there.
func pushBranch(t *testing.T, bare, branch, file, content, message string) {
	t.Helper()
	work := filepath.Join(t.TempDir(), "c")
	gitT(t, "", "clone", "-q", "--single-branch", "--branch", branch, bare, work)
	os.WriteFile(filepath.Join(work, file), []byte(content), 0o644)
	gitT(t, work, "commit", "-q", "-am", message)
	gitT(t, work, "push", "-q", "origin", branch)
}

// diskUsage is what a folder takes on disk (as du counts: allocated blocks).
func diskUsage(t testing.TB, dir string) int64 {
	t.Helper()
	var total int64
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if fi, err := e.Info(); err == nil {
			if st, ok := fi.Sys().(*syscall.Stat_t); ok {
				total += st.Blocks * 512
			}
		}
		return nil
	})
	return total
}

func upstreamBranchesSuite(t *testing.T, cfg config.Config) {
	cfg.AllowPrivateGitHosts = true
	cfg.AdminPassword = "admin-pass"
	cfg.UpstreamFetchTimeout = time.Minute
	srv := start(t, cfg)
	ctx := context.Background()
	dom, err := srv.app.Access.CreateDomain(ctx, caller.Caller{UserID: 1, Username: "admin", Admin: true}, "Many Branches")
	if err != nil {
		t.Fatal(err)
	}
	d := strconv.FormatInt(dom.ID, 10)
	admin := testkit.SignIn(t, srv.base, "admin", "admin-pass")
	hosts := t.TempDir()
	bare := newUpstreamRepo(t, hosts, "many.git")
	base, _ := startGitDaemon(t, hosts, 0)
	resp := admin.Do("POST", "/portal/create_url/"+d, `{"portal":{"name":"Many","url":"`+base+`/many.git"}}`)
	if resp.Status != http.StatusCreated {
		t.Fatalf("create from git://: %d %s", resp.Status, resp.Body)
	}
	var created struct{ ID int64 }
	resp.JSON(t, &created)
	p := strconv.FormatInt(created.ID, 10)
	at := "/" + d + "/" + p
	mustOK := func(r testkit.Reply, what string) testkit.Reply {
		t.Helper()
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", what, r.Status, r.Body)
		}
		return r
	}
	mustOK(admin.Do("GET", "/portal"+at+"/open", ""), "open")
	wsGit := filepath.Join(cfg.DataDir, "workspaces", "1", p, ".git")
	before := diskUsage(t, wsGit)
	type status struct {
		State    string
		Ahead    int
		Branches []struct {
			Branch        string
			Ahead, Behind int
			OnUpstream    bool
			DeletedOnHost bool
		}
	}
	upstream := func() (status, time.Duration) {
		t.Helper()
		t0 := time.Now()
		r := mustOK(admin.Do("GET", "/upstream"+at, ""), "upstream status")
		took := time.Since(t0)
		var st status
		r.JSON(t, &st)
		return st, took
	}
	branches := func() []string {
		t.Helper()
		var list []string
		mustOK(admin.Do("GET", "/portal"+at+"/branches", ""), "branches").JSON(t, &list)
		return list
	}

	// The host gains 2,000 branches (one update of many refs).
	const n = 2000
	names := hostBranchNames("many", n)
	hostRefs(t, bare, names, gitT(t, bare, "rev-parse", "master"))
	t0 := time.Now()
	if r := mustOK(admin.Do("GET", "/portal"+at+"/open", ""), "open after the host added branches"); strings.Contains(r.Body, "upstreamWarning") {
		t.Fatalf("open: %s", r.Body)
	}
	t.Logf("open after the host added %d branches: %v", n, time.Since(t0))
	if got := len(branches()); got != n+1 {
		t.Fatalf("%d branches after the host added %d", got, n)
	}
	st, took := upstream()
	if st.State != "IN_SYNC" || len(st.Branches) != n+1 {
		t.Fatalf("status with %d branches: %s, %d branches", n+1, st.State, len(st.Branches))
	}
	t.Logf("upstream status with %d branches: %v", n+1, took)
	if took > 5*time.Second {
		t.Errorf("upstream status with %d branches took %v", n+1, took)
	}
	if grew := diskUsage(t, wsGit) - before; grew > 1<<20 {
		t.Errorf("the workspace's .git grew by %d bytes with the host's branches", grew)
	}

	// The author works on many-0007, and her commit conflicts with the host's: it stays in
	// her workspace, not on the portal's branch.
	t0 = time.Now()
	mustOK(admin.Do("GET", "/portal"+at+"/open?branch=many-0007", ""), "open many-0007")
	t.Logf("open of another branch with %d branches: %v", n+1, time.Since(t0))
	pushBranch(t, bare, "many-0007", "notes.txt", "changed on the host\n", "Host edits notes")
	os.WriteFile(filepath.Join(filepath.Dir(wsGit), "notes.txt"), []byte("changed in the product\n"), 0o644)
	if r := admin.Do("POST", "/portal"+at+"/commits", `{"message":"Product edits notes"}`); r.Status != http.StatusConflict || r.Code != "GIT_CONFLICTS" {
		t.Fatalf("conflicting commit: %d %s", r.Status, r.Body)
	}

	// The host deletes the 2,000 branches: Sync now takes them out of the portal, except
	// many-0007, which the author's unpushed commit keeps.
	hostRefs(t, bare, names, "")
	t0 = time.Now()
	mustOK(admin.Do("POST", "/upstream"+at+"/sync", "{}"), "sync now")
	t.Logf("sync now after the host deleted %d branches: %v", n, time.Since(t0))
	if got := strings.Join(branches(), ","); got != "many-0007,master" {
		t.Fatalf("branches after the host deleted them: %s", got)
	}
	st, took = upstream()
	if took > 5*time.Second {
		t.Errorf("upstream status after the deletion took %v", took)
	}
	kept := false
	for _, b := range st.Branches {
		if b.Branch == "many-0007" {
			kept = b.DeletedOnHost && !b.OnUpstream
		}
	}
	if !kept || st.State != "IN_SYNC" {
		t.Fatalf("status after the deletion: %+v", st)
	}
	var refs struct{ AllReferences, DeletedOnHost []string }
	mustOK(admin.Do("GET", "/portal_branch/allReferences"+at, ""), "allReferences").JSON(t, &refs)
	if strings.Join(refs.DeletedOnHost, ",") != "many-0007" {
		t.Fatalf("allReferences: %+v", refs)
	}
	if got := gitT(t, bare, "for-each-ref", "--format=%(refname)", "refs/heads/many-0007"); got != "" {
		t.Fatalf("the branch was pushed back to the host: %s", got)
	}

	// The author lets her commit go (Reset keeps it as discarded work): the branch leaves at
	// the next fetch.
	mustOK(admin.Do("PUT", "/portal"+at+"/reset/master", ""), "reset")
	mustOK(admin.Do("GET", "/portal"+at+"/open", ""), "open after the reset")
	if got := strings.Join(branches(), ","); got != "master" {
		t.Fatalf("branches after the reset: %s", got)
	}
	if st, _ := upstream(); st.State != "IN_SYNC" || len(st.Branches) != 1 {
		t.Fatalf("status at the end: %+v", st)
	}
	if grew := diskUsage(t, wsGit) - before; grew > 1<<20 {
		t.Errorf("the workspace's .git grew by %d bytes", grew)
	}
}
