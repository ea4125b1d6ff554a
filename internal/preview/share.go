package preview

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/heartbeat"
	"portalwright/internal/notice"
	"portalwright/internal/portalaccess"
	"portalwright/internal/store"
	"portalwright/internal/taskrunner"
	"portalwright/internal/workspace"
	"portalwright/internal/workspace/snapshot"
)

// Shared previews (spec 3 §3 Preview, §4 Previews, §7 Preview): a link that opens a portal on
// the device it is made for, without signing in. The safety rules, each enforced here:
//
//   - The link's token is 32 random bytes (crypto/rand), stored with the preview: it is the
//     only key, so it is unguessable, and one token opens one preview — the domain, portal,
//     type and ref in the link must be the preview's own, so it reaches no other preview or
//     portal. It expires (Config.TTL), and its creator can revoke it (DELETE).
//   - A preview stops working when its portal is no longer active or its creator no longer
//     reads the portal (checked again on every answer, cached for a few seconds).
//   - A locked preview is a snapshot of one commit of the canonical repository in its own
//     folder (snapshot.Snapshots): later commits and uncommitted edits never reach it. A live
//     one reads its creator's workspace on the preview's branch through the workspace file
//     layer; when that workspace is no longer on the branch, it answers 'Can't open live
//     preview' instead of another branch's files.
//   - Portal content is untrusted: every answer carries the preview policy (policy.go), paths
//     go through the asset manager's resolver, and a snapshot larger than
//     Config.MaxSnapshotBytes is refused before anything is written.

// Type is the kind of a preview (spec 3 §3; lookup PreviewType).
type Type string

const (
	Locked   Type = "PORTAL_LOCKED" // a snapshot of a commit; later changes excluded
	Live     Type = "PORTAL_LIVE"   // follows its creator's workspace on the branch
	Loadable Type = "LOADABLE"      // a generated loadable (versionTag, emulator)
)

// Types are the preview types, in the lookup's order.
var Types = []Type{Locked, Live, Loadable}

// Status is where a preview's preparation is.
type Status string

const (
	StatusProgress Status = "PROGRESS"
	StatusReady    Status = "READY"
	StatusFailed   Status = "FAILED"
)

// Progress message types of preview creation (spec 3 §3).
const (
	MessageCreatePreview         = "CREATE_PREVIEW"
	MessageCreateLoadablePreview = "CREATE_LOADABLE_PREVIEW"
)

// ViewPermission is what creating a preview, and keeping it open, needs.
const ViewPermission = "portal:r"

// tokenPrefix marks a preview link token (never a domain id, never another token kind).
const tokenPrefix = "pwv1_"

// Preview is one shared preview (spec 3 §3).
type Preview struct {
	ID         int64             `json:"id"`
	Type       Type              `json:"type"`
	Status     Status            `json:"status"`
	DomainID   int64             `json:"domainId"`
	PortalID   int64             `json:"portalId"`
	DomainName string            `json:"domainName"`
	PortalName string            `json:"portalName"`
	UserID     int64             `json:"userId"`
	Branch     string            `json:"branch"`
	CommitID   string            `json:"commitId"`
	Language   string            `json:"language"`
	Page       string            `json:"page"`
	VersionTag string            `json:"versionTag,omitempty"`
	Emulator   string            `json:"emulator,omitempty"`
	Link       string            `json:"link"` // absolute; empty until READY
	CreatedAt  time.Time         `json:"createdAt"`
	ExpiresAt  time.Time         `json:"expiresAt"`
	Error      *notice.ErrorInfo `json:"error"`

	token string // the link's key; only ever sent inside Link
	base  string // the server's URL the link is made from (not stored: from the request)
	root  string // the served folder inside the preview's tree ("" or the build's output path)
}

// Ref is the link segment that names what the preview shows: the branch (':' for '/') of a
// live preview, the commit of a locked one, the version tag of a loadable.
func (p *Preview) Ref() string {
	switch p.Type {
	case Live:
		return strings.ReplaceAll(p.Branch, "/", ":")
	case Loadable:
		return p.VersionTag
	}
	return p.CommitID
}

