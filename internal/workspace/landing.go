package workspace

// Landing a workspace's commits on the canonical branch without a push.
//
// A workspace is a `git clone --shared` of the canonical repository: its object store is its
// own objects plus, through objects/info/alternates, every canonical object. So every object
// its HEAD reaches is in one of the two stores, and once the workspace's own objects are in
// the canonical store too, the canonical repository has all of them. land does that with
// hard links instead of `git push` (which had the canonical side unpack a pack and walk the
// whole history for a connectivity check: 80–100 ms of a one-file commit on a large
// repository), then moves the branch with `git update-ref` from the tip the caller checked
// (compare-and-swap, reflog message "push" as a push writes it: upstreamrecord.go reads it).
//
// The rules that keep it safe:
//   - the canonical store never prunes (workspace/upkeep), so an object linked in and not (yet)
//     referenced stays; a failure after linking leaves only unreferenced objects;
//   - a loose object is linked into the canonical store before its workspace copy is removed,
//     so a git process reading the workspace at the same time finds it in one of the two;
//   - a pack is linked .pack first, .idx last (git sees a pack by its index), and the
//     workspace keeps its copy;
//   - when a link cannot be made (another file system: EXDEV, or anything else), the caller
//     falls back to the push.

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"portalwright/internal/gitcli"
)

// errCannotLink makes land's caller push instead.
var errCannotLink = errors.New("workspace objects cannot be linked into the canonical repository")

// land moves the canonical branch from tip to head, the workspace's HEAD (a descendant of
// tip), and the workspace's remote-tracking ref with it; sent: the git host has head (its
// UpstreamRefs entry moves in the same transaction). The caller holds the workspace lock and
// the portal lock.
func (r *Repos) land(ctx context.Context, portalID int64, dir, branch, tip, head string, sent bool) error {
	bare := r.bare(portalID)
	if err := linkObjects(filepath.Join(dir, ".git", "objects"), filepath.Join(bare, "objects")); err != nil {
		return err
	}
	tx := "update refs/heads/" + branch + " " + head + " " + tip + "\n"
	if sent {
		tx += "update " + UpstreamRefs + branch + " " + head + "\n"
	}
	if _, err := r.run(ctx, bare, gitcli.Command("update-ref", "-m", "push", "--stdin").Stdin(strings.NewReader(tx))); err != nil {
		return err
	}
	_, err := r.run(ctx, dir, gitcli.Command("update-ref").Value("refs/remotes/origin/"+branch, head))
	return err
}

// linkObjects hard-links every object of a workspace's own store into the canonical store,
// removing the workspace's loose copies once linked (they stay readable through alternates).
func linkObjects(from, to string) error {
	dirs, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	for _, d := range dirs {
		name := d.Name()
		switch {
		case name == "pack":
			if err := linkPacks(filepath.Join(from, name), filepath.Join(to, name)); err != nil {
				return err
			}
		case len(name) == 2 && d.IsDir() && isHex(name):
			if err := linkLoose(filepath.Join(from, name), filepath.Join(to, name)); err != nil {
				return err
			}
		}
	}
	return nil
}

func linkLoose(from, to string) error {
	entries, err := os.ReadDir(from)
	if err != nil || len(entries) == 0 {
		return err
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		return errCannotLink
	}
	for _, e := range entries {
		if !isHex(e.Name()) || e.IsDir() { // git's tmp_obj_* files are being written
			continue
		}
		src := filepath.Join(from, e.Name())
		if err := link(src, filepath.Join(to, e.Name())); err != nil {
			return err
		}
		_ = os.Remove(src) // the canonical copy serves it now
	}
	return nil
}

func linkPacks(from, to string) error {
	entries, err := os.ReadDir(from)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	for _, e := range entries {
		base, ok := strings.CutSuffix(e.Name(), ".idx")
		if !ok || !exists(filepath.Join(from, base+".pack")) {
			continue
		}
		for _, ext := range []string{".pack", ".idx"} {
			if err := link(filepath.Join(from, base+ext), filepath.Join(to, base+ext)); err != nil {
				return err
			}
		}
	}
	return nil
}

// link makes to a hard link of from; a file already there is the same object (objects and
// packs are named by their content).
func link(from, to string) error {
	if err := os.Link(from, to); err != nil && !errors.Is(err, fs.ErrExist) {
		return errCannotLink
	}
	return nil
}

func isHex(s string) bool {
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return s != ""
}
