package workspace

// Three-way merges of whole trees, with the structural merge of internal/merge per file.
//
// Wherever two lines of history meet (a commit whose branch moved, Reload Now with
// uncommitted edits, restoring discarded work) the same steps run:
//
//  1. the paths each side changed since the merge base, from `git diff --raw` (one process
//     per side, modes and blob ids included);
//  2. paths both sides changed differently are merged in-process (merge.Merge: JSON by key
//     and array item, translations by key, text by lines, binaries and links not at all),
//     each side's blobs read in one `git cat-file --batch`;
//  3. the result is built in a temporary index (theirs' tree, mine's own changes, the merged
//     files), written as a tree: nothing in the workspace moves until the whole merge is
//     known to be clean, so a conflict changes nothing.
//
// Git's own merge machinery is not used for step 2 (docs/decisions.md "Structural merge in
// process"): the conflicts must be data the resolution screen can show and answer, and the
// same merge serves the editors' 409s in-process.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"portalwright/internal/gitcli"
	"portalwright/internal/merge"
)

const zeroSHA = "0000000000000000000000000000000000000000"

// Git file modes that are never merged: a symbolic link's target and a submodule's commit.
const (
	modeLink      = "120000"
	modeSubmodule = "160000"
)

// treeEntry is a path's blob on one side: mode and object id ("" when absent).
type treeEntry struct{ mode, sha string }

func (e treeEntry) absent() bool { return e.sha == "" }

// sideChange is one path a side changed since the base: what it was and what it is.
type sideChange struct{ from, to treeEntry }

// diffRaw lists what changed between two tree-ish values, as path → change.
func (r *Repos) diffRaw(ctx context.Context, dir, from, to string) (map[string]sideChange, error) {
	out, err := r.git.Run(ctx, dir, gitcli.Command("diff", "--raw", "-z", "--no-renames", "--no-abbrev", "-r").Value(from, to))
	if err != nil {
		return nil, err
	}
	changes := map[string]sideChange{}
	fields := bytes.Split(out, []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		meta := strings.Fields(strings.TrimPrefix(string(fields[i]), ":"))
		if len(meta) < 5 {
			continue
		}
		c := sideChange{from: treeEntry{meta[0], meta[2]}, to: treeEntry{meta[1], meta[3]}}
		if c.from.sha == zeroSHA {
			c.from = treeEntry{}
		}
		if c.to.sha == zeroSHA {
			c.to = treeEntry{}
		}
		changes[string(fields[i+1])] = c
	}
	return changes, nil
}

// readBlobs reads blobs by id in one `git cat-file --batch`; ids missing from the
// repository are absent from the answer.
func (r *Repos) readBlobs(ctx context.Context, dir string, ids []string) (map[string][]byte, error) {
	blobs := map[string][]byte{}
	var want []string
	seen := map[string]bool{}
	for _, id := range ids {
		if id != "" && !seen[id] {
			seen[id] = true
			want = append(want, id)
		}
	}
	if len(want) == 0 {
		return blobs, nil
	}
	out, err := r.git.Run(ctx, dir, gitcli.Command("cat-file", "--batch").Stdin(strings.NewReader(strings.Join(want, "\n")+"\n")))
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(bytes.NewReader(out))
	for {
		header, err := br.ReadString('\n')
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		f := strings.Fields(header)
		if len(f) != 3 { // "<id> missing"
			continue
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("cat-file: bad header %q", header)
		}
		data := make([]byte, size)
		if _, err := io.ReadFull(br, data); err != nil {
			return nil, err
		}
		_, _ = br.ReadByte() // the newline after the content
		blobs[f[0]] = data
	}
	return blobs, nil
}

// FileMerge is the merge of one path both sides changed.
type FileMerge struct {
	Path   string
	Result *merge.Result
	mode   string     // the result's mode
	entry  *treeEntry // a link or submodule: the side's entry that was chosen
}

