package loadable

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"portalwright/internal/apperr"
	"portalwright/internal/audit"
	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/handover"
	"portalwright/internal/heartbeat"
	"portalwright/internal/notice"
	"portalwright/internal/portalaccess"
	"portalwright/internal/store"
	"portalwright/internal/taskrunner"
	"portalwright/internal/workspace"
	"portalwright/internal/workspace/snapshot"
)

// Repos is what the service needs of the portal repositories (snapshot.Snapshots).
type Repos interface {
	ResolveCommit(ctx context.Context, portalID int64, rev string) (string, error)
	TreeFiles(ctx context.Context, portalID int64, commit string) ([]snapshot.TreeFile, error)
	Snapshot(ctx context.Context, portalID int64, rev string, dest string, maxBytes int64) (string, error)
}

// People names users.
type People = editing.People

// Config configures the service.
type Config struct {
	Dir      string // data/loadables: <portalId>/<loadableId>/<fileName>
	MaxBytes int64  // the largest content of a package (DefaultMaxBytes when zero)
	// Heartbeat is how often a generation beats and the service sweeps for generations that
	// stopped beating (more than two intervals: FAILED, on any instance); 30 s when zero.
	Heartbeat time.Duration
}

// DefaultMaxBytes bounds a package's content.
const DefaultMaxBytes = 4 << 30

