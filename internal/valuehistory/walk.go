package valuehistory

import (
	"encoding/json"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"portalwright/internal/merge"
	"portalwright/internal/workspace"
	"portalwright/internal/workspace/gitlog"
)

// Target is the value a history is of, in one file.
type Target struct {
	// Key is a translation key ("nav.home"), found in each version of the file as a member of
	// the top object (flat files) or as the path of its levels (nested files).
	Key string
	// Pointer is a JSON pointer into the newest content (the author's workspace); older
	// versions are read through merge.Follow (array items by identity).
	Pointer string
	// Whole is the whole file as text (a page's HTML).
	Whole bool
}

// Change is who changed a value and when: a commit of the branch, or (Uncommitted, no commit
// and no time) the author's work not committed yet.
type Change struct {
	Commit      string     `json:"commit"`
	Uncommitted bool       `json:"uncommitted"`
	Author      string     `json:"author"`
	Email       string     `json:"email"`
	Time        *time.Time `json:"time"`
	Message     string     `json:"message"`
}

// committed is the Change of a commit of the file's log.
func committed(c gitlog.FileChange) Change {
	at := c.Time
	return Change{Commit: c.Commit, Author: c.Author, Email: c.Email, Time: &at, Message: c.Message}
}

// uncommitted is the Change of the author's work.
func uncommitted(by workspace.Author) Change {
	return Change{Uncommitted: true, Author: by.Name, Email: by.Email}
}

// Entry is one change of the value. Old and New are JSON text (a text value is a JSON
// string); nil is "absent".
type Entry struct {
	Change
	Path string  `json:"path"`           // the file's path after the change
	Lang string  `json:"lang,omitempty"` // translation histories: the language
	Old  *string `json:"old"`
	New  *string `json:"new"`
	// Diff is a line diff of Old and New when one of them is a long or multi-line text.
	Diff []merge.Hunk `json:"diff,omitempty"`
}

// version is one version of the file: its bytes, parsed as JSON on demand.
type version struct {
	raw    []byte
	exists bool
	doc    *merge.Doc
	parsed bool
}

func newVersion(raw []byte, exists bool) *version { return &version{raw: raw, exists: exists} }

var absent = &version{}

// json is the parsed document, nil when the version is absent or not JSON.
func (v *version) json() *merge.Doc {
	if !v.parsed {
		v.parsed = true
		if v.exists {
			v.doc, _ = merge.ParseDoc(v.raw)
		}
	}
	return v.doc
}

// keyPointer is where a translation key is in a document: a member of the top object by that
// name, else the path of its levels.
func keyPointer(d *merge.Doc, key string) string {
	flat := merge.JoinPointer([]string{key})
	if d == nil || d.Has(flat) || !strings.Contains(key, ".") {
		return flat
	}
	return merge.JoinPointer(strings.Split(key, "."))
}

// locate is the pointer of the value in older, given its pointer ptr in newer; found is
// false when older has no counterpart (then ptr itself: a key removed and added again has
// the same pointer).
func (t Target) locate(newer *version, ptr string, older *version) (string, bool) {
	switch {
	case t.Whole:
		return "", older.exists
	case t.Key != "":
		p := keyPointer(older.json(), t.Key)
		return p, older.json() != nil && older.json().Has(p)
	}
	nd, od := newer.json(), older.json()
	if nd == nil || od == nil {
		return ptr, false
	}
	if p, ok := merge.Follow(nd, od, ptr); ok {
		return p, true
	}
	return ptr, false
}

// start is the value's pointer in the newest version.
func (t Target) start(v *version) string {
	if t.Key != "" {
		return keyPointer(v.json(), t.Key)
	}
	return t.Pointer
}

// value is the value at ptr as JSON text (nil: absent).
func (t Target) value(v *version, ptr string) *string {
	if t.Whole {
		if !v.exists {
			return nil
		}
		b, _ := json.Marshal(string(v.raw))
		s := string(b)
		return &s
	}
	if d := v.json(); d != nil {
		return d.Value(ptr)
	}
	return nil
}

// same reports whether the value is the same in both versions.
func (t Target) same(a *version, ap string, b *version, bp string) bool {
	if t.Whole {
		return a.exists == b.exists && string(a.raw) == string(b.raw)
	}
	ad, bd := a.json(), b.json()
	if ad == nil || bd == nil { // absent or not JSON: no value
		return t.value(a, ap) == nil && t.value(b, bp) == nil
	}
	return merge.Same(ad, ap, bd, bp)
}

// Blobs reads blobs of the repository by id (missing ones left out).
type Blobs func(ids []string) (map[string][]byte, error)

// blobBatch is how many changes' blobs one read asks for: the versions of a large file are
// read a batch at a time (the next while the walk goes through one), and each is dropped once
// no older commit needs it. A variable for the tests.
var blobBatch = 64

// versions hands out the versions of the file named by the changes, reading blobs a batch
// ahead and forgetting each after its last use.
type versions struct {
	changes []gitlog.FileChange
	read    Blobs
	have    map[string]*version
	last    map[string]int // blob → index of the last change that uses it
	next    int            // changes[:next] have their blobs read
	pending chan batch     // the next batch, read and parsed while the walk goes on
}

