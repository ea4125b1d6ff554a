package workspace

// Discarded work: what a Reset, a branch override or an interrupted merge took off a
// workspace is kept under KeptRefs (refs/portalwright/discarded/<branch>/<unix nanos>) in that
// workspace, listed for its author for DiscardedKeep, and restorable as uncommitted changes.

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"portalwright/internal/gitcli"
)

// DiscardedKeep is how long discarded work stays listed and restorable; older entries are
// removed when the list is read (the objects then go with git's own garbage collection).
const DiscardedKeep = 60 * 24 * time.Hour

// ErrNoDiscarded is returned for a discarded-work id the workspace does not have.
var ErrNoDiscarded = errors.New("no such discarded work")

// Discarded is one piece of discarded work.
type Discarded struct {
	ID      string            `json:"id"`
	Branch  string            `json:"branch"`
	Time    time.Time         `json:"time"`
	Message string            `json:"message"`
	Commits int               `json:"commits"`
	Files   map[string]string `json:"files"` // path → ADD, MODIFY or DELETE against where it started
	ref     string
}

// keepRef saves commit under KeptRefs for branch.
func (r *Repos) keepRef(ctx context.Context, dir, branch, commit string) error {
	_, err := r.keep(ctx, dir, branch, commit)
	return err
}

// keep is keepRef answering the discarded work's id.
func (r *Repos) keep(ctx context.Context, dir, branch, commit string) (string, error) {
	if branch == "" {
		branch = "detached"
	}
	id := strconv.FormatInt(time.Now().UnixNano(), 10)
	_, err := r.run(ctx, dir, gitcli.Command("update-ref").Value(KeptRefs+branch+"/"+id, commit))
	return id, err
}

// dropNewestKept removes the newest kept ref of branch: the safety copy of an operation that
// finished (it is not discarded work).
func (r *Repos) dropNewestKept(ctx context.Context, dir, branch string) {
	list, err := r.keptRefs(ctx, dir)
	if err != nil {
		return
	}
	var newest *Discarded
	for i := range list {
		if list[i].Branch == branch && (newest == nil || list[i].Time.After(newest.Time)) {
			newest = &list[i]
		}
	}
	if newest != nil {
		_, _ = r.run(ctx, dir, gitcli.Command("update-ref", "-d").Value(newest.ref))
	}
}

// keepWork saves everything a workspace would lose by a reset: its uncommitted changes (as a
// commit on HEAD) and its commits on no branch of the portal.
func (r *Repos) keepWork(ctx context.Context, dir, branch, reason string) error {
	head, err := r.run(ctx, dir, gitcli.Command("rev-parse", "--verify", "-q", "HEAD"))
	if err != nil {
		return nil // an unreadable HEAD has nothing to keep; the reset repairs it
	}
	head = strings.TrimSpace(head)
	keep := head
	if tree, err := r.worktreeTree(ctx, dir); err == nil {
		if headTree, err := r.run(ctx, dir, gitcli.Command("rev-parse").Value(head+"^{tree}")); err == nil && strings.TrimSpace(headTree) != tree {
			if c, err := r.commitTree(ctx, dir, tree, head, "Uncommitted changes ("+reason+")", SystemAuthor); err == nil {
				keep = c
			}
		}
	}
	out, err := r.run(ctx, dir, gitcli.Command("rev-list", "--count").Value(keep).Flags("--not", "--remotes=origin"))
	if err != nil {
		return nil
	}
	if n, _ := strconv.Atoi(strings.TrimSpace(out)); n == 0 {
		return nil
	}
	return r.keepRef(ctx, dir, branch, keep)
}

// keptRefs lists the kept refs of a workspace (no details), removing expired ones.
func (r *Repos) keptRefs(ctx context.Context, dir string) ([]Discarded, error) {
	out, err := r.run(ctx, dir, gitcli.Command("for-each-ref", "--format=%(refname)%00%(objectname)%00%(contents:subject)").Value(strings.TrimSuffix(KeptRefs, "/")))
	if err != nil {
		return nil, err
	}
	var list []Discarded
	for _, line := range lines(out) {
		f := strings.SplitN(line, "\x00", 3)
		if len(f) != 3 {
			continue
		}
		rest := strings.TrimPrefix(f[0], KeptRefs)
		i := strings.LastIndex(rest, "/")
		if i < 0 {
			continue
		}
		nanos, err := strconv.ParseInt(rest[i+1:], 10, 64)
		if err != nil {
			continue
		}
		t := time.Unix(0, nanos).UTC()
		if time.Since(t) > DiscardedKeep {
			_, _ = r.run(ctx, dir, gitcli.Command("update-ref", "-d").Value(f[0]))
			continue
		}
		list = append(list, Discarded{ID: rest[i+1:], Branch: rest[:i], Time: t, Message: f[2], ref: f[0]})
	}
	return list, nil
}

