package portal

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"portalwright/internal/apperr"
	"portalwright/internal/audit"
	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/notice"
	"portalwright/internal/portalaccess"
	"portalwright/internal/store"
	"portalwright/internal/validate"
	"portalwright/internal/workspace"
	"portalwright/internal/workspace/gitlog"
	"portalwright/internal/workspace/snapshot"
)

// Starter is a template shipped with the product.
type Starter struct {
	ID, Name, Description                       string
	EngineType, SupportLevel, Scope, PortalType string
}

// Starters lists the shipped templates and opens their files.
type Starters interface {
	List() []Starter
	FS(id string) (fs.FS, error)
}

// People, Person and PeopleBatch are the editing unit's (who a user is, for commit authors
// and other users' changes).
type (
	People      = editing.People
	Person      = editing.Person
	PeopleBatch = editing.PeopleBatch
)

// Auditor records lifecycle actions.
type Auditor interface {
	Record(ctx context.Context, e audit.Entry)
}

// Service implements portals.
type Service struct {
	store       *SQLStore
	categories  *CategoryStore
	templates   *TemplateStore
	repos       *workspace.Repos    // the users' workspaces
	core        workspace.Core      // the canonical repositories: create, import, copy, delete, branches
	snaps       *snapshot.Snapshots // commits of the canonical repository
	log         *gitlog.Log         // its branches' statistics
	starters    Starters
	people      People
	notices     notice.Publisher // progress cards and the workspace events (events.go)
	audit       Auditor
	listeners   []Listener         // in-process reactions to workspace writes (events.go)
	ws          *editing.Workspace // the workspace file layer (settings, probe settings, engine version)
	userGitURLs UserGitURLs        // the caller's own clone URLs (usergiturls.go); nil: none
	upstreams   Upstreams          // imported portals' git hosts (upstreams.go); nil: not kept

}

// NewService wires the portal service; notices and audit may be nil.
func NewService(st *SQLStore, cs *CategoryStore, ts *TemplateStore, repos *workspace.Repos, starters Starters, people People, notices notice.Publisher, a Auditor) *Service {
	s := &Service{store: st, categories: cs, templates: ts, repos: repos, core: repos.Core(), snaps: snapshot.New(repos.Core()), log: gitlog.New(repos.Core()), starters: starters, people: people, notices: notice.Or(notices), audit: a}
	s.ws = editing.New(repos, publisher{s}).WithRecords(records{s}, people)
	return s
}

// Files is the workspace file layer every portal-scoped feature edits through: its writes
// are announced to the portal's room like the portal's own (settings, probe settings).
func (s *Service) Workspace() *editing.Workspace { return s.ws }

// Spec messages and codes (spec 1 §4.2, spec 3 §8): the workspace ones live in editing,
// with the mapping of workspace errors to them.
const (
	MsgPortalNotFound    = "Failed to open Portal"
	MsgNothingToCommit   = editing.MsgNothingToCommit
	MsgConflict          = editing.MsgConflict
	MsgCouldNotCommit    = editing.MsgCouldNotCommit
	MsgCouldNotRevert    = editing.MsgCouldNotRevert
	MsgDirtyWorkspace    = editing.MsgDirtyWorkspace
	MsgBranchMissing     = editing.MsgBranchMissing
	MsgBadBranch         = editing.MsgBadBranch
	MsgValidationWarn    = editing.MsgValidationWarn
	CodeWarnings         = editing.CodeWarnings
	CodeConflicts        = editing.CodeConflicts
	CodeGitError         = editing.CodeGitError
	CodeInvalidWS        = editing.CodeInvalidWS
	CodeBranchMissing    = editing.CodeBranchMissing
	CodeLocalCommits     = editing.CodeLocalCommits
	CodeMergeError       = editing.CodeMergeError
	CodeRebaseError      = editing.CodeRebaseError
	CodeNothingToCommit  = editing.CodeNothingToCommit
	CodeBranchCheckedOut = editing.CodeBranchCheckedOut
	MsgBranchCheckedOut  = editing.MsgBranchCheckedOut
	MsgUnpushed          = editing.MsgUnpushed
	CodeFileChanged      = editing.CodeFileChanged
)

var errPortalNotFound = apperr.NotFound("PORTAL_NOT_FOUND", MsgPortalNotFound)

