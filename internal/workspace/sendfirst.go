package workspace

// Sending a commit to the portal's git host before it lands (issue 30: commit + push in one
// round trip to the host).
//
// A commit on a portal with a git host used to fetch the host first (so the commit is rebased
// on what the host has), then land, then push: two round trips where `git push` alone, from a
// plain clone, takes one and lets the host refuse when it moved. A LandingGate does the same
// under the portal lock: when the host had the branch at the very commit the new work descends
// from (UpstreamRefs, as last fetched or pushed), the work is pushed there first, and the
// canonical branch and UpstreamRefs move together once the host took it.
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
)

// ErrHostMoved is a LandingGate's answer when the git host's branch is not where the portal
// last saw it: nothing landed; fetch the host and commit again.
var ErrHostMoved = errors.New("the git host's branch moved since it was last fetched")

// LandingGate is called under the portal lock with the commit about to be put on the portal's
// branch. An error other than nil stops the landing and is CommitThen's answer.
type LandingGate func(ctx context.Context, l *Landing) error

// CommitHooks are CommitThen's optional calls.
type CommitHooks struct {
	// Ready is called once the author's work is recorded in the workspace, before it is put
	// on the portal's branch (not when the commit ends before that).
	Ready func()
	// BeforeLanding may send the commit to the git host first (Landing.SendToHost).
	BeforeLanding LandingGate
}

// Landing is a commit about to be put on a portal's branch: Head, a descendant of Tip, the
// branch's commit now. It exists only inside a LandingGate, under the portal lock.
type Landing struct {
	r        *Repos
	portalID int64
	dir      string
	Branch   string
	Tip      string
	Head     string
	sent     bool // the host took Head: UpstreamRefs moves with the branch
}

// HostHasTip tells whether the git host had the branch at Tip when last fetched or pushed:
// then sending Head is a fast-forward there unless the host moved since.
func (l *Landing) HostHasTip() bool {
	return readRef(l.r.bare(l.portalID), UpstreamRefs+l.Branch) == l.Tip
}

// SendToHost pushes Head to the branch on the git host (never forced). A host that moved
// answers ErrHostMoved; anything else is the push's error (*UpstreamPushError, *RemoteError).
func (l *Landing) SendToHost(ctx context.Context, up Upstream, knownHosts *string, timeout time.Duration) error {
	c := gitcli.Command("push", "-q", "--porcelain", "--no-verify").Value(up.URL, l.Head+":refs/heads/"+l.Branch).Timeout(timeout)
	out, err := l.r.runRemote(ctx, l.dir, c, up, knownHosts)
	if err != nil {
		err = pushError(l.Branch, out, err)
		var pe *UpstreamPushError
		if errors.As(err, &pe) && pe.NonFastForward {
			return ErrHostMoved
		}
		return err
	}
	l.sent = true
	return nil
}
