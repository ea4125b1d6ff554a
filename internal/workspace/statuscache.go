package workspace

// Workspace status records: other users' changes without a git status per workspace.
//
// GET wsChanges lists every workspace of a portal with its branch, changes and ahead/behind
// counts. Asking git for each on every call made the call cost grow with the number of
// workspaces (0.73 s for 200). Instead each workspace's status is recorded when it is taken,
// and readers answer from the records:
//
//   - Every git status of a workspace goes through (*Repos).status under the workspace lock,
//     and the product follows every write to a workspace with one (the portal service
//     announces the new state). status records what it found — branch, HEAD's commit,
//     changes, and the git state it was taken at (index stamp, HEAD) — in the workspace's
//     .git/portalwright-status.json, replaced atomically, and in memory.
//   - A workspace lock hold that changed the git state (index or HEAD: a commit, a revert, a
//     reset, a failed operation, a fresh clone) and did not end with a status leaves a
//     tombstone record instead: the next reader takes a fresh status. A file written by the
//     product changes neither, so the product follows it with a status (and the sweep below
//     would catch one that was not).
//   - After writing a record (or tombstone) the writer appends the user's id to the portal's
//     journal, repos/<portal>.git/portalwright-workspaces.log. A reader keeps its offset in
//     the journal and reloads only the records of users named since: one stat per call when
//     nothing changed, and every instance sharing the data dir sees every other's changes.
//     A journal that was rotated or replaced makes the reader read every record again (as
//     on the first call), checking each against its workspace's git state and working tree,
//     which also catches a record left behind by a crash in the middle of an operation.
//   - Ahead and behind depend on the canonical tip, which moves when anyone commits. The
//     record keeps HEAD's commit; the counts are computed against the tip read from the
//     canonical repository's ref files, memoised by (head, tip): one git rev-list serves
//     every workspace at the same commit.
//   - A workspace made before records existed (or whose record is a tombstone) gets one git
//     status on the next read, and none after until it changes.
//   - Each record also describes the working tree it saw (treecheck.go). Readers re-check
//     the trees now and then without git (a sweep, about once a second at most), so a file
//     written into a workspace outside the product shows within about a second too.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"portalwright/internal/gitcli"
)

const (
	recordFile   = "portalwright-status.json"    // in a workspace's .git
	journalFile  = "portalwright-workspaces.log" // in the portal's canonical repository
	journalLimit = 1 << 20                       // rotated past this size
	memoLimit    = 1 << 14                       // (head, tip) pairs kept
)

// record is a workspace's last status as stored in its .git folder.
type record struct {
	Seq     uint64            `json:"seq"` // grows with every record of the workspace
	User    int64             `json:"user"`
	Portal  int64             `json:"portal"`
	Stale   bool              `json:"stale,omitempty"` // a tombstone: take a fresh status
	Branch  string            `json:"branch,omitempty"`
	Head    string            `json:"head,omitempty"`
	Changes map[string]string `json:"changes,omitempty"`
	Mark    gitMark           `json:"mark"`
	Tree    *treeStamp        `json:"tree,omitempty"`  // the working tree just before (treecheck.go); nil: too large
	Watch   string            `json:"watch,omitempty"` // a large tree's watch token just before (watch_linux.go)
}

// sameStatus tells whether two records describe the same status (ignoring Seq).
func (a *record) sameStatus(b *record) bool {
	if a == nil || b == nil || a.Stale || b.Stale || a.Branch != b.Branch || a.Head != b.Head || len(a.Changes) != len(b.Changes) {
		return false
	}
	for p, k := range a.Changes {
		if b.Changes[p] != k {
			return false
		}
	}
	return true
}

// gitMark is the part of a workspace's git state that every git command writing it changes:
// the index file and what HEAD names.
type gitMark struct {
	Index fileStamp `json:"index"`
	HEAD  string    `json:"headFile"`
	Head  string    `json:"head"`
}

func markOf(gitDir string) gitMark {
	m := gitMark{Index: stampOf(filepath.Join(gitDir, "index"))}
	data, _ := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	m.HEAD = strings.TrimSpace(string(data))
	if ref, ok := strings.CutPrefix(m.HEAD, "ref: "); ok {
		m.Head = readRef(gitDir, ref)
	} else {
		m.Head = m.HEAD
	}
	return m
}

