// Package merge does the three-way merges of Portalwright's git-backed
// portal files, where several authors edit the same files: base is the
// common ancestor, mine the local version and theirs the newer one (the
// branch tip a commit is rebased onto, the file on disk at reload, the
// version an editor's stale save collides with).
//
// Rules:
//
//   - Fast paths compare bytes and keep them exactly: mine equal to theirs
//     gives mine; a side equal to base gives the other side (so a deletion
//     on one side with no change on the other deletes). Deleted on one side
//     and changed on the other is one conflict "file".
//   - JSON (*.json, *.schema, *.geojson) is merged as a tree. Objects merge
//     key by key: a key changed on one side takes that change; changed on
//     both sides (or added on both) recurses into objects and arrays and is
//     otherwise a conflict unless both made the same change; deleted on one
//     side and changed on the other is a conflict. The result keeps theirs'
//     key order, with keys only mine added right after their predecessor in
//     mine.
//   - Array items are matched by identity: an object's "categoryId", else
//     its "id", else the item's whole content (repeats are numbered). Items
//     deleted on one side and unchanged on the other go; deleted on one and
//     changed on the other conflict; added on either side stay (once if both
//     added the same); items on all three merge recursively. The order of
//     the shared items is that of the one side that reordered them, else
//     theirs. Both reordering differently is a conflict at the array, whose
//     choice mine, theirs or base picks whose order to use (the items still
//     merge). Added items go right after their predecessor on their side,
//     theirs' before mine's.
//   - Translation files (translations/*.json) merge exactly like JSON; only
//     the conflict paths read as keys ("nav.home").
//   - A merged JSON file follows theirs' layout: what theirs already had is
//     copied as it was, the rest gets theirs' indentation, line endings and
//     final newline, and numbers keep their original text. JSON that does
//     not parse (or repeats a key in an object) is merged as text and must
//     parse afterwards. Options.Validate can reject a merged result.
//   - Text merges by lines (diff3): changes to separate regions of base
//     combine; changes to the same or adjacent regions conflict unless equal.
//   - Binary files do not merge: both changed is a conflict "file".
//
// Conflicts are data. Each has an ID that is stable for the same three
// inputs (a JSON pointer into theirs, else into mine; "hunk:N" for text;
// "file" for the whole file), and the author's choices, passed back by ID
// in Options.Choices, are applied by the same Merge call.
package merge

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// Kind is how a file is merged.
type Kind string

const (
	KindJSON        Kind = "json"        // *.json, *.schema, *.geojson
	KindTranslation Kind = "translation" // translations/<anything>.json: JSON, with key paths
	KindText        Kind = "text"        // anything not binary
	KindBinary      Kind = "binary"      // by extension, or a NUL byte in the first 8000 bytes
)

var (
	jsonExts   = set("json", "schema", "geojson")
	binaryExts = set("png", "jpg", "jpeg", "gif", "webp", "ico", "bmp", "tif", "tiff", "pdf",
		"zip", "gz", "tgz", "woff", "woff2", "ttf", "otf", "eot",
		"mp3", "mp4", "webm", "ogg", "wav", "mov", "avi")
	textExts = set("html", "htm", "css", "js", "mjs", "ts", "md", "txt", "xml", "svg", "csv", "yml", "yaml")
)

func set(items ...string) map[string]bool {
	m := make(map[string]bool, len(items))
	for _, s := range items {
		m[s] = true
	}
	return m
}

// sniffLen is how much of a file is searched for a NUL byte.
const sniffLen = 8000

// KindOf tells how the file at path is merged. sample (the file's content,
// or its start) decides only for extensions not known to be text or binary.
func KindOf(path string, sample []byte) Kind {
	return kindOf(path, sample)
}

func kindOf(path string, samples ...[]byte) Kind {
	p := strings.ReplaceAll(path, "\\", "/")
	name := p[strings.LastIndexByte(p, '/')+1:]
	ext := ""
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		ext = strings.ToLower(name[i+1:])
	}
	switch {
	case ext == "json" && (strings.HasPrefix(p, "translations/") || strings.Contains(p, "/translations/")):
		return KindTranslation
	case jsonExts[ext]:
		return KindJSON
	case binaryExts[ext]:
		return KindBinary
	case textExts[ext]:
		return KindText
	}
	for _, s := range samples {
		if bytes.IndexByte(s[:min(len(s), sniffLen)], 0) >= 0 {
			return KindBinary
		}
	}
	return KindText
}