// path is the link's path below the API root: /preview/{token}/{domain}/{portal}/{type}/{ref}/.
func (p *Preview) path() string {
	return "/preview/" + p.token + "/" + strconv.FormatInt(p.DomainID, 10) + "/" + strconv.FormatInt(p.PortalID, 10) +
		"/" + string(p.Type) + "/" + url.PathEscape(p.Ref()) + "/"
}

// entry is what the link opens: the portal's index, in the preview's language, on its page.
func (p *Preview) entry() string {
	e := "index.html"
	if p.Language != "" {
		e += "?lang=" + url.QueryEscape(p.Language)
	}
	if p.Page != "" {
		e += "#/" + url.PathEscape(p.Page)
	}
	return e
}

// Tasks brings a user's workspace build of a universal portal up to date (the task runner's
// service): live previews serve it.
type Tasks interface {
	// State is the task runner state of the user's workspace of the portal.
	State(c caller.Caller, pa portalaccess.Portal) taskrunner.State
	// Refresh brings the user's workspace build up to date — waits for a run under way, starts
	// one when the output is stale or was never built — and returns the final state.
	Refresh(ctx context.Context, c caller.Caller, pa portalaccess.Portal, s taskrunner.Settings) (taskrunner.State, error)
	// RebuildStale runs the user's tasks again when their build is not up to date.
	RebuildStale(ctx context.Context, c caller.Caller, pa portalaccess.Portal)
}

// Committed keeps the committer's live preview following the branch (portal.Listener): when
// they have one and their build is not up to date with what they committed (STALE, never
// built, cleared), the tasks run again, Auto run or not, so the live preview's link serves
// the new commit once the run ends (meanwhile the task runner shows the run).
func (s *Shares) Committed(ctx context.Context, pa portalaccess.Portal, by editing.Person, _, _ string) {
	if s.tasks == nil {
		return
	}
	c := caller.Caller{UserID: by.ID}
	if live, err := s.HasLive(ctx, c, pa); err == nil && live {
		s.tasks.RebuildStale(ctx, c, pa)
	}
}

// WorkspaceChanged does nothing: a live preview follows commits, not saves (portal.Listener).
func (s *Shares) WorkspaceChanged(context.Context, portalaccess.Portal, editing.WorkspaceChange) {}

// Config configures the shared previews.
type Config struct {
	// Dir holds the snapshots, one folder per preview id.
	Dir string
	// TTL is how long a link stays valid (DefaultShareTTL when zero).
	TTL time.Duration
	// MaxSnapshotBytes bounds a snapshot (DefaultMaxSnapshotBytes when zero).
	MaxSnapshotBytes int64
	// Keep is how many snapshot previews a user keeps per portal; older ones are removed
	// (DefaultKeep when zero).
	Keep int
	// PublicURL is how phones reach the server (e.g. "https://portals.example.com"); links
	// are made from it. Empty: from the creator's request (its Host, http or https).
	PublicURL string
	// Heartbeat is how often a preparation beats and Watch sweeps for preparations that
	// stopped beating (more than two intervals: FAILED, on any instance); 30 s when zero.
	Heartbeat time.Duration
}

// Defaults of Config.
const (
	DefaultShareTTL         = 72 * time.Hour
	DefaultMaxSnapshotBytes = 2 << 30
	DefaultKeep             = 10
	// resolveTTL is how long the viewer trusts a token's checks (portal active, creator's
	// right) before looking again.
	resolveTTL = 3 * time.Second
)

// Shares creates, lists and serves the shared previews.
type Shares struct {
	cfg      Config
	store    *ShareStore
	ws       *editing.Workspace
	builds   *taskrunner.Builds // commits taken and built (locked previews)
	tasks    Tasks              // nil: universal portals cannot be previewed live (no sandbox)
	progress notice.Publisher
	access   *portalaccess.Checker
	rights   Rights
	log      *slog.Logger
	now      func() time.Time

	ctx    context.Context // cancelled by Close: preparations stop
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	resolved map[string]*resolved // by token
}

// SharesDeps are the parts Shares works with.
type SharesDeps struct {
	Store     *ShareStore
	Workspace *editing.Workspace
	Builds    *taskrunner.Builds
	Tasks     Tasks
	Progress  notice.Publisher
	Access    *portalaccess.Checker
	Rights    Rights
	Log       *slog.Logger
}

