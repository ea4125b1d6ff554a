package workspace

// The landing gate: a commit on a portal with a git host may be sent to the host before it
// lands (issue 30). The gate is called under the portal lock with the commit about to land
// (Landing); the push itself and its rules (never forced, a host that moved answers
// ErrHostMoved and nothing lands) are hostsync's (sendfirst.go there).

import (
	"context"
	"errors"
)

// UpstreamRefs is where the canonical repository keeps the upstream's branches (hostsync).
const UpstreamRefs = "refs/upstream/heads/"

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
	// BeforeLanding may send the commit to the git host first (Landing.Send).
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

// Send sends Head to the git host: push runs in the workspace (it has Head's objects), and when
// it succeeds the host took Head, so UpstreamRefs moves with the branch. hostsync's
// HostSync.SendToHost is the push.
func (l *Landing) Send(push func(dir string) error) error {
	if err := push(l.dir); err != nil {
		return err
	}
	l.sent = true
	return nil
}
