package taskrunner

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// budget is what one build (a run: all its steps) may use, and what enforces it: its own
// control group when the host gives one (processes, memory of all the build's processes
// together, /tmp and /dev/shm included), else its own host uid (so RLIMIT_NPROC counts this
// build alone); and, in every mode, the disk watcher over the build's scratch folder.
type budget struct {
	lim      Limits
	uid, gid int  // host owner of the scratch and of the processes; -1: as the server
	setuid   bool // switch to uid/gid before prlimit and bwrap start (the server is root)
	cg       *cgroup
	lease    *uidLease

	dir  string // the scratch folder the disk budget covers (set by watch)
	base int64  // its size when the build started: the copy of the workspace is not counted

	mu   sync.Mutex
	over string // the first limit the build went over, as the user reads it
}

// Messages naming the limit a build went over.
func memoryMessage(l Limits) string {
	return fmt.Sprintf("The build used more than %s of memory (task memory limit).", size(l.MemoryBytes))
}

func processMessage(l Limits) string {
	return fmt.Sprintf("The build used more than %d processes (task process limit).", l.Processes)
}

func diskMessage(l Limits) string {
	return fmt.Sprintf("The build wrote more than %s (task disk limit).", size(l.DiskBytes))
}

func tmpMessage(l Limits) string {
	return fmt.Sprintf("The build wrote more than %s to /tmp (task tmp limit).", size(l.TmpBytes))
}

func shmMessage(l Limits) string {
	return fmt.Sprintf("The build wrote more than %s to /dev/shm (task shm limit).", size(l.ShmBytes))
}

func timeMessage(l Limits) string {
	return fmt.Sprintf("The build ran longer than %s (task time limit).", l.WallTime)
}

// size writes a byte count in MB (MiB) when it is a whole number of them.
func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + " MB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// exceed records the first limit the build went over; it tells whether this one was the first.
func (b *budget) exceed(msg string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.over != "" {
		return false
	}
	b.over = msg
	return true
}

// exceeded is the limit the build went over, "" when none.
func (b *budget) exceeded() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.over
}

// watch makes dir (the scratch folder) the one the disk budget covers, from its size now.
func (b *budget) watch(dir string) error {
	n, _, err := treeSize(dir, -1)
	if err != nil {
		return err
	}
	b.dir, b.base = dir, n
	return nil
}

// check looks at the build's counters: OOM kills and refused forks in its control group, and
// what it wrote to its scratch folder. It records and returns the limit it went over, "" when
// none.
func (b *budget) check() string {
	if over := b.exceeded(); over != "" {
		return over
	}
	if b.cg != nil {
		oom, forks := b.cg.events()
		switch {
		case oom > 0:
			b.exceed(memoryMessage(b.lim))
		case forks > 0:
			b.exceed(processMessage(b.lim))
		}
	}
	if b.dir != "" && b.exceeded() == "" {
		if _, over, err := treeSize(b.dir, b.base+b.lim.DiskBytes); err == nil && over {
			b.exceed(diskMessage(b.lim))
		}
	}
	return b.exceeded()
}

// close ends the build: what is left of its processes is killed, its control group removed
// and its uid given back.
func (b *budget) close() error {
	if b == nil {
		return nil
	}
	var err error
	if b.cg != nil {
		err = b.cg.remove()
		b.cg = nil
	}
	if b.lease != nil {
		b.lease.release()
		b.lease = nil
	}
	return err
}

// treeSize is the disk the files and folders below dir take: allocated blocks, at least 4 KiB
// per entry (so millions of empty files count too), hard links once. With limit >= 0 it stops
// as soon as the size is over limit and tells so.
func treeSize(dir string, limit int64) (int64, bool, error) {
	var total int64
	var seen map[[2]uint64]bool
	errOver := errors.New("over")
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // removed while we walk
			}
			return err
		}
		var st unix.Stat_t
		if err := unix.Lstat(p, &st); err != nil {
			return nil
		}
		if st.Nlink > 1 && !d.IsDir() {
			if seen == nil {
				seen = map[[2]uint64]bool{}
			}
			k := [2]uint64{st.Dev, st.Ino}
			if seen[k] {
				return nil
			}
			seen[k] = true
		}
		total += max(st.Blocks*512, 4096)
		if limit >= 0 && total > limit {
			return errOver
		}
		return nil
	})
	if errors.Is(err, errOver) {
		return total, true, nil
	}
	return total, false, err
}

// uidPool hands out the host uids of builds when there is no control group and the server is
// root: one uid per build at a time, so RLIMIT_NPROC counts one build's processes. A uid is
// held with an abstract unix socket named after it, so servers on one host (and test binaries
// running at once) never hand out the same uid twice.
type uidPool struct {
	first, count int
}

type uidLease struct {
	uid int
	fd  int
}

func (l *uidLease) release() { _ = unix.Close(l.fd) }

// lease takes a free uid, waiting for one while all are taken.
func (p *uidPool) lease(ctx context.Context) (*uidLease, error) {
	for {
		off := rand.IntN(p.count)
		for i := 0; i < p.count; i++ {
			uid := p.first + (off+i)%p.count
			fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
			if err != nil {
				return nil, err
			}
			err = unix.Bind(fd, &unix.SockaddrUnix{Name: "@portalwright-task-uid-" + strconv.Itoa(uid)})
			if err == nil {
				return &uidLease{uid: uid, fd: fd}, nil
			}
			_ = unix.Close(fd)
			if !errors.Is(err, syscall.EADDRINUSE) {
				return nil, err
			}
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("all %d build uids are in use: %w", p.count, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// ParseUIDRange reads "first-last" (e.g. "2000000000-2000000999"): the host uids the builds
// run as without a control group.
func ParseUIDRange(s string) (first, count int, err error) {
	a, b, ok := strings.Cut(s, "-")
	f, err1 := strconv.Atoi(a)
	l, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || f < 1000 || l < f || l >= 1<<31-1 || l-f >= 1<<16 {
		return 0, 0, fmt.Errorf("%q must be first-last: uids from 1000 to 2147483646, at most 65536 of them", s)
	}
	return f, l - f + 1, nil
}

// own gives every file below dir to the build's uid (when it has one).
func (b *budget) own(dir string) error {
	if b.uid < 0 {
		return nil
	}
	return filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, b.uid, b.gid)
	})
}