// DiscardedWork lists the discarded work of the user's workspace, newest first, with the
// files each changed.
func (cw Collab) DiscardedWork(ctx context.Context, userID, portalID int64) ([]Discarded, error) {
	dir, unlock, err := cw.r.openWorkspace(ctx, userID, portalID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	list, err := cw.r.keptRefs(ctx, dir)
	if err != nil {
		return nil, err
	}
	for i := range list {
		d := &list[i]
		base := cw.r.discardedBase(ctx, dir, d)
		d.Files = map[string]string{}
		if changes, err := cw.r.diffRaw(ctx, dir, base, d.ref); err == nil {
			for p, c := range changes {
				switch {
				case c.from.absent():
					d.Files[p] = ChangeAdd
				case c.to.absent():
					d.Files[p] = ChangeDelete
				default:
					d.Files[p] = ChangeModify
				}
			}
		}
		if out, err := cw.r.run(ctx, dir, gitcli.Command("rev-list", "--count", "--no-merges").Value(d.ref).Flags("--not", "--remotes=origin")); err == nil {
			d.Commits, _ = strconv.Atoi(strings.TrimSpace(out))
		}
	}
	// Newest first.
	for i := 1; i < len(list); i++ {
		for j := i; j > 0 && list[j].Time.After(list[j-1].Time); j-- {
			list[j], list[j-1] = list[j-1], list[j]
		}
	}
	if list == nil {
		list = []Discarded{}
	}
	return list, nil
}

// discardedBase is where a piece of discarded work started: its last commit that is on a
// branch of the portal.
func (r *Repos) discardedBase(ctx context.Context, dir string, d *Discarded) string {
	for _, other := range []string{"origin/" + d.Branch, "HEAD"} {
		if b, err := r.mergeBase(ctx, dir, d.ref, other); err == nil && b != "" {
			return b
		}
	}
	return emptyTree
}

// Restored says what a restore brought back.
type Restored struct {
	Restored    []string `json:"restored"`
	Overlapping []string `json:"overlapping"` // the discarded version replaced overlapping edits here
	Status      *Status  `json:"status"`
}

// RestoreDiscarded brings a piece of discarded work back into the user's workspace as
// uncommitted changes, merged with what the workspace has now; where both changed the same
// thing, the discarded version wins (the author asked for it back) and the path is listed.
func (cw Collab) RestoreDiscarded(ctx context.Context, userID, portalID int64, id string) (*Restored, error) {
	dir, unlock, err := cw.r.openWorkspace(ctx, userID, portalID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	list, err := cw.r.keptRefs(ctx, dir)
	if err != nil {
		return nil, err
	}
	var d *Discarded
	for i := range list {
		if list[i].ID == id {
			d = &list[i]
		}
	}
	if d == nil {
		return nil, ErrNoDiscarded
	}
	base := cw.r.discardedBase(ctx, dir, d)
	current, err := cw.r.worktreeTree(ctx, dir)
	if err != nil {
		return nil, err
	}
	m, err := cw.r.mergeTrees(ctx, dir, base, d.ref, current, nil, true)
	if err != nil {
		return nil, err
	}
	tree, err := cw.r.writeTree(ctx, dir, m)
	if err != nil {
		return nil, err
	}
	if err := cw.r.checkoutAsChanges(ctx, dir, "", tree); err != nil {
		return nil, err
	}
	res := &Restored{Restored: []string{}, Overlapping: []string{}}
	for p := range m.mineOnly {
		res.Restored = append(res.Restored, p)
	}
	for _, f := range m.files {
		res.Restored = append(res.Restored, f.Path)
		if len(f.Result.Conflicts) > 0 {
			res.Overlapping = append(res.Overlapping, f.Path)
		}
	}
	res.Restored = append(res.Restored, m.sameBoth...)
	portalStatus, err := cw.r.status(ctx, portalID, dir)
	if err != nil {
		return nil, err
	}
	res.Status = portalStatus
	return res, nil
}
