package taskrunner

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"portalwright/internal/heartbeat"
)

// Scratch is the only writable folder a task sees: a copy of a workspace in a directory the
// runner owns. It can only be made by newScratch, which copies; see the package comment.
type Scratch struct {
	dir     string  // host path of the copy
	mountAt string  // where the task sees it
	parent  string  // the run's private directory (removed by Remove)
	kept    bool    // a Workdir's: its owner removes it
	budget  *budget // the build's budget (its control group or uid), ended by Remove
}

// MountAt is where the task sees the copy.
func (s *Scratch) MountAt() string { return s.mountAt }

// Remove ends the build (what is left of its processes is killed, its control group removed)
// and deletes the copy (a Workdir's scratch is removed by the Workdir's owner).
func (s *Scratch) Remove() error {
	err := s.budget.close()
	if s.kept {
		return err
	}
	return errors.Join(err, os.RemoveAll(s.parent))
}

// Workdir is a folder the runner owns below its scratch root, for a caller to fill with a
// disposable copy (a commit's snapshot) and build in place: no copy in, no copy back, the
// output stays in it. Only Runner.NewWorkdir makes one, so a task still can only ever be given
// a folder of the runner's: never a workspace or the data directory.
type Workdir struct {
	dir, parent string
}

// Dir is where the caller writes the files (it does not exist yet).
func (w *Workdir) Dir() string { return w.dir }

// Remove deletes the folder and everything the tasks wrote.
func (w *Workdir) Remove() error { return os.RemoveAll(w.parent) }

// NewWorkdir makes a Workdir below the runner's scratch root.
func (r *Runner) NewWorkdir() (*Workdir, error) {
	if err := os.MkdirAll(r.cfg.ScratchRoot, 0o711); err != nil {
		return nil, err
	}
	parent, err := os.MkdirTemp(r.cfg.ScratchRoot, runPrefix())
	if err != nil {
		return nil, err
	}
	return &Workdir{dir: filepath.Join(parent, "workspace"), parent: parent}, nil
}

// adopt makes a filled Workdir the run's scratch, owned by the build's uid, within budget b
// (the Scratch owns it from now on; adopt ends it when it fails).
func adopt(w *Workdir, mountAt string, b *budget) (*Scratch, error) {
	s, err := func() (*Scratch, error) {
		if err := checkMountPoint(mountAt); err != nil {
			return nil, err
		}
		if st, err := os.Lstat(w.dir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("the work folder is empty")
		}
		if err := b.own(w.parent); err != nil {
			return nil, err
		}
		if err := b.watch(w.dir); err != nil {
			return nil, err
		}
		return &Scratch{dir: w.dir, mountAt: mountAt, parent: w.parent, kept: true, budget: b}, nil
	}()
	if err != nil {
		_ = b.close()
	}
	return s, err
}

// newScratch copies workspace (without .git and without the folder skip, relative, "" for
// none) into a new directory below root, owned by the build's uid, within budget b (the
// Scratch owns it from now on; newScratch ends it when it fails). Links in the workspace are
// copied as plain files holding the link's text (portal content is untrusted; the workspace has
// none: gitcli checks links out as files).
func newScratch(root, workspace, skip, mountAt string, b *budget) (*Scratch, error) {
	s, err := func() (*Scratch, error) {
		if err := checkMountPoint(mountAt); err != nil {
			return nil, err
		}
		if rel, err := filepath.Rel(workspace, root); err != nil || rel == "." || !strings.HasPrefix(rel, "..") {
			return nil, fmt.Errorf("the scratch folder %s must not be inside the workspace", root)
		}
		if err := os.MkdirAll(root, 0o711); err != nil {
			return nil, err
		}
		parent, err := os.MkdirTemp(root, runPrefix())
		if err != nil {
			return nil, err
		}
		s := &Scratch{dir: filepath.Join(parent, "workspace"), mountAt: mountAt, parent: parent, budget: b}
		skip = filepath.Clean(skip)
		err = copyTree(workspace, s.dir, func(rel string, d fs.DirEntry) bool {
			return rel == ".git" || (skip != "." && skip != "" && rel == skip)
		}, -1)
		if err == nil {
			// The run's directory is private to the build's uid; the root above it only lets it pass.
			err = b.own(parent)
		}
		if err == nil {
			err = b.watch(s.dir)
		}
		if err != nil {
			_ = os.RemoveAll(parent)
			return nil, fmt.Errorf("copying the workspace: %w", err)
		}
		return s, nil
	}()
	if err != nil {
		_ = b.close()
	}
	return s, err
}