// Service makes and decides loadables.
type Service struct {
	cfg      Config
	store    *SQLStore
	repos    Repos
	ws       *editing.Workspace
	builds   *taskrunner.Builds    // commits built as previews build them (no sandbox: portals with tasks cannot be packaged)
	portals  *portalaccess.Checker // the portal of a generation the sweep ends (its names on the card)
	people   People
	progress notice.Publisher
	handover *handover.Service // nil: no hand-over
	gate     ReadinessGate     // nil: approval checks no readiness
	audit    Auditor           // approvals over the readiness gate; nil: not recorded
	log      *slog.Logger
	now      func() time.Time

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// Deps are the parts the service works with.
type Deps struct {
	Store     *SQLStore
	Repos     Repos
	Workspace *editing.Workspace
	Builds    *taskrunner.Builds
	Portals   *portalaccess.Checker
	People    People
	Progress  notice.Publisher
	Log       *slog.Logger
	// Gate is release readiness's approval gate (nil: none); Audit records approvals over it.
	Gate  ReadinessGate
	Audit Auditor
}

// New builds the service and marks the generations a stop cut short as FAILED (with their
// temporary files removed).
func New(ctx context.Context, cfg Config, d Deps) (*Service, error) {
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = DefaultMaxBytes
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	c, cancel := context.WithCancel(context.Background())
	s := &Service{cfg: cfg, store: d.Store, repos: d.Repos, ws: d.Workspace, builds: d.Builds, portals: d.Portals,
		people: d.People, progress: notice.Or(d.Progress), log: d.Log, now: time.Now, ctx: c, cancel: cancel,
		gate: d.Gate, audit: d.Audit}
	if s.cfg.Heartbeat <= 0 {
		s.cfg.Heartbeat = heartbeat.DefaultInterval
	}
	live, err := s.sweep(ctx)
	if err != nil {
		cancel()
		return nil, err
	}
	s.removeLeftovers(live)
	s.wg.Add(1)
	go func() { // every instance sweeps: a generation whose instance died fails within two beats
		defer s.wg.Done()
		t := time.NewTicker(s.cfg.Heartbeat)
		defer t.Stop()
		for {
			select {
			case <-s.ctx.Done():
				return
			case <-t.C:
				if _, err := s.sweep(s.ctx); err != nil && s.ctx.Err() == nil {
					s.log.Warn("loadables: sweep", "error", err)
				}
			}
		}
	}()
	return s, nil
}

// sweep marks FAILED the generations that stopped beating (their process on this host is
// gone, or no beat for two intervals), tells their creators (an ERROR card with Retry) and
// returns the ids still generating.
func (s *Service) sweep(ctx context.Context) (map[int64]bool, error) {
	marked, live, err := s.store.Interrupted(ctx, s.now(), heartbeat.StaleBeats*s.cfg.Heartbeat)
	if err != nil {
		return nil, err
	}
	if len(marked) > 0 {
		s.log.Warn("loadables: generations that stopped beating are marked FAILED", "count", len(marked))
	}
	for _, l := range marked {
		_ = os.RemoveAll(filepath.Dir(s.archivePath(l)))
		_ = os.RemoveAll(filepath.Join(s.cfg.Dir, strconv.FormatInt(l.PortalID, 10), ".work-"+strconv.FormatInt(l.ID, 10)))
		c := card{s: s, l: l}
		c.userID = l.CreatedBy.ID
		if s.portals != nil {
			if pa, err := s.portals.Check(ctx, l.DomainID, l.PortalID); err == nil {
				c.portalName, c.domainName = pa.Name(), pa.DomainName()
			}
		}
		msg := "The generation stopped: generate it again."
		if l.Error != nil {
			msg = l.Error.Message
		}
		c.report(100, msg)
	}
	return live, nil
}

// Close stops the generations under way (they end FAILED, LOADABLE_INTERRUPTED: Retry
// generates them again) and waits for them.
func (s *Service) Close() {
	s.cancel()
	s.wg.Wait()
}

// removeLeftovers deletes the work folders and temporary archives of generations that no
// longer run (live: those another instance is still running, left alone).
func (s *Service) removeLeftovers(live map[int64]bool) {
	portals, _ := os.ReadDir(s.cfg.Dir)
	for _, p := range portals {
		items, _ := os.ReadDir(filepath.Join(s.cfg.Dir, p.Name()))
		for _, it := range items {
			full := filepath.Join(s.cfg.Dir, p.Name(), it.Name())
			id, _ := strconv.ParseInt(strings.TrimPrefix(it.Name(), ".work-"), 10, 64)
			if live[id] {
				continue
			}
			if strings.HasPrefix(it.Name(), ".work-") {
				_ = os.RemoveAll(full)
				continue
			}
			files, _ := os.ReadDir(full)
			for _, f := range files {
				if strings.HasSuffix(f.Name(), ".tmp") {
					_ = os.Remove(filepath.Join(full, f.Name()))
				}
			}
		}
	}
}

var errNameTaken = apperr.Conflict("LOADABLE_NAME_TAKEN", "The portal already has a loadable of that name.")

func notFound() error { return apperr.NotFound("LOADABLE_NOT_FOUND", "There is no such loadable.") }

// universal refuses portals whose engine is not UNIVERSAL (spec 3 §2: loadables are for those).
func (s *Service) universal(ctx context.Context, c caller.Caller, pa portalaccess.Portal) error {
	st, _, err := s.ws.Settings(ctx, c, pa)
	if err != nil {
		return err
	}
	if st.EngineType != "UNIVERSAL" {
		return apperr.Conflict("NOT_UNIVERSAL", "Loadables are made of universal portals only.")
	}
	return nil
}

// resolve names the commit of a branch, tag or commit id.
func (s *Service) resolve(ctx context.Context, pa portalaccess.Portal, ref string) (string, error) {
	commit, err := s.repos.ResolveCommit(ctx, pa.ID(), ref)
	if errors.Is(err, workspace.ErrBranchMissing) || errors.Is(err, workspace.ErrUnknownCommit) {
		return "", apperr.NotFound("GIT_REF_NOT_FOUND", "The portal has no branch, tag or commit "+strconv.Quote(ref)+".")
	}
	return commit, err
}

// GitValidation is the answer of gitvalidation.
type GitValidation struct {
	Valid    bool     `json:"valid"`
	Branch   string   `json:"branch"`
	CommitID string   `json:"commitId"`
	Warnings []string `json:"ruleWarnings"`
	Message  string   `json:"message"`
}

// ValidateRef checks that a loadable can be built from ref: the portal is universal, the ref
// names a commit, and the caller has no uncommitted or unpushed work on it (what is built is
// what is committed; the warnings say what would be left out).
func (s *Service) ValidateRef(ctx context.Context, c caller.Caller, pa portalaccess.Portal, payload, ref string) (*GitValidation, error) {
	if err := s.universal(ctx, c, pa); err != nil {
		return nil, err
	}
	if payload != "" && !slices.Contains(PayloadTypes, payload) {
		return nil, apperr.BadRequest("INVALID_PAYLOAD_TYPE", msgType)
	}
	if strings.TrimSpace(ref) == "" {
		return nil, apperr.BadRequest("INVALID_GIT_REF", msgGitRefNone)
	}
	v := &GitValidation{Branch: ref, Warnings: []string{}}
	commit, err := s.resolve(ctx, pa, ref)
	if err != nil {
		var e *apperr.Error
		if errors.As(err, &e) && e.Status == 404 {
			v.Message = e.Message
			return v, nil
		}
		return nil, err
	}
	v.Valid, v.CommitID = true, commit
	if st, err := s.ws.LocalChanges(ctx, c, pa); err == nil && st != nil && st.Branch == ref {
		if st.HasChanges() {
			v.Warnings = append(v.Warnings, fmt.Sprintf("You have %d uncommitted changes on %s: they are not part of the loadable.", len(st.Changes), ref))
		}
		if st.Ahead > 0 {
			v.Warnings = append(v.Warnings, fmt.Sprintf("You have %d commits on %s that are not on the portal's branch yet: they are not part of the loadable.", st.Ahead, ref))
		}
	}
	v.Message = "The loadable will be built from commit " + commit[:12] + "."
	return v, nil
}

// statement is the copyright statement the creator accepts.
const statement = "I confirm that the content of this portal at the chosen commit — its texts, images, videos, fonts and documents — may be packaged and distributed to the aircraft, and that the rights to it have been cleared."

// mediaExt are the asset files the copyright step lists.
var mediaExt = []string{".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".mp4", ".webm", ".mp3", ".pdf", ".woff", ".woff2", ".ttf", ".otf"}

// CopyrightFor is the copyright step of the wizard: the statement and the media files of the
// commit it covers; metaData.ipAddress is the caller's address (from the request).
func (s *Service) CopyrightFor(ctx context.Context, c caller.Caller, pa portalaccess.Portal, payload, ref, ip string) (*Copyright, error) {
	if err := s.universal(ctx, c, pa); err != nil {
		return nil, err
	}
	commit, err := s.resolve(ctx, pa, ref)
	if err != nil {
		return nil, err
	}
	files, err := s.repos.TreeFiles(ctx, pa.ID(), commit)
	if err != nil {
		return nil, err
	}
	out := &Copyright{Statement: statement, Assets: []Asset{}, MetaData: CopyrightMeta{IPAddress: ip}}
	for _, f := range files {
		if slices.Contains(mediaExt, strings.ToLower(path.Ext(f.Path))) && len(out.Assets) < 5000 {
			out.Assets = append(out.Assets, Asset{Path: f.Path, Size: f.Size})
		}
	}
	return out, nil
}

// Create stores a loadable request (PENDING): the rules checked, the copyright accepted (by
// the caller, from ip), the ref resolved to its commit, the next version of its prefix.
func (s *Service) Create(ctx context.Context, c caller.Caller, pa portalaccess.Portal, in Request, ip string) (*Loadable, error) {
	if err := in.Check(); err != nil {
		return nil, err
	}
	if err := s.universal(ctx, c, pa); err != nil {
		return nil, err
	}
	commit, err := s.resolve(ctx, pa, in.GitRef)
	if err != nil {
		return nil, err
	}
	now := s.now().UTC()
	l := &Loadable{DomainID: pa.DomainID(), PortalID: pa.ID(), Name: in.Name, PartNumber: in.PartNumber,
		VersionPrefix: in.VersionPrefix, Type: in.Type, GitRef: in.GitRef, CommitID: commit, Status: Pending,
		CreatedBy: Person{ID: c.UserID}, CreatedAt: now,
		// The assets are not kept (spec 3 §3: removed before sending).
		Copyright: Copyright{Statement: statement, MetaData: CopyrightMeta{Accept: true, IPAddress: ip},
			Accepted: &AcceptedBy{User: Person{ID: c.UserID, UserName: c.Username}, At: now, IP: ip}}}
	if err := s.store.Insert(ctx, l); err != nil {
		if errors.Is(err, errNameTaken) {
			return nil, errNameTaken
		}
		return nil, err
	}
	s.changed(l, "CREATED", c.UserID)
	return s.named(ctx, l), nil
}

// SuggestName is the answer of generateName: a free name for the portal's next loadable.
func (s *Service) SuggestName(ctx context.Context, pa portalaccess.Portal, contentType string) (string, error) {
	if contentType != "" && !slices.Contains(PayloadTypes, contentType) {
		return "", apperr.BadRequest("INVALID_PAYLOAD_TYPE", msgType)
	}
	return SuggestName(pa.Name(), contentType, s.now(), func(n string) bool { return s.store.NameTaken(ctx, pa.ID(), n) }), nil
}

// List is the portal's loadables, newest first.
func (s *Service) List(ctx context.Context, pa portalaccess.Portal) ([]*Loadable, error) {
	list, err := s.store.List(ctx, pa.ID())
	if err != nil {
		return nil, err
	}
	for _, l := range list {
		s.named(ctx, l)
	}
	return list, nil
}

// Latest is the newest package of each payload type that was generated (and not rejected).
func (s *Service) Latest(ctx context.Context, pa portalaccess.Portal) ([]*Loadable, error) {
	list, err := s.List(ctx, pa)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	out := []*Loadable{}
	for _, l := range list {
		if (l.Status == Generated || l.Status == Approved) && !seen[l.Type] {
			seen[l.Type] = true
			out = append(out, l)
		}
	}
	return out, nil
}

// Get is one loadable of the portal.
func (s *Service) Get(ctx context.Context, pa portalaccess.Portal, id int64) (*Loadable, error) {
	l, err := s.store.Get(ctx, pa.ID(), id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, notFound()
	}
	if err != nil {
		return nil, err
	}
	return s.named(ctx, l), nil
}

// named fills the user names of a record.
func (s *Service) named(ctx context.Context, l *Loadable) *Loadable {
	if s.people == nil {
		return l
	}
	for _, p := range []*Person{&l.CreatedBy, l.ApprovedBy, l.RejectedBy} {
		if p == nil {
			continue
		}
		if who, err := s.people.Person(ctx, p.ID); err == nil {
			p.UserName = who.UserName
		}
	}
	return l
}

// archivePath is where a loadable's package lives.
func (s *Service) archivePath(l *Loadable) string {
	return filepath.Join(s.cfg.Dir, strconv.FormatInt(l.PortalID, 10), strconv.FormatInt(l.ID, 10), l.FileName)
}

// Generate starts building a PENDING or FAILED loadable's package and returns it GENERATING;
// GENERATE_LOADABLE progress messages follow it to GENERATED or FAILED.
func (s *Service) Generate(ctx context.Context, c caller.Caller, pa portalaccess.Portal, id int64) (*Loadable, error) {
	l, err := s.Get(ctx, pa, id)
	if err != nil {
		return nil, err
	}
	l.Error, l.Output = nil, ""
	beat := s.now().UTC()
	l.GeneratedAt = &beat // the heartbeat while GENERATING (see SQLStore.Heartbeat)
	ok, err := s.store.Transition(ctx, l, []Status{Pending, Failed}, Generating)
	l.GeneratedAt = nil
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, apperr.Conflict("LOADABLE_NOT_GENERATABLE", "Only a new or failed loadable can be generated; this one is "+string(l.Status)+".")
	}
	card := card{s: s, l: l, userID: c.UserID, portalName: pa.Name(), domainName: pa.DomainName()}
	card.report(5, "Preparing the package")
	s.changed(l, "GENERATING", c.UserID)
	cp := *l
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.generate(&cp, card)
	}()
	return l, nil
}