// NewShares builds the shared previews.
func NewShares(cfg Config, d SharesDeps) *Shares {
	if cfg.TTL <= 0 {
		cfg.TTL = DefaultShareTTL
	}
	if cfg.MaxSnapshotBytes <= 0 {
		cfg.MaxSnapshotBytes = DefaultMaxSnapshotBytes
	}
	if cfg.Keep <= 0 {
		cfg.Keep = DefaultKeep
	}
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = heartbeat.DefaultInterval
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Shares{cfg: cfg, store: d.Store, ws: d.Workspace, builds: d.Builds, tasks: d.Tasks,
		progress: notice.Or(d.Progress), access: d.Access, rights: d.Rights, log: d.Log, now: time.Now,
		ctx: ctx, cancel: cancel, resolved: map[string]*resolved{}}
}

// WithClock sets the clock (tests).
func (s *Shares) WithClock(now func() time.Time) *Shares { s.now = now; return s }

// Close stops the preparations under way and waits for them.
func (s *Shares) Close() {
	s.cancel()
	s.wg.Wait()
}

// Request asks for a preview.
type Request struct {
	Type     Type   `json:"type"`
	Branch   string `json:"branch"`
	Language string `json:"language"`
	Page     string `json:"page"`
}

var pageID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$`)

// The errors of Create (spec 3 §4, §8; docs/api.md "Previews").
func errInactive() error {
	return apperr.Conflict("PORTAL_INACTIVE", "An inactive portal cannot be previewed.")
}
func errLiveUnavailable(why string) error {
	e := apperr.Conflict("LIVE_PREVIEW_UNAVAILABLE", why+" If the error persists, contact the Domain Administrator.")
	e.Title = "Can't open live preview"
	return e
}
func errLiveUnstable(msg string) error {
	e := apperr.Conflict("LIVE_PREVIEW_UNSTABLE", msg)
	e.Title = "Something went wrong while trying to build your portal"
	return e
}

// Create starts a preview of the caller's portal and returns it: READY at once for a live
// preview of a portal without tasks, otherwise PROGRESS, with CREATE_PREVIEW progress messages
// to the caller's room until it is READY or FAILED. Creating a live preview of a branch again
// gives the same link (a phone keeps working) with a new expiry.
// base is the server's URL the link is made from (BaseURL).
func (s *Shares) Create(ctx context.Context, c caller.Caller, pa portalaccess.Portal, in Request, base string) (*Preview, error) {
	if in.Type != Live && in.Type != Locked {
		if in.Type == Loadable {
			return nil, apperr.BadRequest("INVALID_PREVIEW_TYPE", "A loadable preview is made from a loadable: POST /loadable/{domainId}/{portalId}/preview.")
		}
		return nil, apperr.BadRequest("INVALID_PREVIEW_TYPE", "The preview type must be PORTAL_LIVE or PORTAL_LOCKED.")
	}
	if in.Page != "" && !pageID.MatchString(in.Page) {
		return nil, apperr.BadRequest("INVALID_PAGE", "The page is not a page id of the portal.")
	}
	if !pa.Record().Active {
		return nil, errInactive()
	}
	status, err := s.ws.LocalChanges(ctx, c, pa)
	if err != nil {
		return nil, err
	}
	if in.Branch == "" && status != nil {
		in.Branch = status.Branch
	}
	if in.Branch == "" {
		return nil, apperr.BadRequest("INVALID_BRANCH", "Name the branch to preview.")
	}
	settings, _, err := s.ws.Settings(ctx, c, pa)
	if err != nil {
		return nil, err
	}
	if in.Language != "" && !slices.Contains(settings.LanguageSettings.Languages, in.Language) {
		return nil, apperr.BadRequest("INVALID_LANGUAGE", "The portal has no language "+strconv.Quote(in.Language)+".")
	}
	now := s.now().UTC()
	p := &Preview{Type: in.Type, Status: StatusProgress, DomainID: pa.DomainID(), PortalID: pa.ID(),
		DomainName: pa.DomainName(), PortalName: pa.Name(), UserID: c.UserID, Branch: in.Branch,
		Language: in.Language, Page: in.Page, CreatedAt: now, ExpiresAt: now.Add(s.cfg.TTL), base: base}
	if in.Type == Live {
		return s.createLive(ctx, c, pa, p, status, settings)
	}
	if p.token, err = newToken(); err != nil {
		return nil, err
	}
	if err := s.store.Insert(ctx, p); err != nil {
		return nil, err
	}
	s.prune(ctx, c.UserID, pa.ID())
	s.prepare(p, s.snapshot)
	return s.view(p), nil
}

var versionTagRule = regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z._-]{0,63}$`)