// statusCache is the in-memory side: records by portal, lock holds in progress and the
// ahead/behind memo. Its zero value is ready (Repos embeds one).
type statusCache struct {
	mu      sync.Mutex
	holds   map[string]*hold // workspace dir → the workspace lock hold in progress
	portals map[int64]*portalStatuses
	memo    map[[2]string][2]int // (head, tip) → ahead, behind
}

// hold is one workspace lock hold: the workspace's git state when it began, and whether a
// status was taken (at which git state).
type hold struct {
	existed  bool
	start    gitMark
	recorded bool
	mark     gitMark
}

// portalStatuses are the records of one portal's workspaces.
type portalStatuses struct {
	sync sync.Mutex // one reader brings the records up to date at a time

	// under sync:
	journal journalPos
	snap    *Snapshot

	// under statusCache.mu:
	loaded    bool
	swept     time.Time // the last sweep (sweep)
	sweeping  bool
	sweepCost time.Duration
	entries   map[int64]*wsEntry
	gen       uint64 // grows whenever an entry's status changes
	needs     int    // entries that need a git status (no record, not broken)
}

func (e *wsEntry) needsStatus() bool { return e != nil && e.rec == nil && !e.broken }

// put replaces an entry, keeping the count of entries that need a status (under mu).
func (ps *portalStatuses) put(userID int64, e *wsEntry) {
	if ps.entries[userID].needsStatus() {
		ps.needs--
	}
	if e == nil {
		delete(ps.entries, userID)
	} else {
		ps.entries[userID] = e
		if e.needsStatus() {
			ps.needs++
		}
	}
	ps.gen++
}

type wsEntry struct {
	rec    *record // nil: a git status is needed
	broken bool    // git status failed; not retried until the workspace changes
	outrun uint64  // records up to this Seq are known to be out of date
}

type journalPos struct {
	ino    uint64
	header string
	off    int64
}

// UserStatus is one user's workspace in a Snapshot.
type UserStatus struct {
	UserID int64
	*Status
}

// Snapshot is every workspace of a portal at one moment. It is shared by every caller until
// something changes: read it, never modify it. The same pointer is returned while nothing
// changed, so callers may cache what they derive from it by the pointer.
type Snapshot struct {
	Users    []UserStatus // by user id
	gen      uint64
	branches []string // of the users, sorted
	tips     string   // the branches' canonical tips when it was made
}

func tipsKey(bare string, branches []string) string {
	var key strings.Builder
	for _, b := range branches {
		key.WriteString(b + "\x00" + tipOf(bare, b) + "\x00")
	}
	return key.String()
}

func (c *statusCache) portal(portalID int64) *portalStatuses {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.portals == nil {
		c.portals = map[int64]*portalStatuses{}
	}
	ps := c.portals[portalID]
	if ps == nil {
		ps = &portalStatuses{entries: map[int64]*wsEntry{}}
		c.portals[portalID] = ps
	}
	return ps
}

// setEntry stores what is known of a workspace if it is newer than what is there.
func (c *statusCache) setEntry(portalID, userID int64, e *wsEntry, force bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ps := c.portals[portalID]
	if ps == nil {
		return // nobody reads this portal in this process yet: its first reader loads all
	}
	cur := ps.entries[userID]
	switch {
	case e == nil:
		if cur != nil {
			ps.put(userID, nil)
		}
		return
	case cur != nil && cur.rec == nil && e.rec != nil && e.rec.Seq <= cur.outrun:
		return // the sweep found this record out of date: wait for a newer one
	case cur != nil && cur.rec != nil && e.rec != nil && !force:
		if e.rec.Seq <= cur.rec.Seq {
			return
		}
		if cur.rec.sameStatus(e.rec) {
			cur.rec = e.rec // a newer record of the same status: nothing a reader sees changes
			return
		}
	}
	ps.put(userID, e)
}

// --- the write side: under the workspace lock -------------------------------------------