// generate builds the package; the record ends GENERATED or FAILED, the archive whole or absent.
func (s *Service) generate(l *Loadable, card card) {
	ctx := s.ctx
	// The heartbeat: other instances starting meanwhile leave a generation that beats alone.
	stopBeat := heartbeat.Beat(ctx, s.cfg.Heartbeat, func() {
		if err := s.store.Heartbeat(context.Background(), l.ID, s.now().UTC()); err != nil {
			s.log.Warn("loadables: heartbeat", "loadable", l.ID, "error", err)
		}
	})
	defer stopBeat()
	work := filepath.Join(s.cfg.Dir, strconv.FormatInt(l.PortalID, 10), ".work-"+strconv.FormatInt(l.ID, 10))
	defer os.RemoveAll(work)
	fail := func(info notice.ErrorInfo) {
		if s.ctx.Err() != nil { // the server is stopping (Close): the build or packing was cut short
			info = interrupted
		}
		stopBeat()
		l.Error, l.Output, l.GeneratedAt = &info, info.Output, nil
		_ = os.RemoveAll(filepath.Dir(s.archivePath(l)))
		if _, err := s.store.Transition(context.Background(), l, []Status{Generating}, Failed); err != nil {
			s.log.Warn("loadables: could not save a failure", "loadable", l.ID, "error", err)
		}
		card.l = l
		card.report(100, info.Message)
	}
	_ = os.RemoveAll(work)
	started := time.Now()
	built, err := s.builds.Commit(ctx, taskrunner.CommitRequest{PortalID: l.PortalID, Ref: l.CommitID, MaxBytes: s.cfg.MaxBytes,
		Dir: filepath.Join(work, "snapshot"), Disposable: true}, func(pct int, details string) { card.report(15+pct/2, details) })
	if err != nil {
		fail(buildFailure(err))
		return
	}
	defer built.Remove()
	tBuild := time.Since(started)
	content := built.Content
	card.report(70, "Packing the files")
	sum, size, err := s.writeArchive(l, content)
	if err != nil {
		fail(notice.ErrorInfo{Title: "Failed to generate loadable", Message: err.Error(), Code: "LOADABLE_PACK_FAILED"})
		return
	}
	stopBeat()
	now := s.now().UTC()
	l.SHA256, l.Size, l.GeneratedAt = sum, size, &now
	ok, err := s.store.Transition(context.Background(), l, []Status{Generating}, Generated)
	if err != nil || !ok {
		_ = os.RemoveAll(filepath.Dir(s.archivePath(l)))
		s.log.Warn("loadables: could not record a generated package", "loadable", l.ID, "error", err)
		return
	}
	s.log.Info("loadable generated", "loadable", l.ID, "portal", l.PortalID, "bytes", size,
		"build", tBuild.Round(time.Millisecond), "pack", (time.Since(started) - tBuild).Round(time.Millisecond))
	card.l = l
	card.report(100, "The loadable "+l.Name+" "+l.Version+" is ready for approval")
}