// treeMerge is the outcome of merging mine into theirs from base.
type treeMerge struct {
	base, mine, theirs string
	mineOnly           map[string]treeEntry // paths only mine changed: mine's entry (absent: deleted)
	files              []FileMerge          // paths both changed differently, merged (sorted)
	sameBoth           []string             // paths both changed identically
}

// unresolved lists the files whose merge left conflicts.
func (m *treeMerge) unresolved() []FileMerge {
	var out []FileMerge
	for _, f := range m.files {
		if f.Result.Unresolved > 0 {
			out = append(out, f)
		}
	}
	return out
}

// MergeChoices are the author's answers to conflicts: path → conflict id → choice.
type MergeChoices map[string]map[string]merge.Choice

// mergeTrees merges the changes of mine and theirs since base (commit or tree ids).
// choices answer conflicts; forceMine answers every remaining one with mine.
func (r *Repos) mergeTrees(ctx context.Context, dir, base, mine, theirs string, choices MergeChoices, forceMine bool) (*treeMerge, error) {
	dm, err := r.diffRaw(ctx, dir, base, mine)
	if err != nil {
		return nil, err
	}
	dt, err := r.diffRaw(ctx, dir, base, theirs)
	if err != nil {
		return nil, err
	}
	m := &treeMerge{base: base, mine: mine, theirs: theirs, mineOnly: map[string]treeEntry{}}
	var both []string
	for p, c := range dm {
		t, ok := dt[p]
		switch {
		case !ok:
			m.mineOnly[p] = c.to
		case t.to == c.to:
			m.sameBoth = append(m.sameBoth, p)
		default:
			both = append(both, p)
		}
	}
	sort.Strings(both)
	sort.Strings(m.sameBoth)
	if len(both) == 0 {
		return m, nil
	}
	var ids []string
	for _, p := range both {
		ids = append(ids, dm[p].from.sha, dm[p].to.sha, dt[p].to.sha)
	}
	// Schemas of merged JSON files, from theirs, then mine: the merged file must still keep it.
	schemaIDs := r.schemaBlobs(ctx, dir, both, theirs, mine)
	for _, id := range schemaIDs {
		ids = append(ids, id)
	}
	blobs, err := r.readBlobs(ctx, dir, ids)
	if err != nil {
		return nil, err
	}
	blob := func(e treeEntry) []byte {
		if e.absent() {
			return nil
		}
		if b, ok := blobs[e.sha]; ok {
			return b
		}
		return []byte{}
	}
	for _, p := range both {
		b, mi, th := dm[p].from, dm[p].to, dt[p].to
		opts := merge.Options{Choices: choices[p]}
		if schema, ok := blobs[schemaIDs[p]]; ok {
			opts.Validate = r.Collab().SchemaValidator(schema)
		}
		special := isSpecialMode(b.mode) || isSpecialMode(mi.mode) || isSpecialMode(th.mode)
		one := func() (FileMerge, error) {
			if special {
				return linkMerge(p, b, mi, th, opts.Choices), nil
			}
			contentChoices := opts.Choices
			if _, ok := contentChoices[modeConflictID]; ok { // the mode's answer is not the content merge's
				contentChoices = make(map[string]merge.Choice, len(opts.Choices))
				for k, v := range opts.Choices {
					if k != modeConflictID {
						contentChoices[k] = v
					}
				}
			}
			res, err := merge.Merge(p, blob(b), blob(mi), blob(th), merge.Options{Choices: contentChoices, Validate: opts.Validate})
			if err != nil {
				return FileMerge{}, fmt.Errorf("merge %s: %w", p, err)
			}
			// The mode by git's rule; both sides changing it differently is one more conflict.
			mode, ok := mergeMode(b, mi, th)
			if !ok && !res.Deleted {
				res.Conflicts = append(res.Conflicts, modeConflict(b, mi, th))
				if mode, ok = chosenMode(opts.Choices[modeConflictID], b, mi, th); !ok {
					res.Unresolved++
					res.Merged = nil
				}
			}
			return FileMerge{Path: p, Result: res, mode: mode}, nil
		}
		f, err := one()
		if err != nil {
			return nil, err
		}
		if f.Result.Unresolved > 0 && forceMine {
			opts.Choices = withMine(opts.Choices, f.Result.Conflicts)
			if f, err = one(); err != nil {
				return nil, err
			}
		}
		m.files = append(m.files, f)
	}
	return m, nil
}

