package workspace

// What the role packages under internal/workspace (hostsync, …) use of the core beyond Core's
// own operations: a repository's refs (Refs, Core.Refs) and the users' workspaces as git
// repositories (Clones, Repos.Clones). The package's rules stay here: refs are read from the
// ref files without git where they can be, packed-refs is written under git's own lock, and
// counts between two commits are made once per pair.

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"portalwright/internal/gitcli"
)

// Refs reads and writes the refs of the core's repositories (a canonical repository, or a
// workspace's .git).
type Refs struct{ r *Repos }

// Refs is the refs of the core's repositories.
func (c Core) Refs() Refs { return Refs{c.r} }

// RefList is every ref of a repository as one read found them.
type RefList struct {
	Refs  map[string]string // full name → commit; shared with other readers: do not change
	Names []string          // sorted (bytewise, as git sorts them)
	Loose int               // how many were read from loose ref files (0 for a list git gave)
	table *refTable         // nil when git listed them
}

// Unchanged tells whether no ref file changed since the list was read from the files (false
// for a list git gave).
func (l *RefList) Unchanged() bool { return l.table != nil && l.table.unchanged() }

// List is every ref of a repository: read from the ref files (refs.go), or with one `git
// for-each-ref` for another ref backend.
func (rf Refs) List(ctx context.Context, gitDir string) (*RefList, error) {
	if l := rf.Files(gitDir); l != nil {
		return l, nil
	}
	refs, names, err := rf.r.refMap(ctx, gitDir)
	if err != nil {
		return nil, err
	}
	return &RefList{Refs: refs, Names: names}, nil
}

// Files is every ref of a repository read from the ref files only, without git; nil when they
// cannot be read so (another ref backend, no repository).
func (rf Refs) Files(gitDir string) *RefList {
	t, err := refTables.current(gitDir)
	if err != nil {
		return nil
	}
	return &RefList{Refs: t.refs, Names: t.names, Loose: t.loose, table: t}
}

// Read is one ref's commit, "" when it does not exist (read from the ref files, no git).
func (rf Refs) Read(gitDir, ref string) string { return readRef(gitDir, ref) }

// WritePacked adds the refs add (full name → commit) to the repository's packed-refs and
// removes the refs remove (full name → the commit it must still point at) that exist only
// there, in one write under git's lock; what it may not do this way (names that exist or
// clash, loose refs, the lock held by git, another ref backend) is left out of added and
// removed for the caller to do with git. known is the sorted names of the repository's refs
// as the caller read them under the portal lock (nil: read them here).
func (rf Refs) WritePacked(gitDir string, add, remove map[string]string, known []string) (added, removed []string, err error) {
	added, removed, err = writePackedRefs(gitDir, add, remove, known)
	if errors.Is(err, errPackedBusy) || errors.Is(err, errRefBackend) {
		return nil, nil, nil
	}
	return added, removed, err
}

// Count is how many commits head has that tip lacks (ahead) and the other way round (behind),
// counted in dir once per pair.
func (rf Refs) Count(ctx context.Context, dir, head, tip string) (ahead, behind int, err error) {
	return rf.r.countMemo(ctx, dir, head, tip)
}

// Memo answers count() for the key (a, b), computed once per key and kept with Count's pairs.
func (rf Refs) Memo(a, b string, count func() (int, int, error)) (int, int, error) {
	return rf.r.statuses.memoised([2]string{a, b}, count)
}

// PackSoon has the background maintenance pack a repository's loose refs and objects when it
// is due (the packer, when one is set).
func (rf Refs) PackSoon(gitDir string) { rf.r.maintainSoon(gitDir) }

// SetPacker sets what PackSoon (and every open of a workspace, for it and its canonical
// repository) calls: the background maintenance (workspace/upkeep); nil: nothing. Set it
// before the repositories are used.
func (rf Refs) SetPacker(pack func(gitDir string)) { rf.r.maint = pack }

// IsObjectID tells whether s is a full object id (SHA-1 or SHA-256, lower case).
func IsObjectID(s string) bool { return shaPattern.MatchString(s) }

// Env sets the command's author to a and its committer to SystemAuthor.
func (a Author) Env(c *gitcli.Cmd) *gitcli.Cmd {
	return c.Env("GIT_AUTHOR_NAME", a.Name).Env("GIT_AUTHOR_EMAIL", a.Email).
		Env("GIT_COMMITTER_NAME", SystemAuthor.Name).Env("GIT_COMMITTER_EMAIL", SystemAuthor.Email)
}