// holdWorkspace wraps a workspace lock's unlock (wsLock): when the hold ends, the record
// must still describe the workspace, or it is replaced by a tombstone. Every git command that
// changes a workspace's content or branch rewrites its index or moves HEAD; a file written
// by the product changes neither, so the product follows each file write with a status
// (the portal service's changed).
func (r *Repos) holdWorkspace(userID, portalID int64, unlock func()) func() {
	dir := r.WorkspaceDir(userID, portalID)
	gitDir := filepath.Join(dir, ".git")
	c := &r.statuses
	h := &hold{existed: exists(gitDir)}
	if h.existed {
		h.start = markOf(gitDir)
	}
	c.mu.Lock()
	if c.holds == nil {
		c.holds = map[string]*hold{}
	}
	c.holds[dir] = h
	c.mu.Unlock()
	return func() {
		defer unlock()
		c.mu.Lock()
		delete(c.holds, dir)
		c.mu.Unlock()
		if !exists(gitDir) {
			if h.existed { // the workspace went away (a failed clone): readers drop it
				c.setEntry(portalID, userID, nil, true)
				appendJournal(r.bare(portalID), userID)
			}
			return
		}
		now := markOf(gitDir)
		switch {
		case h.recorded && now == h.mark:
			return // the last git change of the hold was followed by a status: it stands
		case !h.recorded && h.existed && now == h.start:
			return // git changed nothing (a read, a lock file cleanup)
		}
		r.writeRecord(portalID, userID, gitDir, &record{Stale: true})
	}
}

// remember records a status that status() just took (under the workspace lock), with the
// working tree as it was just before.
func (r *Repos) remember(portalID int64, dir string, st *Status, head string, tree *treeStamp, watch string) {
	userID, err := strconv.ParseInt(filepath.Base(filepath.Dir(dir)), 10, 64)
	if err != nil || filepath.Clean(dir) != r.WorkspaceDir(userID, portalID) {
		return // not a user's workspace
	}
	gitDir := filepath.Join(dir, ".git")
	m := markOf(gitDir)
	changes := make(map[string]string, len(st.Changes))
	for p, k := range st.Changes {
		changes[p] = k
	}
	r.writeRecord(portalID, userID, gitDir, &record{Branch: st.Branch, Head: head, Changes: changes, Mark: m, Tree: tree, Watch: watch})
	c := &r.statuses
	c.mu.Lock()
	if h := c.holds[dir]; h != nil {
		h.recorded, h.mark = true, m
	}
	c.mu.Unlock()
}

// writeRecord replaces the workspace's record (numbering it after the one on disk), updates
// memory and tells other readers through the journal. A record equal to the one on disk is
// not written again: a status poll that finds nothing new costs no write.
func (r *Repos) writeRecord(portalID, userID int64, gitDir string, rec *record) {
	rec.User, rec.Portal = userID, portalID
	path := filepath.Join(gitDir, recordFile)
	prev, _ := loadRecord(path)
	if prev != nil {
		if prev.User == userID && prev.Portal == portalID && prev.Stale == rec.Stale && (rec.Stale || (prev.sameStatus(rec) && prev.Mark == rec.Mark && sameTree(prev.Tree, rec.Tree) && prev.Watch == rec.Watch)) {
			if prev.Stale {
				r.statuses.setEntry(portalID, userID, &wsEntry{}, false)
			} else {
				r.statuses.setEntry(portalID, userID, &wsEntry{rec: prev}, false)
			}
			return
		}
		rec.Seq = prev.Seq
	}
	rec.Seq++
	data, err := json.Marshal(rec)
	if err == nil {
		err = writeAtomic(path, data)
	}
	if err != nil {
		// Without a record on disk the next reader takes a status itself.
		_ = os.Remove(path)
		rec = &record{Seq: rec.Seq, User: userID, Portal: portalID, Stale: true}
	}
	e := &wsEntry{rec: rec}
	if rec.Stale {
		e = &wsEntry{}
	}
	r.statuses.setEntry(portalID, userID, e, false)
	appendJournal(r.bare(portalID), userID)
}

// sameTree compares what two walks saw (not when).
func sameTree(a, b *treeStamp) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && a.Hash == b.Hash && a.Entries == b.Entries && a.Racy == b.Racy)
}

func loadRecord(path string) (*record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rec record
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, err
	}
	if rec.Changes == nil {
		rec.Changes = map[string]string{}
	}
	return &rec, nil
}

func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".pw-status-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// appendJournal adds a user's id to the portal's journal. Each line is one write to a file
// opened for appending, so concurrent writers on one machine never interleave. (NFS does not
// append atomically across machines: a line lost that way is caught by the sweep.)
func appendJournal(bare string, userID int64) {
	path := filepath.Join(bare, journalFile)
	line := []byte(strconv.FormatInt(userID, 10) + "\n")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if errors.Is(err, os.ErrNotExist) {
		if !exists(bare) {
			return // the portal is being deleted
		}
		createJournal(path)
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	}
	if err != nil {
		return
	}
	_, _ = f.Write(line)
	fi, err := f.Stat()
	f.Close()
	if err == nil && fi.Size() > journalLimit {
		// Readers notice the new file and read every record again.
		_ = os.Rename(path, path+".old")
	}
}

