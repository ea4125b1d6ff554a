package workspace

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"portalwright/internal/gitcli"
)

// Change types of a local change (spec 3 §3 Workspace change).
const (
	ChangeAdd    = "ADD"
	ChangeModify = "MODIFY"
	ChangeDelete = "DELETE"
)

// More errors the service maps to the spec's codes.
var (
	ErrNoWorkspace      = errors.New("workspace not opened")
	ErrDirtyWorkspace   = errors.New("workspace has local changes")
	ErrNothingToCommit  = errors.New("nothing to commit")
	ErrConflict         = errors.New("conflict with the portal's branch")
	ErrPush             = errors.New("push failed")
	ErrUnknownCommit    = errors.New("unknown commit")
	ErrInvalidWorkspace = errors.New("invalid workspace")
	ErrLocalCommits     = errors.New("workspace has commits that are on no branch of the portal")
)

// Status is the state of one user's workspace.
type Status struct {
	Branch  string            `json:"branch"`
	Changes map[string]string `json:"changes"` // path → ADD, MODIFY or DELETE
	Ahead   int               `json:"aheadCount"`
	Behind  int               `json:"behindCount"`
	// HeldBack lists, after an open, the files whose uncommitted edits overlap the branch's
	// new commits: the workspace stayed where it was (the commit offers the resolution).
	HeldBack []string `json:"heldBack,omitempty"`
}

// HasChanges tells whether there is anything uncommitted.
func (s *Status) HasChanges() bool { return len(s.Changes) > 0 }

// LocalCommit is a commit in a workspace that is not on the portal's branch yet.
type LocalCommit struct {
	CommitID string    `json:"commitId"`
	Message  string    `json:"message"`
	Time     time.Time `json:"time"`
}

// Open creates the user's clone on first use and otherwise refreshes it: it switches to the
// branch (refusing while there are uncommitted changes, unless override discards them) and
// fast-forwards a clean workspace to the portal's branch.
func (r *Repos) Open(ctx context.Context, userID, portalID int64, branch string, override bool) (*Status, error) {
	unlock, err := r.wsLock(ctx, userID, portalID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if !exists(r.bare(portalID)) {
		return nil, ErrInvalidWorkspace
	}
	dir := r.WorkspaceDir(userID, portalID)
	if !exists(filepath.Join(dir, ".git")) {
		// A fresh clone is clean, on the branch and level with it: nothing more to ask git.
		if err := r.cloneWorkspace(ctx, portalID, dir, branch); err != nil {
			return nil, err
		}
		return &Status{Branch: branch, Changes: map[string]string{}}, nil
	}
	if ok, err := r.hasBranch(ctx, portalID, branch); err != nil {
		return nil, err
	} else if !ok {
		return nil, ErrBranchMissing
	}
	// The workspace reads the canonical objects: only the refs of its branch and the one it
	// opens are set, no fetch (wsrefs.go).
	if err := r.syncOriginRefs(ctx, portalID, dir, r.CurrentBranch(userID, portalID), branch); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidWorkspace, err)
	}
	r.abortUnfinished(ctx, dir)
	st, err := r.status(ctx, portalID, dir)
	if err != nil {
		return nil, err
	}
	switch {
	case override:
		if err := r.keepWork(ctx, dir, st.Branch, "opened another branch"); err != nil {
			return nil, err
		}
		if err := r.hardReset(ctx, dir, branch); err != nil {
			return nil, err
		}
	case st.Branch != branch:
		if st.HasChanges() {
			return nil, &DirtyError{Branch: st.Branch}
		}
		// Commits that reached no branch of the portal (a failed commit, a branch deleted
		// under the author) would be lost by the switch: refuse; Reset keeps a copy.
		if n, err := r.unpushed(ctx, dir); err != nil {
			return nil, err
		} else if n > 0 {
			return nil, ErrLocalCommits
		}
		if _, err := r.run(ctx, dir, gitcli.Command("checkout", "-q", "-B").Value(branch, "origin/"+branch)); err != nil {
			return nil, err
		}
	case st.Ahead == 0 && st.Behind > 0 && !st.HasChanges():
		if _, err := r.run(ctx, dir, gitcli.Command("merge", "-q", "--ff-only").Value("origin/"+branch)); err != nil {
			return nil, err
		}
	case st.Ahead == 0 && st.Behind > 0:
		// Uncommitted edits: the new commits are merged in under them (conflicts.go).
		tip := readRef(r.bare(portalID), "refs/heads/"+branch)
		if tip == "" {
			break
		}
		overlaps, err := r.reloadMerge(ctx, dir, branch, tip)
		if err != nil {
			return nil, err
		}
		if len(overlaps) > 0 {
			final, err := r.status(ctx, portalID, dir)
			if err != nil {
				return nil, err
			}
			held := *final
			held.HeldBack = overlaps
			return &held, nil
		}
	}
	return r.status(ctx, portalID, dir)
}