// Conflict is one place where mine and theirs changed the same thing differently.
type Conflict struct {
	ID     string  `json:"id"`     // JSON pointer (into theirs, else mine), "hunk:N", or "file"
	Path   string  `json:"path"`   // for people: "menu › Lunch › title", "nav.home", "lines 12–14", "whole file"
	Base   *string `json:"base"`   // compact JSON or the region's lines; nil = absent (or binary)
	Mine   *string `json:"mine"`   //
	Theirs *string `json:"theirs"` //
	Reason string  `json:"reason,omitempty"`
}

// Choice resolves one conflict.
type Choice struct {
	Take  string  `json:"take"`            // "mine" | "theirs" | "base" | "value"
	Value *string `json:"value,omitempty"` // with "value": JSON text, or raw text for a hunk; nil deletes
}

// Options tune a merge.
type Options struct {
	// Choices by conflict ID. A conflict with a choice is resolved; one without stays.
	Choices map[string]Choice
	// Validate, when set, checks a merged JSON/translation result (e.g.
	// against a schema). A non-nil error makes the whole result a conflict
	// with ID "file" and Reason = the error's message.
	Validate func(merged []byte) error
}

// Result is the outcome of a merge.
type Result struct {
	Kind       Kind       `json:"kind"`
	Merged     []byte     `json:"-"`         // nil when Unresolved > 0 or Deleted; may alias an input
	Deleted    bool       `json:"deleted"`   // the result is that the file does not exist
	Conflicts  []Conflict `json:"conflicts"` // every conflict found, resolved or not, in document order
	Unresolved int        `json:"unresolved"`
}

// ErrInvalidChoice is returned (wrapped) for a choice that cannot be
// applied: an unknown Take, or a "value" that is not valid JSON.
var ErrInvalidChoice = errors.New("merge: invalid choice")

// Merge merges three versions of the file at path. nil base = the file did
// not exist in base (added on both sides); nil mine / nil theirs = deleted
// on that side. A non-nil empty slice is an empty file.
func Merge(path string, base, mine, theirs []byte, opts Options) (*Result, error) {
	r := &Result{Kind: kindOf(path, theirs, mine, base), Conflicts: []Conflict{}}
	switch {
	case sameFile(mine, theirs):
		return r.take(mine), nil
	case sameFile(base, mine):
		return r.take(theirs), nil
	case sameFile(base, theirs):
		return r.take(mine), nil
	}
	// From here all three differ, so base exists if a side is deleted.
	switch {
	case mine == nil:
		return r.fileConflict("deleted in mine, changed in theirs", base, mine, theirs, opts)
	case theirs == nil:
		return r.fileConflict("deleted in theirs, changed in mine", base, mine, theirs, opts)
	}
	switch r.Kind {
	case KindBinary:
		return r.fileConflict("both sides changed this binary file", base, mine, theirs, opts)
	case KindText:
		return r.mergeText(base, mine, theirs, opts)
	}
	return r.mergeJSON(base, mine, theirs, opts)
}

// sameFile compares two versions; nil (absent) differs from empty.
func sameFile(a, b []byte) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	return bytes.Equal(a, b)
}

// take makes content (nil: no file) the result.
func (r *Result) take(content []byte) *Result {
	r.Merged = content
	r.Deleted = content == nil
	return r
}

func textPtr(b []byte) *string {
	if b == nil {
		return nil
	}
	s := string(b)
	return &s
}

// fileConflict makes the whole file one conflict, placed first, and applies
// its choice: mine, theirs or base pick that version, value gives the file.
func (r *Result) fileConflict(reason string, base, mine, theirs []byte, opts Options) (*Result, error) {
	c := Conflict{ID: "file", Path: "whole file", Reason: reason}
	if r.Kind != KindBinary {
		c.Base, c.Mine, c.Theirs = textPtr(base), textPtr(mine), textPtr(theirs)
	}
	r.Conflicts = append([]Conflict{c}, r.Conflicts...)
	r.Merged, r.Deleted = nil, false
	ch, ok := opts.Choices["file"]
	if !ok {
		r.Unresolved++
		return r, nil
	}
	switch ch.Take {
	case "mine":
		return r.take(mine), nil
	case "theirs":
		return r.take(theirs), nil
	case "base":
		return r.take(base), nil
	case "value":
		if ch.Value == nil {
			return r.take(nil), nil
		}
		content := []byte(*ch.Value)
		if r.isJSON() {
			if _, err := parse(content); err != nil {
				return nil, fmt.Errorf("%w: value for \"file\" is not valid JSON: %v", ErrInvalidChoice, err)
			}
			if opts.Validate != nil {
				if err := opts.Validate(content); err != nil {
					// The author's own file fails too: keep asking.
					r.Conflicts[0].Reason = err.Error()
					r.Unresolved++
					return r, nil
				}
			}
		}
		return r.take(content), nil
	}
	return nil, fmt.Errorf("%w: unknown take %q for \"file\"", ErrInvalidChoice, ch.Take)
}

