// Package backups is the git side of backing up and restoring repositories and workspaces
// (internal/backup runs it; issue 34), over workspace.Core and the users' workspaces.
//
// A backup runs while the server writes, in another process, so it takes none of the server's
// locks and writes nothing into the data directory:
//
//   - A canonical repository is read through a shadow repository in the backup's scratch
//     folder: the live refs are listed once (`git for-each-ref`) and written into the shadow,
//     whose objects are the live ones (objects/info/alternates); the bundle is made from the
//     shadow. So the refs in the bundle are one snapshot, taken after the database copy, and a
//     ref moved meanwhile cannot make the bundle half old, half new. The canonical store only
//     grows (it never prunes; objects are linked in before a ref names them, workspace/landing.go), so
//     every object the snapshot's refs reach is there while the bundle is made.
//   - Commits the caller names (those the database refers to) that no ref of the snapshot
//     reaches any more get a ref of their own, ReferencedRefs+<sha>, so the bundle holds them.
//   - The shadow is checked with `git fsck --connectivity-only` before the bundle is made: a
//     repository missing objects fails the backup instead of giving a bundle that cannot be
//     restored. (Restoring indexes every object again, which checks its hash.)
//   - A workspace's uncommitted work is written as a commit on its HEAD without touching its
//     index or files: `git add -A` into a copy of its index, with the new objects in the
//     scratch folder (GIT_OBJECT_DIRECTORY; the workspace's own objects and, through its
//     alternates, the canonical ones are read as alternates). Its bundle holds only what the
//     canonical snapshot does not: local commits, that commit, discarded work.
//
// Restoring is the other way round, into an empty data directory with no server running: a
// canonical repository is staged like an import (workspace.Core.Stage: a mirror clone of the
// bundle, no remote, never pruned) and installed; a workspace is cloned as Open clones one,
// gets its refs from the snapshot and its uncommitted work back as uncommitted changes.
package backups

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"portalwright/internal/gitcli"
	"portalwright/internal/workspace"
)

// Backups are the git side of backups and restores (the rules above).
type Backups struct {
	repos  *workspace.Repos
	core   workspace.Core
	refs   workspace.Refs
	clones workspace.Clones
}

// New is the git side of backing the repositories up.
func New(repos *workspace.Repos) *Backups {
	return &Backups{repos: repos, core: repos.Core(), refs: repos.Core().Refs(), clones: repos.Clones()}
}

// ReferencedRefs is where a restored repository keeps commits the database referred to (a
// loadable's) that no branch reached any more when the backup was made.
const ReferencedRefs = "refs/portalwright/referenced/"

// worktreeRef names the commit of a workspace's uncommitted work inside its bundle.
const worktreeRef = "refs/portalwright/backup/worktree"

// bundleTimeout bounds one bundle of a large repository.
const bundleTimeout = 6 * time.Hour

// ErrNoRepository is returned for a portal whose canonical repository does not exist.
var ErrNoRepository = errors.New("the portal has no repository")

// RepoSnapshot is what a backup took of a canonical repository.
type RepoSnapshot struct {
	Head string            `json:"head"` // HEAD's target, e.g. refs/heads/master
	Refs map[string]string `json:"-"`    // every ref and its object (ReferencedRefs included)
	// Kept are the commits asked for that only a ReferencedRefs ref holds; Missing those the
	// repository did not have at all.
	Kept    []string `json:"kept,omitempty"`
	Missing []string `json:"-"`
}

// Tips are the distinct objects of the snapshot's refs.
func (s *RepoSnapshot) Tips() []string {
	seen := map[string]bool{}
	var out []string
	for _, sha := range s.Refs {
		if !seen[sha] {
			seen[sha] = true
			out = append(out, sha)
		}
	}
	sort.Strings(out)
	return out
}