var errTooBig = errors.New("too big")

// copyTree copies the regular files and folders of from into to (created). Links become plain
// files holding their text; other special files are skipped; nothing is ever followed. limit
// caps the bytes copied (-1: no cap).
func copyTree(from, to string, skip func(rel string, d fs.DirEntry) bool, limit int64) error {
	var total int64
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		if rel != "." && skip != nil && skip(rel, d) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		dst := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			return os.Mkdir(dst, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.WriteFile(dst, []byte(target), 0o644)
		case d.Type().IsRegular():
			n, err := copyFile(p, dst)
			total += n
			if limit >= 0 && total > limit {
				return fmt.Errorf("the build output is more than %s (task output limit): %w", size(limit), errTooBig)
			}
			return err
		default:
			return nil // fifo, socket, device: not content
		}
	})
}

func copyFile(from, to string) (int64, error) {
	in, err := os.OpenFile(from, os.O_RDONLY|unix.O_NOFOLLOW, 0)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return 0, err
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644|(st.Mode().Perm()&0o111))
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return n, err
}

// publish copies the folder rel of the scratch into the workspace's folder rel, replacing it
// atomically: the copy is made next to it and swapped in with renameat2(RENAME_EXCHANGE) (or
// renamed when there was none), so readers see either the old output or the new one, whole.
func publish(s *Scratch, workspace, rel string, limit int64) error {
	src := filepath.Join(s.dir, rel)
	st, err := os.Lstat(src)
	if err != nil || !st.IsDir() {
		return fmt.Errorf("the tasks did not produce the output folder %s", filepath.ToSlash(rel))
	}
	dst := filepath.Join(workspace, rel)
	if !strings.HasPrefix(dst, filepath.Clean(workspace)+string(filepath.Separator)) {
		return fmt.Errorf("output path %q is outside the workspace", rel)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if st, err := os.Lstat(dst); err == nil && !st.IsDir() {
		return fmt.Errorf("the output path %s is a file in the workspace", filepath.ToSlash(rel))
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".new-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := os.Remove(tmp); err != nil { // copyTree creates it
		return err
	}
	if err := copyTree(src, tmp, nil, limit); err != nil {
		return err
	}
	if err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, dst, unix.RENAME_EXCHANGE); err != nil {
		if !errors.Is(err, unix.ENOENT) {
			return err
		}
		return os.Rename(tmp, dst) // no previous output
	}
	return nil // tmp now holds the old output; the deferred RemoveAll deletes it
}

// runPrefix names a run's folder after the process that made it ("run-<pid>.<start>-…"), so
// that a starting server can tell the folders of dead processes (RemoveDeadScratch).
func runPrefix() string { return "run-" + heartbeat.Tag(os.Getpid()) + "-" }

// RemoveDeadScratch deletes the run folders below root left by processes of this host that no
// longer run (a kill -9, a crash): their scratch copies and Workdirs. Folders of live processes
// (other servers sharing the root, this one) are left alone. It returns how many it removed.
func RemoveDeadScratch(root string) int {
	entries, err := os.ReadDir(root)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), "run-")
		if !ok || !e.IsDir() {
			continue
		}
		tag, _, ok := strings.Cut(rest, "-")
		if !ok || !strings.Contains(tag, ".") || !heartbeat.TagDead(tag) {
			continue
		}
		if os.RemoveAll(filepath.Join(root, e.Name())) == nil {
			n++
		}
	}
	return n
}