func (r *Result) isJSON() bool { return r.Kind == KindJSON || r.Kind == KindTranslation }

// finish sets a merged JSON result after checking it with opts.Validate.
func (r *Result) finish(out, base, mine, theirs []byte, opts Options) (*Result, error) {
	if opts.Validate != nil {
		if err := opts.Validate(out); err != nil {
			return r.fileConflict(err.Error(), base, mine, theirs, opts)
		}
	}
	return r.take(out), nil
}

// mergeText merges line by line.
func (r *Result) mergeText(base, mine, theirs []byte, opts Options) (*Result, error) {
	out, conflicts, unresolved, err := merge3(base, mine, theirs, opts.Choices)
	if err != nil {
		return nil, err
	}
	r.Conflicts = append(r.Conflicts, conflicts...)
	r.Unresolved += unresolved
	if unresolved > 0 {
		return r, nil
	}
	return r.take(out), nil
}

// parallelParse is the total size from which the three versions are parsed
// concurrently; below it goroutines cost more than they save.
const parallelParse = 256 << 10

// mergeJSON merges JSON trees, or the text of files that do not parse.
func (r *Result) mergeJSON(base, mine, theirs []byte, opts Options) (*Result, error) {
	var bd, md, td *doc
	var errB, errM, errT error
	parseBase := func() {
		if base != nil {
			bd, errB = parse(base)
		}
	}
	parseMine := func() { md, errM = parse(mine) }
	if len(base)+len(mine)+len(theirs) >= parallelParse {
		var wg sync.WaitGroup
		wg.Go(parseBase)
		wg.Go(parseMine)
		td, errT = parse(theirs)
		wg.Wait()
	} else {
		parseBase()
		parseMine()
		td, errT = parse(theirs)
	}
	if errB != nil || errM != nil || errT != nil {
		return r.mergeJSONAsText(base, mine, theirs, opts)
	}
	var b *node
	if bd != nil {
		b = bd.root
	}
	m, t := md.root, td.root
	// Repeated keys (valid JSON, rarely written) make merging by key
	// meaningless; such files merge as text. They are found as objects
	// are expanded, during the merge and the encoding.
	dupKeys := func() bool { return md.dupKeys || td.dupKeys || (bd != nil && bd.dupKeys) }

	jm := &jsonMerger{translation: r.Kind == KindTranslation, choices: opts.Choices, ids: map[string]int{}}
	root, present := jm.mergeRoot(b, m, t)
	if jm.err != nil {
		return nil, jm.err
	}
	if dupKeys() {
		return r.mergeJSONAsText(base, mine, theirs, opts)
	}
	r.Conflicts = append(r.Conflicts, jm.conflicts...)
	r.Unresolved = jm.unresolved
	var out []byte
	switch {
	case r.Unresolved > 0:
		return r, nil
	case !present:
		return r.take(nil), nil
	case equal(root, m):
		out = mine
	case equal(root, t):
		out = theirs
	default:
		st := td.style
		st.src = td
		out = st.encode(root, len(theirs))
		if dupKeys() {
			r.Conflicts, r.Unresolved = []Conflict{}, 0
			return r.mergeJSONAsText(base, mine, theirs, opts)
		}
	}
	return r.finish(out, base, mine, theirs, opts)
}

// mergeJSONAsText merges unparsable JSON by lines; the result must parse.
func (r *Result) mergeJSONAsText(base, mine, theirs []byte, opts Options) (*Result, error) {
	if _, err := r.mergeText(base, mine, theirs, opts); err != nil {
		return nil, err
	}
	if r.Unresolved > 0 {
		return r, nil
	}
	if _, err := parse(r.Merged); err != nil {
		return r.fileConflict("The merged file is not valid JSON: "+err.Error(), base, mine, theirs, opts)
	}
	return r.finish(r.Merged, base, mine, theirs, opts)
}
