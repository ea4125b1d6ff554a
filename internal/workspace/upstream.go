package workspace

// The git side of a portal's upstream: the git host a portal was imported from (issue 15).
// internal/upstream decides when to call these and keeps the state; here is only git.
//
//   - The upstream's branches are fetched into the canonical repository under UpstreamRefs
//     (refs/upstream/heads/<branch>), never into refs/heads: what the host has and what the
//     portal has stay apart until IntegrateUpstream brings them together under the portal lock.
//   - The URL is passed on the command line of each git process and never written to any git
//     configuration; credentials travel as for imports (remoteCmd: the environment of that one
//     process), an SSH deploy key as a temporary 0600 file named in GIT_SSH_COMMAND, removed
//     when the command ends. The remote host policy (remote_policy.go) applies to every call.
//   - Nothing is forced: a push that the host refuses (it moved, a hook declined) changes
//     nothing on either side; the portal keeps its commits and is "ahead" until a later push.

import (
	"context"
	"errors"
	"fmt"
	neturl "net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"portalwright/internal/gitcli"
)

// UpstreamRefs is where the canonical repository keeps the upstream's branches.
const UpstreamRefs = "refs/upstream/heads/"

// Upstream is a portal's git host: the URL (without credentials) and how to log in.
type Upstream struct {
	URL   string
	Creds *Credentials // nil: anonymous
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
}

// MovedBranch is a branch of the portal that upstream commits moved.
type MovedBranch struct {
	Branch, Commit string
	Author         string // the tip's author, for the WORKSPACE_COMMIT announcement
}

