package readiness

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"portalwright/internal/caller"
	"portalwright/internal/check"
	"portalwright/internal/editing"
	"portalwright/internal/notice"
	"portalwright/internal/portalaccess"
)

// wsIndex is one user's workspace of a portal as this instance last checked it.
type wsIndex struct {
	key wsKey

	mu      sync.Mutex // held while the index is built or refreshed and its report made
	index   *check.Index
	tree    *countingTree
	user    editing.Person
	branch  string
	changes map[string]string // the user's uncommitted changes, as last announced
	head    string            // the commit the workspace was on at the last check
	seen    map[string]string // path → version at the last check, of the paths a save may touch
	last    RefreshStats

	snap      atomic.Pointer[snapshot] // the last result, read without waiting for a check
	announced atomic.Int64             // writes announced so far (a check covers those before it began)

	live    sync.Mutex // the refreshes after saves: one at a time, the next one queued
	running bool
	pending *announcement // announced, not checked yet
}

// announcement is what the writes announced since the last check say: the latest state of the
// workspace, and every path any of them listed as changed.
type announcement struct {
	change  editing.WorkspaceChange
	touched map[string]bool
}

// caller is the author of the announced writes.
func (a *announcement) caller() caller.Caller {
	return caller.Caller{UserID: a.change.User.ID, Username: a.change.User.UserName}
}

// take hands over the pending announcement (nil: none).
func (w *wsIndex) take() *announcement {
	w.live.Lock()
	defer w.live.Unlock()
	a := w.pending
	w.pending = nil
	return a
}

// snapshot is a workspace's last result, for other authors and requests.
type snapshot struct {
	user    editing.Person
	changes map[string]string
	report  *Report
	covers  int64     // the writes announced before its check began
	began   time.Time // when its check began
}

// RefreshStats describe a workspace's last check (for tests and figures).
type RefreshStats struct {
	Full    bool          // the index was built (every file read)
	Listed  bool          // the tree was listed (a build, a request, git moved the workspace)
	Changed []string      // the paths whose version changed
	Reads   int64         // files the engine read
	Took    time.Duration // the whole check: listing, reading and the rules
}