// createJournal makes the journal with its header line in one step (link fails if another
// writer made it first). On a file system without hard links it is created in place.
func createJournal(path string) {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	header := "portalwright workspace journal " + hex.EncodeToString(b) + "\n"
	tmp, err := os.CreateTemp(filepath.Dir(path), ".pw-journal-*.tmp")
	if err != nil {
		return
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.WriteString(header)
	if cerr := tmp.Close(); err != nil || cerr != nil {
		return
	}
	if err := os.Link(tmp.Name(), path); err == nil || errors.Is(err, os.ErrExist) {
		return
	}
	if f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); err == nil {
		_, _ = f.WriteString(header)
		f.Close()
	}
}

// --- the read side -----------------------------------------------------------------------

// Statuses answers the status of every workspace of the portal from the records: no git
// process unless a workspace changed in a way only git can tell (see the top of this file).
func (r *Repos) Statuses(ctx context.Context, portalID int64) (*Snapshot, error) {
	c := &r.statuses
	ps := c.portal(portalID)
	if c.sweepDue(ps) {
		r.sweep(ctx, portalID, ps) // files changed outside the product (treecheck.go)
	}
	ps.sync.Lock()
	defer ps.sync.Unlock()
	bare := r.bare(portalID)
	if !exists(bare) {
		return &Snapshot{Users: []UserStatus{}}, nil
	}

	c.mu.Lock()
	loaded := ps.loaded
	c.mu.Unlock()
	users, full := ps.readJournal(filepath.Join(bare, journalFile))
	if full || !loaded {
		r.loadAll(portalID, ps)
	} else {
		for _, u := range users {
			r.reload(portalID, u, false)
		}
	}
	// A workspace changed by its user while this ran needs another status: a few passes.
	for pass := 0; pass < 3; pass++ {
		if n, err := r.statusMissing(ctx, portalID, ps); err != nil {
			return nil, err
		} else if n == 0 {
			break
		}
	}

	// Nothing changed since the last snapshot, and the tips of its branches did not move:
	// the same snapshot (a few stats, no copying).
	c.mu.Lock()
	gen := ps.gen
	c.mu.Unlock()
	if ps.snap != nil && ps.snap.gen == gen && ps.snap.tips == tipsKey(bare, ps.snap.branches) {
		return ps.snap, nil
	}

	// The entries at this moment, and the canonical tips of their branches.
	type item struct {
		user int64
		rec  *record
	}
	c.mu.Lock()
	gen = ps.gen
	items := make([]item, 0, len(ps.entries))
	for u, e := range ps.entries {
		if e.rec != nil {
			items = append(items, item{u, e.rec})
		}
	}
	c.mu.Unlock()
	tips := map[string]string{}
	for _, it := range items {
		tips[it.rec.Branch] = ""
	}
	branches := make([]string, 0, len(tips))
	for b := range tips {
		branches = append(branches, b)
		tips[b] = tipOf(bare, b)
	}
	sort.Strings(branches)
	var key strings.Builder
	for _, b := range branches {
		key.WriteString(b + "\x00" + tips[b] + "\x00")
	}
	sort.Slice(items, func(i, j int) bool { return items[i].user < items[j].user })
	snap := &Snapshot{Users: make([]UserStatus, 0, len(items)), gen: gen, tips: key.String(), branches: branches}
	for _, it := range items {
		st := &Status{Branch: it.rec.Branch, Changes: it.rec.Changes}
		var err error
		st.Ahead, st.Behind, err = r.countMemo(ctx, r.WorkspaceDir(it.user, portalID), it.rec.Head, tips[it.rec.Branch])
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			r.reload(portalID, it.user, true) // HEAD's commit is not there any more: ask git next time
			continue
		}
		snap.Users = append(snap.Users, UserStatus{UserID: it.user, Status: st})
	}
	ps.snap = snap
	return snap, nil
}

