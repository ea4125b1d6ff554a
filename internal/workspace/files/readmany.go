package files

// Reading many files of a user's workspace at once (portal search).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"portalwright/internal/gitcli"
	"portalwright/internal/workspace"
)

// ReadMany reads the regular files of the user's workspace that sit directly in the folders
// dirs (not below them; a missing folder is skipped) and whose names keep says to keep, with
// a bounded pool of workers (at most GOMAXPROCS×2, at least 2), and hands each to fn with its
// path (fn runs on several goroutines at once). Links are never followed (listed entries that
// are links, and names that resolve outside the workspace, are skipped), nor are files over
// maxSize bytes read. It reads without the workspace lock: writes replace files by renaming
// (WriteFiles), so a file is read whole, before or after a save. The first error of fn ends the
// walk and is answered; a cancelled ctx ends it with ctx.Err().
func (fl *Files) ReadMany(ctx context.Context, userID, portalID int64, dirs []workspace.Path, keep func(name string) bool, maxSize int64, fn func(p workspace.Path, data []byte) error) error {
	root, err := fl.clones.Root(userID, portalID)
	if err != nil {
		return err
	}
	defer root.Close()
	var jobs []readJob
	for _, d := range dirs {
		dir := d.String()
		if d == workspace.Root {
			dir = "."
		}
		if fi, err := root.Lstat(dir); errors.Is(err, fs.ErrNotExist) || (err == nil && !fi.IsDir()) {
			continue // missing, a file or a link: nothing to read
		}
		sub, err := root.OpenRoot(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		defer sub.Close()
		f, err := sub.Open(".")
		if err != nil {
			return err
		}
		entries, err := f.ReadDir(-1)
		f.Close()
		if err != nil {
			return err
		}
		for _, e := range entries {
			if !e.Type().IsRegular() || !keep(e.Name()) || strings.HasPrefix(e.Name(), ".pw-write-") {
				continue
			}
			jobs = append(jobs, readJob{dir: sub, name: e.Name(), rel: path.Join(dir, e.Name())})
		}
	}
	return readPool(ctx, jobs, maxSize, fn)
}

// readJob is one file of a read pool.
type readJob struct {
	dir  *os.Root // the folder, opened once
	name string   // in dir
	rel  string   // in the workspace
}

// readPool reads the jobs with a bounded pool of workers and hands each file to fn.
func readPool(ctx context.Context, jobs []readJob, maxSize int64, fn func(p workspace.Path, data []byte) error) error {
	workers := min(max(runtime.GOMAXPROCS(0)*2, 2), 16)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	queue := make(chan readJob)
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
	)
	fail := func(err error) {
		once.Do(func() { first = err; cancel() })
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range queue {
				data, ok := readSmall(j.dir, j.name, maxSize)
				if !ok {
					continue
				}
				if err := fn(workspace.Root.Join(j.rel), data); err != nil {
					fail(err)
				}
			}
		}()
	}
feed:
	for _, j := range jobs {
		select {
		case queue <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(queue)
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}

// readSmall reads a regular file (not a link, at most maxSize bytes): opened without
// following a link and without blocking, read into a pooled buffer (one read for a small
// file), copied out.
func readSmall(root *os.Root, name string, maxSize int64) ([]byte, bool) {
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	bp := readBuffers.Get().(*[]byte)
	defer readBuffers.Put(bp)
	buf := *bp
	n, err := io.ReadFull(f, buf)
	switch {
	case err == nil: // the buffer is full: a larger file
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		if int64(n) > maxSize {
			return nil, false
		}
		return append([]byte(nil), buf[:n]...), true
	default:
		return nil, false // a folder, a device, a read error
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxSize {
		return nil, false
	}
	data := make([]byte, fi.Size())
	copy(data, buf)
	m, err := io.ReadFull(f, data[n:])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, false
	}
	return data[:n+m], true
}

// readBuffers hold the first 64 KiB of files being read.
var readBuffers = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// ReadTree is ReadMany over the whole workspace: every regular file below the top whose
// name keep says to keep, in folders skip does not skip (given the folder's path; .git is
// always skipped), links never followed.
func (fl *Files) ReadTree(ctx context.Context, userID, portalID int64, skip func(dir string) bool, keep func(name string) bool, maxSize int64, fn func(p workspace.Path, data []byte) error) error {
	root, err := fl.clones.Root(userID, portalID)
	if err != nil {
		return err
	}
	defer root.Close()
	var jobs []readJob
	var opened []*os.Root
	defer func() {
		for _, o := range opened {
			o.Close()
		}
	}()
	var walk func(dir *os.Root, rel string) error
	walk = func(dir *os.Root, rel string) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		f, err := dir.Open(".")
		if err != nil {
			return nil // removed meanwhile
		}
		entries, err := f.ReadDir(-1)
		f.Close()
		if err != nil {
			return nil
		}
		for _, e := range entries {
			name := e.Name()
			child := path.Join(rel, name)
			switch {
			case e.Type()&fs.ModeSymlink != 0, strings.EqualFold(name, ".git"), strings.HasPrefix(name, ".pw-write-"):
			case e.IsDir():
				if skip != nil && skip(child) {
					continue
				}
				sub, err := dir.OpenRoot(name)
				if err != nil {
					continue
				}
				opened = append(opened, sub)
				if err := walk(sub, child); err != nil {
					return err
				}
			case e.Type().IsRegular() && keep(name):
				jobs = append(jobs, readJob{dir: dir, name: name, rel: child})
			}
		}
		return nil
	}
	if err := walk(root, ""); err != nil {
		return err
	}
	return readPool(ctx, jobs, maxSize, fn)
}

