// Package hostsync is the git side of a portal's upstream: the git host a portal was imported
// from (issue 15). internal/upstream decides when to call these and keeps the state; here is
// only git, over the canonical repositories (workspace.Core) and their users' workspaces.
//
//   - The upstream's branches are fetched into the canonical repository under
//     workspace.UpstreamRefs (refs/upstream/heads/<branch>), never into refs/heads: what the
//     host has and what the portal has stay apart until IntegrateUpstream brings them together
//     under the portal lock.
//   - The URL is passed on the command line of each git process and never written to any git
//     configuration; credentials travel as for imports (workspace.Core.RunRemote: the
//     environment of that one process, an SSH deploy key as a temporary 0600 file named in
//     GIT_SSH_COMMAND, removed when the command ends, the remote host policy on every call).
//   - Nothing is forced: a push that the host refuses (it moved, a hook declined) changes
//     nothing on either side; the portal keeps its commits and is "ahead" until a later push.
package hostsync

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"maps"
	neturl "net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"portalwright/internal/gitcli"
	"portalwright/internal/workspace"
)

// HostSync is the git host sync of imported portals (the rules above), over the canonical
// repositories and their users' workspaces.
type HostSync struct {
	repos *workspace.Repos
	core  workspace.Core
	refs  workspace.Refs
}

// New is the git host sync of the repositories.
func New(repos *workspace.Repos) *HostSync {
	return &HostSync{repos: repos, core: repos.Core(), refs: repos.Core().Refs()}
}

// Upstream is a portal's git host: the URL (without credentials) and how to log in.
type Upstream struct {
	URL   string
	Creds *workspace.Credentials // nil: anonymous
}

// ErrUpstreamRejected is a push the git host refused (it has commits the portal lacks, or a
// hook declined it); the *UpstreamPushError says which.
var ErrUpstreamRejected = errors.New("the git host refused the push")

// UpstreamPushError is a failed push: NonFastForward when the host's branch moved, Remote
// holds what the host said ("remote: …" lines).
type UpstreamPushError struct {
	Branch         string
	NonFastForward bool
	Remote         string
	Err            error
}

func (e *UpstreamPushError) Error() string { return e.Err.Error() }
func (e *UpstreamPushError) Unwrap() error { return e.Err }

// Is makes a refused push match ErrUpstreamRejected.
func (e *UpstreamPushError) Is(target error) bool {
	return target == ErrUpstreamRejected && (e.NonFastForward || e.Remote != "")
}

// UpstreamBranch compares a branch of the portal with the upstream's.
type UpstreamBranch struct {
	Branch string `json:"branch"`
	Ahead  int    `json:"ahead"`  // commits of the portal the upstream lacks
	Behind int    `json:"behind"` // commits of the upstream the portal lacks
	// OnUpstream is false for a branch the upstream does not have (yet).
	OnUpstream bool `json:"onUpstream"`
	// DeletedOnHost: the host deleted the branch, and the portal keeps it because a workspace
	// has unpushed work on it (or the portal's branch has commits the host never had); Ahead
	// counts the portal's commits beyond the host's last one. It is never pushed back.
	DeletedOnHost bool `json:"deletedOnHost"`
}

// MovedBranch is a branch of the portal that upstream commits moved.
type MovedBranch struct {
	Branch, Commit string
	Author         string // the tip's author, for the WORKSPACE_COMMIT announcement
	Created        bool   // the branch is new in the portal (nobody can be on it yet)
}

// ErrDeletedOnHost is a push of a branch that the git host deleted: the portal keeps it (see
// IntegrateUpstream) but does not create it there again.
var ErrDeletedOnHost = errors.New("the branch was deleted on the git host")

// runRemote runs a command that talks to the upstream (workspace.Core.RunRemote).
func (hs *HostSync) runRemote(ctx context.Context, dir string, c *gitcli.Cmd, up Upstream, knownHosts *string) (string, error) {
	return hs.core.RunRemote(ctx, dir, c, up.URL, up.Creds, knownHosts)
}