// readJournal reads what was appended to the journal since the last call: the users whose
// records changed, or full when the journal was replaced (read every record).
func (ps *portalStatuses) readJournal(path string) (users []int64, full bool) {
	f, err := os.Open(path)
	if err != nil {
		if ps.journal != (journalPos{}) {
			ps.journal = journalPos{}
			return nil, true
		}
		return nil, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, true
	}
	ino := stampInfo(fi).Ino
	if ino != ps.journal.ino || fi.Size() < ps.journal.off || !ps.sameHeader(f) {
		header := make([]byte, 64)
		n, _ := f.ReadAt(header, 0)
		line, _, _ := strings.Cut(string(header[:n]), "\n")
		ps.journal = journalPos{ino: ino, header: line, off: fi.Size()}
		return nil, true
	}
	if fi.Size() == ps.journal.off {
		return nil, false
	}
	buf := make([]byte, fi.Size()-ps.journal.off)
	n, err := f.ReadAt(buf, ps.journal.off)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, true
	}
	buf = buf[:n]
	end := strings.LastIndexByte(string(buf), '\n')
	if end < 0 {
		return nil, false // a line being written: next time
	}
	ps.journal.off += int64(end + 1)
	seen := map[int64]bool{}
	for _, l := range strings.Split(string(buf[:end]), "\n") {
		if u, err := strconv.ParseInt(l, 10, 64); err == nil && !seen[u] {
			seen[u] = true
			users = append(users, u)
		}
	}
	return users, false
}

func (ps *portalStatuses) sameHeader(f *os.File) bool {
	if ps.journal.header == "" {
		return true
	}
	buf := make([]byte, len(ps.journal.header))
	n, _ := f.ReadAt(buf, 0)
	return string(buf[:n]) == ps.journal.header
}

// loadAll reads the record of every workspace of the portal, trusting only records that
// match their workspace's git state.
func (r *Repos) loadAll(portalID int64, ps *portalStatuses) {
	c := &r.statuses
	users := r.Workspaces(portalID)
	fresh := make(map[int64]*wsEntry, len(users))
	for _, u := range users {
		gitDir := filepath.Join(r.WorkspaceDir(u, portalID), ".git")
		rec, err := loadRecord(filepath.Join(gitDir, recordFile))
		// A racy record that matches is kept: the next sweep re-checks it once it settled.
		if err != nil || rec.User != u || rec.Portal != portalID || !rec.matches(r.WorkspaceDir(u, portalID)) {
			fresh[u] = &wsEntry{}
			continue
		}
		fresh[u] = &wsEntry{rec: rec}
	}
	c.mu.Lock()
	ps.entries = fresh
	ps.loaded, ps.swept = true, time.Now() // every tree was just checked
	ps.needs = 0
	for _, e := range fresh {
		if e.needsStatus() {
			ps.needs++
		}
	}
	ps.gen++
	c.mu.Unlock()
}

// reload reads one workspace's record again (its user was named in the journal); stale
// forces a fresh status.
func (r *Repos) reload(portalID, userID int64, stale bool) {
	gitDir := filepath.Join(r.WorkspaceDir(userID, portalID), ".git")
	if !exists(gitDir) {
		r.statuses.setEntry(portalID, userID, nil, true)
		return
	}
	rec, err := loadRecord(filepath.Join(gitDir, recordFile))
	if stale || err != nil || rec.Stale || rec.User != userID || rec.Portal != portalID {
		r.statuses.setEntry(portalID, userID, &wsEntry{}, true)
		return
	}
	r.statuses.setEntry(portalID, userID, &wsEntry{rec: rec}, false)
}

// statusMissing takes a git status of every workspace that has no usable record, a few at a
// time; each records what it finds.
func (r *Repos) statusMissing(ctx context.Context, portalID int64, ps *portalStatuses) (int, error) {
	c := &r.statuses
	c.mu.Lock()
	var missing []int64
	if ps.needs > 0 {
		for u, e := range ps.entries {
			if e.needsStatus() {
				missing = append(missing, u)
			}
		}
	}
	c.mu.Unlock()
	if len(missing) == 0 {
		return 0, nil
	}
	sort.Slice(missing, func(i, j int) bool { return missing[i] < missing[j] })
	next := make(chan int64)
	var wg sync.WaitGroup
	for w := 0; w < min(len(missing), max(2, runtime.NumCPU())); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range next {
				_, err := r.statusByGit(ctx, u, portalID)
				switch {
				case err == nil:
					// status() recorded it; make sure this reader has it even if the
					// record on disk could not be written
				case ctx.Err() != nil:
				case errors.Is(err, ErrNoWorkspace):
					c.setEntry(portalID, u, nil, true)
				default:
					slog.Warn("workspace status failed; other users' changes leave it out until it changes", "user", u, "portal", portalID, "error", err)
					c.setEntry(portalID, u, &wsEntry{broken: true}, true)
				}
			}
		}()
	}
	for _, u := range missing {
		if ctx.Err() != nil {
			break
		}
		next <- u
	}
	close(next)
	wg.Wait()
	return len(missing), ctx.Err()
}