// LastRefresh describes the last check of a user's workspace of a portal on this instance.
func (s *Service) LastRefresh(userID, portalID int64) (RefreshStats, bool) {
	s.mu.Lock()
	w, ok := s.workspaces.peek(wsKey{userID, portalID})
	s.mu.Unlock()
	if !ok {
		return RefreshStats{}, false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last, w.index != nil
}

// countingTree counts the files the engine reads.
type countingTree struct {
	check.Tree
	reads atomic.Int64
}

func (t *countingTree) Read(ctx context.Context, p string) ([]byte, error) {
	t.reads.Add(1)
	return t.Tree.Read(ctx, p)
}

// Stat describes one file (check.Stater, for Index.Update); a folder tree always can.
func (t *countingTree) Stat(ctx context.Context, p string) (check.File, bool, error) {
	st, ok := t.Tree.(check.Stater)
	if !ok {
		return check.File{}, false, errors.New("readiness: the tree cannot describe one file")
	}
	return st.Stat(ctx, p)
}

// check checks the workspace again (builds its index the first time) and keeps the result.
// ann is what the writes announced since the last check (nil: none). A request (announce
// false) answers the last report when it is still fresh (fresh) by the time it gets its turn;
// a check for announced writes publishes its result, a request's only when the findings
// changed (a change no save announced).
func (s *Service) check(ctx context.Context, c caller.Caller, pa portalaccess.Portal, w *wsIndex, ann *announcement, announce bool) (*Report, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	sn := w.snap.Load()
	if ann == nil && !announce && fresh(w, sn) {
		return sn.report, nil
	}
	prevChanges, prevBranch, prevHead := w.changes, w.branch, w.head
	if ann != nil {
		w.user, w.branch, w.changes = ann.change.User, ann.change.Branch, ann.change.Changes
	}
	start := time.Now()
	covers := w.announced.Load() // a write announced from now on asks for another check
	var prev *Report
	if sn != nil {
		prev = sn.report
	}
	w.head = s.ws.HeadCommit(c, pa)
	switch {
	case w.index == nil:
		if err := s.build(ctx, c, pa, w, ann == nil); err != nil {
			return nil, err
		}
		w.last = RefreshStats{Full: true, Listed: true, Reads: w.tree.reads.Swap(0)}
	case ann != nil && w.head == prevHead && w.branch == prevBranch:
		// Plain writes: only the paths they (or the writes before them) changed can differ
		// from the index; those whose version did not move are left out.
		paths := w.remember(ctx, union(ann.touched, w.changes, prevChanges))
		changed, err := w.index.Update(ctx, w.tree, paths)
		if err != nil {
			return nil, err
		}
		w.last = RefreshStats{Changed: changed, Reads: w.tree.reads.Swap(0)}
	default: // a request, or git moved the workspace (open, reset, commit, branch switch)
		w.remember(ctx, union(nil, w.changes))
		changed, err := w.index.Refresh(ctx, w.tree)
		if err != nil {
			return nil, err
		}
		w.last = RefreshStats{Listed: true, Changed: changed, Reads: w.tree.reads.Swap(0)}
	}
	branch := w.branch
	if branch == "" {
		branch = s.ws.Branch(c, pa)
	}
	rep := &Report{Source: SourceWorkspace, Branch: branch, CommitID: w.head, Report: w.index.Report(check.Options{}),
		CheckedAt: s.now()}
	took := time.Since(start)
	rep.DurationMs = took.Milliseconds()
	w.last.Took = took
	w.snap.Store(&snapshot{user: w.user, changes: w.changes, report: rep, covers: covers, began: start})

	added, removed := diff(prev, rep, w.changes)
	if announce || (prev != nil && len(added)+len(removed) > 0) {
		ev := Event{DomainID: pa.DomainID(), PortalID: pa.ID(), User: w.user, Branch: branch, Summary: rep.Summary,
			Added: added, Removed: removed, Findings: inFiles(rep.Findings, w.changes)}
		for _, list := range []*[]check.Finding{&ev.Added, &ev.Removed, &ev.Findings} {
			if len(*list) > maxEventFindings {
				*list, ev.Truncated = (*list)[:maxEventFindings], true
			}
		}
		s.notify.Publish(ctx, notice.Portal(pa.ID()), EventChanged, ev)
	}
	return rep, nil
}

// build makes the workspace's index: every file read. A first check that takes a while shows
// its author a progress card. seed takes the user and their local changes from the workspace
// (a request; an announcement brings them).
func (s *Service) build(ctx context.Context, c caller.Caller, pa portalaccess.Portal, w *wsIndex, seed bool) error {
	dir, err := s.ws.Dir(ctx, c, pa)
	if err != nil {
		return err
	}
	if seed {
		st, err := s.ws.LocalChanges(ctx, c, pa)
		if err != nil {
			return err
		}
		w.branch, w.changes = st.Branch, st.Changes
		w.user = editing.Person{ID: c.UserID, UserName: c.Username}
		if s.people != nil {
			if p, err := s.people.Person(ctx, c.UserID); err == nil {
				w.user = p
			}
		}
	}
	// An imported portal's settings kept outside its tree are read as its portal.json, asked
	// again at each listing so a change of them is seen at the next check that lists the tree.
	w.tree = &countingTree{Tree: check.WithFile(check.DirTree(dir), editing.SettingsFile, func(ctx context.Context) ([]byte, error) {
		st, err := s.ws.KeptSettings(ctx, c, pa)
		if err != nil || st == nil {
			return nil, err
		}
		return json.Marshal(st)
	})}
	w.remember(ctx, union(nil, w.changes))
	card := s.progressCard(c.UserID, pa)
	index, err := check.NewIndex(ctx, w.tree)
	if err != nil {
		card.done(nil, err)
		return err
	}
	card.done(index, nil)
	w.index = index
	return nil
}

// diff is what the new report has that the previous had not (added) and the reverse
// (removed), by finding id. Without a previous report, the findings in the changed files
// count as added.
func diff(prev, next *Report, changes map[string]string) (added, removed []check.Finding) {
	if prev == nil {
		return inFiles(next.Findings, changes), []check.Finding{}
	}
	before := make(map[string]bool, len(prev.Findings))
	for _, f := range prev.Findings {
		before[f.ID] = true
	}
	after := make(map[string]bool, len(next.Findings))
	added, removed = []check.Finding{}, []check.Finding{}
	for _, f := range next.Findings {
		after[f.ID] = true
		if !before[f.ID] {
			added = append(added, f)
		}
	}
	for _, f := range prev.Findings {
		if !after[f.ID] {
			removed = append(removed, f)
		}
	}
	return added, removed
}

// fresh tells whether a workspace's last result still answers a request: no write was
// announced since its check began, and it is younger than freshFor.
func fresh(w *wsIndex, sn *snapshot) bool {
	return sn != nil && sn.covers == w.announced.Load() && time.Since(sn.began) < freshFor
}

// remember takes the current version of paths (before the index reads them, so a write in
// between shows as a change next time) and answers those whose version differs from the
// last check's, sorted.
func (w *wsIndex) remember(ctx context.Context, paths map[string]bool) []string {
	seen := make(map[string]string, len(paths))
	var moved []string
	for p := range paths {
		version := ""
		if f, ok, err := w.tree.Stat(ctx, p); err == nil && ok {
			version = f.Version
		}
		if old, known := w.seen[p]; !known || old != version {
			moved = append(moved, p)
		}
		seen[p] = version
	}
	w.seen = seen
	sort.Strings(moved)
	return moved
}

// union is the paths of the change sets and of touched.
func union(touched map[string]bool, sets ...map[string]string) map[string]bool {
	out := maps.Clone(touched)
	if out == nil {
		out = map[string]bool{}
	}
	for _, set := range sets {
		for p := range set {
			out[p] = true
		}
	}
	return out
}

// WorkspaceChanged follows a write to a user's workspace (portal.Listener): after the save
// has answered, the user's index is refreshed (only the files whose version changed are read
// again; built when this instance has none and the user has local changes) and
// READINESS_CHANGED published. One refresh per
// workspace runs at a time; changes announced meanwhile are folded into one more.
func (s *Service) WorkspaceChanged(_ context.Context, pa portalaccess.Portal, change editing.WorkspaceChange) {
	if s.ctx.Err() != nil {
		return
	}
	k := wsKey{change.User.ID, pa.ID()}
	s.mu.Lock()
	w, ok := s.workspaces.get(k)
	if !ok && len(change.Changes) > 0 { // a workspace without local changes has none for others: indexed on request
		w, ok = &wsIndex{key: k}, true
		s.workspaces.put(k, w)
	}
	s.mu.Unlock()
	if !ok {
		return
	}
	w.live.Lock()
	w.announced.Add(1)
	if w.pending == nil {
		w.pending = &announcement{touched: map[string]bool{}}
	}
	w.pending.change = change
	for p := range change.Changes {
		w.pending.touched[p] = true
	}
	if w.running {
		w.live.Unlock()
		return
	}
	w.running = true
	w.live.Unlock()
	s.wg.Add(1)
	go s.follow(pa, w)
}

// follow refreshes a workspace until no change is pending.
func (s *Service) follow(pa portalaccess.Portal, w *wsIndex) {
	defer s.wg.Done()
	for {
		select {
		case s.work <- struct{}{}:
		case <-s.ctx.Done():
		}
		w.live.Lock()
		ann := w.pending
		w.pending = nil
		if ann == nil || s.ctx.Err() != nil { // a request took it, or the service stops
			w.running = false
			w.live.Unlock()
			if s.ctx.Err() == nil {
				<-s.work
			}
			return
		}
		w.live.Unlock()
		if _, err := s.check(s.ctx, ann.caller(), pa, w, ann, true); err != nil && s.ctx.Err() == nil {
			s.log.Debug("readiness: workspace check after a change", "portal", pa.ID(), "user", ann.change.User.ID, "error", err)
		}
		<-s.work
	}
}

// Committed does nothing: the commit's workspace change follows it (portal.Listener), and a
// commit's report never changes.
func (s *Service) Committed(context.Context, portalaccess.Portal, editing.Person, string, string) {}

// card is a first check's progress card: sent only when the check outlasts progressAfter,
// then ended with its result.
type card struct {
	s        *Service
	userID   int64
	pa       portalaccess.Portal
	timer    *time.Timer
	mu       sync.Mutex
	sent     bool
	finished bool
}

func (s *Service) progressCard(userID int64, pa portalaccess.Portal) *card {
	c := &card{s: s, userID: userID, pa: pa}
	c.timer = time.AfterFunc(s.progressAfter, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if !c.finished {
			c.sent = true
			c.send(notice.StatusProgress, 10, "Checking the portal's links, assets, translations and content…")
		}
	})
	return c
}

func (c *card) done(index *check.Index, err error) {
	c.timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.finished = true
	switch {
	case !c.sent:
	case err != nil:
		c.send(notice.StatusError, 100, "The readiness check failed: "+err.Error())
	default:
		c.send(notice.StatusSuccess, 100, "Checked "+strconv.Itoa(index.Files())+" files.")
	}
}

func (c *card) send(status string, pct int, details string) {
	c.s.notify.Progress(context.Background(), c.userID, notice.Card{
		ID: MessageType + "-" + strconv.FormatInt(c.pa.ID(), 10), Title: c.pa.Name(), Details: details, Status: status,
		Progress: pct, MessageType: MessageType,
		Data: map[string]any{"domainId": c.pa.DomainID(), "portalId": c.pa.ID()}}.Clamped())
}

// MessageType is the type of the progress card of a long first check.
const MessageType = "READINESS_CHECK"
