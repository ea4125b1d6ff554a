package asset

import (
	"strconv"
	"sync"
	"time"

	"portalwright/internal/workspace"
)

// folderFresh bounds how long a folder's listing is reused while its folder is unchanged.
// Every change the product makes (a save, an upload, a rename, a delete, git checking files
// out) replaces directory entries and so changes the folder's modification time at once; the
// bound covers what that misses: a file rewritten in place by another program, or a
// subfolder gaining its first folder (hasChildren).
const folderFresh = 2 * time.Second

// maxCachedAssets bounds the cache by the listed assets it holds (a few hundred bytes each);
// past it the cache starts over.
const maxCachedAssets = 20_000

type folderKey struct {
	userID, portalID int64
	path             string
}

type folderEntry struct {
	stamp string
	at    time.Time
	asset *Asset // shared, read only
}

// folderCache keeps the last listing of each user's folders: listing 1,000 assets stats
// each file and reads image headers, about 10 ms of CPU, while a folder is read far more
// often than it changes. Its zero value is ready.
type folderCache struct {
	mu     sync.Mutex
	m      map[folderKey]folderEntry
	assets int // children held
}

// stampOf says when a folder last changed: its modification time and size.
func stampOf(info workspace.FileInfo) string {
	return strconv.FormatInt(info.ModTime.UnixNano(), 36) + "/" + strconv.FormatInt(info.Size, 36)
}

func (c *folderCache) get(k folderKey, stamp string, now time.Time) *Asset {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok || e.stamp != stamp || now.Sub(e.at) >= folderFresh {
		return nil
	}
	return e.asset
}

func (c *folderCache) put(k folderKey, stamp string, now time.Time, a *Asset) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || c.assets+len(a.Children) > maxCachedAssets {
		c.m, c.assets = map[folderKey]folderEntry{}, 0
	}
	if old, ok := c.m[k]; ok {
		c.assets -= len(old.asset.Children)
	}
	c.m[k] = folderEntry{stamp: stamp, at: now, asset: a}
	c.assets += len(a.Children)
}