// CreateFromPackage starts a LOADABLE preview of a generated loadable: extract writes the
// package's files into the preview's folder (in the background, with CREATE_LOADABLE_PREVIEW
// progress messages). emulator names the device the link is meant for (recorded).
func (s *Shares) CreateFromPackage(ctx context.Context, c caller.Caller, pa portalaccess.Portal, versionTag, emulator string,
	extract func(dest string) error, r *http.Request) (any, error) {
	if !versionTagRule.MatchString(versionTag) {
		return nil, apperr.BadRequest("INVALID_VERSION_TAG", "The versionTag is not a loadable's version.")
	}
	if len(emulator) > 64 {
		return nil, apperr.BadRequest("INVALID_EMULATOR", "The emulator name is longer than 64 characters.")
	}
	if !pa.Record().Active {
		return nil, errInactive()
	}
	now := s.now().UTC()
	p := &Preview{Type: Loadable, Status: StatusProgress, DomainID: pa.DomainID(), PortalID: pa.ID(),
		DomainName: pa.DomainName(), PortalName: pa.Name(), UserID: c.UserID, VersionTag: versionTag, Emulator: emulator,
		CreatedAt: now, ExpiresAt: now.Add(s.cfg.TTL), base: s.BaseURL(r)}
	var err error
	if p.token, err = newToken(); err != nil {
		return nil, err
	}
	if err := s.store.Insert(ctx, p); err != nil {
		return nil, err
	}
	s.prune(ctx, c.UserID, pa.ID())
	s.prepare(p, func(ctx context.Context, p *Preview, report func(int, string)) error {
		report(30, "Unpacking "+versionTag)
		dir := s.dir(p.ID)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		return extract(dir)
	})
	return s.view(p), nil
}

// createLive checks that the caller's workspace can be shown as it is, then finds or makes the
// live preview of its branch.
func (s *Shares) createLive(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p *Preview, status *workspace.Status, settings editing.Settings) (*Preview, error) {
	if status == nil || status.Branch != p.Branch {
		return nil, errLiveUnavailable("Your workspace of this portal is not on the branch " + strconv.Quote(p.Branch) + ": open the portal on that branch, then try again.")
	}
	tr := taskrunner.Settings(settings.TaskRunnerSettings)
	if tr.Active {
		if s.tasks == nil {
			return nil, errLiveUnavailable("The portal's tasks cannot run on this server.")
		}
		if st := s.tasks.State(c, pa); st.Phase == taskrunner.Unstable {
			msg := "The portal's tasks failed: fix them and run them again."
			if st.Error != nil && st.Error.Message != "" {
				msg = st.Error.Message
			}
			return nil, errLiveUnstable(msg)
		}
		out, err := tr.Output()
		if err != nil {
			return nil, errLiveUnavailable(err.Error())
		}
		p.root = out
	}
	existing, err := s.store.Live(ctx, c.UserID, pa.ID(), p.Branch, p.CreatedAt)
	switch {
	case err == nil:
		existing.Language, existing.Page, existing.ExpiresAt, existing.root = p.Language, p.Page, p.ExpiresAt, p.root
		existing.DomainName, existing.PortalName = p.DomainName, p.PortalName
		existing.Status, existing.Error, existing.base = StatusProgress, nil, p.base
		p = existing
		s.forget(p.token)
	case errors.Is(err, store.ErrNotFound):
		if p.token, err = newToken(); err != nil {
			return nil, err
		}
		if err := s.store.Insert(ctx, p); err != nil {
			return nil, err
		}
	default:
		return nil, err
	}
	if !tr.Active {
		p.Status = StatusReady
		if err := s.store.Update(ctx, p); err != nil {
			return nil, err
		}
		s.report(p, 100, "The preview is ready")
		return s.view(p), nil
	}
	if err := s.store.Update(ctx, p); err != nil {
		return nil, err
	}
	s.prepare(p, func(ctx context.Context, _ *Preview, report func(int, string)) error {
		report(30, "Running the portal's tasks")
		st, err := s.tasks.Refresh(ctx, c, pa, tr)
		if err != nil {
			return err
		}
		if st.Phase != taskrunner.Stable && st.Phase != taskrunner.Stale {
			msg := "The portal's tasks failed."
			if st.Error != nil && st.Error.Message != "" {
				msg = st.Error.Message
			}
			return errLiveUnstable(msg)
		}
		return nil
	})
	return s.view(p), nil
}