// BundleCanonical writes a bundle of the portal's canonical repository to out: every ref as
// listed now, plus a ReferencedRefs ref for each commit of keep that none of them reaches.
// scratch is a folder of the caller's, outside the data directory.
func (bk *Backups) BundleCanonical(ctx context.Context, portalID int64, scratch, out string, keep []string) (*RepoSnapshot, error) {
	live := bk.core.Bare(portalID)
	if !exists(filepath.Join(live, "HEAD")) {
		return nil, ErrNoRepository
	}
	refs, err := bk.listRefs(ctx, live)
	if err != nil {
		return nil, err
	}
	snap := &RepoSnapshot{Head: "refs/heads/" + workspace.DefaultBranch, Refs: refs}
	if head, err := os.ReadFile(filepath.Join(live, "HEAD")); err == nil {
		if target, ok := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: "); ok && workspace.ValidRefName(target) {
			snap.Head = target
		}
	}
	shadow, err := bk.shadow(scratch, "repo-"+strconv.FormatInt(portalID, 10), snap.Head, refs, filepath.Join(live, "objects"))
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(shadow)
	if err := bk.keepCommits(ctx, shadow, snap, keep); err != nil {
		return nil, err
	}
	if _, err := bk.core.Run(ctx, shadow, gitcli.Command("fsck", "--connectivity-only", "--no-dangling", "--no-progress").Timeout(bundleTimeout)); err != nil {
		return nil, fmt.Errorf("git fsck of %s failed: %w", live, err)
	}
	if len(snap.Refs) == 0 {
		return snap, nil // an empty repository: nothing to bundle
	}
	if _, err := bk.core.Run(ctx, shadow, bundleCmd().Value(out).Flags("--all").Timeout(bundleTimeout)); err != nil {
		return nil, fmt.Errorf("bundle of %s: %w", live, err)
	}
	return snap, nil
}

// bundleCmd is `git bundle create` as a backup runs it: the objects as they are stored, deltas
// kept where the repository has them, no new delta search (pack.window=0). A repository's fresh
// loose objects (until its background maintenance packs them) go in whole: a 10,000-file
// commit's bundle took four times as long with the search, for the same size.
func bundleCmd() *gitcli.Cmd {
	return gitcli.Command("bundle", "create", "-q").Config("pack.window", "0")
}

// keepCommits gives each commit of keep that no ref of the shadow reaches a ReferencedRefs ref.
func (bk *Backups) keepCommits(ctx context.Context, shadow string, snap *RepoSnapshot, keep []string) error {
	var present []string
	seen := map[string]bool{}
	for _, sha := range keep {
		if !workspace.IsObjectID(sha) || seen[sha] {
			continue
		}
		seen[sha] = true
		present = append(present, sha)
	}
	if len(present) == 0 {
		return nil
	}
	// Which exist as commits at all.
	out, err := bk.core.Run(ctx, shadow, gitcli.Command("cat-file", "--batch-check=%(objectname) %(objecttype)").Stdin(strings.NewReader(strings.Join(present, "\n")+"\n")))
	if err != nil {
		return err
	}
	present = present[:0]
	for _, l := range strings.FieldsFunc(out, isNewline) {
		f := strings.Fields(l)
		switch {
		case len(f) == 2 && f[1] == "commit":
			present = append(present, f[0])
		case len(f) == 2 && f[1] == "missing":
			snap.Missing = append(snap.Missing, f[0])
		}
	}
	if len(present) == 0 {
		return nil
	}
	// The commits of keep that no ref reaches.
	out, err = bk.core.Run(ctx, shadow, gitcli.Command("rev-list").Value(present...).Flags("--not", "--all").Timeout(bundleTimeout))
	if err != nil {
		return err
	}
	unreached := map[string]bool{}
	for _, l := range strings.FieldsFunc(out, isNewline) {
		unreached[l] = true
	}
	add := map[string]string{}
	for _, sha := range present {
		if unreached[sha] {
			add[ReferencedRefs+sha] = sha
			snap.Kept = append(snap.Kept, sha)
		}
	}
	if len(add) == 0 {
		return nil
	}
	for k, v := range add {
		snap.Refs[k] = v
	}
	return bk.setRefs(ctx, shadow, add)
}

