package workspace

// Review before commit: what a workspace's next commit would change against its branch (or
// what a commit changed against its parent), file by file, for the diff view.

import (
	"context"
	"errors"
	"io/fs"
	"strconv"
	"strings"

	"portalwright/internal/gitcli"
)

// ReviewMaxBytes is the largest side of a file the review reads; larger sides are absent
// from a file's review (the file list still names them).
const ReviewMaxBytes = 2 << 20

// ReviewFiles lists what the user's workspace would commit against its branch: uncommitted
// edits and local commits together, path → ADD, MODIFY or DELETE.
func (cw Collab) ReviewFiles(ctx context.Context, userID, portalID int64) (map[string]string, error) {
	// Under the workspace's lock: the temporary index's lock file must not look like a
	// crash's leftover to another command (core.go).
	dir, unlock, err := cw.r.openWorkspace(ctx, userID, portalID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	before := cw.r.reviewBase(ctx, userID, portalID, dir)
	after, err := cw.r.worktreeTree(ctx, dir)
	if err != nil {
		return nil, err
	}
	return cw.r.changeKinds(ctx, dir, before, after)
}

// reviewBase is what a workspace's work is compared with: its branch's tip in the portal,
// else (the branch was deleted) its HEAD.
func (r *Repos) reviewBase(ctx context.Context, userID, portalID int64, dir string) string {
	if tip := readRef(r.bare(portalID), "refs/heads/"+r.CurrentBranch(userID, portalID)); tip != "" {
		return tip
	}
	return "HEAD"
}

func (r *Repos) changeKinds(ctx context.Context, dir, before, after string) (map[string]string, error) {
	changes, err := r.diffRaw(ctx, dir, before, after)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(changes))
	for p, c := range changes {
		switch {
		case c.from.absent():
			out[p] = ChangeAdd
		case c.to.absent():
			out[p] = ChangeDelete
		default:
			out[p] = ChangeModify
		}
	}
	return out, nil
}

// ReviewSides is a file before and after (nil: absent or too large; see the flags).
type ReviewSides struct {
	Before, After             []byte
	BeforeExists, AfterExists bool
	TooLarge                  bool
	// ModeBefore and ModeAfter are git's modes of the sides ("100644", "100755"; "" when
	// absent): a change of them is shown even when the content is the same.
	ModeBefore, ModeAfter string
}

// ReviewFile reads one file of the user's workspace as it is and as the branch has it.
func (cw Collab) ReviewFile(ctx context.Context, userID, portalID int64, p Path) (*ReviewSides, error) {
	dir, err := cw.r.workspace(userID, portalID)
	if err != nil {
		return nil, err
	}
	s := &ReviewSides{}
	before := cw.r.reviewBase(ctx, userID, portalID, dir)
	s.Before, s.BeforeExists, s.TooLarge = cw.r.reviewBlob(ctx, dir, before, p.rel)
	if s.BeforeExists {
		s.ModeBefore = cw.r.modeAt(ctx, dir, before, p.rel)
	}
	root, err := cw.r.openRoot(userID, portalID)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	fi, err := root.Lstat(p.rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		return nil, ErrBadPath
	case fi.Size() > ReviewMaxBytes:
		s.AfterExists, s.TooLarge = true, true
	default:
		if s.After, err = ReadIn(root, p); err != nil {
			return nil, err
		}
		s.AfterExists = true
	}
	if s.AfterExists {
		s.ModeAfter = gitModeOf(fi.Mode().Perm()) // as `git add` will record it
	}
	return s, nil
}

// reviewBlob reads path at treeish, up to ReviewMaxBytes.
func (r *Repos) reviewBlob(ctx context.Context, dir, treeish, p string) (data []byte, exists, tooLarge bool) {
	size, err := r.run(ctx, dir, gitcli.Command("cat-file", "-s").Value(treeish+":"+p))
	if err != nil {
		return nil, false, false
	}
	if n, err := strconv.Atoi(strings.TrimSpace(size)); err != nil || n > ReviewMaxBytes {
		return nil, true, true
	}
	data = r.blobAt(ctx, dir, treeish, p)
	return data, data != nil, false
}

// CommitFiles lists what a commit of the portal changed against its first parent.
func (cw Collab) CommitFiles(ctx context.Context, portalID int64, commit string) (map[string]string, error) {
	full, parent, err := cw.r.commitAndParent(ctx, portalID, commit)
	if err != nil {
		return nil, err
	}
	return cw.r.changeKinds(ctx, cw.r.bare(portalID), parent, full)
}

// CommitFile reads one file before and after a commit of the portal.
func (cw Collab) CommitFile(ctx context.Context, portalID int64, commit string, p Path) (*ReviewSides, error) {
	full, parent, err := cw.r.commitAndParent(ctx, portalID, commit)
	if err != nil {
		return nil, err
	}
	s := &ReviewSides{}
	dir := cw.r.bare(portalID)
	var large bool
	s.Before, s.BeforeExists, large = cw.r.reviewBlob(ctx, dir, parent, p.rel)
	s.After, s.AfterExists, s.TooLarge = cw.r.reviewBlob(ctx, dir, full, p.rel)
	s.TooLarge = s.TooLarge || large
	if s.BeforeExists {
		s.ModeBefore = cw.r.modeAt(ctx, dir, parent, p.rel)
	}
	if s.AfterExists {
		s.ModeAfter = cw.r.modeAt(ctx, dir, full, p.rel)
	}
	return s, nil
}

func (r *Repos) commitAndParent(ctx context.Context, portalID int64, commit string) (string, string, error) {
	if !commitID.MatchString(commit) {
		return "", "", ErrUnknownCommit
	}
	out, err := r.run(ctx, r.bare(portalID), gitcli.Command("rev-parse", "--verify", "-q").Value(commit+"^{commit}"))
	if err != nil {
		return "", "", MissingOr(ctx, err, ErrUnknownCommit)
	}
	full := strings.TrimSpace(out)
	parent := emptyTree
	if out, err := r.run(ctx, r.bare(portalID), gitcli.Command("rev-parse", "--verify", "-q").Value(full+"^1")); err == nil {
		parent = strings.TrimSpace(out)
	}
	return full, parent, nil
}