// snapshot writes the commit of the preview's branch into the preview's folder and, for a
// portal with tasks, builds it there (the task runner's commit builds, as loadables are).
func (s *Shares) snapshot(ctx context.Context, p *Preview, report func(int, string)) error {
	built, err := s.builds.Commit(ctx, taskrunner.CommitRequest{PortalID: p.PortalID, Ref: p.Branch, MaxBytes: s.cfg.MaxSnapshotBytes,
		Dir: s.dir(p.ID)}, report)
	if err != nil {
		return s.buildFailure(p, err)
	}
	p.CommitID = built.CommitID
	if built.Tasks {
		rel, _ := filepath.Rel(built.Root, built.Content)
		p.root = filepath.ToSlash(rel)
	}
	return nil
}

// buildFailure is a failed build as the preview's API error.
func (s *Shares) buildFailure(p *Preview, err error) error {
	var be *taskrunner.BuildError
	if !errors.As(err, &be) {
		return err
	}
	switch be.Step {
	case taskrunner.StepSnapshot:
		switch {
		case errors.Is(err, snapshot.ErrSnapshotTooLarge):
			return apperr.BadRequest("PREVIEW_TOO_LARGE", fmt.Sprintf("The portal's files are larger than %d MiB: it cannot be previewed.", s.cfg.MaxSnapshotBytes>>20))
		case errors.Is(err, workspace.ErrBranchMissing), errors.Is(err, workspace.ErrUnknownCommit):
			return apperr.NotFound("BRANCH_NOT_FOUND", "The portal has no branch "+strconv.Quote(p.Branch)+".")
		}
		return be.Err
	case taskrunner.StepSettings:
		return apperr.BadRequest("INVALID_SETTINGS", be.Message())
	case taskrunner.StepUnavailable:
		return apperr.NewError(http.StatusServiceUnavailable, "TASK_RUNNER_UNAVAILABLE", "Task runner is unavailable", "The portal's tasks cannot run on this server.")
	default:
		if be.State.Phase == "" { // the run could not start or was cancelled
			return be.Err
		}
		return apperr.BadRequest("PREVIEW_BUILD_FAILED", be.Message())
	}
}

// prepare runs a preview's preparation in the background, reporting its progress; the
// preview ends READY or FAILED (with the error, in the row and on the card).
func (s *Shares) prepare(p *Preview, work func(ctx context.Context, p *Preview, report func(int, string)) error) {
	s.report(p, 5, "Preparing the preview")
	cp := *p
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		p := &cp
		// The heartbeat: other instances' sweeps leave a preparation that beats alone.
		stopBeat := heartbeat.Beat(s.ctx, s.cfg.Heartbeat, func() {
			if err := s.store.Heartbeat(context.Background(), p.ID, s.now().UTC()); err != nil {
				s.log.Warn("preview: heartbeat", "preview", p.ID, "error", err)
			}
		})
		err := work(s.ctx, p, func(pct int, details string) { s.report(p, pct, details) })
		stopBeat()
		bg := context.Background()
		if err != nil {
			var e *apperr.Error
			info := &notice.ErrorInfo{Title: "Failed to generate preview", Message: err.Error()}
			if s.ctx.Err() != nil {
				// The server is stopping (Close): an interruption, not a failure; Retry prepares it.
				stopped := interruptedError
				info = &stopped
			} else if errors.As(err, &e) {
				info.Message = e.Message
				if e.Code == "LIVE_PREVIEW_UNSTABLE" {
					info.Title = e.Title
				}
			} else {
				s.log.Warn("preview: preparation failed", "preview", p.ID, "portal", p.PortalID, "error", err)
			}
			p.Status, p.Error = StatusFailed, info
			if p.Type != Live {
				_ = os.RemoveAll(s.dir(p.ID))
			}
		} else {
			p.Status = StatusReady
		}
		if err := s.store.Update(bg, p); err != nil {
			s.log.Warn("preview: could not save", "preview", p.ID, "error", err)
		}
		s.forget(p.token)
		if p.Status == StatusReady {
			s.report(p, 100, "The preview is ready")
		} else {
			s.report(p, 100, p.Error.Message)
		}
	}()
}

