//go:build linux

package workspace

// Telling, without git, whether a large workspace changed since its last status.
//
// treecheck.go walks a working tree of up to treeLimit entries to tell that nothing changed;
// past that, the walk costs what git status does, so every local-changes poll of a large
// workspace ran git status. For those trees the kernel tells instead: one inotify instance
// per Repos watches every folder of a large workspace whose status was taken (a folder's
// watch reports its files' writes, creations, deletions, renames and attribute changes), and
// each event on a workspace bumps that workspace's generation.
//
//   - status takes a token (the instance and the generation) just before git status runs and
//     keeps it in the record; a later check that finds the same token — no event since, the
//     watch intact — answers from the record. An event during git status changes the
//     generation, so the next check asks git again.
//   - Events are read only by those two calls, under one mutex, until the queue is empty: a
//     write that returned before a check is in the kernel's queue when the check reads it
//     (the kernel queues it within the write), so no background reader can lag behind.
//   - A new folder is watched when its creation is read (its creation already changed the
//     generation, so what happened in it before is seen by the git status that follows).
//   - Anything the watch cannot vouch for ends it: a queue overflow (every workspace), the
//     workspace's root moved or deleted, a folder that cannot be watched, the budget of
//     watches reached. The next status watches the workspace again; meanwhile git decides.
//   - The budget (watchBudget folders in all) is shared by the workspaces used most recently;
//     one not asked about for watchIdle is let go.
//   - The token names this Repos: another instance sharing the data dir (whose kernel may not
//     see this one's writes) never trusts it, and takes git status.

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

const (
	watchBudget = 100_000          // folders watched at most, over all workspaces
	watchIdle   = 15 * time.Minute // a workspace not asked about for this long is let go
	watchMask   = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CLOSE_WRITE |
		unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF |
		unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW | unix.IN_EXCL_UNLINK
)

// treeWatcher watches large workspaces. Its zero value is unusable: newTreeWatcher.
type treeWatcher struct {
	mu     sync.Mutex
	id     string // names this watcher in tokens
	fd     int    // the inotify instance; -1: none could be made (git decides everything)
	spaces map[string]*watchedSpace
	byWD   map[int32]watchedDir
	total  int // folders watched
	buf    []byte
}

type watchedSpace struct {
	root string
	gen  uint64
	ino  uint64 // the root folder's inode when the watch began
	wds  map[int32]bool
	used time.Time
}

type watchedDir struct {
	space *watchedSpace
	path  string
}

func newTreeWatcher() *treeWatcher {
	var b [6]byte
	_, _ = rand.Read(b[:])
	w := &treeWatcher{id: hex.EncodeToString(b[:]), spaces: map[string]*watchedSpace{}, byWD: map[int32]watchedDir{}, buf: make([]byte, 64<<10)}
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		fd = -1
	}
	w.fd = fd
	return w
}

