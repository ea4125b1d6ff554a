package hostsync

// Sending a commit to the portal's git host before it lands (issue 30: commit + push in one
// round trip to the host).
//
// A commit on a portal with a git host used to fetch the host first (so the commit is rebased
// on what the host has), then land, then push: two round trips where `git push` alone, from a
// plain clone, takes one and lets the host refuse when it moved. A workspace.LandingGate does
// the same under the portal lock: when the host had the branch at the very commit the new work
// descends from (workspace.UpstreamRefs, as last fetched or pushed), the work is pushed there
// first (SendToHost), and the canonical branch and UpstreamRefs move together once the host
// took it (workspace.Landing.Send).
//
// The rules that keep it safe:
//   - the push is never forced; a host that moved refuses it (a non-fast-forward) and the
//     gate answers ErrHostMoved: nothing landed, the commit stays in the workspace, and the
//     caller takes the usual way (fetch, integrate, commit again: the work is replayed on the
//     host's commits, conflicts answer as another author's would);
//   - anything else the host says (unreachable, a hook declined) does not stop the commit: it
//     lands and the branch is left pending, as when a push after the commit fails;
//   - the host taking the commit while the landing then fails leaves the host ahead of the
//     portal by that commit only: the next fetch fast-forwards the portal's branch to it.

import (
	"context"
	"errors"
	"time"

	"portalwright/internal/gitcli"
	"portalwright/internal/workspace"
)

// SendToHost pushes the landing's Head to its branch on the git host (never forced), from the
// workspace (workspace.Landing.Send). A host that moved answers workspace.ErrHostMoved;
// anything else is the push's error (*UpstreamPushError, *workspace.RemoteError).
func (hs *HostSync) SendToHost(ctx context.Context, l *workspace.Landing, up Upstream, knownHosts *string, timeout time.Duration) error {
	return l.Send(func(dir string) error {
		c := gitcli.Command("push", "-q", "--porcelain", "--no-verify").Value(up.URL, l.Head+":refs/heads/"+l.Branch).Timeout(timeout)
		out, err := hs.runRemote(ctx, dir, c, up, knownHosts)
		if err != nil {
			err = pushError(l.Branch, out, err)
			var pe *UpstreamPushError
			if errors.As(err, &pe) && pe.NonFastForward {
				return workspace.ErrHostMoved
			}
			return err
		}
		return nil
	})
}