// auditEntity is what an audit entry is about: a portal, a category or a template, by id
// (the history screen names the kind; the details carry the name).
type auditEntity struct {
	kind string
	id   int64
}

func portalEntity(id int64) auditEntity   { return auditEntity{"PORTAL", id} }
func categoryEntity(id int64) auditEntity { return auditEntity{"CATEGORY", id} }
func templateEntity(id int64) auditEntity { return auditEntity{"TEMPLATE", id} }

func (s *Service) record(ctx context.Context, p caller.Caller, action string, domainID int64, about auditEntity, details string) {
	if s.audit == nil {
		return
	}
	actor := p.UserID
	d := domainID
	s.audit.Record(ctx, audit.Entry{Action: action, Category: "PORTAL", ActorID: &actor, ActorName: p.Username, DomainID: &d,
		EntityType: about.kind, EntityID: strconv.FormatInt(about.id, 10), Details: details})
}

func (s *Service) report(ctx context.Context, userID int64, n notice.Card) {
	s.notices.Progress(ctx, userID, n.Clamped())
}

// Load reads a portal of a domain for the portal check (portalaccess.Finder: the one query
// behind every portalaccess.Portal), or 404 PORTAL_NOT_FOUND.
func (s *Service) Load(ctx context.Context, domainID, portalID int64) (portalaccess.Record, error) {
	r, err := s.store.Load(ctx, domainID, portalID)
	if errors.Is(err, store.ErrNotFound) {
		return r, errPortalNotFound
	}
	return r, err
}

// Checked loads the record of a checked portal.
func (s *Service) Checked(ctx context.Context, pa portalaccess.Portal) (*Portal, error) {
	return s.Portal(ctx, pa.DomainID(), pa.ID())
}

// Portal loads a portal of a domain (404 when it is not in that domain).
func (s *Service) Portal(ctx context.Context, domainID, portalID int64) (*Portal, error) {
	p, err := s.store.Portal(ctx, domainID, portalID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errPortalNotFound
	}
	return p, err
}

// Portals lists a domain's portals by name.
func (s *Service) Portals(ctx context.Context, domainID int64) ([]Portal, error) {
	return s.store.Portals(ctx, domainID)
}

// Search finds portals across domains by name or id (admin search).
func (s *Service) Search(ctx context.Context, name string, id int64) ([]Portal, error) {
	return s.store.Search(ctx, name, id)
}

// NewPortal is what creating a portal needs besides its content source.
type NewPortal struct {
	Name       string `json:"name"`
	Type       string `json:"type"`
	Scope      string `json:"scope"`
	CategoryID *int64 `json:"categoryId"`
	// Branch is the branch the new portal opens on (one of the source's, as listed by the
	// branches calls); empty: the source's default branch.
	Branch string `json:"branch,omitempty"`

	upstreamURL string // the git URL of an import, without credentials (kept as the portal's url)
}

func (s *Service) checkNew(ctx context.Context, domainID int64, in *NewPortal) error {
	in.Name = strings.TrimSpace(in.Name)
	if err := validate.Required(in.Name); err != nil {
		return apperr.Validation(err.Error())
	}
	if err := validate.PortalName(in.Name); err != nil {
		return apperr.Validation(err.Error())
	}
	in.Type = strings.ToUpper(in.Type)
	if in.Type == "" {
		in.Type = TypeCrew
	}
	if !slices.Contains(portalTypes, in.Type) {
		return apperr.Validation("The portal type must be Crew or Passenger.")
	}
	in.Scope = strings.ToUpper(in.Scope)
	if in.Scope == "" {
		in.Scope = ScopeFull
	}
	if !slices.Contains(scopes, in.Scope) {
		return apperr.Validation("The scope must be Full, Microsite or Captive.")
	}
	if in.CategoryID != nil {
		ok, err := s.categories.CategoryExists(ctx, domainID, *in.CategoryID)
		if err != nil {
			return err
		}
		if !ok {
			return apperr.NotFound("CATEGORY_NOT_FOUND", "The category does not exist.")
		}
	}
	in.Branch = strings.TrimSpace(in.Branch)
	if in.Branch != "" {
		if err := validate.BranchName(in.Branch); err != nil {
			return apperr.Validation(err.Error())
		}
	}
	return nil
}