// shadow makes a bare repository in scratch whose objects are read from the given object
// folders (alternates), whose HEAD names head and whose refs are refs. It is written directly
// (git's layout of a bare repository: HEAD, config, objects/, refs/, packed-refs): no git
// process, and git checks every ref's object when it reads them (fsck, bundle).
func (bk *Backups) shadow(scratch, name, head string, refs map[string]string, objects ...string) (string, error) {
	dir := filepath.Join(scratch, name+".git")
	_ = os.RemoveAll(dir)
	var alt strings.Builder
	for _, o := range objects {
		abs, err := filepath.Abs(o)
		if err != nil {
			return "", err
		}
		alt.WriteString(abs + "\n")
	}
	for _, d := range []string{"objects/info", "objects/pack", "refs/heads", "refs/tags"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			return "", err
		}
	}
	packed, err := packedRefs(refs)
	if err != nil {
		return "", err
	}
	for f, content := range map[string]string{
		"HEAD":                    "ref: " + head + "\n",
		"config":                  "[core]\n\trepositoryformatversion = 0\n\tbare = true\n",
		"objects/info/alternates": alt.String(),
		"packed-refs":             packed,
	} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(content), 0o600); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// listRefs lists every ref of a repository with git (one consistent read of loose and packed
// refs).
func (bk *Backups) listRefs(ctx context.Context, gitDir string) (map[string]string, error) {
	out, err := bk.core.Run(ctx, gitDir, gitcli.Command("for-each-ref", "--format=%(objectname) %(refname)"))
	if err != nil {
		return nil, err
	}
	refs := map[string]string{}
	for _, l := range strings.FieldsFunc(out, isNewline) {
		if sha, name, ok := strings.Cut(l, " "); ok {
			refs[name] = sha
		}
	}
	return refs, nil
}

// packedRefs is a packed-refs file of refs (sorted, as git writes it; not peeled).
func packedRefs(refs map[string]string) (string, error) {
	var b strings.Builder
	b.WriteString("# pack-refs with: sorted \n")
	for _, n := range slices.Sorted(maps.Keys(refs)) {
		if !workspace.ValidRefName(n) || !workspace.IsObjectID(refs[n]) {
			return "", fmt.Errorf("not a ref: %q %q", n, refs[n])
		}
		b.WriteString(refs[n] + " " + n + "\n")
	}
	return b.String(), nil
}

// setRefs creates or moves refs in one transaction.
func (bk *Backups) setRefs(ctx context.Context, gitDir string, refs map[string]string) error {
	if len(refs) == 0 {
		return nil
	}
	var tx strings.Builder
	for _, n := range slices.Sorted(maps.Keys(refs)) {
		if !workspace.ValidRefName(n) || !workspace.IsObjectID(refs[n]) {
			return fmt.Errorf("not a ref: %q %q", n, refs[n])
		}
		tx.WriteString("update " + n + " " + refs[n] + "\n")
	}
	_, err := bk.core.Run(ctx, gitDir, gitcli.Command("update-ref", "--stdin").Stdin(strings.NewReader(tx.String())).Timeout(10*time.Minute))
	return err
}

// RestoreCanonical makes the bundle the portal's canonical repository (the data directory
// has none): staged like an import, HEAD and every ref as the snapshot says, then installed.
// bundle "" restores an empty repository's snapshot (no refs).
func (bk *Backups) RestoreCanonical(ctx context.Context, portalID int64, bundle string, snap *RepoSnapshot) error {
	if exists(bk.core.Bare(portalID)) {
		return fmt.Errorf("repository of portal %d exists already", portalID)
	}
	st, err := bk.core.Stage(ctx, func(tmp, bare string) error {
		if bundle == "" {
			_, err := bk.core.Run(ctx, tmp, gitcli.Command("init", "-q", "--bare").Value(bare))
			return err
		}
		_, err := bk.core.Run(ctx, tmp, gitcli.Command("clone", "-q", "--mirror").Value(bundle, bare).Timeout(bundleTimeout))
		return err
	})
	if err != nil {
		return err
	}
	defer st.Discard()
	if _, err := bk.core.Run(ctx, st.Dir(), gitcli.Command("symbolic-ref", "HEAD").Value(snap.Head)); err != nil {
		return err
	}
	got, err := bk.listRefs(ctx, st.Dir())
	if err != nil {
		return err
	}
	if diff := refsDiff(snap.Refs, got); diff != "" {
		return fmt.Errorf("the bundle of portal %d does not hold the refs of its snapshot: %s", portalID, diff)
	}
	return st.Install(portalID)
}