func (r *Repos) cloneWorkspace(ctx context.Context, portalID int64, dir, branch string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o750); err != nil {
		return err
	}
	_ = os.RemoveAll(dir) // a half-made clone from an interrupted open
	tmp := dir + ".tmp-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	defer os.RemoveAll(tmp)
	// --shared borrows the canonical repository's objects: opening a large portal copies
	// nothing but the checked-out files. Only the branch's refs, no tags, no reflogs
	// (wsrefs.go).
	_, err := r.run(ctx, "", gitcli.Command("clone", "-q", "--shared", "--single-branch", "--no-tags").Option("--config", "core.logAllRefUpdates=false").
		Option("--branch", branch).Value(r.bare(portalID), tmp).Timeout(10*time.Minute))
	var ge *gitcli.Error
	if errors.As(err, &ge) && strings.Contains(ge.Stderr, "not found in upstream") {
		return ErrBranchMissing
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp, dir)
}

// unpushed counts the commits of HEAD that are on no branch of the portal (the workspace's
// remote-tracking refs mirror the canonical branches after a fetch --prune).
func (r *Repos) unpushed(ctx context.Context, dir string) (int, error) {
	out, err := r.run(ctx, dir, gitcli.Command("rev-list", "--count", "HEAD", "--not", "--remotes=origin"))
	if err != nil {
		return 0, fmt.Errorf("%w: %v", ErrInvalidWorkspace, err)
	}
	return strconv.Atoi(strings.TrimSpace(out))
}

// KeptRefs is where a workspace keeps commits that a Reset or an override discarded:
// refs/portalwright/discarded/<branch>/<unix time>. Nothing an author committed is ever
// dropped without a copy; an operator can recover it with git.
const KeptRefs = "refs/portalwright/discarded/"

// abortUnfinished leaves a rebase or merge that a crash interrupted.
func (r *Repos) abortUnfinished(ctx context.Context, dir string) {
	if exists(filepath.Join(dir, ".git", "rebase-merge")) || exists(filepath.Join(dir, ".git", "rebase-apply")) {
		_, _ = r.run(ctx, dir, gitcli.Command("rebase", "--abort"))
	}
	if exists(filepath.Join(dir, ".git", "MERGE_HEAD")) {
		_, _ = r.run(ctx, dir, gitcli.Command("merge", "--abort"))
	}
}

func (r *Repos) hardReset(ctx context.Context, dir, branch string) error {
	if _, err := r.run(ctx, dir, gitcli.Command("checkout", "-q", "-f", "-B").Value(branch, "origin/"+branch)); err != nil {
		return err
	}
	_, err := r.run(ctx, dir, gitcli.Command("clean", "-q", "-f", "-d"))
	return err
}

// Status reports the user's branch, uncommitted changes and ahead/behind counts against the
// portal's branch.
//
// git status refreshes the index as it goes (after a checkout most entries need it, and
// without writing it back every later status would hash those files again), so it runs
// under the workspace's lock like every other command that may write the index. When the
// workspace's working tree and git state are as its last status saw them, that status is
// answered without git and without the lock (treecheck.go).
func (r *Repos) Status(ctx context.Context, userID, portalID int64) (*Status, error) {
	if st, ok := r.unchangedStatus(ctx, userID, portalID); ok {
		return st, nil // nothing git looks at changed since the last status (treecheck.go)
	}
	dir, unlock, err := r.openWorkspace(ctx, userID, portalID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	return r.status(ctx, portalID, dir)
}

func (r *Repos) status(ctx context.Context, portalID int64, dir string) (*Status, error) {
	tree := treeOf(dir) // before git: a change racing with the status shows next time (treecheck.go)
	var watch string
	if tree == nil {
		watch = r.trees().token(dir) // too large to walk: the kernel tells (watch_linux.go)
	}
	out, err := r.git.Run(ctx, dir, gitcli.Command("status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all", "--no-renames"))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidWorkspace, err)
	}
	st, head := parseStatus(out)
	if st.Branch == "" {
		return nil, fmt.Errorf("%w: HEAD is not on a branch", ErrInvalidWorkspace)
	}
	// Recorded for other users' changes (statuscache.go); ahead/behind against the
	// canonical tip read from the ref files, counted by git once per (HEAD, tip) pair (the
	// clone shares the canonical objects, so no fetch is needed).
	r.remember(portalID, dir, st, head, tree, watch)
	return st, r.aheadBehindOf(ctx, portalID, dir, st, head)
}