// create builds the repository first (staged, outside any transaction: an import can take
// minutes and must not hold the database), then inserts the row and moves the repository
// into place in one transaction, reporting progress as it goes.
//
// retry describes the request for the client's Retry on an error card ({kind, …}); nil when
// the operation cannot be repeated from the card (an import needs the password again).
func (s *Service) create(ctx context.Context, p caller.Caller, domainID int64, in NewPortal, source string, messageType string, retry map[string]any, build func() (*workspace.Staged, error)) (*Portal, error) {
	if err := s.checkNew(ctx, domainID, &in); err != nil {
		return nil, err
	}
	note := notice.Card{ID: messageType + "-" + strconv.FormatInt(domainID, 10) + "-" + in.Name, Title: in.Name, MessageType: messageType, Status: "PROGRESS", Progress: 5, Details: "Creating the portal"}
	s.report(ctx, p.UserID, note)
	var err error
	var staged *workspace.Staged
	if taken, terr := s.store.NameTaken(ctx, domainID, in.Name); terr != nil {
		return nil, terr
	} else if taken {
		err = ErrDuplicate
	} else {
		note.Progress, note.Details = 20, "Copying the content"
		s.report(ctx, p.UserID, note)
		staged, err = build()
	}
	row := &Portal{DomainID: domainID, Name: in.Name, Type: in.Type, Scope: in.Scope, CategoryID: in.CategoryID, Source: source, URL: in.upstreamURL}
	if err == nil {
		defer staged.Discard()
		// The portal opens on the branch asked for, else the repository's default branch (an
		// import's remote HEAD, often main), never on a branch it does not have.
		row.ActiveBranch, err = staged.StartBranch(ctx, in.Branch)
		switch {
		case errors.Is(err, workspace.ErrNoSuchBranch):
			err = apperr.Validation("The branch '" + in.Branch + "' does not exist in the source of the portal.")
		case err != nil:
			err = remoteError("IMPORT_FAILED", "Failed to create portal from remote", err)
		}
	}
	if err == nil {
		note.Progress, note.Details = 90, "Saving the portal"
		s.report(ctx, p.UserID, note)
		err = s.store.Insert(ctx, row, p.UserID, staged.Install)
	}
	if err != nil {
		note.Status, note.Progress = "ERROR", 100
		if retry != nil {
			retry["domainId"], retry["portal"] = domainID, in
			note.Data = map[string]any{"retry": retry}
		}
		if errors.Is(err, ErrDuplicate) {
			note.Details = "A portal with this name already exists in the domain."
			s.report(ctx, p.UserID, note)
			return nil, apperr.Conflict("PORTAL_EXISTS", note.Details)
		}
		note.Details = "Failed to create the portal."
		s.report(ctx, p.UserID, note)
		return nil, err
	}
	note.Status, note.Progress, note.Details, note.Data = "SUCCESS", 100, "Portal created successfully", map[string]int64{"domainId": domainID, "portalId": row.ID}
	s.report(ctx, p.UserID, note)
	s.record(ctx, p, "PORTAL_CREATED", domainID, portalEntity(row.ID), source)
	return s.Portal(ctx, domainID, row.ID)
}

// CreateFromTemplate makes a portal from a template of the domain or a shipped starter.
func (s *Service) CreateFromTemplate(ctx context.Context, p caller.Caller, domainID int64, in NewPortal, templateID int64, starterID string) (*Portal, error) {
	if templateID != 0 {
		t, err := s.templates.Template(ctx, domainID, templateID)
		if errors.Is(err, store.ErrNotFound) {
			return nil, apperr.NotFound("TEMPLATE_NOT_FOUND", "The template does not exist.")
		}
		if err != nil {
			return nil, err
		}
		if t.PortalID != nil {
			src := *t.PortalID
			return s.create(ctx, p, domainID, in, "template:"+strconv.FormatInt(t.ID, 10), "CREATE_PORTAL", map[string]any{"kind": "template", "templateId": t.ID}, func() (*workspace.Staged, error) {
				return s.core.StagePortal(ctx, src)
			})
		}
		starterID = t.Starter
	}
	files, err := s.starters.FS(starterID)
	if err != nil {
		return nil, apperr.NotFound("TEMPLATE_NOT_FOUND", "The template does not exist.")
	}
	return s.create(ctx, p, domainID, in, "template:"+starterID, "CREATE_PORTAL", map[string]any{"kind": "template", "starter": starterID}, func() (*workspace.Staged, error) {
		return s.core.StageFiles(ctx, files, "Create portal '"+in.Name+"' from template '"+starterID+"'", s.author(ctx, p))
	})
}