// refsDiff names the first difference between two ref maps ("" when equal).
func refsDiff(want, got map[string]string) string {
	for n, sha := range want {
		if got[n] != sha {
			return fmt.Sprintf("%s is %q, want %s", n, got[n], sha)
		}
	}
	for n := range got {
		if _, ok := want[n]; !ok {
			return n + " is not in the snapshot"
		}
	}
	return ""
}

// WorkspaceSnapshot is what a backup took of one author's workspace.
type WorkspaceSnapshot struct {
	Branch string `json:"branch,omitempty"` // the branch checked out ("" when detached)
	Head   string `json:"head"`             // its commit
	// Worktree is a commit on Head whose tree is the workspace's files as `git add -A` sees
	// them: the uncommitted work ("" when there is none).
	Worktree string `json:"worktree,omitempty"`
	// Refs are the workspace's kept refs (discarded work, workspace.KeptRefs).
	Refs map[string]string `json:"refs,omitempty"`
	// Bundled: the bundle holds the objects the canonical snapshot does not (local commits,
	// the uncommitted work, discarded work); false when there are none.
	Bundled bool `json:"bundled"`
}

// ExportWorkspace takes a snapshot of the user's workspace without changing it and, when it has
// objects the canonical snapshot (tips: its refs' objects) lacks, writes them to the bundle out.
func (bk *Backups) ExportWorkspace(ctx context.Context, userID, portalID int64, scratch, out string, tips []string) (*WorkspaceSnapshot, error) {
	dir := bk.repos.WorkspaceDir(userID, portalID)
	gitDir := filepath.Join(dir, ".git")
	if !exists(filepath.Join(gitDir, "HEAD")) {
		return nil, workspace.ErrNoWorkspace
	}
	name := "ws-" + strconv.FormatInt(userID, 10) + "-" + strconv.FormatInt(portalID, 10)
	objects := filepath.Join(scratch, name+".objects")
	if err := os.MkdirAll(objects, 0o700); err != nil {
		return nil, err
	}
	defer os.RemoveAll(objects)
	snap, headTree, err := bk.workspaceHead(ctx, dir)
	if err != nil {
		return nil, err
	}
	if snap.Worktree, err = bk.snapshotWorktree(ctx, dir, scratch, name, objects, snap.Head, headTree); err != nil {
		return nil, err
	}
	kept, err := bk.refs.List(ctx, gitDir) // read from the ref files, no git process
	if err != nil {
		return nil, err
	}
	snap.Refs = map[string]string{}
	for n, sha := range kept.Refs {
		if strings.HasPrefix(n, workspace.KeptRefs) {
			snap.Refs[n] = sha
		}
	}
	// The bundle: HEAD's commit, the uncommitted work and the kept refs, less what the
	// canonical snapshot has (its tips are in this store too: the canonical store only grows).
	tipSet := make(map[string]bool, len(tips))
	for _, sha := range tips {
		tipSet[sha] = true
	}
	if snap.Worktree == "" && len(snap.Refs) == 0 && tipSet[snap.Head] {
		return snap, nil // a clean workspace level with a branch: nothing of its own
	}
	refs := map[string]string{"refs/portalwright/backup/head": snap.Head}
	for n, sha := range snap.Refs {
		refs[n] = sha
	}
	if snap.Worktree != "" {
		refs[worktreeRef] = snap.Worktree
	}
	shadow, err := bk.shadow(scratch, name, "refs/portalwright/backup/head", refs, objects, filepath.Join(gitDir, "objects"))
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(shadow)
	var revs strings.Builder
	for n := range refs {
		revs.WriteString(n + "\n")
	}
	for _, sha := range tips {
		revs.WriteString("^" + sha + "\n")
	}
	_, err = bk.core.Run(ctx, shadow, bundleCmd().Value(out).Flags("--stdin").Stdin(strings.NewReader(revs.String())).Timeout(bundleTimeout))
	var ge *gitcli.Error
	if errors.As(err, &ge) && strings.Contains(ge.Stderr, "Refusing to create empty bundle") {
		return snap, nil // everything is in the canonical snapshot
	}
	if err != nil {
		return nil, fmt.Errorf("bundle of workspace %s: %w", dir, err)
	}
	snap.Bundled = true
	return snap, nil
}