// countMemo is ahead/behind of a workspace at commit head against the canonical tip. The
// answer depends on the two commits only, so it is computed once per pair.
func (r *Repos) countMemo(ctx context.Context, dir, head, tip string) (int, int, error) {
	if tip == "" || head == "" || head == tip {
		return 0, 0, nil
	}
	return r.statuses.memoised([2]string{head, tip}, func() (int, int, error) {
		// The workspace has head (its own objects, or the canonical ones it borrows).
		out, err := r.run(ctx, dir, gitcli.Command("rev-list", "--left-right", "--count").Value(head+"..."+tip))
		if err != nil {
			return 0, 0, err
		}
		f := strings.Fields(out)
		if len(f) != 2 {
			return 0, 0, errors.New("rev-list: unexpected output " + strconv.Quote(out))
		}
		ahead, _ := strconv.Atoi(f[0])
		behind, _ := strconv.Atoi(f[1])
		return ahead, behind, nil
	})
}

// memoised answers count() for key, computed once and kept (at most memoLimit keys).
func (c *statusCache) memoised(key [2]string, count func() (int, int, error)) (int, int, error) {
	c.mu.Lock()
	v, ok := c.memo[key]
	c.mu.Unlock()
	if ok {
		return v[0], v[1], nil
	}
	a, b, err := count()
	if err != nil {
		return 0, 0, err
	}
	c.mu.Lock()
	if c.memo == nil || len(c.memo) >= memoLimit {
		c.memo = map[[2]string][2]int{}
	}
	c.memo[key] = [2]int{a, b}
	c.mu.Unlock()
	return a, b, nil
}

// aheadBehindOf fills a status's counts against the canonical tip of its branch (status()).
func (r *Repos) aheadBehindOf(ctx context.Context, portalID int64, dir string, st *Status, head string) error {
	var err error
	st.Ahead, st.Behind, err = r.countMemo(ctx, dir, head, tipOf(r.bare(portalID), st.Branch))
	return err
}

// sweepDue claims the next sweep of a loaded portal's workspaces if it is due: at most once
// per sweepEvery, and at most sweepShare of the time (the last sweep's cost decides).
func (c *statusCache) sweepDue(ps *portalStatuses) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !ps.loaded || ps.sweeping || time.Since(ps.swept) < max(sweepEvery, ps.sweepCost*sweepShare) {
		return false
	}
	ps.sweeping = true
	return true
}

const (
	sweepEvery = time.Second
	sweepShare = 20 // a sweep that took d waits 20·d before the next one (5% of the time)
)

// sweep re-checks every workspace of the portal against its record without git (the tree
// walk), and takes a fresh status of the ones that changed, and of the ones recorded in a
// racy moment once that moment is past (one git status each, to replace the record by a
// trusted one). It runs outside the portal's sync lock, in the caller that found it due:
// other readers meanwhile answer from the snapshot they have.
func (r *Repos) sweep(ctx context.Context, portalID int64, ps *portalStatuses) {
	c := &r.statuses
	start := time.Now()
	defer func() {
		c.mu.Lock()
		ps.sweeping, ps.swept, ps.sweepCost = false, time.Now(), time.Since(start)
		c.mu.Unlock()
	}()
	c.mu.Lock()
	items := make(map[int64]*record, len(ps.entries))
	for u, e := range ps.entries {
		if e.rec != nil && e.rec.Tree != nil {
			items[u] = e.rec
		}
	}
	c.mu.Unlock()
	for u, rec := range items {
		if ctx.Err() != nil {
			return
		}
		if rec.matches(r.WorkspaceDir(u, portalID)) && !rec.settled() {
			continue
		}
		_, err := r.statusByGit(ctx, u, portalID)
		switch {
		case err == nil || ctx.Err() != nil:
		case errors.Is(err, ErrNoWorkspace):
			c.setEntry(portalID, u, nil, true)
		default:
			c.setEntry(portalID, u, &wsEntry{broken: true, outrun: rec.Seq}, true)
		}
	}
}