// runRemote runs a command that talks to the upstream: host policy, credentials per process,
// an SSH key as a temporary file. knownHosts (may be nil) is the per-portal known_hosts text;
// it is updated with what ssh learnt (StrictHostKeyChecking=accept-new).
func (r *Repos) runRemote(ctx context.Context, dir string, c *gitcli.Cmd, up Upstream, knownHosts *string) (string, error) {
	creds, err := r.guardRemote(ctx, up.URL, up.Creds)
	if err != nil {
		return "", err
	}
	if creds != nil && len(creds.SSHKey) > 0 {
		tmp, err := os.MkdirTemp(r.root, ".stage-ssh-") // swept at start if a crash leaves it
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
		c = c.Env("GIT_SSH_COMMAND", "ssh -i "+shellQuote(key)+" -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=accept-new -o UserKnownHostsFile="+shellQuote(hosts))
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
	out, err := r.run(ctx, dir, remoteCmd(c, creds))
	return out, err
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// FetchUpstream fetches every branch of the upstream into UpstreamRefs of the canonical
// repository (branches deleted there are dropped from UpstreamRefs, never from the portal),
// under the portal lock, within timeout.
func (r *Repos) FetchUpstream(ctx context.Context, portalID int64, up Upstream, knownHosts *string, timeout time.Duration) error {
	unlock, err := r.lock(ctx, portalID)
	if err != nil {
		return err
	}
	defer unlock()
	if !exists(r.bare(portalID)) {
		return ErrInvalidWorkspace
	}
	c := gitcli.Command("fetch", "-q", "--prune", "--no-tags", "--no-write-fetch-head").Value(up.URL, "+refs/heads/*:"+UpstreamRefs+"*").Timeout(timeout)
	_, err = r.runRemote(ctx, r.bare(portalID), c, up, knownHosts)
	return classifyRemote(err)
}

// MarkUpstreamSynced records that the upstream has exactly the portal's branches (right after
// an import, whose clone made them from the upstream).
func (r *Repos) MarkUpstreamSynced(ctx context.Context, portalID int64) error {
	unlock, err := r.lock(ctx, portalID)
	if err != nil {
		return err
	}
	defer unlock()
	branches, err := r.Branches(ctx, portalID)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, name := range branches {
		if sha := readRef(r.bare(portalID), "refs/heads/"+name); sha != "" {
			fmt.Fprintf(&b, "update %s%s %s\n", UpstreamRefs, name, sha)
		}
	}
	_, err = r.run(ctx, r.bare(portalID), gitcli.Command("update-ref", "--stdin").Stdin(strings.NewReader(b.String())))
	return err
}

// CompareUpstream compares each branch of the portal with the upstream's as last fetched.
func (r *Repos) CompareUpstream(ctx context.Context, portalID int64) ([]UpstreamBranch, error) {
	bare := r.bare(portalID)
	branches, err := r.Branches(ctx, portalID)
	if err != nil {
		return nil, err
	}
	out := []UpstreamBranch{}
	for _, b := range branches {
		mine, theirs := r.tip(ctx, bare, "refs/heads/"+b), r.tip(ctx, bare, UpstreamRefs+b)
		ub := UpstreamBranch{Branch: b, OnUpstream: theirs != ""}
		if mine != "" && theirs == "" {
			// A branch the host lacks: its commits that are on no branch of the host.
			n, err := r.run(ctx, bare, gitcli.Command("rev-list", "--count").Value(mine).Flags("--not", "--glob="+UpstreamRefs+"*"))
			if err == nil {
				ub.Ahead, _ = strconv.Atoi(strings.TrimSpace(n))
			}
		}
		if mine != "" && theirs != "" && mine != theirs {
			counts, err := r.run(ctx, bare, gitcli.Command("rev-list", "--left-right", "--count").Value(mine+"..."+theirs))
			if err != nil {
				return nil, err
			}
			if f := strings.Fields(counts); len(f) == 2 {
				ub.Ahead, _ = strconv.Atoi(f[0])
				ub.Behind, _ = strconv.Atoi(f[1])
			}
		}
		out = append(out, ub)
	}
	return out, nil
}

// tip is a ref's commit ("" when it does not exist).
func (r *Repos) tip(ctx context.Context, bare, ref string) string {
	if sha := readRef(bare, ref); sha != "" {
		return sha
	}
	out, err := r.run(ctx, bare, gitcli.Command("rev-parse", "--verify", "-q").Value(ref))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(out)
}

// IntegrateUpstream brings the fetched upstream commits onto the portal's branches, under the
// portal lock: a branch the portal lacks is created, a branch the upstream moved ahead of is
// fast-forwarded, and a branch that went both ways (the portal has commits a failed push left
// behind, the host has others) gets a merge commit by author, so no history is rewritten
// anywhere. A merge that conflicts changes nothing and is listed in conflicts.
func (r *Repos) IntegrateUpstream(ctx context.Context, portalID int64, author Author) (moved []MovedBranch, conflicts []string, err error) {
	unlock, err := r.lock(ctx, portalID)
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	bare := r.bare(portalID)
	names, err := r.refNames(ctx, bare, UpstreamRefs)
	if err != nil {
		return nil, nil, err
	}
	for _, b := range names {
		theirs := r.tip(ctx, bare, UpstreamRefs+b)
		mine := r.tip(ctx, bare, "refs/heads/"+b)
		if theirs == "" || theirs == mine {
			continue
		}
		switch {
		case mine == "":
			if _, err := r.run(ctx, bare, gitcli.Command("update-ref").Value("refs/heads/"+b, theirs, "0000000000000000000000000000000000000000")); err != nil {
				return moved, conflicts, err
			}
		case r.isAncestor(ctx, bare, theirs, mine):
			continue // the portal is ahead: the next push sends it
		case r.isAncestor(ctx, bare, mine, theirs):
			if _, err := r.run(ctx, bare, gitcli.Command("update-ref").Value("refs/heads/"+b, theirs, mine)); err != nil {
				return moved, conflicts, err
			}
		default:
			merged, err := r.mergeUpstream(ctx, portalID, b, theirs, author)
			if errors.Is(err, ErrMergeConflict) {
				conflicts = append(conflicts, b)
				continue
			}
			if err != nil {
				return moved, conflicts, err
			}
			theirs = merged
		}
		who, _ := r.run(ctx, bare, gitcli.Command("log", "-1", "--format=%an").Value(theirs))
		moved = append(moved, MovedBranch{Branch: b, Commit: theirs, Author: strings.TrimSpace(who)})
	}
	return moved, conflicts, nil
}

func (r *Repos) isAncestor(ctx context.Context, dir, a, b string) bool {
	_, err := r.run(ctx, dir, gitcli.Command("merge-base", "--is-ancestor").Value(a, b))
	return err == nil
}

// mergeUpstream merges the upstream's commit into the portal's branch in a scratch clone
// (no author's workspace is touched) and pushes the merge to the canonical branch.
func (r *Repos) mergeUpstream(ctx context.Context, portalID int64, branch, theirs string, author Author) (string, error) {
	tmp, err := os.MkdirTemp(r.root, ".merge-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	work := filepath.Join(tmp, "w")
	if _, err := r.run(ctx, tmp, gitcli.Command("clone", "-q", "--shared").Option("--branch", branch).Value(r.bare(portalID), work)); err != nil {
		return "", err
	}
	msg := "Merge the git host's " + branch + " into the portal's " + branch
	if _, err := r.run(ctx, work, authorEnv(gitcli.Command("merge", "-q", "--no-ff", "--no-edit").Option("--message", msg).Value(theirs), author)); err != nil {
		return "", fmt.Errorf("%w: %v", ErrMergeConflict, err)
	}
	if _, err := r.run(ctx, work, gitcli.Command("push", "-q", "origin").Value("HEAD:refs/heads/"+branch)); err != nil {
		return "", err
	}
	head, err := r.run(ctx, work, gitcli.Command("rev-parse", "HEAD"))
	return strings.TrimSpace(head), err
}

// PushUpstream sends a branch of the portal to the upstream (never forced), under the portal
// lock, and records the upstream's new tip under UpstreamRefs when it took it. A refusal is an
// *UpstreamPushError; an unreachable host a *RemoteError.
func (r *Repos) PushUpstream(ctx context.Context, portalID int64, up Upstream, branch string, knownHosts *string, timeout time.Duration) error {
	unlock, err := r.lock(ctx, portalID)
	if err != nil {
		return err
	}
	defer unlock()
	bare := r.bare(portalID)
	mine := r.tip(ctx, bare, "refs/heads/"+branch)
	if mine == "" {
		return ErrBranchMissing
	}
	if r.tip(ctx, bare, UpstreamRefs+branch) == mine {
		return nil // the host has it already
	}
	c := gitcli.Command("push", "-q", "--porcelain").Value(up.URL, "refs/heads/"+branch+":refs/heads/"+branch).Timeout(timeout)
	out, err := r.runRemote(ctx, bare, c, up, knownHosts)
	if err != nil {
		return pushError(branch, out, err)
	}
	_, err = r.run(ctx, bare, gitcli.Command("update-ref").Value(UpstreamRefs+branch, mine))
	return err
}

// pushError tells a refused push (the host moved, a hook declined) from an unreachable host.
func pushError(branch, out string, err error) error {
	var ge *gitcli.Error
	if !errors.As(err, &ge) || errors.Is(err, gitcli.ErrTimeout) {
		return classifyRemote(err)
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
		return classifyRemote(err) // not a refusal: unreachable, credentials, …
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