// buildFailure is a failed build as the loadable keeps it: its code and message, and for the
// tasks the tail of their output.
func buildFailure(err error) notice.ErrorInfo {
	const title = "Failed to generate loadable"
	var be *taskrunner.BuildError
	if !errors.As(err, &be) {
		return notice.ErrorInfo{Title: title, Message: err.Error(), Code: "LOADABLE_SNAPSHOT_FAILED"}
	}
	switch be.Step {
	case taskrunner.StepSnapshot:
		return notice.ErrorInfo{Title: title, Message: "The commit could not be taken: " + be.Message(), Code: "LOADABLE_SNAPSHOT_FAILED"}
	case taskrunner.StepSettings:
		return notice.ErrorInfo{Title: title, Message: be.Message(), Code: "INVALID_SETTINGS"}
	case taskrunner.StepUnavailable:
		return notice.ErrorInfo{Title: title, Message: be.Message(), Code: "TASK_RUNNER_UNAVAILABLE"}
	default: // the tasks failed or wrote no output folder
		return notice.ErrorInfo{Title: title, Message: be.Message(), Code: ErrorCodeMakeload, Output: be.State.Output}
	}
}

// writeArchive packs content into the loadable's archive: a temporary file, synced, renamed.
func (s *Service) writeArchive(l *Loadable, content string) (string, int64, error) {
	final := s.archivePath(l)
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return "", 0, err
	}
	tmp := final + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return "", 0, err
	}
	h := sha256.New()
	cw := &countWriter{w: io.MultiWriter(f, h)}
	_, err = Write(cw, content, l.CommitID, s.cfg.MaxBytes)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && s.ctx.Err() != nil {
		err = errors.New("the server is stopping")
	}
	if err == nil {
		err = os.Rename(tmp, final)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), cw.n, nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// checkArchive re-hashes a loadable's package against its record: what is approved and