// report sends the preview's progress card to its creator (spec 3 §4: domain and portal
// names, details, open link, retry).
func (s *Shares) report(p *Preview, pct int, details string) {
	status := "PROGRESS"
	switch p.Status {
	case StatusReady:
		status = "SUCCESS"
	case StatusFailed:
		status = "ERROR"
	}
	kind := MessageCreatePreview
	if p.Type == Loadable {
		kind = MessageCreateLoadablePreview
	}
	title := p.PortalName + ": " + map[Type]string{Live: "live preview", Locked: "locked preview", Loadable: "loadable preview"}[p.Type]
	data := map[string]any{"preview": s.view(p), "domainId": p.DomainID, "portalId": p.PortalID,
		"domainName": p.DomainName, "portalName": p.PortalName}
	if p.Type != Loadable {
		data["retry"] = map[string]any{"domainId": p.DomainID, "portalId": p.PortalID, "type": p.Type,
			"branch": p.Branch, "language": p.Language, "page": p.Page}
	}
	s.progress.Progress(context.Background(), p.UserID, notice.Card{
		ID: kind + "-" + strconv.FormatInt(p.ID, 10), Title: title, Details: details, Status: status,
		Progress: pct, MessageType: kind, Data: data})
}

// prune removes the user's snapshot previews of the portal beyond Config.Keep.
func (s *Shares) prune(ctx context.Context, userID, portalID int64) {
	ids, err := s.store.Older(ctx, userID, portalID, s.cfg.Keep)
	if err != nil {
		return
	}
	for _, id := range ids {
		s.remove(ctx, id)
	}
}

// remove deletes a preview's row and folder.
func (s *Shares) remove(ctx context.Context, id int64) {
	if p, err := s.store.Get(ctx, id); err == nil {
		s.forget(p.token)
	}
	if err := s.store.Delete(ctx, id); err != nil {
		s.log.Warn("preview: could not delete", "preview", id, "error", err)
		return
	}
	_ = os.RemoveAll(s.dir(id))
}

// Sweep removes expired previews and the folders of previews that are gone.
func (s *Shares) Sweep(ctx context.Context) {
	ids, err := s.store.Expired(ctx, s.now())
	if err != nil {
		s.log.Warn("preview: sweep", "error", err)
		return
	}
	for _, id := range ids {
		s.remove(ctx, id)
	}
	entries, err := os.ReadDir(s.cfg.Dir)
	if err != nil {
		return
	}
	ids, err = s.store.IDs(ctx)
	if err != nil {
		return
	}
	known := map[int64]bool{}
	for _, id := range ids {
		known[id] = true
	}
	for _, e := range entries {
		id, err := strconv.ParseInt(e.Name(), 10, 64)
		if err == nil && !known[id] {
			_ = os.RemoveAll(filepath.Join(s.cfg.Dir, e.Name()))
		}
	}
}

// interruptedError is what a preview whose preparation stopped beating shows.
var interruptedError = notice.ErrorInfo{Title: "Failed to generate preview",
	Message: "The preview stopped being prepared: the server preparing it stopped or lost contact. Retry to prepare it again."}

// Recover marks FAILED the previews whose preparation stopped beating (its process on this
// host is gone, or no beat for two heartbeat intervals, on any instance), removes their
// folders (a live preview has none) and tells their creators (an ERROR card with Retry).
func (s *Shares) Recover(ctx context.Context) {
	marked, err := s.store.Interrupted(ctx, s.now().UTC(), heartbeat.StaleBeats*s.cfg.Heartbeat, interruptedError)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Warn("preview: recovery sweep", "error", err)
		}
		return
	}
	if len(marked) > 0 {
		s.log.Warn("preview: preparations that stopped beating are marked FAILED", "count", len(marked))
	}
	for _, p := range marked {
		if p.Type != Live {
			_ = os.RemoveAll(s.dir(p.ID))
		}
		s.forget(p.token)
		if pa, err := s.access.Check(ctx, p.DomainID, p.PortalID); err == nil { // a sweep: no request checked it
			p.DomainName, p.PortalName = pa.DomainName(), pa.Name()
		}
		s.report(p, 100, p.Error.Message)
	}
}

