package workspace

// Creating many refs at once as packed refs.
//
// git writes every ref it creates as a loose file (a lock file, its rename, a reflog), and a
// host that gained 2,000 branches makes the fetch create 2,000 loose refs under
// refs/upstream/heads/ already; creating the portal's 2,000 branches the same way doubled the
// cost of the open that saw them. New branches that only mirror the host are therefore added
// to the packed-refs file in one write, the way `git clone` writes its first refs:
//
//   - git's own protocol: packed-refs.lock is created exclusively (O_EXCL), the whole new file
//     is written and synced there and renamed over packed-refs, so git processes and the
//     background `git pack-refs` (workspace/upkeep) are serialised with it by git's own lock;
//   - only under the portal lock (every writer of a canonical repository's refs holds it), and
//     only for names that exist neither packed nor loose and that clash with no existing ref
//     (refs/heads/a beside refs/heads/a/b); the caller creates the others with git;
//   - the file keeps every existing line (peeled lines of tags included), sorted by name as git
//     sorts refnames, under the header "# pack-refs with: peeled sorted": refs outside
//     refs/tags/ without a peeled line are then peeled by git on demand, which is always right.
//
// When packed-refs.lock is taken (a `git pack-refs` or a ref deletion is running) the write is
// not attempted (errPackedBusy) and the caller falls back to `git update-ref --stdin`.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

var errPackedBusy = errors.New("packed-refs.lock exists")

type packedLine struct {
	name, sha string
	peeled    string // "^<sha>" line that followed it, if any
}

// addPackedRefs adds refs (full name → commit) to the repository's packed-refs file. It
// answers the names it added; names it may not add this way (they exist, or clash with an
// existing ref) are left out for the caller to create with git.
func addPackedRefs(gitDir string, refs map[string]string) ([]string, error) {
	added, _, err := writePackedRefs(gitDir, refs, nil, nil)
	return added, err
}

// writePackedRefs adds refs as addPackedRefs does, and removes refs (full name → the commit
// it must still point at) that exist only in packed-refs (no loose file), with their reflog:
// what git's deletion does, without a lock file per ref. The others are left to the caller.
// known is the sorted names of the repository's refs as the caller read them under the portal
// lock (nil: read them here).
func writePackedRefs(gitDir string, refs, remove map[string]string, known []string) (added, removed []string, err error) {
	if len(refs) == 0 && len(remove) == 0 {
		return nil, nil, nil
	}
	if _, err := os.Stat(filepath.Join(gitDir, "reftable")); err == nil {
		return nil, nil, errRefBackend
	}
	lockPath := filepath.Join(gitDir, "packed-refs.lock")
	lock, err := os.OpenFile(lockPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, nil, errPackedBusy
	} else if err != nil {
		return nil, nil, err
	}
	committed := false
	defer func() {
		if !committed {
			lock.Close()
			os.Remove(lockPath)
		}
	}()
	existing, err := readPackedLines(filepath.Join(gitDir, "packed-refs"))
	if err != nil {
		return nil, nil, err
	}
	// What exists now, loose or packed (the ref table reads both; the packed lines are read
	// again above under git's lock).
	if known == nil {
		t, err := readRefTable(gitDir)
		if err != nil {
			return nil, nil, err
		}
		known = t.names
	}
	taken := make(map[string]bool, len(existing)+len(known))
	for _, l := range existing {
		taken[l.name] = true
	}
	for _, n := range known {
		taken[n] = true
	}
	names := make([]string, 0, len(refs))
	for n := range refs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if !ValidRefName(n) || !strings.HasPrefix(n, "refs/") || !shaPattern.MatchString(refs[n]) || taken[n] {
			continue
		}
		if _, err := os.Lstat(filepath.Join(gitDir, filepath.FromSlash(n))); err == nil {
			continue // a loose file (a broken ref, or a folder of refs) is there: git decides
		}
		if clashes(n, taken, known) {
			continue
		}
		existing = append(existing, packedLine{name: n, sha: refs[n]})
		taken[n] = true
		added = append(added, n)
	}
	if len(remove) > 0 {
		kept := existing[:0]
		for _, l := range existing {
			if want, ok := remove[l.name]; ok && want == l.sha {
				if _, err := os.Lstat(filepath.Join(gitDir, filepath.FromSlash(l.name))); errors.Is(err, fs.ErrNotExist) {
					removed = append(removed, l.name)
					continue
				}
			}
			kept = append(kept, l)
		}
		existing = kept
	}
	if len(added) == 0 && len(removed) == 0 {
		return nil, nil, nil
	}
	sort.SliceStable(existing, func(i, j int) bool { return existing[i].name < existing[j].name })
	var b strings.Builder
	b.WriteString("# pack-refs with: peeled sorted \n")
	for _, l := range existing {
		b.WriteString(l.sha + " " + l.name + "\n")
		if l.peeled != "" {
			b.WriteString(l.peeled + "\n")
		}
	}
	if _, err := lock.WriteString(b.String()); err != nil {
		return nil, nil, err
	}
	if err := lock.Sync(); err != nil {
		return nil, nil, err
	}
	if err := lock.Close(); err != nil {
		return nil, nil, err
	}
	if err := os.Rename(lockPath, filepath.Join(gitDir, "packed-refs")); err != nil {
		return nil, nil, err
	}
	committed = true
	for _, n := range removed {
		os.Remove(filepath.Join(gitDir, "logs", filepath.FromSlash(n)))
	}
	return added, removed, nil
}

// clashes tells whether name would be a folder of an existing ref or a ref inside one
// (refs/heads/a and refs/heads/a/b cannot both exist).
func clashes(name string, taken map[string]bool, sorted []string) bool {
	for i := 0; i < len(name); i++ {
		if name[i] == '/' && taken[name[:i]] {
			return true
		}
	}
	k := sort.SearchStrings(sorted, name+"/")
	return k < len(sorted) && strings.HasPrefix(sorted[k], name+"/")
}

// readPackedLines parses a packed-refs file (missing: none).
func readPackedLines(path string) ([]packedLine, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var out []packedLine
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		switch {
		case line == "" || line[0] == '#':
		case line[0] == '^':
			if len(out) > 0 {
				out[len(out)-1].peeled = line
			}
		default:
			sha, name, ok := strings.Cut(line, " ")
			if !ok || !shaPattern.MatchString(sha) {
				return nil, fmt.Errorf("packed-refs: unexpected line %q", line)
			}
			out = append(out, packedLine{name: name, sha: sha})
		}
	}
	return out, nil
}