// handed over is what was generated.
func (s *Service) checkArchive(l *Loadable) error {
	sum, _, err := hashFile(s.archivePath(l))
	if err != nil {
		return apperr.Conflict("LOADABLE_MISSING", "The loadable's package is missing: generate a new loadable.")
	}
	if sum != l.SHA256 {
		return apperr.Conflict("LOADABLE_TAMPERED", "The loadable's package changed after it was generated: it cannot be approved or handed over.")
	}
	return nil
}

// ReadinessGate is what approval needs of release readiness (internal/readiness, wired in
// internal/app): whether the portal's gate is on and, when it is, the readiness of a commit —
// its errors that are not ignored and its summary (shown to the approver).
type ReadinessGate interface {
	ApprovalGate(ctx context.Context, pa portalaccess.Portal, commitID string) (on bool, errors int, summary any, err error)
}

// Auditor records what an approver did (the audit history).
type Auditor interface {
	Record(ctx context.Context, e audit.Entry)
}

// CodeReadinessErrors is the refusal of an approval by the readiness gate.
const CodeReadinessErrors = "READINESS_ERRORS"

// maxOverrideReason bounds the reason of an approval over the readiness gate, and of a rejection.
const maxOverrideReason = 1000

// Approve approves a GENERATED loadable (loadable approval; the creator too may hold it).
// When the portal's readiness gate is on and the loadable's commit has readiness errors, it
// is refused (409 READINESS_ERRORS with the commit's summary) unless overrideReason says why
// it is approved anyway; the reason and the error count are then kept on the loadable and in
// the audit history.
func (s *Service) Approve(ctx context.Context, c caller.Caller, pa portalaccess.Portal, id int64, overrideReason string) (*Loadable, error) {
	reason := strings.TrimSpace(overrideReason)
	if utf8.RuneCountInString(reason) > maxOverrideReason {
		return nil, apperr.BadRequest("INVALID_REASON", "The reason is longer than 1000 characters.")
	}
	l, err := s.Get(ctx, pa, id)
	if err != nil {
		return nil, err
	}
	if l.Status != Generated {
		return nil, apperr.Conflict("LOADABLE_NOT_APPROVABLE", "Only a generated loadable can be approved; this one is "+string(l.Status)+".")
	}
	if err := s.checkArchive(l); err != nil {
		return nil, err
	}
	var override *ApprovalOverride
	if s.gate != nil {
		on, errs, summary, err := s.gate.ApprovalGate(ctx, pa, l.CommitID)
		if err != nil {
			return nil, err
		}
		if on && errs > 0 {
			if reason == "" {
				return nil, apperr.Conflict(CodeReadinessErrors, fmt.Sprintf("The commit of this loadable has %d readiness error(s). "+
					"Fix them, or approve with a reason to override the check.", errs)).WithData(map[string]any{"summary": summary})
			}
			override = &ApprovalOverride{Reason: reason, Errors: errs}
		}
	}
	now := s.now().UTC()
	l.ApprovedBy, l.DecidedAt, l.ApprovalOverride = &Person{ID: c.UserID}, &now, override
	if ok, err := s.store.Transition(ctx, l, []Status{Generated}, Approved); err != nil {
		return nil, err
	} else if !ok {
		return nil, apperr.Conflict("LOADABLE_NOT_APPROVABLE", "The loadable was decided by someone else meanwhile.")
	}
	if override != nil && s.audit != nil {
		actor, domain := c.UserID, pa.DomainID()
		s.audit.Record(ctx, audit.Entry{Action: ActionApprovedOverReadiness, Category: "PORTAL", ActorID: &actor, ActorName: c.Username,
			DomainID: &domain, EntityType: "LOADABLE", EntityID: strconv.FormatInt(l.ID, 10),
			Details: fmt.Sprintf("Loadable %s %s of %s (commit %s) approved over %d readiness error(s). Reason: %s",
				l.Name, l.Version, pa.Name(), shortCommit(l.CommitID), override.Errors, override.Reason)})
	}
	s.changed(l, "APPROVED", c.UserID)
	return s.Get(ctx, pa, id)
}