// token watches the workspace (when not yet watched) and names its state now; "" when it
// cannot be watched. Call it just before git status.
func (w *treeWatcher) token(dir string) string {
	if w == nil || w.fd < 0 {
		return ""
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.drain()
	now := time.Now()
	w.letGoIdle(now)
	s := w.spaces[dir]
	if s == nil {
		var err error
		if s, err = w.watch(dir); err != nil {
			return ""
		}
	}
	s.used = now
	return w.id + ":" + strconv.FormatUint(s.gen, 10)
}

// unchangedSince tells whether nothing changed in the workspace since token was taken.
func (w *treeWatcher) unchangedSince(dir, token string) bool {
	if w == nil || w.fd < 0 || token == "" || !strings.HasPrefix(token, w.id+":") {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.drain()
	s := w.spaces[dir]
	if s == nil || token != w.id+":"+strconv.FormatUint(s.gen, 10) || rootIno(dir) != s.ino {
		return false
	}
	s.used = time.Now()
	return true
}

// watch adds a watch on every folder of the workspace but .git (under mu).
func (w *treeWatcher) watch(dir string) (*watchedSpace, error) {
	s := &watchedSpace{root: dir, ino: rootIno(dir), wds: map[int32]bool{}}
	if s.ino == 0 {
		return nil, errors.New("no workspace")
	}
	w.spaces[dir] = s
	if err := w.addTree(s, dir, dir); err != nil {
		w.forget(dir, s)
		return nil, err
	}
	return s, nil
}

var errWatchBudget = errors.New("too many folders to watch")

// addTree watches folder and every folder below it (not .git at the workspace's root).
func (w *treeWatcher) addTree(s *watchedSpace, root, folder string) error {
	return filepath.WalkDir(folder, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p != folder {
				return nil // gone meanwhile: its parent's event said so
			}
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if p == filepath.Join(root, ".git") {
			return filepath.SkipDir
		}
		if w.total >= watchBudget {
			w.evictOldest(s)
			if w.total >= watchBudget {
				return errWatchBudget
			}
		}
		wd, err := unix.InotifyAddWatch(w.fd, p, watchMask)
		if err != nil {
			if errors.Is(err, syscall.ENOENT) && p != folder {
				return nil
			}
			return err
		}
		if other, ok := w.byWD[int32(wd)]; ok && other.space != s {
			return errors.New("a folder is in two workspaces") // hard links of folders: never
		}
		if !s.wds[int32(wd)] {
			s.wds[int32(wd)] = true
			w.total++
		}
		w.byWD[int32(wd)] = watchedDir{space: s, path: p}
		return nil
	})
}

// drain reads every queued event (under mu).
func (w *treeWatcher) drain() {
	for {
		n, err := unix.Read(w.fd, w.buf)
		if err != nil || n <= 0 {
			return // EAGAIN: the queue is empty
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&w.buf[off]))
			name := ""
			if ev.Len > 0 {
				name = strings.TrimRight(string(w.buf[off+unix.SizeofInotifyEvent:off+unix.SizeofInotifyEvent+int(ev.Len)]), "\x00")
			}
			off += unix.SizeofInotifyEvent + int(ev.Len)
			w.event(ev.Wd, ev.Mask, name)
		}
	}
}

func (w *treeWatcher) event(wd int32, mask uint32, name string) {
	if mask&unix.IN_Q_OVERFLOW != 0 {
		for dir, s := range w.spaces {
			w.forget(dir, s) // events were lost: nothing watched can be vouched for
		}
		return
	}
	d, ok := w.byWD[wd]
	if !ok {
		return // a watch let go of
	}
	s := d.space
	s.gen++
	if mask&unix.IN_IGNORED != 0 {
		delete(w.byWD, wd)
		if s.wds[wd] {
			delete(s.wds, wd)
			w.total--
		}
		return
	}
	root := s.root
	if mask&(unix.IN_DELETE_SELF|unix.IN_MOVE_SELF) != 0 && d.path == root {
		w.forget(root, s)
		return
	}
	if mask&unix.IN_ISDIR != 0 && mask&(unix.IN_CREATE|unix.IN_MOVED_TO) != 0 && name != "" {
		if err := w.addTree(s, root, filepath.Join(d.path, name)); err != nil {
			w.forget(root, s)
		}
	}
}

// forget lets a workspace's watches go (under mu).
func (w *treeWatcher) forget(dir string, s *watchedSpace) {
	for wd := range s.wds {
		_, _ = unix.InotifyRmWatch(w.fd, uint32(wd))
		delete(w.byWD, wd)
	}
	w.total -= len(s.wds)
	s.wds = map[int32]bool{}
	s.gen++ // a token taken before can never match again
	if w.spaces[dir] == s {
		delete(w.spaces, dir)
	}
}

func (w *treeWatcher) letGoIdle(now time.Time) {
	for dir, s := range w.spaces {
		if now.Sub(s.used) > watchIdle {
			w.forget(dir, s)
		}
	}
}

// evictOldest lets go of the workspace used least recently, other than keep.
func (w *treeWatcher) evictOldest(keep *watchedSpace) {
	var oldest *watchedSpace
	var at string
	for dir, s := range w.spaces {
		if s != keep && (oldest == nil || s.used.Before(oldest.used)) {
			oldest, at = s, dir
		}
	}
	if oldest != nil {
		w.forget(at, oldest)
	}
}

func rootIno(dir string) uint64 {
	info, err := os.Lstat(dir)
	if err != nil || !info.IsDir() {
		return 0
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return st.Ino
	}
	return 0
}
