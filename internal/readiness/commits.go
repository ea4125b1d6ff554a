package readiness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"

	"portalwright/internal/caller"
	"portalwright/internal/check"
	"portalwright/internal/editing"
	"portalwright/internal/portalaccess"
)

// Commit is the report of one commit of the portal's canonical repository (404 UNKNOWN_COMMIT
// for anything else). A commit's report never changes: it is kept by (portal, commit id), and
// requests for a commit being checked wait for that check instead of starting another.
func (s *Service) Commit(ctx context.Context, _ caller.Caller, pa portalaccess.Portal, commitID string) (*Report, error) {
	return s.commit(ctx, pa, commitID)
}

func (s *Service) commit(ctx context.Context, pa portalaccess.Portal, commitID string) (*Report, error) {
	src, err := s.ws.CanonicalCommit(ctx, pa, commitID)
	if err != nil {
		return nil, err
	}
	kept, err := s.keptSettings(ctx, pa)
	if err != nil {
		return nil, err
	}
	k := commitKey{pa.ID(), src.Commit, keptHash(kept)}
	if rep, ok := s.cachedCommit(k); ok {
		return rep, nil
	}
	ch := s.flights.DoChan(src.Dir+"@"+src.Commit+"@"+k.settings, func() (any, error) {
		if rep, ok := s.cachedCommit(k); ok { // finished while this call waited for its turn
			return rep, nil
		}
		s.commitRuns.Add(1)
		// The check outlives the request that started it: others may be waiting for it.
		runCtx, cancel := context.WithTimeout(s.ctx, commitTimeout)
		defer cancel()
		start := time.Now()
		tree, err := check.NewGitTree(runCtx, src.Git, src.Dir, src.Commit)
		if err != nil {
			return nil, err
		}
		defer tree.Close()
		found, err := check.Run(runCtx, withKept(tree, kept), check.Options{})
		if err != nil {
			return nil, err
		}
		rep := &Report{Source: SourceCommit, CommitID: src.Commit, Report: found, CheckedAt: s.now(),
			DurationMs: time.Since(start).Milliseconds()}
		s.mu.Lock()
		s.commits.put(k, rep)
		s.mu.Unlock()
		return rep, nil
	})
	select {
	case res := <-ch:
		if res.Err != nil {
			return nil, res.Err
		}
		return res.Val.(*Report), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *Service) cachedCommit(k commitKey) (*Report, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.commits.get(k)
}

// CommitRuns is how many commit checks this instance ran (the others were answered from the
// cache or joined a check under way).
func (s *Service) CommitRuns() int64 { return s.commitRuns.Load() }

// ApprovalGate answers what approving a loadable of commitID needs (loadable.ReadinessGate):
// whether the portal's gate is on and, when it is, the commit's errors that are not ignored
// and its summary.
func (s *Service) ApprovalGate(ctx context.Context, pa portalaccess.Portal, commitID string) (bool, int, any, error) {
	on, err := s.gates.gate(ctx, pa.ID())
	if err != nil || !on {
		return false, 0, nil, err
	}
	rep, err := s.commit(ctx, pa, commitID)
	if err != nil {
		return true, 0, nil, err
	}
	return true, rep.Summary.Errors, rep.Summary, nil
}

// keptSettings are the portal's settings kept outside its tree, as portal.json's bytes (nil:
// the portal's settings are its own portal.json).
func (s *Service) keptSettings(ctx context.Context, pa portalaccess.Portal) ([]byte, error) {
	if s.kept == nil {
		return nil, nil
	}
	st, err := s.kept(ctx, pa.ID())
	if err != nil || st == nil {
		return nil, err
	}
	return json.Marshal(st)
}

// withKept is tree with the kept settings as its portal.json when it has none of its own.
func withKept(tree check.Tree, kept []byte) check.Tree {
	if kept == nil {
		return tree
	}
	return check.WithFile(tree, editing.SettingsFile, func(context.Context) ([]byte, error) { return kept, nil })
}

func keptHash(kept []byte) string {
	if kept == nil {
		return ""
	}
	sum := sha256.Sum256(kept)
	return hex.EncodeToString(sum[:8])
}
