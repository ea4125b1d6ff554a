package editing

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
)

// Other users' changes (GET wsChanges) under load.
//
// The workspace layer answers every workspace's status from its records (one snapshot,
// the same pointer while nothing changed: workspace/statuscache.go). What this file adds:
//
//   - the users are looked up in one query for all (PeopleBatch) and kept: an answer may
//     show a user's old name, or a deleted user, for up to personTTL; after that the next
//     call still answers at once and one lookup refreshes them in the background;
//   - the answer is built once per snapshot, branch and names and shared by every caller
//     until the snapshot or the users change: the same slice, so the handler can encode it
//     once too (internal/portal's wsChanges handler keeps its JSON, gzipped for clients that
//     accept it: 2,000 workspaces are about 440 KB of JSON, 25 KB gzipped).

// personTTL bounds how long other users' changes may show a user's old name (or a deleted
// user) after an edit.
const personTTL = 5 * time.Second

// wsChangesCache keeps the users and the last answers per portal, branch and names. Its zero
// value is ready.
type wsChangesCache struct {
	mu      sync.Mutex
	answers map[wsChangesKey]*wsChangesAnswer

	build  sync.Mutex // one caller builds an answer; the others wait and share it
	lookup sync.Mutex // one lookup of unknown users at a time

	people     *personSet
	refreshing bool
}

type wsChangesKey struct {
	portalID               int64
	branch                 string
	domainName, portalName string
}

type wsChangesAnswer struct {
	snap   *workspace.Snapshot
	people *personSet
	list   []WorkspaceChange
}

// personSet is the users looked up so far (nil: looked up, does not exist). Never modified
// once published: a lookup makes a new set.
type personSet struct {
	byID    map[int64]*Person
	fetched time.Time
}

func (c *wsChangesCache) answer(ctx context.Context, people People, snap *workspace.Snapshot, key wsChangesKey) (*wsChangesAnswer, error) {
	c.mu.Lock()
	a := c.answers[key]
	current := c.people
	c.mu.Unlock()
	if a != nil && a.snap == snap && a.people == current {
		if time.Since(current.fetched) > personTTL {
			c.refresh(people, current)
		}
		return a, nil // nothing changed: no work at all
	}
	ps, err := c.persons(ctx, people, snap)
	if err != nil {
		return nil, err
	}
	c.build.Lock()
	defer c.build.Unlock()
	c.mu.Lock()
	a = c.answers[key]
	c.mu.Unlock()
	if a != nil && a.snap == snap && a.people == ps {
		return a, nil
	}
	list := make([]WorkspaceChange, 0, len(snap.Users))
	for _, u := range snap.Users {
		if key.branch != "" && u.Branch != key.branch {
			continue
		}
		person := ps.byID[u.UserID]
		if person == nil {
			continue // the user was deleted; their workspace goes with the next cleanup
		}
		list = append(list, WorkspaceChange{User: *person, AheadCount: u.Ahead, BehindCount: u.Behind, HasChanges: u.HasChanges(),
			Branch: u.Branch, DomainName: key.domainName, PortalName: key.portalName, Changes: u.Changes})
	}
	a = &wsChangesAnswer{snap: snap, people: ps, list: list[:len(list):len(list)]}
	c.mu.Lock()
	if c.answers == nil || len(c.answers) > 1000 {
		c.answers = map[wsChangesKey]*wsChangesAnswer{}
	}
	c.answers[key] = a
	c.mu.Unlock()
	return a, nil
}

// persons answers a set that knows every user of the snapshot: the current one if it does
// (refreshed in the background once it is older than personTTL), else one with the unknown
// users looked up now.
func (c *wsChangesCache) persons(ctx context.Context, people People, snap *workspace.Snapshot) (*personSet, error) {
	c.mu.Lock()
	ps := c.people
	c.mu.Unlock()
	missing := ps.unknown(snap)
	if len(missing) == 0 {
		if time.Since(ps.fetched) > personTTL {
			c.refresh(people, ps)
		}
		return ps, nil
	}
	c.lookup.Lock() // one lookup at a time; a caller that waited may find its users known
	defer c.lookup.Unlock()
	c.mu.Lock()
	ps = c.people
	c.mu.Unlock()
	missing = ps.unknown(snap)
	if len(missing) == 0 {
		return ps, nil
	}
	found, err := lookUp(ctx, people, missing)
	if err != nil {
		return nil, err
	}
	next := &personSet{byID: make(map[int64]*Person, len(missing)), fetched: time.Now()}
	if ps != nil {
		for id, p := range ps.byID {
			next.byID[id] = p
		}
		next.fetched = ps.fetched
	}
	next.put(missing, found)
	c.mu.Lock()
	c.people = next
	c.mu.Unlock()
	return next, nil
}

// put records the users of ids as found (nil: looked up, does not exist); only on a set
// not yet published.
func (ps *personSet) put(ids []int64, found map[int64]Person) {
	for _, id := range ids {
		if p, ok := found[id]; ok {
			ps.byID[id] = &p
		} else {
			ps.byID[id] = nil
		}
	}
}

// unknown lists the users of snap the set does not know (all of them for a nil set).
func (ps *personSet) unknown(snap *workspace.Snapshot) []int64 {
	var missing []int64
	for _, u := range snap.Users {
		if ps == nil {
			missing = append(missing, u.UserID)
		} else if _, ok := ps.byID[u.UserID]; !ok {
			missing = append(missing, u.UserID)
		}
	}
	return missing
}

// refresh looks every known user up again in the background (one refresh at a time).
func (c *wsChangesCache) refresh(people People, ps *personSet) {
	c.mu.Lock()
	if c.refreshing || c.people != ps {
		c.mu.Unlock()
		return
	}
	c.refreshing = true
	c.mu.Unlock()
	go func() {
		defer func() { c.mu.Lock(); c.refreshing = false; c.mu.Unlock() }()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		ids := make([]int64, 0, len(ps.byID))
		for id := range ps.byID {
			ids = append(ids, id)
		}
		found, err := lookUp(ctx, people, ids)
		if err != nil {
			slog.Warn("refreshing the users of other users' changes failed", "error", err)
			return
		}
		next := &personSet{byID: make(map[int64]*Person, len(ids)), fetched: time.Now()}
		next.put(ids, found)
		c.mu.Lock()
		if c.people == ps { // a lookup of new users meanwhile wins; refreshed next time
			c.people = next
		}
		c.mu.Unlock()
	}()
}

// lookUp finds users in one query when people can, else one by one.
func lookUp(ctx context.Context, people People, ids []int64) (map[int64]Person, error) {
	if b, ok := people.(PeopleBatch); ok {
		return b.People(ctx, ids)
	}
	out := make(map[int64]Person, len(ids))
	for _, id := range ids {
		if p, err := people.Person(ctx, id); err == nil {
			out[id] = p
		}
	}
	return out, nil
}

// WorkspaceChanges reports every user's workspace of the portal on a branch, from the
// workspaces' status records: no git status per workspace, one user lookup for all. The
// answer is shared by every caller until something changes (the same slice): read only.
func (f *Workspace) WorkspaceChanges(ctx context.Context, pa portalaccess.Portal, branch string) ([]WorkspaceChange, error) {
	portalID, name, domainName := pa.ID(), pa.Name(), pa.DomainName()
	snap, err := f.repos.Statuses(ctx, portalID)
	if err != nil {
		return nil, GitError(err)
	}
	a, err := f.wsChanges.answer(ctx, f.people, snap, wsChangesKey{portalID: portalID, branch: branch, domainName: domainName, portalName: name})
	if err != nil {
		return nil, err
	}
	return a.list, nil
}