// parseStatus reads `git status --porcelain=v2 --branch -z`: the branch, HEAD's commit and
// path → ADD / MODIFY / DELETE (a rename, which --no-renames turns off, would be a DELETE
// and an ADD).
func parseStatus(out []byte) (*Status, string) {
	st := &Status{Changes: map[string]string{}}
	var head string
	for _, entry := range nulFields(out) {
		switch {
		case strings.HasPrefix(entry, "# branch.head "):
			if b := strings.TrimPrefix(entry, "# branch.head "); b != "(detached)" {
				st.Branch = b
			}
		case strings.HasPrefix(entry, "# branch.oid "):
			head = strings.TrimPrefix(entry, "# branch.oid ")
		case strings.HasPrefix(entry, "1 "):
			f := strings.SplitN(entry, " ", 9)
			if len(f) < 9 {
				continue
			}
			x, y := f[1][0], f[1][1]
			switch {
			case x == 'A':
				st.Changes[f[8]] = ChangeAdd
			case x == 'D' || y == 'D':
				st.Changes[f[8]] = ChangeDelete
			default:
				st.Changes[f[8]] = ChangeModify
			}
		case strings.HasPrefix(entry, "u "):
			f := strings.SplitN(entry, " ", 11)
			if len(f) == 11 {
				st.Changes[f[10]] = ChangeModify
			}
		case strings.HasPrefix(entry, "? "):
			st.Changes[strings.TrimPrefix(entry, "? ")] = ChangeAdd
		}
	}
	return st, head
}

// aheadBehind compares HEAD with the canonical branch, asking git for the tip.
func (r *Repos) aheadBehind(ctx context.Context, portalID int64, dir, branch string) (int, int, error) {
	sha, err := r.run(ctx, r.bare(portalID), gitcli.Command("rev-parse", "--verify", "-q").Value("refs/heads/"+branch))
	if err != nil {
		return 0, 0, nil // the branch was deleted from the portal: nothing to compare with
	}
	return r.countAheadBehind(ctx, dir, strings.TrimSpace(sha))
}

func (r *Repos) countAheadBehind(ctx context.Context, dir, tip string) (int, int, error) {
	out, err := r.run(ctx, dir, gitcli.Command("rev-list", "--left-right", "--count").Value("HEAD..."+tip))
	if err != nil {
		return 0, 0, err
	}
	f := strings.Fields(out)
	if len(f) != 2 {
		return 0, 0, fmt.Errorf("rev-list: unexpected output %q", out)
	}
	ahead, _ := strconv.Atoi(f[0])
	behind, _ := strconv.Atoi(f[1])
	return ahead, behind, nil
}

