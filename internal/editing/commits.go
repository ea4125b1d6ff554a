package editing

import (
	"context"
	"errors"
	"strings"
	"sync"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/portalaccess"
	"portalwright/internal/validate"
	"portalwright/internal/workspace"
)

// The workspace calls that need the portal's record (its active branch, its last-modified
// time) and people (commit authors): open, commit, revert to, reset. They reach the record
// through Records, so a feature that imports editing does not import the portal package.

// Opened is the workspace part of opening a portal (the portal package adds the record).
type Opened struct {
	Branch   string   `json:"branch"`
	Settings Settings `json:"settings"`
	// SettingsVersion is the version of portal.json a settings save must be based on.
	SettingsVersion workspace.Version `json:"settingsVersion"`
	Status          *workspace.Status `json:"status"`
	// UpstreamWarning says the portal's git host could not be fetched (the portal opened
	// with the commits it has) or had commits that could not be merged (internal/upstream).
	UpstreamWarning string `json:"upstreamWarning,omitempty"`
}

// Open makes or refreshes the caller's workspace on a branch (default: the portal's active
// branch).
func (f *Commits) Open(ctx context.Context, c caller.Caller, pa portalaccess.Portal, branch string, override bool) (*Opened, error) {
	if branch == "" {
		b, err := f.records.ActiveBranch(ctx, pa)
		if err != nil {
			return nil, err
		}
		branch = b
	}
	if err := validate.BranchName(branch); err != nil {
		return nil, apperr.BadRequest("INVALID_BRANCH_NAME", MsgBadBranch)
	}
	warning := f.pullUpstream(ctx, pa) // the git host's new commits, before the workspace catches up
	st, err := f.repos.Open(ctx, c.UserID, pa.ID(), branch, override)
	if err != nil {
		return nil, GitError(err)
	}
	f.ws.Changed(ctx, c, pa)
	settings, version, _ := f.ws.Settings(ctx, c, pa)
	return &Opened{Branch: st.Branch, Settings: settings, SettingsVersion: version, Status: st, UpstreamWarning: warning}, nil
}

// CommitAnswer is the answer of a commit; Code is CONTENT_VALIDATION_PASS_WITH_WARNINGS
// when the content check warned. When nothing was left to commit (Committed false: the
// changes are already on the branch) Message is MsgNothingLeft.
type CommitAnswer struct {
	*workspace.CommitResult
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
	// UpstreamWarning says the commit is in the portal but did not reach its git host, and
	// why (internal/upstream; Sync now retries).
	UpstreamWarning string `json:"upstreamWarning,omitempty"`
}

// Commit publishes the caller's changes to the portal's branch.
func (f *Commits) Commit(ctx context.Context, c caller.Caller, pa portalaccess.Portal, message string) (*CommitAnswer, error) {
	if err := validate.CommitMessageBy(f.CommitRule(ctx, c, pa), message); err != nil {
		return nil, apperr.Validation(err.Error())
	}
	message = strings.TrimSpace(message)
	var warned []string // the content check's warnings of a first try the host sent back
	if f.upstream != nil {
		// Sent to the git host first, where it is a fast-forward unless the host moved: one
		// round trip, as a push from a clone. When it moved, the usual way below, which
		// replays the commit this try left in the workspace.
		if gate, done, ok := f.upstream.SendFirst(ctx, pa); ok {
			res, err := f.repos.CommitThen(ctx, c.UserID, pa.ID(), message, f.ws.Author(ctx, c), workspace.CommitHooks{BeforeLanding: gate})
			if !errors.Is(err, workspace.ErrHostMoved) {
				return f.commitAnswer(ctx, c, pa, res, err, done, "")
			}
			if res != nil {
				warned = res.RuleWarnings
			}
		}
	}
	// The git host's new commits first, so the commit is rebased on them (GIT_CONFLICTS as
	// for another author's commit); after it landed, it is pushed there. The fetch runs while
	// git stages and commits in the workspace (the pull never touches a workspace): the commit
	// waits for it only before it is put on the branch.
	var pullWarning string
	wait := func() {}
	if f.upstream != nil {
		pulled := make(chan string, 1)
		go func() { pulled <- f.pullUpstream(ctx, pa) }()
		var once sync.Once
		wait = func() { once.Do(func() { pullWarning = <-pulled }) }
	}
	res, err := f.repos.CommitThen(ctx, c.UserID, pa.ID(), message, f.ws.Author(ctx, c), workspace.CommitHooks{Ready: wait})
	wait() // also when the commit ended before it: the pull is over when the answer comes
	if err == nil && res.Committed && len(warned) > 0 {
		res.RuleWarnings = warned
	}
	push := func() string { return f.pushUpstream(ctx, pa, f.repos.CurrentBranch(c.UserID, pa.ID())) }
	return f.commitAnswer(ctx, c, pa, res, err, push, pullWarning)
}