// batch is the versions of changes[:end] from the last batch's end, read and parsed.
type batch struct {
	end int
	got map[string]*version
	err error
}

func newVersions(changes []gitlog.FileChange, read Blobs, keep map[string]*version) *versions {
	vs := &versions{changes: changes, read: read, have: keep, last: map[string]int{}}
	for i, c := range changes {
		vs.last[c.After] = i
		for _, b := range c.Before {
			vs.last[b] = i
		}
	}
	return vs
}

// fetch reads and parses, in the background, the blobs of the changes from start on (a batch).
func (vs *versions) fetch(start int) chan batch {
	end := min(start+blobBatch, len(vs.changes))
	var ids []string
	for _, c := range vs.changes[start:end] {
		for _, b := range append([]string{c.After}, c.Before...) {
			if b != "" {
				ids = append(ids, b)
			}
		}
	}
	ch := make(chan batch, 1)
	go func() {
		got, err := vs.read(ids)
		out := make(map[string]*version, len(got))
		list := make([]*version, 0, len(got))
		for id, raw := range got {
			v := newVersion(raw, true)
			out[id] = v
			list = append(list, v)
		}
		parseAll(list)
		ch <- batch{end: end, got: out, err: err}
	}()
	return ch
}

// at returns the version of blob id for change i ("" is absent).
func (vs *versions) at(i int, id string) (*version, error) {
	if id == "" {
		return absent, nil
	}
	if v := vs.have[id]; v != nil {
		return v, nil
	}
	for vs.next <= i {
		if vs.pending == nil {
			vs.pending = vs.fetch(vs.next)
		}
		b := <-vs.pending
		vs.pending = nil
		if b.err != nil {
			return nil, b.err
		}
		for id, v := range b.got {
			if vs.have[id] == nil {
				vs.have[id] = v
			}
		}
		vs.next = b.end
		if vs.next < len(vs.changes) {
			vs.pending = vs.fetch(vs.next)
		}
	}
	if v := vs.have[id]; v != nil {
		return v, nil
	}
	return newVersion(nil, true), nil // missing from the repository: an unreadable version
}

// parseAll parses the versions of a batch on every core (each version by one goroutine: a
// parsed document is then only read, by the walk alone).
func parseAll(list []*version) {
	workers := min(runtime.GOMAXPROCS(0), len(list))
	if workers < 2 {
		return // parsed on first use
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(list); i = int(next.Add(1)) - 1 {
				list[i].json()
			}
		})
	}
	wg.Wait()
}

// done forgets the blobs change i was the last to use.
func (vs *versions) done(i int) {
	c := vs.changes[i]
	for _, b := range append([]string{c.After}, c.Before...) {
		if vs.last[b] == i {
			delete(vs.have, b)
		}
	}
}

// Walk is the history of the value over the changes of its file (newest first, as FileLog
// lists them), starting from the tip's version of the file at ptr. A commit is listed when
// the value after it differs from the value before it — for a merge, from the value in every
// parent (a change made on a side branch is listed at its own commit). Old is the value in
// the (first) parent.
func Walk(t Target, tip *version, ptr string, changes []gitlog.FileChange, read Blobs) ([]Entry, error) {
	keep := map[string]*version{}
	if len(changes) > 0 && changes[0].After != "" && tip.exists {
		keep[changes[0].After] = tip
	}
	vs := newVersions(changes, read, keep)
	ptrs := map[string]string{}
	if len(changes) > 0 {
		ptrs[changes[0].After] = ptr
	}
	cur := ptr
	entries := []Entry{}
	for i, c := range changes {
		p, ok := ptrs[c.After]
		if !ok {
			p = cur
		}
		nv, err := vs.at(i, c.After)
		if err != nil {
			return nil, err
		}
		changed := true
		var old *string
		for j, b := range c.Before {
			ov, err := vs.at(i, b)
			if err != nil {
				return nil, err
			}
			op, _ := t.locate(nv, p, ov)
			if _, seen := ptrs[b]; !seen {
				ptrs[b] = op
			}
			if t.same(nv, p, ov, op) {
				changed = false
			}
			if j == 0 {
				old, cur = t.value(ov, op), op
			}
		}
		if changed {
			entries = append(entries, withDiff(Entry{Change: committed(c), Path: c.Path, Old: old, New: t.value(nv, p)}))
		}
		vs.done(i)
	}
	return entries, nil
}

// longText is the length from which a changed text gets a line diff.
const longText = 120

// withDiff adds the line diff of a long or multi-line text value.
func withDiff(e Entry) Entry {
	o, oText := textOf(e.Old)
	n, nText := textOf(e.New)
	if (!oText && e.Old != nil) || (!nText && e.New != nil) {
		return e
	}
	if len(o) < longText && len(n) < longText && !strings.Contains(o+n, "\n") {
		return e
	}
	e.Diff = merge.Compare("value.txt", []byte(o), []byte(n)).Hunks
	return e
}

// textOf reads a JSON string value.
func textOf(v *string) (string, bool) {
	if v == nil {
		return "", false
	}
	var s string
	if json.Unmarshal([]byte(*v), &s) != nil {
		return "", false
	}
	return s, true
}
