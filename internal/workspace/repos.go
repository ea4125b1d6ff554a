// Package workspace keeps each portal's content in git: one canonical bare repository per
// portal and one working clone per user and portal (design §5). Authors edit their clone;
// a commit is rebased on the canonical branch and pushed under the portal's write lock, so
// concurrent commits are serialised and never lost: the second is rebased, or reports a
// conflict and keeps the author's work for a reset or a retry.
package workspace

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"portalwright/internal/gitcli"
)

// DefaultBranch is the branch a new portal starts with.
const DefaultBranch = "master"

// SystemAuthor signs commits made by the product itself (creating portals).
var SystemAuthor = Author{Name: "Portalwright", Email: "portalwright@localhost"}

// Author is who a commit is attributed to.
type Author struct{ Name, Email string }

// Repos lays out and operates the repositories under a data directory:
//
//	<data>/repos/<portalID>.git               canonical bare repository
//	<data>/workspaces/<userID>/<portalID>/    a user's working clone
type Repos struct {
	git   *gitcli.Git
	locks gitcli.Locker
	root  string

	allowPrivateHosts bool // the remote host policy is off (remote_policy.go)

	statuses statusCache // workspace status records (statuscache.go)

	schemaCheck SchemaCheck // the content check's JSON Schema validation (nil: parse only)

	maint func(gitDir string) // the background packing of refs and objects (Refs.SetPacker: workspace/upkeep); nil: off

	watchOnce sync.Once
	watcher   *treeWatcher // large workspaces' change watch (watch_linux.go); made on first use
}

// trees is the watch of large workspaces, made when the first one needs it (so a Repos that
// never sees one holds no inotify instance).
func (r *Repos) trees() *treeWatcher {
	r.watchOnce.Do(func() { r.watcher = newTreeWatcher() })
	return r.watcher
}

// SchemaCheck validates a JSON document against its companion schema's text and says what
// is wrong (nothing when it keeps it). The asset package provides it; the workspace only
// calls it, so it needs no schema library.
type SchemaCheck func(doc, schema []byte) []string

// WithSchemaCheck makes the commit-time content check validate each changed JSON file that has
// a companion schema (<path>.schema) against it, reporting the failures as warnings.
func (r *Repos) WithSchemaCheck(check SchemaCheck) *Repos { r.schemaCheck = check; return r }

// NewRepos uses git and locks for the repositories under dataDir. The path is made
// absolute: git runs in many working directories and must find the same repositories.
func NewRepos(g *gitcli.Git, locks gitcli.Locker, dataDir string) *Repos {
	if abs, err := filepath.Abs(dataDir); err == nil {
		dataDir = abs
	}
	return &Repos{git: g, locks: locks, root: dataDir}
}

// Git exposes the runner (for tests and tools).
func (r *Repos) Git() *gitcli.Git { return r.git }

func authorEnv(c *gitcli.Cmd, a Author) *gitcli.Cmd { return a.Env(c) }

// Staged is a finished canonical repository not yet given to a portal. Building one can take
// long (an import), so it happens outside any database transaction; Install only renames.
type Staged struct {
	r    *Repos
	tmp  string // holds bare.git
	bare string
}

// Install makes the staged repository the canonical repository of the portal.
func (s *Staged) Install(portalID int64) error {
	final := s.r.bare(portalID)
	if exists(final) {
		return fmt.Errorf("repository of portal %d exists already", portalID)
	}
	if err := os.MkdirAll(filepath.Dir(final), 0o750); err != nil {
		return err
	}
	return os.Rename(s.bare, final)
}

// Discard removes what is left of the staging area (always call it, after Install too).
func (s *Staged) Discard() { _ = os.RemoveAll(s.tmp) }

func (r *Repos) stage(ctx context.Context, build func(tmp, bare string) error) (*Staged, error) {
	if err := os.MkdirAll(r.root, 0o750); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(r.root, ".stage-")
	if err != nil {
		return nil, err
	}
	st := &Staged{r: r, tmp: tmp, bare: filepath.Join(tmp, "bare.git")}
	if err := build(tmp, st.bare); err != nil {
		st.Discard()
		return nil, err
	}
	if err := r.dropOrigin(ctx, st.bare); err != nil { // the host's URL is the portal's record (noremote.go)
		st.Discard()
		return nil, err
	}
	// Workspaces borrow the repository's objects (clone --shared), so it must never prune.
	for _, kv := range [][2]string{{"gc.auto", "0"}, {"gc.pruneExpire", "never"}, {"core.logAllRefUpdates", "true"}} {
		if _, err := r.run(ctx, st.bare, gitcli.Command("config").Value(kv[0], kv[1])); err != nil {
			st.Discard()
			return nil, err
		}
	}
	return st, nil
}

