package workspace

// Telling, without git, whether a workspace changed since its last status.
//
// Every status also describes the working tree as it was just before git looked: each file
// and folder's name, type, size, modification time and inode (a walk that never follows
// links, .git left out), hashed, and kept in the status record with the git state (gitMark).
// When both are as they were, the recorded status still holds. Two things use that:
//
//   - a user's own local changes (GET local-changes, polled every 10 s by each open portal,
//     and under 200 authors a git process per poll was more than half of the server's work)
//     answer from the record when nothing changed, with no git process and no lock;
//   - other users' changes re-check every workspace's tree now and then (sweep, at most
//     about once a second and 5% of the time, in the caller that finds it due), so a file
//     written into a workspace outside the product — by hand, by a script, by a crash
//     between a write and its status — shows within about a second, not only after its user
//     polls.
//
// The walk is taken before git status, so a change racing with that status differs next
// time. Timestamps are coarse, so a tree with anything modified within racyMargin of the
// walk is not trusted (git's own "racy git" rule): the next check asks git again. Trees of
// more than treeLimit entries are not walked (for them git status is the cheaper check):
// they rely on the product following each write with a status.

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/fnv"
	"io/fs"
	"path/filepath"
	"time"
)

// treeLimit: beyond this many files and folders the walk costs about what git status does.
const treeLimit = 2000

// treeStamp describes a working tree as a walk saw it.
type treeStamp struct {
	Hash    uint64 `json:"hash"`
	Entries int    `json:"entries"`
	Racy    bool   `json:"racy,omitempty"` // modified too recently to be trusted
	At      int64  `json:"at"`             // when the walk began (Unix nanoseconds)
}

var errBigTree = errors.New("working tree too large to check by walking")

// treeOf walks the working tree; nil when it is too large (or unreadable).
func treeOf(dir string) *treeStamp {
	if stampOf(filepath.Join(dir, ".git", "index")).Size > treeLimit*128 {
		return nil // an index of more files than that (an entry takes 70 bytes and more)
	}
	t, err := walkTree(dir, time.Now())
	if err != nil {
		return nil
	}
	return t
}

// walkTree hashes what git status depends on in the working tree; errBigTree past
// treeLimit entries. Anything modified within racyMargin of since makes it racy.
func walkTree(dir string, since time.Time) (*treeStamp, error) {
	h := fnv.New64a()
	t := &treeStamp{At: since.UnixNano()}
	recent := since.Add(-racyMargin).UnixNano()
	var buf [8 * 4]byte
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		rel := p[len(dir)+1:]
		if rel == ".git" {
			return filepath.SkipDir
		}
		t.Entries++
		if t.Entries > treeLimit {
			return errBigTree
		}
		info, err := d.Info() // lstat: a link is described, never followed
		if err != nil {
			return err
		}
		s := stampInfo(info)
		if s.MTime >= recent {
			t.Racy = true
		}
		h.Write([]byte(rel))
		binary.LittleEndian.PutUint64(buf[0:], uint64(s.Size))
		binary.LittleEndian.PutUint64(buf[8:], uint64(s.MTime))
		binary.LittleEndian.PutUint64(buf[16:], s.Ino)
		binary.LittleEndian.PutUint64(buf[24:], uint64(info.Mode()))
		h.Write(buf[:])
		return nil
	})
	if err != nil {
		return nil, err
	}
	t.Hash = h.Sum64()
	return t, nil
}

// matches tells whether a workspace looks as its record describes it, without git: the same
// git state, and the same working tree unless it was too large to walk. A racy record may
// match and still be out of date (a change within the same timestamp tick).
func (rec *record) matches(dir string) bool {
	if rec == nil || rec.Stale || markOf(filepath.Join(dir, ".git")) != rec.Mark {
		return false
	}
	if rec.Tree == nil {
		return true
	}
	t, err := walkTree(dir, time.Now())
	return err == nil && t.Hash == rec.Tree.Hash && t.Entries == rec.Tree.Entries
}

// unchanged tells whether a workspace is certainly still as its record describes it.
func (rec *record) unchanged(dir string) bool {
	return rec != nil && rec.Tree != nil && !rec.Tree.Racy && rec.matches(dir)
}

// settled tells whether a racy record can be replaced by a trusted one now (its walk is
// older than racyMargin).
func (rec *record) settled() bool {
	return rec.Tree != nil && rec.Tree.Racy && time.Since(time.Unix(0, rec.Tree.At)) > racyMargin
}

// unchangedStatus answers the recorded status of the workspace if nothing it depends on
// changed since (no lock, no git); false when git must be asked.
func (r *Repos) unchangedStatus(ctx context.Context, userID, portalID int64) (*Status, bool) {
	dir := r.WorkspaceDir(userID, portalID)
	rec, err := loadRecord(filepath.Join(dir, ".git", recordFile))
	if err != nil || rec.User != userID || rec.Portal != portalID || !(rec.unchanged(dir) || r.unchangedWatched(dir, rec)) {
		return nil, false
	}
	st := &Status{Branch: rec.Branch, Changes: rec.Changes}
	if err := r.aheadBehindOf(ctx, portalID, dir, st, rec.Head); err != nil {
		return nil, false
	}
	return st, true
}

// unchangedWatched tells whether a large workspace is certainly still as its record
// describes it: the same git state, and no change its watch saw since (watch_linux.go).
func (r *Repos) unchangedWatched(dir string, rec *record) bool {
	return rec.Tree == nil && rec.Watch != "" && !rec.Stale && markOf(filepath.Join(dir, ".git")) == rec.Mark &&
		r.trees().unchangedSince(dir, rec.Watch)
}

// statusByGit takes a git status under the workspace lock (no shortcut): a workspace without
// a usable record.
func (r *Repos) statusByGit(ctx context.Context, userID, portalID int64) (*Status, error) {
	dir, unlock, err := r.openWorkspace(ctx, userID, portalID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	return r.status(ctx, portalID, dir)
}
