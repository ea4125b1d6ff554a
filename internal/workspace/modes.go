package workspace

// File modes (issue 30): git records a file as 100755 when its owner may execute it, else
// 100644 (core.fileMode is git's default, true, in every workspace), so a file's mode is its
// permission bits on disk. A write must never change them:
//
//   - every new content reaches a workspace file by renaming a temporary file over it (saves,
//     translation and batch saves in writeAll, uploads in WriteStream), and that rename is
//     placeFile's alone: the temporary file first takes the permission bits of the file it
//     replaces, so an executable stays executable; a new file keeps NewFileMode (git's
//     100644 — a neighbour's exec bit is never copied, as git would not);
//   - a move is a rename of the file itself, its mode goes with it;
//   - what git writes (restore of discarded work, a landed merge, a resolution) carries the
//     mode of the tree it checks out, and the structural merge decides each path's mode by
//     git's rule (mergeMode).

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"strings"

	"portalwright/internal/gitcli"
	"portalwright/internal/merge"
)

// NewFileMode is the permission a new file of a workspace is made with: git's 100644.
const NewFileMode fs.FileMode = 0o644

// Git's modes of regular files.
const (
	modeFile       = "100644"
	modeExecutable = "100755"
)

// PlaceFile renames the temporary file tmp over target, giving it first the permission bits
// of the file it replaces (none there: it keeps NewFileMode). It is the only way new content
// replaces a workspace file.
func PlaceFile(root *os.Root, tmp, target string) error {
	if fi, err := root.Lstat(target); err == nil {
		if fi.Mode().IsRegular() {
			if err := root.Chmod(tmp, fi.Mode().Perm()); err != nil {
				return err
			}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return root.Rename(tmp, target)
}

// gitModeOf is the mode git records for a regular file with these permission bits.
func gitModeOf(perm fs.FileMode) string {
	if perm&0o100 != 0 {
		return modeExecutable
	}
	return modeFile
}

// mergeMode is git's rule for the mode of a path both sides changed (merge-ort's): a side
// that kept the base's mode takes the other side's; a side that deleted the path leaves the
// other's; both changed it to different modes is a conflict (ok false).
func mergeMode(base, mine, theirs treeEntry) (mode string, ok bool) {
	switch {
	case mine.absent():
		return theirs.mode, true
	case theirs.absent():
		return mine.mode, true
	case mine.mode == theirs.mode || mine.mode == base.mode:
		return theirs.mode, true
	case theirs.mode == base.mode:
		return mine.mode, true
	}
	return "", false
}

// modeConflictID is the conflict id of a file both sides gave a different mode.
const modeConflictID = "mode"

// modeConflict is the conflict of a path both sides gave different modes, answered like any
// other: mine, theirs, base (when the base had one) or a value ("100644" or "100755").
func modeConflict(base, mine, theirs treeEntry) merge.Conflict {
	str := func(e treeEntry) *string {
		if e.absent() {
			return nil
		}
		s := e.mode
		return &s
	}
	return merge.Conflict{ID: modeConflictID, Path: "file mode", Base: str(base), Mine: str(mine), Theirs: str(theirs),
		Reason: "both sides changed the file's mode (" + mine.mode + " here, " + theirs.mode + " on the branch)"}
}

// chosenMode applies an answer to a mode conflict ("" and false: not answered, or not a mode).
func chosenMode(c merge.Choice, base, mine, theirs treeEntry) (string, bool) {
	switch c.Take {
	case "mine":
		return mine.mode, true
	case "theirs":
		return theirs.mode, true
	case "base":
		if !base.absent() {
			return base.mode, true
		}
	case "value":
		if c.Value != nil {
			v := strings.Trim(strings.TrimSpace(*c.Value), `"`)
			if v == modeFile || v == modeExecutable {
				return v, true
			}
		}
	}
	return "", false
}

// modeAt is the mode of path in a commit or tree ("" when it is not there).
func (r *Repos) modeAt(ctx context.Context, dir, treeish, p string) string {
	out, err := r.git.Run(ctx, dir, gitcli.Command("ls-tree", "-z", "--full-tree").Value(treeish).Paths(p).Env("GIT_LITERAL_PATHSPECS", "1"))
	if err != nil {
		return ""
	}
	for _, entry := range bytes.Split(out, []byte{0}) {
		meta, name, ok := strings.Cut(string(entry), "\t")
		if f := strings.Fields(meta); ok && name == p && len(f) == 3 {
			return f[0]
		}
	}
	return ""
}
