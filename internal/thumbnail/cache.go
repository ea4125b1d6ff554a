package thumbnail

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The disk cache (<data>/cache/thumbnails) holds at most its limit in bytes, least recently
// used first out. A file's modification time is its last use: a hit touches it (at most once
// every touchEvery, so a busy grid does not write on every read), and when the bytes written
// push the cache over its limit, a sweep lists the folder and removes the oldest files until
// it is under lowWater of the limit. Several instances may share the folder: each counts what
// it writes and recounts the folder at every sweep, and at least every recountEvery, so what
// the others wrote is seen; removing a file another instance is reading is harmless (Linux
// keeps an open file's data), and a removed thumbnail is made again on its next request.

const (
	touchEvery   = 10 * time.Minute
	recountEvery = 10 * time.Minute
	tempMaxAge   = time.Hour // a temporary file this old is a crash's leftover
	lowWater     = 0.9
)

type diskCache struct {
	dir   string
	limit int64 // bytes; ≤ 0: no limit

	mu      sync.Mutex
	size    int64     // the folder's bytes as last counted, plus what was written since
	counted time.Time // the last count (zero: not counted yet)

	sweeping atomic.Bool
	now      func() time.Time
}

func newDiskCache(dir string, limit int64) *diskCache {
	return &diskCache{dir: dir, limit: limit, now: time.Now}
}

// read answers a cached thumbnail of key (either format), touching it when its last use is
// older than touchEvery.
func (c *diskCache) read(key string) (*Image, bool) {
	for _, ext := range []string{"jpg", "png"} {
		name := filepath.Join(c.dir, key+"."+ext)
		f, err := os.Open(name)
		if err != nil {
			continue
		}
		data, mtime, err := readAll(f)
		if err != nil {
			continue
		}
		if now := c.now(); now.Sub(mtime) > touchEvery {
			_ = os.Chtimes(name, now, now)
		}
		return &Image{Data: data, ContentType: contentTypes[ext], ETag: key}, true
	}
	return nil, false
}

func readAll(f *os.File) ([]byte, time.Time, error) {
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, time.Time{}, err
	}
	data := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, time.Time{}, err
	}
	return data, fi.ModTime(), nil
}

// write stores a cache file atomically (a temporary file renamed into place, so a reader
// never sees half a thumbnail), then sweeps when the cache is over its limit or has not been
// counted for recountEvery. A cache that cannot be written costs time, not the answer.
func (c *diskCache) write(name string, data []byte) {
	if err := os.MkdirAll(c.dir, 0o750); err != nil {
		return
	}
	f, err := os.CreateTemp(c.dir, ".tmp-*")
	if err != nil {
		return
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(c.dir, name))
	}
	if err != nil {
		_ = os.Remove(f.Name())
		return
	}
	if c.limit <= 0 {
		return
	}
	c.mu.Lock()
	c.size += int64(len(data))
	due := c.size > c.limit || c.counted.IsZero() || c.now().Sub(c.counted) > recountEvery
	c.mu.Unlock()
	if due {
		c.sweep()
	}
}

// sweep counts the folder and, over the limit, removes the least recently used files until
// it is under lowWater of it (one sweep at a time in this instance; others may run theirs).
// It also removes temporary files left by a crash. It answers the bytes left.
func (c *diskCache) sweep() int64 {
	if !c.sweeping.CompareAndSwap(false, true) {
		return -1
	}
	defer c.sweeping.Store(false)
	entries, err := os.ReadDir(c.dir)
	if err != nil {
		return -1
	}
	type file struct {
		name  string
		size  int64
		mtime time.Time
	}
	files := make([]file, 0, len(entries))
	var total int64
	now := c.now()
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		if strings.HasPrefix(e.Name(), ".tmp-") {
			if now.Sub(fi.ModTime()) > tempMaxAge {
				_ = os.Remove(filepath.Join(c.dir, e.Name()))
			}
			continue
		}
		files = append(files, file{e.Name(), fi.Size(), fi.ModTime()})
		total += fi.Size()
	}
	if c.limit > 0 && total > c.limit {
		slices.SortFunc(files, func(a, b file) int { return a.mtime.Compare(b.mtime) })
		target := int64(float64(c.limit) * lowWater)
		for _, f := range files {
			if total <= target {
				break
			}
			if err := os.Remove(filepath.Join(c.dir, f.name)); err == nil || os.IsNotExist(err) {
				total -= f.size
			}
		}
	}
	c.mu.Lock()
	c.size, c.counted = total, now
	c.mu.Unlock()
	return total
}