// StageFiles builds a repository from a tree of files (a starter template) with one commit
// on the default branch.
func (c Core) StageFiles(ctx context.Context, files fs.FS, message string, author Author) (*Staged, error) {
	return c.r.stage(ctx, func(tmp, bare string) error {
		work := filepath.Join(tmp, "work")
		if err := os.CopyFS(work, files); err != nil {
			return fmt.Errorf("copy template: %w", err)
		}
		for _, cmd := range []*gitcli.Cmd{
			gitcli.Command("init", "-q").Option("--initial-branch", DefaultBranch),
			gitcli.Command("add", "-A"),
			authorEnv(gitcli.Command("commit", "-q", "--no-verify").Option("--message", message), author),
		} {
			if _, err := c.r.run(ctx, work, cmd); err != nil {
				return err
			}
		}
		_, err := c.r.run(ctx, tmp, gitcli.Command("clone", "-q", "--bare").Value(work, bare))
		return err
	})
}

// StageURL imports a repository from a git URL a user gave, with optional credentials. Only
// network protocols are allowed.
func (c Core) StageURL(ctx context.Context, url string, creds *Credentials) (*Staged, error) {
	creds, err := c.r.guardRemote(ctx, url, creds) // refuse internal hosts (remote_policy.go)
	if err != nil {
		return nil, err
	}
	return c.r.stage(ctx, func(tmp, bare string) error {
		_, err := c.r.run(ctx, tmp, remoteCmd(gitcli.Command("clone", "-q", "--bare").Value(url, bare), creds).Timeout(10*time.Minute))
		return ClassifyRemote(err)
	})
}

// StagePortal copies another portal's canonical repository, every branch and all history.
func (c Core) StagePortal(ctx context.Context, sourcePortalID int64) (*Staged, error) {
	if !exists(c.r.bare(sourcePortalID)) {
		return nil, ErrInvalidWorkspace
	}
	return c.r.stage(ctx, func(tmp, bare string) error {
		_, err := c.r.run(ctx, tmp, gitcli.Command("clone", "-q", "--bare", "--no-hardlinks").Value(c.r.bare(sourcePortalID), bare).Timeout(10*time.Minute))
		return err
	})
}

// CreateFromFiles, ImportURL and CopyPortal stage and install in one step (tools and tests).
func (c Core) CreateFromFiles(ctx context.Context, portalID int64, files fs.FS, message string, author Author) error {
	return c.r.installNew(portalID, func() (*Staged, error) { return c.StageFiles(ctx, files, message, author) })
}

func (c Core) ImportURL(ctx context.Context, portalID int64, url string, creds *Credentials) error {
	return c.r.installNew(portalID, func() (*Staged, error) { return c.StageURL(ctx, url, creds) })
}

func (c Core) CopyPortal(ctx context.Context, portalID, sourcePortalID int64) error {
	return c.r.installNew(portalID, func() (*Staged, error) { return c.StagePortal(ctx, sourcePortalID) })
}

func (r *Repos) installNew(portalID int64, stage func() (*Staged, error)) error {
	if exists(r.bare(portalID)) {
		return fmt.Errorf("repository of portal %d exists already", portalID)
	}
	st, err := stage()
	if err != nil {
		return err
	}
	defer st.Discard()
	return st.Install(portalID)
}

// Delete removes the canonical repository and every workspace of the portal.
func (c Core) Delete(ctx context.Context, portalID int64) error {
	unlock, err := c.r.lock(ctx, portalID)
	if err != nil {
		return err
	}
	defer unlock()
	var errs []error
	errs = append(errs, os.RemoveAll(c.r.bare(portalID)))
	users, _ := os.ReadDir(filepath.Join(c.r.root, "workspaces"))
	for _, u := range users {
		errs = append(errs, os.RemoveAll(filepath.Join(c.r.root, "workspaces", u.Name(), strconv.FormatInt(portalID, 10))))
	}
	return errors.Join(errs...)
}

// Credentials authenticate against an upstream repository: a user name and password (or
// token) over HTTP(S), or an SSH private key (OpenSSH PEM) over ssh (Core.RunRemote).
type Credentials struct {
	Username, Password string
	SSHKey             []byte

	access *remoteAccess // how to reach the host, set by the remote host policy (guardRemote)
}

// remoteCmd prepares a command that talks to a user-given remote: only network protocols
// (never file:// or ext::), no prompts, and credentials passed in the environment rather
// than in the URL or arguments, where other processes could read them.
func remoteCmd(c *gitcli.Cmd, creds *Credentials) *gitcli.Cmd {
	c = c.Env("GIT_ALLOW_PROTOCOL", "https:http:ssh:git")
	if creds != nil {
		c = creds.access.apply(c)
	}
	if creds != nil && (creds.Username != "" || creds.Password != "") {
		c = c.Env("GIT_CONFIG_PARAMETERS", "'http.extraHeader=Authorization: Basic "+basicAuth(creds.Username, creds.Password)+"'")
	}
	return c
}

// Branches lists the branches of the canonical repository.
func (c Core) Branches(ctx context.Context, portalID int64) ([]string, error) {
	return c.r.refs(ctx, c.r.bare(portalID), "refs/heads/")
}

// Tags lists the tags of the canonical repository.
func (c Core) Tags(ctx context.Context, portalID int64) ([]string, error) {
	return c.r.refs(ctx, c.r.bare(portalID), "refs/tags/")
}