// RunRemote runs a command that talks to a git host at url: the remote host policy
// (remote_policy.go), credentials in that one process's environment (never in a git
// configuration), an SSH key as a temporary 0600 file named in GIT_SSH_COMMAND and removed when
// the command ends. knownHosts (may be nil) is the host keys ssh may trust; it is updated with
// what ssh learnt (StrictHostKeyChecking=accept-new). The error is git's (ClassifyRemote says
// why).
func (c Core) RunRemote(ctx context.Context, dir string, cmd *gitcli.Cmd, url string, creds *Credentials, knownHosts *string) (string, error) {
	creds, err := c.r.guardRemote(ctx, url, creds)
	if err != nil {
		return "", err
	}
	if creds != nil && len(creds.SSHKey) > 0 {
		tmp, err := os.MkdirTemp(c.r.root, ".stage-ssh-") // swept at start if a crash leaves it
		if err != nil {
			return "", err
		}
		defer os.RemoveAll(tmp)
		key, hosts := filepath.Join(tmp, "key"), filepath.Join(tmp, "known_hosts")
		if err := os.WriteFile(key, creds.SSHKey, 0o600); err != nil {
			return "", err
		}
		if knownHosts != nil {
			if err := os.WriteFile(hosts, []byte(*knownHosts), 0o600); err != nil {
				return "", err
			}
		}
		cmd = cmd.Env("GIT_SSH_COMMAND", "ssh -i "+shellQuote(key)+" -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=accept-new -o UserKnownHostsFile="+shellQuote(hosts))
		defer func() {
			if knownHosts != nil {
				if data, err := os.ReadFile(hosts); err == nil {
					*knownHosts = string(data)
				}
			}
		}()
		// The key is never also given as a password.
		cp := *creds
		cp.SSHKey = nil
		creds = &cp
	}
	return c.r.run(ctx, dir, remoteCmd(cmd, creds))
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// DataDir is the data directory: the canonical repositories under repos/ (Core.Bare), the
// workspaces under workspaces/ (WorkspaceDir), and the temporary folders of the roles (a name
// starting ".merge-" or ".stage-" is swept at start when a crash left it).
func (r *Repos) DataDir() string { return r.root }

// DropOrigin removes remote.origin from the portal's canonical repository when an older
// version left it there (noremote.go). The caller holds the portal lock.
func (c Core) DropOrigin(ctx context.Context, portalID int64) error {
	return c.r.dropOrigin(ctx, c.r.bare(portalID))
}

// Clones is the users' workspaces as git repositories, for the role packages.
type Clones struct{ r *Repos }

// Clones is the users' workspaces as git repositories.
func (r *Repos) Clones() Clones { return Clones{r} }

// WithWorkOn lists the users whose workspace is on branch with uncommitted changes or commits
// the branch does not have. The caller holds the portal lock.
func (cl Clones) WithWorkOn(ctx context.Context, portalID int64, branch string) []int64 {
	return cl.r.usersWithWorkOn(ctx, portalID, branch)
}

// Clone makes the workspace dir a clone of the portal's canonical repository on branch, as
// Open makes one (shared objects, only the branch's refs, no reflogs).
func (cl Clones) Clone(ctx context.Context, portalID int64, dir, branch string) error {
	return cl.r.cloneWorkspace(ctx, portalID, dir, branch)
}

// SyncOrigin points the workspace's remote-tracking refs at the canonical tips of the
// branches given (those that exist) and drops every other one.
func (cl Clones) SyncOrigin(ctx context.Context, portalID int64, dir string, branches ...string) error {
	return cl.r.syncOriginRefs(ctx, portalID, dir, branches...)
}

// CheckoutAsChanges moves the workspace's branch to commit ("" leaves it) and makes tree its
// working tree, as uncommitted changes against it.
func (cl Clones) CheckoutAsChanges(ctx context.Context, dir, commit, tree string) error {
	return cl.r.checkoutAsChanges(ctx, dir, commit, tree)
}

// Stage builds a canonical repository not yet given to a portal: build makes the bare
// repository bare inside the staging folder tmp; it is then made canonical (no remote, never
// pruned) as an import is. Install or Discard it.
func (c Core) Stage(ctx context.Context, build func(tmp, bare string) error) (*Staged, error) {
	return c.r.stage(ctx, build)
}

// Dir is the staged bare repository.
func (s *Staged) Dir() string { return s.bare }

// Lock takes the user's workspace lock (removing the git lock files a crash left, core.go);
// the caller calls unlock.
func (cl Clones) Lock(ctx context.Context, userID, portalID int64) (unlock func(), err error) {
	return cl.r.wsLock(ctx, userID, portalID)
}

// Change runs change on the user's workspace (an os.Root at it) under the workspace lock, then
// takes the workspace's new status under the same lock (nil when git could not take it; the
// change stands). guard refuses a change to a link, a submodule or an LFS pointer
// (special.go): change calls it for each path it touches before writing.
func (cl Clones) Change(ctx context.Context, userID, portalID int64, change func(root *os.Root, guard Guard) error) (*Status, error) {
	r := cl.r
	dir, unlock, err := r.openWorkspace(ctx, userID, portalID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	guard := func(p Path, folder bool) error { return r.guard(ctx, dir, root, p, folder) }
	if err := change(root, guard); err != nil {
		return nil, err
	}
	st, err := r.status(ctx, portalID, dir)
	if err != nil {
		return nil, nil
	}
	return st, nil
}

// Read runs read on the user's workspace (an os.Root at it) under the workspace lock.
func (cl Clones) Read(ctx context.Context, userID, portalID int64, read func(root *os.Root) error) error {
	dir, unlock, err := cl.r.openWorkspace(ctx, userID, portalID)
	if err != nil {
		return err
	}
	defer unlock()
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	return read(root)
}

// Root opens the user's workspace as an os.Root, without the lock (ErrNoWorkspace when it was
// never opened); the caller closes it.
func (cl Clones) Root(userID, portalID int64) (*os.Root, error) {
	return cl.r.openRoot(userID, portalID)
}

// Dir is the user's workspace folder (ErrNoWorkspace when it was never opened).
func (cl Clones) Dir(userID, portalID int64) (string, error) { return cl.r.workspace(userID, portalID) }

// Describer marks listed entries of the user's workspace that are links, submodules or LFS
// pointers (FileInfo.Kind), from its index as it is now (special.go).
func (cl Clones) Describer(ctx context.Context, userID, portalID int64) func(info *FileInfo, root *os.Root) {
	specials := cl.r.specials(ctx, cl.r.WorkspaceDir(userID, portalID))
	return func(info *FileInfo, root *os.Root) { describe(info, specials, root) }
}