// Watch recovers now (at start) and then every heartbeat interval until Close.
func (s *Shares) Watch() {
	s.Recover(s.ctx)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		t := time.NewTicker(s.cfg.Heartbeat)
		defer t.Stop()
		for {
			select {
			case <-s.ctx.Done():
				return
			case <-t.C:
				s.Recover(s.ctx)
			}
		}
	}()
}

// Janitor sweeps now and then every interval until Close.
func (s *Shares) Janitor(interval time.Duration) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			s.Sweep(s.ctx)
			select {
			case <-s.ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
}

func (s *Shares) dir(id int64) string { return filepath.Join(s.cfg.Dir, strconv.FormatInt(id, 10)) }

// own loads one of the caller's previews (another user's is not found: its link is theirs).
func (s *Shares) own(ctx context.Context, c caller.Caller, id int64) (*Preview, error) {
	p, err := s.store.Get(ctx, id)
	if err == nil && (p.UserID == c.UserID || c.Admin) {
		return p, nil
	}
	if err == nil || errors.Is(err, store.ErrNotFound) {
		return nil, apperr.NotFound("PREVIEW_NOT_FOUND", "There is no such preview.")
	}
	return nil, err
}

// Latest is the caller's newest unexpired preview of the portal (of type t when given), or nil.
func (s *Shares) Latest(ctx context.Context, c caller.Caller, pa portalaccess.Portal, t Type, base string) (*Preview, error) {
	if t != "" && !slices.Contains(Types, t) {
		return nil, apperr.BadRequest("INVALID_PREVIEW_TYPE", "The preview type must be one of PORTAL_LOCKED, PORTAL_LIVE, LOADABLE.")
	}
	p, err := s.store.Latest(ctx, c.UserID, pa.ID(), t, s.now())
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	p.base = base
	return s.named(pa, p), nil
}

// Get is one of the caller's previews of the portal.
func (s *Shares) Get(ctx context.Context, c caller.Caller, pa portalaccess.Portal, id int64, base string) (*Preview, error) {
	p, err := s.own(ctx, c, id)
	if err != nil {
		return nil, err
	}
	p.base = base
	if p.PortalID != pa.ID() {
		return nil, apperr.NotFound("PREVIEW_NOT_FOUND", "There is no such preview.")
	}
	return s.named(pa, p), nil
}

// Remove revokes one of the caller's previews of the portal: its link stops working.
func (s *Shares) Remove(ctx context.Context, c caller.Caller, pa portalaccess.Portal, id int64) error {
	if _, err := s.Get(ctx, c, pa, id, ""); err != nil {
		return err
	}
	s.remove(ctx, id)
	return nil
}

// HasLive tells whether the user has an unexpired live preview of the portal (a portal
// without one has its build output cleared on close, spec 3 §4).
func (s *Shares) HasLive(ctx context.Context, c caller.Caller, pa portalaccess.Portal) (bool, error) {
	_, err := s.store.Latest(ctx, c.UserID, pa.ID(), Live, s.now())
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// named fills the portal and domain names of a stored preview of the checked portal.
func (s *Shares) named(pa portalaccess.Portal, p *Preview) *Preview {
	p.PortalName, p.DomainName = pa.Name(), pa.DomainName()
	return s.view(p)
}

// BaseURL is the server's URL for links made in answer to r: Config.PublicURL, else the
// request's own scheme and host (what the creator's browser reached).
func (s *Shares) BaseURL(r *http.Request) string {
	if s.cfg.PublicURL != "" {
		return s.cfg.PublicURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// view is a preview as its creator sees it: with its link once it is ready.
func (s *Shares) view(p *Preview) *Preview {
	cp := *p
	cp.Link = ""
	if cp.Status == StatusReady && cp.token != "" {
		cp.Link = strings.TrimRight(cp.base, "/") + "/api/v1" + cp.path() + cp.entry()
	}
	return &cp
}

func newToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return tokenPrefix + base64.RawURLEncoding.EncodeToString(b), nil
}