// workspaceHead reads the workspace's branch, commit and that commit's tree. A rebase or merge under way (a
// commit being published) is given a moment to finish; one left by a crash counts as what
// the workspace's next open (abortUnfinished) will make of it: the branch and commit it started from.
func (bk *Backups) workspaceHead(ctx context.Context, dir string) (*WorkspaceSnapshot, string, error) {
	gitDir := filepath.Join(dir, ".git")
	busy := func() bool {
		return exists(filepath.Join(gitDir, "rebase-merge")) || exists(filepath.Join(gitDir, "rebase-apply")) || exists(filepath.Join(gitDir, "MERGE_HEAD"))
	}
	for deadline := time.Now().Add(5 * time.Second); busy() && time.Now().Before(deadline); {
		select {
		case <-ctx.Done():
			return nil, "", ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	snap := &WorkspaceSnapshot{}
	rev := "HEAD"
	for _, d := range []string{"rebase-merge", "rebase-apply"} {
		name, err1 := os.ReadFile(filepath.Join(gitDir, d, "head-name"))
		orig, err2 := os.ReadFile(filepath.Join(gitDir, d, "orig-head"))
		if err1 == nil && err2 == nil && workspace.IsObjectID(strings.TrimSpace(string(orig))) {
			snap.Branch = strings.TrimPrefix(strings.TrimSpace(string(name)), "refs/heads/")
			rev = strings.TrimSpace(string(orig))
			break
		}
	}
	if rev == "HEAD" {
		head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
		if err != nil {
			return nil, "", err
		}
		if target, ok := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: "); ok {
			snap.Branch = strings.TrimPrefix(target, "refs/heads/")
		}
	}
	out, err := bk.core.Run(ctx, dir, gitcli.Command("rev-parse").Value(rev+"^{commit}", rev+"^{tree}"))
	if f := strings.Fields(out); err != nil || len(f) != 2 {
		return nil, "", fmt.Errorf("workspace %s: %v %s", dir, err, out)
	} else {
		snap.Head = f[0]
		return snap, f[1], nil
	}
}

// snapshotWorktree writes the workspace's files as a commit on head into objects, with a
// copy of its index; "" when they are head's tree.
func (bk *Backups) snapshotWorktree(ctx context.Context, dir, scratch, name, objects, head, headTree string) (string, error) {
	index := filepath.Join(scratch, name+".index")
	defer os.Remove(index)
	if err := copyFile(filepath.Join(dir, ".git", "index"), index); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	alternates := filepath.Join(dir, ".git", "objects")
	env := func(c *gitcli.Cmd) *gitcli.Cmd {
		return c.Env("GIT_INDEX_FILE", index).Env("GIT_OBJECT_DIRECTORY", objects).Env("GIT_ALTERNATE_OBJECT_DIRECTORIES", alternates)
	}
	if _, err := bk.core.Run(ctx, dir, env(gitcli.Command("add", "-A")).Timeout(bundleTimeout)); err != nil {
		return "", fmt.Errorf("workspace %s: %w", dir, err)
	}
	tree, err := bk.core.Run(ctx, dir, env(gitcli.Command("write-tree")))
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(tree) == headTree {
		return "", nil
	}
	tree = strings.TrimSpace(tree)
	c := workspace.SystemAuthor.Env(env(gitcli.Command("commit-tree").Value(tree).Flags("-p").Value(head)))
	commit, err := bk.core.Run(ctx, dir, c.Stdin(strings.NewReader("Uncommitted changes (backup)")))
	return strings.TrimSpace(commit), err
}

// copyFile copies a file (a snapshot of git's index, which git replaces by renaming).
func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, bufio.NewReader(src)); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// RestoreWorkspace makes the user's workspace of the portal again from its snapshot (the
// canonical repository is restored, the workspace does not exist): cloned as Open clones,
// its branch and kept refs set, its uncommitted work back as uncommitted changes.
func (bk *Backups) RestoreWorkspace(ctx context.Context, userID, portalID int64, bundle string, snap *WorkspaceSnapshot) error {
	dir := bk.repos.WorkspaceDir(userID, portalID)
	if exists(dir) {
		return fmt.Errorf("workspace %s exists already", dir)
	}
	if !workspace.IsObjectID(snap.Head) || (snap.Worktree != "" && !workspace.IsObjectID(snap.Worktree)) {
		return fmt.Errorf("workspace %d/%d: not a commit: %q %q", userID, portalID, snap.Head, snap.Worktree)
	}
	clone := snap.Branch
	if clone == "" || bk.refs.Read(bk.core.Bare(portalID), "refs/heads/"+clone) == "" {
		head, _ := os.ReadFile(filepath.Join(bk.core.Bare(portalID), "HEAD"))
		clone = strings.TrimPrefix(strings.TrimSpace(string(head)), "ref: refs/heads/")
	}
	if err := bk.clones.Clone(ctx, portalID, dir, clone); err != nil {
		return fmt.Errorf("workspace %d/%d: %w", userID, portalID, err)
	}
	if bundle != "" {
		if _, err := bk.core.Run(ctx, dir, gitcli.Command("bundle", "unbundle").Value(bundle).Timeout(bundleTimeout)); err != nil {
			return fmt.Errorf("workspace %d/%d: %w", userID, portalID, err)
		}
	}
	if err := bk.setRefs(ctx, filepath.Join(dir, ".git"), snap.Refs); err != nil {
		return fmt.Errorf("workspace %d/%d: %w", userID, portalID, err)
	}
	steps := []*gitcli.Cmd{gitcli.Command("checkout", "-q", "-f", "--detach").Value(snap.Head)}
	if snap.Branch != "" {
		steps = []*gitcli.Cmd{gitcli.Command("checkout", "-q", "-f", "-B").Value(snap.Branch, snap.Head)}
	}
	if clone != snap.Branch {
		steps = append(steps, gitcli.Command("branch", "-q", "-D").Value(clone))
	}
	for _, c := range steps {
		if _, err := bk.core.Run(ctx, dir, c.Timeout(bundleTimeout)); err != nil {
			return fmt.Errorf("workspace %d/%d: %w", userID, portalID, err)
		}
	}
	if snap.Worktree != "" {
		// The files of the uncommitted work, over an index that stays HEAD's: the changes show
		// as uncommitted, as they were.
		if err := bk.clones.CheckoutAsChanges(ctx, dir, "", snap.Worktree); err != nil {
			return fmt.Errorf("workspace %d/%d: %w", userID, portalID, err)
		}
	}
	branches := []string{snap.Branch}
	if snap.Branch == "" {
		branches = []string{clone}
	}
	return bk.clones.SyncOrigin(ctx, portalID, dir, branches...)
}

// exists tells whether a file or folder is there.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// isNewline splits git's output into its lines (strings.FieldsFunc drops the empty ones).
func isNewline(r rune) bool { return r == '\n' }