// withMine answers every conflict that choices leave open with mine.
func withMine(choices map[string]merge.Choice, conflicts []merge.Conflict) map[string]merge.Choice {
	all := map[string]merge.Choice{}
	for k, v := range choices {
		all[k] = v
	}
	for _, c := range conflicts {
		if _, ok := all[c.ID]; !ok {
			all[c.ID] = merge.Choice{Take: "mine"}
		}
	}
	return all
}

func isSpecialMode(mode string) bool { return mode == modeLink || mode == modeSubmodule }

// linkMerge decides a path that is a link or submodule on some side: never merged by
// content; one side's entry wins by choice.
func linkMerge(p string, b, mi, th treeEntry, choices map[string]merge.Choice) FileMerge {
	res := &merge.Result{Kind: merge.KindBinary, Conflicts: []merge.Conflict{{ID: "file", Path: "whole file",
		Reason: "both sides changed this link or submodule"}}}
	f := FileMerge{Path: p, Result: res}
	var chosen treeEntry
	switch choices["file"].Take {
	case "mine":
		chosen = mi
	case "theirs":
		chosen = th
	case "base":
		chosen = b
	default:
		res.Unresolved = 1
		return f
	}
	res.Deleted = chosen.absent()
	f.entry = &chosen
	return f
}

// schemaBlobs finds the companion schema (<path>.schema) of each JSON path on theirs, else
// mine: path → blob id.
func (r *Repos) schemaBlobs(ctx context.Context, dir string, paths []string, trees ...string) map[string]string {
	ids := map[string]string{}
	var want []string
	for _, p := range paths {
		if strings.EqualFold(path.Ext(p), ".json") {
			want = append(want, p+".schema")
		}
	}
	if len(want) == 0 {
		return ids
	}
	for _, tree := range trees {
		out, err := r.git.Run(ctx, dir, gitcli.Command("ls-tree", "-z", "--full-tree").Value(tree).Paths(want...).Env("GIT_LITERAL_PATHSPECS", "1"))
		if err != nil {
			continue
		}
		for _, entry := range bytes.Split(out, []byte{0}) {
			meta, name, ok := strings.Cut(string(entry), "\t")
			f := strings.Fields(meta)
			if !ok || len(f) != 3 || f[1] != "blob" {
				continue
			}
			p := strings.TrimSuffix(name, ".schema")
			if _, done := ids[p]; !done {
				ids[p] = f[2]
			}
		}
	}
	return ids
}

// SchemaValidator checks a merged document against its companion schema's text with the
// content check's validation (nil when the repositories have none).
func (cw Collab) SchemaValidator(schema []byte) func([]byte) error {
	if cw.r.schemaCheck == nil {
		return nil
	}
	check := cw.r.schemaCheck
	return func(doc []byte) error {
		if problems := check(doc, schema); len(problems) > 0 {
			return errors.New("the merged file does not keep its schema: " + strings.Join(problems, "; "))
		}
		return nil
	}
}