// CreateFromURL imports a portal from a git URL. The URL is kept as the portal's upstream
// without credentials: a user:password@ in it is used as the credentials instead
// (upstreams.go).
func (s *Service) CreateFromURL(ctx context.Context, p caller.Caller, domainID int64, in NewPortal, url string, creds *workspace.Credentials) (*Portal, error) {
	url = strings.TrimSpace(url)
	if err := validate.GitURL(url); err != nil {
		return nil, apperr.Validation(err.Error())
	}
	if err := s.core.CheckRemote(ctx, url); err != nil { // private hosts (remote_policy.go)
		return nil, refusedRemote(err)
	}
	url, creds = splitCredentials(url, creds)
	in.upstreamURL = url
	pt, err := s.create(ctx, p, domainID, in, "url", "CREATE_PORTAL", nil, func() (*workspace.Staged, error) {
		st, err := s.core.StageURL(ctx, url, creds)
		if err != nil {
			return nil, remoteError("IMPORT_FAILED", "Failed to create portal from remote", err)
		}
		return st, nil
	})
	if err == nil {
		s.guessSettings(ctx, pt, p.UserID)
	}
	if err == nil && s.upstreams != nil {
		s.upstreams.Imported(ctx, pt.ID, creds)
	}
	return pt, err
}

// Clone copies a portal (all branches and history) into a new portal of the domain.
func (s *Service) Clone(ctx context.Context, p caller.Caller, source portalaccess.Portal, in NewPortal) (*Portal, error) {
	domainID, sourceID := source.DomainID(), source.ID()
	pt, err := s.create(ctx, p, domainID, in, "clone:"+strconv.FormatInt(sourceID, 10), "CREATE_PORTAL", map[string]any{"kind": "clone", "sourcePortalId": sourceID}, func() (*workspace.Staged, error) {
		return s.core.StagePortal(ctx, sourceID)
	})
	if err == nil {
		err = s.store.CopyKeptSettings(ctx, sourceID, pt.ID) // the settings kept outside the repository go with it
	}
	return pt, err
}

// remoteError says why a git URL could not be used, in words the user can act on.
func remoteError(code, lead string, err error) error {
	if errors.Is(err, workspace.ErrRemoteRefused) {
		return refusedRemote(err) // the host's address changed between the two checks
	}
	var apiErr *apperr.Error
	if errors.As(err, &apiErr) {
		return err // refused before git ran (e.g. a private address)
	}
	why := "The git server answered with an error. Check the URL and try again."
	var re *workspace.RemoteError
	if errors.As(err, &re) {
		switch re.Failure {
		case workspace.RemoteUnreachable:
			why = "The git server could not be reached. Check the host name in the URL and that the server is online."
		case workspace.RemoteAuth:
			why = "The git server refused the credentials. Check the user name and password (or access token)."
		case workspace.RemoteNotRepository:
			why = "There is no git repository at this URL, or it is private and the credentials given do not open it."
		case workspace.RemoteCorrupt:
			why = "The transfer broke off or the repository on the git server is damaged. Try again; if it persists, ask the repository's owner to check it."
		case workspace.RemoteTimeout:
			why = "The git server took too long to answer and the operation was stopped. Try again later."
		case workspace.RemoteEmpty:
			why = "The repository has no branch: push at least one commit to it first."
		}
	}
	return apperr.BadRequest(code, lead+": "+why).WithCause(err)
}

// SetStatus activates or deactivates a portal, recording the comment.
func (s *Service) SetStatus(ctx context.Context, p caller.Caller, pa portalaccess.Portal, active bool, comment string) (*Portal, error) {
	domainID, portalID := pa.DomainID(), pa.ID()
	status, action := StatusInactive, "PORTAL_DEACTIVATED"
	if active {
		status, action = StatusActive, "PORTAL_ACTIVATED"
	}
	if err := s.store.SetStatus(ctx, domainID, portalID, status); errors.Is(err, store.ErrNotFound) {
		return nil, errPortalNotFound
	} else if err != nil {
		return nil, err
	}
	s.record(ctx, p, action, domainID, portalEntity(portalID), comment)
	return s.Portal(ctx, domainID, portalID)
}