// ActionApprovedOverReadiness is the audit action of an approval over the readiness gate.
const ActionApprovedOverReadiness = "LOADABLE_APPROVED_OVER_READINESS"

func shortCommit(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// Reject rejects a GENERATED or APPROVED loadable: it is never handed over.
func (s *Service) Reject(ctx context.Context, c caller.Caller, pa portalaccess.Portal, id int64, reason string) (*Loadable, error) {
	l, err := s.Get(ctx, pa, id)
	if err != nil {
		return nil, err
	}
	if utf8.RuneCountInString(strings.TrimSpace(reason)) > maxOverrideReason { // characters, as the browser counts them
		return nil, apperr.BadRequest("INVALID_REASON", "The reason is longer than 1000 characters.")
	}
	now := s.now().UTC()
	l.RejectedBy, l.DecidedAt, l.RejectReason = &Person{ID: c.UserID}, &now, strings.TrimSpace(reason)
	if ok, err := s.store.Transition(ctx, l, []Status{Generated, Approved}, Rejected); err != nil {
		return nil, err
	} else if !ok {
		return nil, apperr.Conflict("LOADABLE_NOT_REJECTABLE", "Only a generated or approved loadable can be rejected; this one is "+string(l.Status)+".")
	}
	s.changed(l, "REJECTED", c.UserID)
	return s.Get(ctx, pa, id)
}

// Open opens a loadable's package by file name for download (any loadable with a package).
func (s *Service) Open(ctx context.Context, pa portalaccess.Portal, fileName string) (*Loadable, *os.File, error) {
	l, err := s.store.ByFileName(ctx, pa.ID(), fileName)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, apperr.NotFound("LOADABLE_NOT_FOUND", "Could not download loadable")
	}
	if err != nil {
		return nil, nil, err
	}
	if l.SHA256 == "" {
		return nil, nil, apperr.Conflict("LOADABLE_NOT_GENERATED", "The loadable has no package yet.")
	}
	f, err := os.Open(s.archivePath(l))
	if err != nil {
		return nil, nil, apperr.NotFound("LOADABLE_MISSING", "Could not download loadable")
	}
	return l, f, nil
}