// commitAnswer announces a commit and answers it; pushed (run while the caller's clean
// workspace is recorded and announced) sends it to the git host, or says what the host
// said of it, and gives the warning; pullWarning is the warning of the pull before it.
func (f *unit) commitAnswer(ctx context.Context, c caller.Caller, pa portalaccess.Portal, res *workspace.CommitResult, err error, pushed func() string, pullWarning string) (*CommitAnswer, error) {
	if err != nil {
		return nil, GitError(err)
	}
	if !res.Committed {
		f.ws.Changed(ctx, c, pa) // the workspace is on the branch now; nothing was committed
		return &CommitAnswer{CommitResult: res, Message: MsgNothingLeft, UpstreamWarning: pullWarning}, nil
	}
	warning := make(chan string, 1)
	go func() { warning <- pushed() }()
	f.committed(ctx, c, pa, res.CommitID)
	ans := &CommitAnswer{CommitResult: res, UpstreamWarning: <-warning}
	if ans.UpstreamWarning == "" {
		ans.UpstreamWarning = pullWarning
	}
	if len(res.RuleWarnings) > 0 {
		ans.Code, ans.Message = CodeWarnings, MsgValidationWarn
	}
	return ans, nil
}

// CommitRule is the commit message rule of the caller's settings (validate.CommitRules);
// settings that cannot be read give the portal's default, so a broken portal.json can still
// be fixed by a commit.
func (f *Commits) CommitRule(ctx context.Context, c caller.Caller, pa portalaccess.Portal) string {
	if st, _, err := f.ws.Settings(ctx, c, pa); err == nil {
		return st.CommitMessageRule
	}
	return DefaultCommitRule(pa)
}

// RevertTo restores an earlier commit's content as a new commit.
func (f *Commits) RevertTo(ctx context.Context, c caller.Caller, pa portalaccess.Portal, commitID string) (*workspace.CommitResult, error) {
	res, err := f.repos.RevertTo(ctx, c.UserID, pa.ID(), strings.TrimSpace(commitID), f.ws.Author(ctx, c))
	if errors.Is(err, workspace.ErrUnknownCommit) {
		return nil, apperr.NotFound("UNKNOWN_COMMIT", MsgCouldNotRevert+": the commit does not exist.")
	}
	if err == nil {
		f.committed(ctx, c, pa, res.CommitID)
		f.pushUpstream(ctx, pa, f.repos.CurrentBranch(c.UserID, pa.ID())) // a failure shows in the portal's upstream state
	}
	return res, GitError(err)
}

// Reset puts the caller's workspace back on a branch of the portal: the branch asked for,
// else the one it is on, else the portal's active branch (when the caller's branch was
// deleted). Local commits are kept in the workspace's history, not on the branch.
func (f *Commits) Reset(ctx context.Context, c caller.Caller, pa portalaccess.Portal, branch string) (*workspace.Status, error) {
	active, err := f.records.ActiveBranch(ctx, pa)
	if err != nil {
		return nil, err
	}
	if branch != "" && validate.BranchName(branch) != nil {
		branch = ""
	}
	st, err := f.repos.Reset(ctx, c.UserID, pa.ID(), branch, active)
	if err != nil {
		return nil, GitError(err)
	}
	f.ws.Changed(ctx, c, pa)
	return st, nil
}

// committed marks the portal modified and announces the commit with the caller's (now
// clean) workspace.
func (f *unit) committed(ctx context.Context, c caller.Caller, pa portalaccess.Portal, commitID string) {
	f.records.Touch(ctx, pa)
	if f.pub == nil {
		return
	}
	if st, err := f.repos.Status(ctx, c.UserID, pa.ID()); err == nil {
		f.pub.Committed(ctx, c, pa, st, commitID)
	}
}

// Author is the caller as a git commit author: their name and e-mail, or their user name
// when they cannot be looked up.
func (f *Workspace) Author(ctx context.Context, c caller.Caller) workspace.Author {
	if f.people == nil {
		return workspace.Author{Name: c.Username, Email: c.Username + "@portalwright.local"}
	}
	person, err := f.people.Person(ctx, c.UserID)
	if err != nil {
		return workspace.Author{Name: c.Username, Email: c.Username + "@portalwright.local"}
	}
	name := strings.TrimSpace(person.FirstName + " " + person.LastName)
	if name == "" {
		name = person.UserName
	}
	email := person.Email
	if email == "" {
		email = person.UserName + "@portalwright.local"
	}
	return workspace.Author{Name: name, Email: email}
}