// LocalCommits lists the user's commits that the portal's branch does not have yet.
func (r *Repos) LocalCommits(ctx context.Context, userID, portalID int64) ([]LocalCommit, error) {
	dir, unlock, err := r.openWorkspace(ctx, userID, portalID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	st, err := r.status(ctx, portalID, dir)
	if err != nil {
		return nil, err
	}
	sha, err := r.run(ctx, r.bare(portalID), gitcli.Command("rev-parse", "--verify", "-q").Value("refs/heads/"+st.Branch))
	rangeSpec := "HEAD"
	if err == nil {
		rangeSpec = strings.TrimSpace(sha) + "..HEAD"
	}
	out, err := r.run(ctx, dir, gitcli.Command("log", "--format=%H%x1f%s%x1f%cI").Value(rangeSpec))
	if err != nil {
		return nil, err
	}
	commits := []LocalCommit{}
	for _, l := range lines(out) {
		f := strings.Split(l, "\x1f")
		if len(f) != 3 {
			continue
		}
		t, _ := time.Parse(time.RFC3339, f[2])
		commits = append(commits, LocalCommit{CommitID: f[0], Message: f[1], Time: t.UTC()})
	}
	return commits, nil
}

// CommitResult is what a commit produced.
type CommitResult struct {
	CommitID     string   `json:"commitId"`
	RuleWarnings []string `json:"ruleWarnings"`
	// Committed is false when the work, put on the branch, changed nothing the branch does
	// not already have (another author made the same change, a resolution kept theirs
	// everywhere): no commit was made — never an empty one —, CommitID is the branch's tip
	// and the local commit is kept as discarded work, Discarded its id.
	Committed bool   `json:"committed"`
	Discarded string `json:"discarded,omitempty"`
}

// Commit records every uncommitted change as the author, rebases on the portal's branch
// and pushes, under the portal's write lock. On a conflict the rebase is undone: the
// author's commit stays in their workspace (a local commit) and ErrConflict is returned.
func (r *Repos) Commit(ctx context.Context, userID, portalID int64, message string, author Author) (*CommitResult, error) {
	return r.CommitThen(ctx, userID, portalID, message, author, CommitHooks{})
}

// CommitThen is Commit with hooks. Ready: a pull of the portal's git host started with the
// commit is waited for there, so the work is rebased on what it brought, as when the pull ran
// first (the pull never touches a workspace), while git stages and commits meanwhile.
// BeforeLanding: the commit is sent to the git host before it lands (sendfirst.go).
func (r *Repos) CommitThen(ctx context.Context, userID, portalID int64, message string, author Author, hooks CommitHooks) (*CommitResult, error) {
	dir, unlock, err := r.openWorkspace(ctx, userID, portalID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	branch := r.CurrentBranch(userID, portalID) // HEAD's file; git says why when it is not a branch
	if branch == "" {
		out, err := r.run(ctx, dir, gitcli.Command("symbolic-ref", "--short", "-q", "HEAD"))
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalidWorkspace, err)
		}
		branch = strings.TrimSpace(out)
	}
	// The branch may have been deleted under the author: say so before committing anything.
	if readRef(r.bare(portalID), "refs/heads/"+branch) == "" {
		if ok, err := r.hasBranch(ctx, portalID, branch); err != nil {
			return nil, err
		} else if !ok {
			return nil, ErrBranchMissing
		}
	}
	before := readRef(filepath.Join(dir, ".git"), "refs/heads/"+branch) // the commit's parent, if one is made
	if _, err := r.run(ctx, dir, gitcli.Command("add", "-A")); err != nil {
		return nil, err
	}
	staged, err := r.stagedChanges(ctx, dir)
	if err != nil {
		return nil, err
	}
	res := &CommitResult{RuleWarnings: []string{}}
	if len(staged) > 0 {
		res.RuleWarnings = checkContent(dir, staged, r.schemaCheck)
		if _, err := r.run(ctx, dir, authorEnv(gitcli.Command("commit", "-q", "--no-verify").Option("--message", message), author)); err != nil {
			return nil, err
		}
	} else if ahead, _, err := r.aheadBehind(ctx, portalID, dir, branch); err != nil {
		return nil, err
	} else if ahead == 0 {
		return nil, ErrNothingToCommit
	} else {
		before = "" // local commits: where they stand is for git to tell
	}
	if hooks.Ready != nil {
		hooks.Ready()
	}
	landed, discarded, err := r.publish(ctx, portalID, dir, branch, before, hooks.BeforeLanding)
	if err != nil {
		return res, err
	}
	head := readRef(filepath.Join(dir, ".git"), "refs/heads/"+branch) // where HEAD points, without a git process
	if head == "" {
		out, err := r.run(ctx, dir, gitcli.Command("rev-parse", "HEAD"))
		if err != nil {
			return nil, err
		}
		head = strings.TrimSpace(out)
	}
	res.CommitID, res.Committed, res.Discarded = head, landed, discarded
	if !landed {
		res.RuleWarnings = []string{} // nothing of it was committed
	}
	return res, nil
}

// stagedChanges lists what `git add -A` staged, as path → ADD / MODIFY / DELETE.
func (r *Repos) stagedChanges(ctx context.Context, dir string) (map[string]string, error) {
	out, err := r.git.Run(ctx, dir, gitcli.Command("diff", "--cached", "--name-status", "--no-renames", "-z"))
	if err != nil {
		return nil, err
	}
	fields := nulFields(out)
	changes := map[string]string{}
	for i := 0; i+1 < len(fields); i += 2 {
		switch fields[i] {
		case "A":
			changes[fields[i+1]] = ChangeAdd
		case "D":
			changes[fields[i+1]] = ChangeDelete
		default:
			changes[fields[i+1]] = ChangeModify
		}
	}
	return changes, nil
}

