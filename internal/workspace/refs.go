package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"portalwright/internal/gitcli"
)

var shaPattern = regexp.MustCompile(`^[0-9a-f]{40}([0-9a-f]{24})?$`)

// Listing refs without git.
//
// Branch listing, allReferences and every workspace status need the canonical repository's
// refs. Running `git for-each-ref` for each costs a process (milliseconds, and 64 concurrent
// callers queue on the CPU), so the refs are read from the files git keeps them in: loose
// refs under refs/ and the packed-refs file. What was read is kept per repository and used
// again while nothing changed: git replaces packed-refs by renaming a new file over it, and
// creating, updating or deleting a loose ref creates and renames a lock file in the ref's
// folder, so the stamps (inode, size, modification time) of packed-refs and of every folder
// under refs/ change with every ref update. A folder modified within racyMargin of the read
// could change again within the same timestamp tick, so such a read is not trusted for
// later calls (the next call reads again; still no git). A repository using the reftable
// backend is asked with git.

// racyMargin covers the coarseness of file timestamps (kernel ticks; seconds on some network
// file systems).
const racyMargin = 2 * time.Second

type fileStamp struct {
	Ino   uint64 `json:"ino"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"` // Unix nanoseconds
}

// stampOf describes a file or folder; the zero stamp stands for "does not exist".
func stampOf(path string) fileStamp {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{}
	}
	return stampInfo(fi)
}

func stampInfo(fi os.FileInfo) fileStamp {
	s := fileStamp{Size: fi.Size(), MTime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.Ino = uint64(st.Ino)
	}
	return s
}

// refTable is what one read of a repository's ref files found.
type refTable struct {
	refs    map[string]string    // full ref name → commit (symbolic refs resolved)
	names   []string             // sorted (as git sorts refnames: bytewise)
	stamps  map[string]fileStamp // packed-refs and every folder under refs/, by path
	trusted bool                 // no stamp was racy when read
	loose   int                  // refs read from loose files (workspace/upkeep packs them)
}

// refCache keeps the last refTable per repository.
type refCache struct {
	mu     sync.Mutex
	tables map[string]*refTable
}

var refTables = &refCache{tables: map[string]*refTable{}}

// current answers the repository's refs, reading the files again only when they changed.
func (c *refCache) current(gitDir string) (*refTable, error) {
	c.mu.Lock()
	t := c.tables[gitDir]
	c.mu.Unlock()
	if t != nil && t.trusted && t.unchanged() {
		return t, nil
	}
	t, err := readRefTable(gitDir)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if len(c.tables) > 10000 { // repositories of deleted portals: start over
		c.tables = map[string]*refTable{}
	}
	c.tables[gitDir] = t
	c.mu.Unlock()
	return t, nil
}

func (t *refTable) unchanged() bool {
	for p, s := range t.stamps {
		if stampOf(p) != s {
			return false
		}
	}
	return true
}

// errRefBackend: the refs are not in files this reader understands; ask git.
var errRefBackend = errors.New("refs are not in the files backend")

func readRefTable(gitDir string) (*refTable, error) {
	if _, err := os.Stat(filepath.Join(gitDir, "reftable")); err == nil {
		return nil, errRefBackend
	}
	if _, err := os.Stat(filepath.Join(gitDir, "HEAD")); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidWorkspace, err)
	}
	started := time.Now()
	t := &refTable{refs: map[string]string{}, stamps: map[string]fileStamp{}}
	symbolic := map[string]string{}
	// Stamps are taken before reading, so a change during the read shows as a change later.
	packedPath := filepath.Join(gitDir, "packed-refs")
	t.stamps[packedPath] = stampOf(packedPath)
	if data, err := os.ReadFile(packedPath); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if line == "" || line[0] == '#' || line[0] == '^' {
				continue
			}
			if sha, name, ok := strings.Cut(strings.TrimSuffix(line, "\r"), " "); ok && shaPattern.MatchString(sha) && ValidRefName(name) {
				t.refs[name] = sha
			}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var walk func(rel string) error
	walk = func(rel string) error {
		dir := filepath.Join(gitDir, filepath.FromSlash(rel))
		t.stamps[dir] = stampOf(dir)
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		} else if err != nil {
			return err
		}
		for _, e := range entries {
			name := rel + "/" + e.Name()
			if e.IsDir() {
				if err := walk(name); err != nil {
					return err
				}
				continue
			}
			if !e.Type().IsRegular() || !ValidRefName(name) {
				continue // lock files, editor leftovers, links: not refs (git skips them too)
			}
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if errors.Is(err, fs.ErrNotExist) {
				continue
			} else if err != nil {
				return err
			}
			content := strings.TrimSpace(string(data))
			t.loose++
			switch {
			case shaPattern.MatchString(content):
				t.refs[name] = content
			case strings.HasPrefix(content, "ref: "):
				symbolic[name] = strings.TrimPrefix(content, "ref: ")
			default:
				delete(t.refs, name) // a broken loose ref hides the packed one; git skips it
			}
		}
		return nil
	}
	if err := walk("refs"); err != nil {
		return nil, err
	}
	for name, target := range symbolic {
		for i := 0; i < 5; i++ { // git follows at most a few levels
			if next, ok := symbolic[target]; ok {
				target = next
				continue
			}
			break
		}
		if sha, ok := t.refs[target]; ok {
			t.refs[name] = sha
		}
	}
	t.names = make([]string, 0, len(t.refs))
	for name := range t.refs {
		t.names = append(t.names, name)
	}
	sort.Strings(t.names)
	t.trusted = true
	for _, s := range t.stamps {
		if s.MTime >= started.Add(-racyMargin).UnixNano() {
			t.trusted = false
		}
	}
	return t, nil
}

