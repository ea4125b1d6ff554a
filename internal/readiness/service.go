// Package readiness is release readiness on the server (issue 29, docs/readiness.md): the
// engine's findings (internal/check) for the caller's workspace, kept live as authors save,
// for one commit of the portal (cached by its id), other authors' findings in what they have
// not committed, ignoring a finding with a reason (readiness.json), the portal's readiness
// settings, and the approval gate loadables ask (ApprovalGate).
//
// Workspace indexes live in memory, one per (user, portal), on the instance that serves the
// user: a save refreshes its author's index (only the files whose version changed are read
// again) after the save has answered, and READINESS_CHANGED goes to the portal's room through
// the notice outlet, so the clients of every instance hear it. An instance that holds no
// index for a workspace builds one on its first request.
package readiness

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"

	"portalwright/internal/audit"
	"portalwright/internal/caller"
	"portalwright/internal/check"
	"portalwright/internal/editing"
	"portalwright/internal/notice"
	"portalwright/internal/portalaccess"
	"portalwright/internal/store"
)

// EventChanged is the title of the portal room's message after a user's workspace was checked
// again (Event).
const EventChanged = "READINESS_CHANGED"

// Bounds of what the service keeps in memory.
const (
	// MaxWorkspaces is how many workspace indexes an instance keeps (least recently used
	// first out); a workspace without one is indexed again on its next request.
	MaxWorkspaces = 32
	// MaxCommits is how many commit reports an instance keeps.
	MaxCommits = 64
	// maxEventFindings bounds each list of an event (the rest is in the report).
	maxEventFindings = 500
	// backgroundChecks is how many workspaces are checked at once after saves.
	backgroundChecks = 2
	// progressAfter is how long a first check runs before its author gets a progress card.
	progressAfter = time.Second
	// freshFor is how long a workspace's report answers requests without listing the tree
	// again, while no write was announced (a change made outside the product's calls shows
	// after at most this long).
	freshFor = 10 * time.Second
	// commitTimeout bounds one commit's check.
	commitTimeout = 10 * time.Minute
)

// Report is a check's result: the engine's report with where it comes from and when it ran
// (web/src/api/readiness.ts ReadinessReport).
type Report struct {
	Source   string `json:"source"` // SourceWorkspace or SourceCommit
	Branch   string `json:"branch"`
	CommitID string `json:"commitId"` // the commit checked, or the one the workspace is on
	check.Report
	CheckedAt  time.Time `json:"checkedAt"`
	DurationMs int64     `json:"durationMs"`
}

// Sources of a report.
const (
	SourceWorkspace = "workspace"
	SourceCommit    = "commit"
)

// Event is READINESS_CHANGED's data: a user's workspace was checked again.
type Event struct {
	DomainID int64          `json:"domainId"`
	PortalID int64          `json:"portalId"`
	User     editing.Person `json:"user"`
	Branch   string         `json:"branch"`
	// Summary counts the user's whole workspace.
	Summary check.Summary `json:"summary"`
	// Added and Removed are what this change introduced and resolved.
	Added   []check.Finding `json:"added"`
	Removed []check.Finding `json:"removed"`
	// Findings are the user's findings in the files they changed and have not committed.
	Findings []check.Finding `json:"findings"`
	// Truncated is set when a list was cut at maxEventFindings (GET the report for all).
	Truncated bool `json:"truncated,omitempty"`
}

// Others is another author's findings in the files they changed and have not committed
// (web/src/api/readiness.ts OthersReadiness); Summary counts those findings.
type Others struct {
	User     editing.Person  `json:"user"`
	Branch   string          `json:"branch"`
	Summary  check.Summary   `json:"summary"`
	Findings []check.Finding `json:"findings"`
}

// Auditor records changes of the gate in the audit history.
type Auditor interface {
	Record(ctx context.Context, e audit.Entry)
}

// Deps are what the service works with.
type Deps struct {
	Workspace *editing.Workspace
	People    editing.People
	Notices   notice.Publisher
	DB        *store.DB
	Audit     Auditor // nil: gate changes are not recorded
	Log       *slog.Logger
	// KeptSettings are an imported portal's settings kept outside its tree (nil, nil: the
	// portal's settings are its portal.json); a commit's check reads them as its portal.json.
	KeptSettings func(ctx context.Context, portalID int64) (*editing.Settings, error)
}

// Service is release readiness: workspace indexes, commit reports, ignores, settings, the gate.
type Service struct {
	ws     *editing.Workspace
	kept   func(ctx context.Context, portalID int64) (*editing.Settings, error)
	people editing.People
	notify notice.Publisher
	gates  gateStore
	audit  Auditor
	log    *slog.Logger
	now    func() time.Time

	mu         sync.Mutex
	workspaces *lru[wsKey, *wsIndex]
	commits    *lru[commitKey, *Report]
	flights    singleflight.Group // one check per commit at a time
	commitRuns atomic.Int64

	work          chan struct{} // background checks under way (bounded)
	progressAfter time.Duration
	ctx           context.Context // background checks; Close cancels it
	cancel        context.CancelFunc
	wg            sync.WaitGroup
}