// publish puts the workspace's commits on the canonical branch. The clone shares the
// canonical repository's objects, so the branch's current commit is read there directly
// (no fetch); the workspace is rebased only when the branch moved since, then pushed.
// landed is false when the commits, replayed, changed nothing (replayOn): nothing is pushed
// and discarded names the kept work. parent, when not "", is the parent of the workspace's
// only new commit: when it is the tip, HEAD descends from it without asking git. gate, when
// not nil, is asked before the landing (sendfirst.go).
func (r *Repos) publish(ctx context.Context, portalID int64, dir, branch, parent string, gate LandingGate) (landed bool, discarded string, err error) {
	unlock, err := r.lock(ctx, portalID)
	if err != nil {
		return false, "", err
	}
	defer unlock()
	tip := readRef(r.bare(portalID), "refs/heads/"+branch)
	if tip == "" {
		out, err := r.run(ctx, r.bare(portalID), gitcli.Command("rev-parse", "--verify", "-q").Value("refs/heads/"+branch))
		if err != nil {
			return false, "", ErrBranchMissing
		}
		tip = strings.TrimSpace(out)
	}
	if parent != tip {
		_, err = r.run(ctx, dir, gitcli.Command("merge-base", "--is-ancestor").Value(tip, "HEAD"))
	}
	var ge *gitcli.Error
	switch {
	case errors.As(err, &ge) && ge.ExitCode == 1: // the branch moved: replay our commits on it
		landed, discarded, err := r.replayOn(ctx, dir, branch, tip)
		if err != nil {
			return false, "", err // a conflict moved nothing: the commit stays in the workspace (conflicts.go)
		}
		if !landed {
			return false, discarded, nil
		}
	case err != nil:
		return false, "", err
	}
	head := readRef(filepath.Join(dir, ".git"), "refs/heads/"+branch)
	sent := false
	if gate != nil && head != "" {
		l := &Landing{r: r, portalID: portalID, dir: dir, Branch: branch, Tip: tip, Head: head}
		// The workspace's status is taken while the gate waits for the git host (a push
		// never touches the index): the commit's announcement then reads it from the record
		// (statuscache.go) instead of running git status after the landing. Landing moves
		// no part of the workspace's git state the record depends on (gitMark).
		statused := make(chan struct{})
		go func() {
			defer close(statused)
			_, _ = r.status(ctx, portalID, dir) // a failure only costs the announcement its own status
		}()
		err := gate(ctx, l)
		<-statused
		if err != nil {
			return false, "", err
		}
		sent = l.sent
	}
	if err := r.landOrPush(ctx, portalID, dir, branch, tip, head, sent); err != nil {
		return false, "", err
	}
	return true, "", nil
}

// landOrPush puts the workspace's HEAD (on branch, a descendant of tip; head when known) on
// the canonical branch: by linking its objects and moving the ref (landing.go), or by a push
// where links cannot be made. sent: the git host has head already; its UpstreamRefs entry
// moves too. The caller holds the workspace lock and the portal lock.
func (r *Repos) landOrPush(ctx context.Context, portalID int64, dir, branch, tip, head string, sent bool) error {
	if head != "" {
		err := r.land(ctx, portalID, dir, branch, tip, head, sent)
		if err == nil {
			return nil
		} else if !errors.Is(err, errCannotLink) {
			return fmt.Errorf("%w: %v", ErrPush, err)
		}
	}
	if _, err := r.run(ctx, dir, gitcli.Command("push", "-q", "origin").Value("HEAD:refs/heads/"+branch)); err != nil {
		return fmt.Errorf("%w: %v", ErrPush, err)
	}
	if sent {
		if _, err := r.run(ctx, r.bare(portalID), gitcli.Command("update-ref").Value(UpstreamRefs+branch, head)); err != nil {
			return fmt.Errorf("%w: %v", ErrPush, err)
		}
	}
	return nil
}

// RevertAll discards every uncommitted change of the user's workspace.
func (r *Repos) RevertAll(ctx context.Context, userID, portalID int64) error {
	dir, unlock, err := r.openWorkspace(ctx, userID, portalID)
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := r.run(ctx, dir, gitcli.Command("reset", "-q", "--hard", "HEAD")); err != nil {
		return err
	}
	_, err = r.run(ctx, dir, gitcli.Command("clean", "-q", "-f", "-d"))
	return err
}