// FetchUpstream fetches every branch of the upstream into workspace.UpstreamRefs of the canonical
// repository in one fetch (branches deleted there are pruned from workspace.UpstreamRefs; they leave
// the portal in IntegrateUpstream), under the portal lock, within timeout.
func (hs *HostSync) FetchUpstream(ctx context.Context, portalID int64, up Upstream, knownHosts *string, timeout time.Duration) error {
	unlock, err := hs.core.LockPortal(ctx, portalID)
	if err != nil {
		return err
	}
	defer unlock()
	bare, ok := hs.core.CanonicalRepo(portalID)
	if !ok {
		return workspace.ErrInvalidWorkspace
	}
	// --atomic: every update and every prune in one ref transaction (git prunes one ref at a
	// time otherwise, reading packed-refs again for each: seconds for 2,000 deleted branches).
	c := gitcli.Command("fetch", "-q", "--prune", "--atomic", "--no-tags", "--no-write-fetch-head").Value(up.URL, "+refs/heads/*:"+workspace.UpstreamRefs+"*").Timeout(timeout)
	_, err = hs.runRemote(ctx, bare, c, up, knownHosts)
	return workspace.ClassifyRemote(err)
}

// MarkUpstreamSynced records that the upstream has exactly the portal's branches (right after
// an import, whose clone made them from the upstream): workspace.UpstreamRefs (one `git update-ref
// --stdin`) and the record of the host's branches (record.go).
func (hs *HostSync) MarkUpstreamSynced(ctx context.Context, portalID int64) error {
	unlock, err := hs.core.LockPortal(ctx, portalID)
	if err != nil {
		return err
	}
	defer unlock()
	bare := hs.core.Bare(portalID)
	list, err := hs.refs.List(ctx, bare)
	if err != nil {
		return err
	}
	refs := list.Refs
	heads := map[string]string{}
	var tx strings.Builder
	for name, sha := range refs {
		if b, ok := strings.CutPrefix(name, "refs/heads/"); ok {
			heads[b] = sha
			if refs[workspace.UpstreamRefs+b] != sha {
				// Loose, as a fetch makes them (workspace/upkeep: git prunes loose refs faster).
				fmt.Fprintf(&tx, "update %s%s %s\n", workspace.UpstreamRefs, b, sha)
			}
		}
	}
	if tx.Len() > 0 {
		if _, err := hs.core.Run(ctx, bare, gitcli.Command("update-ref", "--stdin").Stdin(strings.NewReader(tx.String()))); err != nil {
			return err
		}
	}
	return writeBranchFile(bare, upstreamHeadsFile, heads)
}

