package valuehistory

import (
	"strings"

	"portalwright/internal/merge"
	"portalwright/internal/workspace"
	"portalwright/internal/workspace/gitlog"
)

// Row is one value of a blame: a leaf of the file (a text, number, true/false/null or an
// empty object or array) with the last change that made it what it is.
type Row struct {
	Pointer string  `json:"pointer"`
	Path    string  `json:"path"` // translation files: the key ("nav.home")
	Value   *string `json:"value"`
	// Change has no commit when uncommitted work changed the value, or when no commit of the
	// branch explains it (a history cut short).
	Change
}

// tracked is the leaves still unexplained in one version: pointer there → row index.
type tracked map[string]int

// step compares two versions of the file the way the review does (merge.Compare) and says,
// for pointers of newer, whether the value changed and where it was in older.
type step struct {
	all          bool            // everything changed (a side missing or not JSON, or too many changes)
	changed      map[string]bool // pointers (in newer) of added or changed values
	newer, older *merge.Doc
}

func compareVersions(translation bool, newer, older *version) step {
	if !newer.exists || !older.exists || newer.json() == nil || older.json() == nil {
		return step{all: true}
	}
	fields, ok := merge.Changes(older.json(), newer.json(), translation)
	if !ok {
		return step{all: true}
	}
	s := step{changed: map[string]bool{}, newer: newer.json(), older: older.json()}
	for _, f := range fields {
		if f.Op == "add" || f.Op == "change" {
			s.changed[f.Pointer] = true
		}
	}
	return s
}

// apply splits leaves: those unchanged from newer to older (with their pointers in older)
// and those changed.
func (s step) apply(in tracked) (same, changed tracked) {
	if s.all {
		return tracked{}, in
	}
	same, changed = make(tracked, len(in)), tracked{}
	for p, i := range in {
		if s.hit(p) {
			changed[p] = i
			continue
		}
		q, ok := s.back(p)
		if !ok {
			changed[p] = i
			continue
		}
		same[q] = i
	}
	return same, changed
}

// hit: p or one of its ancestors was added or changed.
func (s step) hit(p string) bool {
	if len(s.changed) == 0 {
		return false
	}
	for q := p; ; {
		if s.changed[q] {
			return true
		}
		i := strings.LastIndexByte(q, '/')
		if i < 0 {
			return s.changed[""]
		}
		q = q[:i]
	}
}

// back is p's pointer in the older version. Only a pointer through an array can differ
// (items added, removed or moved before it): those are followed by identity.
func (s step) back(p string) (string, bool) {
	if !hasIndex(p) {
		return p, true
	}
	return merge.Follow(s.newer, s.older, p)
}

// hasIndex reports whether a segment of p is a number (an array index, or a key like one).
func hasIndex(p string) bool {
	for i := 0; i < len(p); i++ {
		if p[i] == '/' && i+1 < len(p) && p[i+1] >= '0' && p[i+1] <= '9' {
			j := i + 1
			for j < len(p) && p[j] >= '0' && p[j] <= '9' {
				j++
			}
			if j == len(p) || p[j] == '/' {
				return true
			}
		}
	}
	return false
}

// BlameWalk explains every leaf of work (the author's version of the file at path) by the
// change that last made it what it is: the author's uncommitted work (by is its author) when
// it differs from the tip's version, else the newest commit of changes (newest first, as
// FileLog lists them) whose version differs from its parent's — for a merge, from every
// parent's. A leaf is followed into older versions as the review compares them: by key, and
// array items by identity.
func BlameWalk(path string, translation bool, work, tip *version, changes []gitlog.FileChange, read Blobs, by workspace.Author) ([]Row, error) {
	d := work.json()
	if d == nil {
		return nil, errNotJSON
	}
	leaves := d.Leaves(translation)
	rows := make([]Row, len(leaves))
	start := make(tracked, len(leaves))
	for i, l := range leaves {
		rows[i] = Row{Pointer: l.Pointer, Path: l.Path, Value: d.Value(l.Pointer)}
		start[l.Pointer] = i
	}
	if len(changes) == 0 || changes[0].After == "" {
		tip = absent
	}
	same, changed := compareVersions(translation, work, tip).apply(start)
	for _, i := range changed {
		rows[i].Change = uncommitted(by)
	}
	if len(same) == 0 {
		return rows, nil
	}
	keep := map[string]*version{}
	if tip.exists {
		keep[changes[0].After] = tip
	}
	vs := newVersions(changes, read, keep)
	state := map[string]tracked{changes[0].After: same}
	for i, c := range changes {
		in := state[c.After]
		delete(state, c.After)
		if len(in) == 0 {
			vs.done(i)
			continue
		}
		nv, err := vs.at(i, c.After)
		if err != nil {
			return nil, err
		}
		for _, b := range c.Before {
			ov, err := vs.at(i, b)
			if err != nil {
				return nil, err
			}
			kept, rest := compareVersions(translation, nv, ov).apply(in)
			if len(kept) > 0 {
				if state[b] == nil {
					state[b] = tracked{}
				}
				for p, r := range kept {
					state[b][p] = r
				}
			}
			if in = rest; len(in) == 0 {
				break
			}
		}
		for _, r := range in {
			rows[r].Change = committed(c)
		}
		vs.done(i)
	}
	return rows, nil
}
