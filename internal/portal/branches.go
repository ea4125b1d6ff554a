package portal

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/portalaccess"
	"portalwright/internal/validate"
	"portalwright/internal/workspace"
	"portalwright/internal/workspace/hostsync"
)

// Branches are a portal's branches and tags in its canonical repository: listing them (and a
// git URL's before an import), the branch a portal opens on, creating, merging and deleting
// them, each change recorded in the audit. They are a type of their own beside Service, over
// its repositories and audit; the users' workspaces on a branch are editing.Workspace's.
type Branches struct {
	svc *Service
}

// NewBranches serves the branches over the portal service's dependencies.
func NewBranches(svc *Service) *Branches { return &Branches{svc: svc} }

// RemoteBranches looks up the branches of a git URL before importing it.
func (s *Branches) RemoteBranches(ctx context.Context, url string, creds *workspace.Credentials) ([]string, error) {
	if err := validate.GitURL(strings.TrimSpace(url)); err != nil {
		return nil, apperr.Validation(err.Error())
	}
	if err := s.svc.core.CheckRemote(ctx, strings.TrimSpace(url)); err != nil { // private hosts (remote_policy.go)
		return nil, refusedRemote(err)
	}
	branches, err := s.svc.core.RemoteBranches(ctx, strings.TrimSpace(url), creds)
	if err != nil {
		return nil, remoteError("REMOTE_UNREACHABLE", "Failed to load branches from URL "+url, err)
	}
	return branches, nil
}

// CurrentBranch is ActiveBranch of a checked portal (GET portal_branch/branches/active).
func (s *Branches) CurrentBranch(ctx context.Context, pa portalaccess.Portal) (string, error) {
	pt, err := s.svc.Checked(ctx, pa)
	if err != nil {
		return "", err
	}
	return s.ActiveBranch(ctx, pt), nil
}

// ActiveBranch is the portal's active branch when it exists, else the repository's default
// branch (portals imported before the import read the remote's HEAD were given master).
func (s *Branches) ActiveBranch(ctx context.Context, pt *Portal) string {
	return s.svc.activeBranch(ctx, pt.ID, pt.ActiveBranch)
}

// References is the answer of allReferences.
type References struct {
	AllReferences []string `json:"allReferences"`
	AllTags       []string `json:"allTags"`
	CurrentRef    string   `json:"currentRef"`
	// DeletedOnHost lists the branches the portal's git host deleted that the portal keeps
	// (a workspace has unpushed work on them); the branch picker labels them.
	DeletedOnHost []string `json:"deletedOnHost"`
}

// References lists branches and tags and the user's current branch.
func (s *Branches) References(ctx context.Context, p caller.Caller, pa portalaccess.Portal) (*References, error) {
	portalID := pa.ID()
	pt, err := s.svc.Checked(ctx, pa)
	if err != nil {
		return nil, err
	}
	// The spec's words for a listing that fails (spec 3 §8).
	failed := func(err error) error {
		return apperr.NewError(500, editing.CodeGitError, "Error", "Failed to load branches and tags for Portal with ID "+strconv.FormatInt(portalID, 10)).WithCause(err)
	}
	branches, err := s.svc.core.Branches(ctx, portalID)
	if err != nil {
		return nil, failed(err)
	}
	tags, err := s.svc.core.Tags(ctx, portalID)
	if err != nil {
		return nil, failed(err)
	}
	// The user's branch from their workspace's HEAD file (no git status); without a
	// workspace, the branch the portal opens on.
	current := s.svc.repos.CurrentBranch(p.UserID, portalID)
	if current == "" {
		current = s.ActiveBranch(ctx, pt)
	}
	return &References{AllReferences: branches, AllTags: tags, CurrentRef: current, DeletedOnHost: hostsync.New(s.svc.repos).DeletedOnHost(portalID)}, nil
}

// Branches lists the portal's branches.
func (s *Branches) Branches(ctx context.Context, pa portalaccess.Portal) ([]string, error) {
	b, err := s.svc.core.Branches(ctx, pa.ID())
	return b, editing.GitError(err)
}

func checkBranch(name string) error {
	if err := validate.BranchName(name); err != nil {
		return apperr.Validation(err.Error())
	}
	return nil
}

// CreateBranch makes a branch from another (default: the portal's active branch).
func (s *Branches) CreateBranch(ctx context.Context, p caller.Caller, pa portalaccess.Portal, name, from string) error {
	domainID, portalID := pa.DomainID(), pa.ID()
	pt, err := s.svc.Checked(ctx, pa)
	if err != nil {
		return err
	}
	if from == "" {
		from = pt.ActiveBranch
	}
	if err := checkBranch(name); err != nil {
		return err
	}
	if err := checkBranch(from); err != nil {
		return err
	}
	err = s.svc.core.CreateBranch(ctx, portalID, name, from)
	if errors.Is(err, workspace.ErrBranchExists) {
		return apperr.Conflict("BRANCH_EXISTS", "A branch with this name already exists.")
	}
	if err == nil {
		s.svc.record(ctx, p, "BRANCH_CREATED", domainID, portalEntity(portalID), name+" from "+from)
	}
	return editing.GitError(err)
}

// MergeBranch merges one branch into another.
func (s *Branches) MergeBranch(ctx context.Context, p caller.Caller, pa portalaccess.Portal, source, target string) error {
	domainID, portalID := pa.DomainID(), pa.ID()
	if err := checkBranch(source); err != nil {
		return err
	}
	if err := checkBranch(target); err != nil {
		return err
	}
	if source == target {
		return apperr.Validation("Choose two different branches to merge.")
	}
	err := s.svc.core.MergeBranch(ctx, portalID, source, target, s.svc.author(ctx, p))
	if err == nil {
		s.svc.record(ctx, p, "BRANCH_MERGED", domainID, portalEntity(portalID), source+" into "+target)
	}
	return editing.GitError(err)
}

// DeleteBranch removes a branch; the portal's active branch cannot be deleted.
func (s *Branches) DeleteBranch(ctx context.Context, p caller.Caller, pa portalaccess.Portal, name string) error {
	domainID, portalID := pa.DomainID(), pa.ID()
	pt, err := s.svc.Checked(ctx, pa)
	if err != nil {
		return err
	}
	if err := checkBranch(name); err != nil {
		return err
	}
	if name == pt.ActiveBranch {
		return apperr.Validation("The portal's active branch cannot be deleted.")
	}
	err = s.svc.core.DeleteBranch(ctx, portalID, name)
	if err == nil {
		s.svc.record(ctx, p, "BRANCH_DELETED", domainID, portalEntity(portalID), name)
	}
	return editing.GitError(err)
}