// CompareUpstream compares each branch of the portal with the upstream's as last fetched, from
// one listing of the canonical repository's refs: a branch whose commit is the host's costs no
// git process, one that differs one count per pair of commits ever seen (memoised, run at most
// compareWorkers at a time). A branch the host lacks is counted only when pending lists it (a
// branch made in the product that waits for its first push); one the host deleted and the
// portal keeps is compared with the host's last commit of it and marked DeletedOnHost.
func (hs *HostSync) CompareUpstream(ctx context.Context, portalID int64, pending []string) ([]UpstreamBranch, error) {
	bare := hs.core.Bare(portalID)
	list, err := hs.refs.List(ctx, bare)
	if err != nil {
		return nil, err
	}
	refs, names := list.Refs, list.Names
	deleted, _, err := readBranchFile(bare, upstreamDeletedFile)
	if err != nil {
		return nil, err
	}
	out := []UpstreamBranch{}
	type job struct {
		i            int
		mine, theirs string
	}
	var jobs []job
	var notOnHost []int
	for _, name := range names {
		b, ok := strings.CutPrefix(name, "refs/heads/")
		if !ok {
			continue
		}
		mine, theirs := refs[name], refs[workspace.UpstreamRefs+b]
		ub := UpstreamBranch{Branch: b, OnUpstream: theirs != ""}
		if last, ok := deleted[b]; ok && theirs == "" {
			ub.DeletedOnHost, theirs = true, last
		}
		switch {
		case theirs != "" && theirs != mine:
			jobs = append(jobs, job{len(out), mine, theirs})
		case theirs == "" && slices.Contains(pending, b):
			notOnHost = append(notOnHost, len(out))
		}
		out = append(out, ub)
	}
	errs := make([]error, len(jobs)+len(notOnHost))
	parallel(len(jobs), func(k int) {
		j := jobs[k]
		out[j.i].Ahead, out[j.i].Behind, errs[k] = hs.refs.Count(ctx, bare, j.mine, j.theirs)
		if out[j.i].DeletedOnHost {
			out[j.i].Behind = 0 // the host's commits of a deleted branch are nowhere to bring in
		}
	})
	if len(notOnHost) > 0 {
		// Commits on no branch of the host, memoised per (commit, the host's refs).
		h := fnv.New64a()
		for _, name := range names {
			if strings.HasPrefix(name, workspace.UpstreamRefs) {
				h.Write([]byte(refs[name] + name + "\n"))
			}
		}
		state := "upstream:" + strconv.FormatUint(h.Sum64(), 36)
		parallel(len(notOnHost), func(k int) {
			i := notOnHost[k]
			out[i].Ahead, errs[len(jobs)+k] = hs.notOnHost(ctx, bare, refs["refs/heads/"+out[i].Branch], state)
		})
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}

// notOnHost counts the commits of a branch that no branch of the host has, memoised with the
// counts of pairs (workspace.Refs.Memo) under (commit, state of the host's refs).
func (hs *HostSync) notOnHost(ctx context.Context, bare, mine, state string) (int, error) {
	ahead, _, err := hs.refs.Memo(mine, state, func() (int, int, error) {
		n, err := hs.core.Run(ctx, bare, gitcli.Command("rev-list", "--count").Value(mine).Flags("--not", "--glob="+workspace.UpstreamRefs+"*"))
		if err != nil {
			return 0, 0, err
		}
		ahead, _ := strconv.Atoi(strings.TrimSpace(n))
		return ahead, 0, nil
	})
	return ahead, err
}

// compareWorkers bounds the git processes one comparison runs at once.
const compareWorkers = 4

// parallel runs f(0…n-1) on at most compareWorkers goroutines.
func parallel(n int, f func(i int)) {
	if n == 0 {
		return
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(n, compareWorkers); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

// IntegrateUpstream brings the fetched upstream commits onto the portal's branches: a branch
// the portal lacks is created, a branch the upstream moved ahead of is fast-forwarded, and a
// branch that went both ways (the portal has commits a failed push left behind, the host has
// others) gets a merge commit by author, so no history is rewritten anywhere. A merge that
// conflicts changes nothing and is listed in conflicts. A branch the host deleted leaves the
// portal, unless a workspace has work on it that is not on the portal's branch, or the portal's
// branch has commits the host never had: it stays, listed by DeletedOnHost and never pushed.
//
// Its cost does not grow with the number of branches: the refs are read from one listing; a
// branch whose commit is the host's needs nothing; the pairs that differ are counted before the
// portal lock is taken (memoised, a few at a time), so under the lock new and deleted branches
// are one write of packed-refs (workspace.Refs.WritePacked) and the fast-forwards one `git update-ref
// --stdin`. Only a merge, or a deleted branch some workspace is on, costs git processes of
// its own.
func (hs *HostSync) IntegrateUpstream(ctx context.Context, portalID int64, author workspace.Author) (moved []MovedBranch, conflicts []string, err error) {
	bare := hs.core.Bare(portalID)
	// Before the lock: count every pair that differs, so the lock hold below finds them in
	// the memo (a commit landing meanwhile only makes one pair new).
	pre := hs.refs.Files(bare)
	if pre != nil {
		refs, names := pre.Refs, pre.Names
		deleted, _, _ := readBranchFile(bare, upstreamDeletedFile)
		var pairs [][2]string
		for _, name := range names {
			if b, ok := strings.CutPrefix(name, workspace.UpstreamRefs); ok {
				if mine := refs["refs/heads/"+b]; mine != "" && mine != refs[name] {
					pairs = append(pairs, [2]string{mine, refs[name]})
				}
			}
		}
		for b, last := range deleted {
			if mine := refs["refs/heads/"+b]; mine != "" && mine != last {
				pairs = append(pairs, [2]string{mine, last})
			}
		}
		parallel(len(pairs), func(i int) { _, _, _ = hs.refs.Count(ctx, bare, pairs[i][0], pairs[i][1]) })
	}
	unlock, err := hs.core.LockPortal(ctx, portalID)
	if err != nil {
		return nil, nil, err
	}
	moved, conflicts, err = hs.integrateLocked(ctx, portalID, author, pre)
	unlock()
	hs.refs.PackSoon(bare) // the fetch and the new branches left loose refs and objects
	if err != nil {
		return moved, conflicts, err
	}
	// The tips' authors for the announcements, in one process (outside the lock).
	var shas []string
	for _, m := range moved {
		if !m.Created {
			shas = append(shas, m.Commit)
		}
	}
	if len(shas) > 0 {
		out, err := hs.core.Run(ctx, bare, gitcli.Command("log", "--no-walk=unsorted", "--stdin", "--format=%H %an").Stdin(strings.NewReader(strings.Join(shas, "\n")+"\n")))
		if err == nil {
			who := map[string]string{}
			for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
				if sha, name, ok := strings.Cut(l, " "); ok {
					who[sha] = name
				}
			}
			for i := range moved {
				moved[i].Author = who[moved[i].Commit]
			}
		}
	}
	return moved, conflicts, nil
}

// integrateLocked runs under the portal lock. pre is the listing read before the lock: when no
// ref file changed since (their stamps), it is used again rather than read a third time (a
// change within the same timestamp tick could hide; every write below is then refused by its
// expected old value or its own check, so nothing wrong is written).
func (hs *HostSync) integrateLocked(ctx context.Context, portalID int64, author workspace.Author, pre *workspace.RefList) (moved []MovedBranch, conflicts []string, err error) {
	bare := hs.core.Bare(portalID)
	list := pre
	if pre == nil || !pre.Unchanged() {
		if list, err = hs.refs.List(ctx, bare); err != nil {
			return nil, nil, err
		}
	}
	refs, names := list.Refs, list.Names
	upstream := map[string]string{}
	for _, name := range names {
		if b, ok := strings.CutPrefix(name, workspace.UpstreamRefs); ok {
			upstream[b] = refs[name]
		}
	}
	prev, known, err := readBranchFile(bare, upstreamHeadsFile)
	if err != nil {
		return nil, nil, err
	}
	deleted, _, err := readBranchFile(bare, upstreamDeletedFile)
	if err != nil {
		return nil, nil, err
	}
	if !known {
		// The first integration of a repository from before the record: the branches that
		// came from the host and were never written in the product count as the host's.
		for _, name := range names {
			if b, ok := strings.CutPrefix(name, "refs/heads/"); ok && upstream[b] == "" && hostOrigin(bare, b) {
				prev[b] = refs[name]
			}
		}
	}

	creates := map[string]string{}
	var tx strings.Builder
	var merges []string
	for _, name := range names {
		b, ok := strings.CutPrefix(name, workspace.UpstreamRefs)
		if !ok {
			continue
		}
		delete(deleted, b) // the host has it (again)
		theirs, mine := refs[name], refs["refs/heads/"+b]
		switch {
		case theirs == mine:
		case mine == "":
			creates["refs/heads/"+b] = theirs
			moved = append(moved, MovedBranch{Branch: b, Commit: theirs, Created: true})
		default:
			ahead, behind, err := hs.refs.Count(ctx, bare, mine, theirs)
			if err != nil {
				return nil, nil, err
			}
			switch {
			case behind == 0: // the portal is ahead: the next push sends it
			case ahead == 0:
				fmt.Fprintf(&tx, "update refs/heads/%s %s %s\n", b, theirs, mine)
				moved = append(moved, MovedBranch{Branch: b, Commit: theirs})
			default:
				merges = append(merges, b)
			}
		}
	}

	// Branches the host deleted since the last integration.
	for b, last := range prev {
		if upstream[b] == "" && refs["refs/heads/"+b] != "" {
			deleted[b] = last
		}
	}
	head, _ := os.ReadFile(filepath.Join(bare, "HEAD"))
	headBranch, _ := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: refs/heads/")
	var onBranch map[string]bool
	var gone []string
	removes := map[string]string{}
	for _, b := range slices.Sorted(maps.Keys(deleted)) {
		mine := refs["refs/heads/"+b]
		switch {
		case mine == "":
			delete(deleted, b) // deleted in the portal too
			continue
		case b == headBranch:
			continue // the repository's default branch stays; it is shown as deleted on the host
		case mine != deleted[b]:
			if ahead, _, err := hs.refs.Count(ctx, bare, mine, deleted[b]); err != nil || ahead > 0 {
				continue // the portal has commits the host never had
			}
		}
		if onBranch == nil {
			onBranch = hs.workspaceBranches(portalID)
		}
		if onBranch[b] && len(hs.repos.Clones().WithWorkOn(ctx, portalID, b)) > 0 {
			continue // someone's work is on it
		}
		removes["refs/heads/"+b] = mine
		gone = append(gone, b)
		delete(deleted, b)
	}

	// New branches and deleted ones in one write of packed-refs; what that may not do (and
	// every fast-forward) in one git transaction.
	added, removed, err := hs.refs.WritePacked(bare, creates, removes, names)
	if err != nil {
		return nil, nil, err
	}
	for _, name := range added {
		delete(creates, name)
	}
	for _, name := range removed {
		delete(removes, name)
	}
	for _, name := range slices.Sorted(maps.Keys(creates)) {
		fmt.Fprintf(&tx, "create %s %s\n", name, creates[name])
	}
	for _, name := range slices.Sorted(maps.Keys(removes)) {
		fmt.Fprintf(&tx, "delete %s %s\n", name, removes[name])
	}
	if tx.Len() > 0 {
		if _, err := hs.core.Run(ctx, bare, gitcli.Command("update-ref", "--stdin").Stdin(strings.NewReader(tx.String()))); err != nil {
			return nil, nil, err
		}
	}
	if len(gone) > 0 {
		// Their commits stay in the repository (it never prunes); the log keeps the names.
		slog.Info("upstream: branches deleted on the git host left the portal", "repository", bare, "count", len(gone), "branches", strings.Join(gone[:min(len(gone), 20)], ", "))
	}
	for _, b := range merges {
		merged, err := hs.mergeUpstream(ctx, portalID, b, upstream[b], author)
		if errors.Is(err, workspace.ErrMergeConflict) {
			conflicts = append(conflicts, b)
			continue
		}
		if err != nil {
			return moved, conflicts, err
		}
		moved = append(moved, MovedBranch{Branch: b, Commit: merged})
	}
	if err := writeBranchFile(bare, upstreamHeadsFile, upstream); err != nil {
		return moved, conflicts, err
	}
	return moved, conflicts, writeBranchFile(bare, upstreamDeletedFile, deleted)
}

// workspaceBranches is the set of branches some workspace of the portal is on (their HEAD
// files, no git).
func (hs *HostSync) workspaceBranches(portalID int64) map[string]bool {
	on := map[string]bool{}
	for _, uid := range hs.repos.Workspaces(portalID) {
		if b := hs.repos.CurrentBranch(uid, portalID); b != "" {
			on[b] = true
		}
	}
	return on
}

// mergeUpstream merges the upstream's commit into the portal's branch in a scratch clone
// (no author's workspace is touched) and pushes the merge to the canonical branch.
func (hs *HostSync) mergeUpstream(ctx context.Context, portalID int64, branch, theirs string, author workspace.Author) (string, error) {
	tmp, err := os.MkdirTemp(hs.repos.DataDir(), ".merge-") // swept at start if a crash leaves it
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	work := filepath.Join(tmp, "w")
	if _, err := hs.core.Run(ctx, tmp, gitcli.Command("clone", "-q", "--shared").Option("--branch", branch).Value(hs.core.Bare(portalID), work)); err != nil {
		return "", err
	}
	msg := "Merge the git host's " + branch + " into the portal's " + branch
	if _, err := hs.core.Run(ctx, work, author.Env(gitcli.Command("merge", "-q", "--no-ff", "--no-edit").Option("--message", msg).Value(theirs))); err != nil {
		return "", fmt.Errorf("%w: %v", workspace.ErrMergeConflict, err)
	}
	if _, err := hs.core.Run(ctx, work, gitcli.Command("push", "-q", "origin").Value("HEAD:refs/heads/"+branch)); err != nil {
		return "", err
	}
	head, err := hs.core.Run(ctx, work, gitcli.Command("rev-parse", "HEAD"))
	return strings.TrimSpace(head), err
}

// PushUpstream sends a branch of the portal to the upstream (never forced), under the portal
// lock, and records the upstream's new tip under workspace.UpstreamRefs when it took it. A refusal is an
// *UpstreamPushError; an unreachable host a *RemoteError.
func (hs *HostSync) PushUpstream(ctx context.Context, portalID int64, up Upstream, branch string, knownHosts *string, timeout time.Duration) error {
	unlock, err := hs.core.LockPortal(ctx, portalID)
	if err != nil {
		return err
	}
	defer unlock()
	bare := hs.core.Bare(portalID)
	list, err := hs.refs.List(ctx, bare)
	if err != nil {
		return err
	}
	refs := list.Refs
	mine := refs["refs/heads/"+branch]
	if mine == "" {
		return workspace.ErrBranchMissing
	}
	if refs[workspace.UpstreamRefs+branch] == mine {
		return nil // the host has it already
	}
	if refs[workspace.UpstreamRefs+branch] == "" {
		if deleted, _, _ := readBranchFile(bare, upstreamDeletedFile); deleted[branch] != "" {
			return ErrDeletedOnHost
		}
	}
	c := gitcli.Command("push", "-q", "--porcelain").Value(up.URL, "refs/heads/"+branch+":refs/heads/"+branch).Timeout(timeout)
	out, err := hs.runRemote(ctx, bare, c, up, knownHosts)
	if err != nil {
		return pushError(branch, out, err)
	}
	_, err = hs.core.Run(ctx, bare, gitcli.Command("update-ref").Value(workspace.UpstreamRefs+branch, mine))
	return err
}

// pushError tells a refused push (the host moved, a hook declined) from an unreachable host.
func pushError(branch, out string, err error) error {
	var ge *gitcli.Error
	if !errors.As(err, &ge) || errors.Is(err, gitcli.ErrTimeout) {
		return workspace.ClassifyRemote(err)
	}
	text := out + "\n" + ge.Stderr
	pe := &UpstreamPushError{Branch: branch, Err: err}
	var remote []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if m, ok := strings.CutPrefix(l, "remote:"); ok && strings.TrimSpace(m) != "" {
			remote = append(remote, strings.TrimSpace(m))
		}
		if strings.HasPrefix(l, "!") && (strings.Contains(l, "non-fast-forward") || strings.Contains(l, "fetch first") || strings.Contains(l, "[rejected]")) {
			pe.NonFastForward = true
		}
		if strings.Contains(l, "pre-receive hook declined") || strings.Contains(l, "hook declined") {
			remote = append(remote, "pre-receive hook declined")
		}
	}
	pe.Remote = strings.Join(remote, "\n")
	if len(pe.Remote) > 1000 {
		pe.Remote = pe.Remote[:1000] + "…"
	}
	if !pe.NonFastForward && pe.Remote == "" {
		return workspace.ClassifyRemote(err) // not a refusal: unreachable, credentials, …
	}
	return pe
}

// SplitURLCredentials takes credentials out of a git URL a user gave: for http(s) the
// user:password@ part is removed and returned; for ssh only a password is removed (the user
// name, e.g. git@, names the account and stays). Anything else is returned as it is.
func SplitURLCredentials(url string) (clean, user, password string) {
	scheme, rest, ok := strings.Cut(url, "://")
	if !ok {
		return url, "", "" // scp-like git@host:path carries no password
	}
	authority, path := rest, ""
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		authority, path = rest[:i], rest[i:]
	}
	at := strings.LastIndexByte(authority, '@')
	if at < 0 {
		return url, "", ""
	}
	userinfo, host := authority[:at], authority[at+1:]
	user, password, _ = strings.Cut(userinfo, ":")
	switch strings.ToLower(scheme) {
	case "http", "https":
		return scheme + "://" + host + path, unescape(user), unescape(password)
	default:
		return scheme + "://" + user + "@" + host + path, "", unescape(password)
	}
}

func unescape(s string) string {
	if u, err := neturl.PathUnescape(s); err == nil {
		return u
	}
	return s
}
