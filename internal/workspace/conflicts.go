package workspace

// Conflicts that never cost anyone their work (issue 21).
//
//   - A commit whose branch moved is replayed with git's rebase when no path was changed
//     differently on both sides (each local commit kept as it was); otherwise the two trees
//     are merged structurally (threeway.go) and, when that is clean, the author's work lands
//     as one commit on the branch's tip, with their message and as their author.
//   - When the merge leaves conflicts, nothing moves: the author's commit stays in their
//     workspace (ahead and behind), and Conflicts describes it for the resolution screen on
//     every later call (a reload, a sign-out, another portal in between lose nothing).
//     Resolve answers the conflicts and publishes the result as an ordinary commit.
//   - Reload Now with uncommitted edits merges the branch's new commits under the edits the
//     same way (reloadMerge); overlapping edits keep the workspace where it is.

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"portalwright/internal/gitcli"
	"portalwright/internal/merge"
)

// Collab is working together on a portal: the conflicts of a commit and their resolution
// (this file), the work a reset or a forced switch discarded (discarded.go), the review of
// other authors' commits (review.go).
type Collab struct{ r *Repos }

// Collab is the authors' work together in the repositories.
func (r *Repos) Collab() Collab { return Collab{r} }

// ConflictError is ErrConflict with the paths whose merge left conflicts.
type ConflictError struct{ Paths []string }

func (e *ConflictError) Error() string {
	return "conflict with the portal's branch in " + strings.Join(e.Paths, ", ")
}

// Is makes errors.Is(err, ErrConflict) hold.
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// ErrTipMoved is returned by Resolve when the branch moved since the conflicts were read.
var ErrTipMoved = errors.New("the branch moved since the conflicts were read")

// UnresolvedError is returned by Resolve when a conflict has no choice.
type UnresolvedError struct {
	Path       string
	Unresolved int
	Invalid    string // the merge's own reason when the result was refused (invalid JSON, schema)
}

func (e *UnresolvedError) Error() string {
	return fmt.Sprintf("%s: %d conflicts are not resolved", e.Path, e.Unresolved)
}

// ConflictFile is one file whose merge has conflicts.
type ConflictFile struct {
	Path      string           `json:"path"`
	Kind      merge.Kind       `json:"kind"`
	Binary    bool             `json:"binary"`
	HasSchema bool             `json:"hasSchema"`
	Conflicts []merge.Conflict `json:"conflicts"`
}

// ConflictState is what stands between a workspace's commits and its branch.
type ConflictState struct {
	InConflict bool           `json:"inConflict"`
	Branch     string         `json:"branch"`
	Tip        string         `json:"tip"`
	Files      []ConflictFile `json:"files"`
	Merged     []string       `json:"merged"` // changed on both sides, merged without conflict
}

// replayOn puts the workspace's commits on the branch's tip (under the portal lock): a
// rebase when no path was changed on both sides, else the structural merge. landed is false
// when the commits, replayed, change nothing the branch does not have (their changes are
// already there): then no commit is made, the workspace is on tip and the commits are kept as
// discarded work (dropEmpty; discarded says which).
func (r *Repos) replayOn(ctx context.Context, dir, branch, tip string) (landed bool, discarded string, err error) {
	head, err := r.run(ctx, dir, gitcli.Command("rev-parse", "HEAD"))
	if err != nil {
		return false, "", err
	}
	head = strings.TrimSpace(head)
	base, err := r.mergeBase(ctx, dir, "HEAD", tip)
	if err != nil {
		return false, "", err
	}
	if base == "" {
		base = emptyTree
	}
	m, err := r.mergeTrees(ctx, dir, base, "HEAD", tip, nil, false)
	if err != nil {
		return false, "", err
	}
	if len(m.files) == 0 {
		if _, err := r.run(ctx, dir, authorEnv(gitcli.Command("rebase", "-q").Value(tip), SystemAuthor)); err == nil {
			// git's rebase drops the commits that became empty: when that was all of them,
			// HEAD is the tip and the work is kept as discarded rather than lost.
			if now, err := r.run(ctx, dir, gitcli.Command("rev-parse", "HEAD")); err == nil && strings.TrimSpace(now) == tip {
				id, err := r.dropEmpty(ctx, dir, branch, head, tip)
				return false, id, err
			}
			return true, "", nil
		}
		_, _ = r.run(ctx, dir, gitcli.Command("rebase", "--abort"))
		// git's line merge failed where the paths differ (a commit and its revert): the
		// structural result below is clean by construction.
	}
	if un := m.unresolved(); len(un) > 0 {
		return false, "", &ConflictError{Paths: pathsOf(un)}
	}
	landed, err = r.landMerge(ctx, dir, m, base, tip)
	if err != nil || landed {
		return landed, "", err
	}
	id, err := r.dropEmpty(ctx, dir, branch, head, tip)
	return false, id, err
}