// Package opens a generated loadable's package by version (a loadable preview's versionTag),
// checked against its record.
func (s *Service) Package(ctx context.Context, pa portalaccess.Portal, version string) (*Loadable, *os.File, error) {
	l, err := s.store.ByVersion(ctx, pa.ID(), version)
	if errors.Is(err, store.ErrNotFound) || (err == nil && l.SHA256 == "") {
		return nil, nil, apperr.NotFound("LOADABLE_NOT_FOUND", "There is no generated loadable of version "+strconv.Quote(version)+".")
	}
	if err != nil {
		return nil, nil, err
	}
	if err := s.checkArchive(l); err != nil {
		return nil, nil, err
	}
	f, err := os.Open(s.archivePath(l))
	return l, f, err
}

// EventChanged is the portal-room message (LOADABLE_CHANGED) after a loadable is created,
// starts or ends generating, or is decided: open Manage Loadables lists refresh on it.
const EventChanged = "LOADABLE_CHANGED"

// Change is the data of a LOADABLE_CHANGED message.
type Change struct {
	DomainID   int64  `json:"domainId"`
	PortalID   int64  `json:"portalId"`
	LoadableID int64  `json:"loadableId"`
	Status     Status `json:"status"`
	Action     string `json:"action"` // CREATED, GENERATING, GENERATED, FAILED, APPROVED, REJECTED
	UserID     int64  `json:"userId"` // who did it (0: the server, e.g. a generation's end)
}

// changed publishes LOADABLE_CHANGED to the portal's room.
func (s *Service) changed(l *Loadable, action string, userID int64) {
	if l == nil {
		return
	}
	s.progress.Publish(context.Background(), notice.Portal(l.PortalID), EventChanged, Change{DomainID: l.DomainID, PortalID: l.PortalID,
		LoadableID: l.ID, Status: l.Status, Action: action, UserID: userID})
}

// card reports a generation's progress to its creator (GENERATE_LOADABLE, spec 3 §3).
type card struct {
	s                      *Service
	l                      *Loadable
	userID                 int64
	portalName, domainName string
}

func (c card) report(pct int, details string) {
	status := "PROGRESS"
	switch c.l.Status {
	case Generated:
		status = "SUCCESS"
	case Failed:
		status = "ERROR"
	}
	view := *c.l
	if status != "PROGRESS" {
		c.s.changed(c.l, string(c.l.Status), 0)
	}
	c.s.progress.Progress(context.Background(), c.userID, notice.Card{
		ID: "GENERATE_LOADABLE-" + strconv.FormatInt(c.l.ID, 10), Title: c.l.Name + " " + c.l.Version, Details: details,
		Status: status, Progress: pct, MessageType: "GENERATE_LOADABLE",
		Data: map[string]any{"loadable": &view, "loadableId": c.l.ID, "domainId": c.l.DomainID, "portalId": c.l.PortalID,
			"domainName": c.domainName, "portalName": c.portalName}})
}