// GrepFiles lists the files of the user's workspace whose bytes hold word, ignoring ASCII
// case, as one `git grep --no-index -F -i -l` over the working tree finds them (the files on
// disk, tracked or not, .gitignore not applied, .git left out), but for those matched by the
// glob pathspecs excludeGlobs (`*` stays within a folder, `**/` spans folders) or below the
// folders excludeDirs. word must be lower-case ASCII letters and digits. It only says which
// files to read: ReadFiles reads them under ReadTree's rules (git may follow a link; the
// product never does).
func (fl *Files) GrepFiles(ctx context.Context, userID, portalID int64, word string, excludeGlobs, excludeDirs []string, timeout time.Duration) ([]string, error) {
	for _, c := range word {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return nil, fmt.Errorf("workspace: grep word %q is not plain", word)
		}
	}
	dir, err := fl.clones.Dir(userID, portalID)
	if err != nil {
		return nil, err
	}
	specs := make([]string, 0, len(excludeGlobs)+len(excludeDirs))
	for _, g := range excludeGlobs {
		specs = append(specs, ":(exclude,glob)"+g)
	}
	for _, d := range excludeDirs {
		specs = append(specs, ":(exclude,literal)"+d)
	}
	c := gitcli.Command("grep", "--no-index", "-z", "-l", "-F", "-i", "-e").Value(word).Paths(specs...).Timeout(timeout)
	out, err := fl.repos.Core().Git().Run(ctx, dir, c)
	var ge *gitcli.Error
	if errors.As(err, &ge) && ge.ExitCode == 1 && ge.Stderr == "" {
		return nil, nil // nothing holds it
	}
	if err != nil {
		return nil, err
	}
	return strings.FieldsFunc(string(out), func(r rune) bool { return r == 0 }), nil
}

// ReadFiles reads the listed files of the user's workspace (paths relative to it, as
// GrepFiles answers them) under ReadTree's rules: regular files only, no link followed on the
// way or at the end, nothing in .git or in a folder skip skips, names keep keeps, at most
// maxSize bytes; fn as for ReadMany. Paths that are not such files are left out.
func (fl *Files) ReadFiles(ctx context.Context, userID, portalID int64, paths []string, skip func(dir string) bool, keep func(name string) bool, maxSize int64, fn func(p workspace.Path, data []byte) error) error {
	root, err := fl.clones.Root(userID, portalID)
	if err != nil {
		return err
	}
	defer root.Close()
	dirs := map[string]*os.Root{"": root}
	defer func() {
		for rel, d := range dirs {
			if rel != "" && d != nil {
				d.Close()
			}
		}
	}()
	// open opens a folder of the workspace one component at a time, refusing links and the
	// folders ReadTree does not enter; nil when it cannot be read.
	var open func(rel string) *os.Root
	open = func(rel string) *os.Root {
		if d, ok := dirs[rel]; ok {
			return d
		}
		parent, name := path.Split(rel)
		parent = strings.TrimSuffix(parent, "/")
		var d *os.Root
		if p := open(parent); p != nil && !strings.EqualFold(name, ".git") && !strings.HasPrefix(name, ".pw-write-") && (skip == nil || !skip(rel)) {
			if fi, err := p.Lstat(name); err == nil && fi.IsDir() {
				d, _ = p.OpenRoot(name)
			}
		}
		dirs[rel] = d
		return d
	}
	var jobs []readJob
	seen := map[string]bool{}
	for _, p := range paths {
		if p == "" || seen[p] || path.Clean(p) != p || path.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../") {
			continue
		}
		seen[p] = true
		dir, name := path.Split(p)
		if !keep(name) || strings.HasPrefix(name, ".pw-write-") || strings.EqualFold(name, ".git") {
			continue
		}
		if d := open(strings.TrimSuffix(dir, "/")); d != nil {
			if fi, err := d.Lstat(name); err == nil && fi.Mode().IsRegular() {
				jobs = append(jobs, readJob{dir: d, name: name, rel: p})
			}
		}
	}
	return readPool(ctx, jobs, maxSize, fn)
}