// landMerge records a clean merge as one commit on tip, with the local commits' messages and
// the latest one's author, and moves the workspace there. A merge whose tree is tip's (the
// work changes nothing the branch does not have) makes no commit and moves nothing: landed
// is false, and the caller drops the work with dropEmpty.
func (r *Repos) landMerge(ctx context.Context, dir string, m *treeMerge, base, tip string) (landed bool, err error) {
	tree, err := r.writeTree(ctx, dir, m)
	if err != nil {
		return false, err
	}
	if tipTree, err := r.run(ctx, dir, gitcli.Command("rev-parse").Value(tip+"^{tree}")); err != nil {
		return false, err
	} else if strings.TrimSpace(tipTree) == tree {
		return false, nil
	}
	message, author, err := r.localMessage(ctx, dir, base)
	if err != nil {
		return false, err
	}
	commit, err := r.commitTree(ctx, dir, tree, tip, message, author)
	if err != nil {
		return false, err
	}
	_, err = r.run(ctx, dir, gitcli.Command("reset", "-q", "--hard").Value(commit))
	return err == nil, err
}

// dropEmpty keeps work that changes nothing on the branch (head: its last commit) as
// discarded work and moves the workspace to tip: no empty commit ever reaches the branch. It
// answers the discarded work's id.
func (r *Repos) dropEmpty(ctx context.Context, dir, branch, head, tip string) (string, error) {
	id, err := r.keep(ctx, dir, branch, head)
	if err != nil {
		return "", err
	}
	_, err = r.run(ctx, dir, gitcli.Command("reset", "-q", "--hard").Value(tip))
	return id, err
}

// localMessage is the message and author the commits base..HEAD give their merged commit.
func (r *Repos) localMessage(ctx context.Context, dir, base string) (string, Author, error) {
	rng := "HEAD"
	if base != emptyTree {
		rng = base + "..HEAD"
	}
	out, err := r.run(ctx, dir, gitcli.Command("log", "--format=%an%x1f%ae%x1f%B%x1e").Value(rng))
	if err != nil {
		return "", Author{}, err
	}
	var msgs []string
	var author Author
	for i, rec := range strings.Split(out, "\x1e") {
		f := strings.SplitN(strings.TrimLeft(rec, "\n"), "\x1f", 3)
		if len(f) != 3 {
			continue
		}
		if i == 0 {
			author = Author{Name: f[0], Email: f[1]}
		}
		msgs = append(msgs, strings.TrimSpace(f[2]))
	}
	if len(msgs) == 0 {
		return "Resolve conflicts", SystemAuthor, nil
	}
	// Oldest first, as the commits were made.
	for i, j := 0, len(msgs)-1; i < j; i, j = i+1, j-1 {
		msgs[i], msgs[j] = msgs[j], msgs[i]
	}
	return strings.Join(msgs, "\n\n"), author, nil
}

func pathsOf(files []FileMerge) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Path
	}
	return out
}