// refs reads the ref files, no git process (refs.go).
func (r *Repos) refs(ctx context.Context, dir, prefix string) ([]string, error) {
	return r.refNames(ctx, dir, prefix)
}

// RemoteBranches lists the branches of a remote repository (before importing it).
func (c Core) RemoteBranches(ctx context.Context, url string, creds *Credentials) ([]string, error) {
	creds, err := c.r.guardRemote(ctx, url, creds) // refuse internal hosts (remote_policy.go)
	if err != nil {
		return nil, err
	}
	out, err := c.r.run(ctx, "", remoteCmd(gitcli.Command("ls-remote", "--heads").Value(url), creds).Timeout(time.Minute))
	if err != nil {
		return nil, ClassifyRemote(err)
	}
	var names []string
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		if _, ref, ok := strings.Cut(sc.Text(), "\t"); ok {
			names = append(names, strings.TrimPrefix(ref, "refs/heads/"))
		}
	}
	return names, nil
}

func (r *Repos) hasBranch(ctx context.Context, portalID int64, branch string) (bool, error) {
	_, err := r.run(ctx, r.bare(portalID), gitcli.Command("rev-parse", "--verify", "-q").Value("refs/heads/"+branch))
	var ge *gitcli.Error
	if errors.As(err, &ge) && ge.ExitCode == 1 {
		return false, nil
	}
	return err == nil, err
}

// CreateBranch makes a branch in the canonical repository from another branch.
func (c Core) CreateBranch(ctx context.Context, portalID int64, name, from string) error {
	unlock, err := c.r.lock(ctx, portalID)
	if err != nil {
		return err
	}
	defer unlock()
	if ok, err := c.r.hasBranch(ctx, portalID, name); err != nil {
		return err
	} else if ok {
		return ErrBranchExists
	}
	if ok, err := c.r.hasBranch(ctx, portalID, from); err != nil {
		return err
	} else if !ok {
		return ErrBranchMissing
	}
	_, err = c.r.run(ctx, c.r.bare(portalID), gitcli.Command("branch").Value(name, "refs/heads/"+from))
	return err
}

// DeleteBranch removes a branch from the canonical repository.
func (c Core) DeleteBranch(ctx context.Context, portalID int64, name string) error {
	unlock, err := c.r.lock(ctx, portalID)
	if err != nil {
		return err
	}
	defer unlock()
	if ok, err := c.r.hasBranch(ctx, portalID, name); err != nil {
		return err
	} else if !ok {
		return ErrBranchMissing
	}
	if users := c.r.usersWithWorkOn(ctx, portalID, name); len(users) > 0 {
		return &BranchInUse{Users: users}
	}
	_, err = c.r.run(ctx, c.r.bare(portalID), gitcli.Command("branch", "-D").Value(name))
	return err
}

// MergeBranch merges source into target in the canonical repository, in a scratch clone so
// no author's workspace is touched. A conflicting merge changes nothing.
func (c Core) MergeBranch(ctx context.Context, portalID int64, source, target string, author Author) error {
	unlock, err := c.r.lock(ctx, portalID)
	if err != nil {
		return err
	}
	defer unlock()
	for _, b := range []string{source, target} {
		if ok, err := c.r.hasBranch(ctx, portalID, b); err != nil {
			return err
		} else if !ok {
			return ErrBranchMissing
		}
	}
	tmp, err := os.MkdirTemp(c.r.root, ".merge-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	work := filepath.Join(tmp, "w")
	if _, err := c.r.run(ctx, tmp, gitcli.Command("clone", "-q", "--shared").Option("--branch", target).Value(c.r.bare(portalID), work)); err != nil {
		return err
	}
	msg := "Merge branch '" + source + "' into " + target
	if _, err := c.r.run(ctx, work, authorEnv(gitcli.Command("merge", "-q", "--no-ff", "--no-edit").Option("--message", msg).Value("origin/"+source), author)); err != nil {
		return fmt.Errorf("%w: %v", ErrMergeConflict, err)
	}
	_, err = c.r.run(ctx, work, gitcli.Command("push", "-q", "origin").Value("HEAD:refs/heads/"+target))
	return err
}

// Errors of repository operations; the service maps them to the spec's codes.
var (
	ErrBranchExists  = errors.New("branch exists")
	ErrBranchMissing = errors.New("branch does not exist")
	ErrMergeConflict = errors.New("merge conflict")
)

func lines(out string) []string {
	var res []string
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if l != "" {
			res = append(res, l)
		}
	}
	return res
}

func nulFields(out []byte) []string {
	parts := bytes.Split(out, []byte{0})
	res := make([]string, 0, len(parts))
	for _, p := range parts {
		if len(p) > 0 {
			res = append(res, string(p))
		}
	}
	return res
}

// HeadBranch is the branch the canonical repository's HEAD names (an import's remote
// default branch).
func (c Core) HeadBranch(ctx context.Context, portalID int64) (string, error) {
	out, err := c.r.run(ctx, c.r.bare(portalID), gitcli.Command("symbolic-ref", "-q", "--short", "HEAD"))
	return strings.TrimSpace(out), err
}
