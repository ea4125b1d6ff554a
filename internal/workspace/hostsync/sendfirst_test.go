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
	"portalwright/internal/workspace/workspacetest"
)

// TestCommitSentToHostFirst: a commit on a branch the portal has where the host had it goes to
// the host before it lands, and the canonical branch and the record of the host's branch move
// together; a host that moved refuses it and nothing lands (the commit waits in the workspace
// for the usual way); a host that refuses for another reason does not stop the commit.
func TestCommitSentToHostFirst(t *testing.T) {
	ctx := context.Background()
	r := workspacetest.NewRepos(t)
	if err := r.Core().CreateFromFiles(ctx, 1, workspacetest.Starter(), "Create portal", workspace.SystemAuthor); err != nil {
		t.Fatal(err)
	}
	bare := r.Core().Bare(1)
	hosts := t.TempDir()
	host := filepath.Join(hosts, "host.git")
	workspacetest.GitOut(t, r, "", "clone", "-q", "--bare", bare, host)
	url := "git://127.0.0.1:" + workspacetest.ServeDaemon(t, hosts, "--enable=receive-pack") + "/host.git"
	if err := New(r).MarkUpstreamSynced(ctx, 1); err != nil {
		t.Fatal(err)
	}
	up := Upstream{URL: url}
	var asked, sent int
	gate := func(ctx context.Context, l *workspace.Landing) error {
		asked++
		if !l.HostHasTip() {
			return workspace.ErrHostMoved
		}
		err := New(r).SendToHost(ctx, l, up, nil, time.Minute)
		if err == nil {
			sent++
		}
		if errors.Is(err, workspace.ErrHostMoved) {
			return err
		}
		return nil
	}
	commit := func(name, message string) (*workspace.CommitResult, error) {
		t.Helper()
		workspacetest.Write(t, r, 10, name, "<p>"+message+"</p>\n")
		return r.CommitThen(ctx, 10, 1, message, workspacetest.Ann, workspace.CommitHooks{BeforeLanding: gate})
	}
	workspacetest.Open(t, r, 10, workspace.DefaultBranch)

	// In sync: the host takes it first; the portal's branch and its record of the host's move.
	res, err := commit("pages/first.html", "First")
	if err != nil || !res.Committed || sent != 1 {
		t.Fatalf("commit: %+v %v (sent %d)", res, err, sent)
	}
	for _, dir := range []string{host, bare} {
		if got := workspacetest.GitOut(t, r, dir, "rev-parse", "refs/heads/master"); got != res.CommitID {
			t.Fatalf("%s master = %s, want %s", dir, got, res.CommitID)
		}
	}
	if got := r.Core().Refs().Read(bare, workspace.UpstreamRefs+"master"); got != res.CommitID {
		t.Fatalf("the record of the host's master = %s, want %s", got, res.CommitID)
	}
	if got := workspacetest.GitOut(t, r, bare, "reflog", "-1", "--format=%gs", "refs/heads/master"); got != "push" {
		t.Fatalf("reflog %q, want push", got)
	}

	// The host moved: it refuses, nothing lands, the commit waits in the workspace.
	other := filepath.Join(t.TempDir(), "other")
	workspacetest.GitOut(t, r, "", "clone", "-q", host, other)
	if err := os.WriteFile(filepath.Join(other, "host.txt"), []byte("on the host\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	workspacetest.GitOut(t, r, other, "add", "-A")
	if _, err := r.Core().Run(ctx, other, workspacetest.Ann.Env(gitcli.Command("commit", "-q", "--no-verify").Option("--message", "On the host"))); err != nil {
		t.Fatal(err)
	}
	workspacetest.GitOut(t, r, other, "push", "-q", "origin", "master")
	hostTip := workspacetest.GitOut(t, r, host, "rev-parse", "master")
	before := r.Core().Refs().Read(bare, "refs/heads/master")
	if _, err := commit("pages/second.html", "Second"); !errors.Is(err, workspace.ErrHostMoved) {
		t.Fatalf("commit after the host moved: %v, want workspace.ErrHostMoved", err)
	}
	if got := r.Core().Refs().Read(bare, "refs/heads/master"); got != before {
		t.Fatalf("the portal's master moved to %s though the host refused", got)
	}
	if got := workspacetest.GitOut(t, r, host, "rev-parse", "master"); got != hostTip {
		t.Fatalf("the host's master moved to %s", got)
	}
	if local, err := r.LocalCommits(ctx, 10, 1); err != nil || len(local) != 1 || local[0].Message != "Second" {
		t.Fatalf("local commits after the refusal: %+v %v", local, err)
	}
	// The usual way: the host's commits fetched and brought in, then the local commit replayed
	// on them and sent as a fast-forward.
	if err := New(r).FetchUpstream(ctx, 1, up, nil, time.Minute); err != nil {
		t.Fatal(err)
	}
	if _, conflicts, err := New(r).IntegrateUpstream(ctx, 1, workspace.SystemAuthor); err != nil || len(conflicts) > 0 {
		t.Fatalf("integrate: %v %v", err, conflicts)
	}
	res, err = r.CommitThen(ctx, 10, 1, "", workspacetest.Ann, workspace.CommitHooks{BeforeLanding: gate})
	if err != nil || !res.Committed {
		t.Fatalf("commit again: %+v %v", res, err)
	}
	if got := workspacetest.GitOut(t, r, host, "log", "-1", "--format=%H %P %s", "master"); got != res.CommitID+" "+hostTip+" Second" {
		t.Fatalf("the host's master after the usual way: %s", got)
	}

	// A host that refuses for another reason (a hook): the commit lands; the record of the
	// host's branch stays where the host is.
	hook := filepath.Join(host, "hooks", "pre-receive")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho frozen >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	hostTip = workspacetest.GitOut(t, r, host, "rev-parse", "master")
	res, err = commit("pages/third.html", "Third")
	if err != nil || !res.Committed {
		t.Fatalf("commit while the host refuses: %+v %v", res, err)
	}
	if got := r.Core().Refs().Read(bare, "refs/heads/master"); got != res.CommitID {
		t.Fatalf("the portal's master = %s, want the commit %s", got, res.CommitID)
	}
	if got := r.Core().Refs().Read(bare, workspace.UpstreamRefs+"master"); got != hostTip {
		t.Fatalf("the record of the host's master = %s, want the host's %s", got, hostTip)
	}
	if out := workspacetest.GitOut(t, r, bare, "fsck", "--strict", "--no-dangling"); strings.TrimSpace(out) != "" {
		t.Fatalf("fsck: %s", out)
	}
}