// Conflicts describes the merge of the caller's work (local commits and uncommitted edits)
// with the branch's tip. Nothing is written.
func (cw Collab) Conflicts(ctx context.Context, userID, portalID int64) (*ConflictState, error) {
	dir, unlock, err := cw.r.openWorkspace(ctx, userID, portalID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	st, err := cw.r.status(ctx, portalID, dir)
	if err != nil {
		return nil, err
	}
	state := &ConflictState{Branch: st.Branch, Files: []ConflictFile{}, Merged: []string{}}
	state.Tip = readRef(cw.r.bare(portalID), "refs/heads/"+st.Branch)
	if state.Tip == "" || st.Ahead == 0 || st.Behind == 0 {
		return state, nil
	}
	m, _, err := cw.r.workMerge(ctx, dir, state.Tip, nil)
	if err != nil {
		return nil, err
	}
	schemas := cw.r.schemaBlobs(ctx, dir, pathsOf(m.files), state.Tip, "HEAD")
	for _, f := range m.files {
		if f.Result.Unresolved == 0 {
			state.Merged = append(state.Merged, f.Path)
			continue
		}
		_, hasSchema := schemas[f.Path]
		state.Files = append(state.Files, ConflictFile{Path: f.Path, Kind: f.Result.Kind, Binary: f.Result.Kind == merge.KindBinary,
			HasSchema: hasSchema, Conflicts: f.Result.Conflicts})
	}
	state.InConflict = len(state.Files) > 0
	return state, nil
}

// workMerge merges the workspace's work (its working tree on its commits) with tip.
func (r *Repos) workMerge(ctx context.Context, dir, tip string, choices MergeChoices) (*treeMerge, string, error) {
	base, err := r.mergeBase(ctx, dir, "HEAD", tip)
	if err != nil {
		return nil, "", err
	}
	if base == "" {
		base = emptyTree
	}
	mine, err := r.worktreeTree(ctx, dir)
	if err != nil {
		return nil, "", err
	}
	m, err := r.mergeTrees(ctx, dir, base, mine, tip, choices, false)
	return m, base, err
}

// ConflictVersions are the three versions of one conflicting file (nil: absent).
type ConflictVersions struct {
	Base, Mine, Theirs []byte
	Schema             []byte // the file's companion schema on the branch (nil: none)
}

// ConflictFileVersions reads base, mine (the working tree) and theirs (the branch's tip) of
// one file, for the resolution screen's full view.
func (cw Collab) ConflictFileVersions(ctx context.Context, userID, portalID int64, p Path) (*ConflictVersions, error) {
	dir, unlock, err := cw.r.openWorkspace(ctx, userID, portalID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	branch := cw.r.CurrentBranch(userID, portalID)
	tip := readRef(cw.r.bare(portalID), "refs/heads/"+branch)
	if tip == "" {
		return nil, ErrBranchMissing
	}
	base, err := cw.r.mergeBase(ctx, dir, "HEAD", tip)
	if err != nil {
		return nil, err
	}
	v := &ConflictVersions{}
	if base != "" {
		v.Base = cw.r.blobAt(ctx, dir, base, p.rel)
	}
	v.Theirs = cw.r.blobAt(ctx, dir, tip, p.rel)
	v.Schema = cw.r.blobAt(ctx, dir, tip, p.rel+".schema")
	root, err := cw.r.openRoot(userID, portalID)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	if data, err := ReadIn(root, p); err == nil {
		v.Mine = data
	}
	return v, nil
}

// blobAt reads path at a commit or tree; nil when it is not there (or not a file).
func (r *Repos) blobAt(ctx context.Context, dir, treeish, p string) []byte {
	out, err := r.git.Run(ctx, dir, gitcli.Command("cat-file", "blob").Value(treeish+":"+p))
	if err != nil {
		return nil
	}
	return out
}

// Resolve answers the conflicts between the caller's work and the branch with choices and
// publishes the result as one commit on the branch. tip is the branch's commit the choices
// were made against: when the branch moved since, ErrTipMoved and nothing changes.
func (cw Collab) Resolve(ctx context.Context, userID, portalID int64, tip string, choices MergeChoices, author Author) (*CommitResult, error) {
	dir, unlock, err := cw.r.openWorkspace(ctx, userID, portalID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	branch := cw.r.CurrentBranch(userID, portalID)
	if branch == "" {
		return nil, ErrInvalidWorkspace
	}
	punlock, err := cw.r.lock(ctx, portalID)
	if err != nil {
		return nil, err
	}
	defer punlock()
	current := readRef(cw.r.bare(portalID), "refs/heads/"+branch)
	if current == "" {
		return nil, ErrBranchMissing
	}
	if tip != current {
		return nil, ErrTipMoved
	}
	m, base, err := cw.r.workMerge(ctx, dir, tip, choices)
	if err != nil {
		return nil, err
	}
	for _, f := range m.files {
		if f.Result.Unresolved > 0 {
			e := &UnresolvedError{Path: f.Path, Unresolved: f.Result.Unresolved}
			for _, c := range f.Result.Conflicts {
				if c.ID == "file" && c.Reason != "" && !strings.HasPrefix(c.Reason, "both sides") && !strings.HasPrefix(c.Reason, "deleted in") {
					e.Invalid = c.Reason
				}
			}
			return nil, e
		}
	}
	// The author's whole work is in mine's tree: commit it where it stands so the merged
	// commit's message and author come from it, then land the merge on the tip.
	if _, err := cw.r.run(ctx, dir, gitcli.Command("add", "-A")); err != nil {
		return nil, err
	}
	if staged, err := cw.r.stagedChanges(ctx, dir); err != nil {
		return nil, err
	} else if len(staged) > 0 {
		if _, err := cw.r.run(ctx, dir, authorEnv(gitcli.Command("commit", "-q", "--no-verify").Option("--message", "Resolve conflicts"), author)); err != nil {
			return nil, err
		}
	}
	// Keep the work as it was before the merge: recoverable if anything below fails.
	head, err := cw.r.run(ctx, dir, gitcli.Command("rev-parse", "HEAD"))
	if err != nil {
		return nil, err
	}
	head = strings.TrimSpace(head)
	kept, err := cw.r.keep(ctx, dir, branch, head)
	if err != nil {
		return nil, err
	}
	landed, err := cw.r.landMerge(ctx, dir, m, base, tip)
	if err != nil {
		return nil, err
	}
	if !landed {
		// The resolution keeps nothing of the author's (theirs everywhere): no empty commit.
		// The safety copy stays as discarded work.
		if _, err := cw.r.run(ctx, dir, gitcli.Command("reset", "-q", "--hard").Value(tip)); err != nil {
			return nil, err
		}
		return &CommitResult{CommitID: tip, RuleWarnings: []string{}, Discarded: kept}, nil
	}
	if err := cw.r.landOrPush(ctx, portalID, dir, branch, tip, readRef(filepath.Join(dir, ".git"), "refs/heads/"+branch), false); err != nil {
		return nil, err
	}
	cw.r.dropNewestKept(ctx, dir, branch) // landed: the safety copy is not discarded work
	head, err = cw.r.run(ctx, dir, gitcli.Command("rev-parse", "HEAD"))
	if err != nil {
		return nil, err
	}
	changed := map[string]string{}
	for _, f := range m.files {
		changed[f.Path] = ChangeModify
	}
	for p, e := range m.mineOnly {
		changed[p] = ChangeModify
		if e.absent() {
			changed[p] = ChangeDelete
		}
	}
	return &CommitResult{CommitID: strings.TrimSpace(head), Committed: true, RuleWarnings: nonNil(checkContent(dir, changed, cw.r.schemaCheck))}, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// reloadMerge brings the branch's new commits into a workspace with uncommitted edits and no
// local commits: the edits are merged with the commits file by file and stay uncommitted.
// When edits and commits overlap, nothing moves and the overlapping paths are returned (the
// commit will offer the resolution). The edits are kept under KeptRefs while the workspace
// moves, so a crash in between loses nothing.
func (r *Repos) reloadMerge(ctx context.Context, dir, branch, tip string) ([]string, error) {
	mine, err := r.worktreeTree(ctx, dir)
	if err != nil {
		return nil, err
	}
	m, err := r.mergeTrees(ctx, dir, "HEAD", mine, tip, nil, false)
	if err != nil {
		return nil, err
	}
	if un := m.unresolved(); len(un) > 0 {
		return pathsOf(un), nil
	}
	tree, err := r.writeTree(ctx, dir, m)
	if err != nil {
		return nil, err
	}
	saved, err := r.commitTree(ctx, dir, mine, "HEAD", "Uncommitted changes before Reload Now", SystemAuthor)
	if err != nil {
		return nil, err
	}
	if err := r.keepRef(ctx, dir, branch, saved); err != nil {
		return nil, err
	}
	if err := r.checkoutAsChanges(ctx, dir, tip, tree); err != nil {
		return nil, err
	}
	r.dropNewestKept(ctx, dir, branch)
	return nil, nil
}

// checkoutAsChanges moves the workspace's branch to commit and makes tree its working tree,
// as uncommitted changes against commit.
func (r *Repos) checkoutAsChanges(ctx context.Context, dir, commit, tree string) error {
	if commit != "" {
		if _, err := r.run(ctx, dir, gitcli.Command("reset", "-q", "--hard").Value(commit)); err != nil {
			return err
		}
	}
	if _, err := r.run(ctx, dir, gitcli.Command("read-tree", "-u", "--reset").Value(tree)); err != nil {
		return err
	}
	_, err := r.run(ctx, dir, gitcli.Command("reset", "-q"))
	return err
}

// sortedKeys is the map's keys, sorted.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