var commitID = regexp.MustCompile(`^[0-9a-f]{7,64}$`)

// RevertTo makes the tree of an earlier commit the branch's new state, as a new commit on
// top (history is kept), and publishes it. Uncommitted changes are discarded first.
func (r *Repos) RevertTo(ctx context.Context, userID, portalID int64, commit string, author Author) (*CommitResult, error) {
	if !commitID.MatchString(commit) {
		return nil, ErrUnknownCommit
	}
	dir, unlock, err := r.openWorkspace(ctx, userID, portalID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	full, err := r.run(ctx, dir, gitcli.Command("rev-parse", "--verify", "-q").Value(commit+"^{commit}"))
	if err != nil {
		return nil, MissingOr(ctx, err, ErrUnknownCommit)
	}
	full = strings.TrimSpace(full)
	st, err := r.status(ctx, portalID, dir)
	if err != nil {
		return nil, err
	}
	if _, err := r.run(ctx, dir, gitcli.Command("reset", "-q", "--hard", "HEAD")); err != nil {
		return nil, err
	}
	if _, err := r.run(ctx, dir, gitcli.Command("clean", "-q", "-f", "-d")); err != nil {
		return nil, err
	}
	if _, err := r.run(ctx, dir, gitcli.Command("read-tree", "-u", "--reset").Value(full)); err != nil {
		return nil, err
	}
	subject, _ := r.run(ctx, dir, gitcli.Command("log", "-1", "--format=%s").Value(full))
	msg := "Revert to " + full[:10] + " " + strings.TrimSpace(subject)
	if _, err := r.run(ctx, dir, authorEnv(gitcli.Command("commit", "-q", "--no-verify", "--allow-empty").Option("--message", msg), author)); err != nil {
		return nil, err
	}
	landed, discarded, err := r.publish(ctx, portalID, dir, st.Branch, "", nil)
	if err != nil {
		return nil, err
	}
	head, err := r.run(ctx, dir, gitcli.Command("rev-parse", "HEAD"))
	if err != nil {
		return nil, err
	}
	return &CommitResult{CommitID: strings.TrimSpace(head), Committed: landed, Discarded: discarded, RuleWarnings: []string{}}, nil
}

// Reset puts the workspace back on a branch of the portal: the first of want, the branch
// the workspace is on, and fallback (the portal's active branch) that exists. Uncommitted
// changes are dropped, an unfinished rebase is abandoned, and local commits are dropped
// from the branch but kept under KeptRefs.
func (r *Repos) Reset(ctx context.Context, userID, portalID int64, want, fallback string) (*Status, error) {
	dir, unlock, err := r.openWorkspace(ctx, userID, portalID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	r.abortUnfinished(ctx, dir)
	if err := r.syncOriginRefs(ctx, portalID, dir, want, r.CurrentBranch(userID, portalID), fallback, DefaultBranch); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidWorkspace, err)
	}
	current, err := r.run(ctx, dir, gitcli.Command("symbolic-ref", "--short", "-q", "HEAD"))
	if err != nil {
		current = ""
	}
	current = strings.TrimSpace(current)
	branch := ""
	for _, b := range []string{want, current, fallback, DefaultBranch} {
		if b == "" {
			continue
		}
		if ok, _ := r.hasBranch(ctx, portalID, b); ok {
			branch = b
			break
		}
	}
	if branch == "" {
		return nil, ErrBranchMissing
	}
	if err := r.keepWork(ctx, dir, current, "reset"); err != nil {
		return nil, err
	}
	if err := r.hardReset(ctx, dir, branch); err != nil {
		return nil, err
	}
	return r.status(ctx, portalID, dir)
}

// BranchInUse is returned when a branch cannot be deleted because workspaces have it
// checked out with work that is not on the portal yet.
type BranchInUse struct{ Users []int64 }

func (e *BranchInUse) Error() string { return "the branch is checked out with unpublished work" }

