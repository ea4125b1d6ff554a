// Package snapshot reads commits of a portal's canonical repository: a commit's files written
// into a folder (a locked preview, a build), a branch, tag or commit id resolved, a commit's
// files listed. Nothing of the users' workspaces is read, and nothing is written to the
// repository.
package snapshot

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"portalwright/internal/gitcli"
	"portalwright/internal/workspace"
)

// Snapshots reads the canonical repositories of the core.
type Snapshots struct{ core workspace.Core }

// New reads the repositories of core.
func New(core workspace.Core) *Snapshots { return &Snapshots{core: core} }

// ErrSnapshotTooLarge is returned by Snapshot when the commit's files add up to more than the
// caller's limit (a portal imported from a URL may carry huge files).
var ErrSnapshotTooLarge = errors.New("the portal's files are larger than the snapshot limit")

var fullCommitID = regexp.MustCompile(`^[0-9a-f]{40}([0-9a-f]{24})?$`)

// Snapshot writes the files of one commit of the portal's canonical repository into dest (a
// folder that must not exist yet) and returns the commit's id. rev is a branch name or a
// commit id. Nothing of the user's workspaces is read, so later commits and anybody's
// uncommitted edits are never part of it (a locked preview, spec 3 §4). Links are written as
// plain files holding their target, as in every checkout (gitcli), and a commit whose files
// add up to more than maxBytes is refused before anything is written. On failure dest is
// removed: a snapshot is whole or absent.
func (s *Snapshots) Snapshot(ctx context.Context, portalID int64, rev string, dest string, maxBytes int64) (string, error) {
	bare, found := s.core.CanonicalRepo(portalID)
	if !found {
		return "", workspace.ErrBranchMissing
	}
	commit, err := s.ResolveCommit(ctx, portalID, rev)
	if err != nil {
		return "", err
	}
	files, err := s.TreeFiles(ctx, portalID, commit)
	if err != nil {
		return "", err
	}
	var total int64
	for _, f := range files {
		if total += f.Size; total > maxBytes {
			return "", fmt.Errorf("%w (%d bytes)", ErrSnapshotTooLarge, maxBytes)
		}
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return "", err
	}
	if err := os.Mkdir(dest, 0o755); err != nil {
		return "", err
	}
	ok := false
	defer func() {
		if !ok {
			_ = os.RemoveAll(dest)
		}
	}()
	// A private index outside dest: read the commit's tree into it, then write every file.
	index, err := os.CreateTemp(filepath.Dir(dest), ".snapshot-index-*")
	if err != nil {
		return "", err
	}
	indexPath := index.Name()
	index.Close()
	_ = os.Remove(indexPath) // git wants to create it
	defer os.Remove(indexPath)
	env := func(c *gitcli.Cmd) *gitcli.Cmd {
		return c.Env("GIT_DIR", bare).Env("GIT_INDEX_FILE", indexPath).Env("GIT_WORK_TREE", dest)
	}
	if _, err := s.core.Run(ctx, bare, env(gitcli.Command("read-tree").Value(commit))); err != nil {
		return "", err
	}
	if _, err := s.core.Run(ctx, bare, env(gitcli.Command("checkout-index", "--all", "--force"))); err != nil {
		return "", err
	}
	ok = true
	return commit, nil
}

// ResolveCommit names the commit of rev in the portal's canonical repository: a branch, a tag
// or a full commit id. ErrBranchMissing or workspace.ErrUnknownCommit when there is none.
func (s *Snapshots) ResolveCommit(ctx context.Context, portalID int64, rev string) (string, error) {
	bare, ok := s.core.CanonicalRepo(portalID)
	if !ok {
		return "", workspace.ErrBranchMissing
	}
	switch {
	case fullCommitID.MatchString(rev):
		out, err := s.core.Run(ctx, bare, gitcli.Command("rev-parse", "--verify", "--quiet").Value(rev+"^{commit}"))
		if err != nil {
			return "", workspace.MissingOr(ctx, err, workspace.ErrUnknownCommit)
		}
		return strings.TrimSpace(out), nil
	case workspace.ValidRefName("refs/heads/" + rev):
		if tip := s.core.Tip(portalID, rev); tip != "" {
			return tip, nil
		}
		if workspace.ValidRefName("refs/tags/" + rev) {
			out, err := s.core.Run(ctx, bare, gitcli.Command("rev-parse", "--verify", "--quiet").Value("refs/tags/"+rev+"^{commit}"))
			if err == nil {
				return strings.TrimSpace(out), nil
			}
			return "", workspace.MissingOr(ctx, err, workspace.ErrBranchMissing)
		}
		return "", workspace.ErrBranchMissing
	}
	return "", workspace.ErrUnknownCommit
}

// TreeFile is a file of a commit: its path and size.
type TreeFile struct {
	Path string
	Size int64
}

// TreeFiles lists every file of a commit (resolved with ResolveCommit) with its size, from the
// tree alone.
func (s *Snapshots) TreeFiles(ctx context.Context, portalID int64, commit string) ([]TreeFile, error) {
	out, err := s.core.Run(ctx, s.core.Bare(portalID), gitcli.Command("ls-tree", "-r", "-l", "-z", "--full-tree").Value(commit))
	if err != nil {
		return nil, err
	}
	var files []TreeFile
	for _, entry := range strings.Split(out, "\x00") {
		meta, name, ok := strings.Cut(entry, "\t")
		if !ok {
			continue
		}
		fields := strings.Fields(meta) // mode type object size
		if len(fields) != 4 || fields[1] != "blob" {
			continue
		}
		n, err := strconv.ParseInt(fields[3], 10, 64)
		if err != nil {
			continue
		}
		files = append(files, TreeFile{Path: name, Size: n})
	}
	return files, nil
}