// Delete removes a portal, its repository and every workspace of it.
func (s *Service) Delete(ctx context.Context, p caller.Caller, pa portalaccess.Portal, comment string) error {
	domainID, portalID := pa.DomainID(), pa.ID()
	pt, err := s.Portal(ctx, domainID, portalID)
	if err != nil {
		return err
	}
	if err := s.store.Delete(ctx, domainID, portalID); err != nil {
		return err
	}
	if err := s.core.Delete(ctx, portalID); err != nil {
		return err
	}
	s.record(ctx, p, "PORTAL_DELETED", domainID, portalEntity(portalID), pt.Name+": "+comment)
	return nil
}

func (s *Service) author(ctx context.Context, p caller.Caller) workspace.Author {
	return s.ws.Author(ctx, p)
}

// workspace calls -------------------------------------------------------------------------

// Opened is the answer of opening a portal: its record and the caller's workspace
// (editing.Opened).
type Opened struct {
	Portal *Portal `json:"portal"`
	*editing.Opened
}

// Open makes or refreshes the caller's workspace on a branch (editing.Commits.Open) and
// answers it with the portal's record.
func (s *Service) Open(ctx context.Context, p caller.Caller, pa portalaccess.Portal, branch string, override bool) (*Opened, error) {
	pt, err := s.Checked(ctx, pa)
	if err != nil {
		return nil, err
	}
	o, err := s.ws.Commits().Open(ctx, p, pa, branch, override)
	if err != nil {
		return nil, err
	}
	return &Opened{Portal: pt, Opened: o}, nil
}

// PortalUser is a person of the portal's domain and whether they have a workspace of it.
type PortalUser struct {
	Person
	HasWorkspace bool `json:"hasWorkspace"`
}

// Users marks which of the domain's people have a workspace of the portal.
func (s *Service) Users(pa portalaccess.Portal, people []Person) []PortalUser {
	with := map[int64]bool{}
	for _, u := range s.repos.Workspaces(pa.ID()) {
		with[u] = true
	}
	out := make([]PortalUser, 0, len(people))
	for _, p := range people {
		out = append(out, PortalUser{Person: p, HasWorkspace: with[p.ID]})
	}
	return out
}

// GitURLs lists the git URLs a portal was imported from (GET settings/gitUrls), then the
// caller's own clone URLs (git over SSH, when it is on).
func (s *Service) GitURLs(ctx context.Context, c caller.Caller, pa portalaccess.Portal) ([]string, error) {
	pt, err := s.Checked(ctx, pa)
	if err != nil {
		return nil, err
	}
	urls := []string{}
	if pt.URL != "" {
		urls = append(urls, pt.URL)
	}
	if s.userGitURLs != nil {
		urls = append(urls, s.userGitURLs.UserGitURLs(ctx, c, pa.DomainID(), pa.ID())...)
	}
	return urls, nil
}

func (s *Service) activeBranch(ctx context.Context, portalID int64, recorded string) string {
	branches, err := s.core.Branches(ctx, portalID)
	if err != nil || len(branches) == 0 || slices.Contains(branches, recorded) {
		return recorded
	}
	if b, err := s.core.HeadBranch(ctx, portalID); err == nil && slices.Contains(branches, b) {
		return b
	}
	if slices.Contains(branches, workspace.DefaultBranch) {
		return workspace.DefaultBranch
	}
	return branches[0]
}

// WorkspaceChange is one user's workspace of a portal as others see it (editing).
type WorkspaceChange = editing.WorkspaceChange

// DeleteDomainPortals deletes every portal of a domain being deleted, exactly as the portal
// delete call does: an audit entry (PORTAL_DELETED) per portal, its canonical repository and
// every workspace removed. It answers the names of the portals deleted (access.PortalDeleter).
func (s *Service) DeleteDomainPortals(ctx context.Context, p caller.Caller, domainID int64, domainName string) ([]string, error) {
	list, err := s.Portals(ctx, domainID)
	if err != nil {
		return nil, err
	}
	checker := portalaccess.NewChecker(s)
	var deleted []string
	for _, pt := range list {
		pa, err := checker.Check(ctx, domainID, pt.ID)
		if err == nil {
			err = s.Delete(ctx, p, pa, "deleted with the domain "+domainName)
		}
		var gone *apperr.Error
		if errors.As(err, &gone) && gone.Status == http.StatusNotFound {
			continue // deleted by someone else meanwhile
		}
		if err != nil {
			return deleted, err
		}
		deleted = append(deleted, pt.Name)
	}
	return deleted, nil
}