// New builds the service.
func New(d Deps) *Service {
	if d.Log == nil {
		d.Log = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Service{ws: d.Workspace, kept: d.KeptSettings, people: d.People, notify: notice.Or(d.Notices), gates: gateStore{db: d.DB}, audit: d.Audit,
		log: d.Log, now: func() time.Time { return time.Now().UTC() },
		workspaces: newLRU[wsKey, *wsIndex](MaxWorkspaces), commits: newLRU[commitKey, *Report](MaxCommits),
		work: make(chan struct{}, backgroundChecks), progressAfter: progressAfter, ctx: ctx, cancel: cancel}
}

// Close stops the background checks and waits for them.
func (s *Service) Close() {
	s.cancel()
	s.wg.Wait()
}

type wsKey struct{ userID, portalID int64 }

type commitKey struct {
	portalID int64
	commit   string
	settings string // the kept settings the commit was checked with (their hash; "" for none)
}

// Workspace is the report of the caller's workspace; path keeps one file's findings. The last
// report answers while no write was announced since its check began and it is younger than
// freshFor (editors ask for their file's findings on every open); otherwise the workspace is
// checked again for what changed (everything the first time).
func (s *Service) Workspace(ctx context.Context, c caller.Caller, pa portalaccess.Portal, path string) (*Report, error) {
	w := s.index(wsKey{c.UserID, pa.ID()})
	rep, err := s.current(ctx, c, pa, w)
	if err != nil {
		return nil, err
	}
	if path = strings.TrimPrefix(strings.TrimSpace(path), "/"); path != "" {
		return onlyFile(rep, path), nil
	}
	return rep, nil
}

// current is the workspace's last report when it is still fresh; else writes announced and
// not checked yet are checked here (and published, as after a save); else the tree is
// listed again for changes made without an announcement.
func (s *Service) current(ctx context.Context, c caller.Caller, pa portalaccess.Portal, w *wsIndex) (*Report, error) {
	if sn := w.snap.Load(); fresh(w, sn) {
		return sn.report, nil
	}
	if ann := w.take(); ann != nil {
		return s.check(ctx, ann.caller(), pa, w, ann, true)
	}
	return s.check(ctx, c, pa, w, nil, false)
}

// index answers the workspace's index, made (empty) when the instance has none.
func (s *Service) index(k wsKey) *wsIndex {
	s.mu.Lock()
	defer s.mu.Unlock()
	w, ok := s.workspaces.get(k)
	if !ok {
		w = &wsIndex{key: k}
		s.workspaces.put(k, w)
	}
	return w
}

// Others answers, for each other user of the portal whose workspace this instance has
// checked, their findings in the files they changed and have not committed (users without
// any are left out).
func (s *Service) Others(_ context.Context, c caller.Caller, pa portalaccess.Portal) ([]Others, error) {
	var snaps []*snapshot
	s.mu.Lock()
	s.workspaces.each(func(k wsKey, w *wsIndex) {
		if k.portalID == pa.ID() && k.userID != c.UserID {
			if sn := w.snap.Load(); sn != nil {
				snaps = append(snaps, sn)
			}
		}
	})
	s.mu.Unlock()
	out := []Others{}
	for _, sn := range snaps {
		found := inFiles(sn.report.Findings, sn.changes)
		if len(found) == 0 {
			continue
		}
		out = append(out, Others{User: sn.user, Branch: sn.report.Branch, Summary: summarize(found, nil, len(sn.changes)), Findings: found})
	}
	return out, nil
}

// onlyFile is the report with one file's findings (and a summary of them).
func onlyFile(rep *Report, path string) *Report {
	out := *rep
	out.Findings, out.Ignored = []check.Finding{}, []check.IgnoredFinding{}
	for _, f := range rep.Findings {
		if f.Path == path {
			out.Findings = append(out.Findings, f)
		}
	}
	for _, f := range rep.Ignored {
		if f.Path == path {
			out.Ignored = append(out.Ignored, f)
		}
	}
	out.Summary = summarize(out.Findings, out.Ignored, 1)
	return &out
}

// inFiles keeps the findings in the files of changes.
func inFiles(findings []check.Finding, changes map[string]string) []check.Finding {
	out := []check.Finding{}
	for _, f := range findings {
		if _, ok := changes[f.Path]; ok {
			out = append(out, f)
		}
	}
	return out
}

// summarize counts findings as the engine's summary does (files: how many files they are of).
func summarize(findings []check.Finding, ignored []check.IgnoredFinding, files int) check.Summary {
	sum := check.Summary{Files: files, Ignored: len(ignored), ByRule: map[string]int{}}
	for _, f := range findings {
		sum.ByRule[f.Rule]++
		switch f.Severity {
		case check.Error:
			sum.Errors++
		case check.Warning:
			sum.Warnings++
		default:
			sum.Infos++
		}
	}
	return sum
}