// ValidRefName is git's check-ref-format for the names a ref file can have: no component
// that starts with a dot or ends with .lock, no "..", no control characters, space, ~ ^ : ?
// * [ \ or "@{", and no trailing dot.
func ValidRefName(name string) bool {
	if name == "" || strings.HasSuffix(name, ".") || strings.HasSuffix(name, "/") || strings.Contains(name, "..") ||
		strings.Contains(name, "@{") || strings.Contains(name, "//") {
		return false
	}
	for _, part := range strings.Split(name, "/") {
		if part == "" || part[0] == '.' || strings.HasSuffix(part, ".lock") {
			return false
		}
	}
	for _, c := range name {
		if c < 0x20 || c == 0x7f || strings.ContainsRune(" ~^:?*[\\", c) {
			return false
		}
	}
	return true
}

// refNames lists the refs under prefix (e.g. "refs/heads/") of a repository, without the
// prefix, sorted as git for-each-ref sorts them.
func (r *Repos) refNames(ctx context.Context, gitDir, prefix string) ([]string, error) {
	t, err := refTables.current(gitDir)
	if errors.Is(err, errRefBackend) {
		return r.forEachRef(ctx, gitDir, prefix)
	}
	if err != nil {
		return nil, err
	}
	names := []string{}
	i := sort.SearchStrings(t.names, prefix)
	for ; i < len(t.names) && strings.HasPrefix(t.names[i], prefix); i++ {
		names = append(names, strings.TrimPrefix(t.names[i], prefix))
	}
	return names, nil
}

// forEachRef asks git (repositories with another ref backend).
func (r *Repos) forEachRef(ctx context.Context, dir, prefix string) ([]string, error) {
	out, err := r.run(ctx, dir, gitcli.Command("for-each-ref", "--format=%(refname)").Value(prefix))
	if err != nil {
		return nil, err
	}
	names := []string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line != "" {
			names = append(names, strings.TrimPrefix(line, prefix))
		}
	}
	return names, nil
}

// CurrentBranch is the branch a user's workspace has checked out, read from its HEAD file
// (no git): "" when there is no workspace or HEAD is detached.
func (r *Repos) CurrentBranch(userID, portalID int64) string {
	data, err := os.ReadFile(filepath.Join(r.WorkspaceDir(userID, portalID), ".git", "HEAD"))
	if err != nil {
		return ""
	}
	ref, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "ref: refs/heads/")
	if !ok || !ValidRefName("refs/heads/"+ref) {
		return ""
	}
	return ref
}

// HeadCommit is the commit a user's workspace of a portal is on ("" without a workspace): read
// from HEAD and the ref files, without git.
func (r *Repos) HeadCommit(userID, portalID int64) string {
	return markOf(filepath.Join(r.WorkspaceDir(userID, portalID), ".git")).Head
}

// refMap is every ref of a repository (full name → commit) and the names sorted: read from the
// ref files (refs.go), or with one `git for-each-ref` for another ref backend.
func (r *Repos) refMap(ctx context.Context, gitDir string) (map[string]string, []string, error) {
	t, err := refTables.current(gitDir)
	if err == nil {
		return t.refs, t.names, nil
	}
	if !errors.Is(err, errRefBackend) {
		return nil, nil, err
	}
	out, err := r.run(ctx, gitDir, gitcli.Command("for-each-ref", "--format=%(objectname) %(refname)"))
	if err != nil {
		return nil, nil, err
	}
	refs := map[string]string{}
	var names []string
	for _, l := range lines(out) {
		if sha, name, ok := strings.Cut(l, " "); ok {
			refs[name] = sha
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return refs, names, nil
}