// writeTree builds the merge's result as a tree: theirs, mine's own changes, the merged
// files. A temporary index keeps the workspace's own index untouched.
func (r *Repos) writeTree(ctx context.Context, dir string, m *treeMerge) (string, error) {
	index, cleanup, err := tempIndex(dir)
	if err != nil {
		return "", err
	}
	defer cleanup()
	env := func(c *gitcli.Cmd) *gitcli.Cmd { return c.Env("GIT_INDEX_FILE", index) }
	if _, err := r.run(ctx, dir, env(gitcli.Command("read-tree").Value(m.theirs))); err != nil {
		return "", err
	}
	var info strings.Builder
	entry := func(p string, e treeEntry) {
		if e.absent() {
			info.WriteString("0 " + zeroSHA + "\t" + p + "\x00")
			return
		}
		info.WriteString(e.mode + " " + e.sha + "\t" + p + "\x00")
	}
	for p, e := range m.mineOnly {
		entry(p, e)
	}
	for _, f := range m.files {
		res := f.Result
		switch {
		case res.Deleted:
			entry(f.Path, treeEntry{})
		case f.entry != nil: // a link or submodule, as the chosen side has it
			entry(f.Path, *f.entry)
		default:
			sha, err := r.run(ctx, dir, gitcli.Command("hash-object", "-w", "--stdin").Stdin(bytes.NewReader(res.Merged)))
			if err != nil {
				return "", err
			}
			mode := f.mode
			if mode == "" || isSpecialMode(mode) {
				mode = "100644"
			}
			entry(f.Path, treeEntry{mode, strings.TrimSpace(sha)})
		}
	}
	if info.Len() > 0 {
		if _, err := r.run(ctx, dir, env(gitcli.Command("update-index", "-z", "--index-info")).Stdin(strings.NewReader(info.String()))); err != nil {
			return "", err
		}
	}
	tree, err := r.run(ctx, dir, env(gitcli.Command("write-tree")))
	return strings.TrimSpace(tree), err
}

// tempIndex makes a private index file in the workspace's .git, starting as a copy of the
// workspace's index so git's cached file stats spare rehashing unchanged files.
func tempIndex(dir string) (string, func(), error) {
	f, err := os.CreateTemp(filepath.Join(dir, ".git"), "pw-index-")
	if err != nil {
		return "", nil, err
	}
	name := f.Name()
	if src, err := os.Open(filepath.Join(dir, ".git", "index")); err == nil {
		_, _ = io.Copy(f, src)
		src.Close()
	}
	f.Close()
	return name, func() { _ = os.Remove(name); _ = os.Remove(name + ".lock") }, nil
}

// worktreeTree writes the workspace's working tree (tracked and untracked files, as
// `git add -A` sees them) as a tree, without touching the workspace's index.
func (r *Repos) worktreeTree(ctx context.Context, dir string) (string, error) {
	index, cleanup, err := tempIndex(dir)
	if err != nil {
		return "", err
	}
	defer cleanup()
	if _, err := r.run(ctx, dir, gitcli.Command("add", "-A").Env("GIT_INDEX_FILE", index)); err != nil {
		return "", err
	}
	tree, err := r.run(ctx, dir, gitcli.Command("write-tree").Env("GIT_INDEX_FILE", index))
	return strings.TrimSpace(tree), err
}

// commitTree records tree as a commit on parent, with the given message and author.
func (r *Repos) commitTree(ctx context.Context, dir, tree, parent, message string, author Author) (string, error) {
	c := gitcli.Command("commit-tree").Value(tree)
	if parent != "" {
		c = c.Flags("-p").Value(parent)
	}
	// commit-tree has no long option for the message: it reads it from stdin.
	out, err := r.run(ctx, dir, authorEnv(c, author).Stdin(strings.NewReader(message)))
	return strings.TrimSpace(out), err
}

// mergeBase is the best common ancestor of two commits ("" when they share none).
func (r *Repos) mergeBase(ctx context.Context, dir, a, b string) (string, error) {
	out, err := r.run(ctx, dir, gitcli.Command("merge-base").Value(a, b))
	var ge *gitcli.Error
	if errors.As(err, &ge) && ge.ExitCode == 1 {
		return "", nil
	}
	return strings.TrimSpace(out), err
}

// emptyTree is git's id of the empty tree: the base of histories with no common ancestor.
const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbe4904b"
