package hostsync

// What the canonical repository remembers of its upstream between fetches.
//
// The fetch prunes refs/upstream/heads/ (one fetch with --prune for every branch), so after it
// nothing says which branches the host had before. Two small files beside the refs keep that,
// written under the portal lock by IntegrateUpstream (and by MarkUpstreamSynced at import):
//
//   - upstreamHeadsFile: the host's branches and their commits as of the last integration;
//     a branch listed there and gone from refs/upstream/heads/ was deleted on the host.
//   - upstreamDeletedFile: the branches deleted on the host that the portal keeps, with the
//     host's last commit: a workspace has unpushed work on them, or the portal's branch has
//     commits the host never had. The status shows them as "deleted on the git host"; they are
//     never pushed back; they leave the portal at a later fetch once nothing holds them.
//
// Both use the packed-refs line format ("<sha> <branch>"), are replaced atomically (a
// temporary file renamed over them), and are read without git.

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"portalwright/internal/workspace"
)

const (
	upstreamHeadsFile   = "portalwright-upstream-heads"
	upstreamDeletedFile = "portalwright-upstream-deleted"
)

// SideFiles are the files beside the refs of a canonical repository that a backup keeps
// (internal/backup); the rest (status journal, maintenance stamps) is rebuilt.
var SideFiles = []string{upstreamHeadsFile, upstreamDeletedFile}

// readBranchFile reads one of the files; ok is false when it does not exist.
func readBranchFile(gitDir, name string) (map[string]string, bool, error) {
	data, err := os.ReadFile(filepath.Join(gitDir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, false, nil
	} else if err != nil {
		return nil, false, err
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if sha, branch, ok := strings.Cut(line, " "); ok && workspace.IsObjectID(sha) && workspace.ValidRefName("refs/heads/"+branch) {
			out[branch] = sha
		}
	}
	return out, true, nil
}

// writeBranchFile replaces one of the files (the caller holds the portal lock).
func writeBranchFile(gitDir, name string, branches map[string]string) error {
	names := make([]string, 0, len(branches))
	for b := range branches {
		names = append(names, b)
	}
	sort.Strings(names)
	var sb strings.Builder
	for _, b := range names {
		sb.WriteString(branches[b] + " " + b + "\n")
	}
	tmp, err := os.CreateTemp(gitDir, "."+name+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(sb.String()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(gitDir, name))
}

// DeletedOnHost lists the portal's branches that its git host deleted and the portal keeps
// (see above), sorted; read from a file, no git.
func (hs *HostSync) DeletedOnHost(portalID int64) []string {
	bare := hs.core.Bare(portalID)
	deleted, _, err := readBranchFile(bare, upstreamDeletedFile)
	if err != nil || len(deleted) == 0 {
		return []string{}
	}
	t := hs.refs.Files(bare)
	out := []string{}
	for b := range deleted {
		if t != nil && t.Refs["refs/heads/"+b] == "" {
			continue // deleted in the portal meanwhile
		}
		out = append(out, b)
	}
	sort.Strings(out)
	return out
}

// hostOrigin tells, for a repository whose upstream record predates this version, whether a
// branch came from the git host and was never written in the product: its reflog in the
// canonical repository is missing (made by the import's clone) or has only entries without a
// message (made or fast-forwarded from the host by update-ref). Branches made in the product
// ("branch: Created from …") or committed to ("push") are not.
func hostOrigin(gitDir, branch string) bool {
	data, err := os.ReadFile(filepath.Join(gitDir, "logs", "refs", "heads", filepath.FromSlash(branch)))
	if errors.Is(err, fs.ErrNotExist) {
		return true
	} else if err != nil {
		return false
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if _, msg, ok := strings.Cut(line, "\t"); ok && strings.TrimSpace(msg) != "" {
			return false
		}
	}
	return true
}