// usersWithWorkOn lists the users whose workspace is on branch with uncommitted changes or
// commits the branch does not have. It runs under the portal lock, so it reads without
// taking workspace locks (git status with GIT_OPTIONAL_LOCKS=0 writes nothing).
func (r *Repos) usersWithWorkOn(ctx context.Context, portalID int64, branch string) []int64 {
	tip := readRef(r.bare(portalID), "refs/heads/"+branch)
	var users []int64
	for _, uid := range r.Workspaces(portalID) {
		dir := r.WorkspaceDir(uid, portalID)
		head, err := os.ReadFile(filepath.Join(dir, ".git", "HEAD"))
		if err != nil || strings.TrimSpace(string(head)) != "ref: refs/heads/"+branch {
			continue
		}
		out, err := r.run(ctx, dir, gitcli.Command("status", "--porcelain", "--untracked-files=normal").Env("GIT_OPTIONAL_LOCKS", "0"))
		if err == nil && strings.TrimSpace(out) != "" {
			users = append(users, uid)
			continue
		}
		if tip != "" {
			if ahead, _, err := r.countAheadBehind(ctx, dir, tip); err == nil && ahead > 0 {
				users = append(users, uid)
			}
		}
	}
	return users
}

// Workspaces lists the users who have a workspace of the portal.
func (r *Repos) Workspaces(portalID int64) []int64 {
	entries, _ := os.ReadDir(filepath.Join(r.root, "workspaces"))
	var users []int64
	for _, e := range entries {
		id, err := strconv.ParseInt(e.Name(), 10, 64)
		if err == nil && exists(filepath.Join(r.WorkspaceDir(id, portalID), ".git")) {
			users = append(users, id)
		}
	}
	sort.Slice(users, func(i, j int) bool { return users[i] < users[j] })
	return users
}

// referencePattern finds local references in HTML: src="…" and href="…".
var referencePattern = regexp.MustCompile(`(?i)\b(?:src|href)\s*=\s*["']([^"'#?]+)`)

// CheckAll runs the content check over every tracked and new file of the workspace.
func (r *Repos) CheckAll(ctx context.Context, userID, portalID int64) ([]string, error) {
	dir, unlock, err := r.openWorkspace(ctx, userID, portalID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	out, err := r.git.Run(ctx, dir, gitcli.Command("ls-files", "-z", "--cached", "--others", "--exclude-standard"))
	if err != nil {
		return nil, err
	}
	files := map[string]string{}
	for _, f := range nulFields(out) {
		files[f] = ChangeModify
	}
	warnings := checkContent(dir, files, r.schemaCheck)
	if warnings == nil {
		warnings = []string{}
	}
	return warnings, nil
}

// checkContent is the commit-time content check: changed JSON files must parse and keep their
// companion schema (<path>.schema, when schemas is set), and files a changed HTML page
// references in the portal must exist. Problems are warnings: the commit
// goes ahead (CONTENT_VALIDATION_PASS_WITH_WARNINGS). Files are read through the workspace's
// root (ReadIn, paths.go), so a link in the content is never followed.
func checkContent(dir string, changes map[string]string, schemas SchemaCheck) []string {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil
	}
	defer root.Close()
	var warnings []string
	paths := make([]string, 0, len(changes))
	for p, kind := range changes {
		if kind != ChangeDelete {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		file, err := CleanPath(p)
		if err != nil {
			continue
		}
		switch strings.ToLower(path.Ext(p)) {
		case ".json":
			data, err := ReadIn(root, file)
			if err != nil {
				continue
			}
			if !json.Valid(data) {
				warnings = append(warnings, p+": the file is not valid JSON.")
				continue
			}
			if schemas == nil {
				continue
			}
			if sp, err := CleanPath(p + ".schema"); err == nil {
				if schema, err := ReadIn(root, sp); err == nil {
					for _, problem := range schemas(data, schema) {
						warnings = append(warnings, p+": "+problem)
					}
				}
			}
		case ".html", ".htm":
			data, err := ReadIn(root, file)
			if err != nil {
				continue
			}
			for _, m := range referencePattern.FindAllStringSubmatch(string(data), -1) {
				ref := m[1]
				if strings.Contains(ref, ":") || strings.HasPrefix(ref, "//") || strings.Contains(ref, "{{") {
					continue // absolute URLs and engine placeholders are not files of the portal
				}
				target := path.Clean(path.Join(path.Dir(p), ref))
				if strings.HasPrefix(ref, "/") {
					target = path.Clean(strings.TrimPrefix(ref, "/"))
				}
				if strings.HasPrefix(target, "..") {
					continue
				}
				if t, err := CleanPath(target); err != nil || !existsIn(root, t) {
					warnings = append(warnings, p+": the referenced file '"+ref+"' does not exist.")
				}
			}
		}
	}
	return warnings
}
