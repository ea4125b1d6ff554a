package upstream

import (
	"context"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/portalaccess"
	"portalwright/internal/store"
	"portalwright/internal/workspace"
	"portalwright/internal/workspace/hostsync"
)

// States of a portal's upstream.
const (
	StateInSync   = "IN_SYNC"
	StateAhead    = "AHEAD"    // the portal has commits the host lacks (a push failed or is pending)
	StateBehind   = "BEHIND"   // the host has commits the portal lacks
	StateDiverged = "DIVERGED" // both, and they could not be merged
	StateError    = "ERROR"    // the host could not be fetched: the comparison is out of date
)

// Events announces branches that the host's commits moved, as commits are (the portal
// service: WORKSPACE_COMMIT in the portal's room, and its listeners).
type Events interface {
	Committed(ctx context.Context, pa portalaccess.Portal, by editing.Person, branch, commitID string)
}

// Config is what the service needs of the server's configuration.
type Config struct {
	Sealer       *Sealer // nil: no secrets key, credentials cannot be stored
	WebhookKey   []byte  // the server's signing secret; webhook secrets are derived from it
	PublicURL    string  // how git hosts reach the server (the webhook URL)
	FetchTimeout time.Duration
	PushTimeout  time.Duration
}

// Service keeps portals in step with their git hosts.
type Service struct {
	store   *Store
	host    *hostsync.HostSync
	events  Events
	portals *portalaccess.Checker // checks the portal a webhook names before its commits are announced
	log     *slog.Logger
	cfg     Config
}

// NewService wires the upstream sync; events and portals may be nil (nothing is announced).
func NewService(st *Store, repos *workspace.Repos, events Events, portals *portalaccess.Checker, log *slog.Logger, cfg Config) *Service {
	if cfg.FetchTimeout <= 0 {
		cfg.FetchTimeout = 15 * time.Second
	}
	if cfg.PushTimeout <= 0 {
		cfg.PushTimeout = 2 * time.Minute
	}
	cfg.PublicURL = strings.TrimRight(cfg.PublicURL, "/")
	return &Service{store: st, host: hostsync.New(repos), events: events, portals: portals, log: log, cfg: cfg}
}

// Status is a portal's upstream as the dashboard and the settings show it. It never carries
// credentials: only their kind, whether there are any and a deploy key's public half.
type Status struct {
	Configured bool   `json:"configured"` // false: the portal was not created from a git URL
	URL        string `json:"url"`
	State      string `json:"state"`
	Ahead      int    `json:"ahead"`  // over all branches
	Behind     int    `json:"behind"` // over all branches
	// Branches compares each branch of the portal with the host's, as last fetched.
	Branches   []hostsync.UpstreamBranch `json:"branches"`
	LastSyncAt *time.Time                `json:"lastSyncAt"`
	Error      string                    `json:"error"`
	ErrorAt    *time.Time                `json:"errorAt"`
	// AuthKind is NONE, PASSWORD or SSH_KEY.
	AuthKind       string `json:"authKind"`
	HasCredentials bool   `json:"hasCredentials"`
	PublicKey      string `json:"publicKey,omitempty"`
	// SecretsConfigured tells whether the server can store credentials at all.
	SecretsConfigured bool   `json:"secretsConfigured"`
	WebhookURL        string `json:"webhookUrl,omitempty"`
}

var errNotConfigured = apperr.NotFound("UPSTREAM_NOT_CONFIGURED", "This portal was not created from a git URL: it has no upstream git host.")

func errSecretsKeyMissing() error {
	return apperr.NewError(http.StatusServiceUnavailable, "SECRETS_KEY_MISSING", "Service Unavailable",
		"Credentials cannot be stored: the server has no secrets key. An administrator must start it with --secrets-key-file (or PORTALWRIGHT_SECRETS_KEY) set to a 32-byte key made with `head -c32 /dev/urandom | base64` (docs/operations.md, Upstream git hosts).")
}

// load reads a checked portal's upstream.
func (s *Service) load(ctx context.Context, pa portalaccess.Portal) (*record, error) {
	rec, err := s.store.load(ctx, pa.ID())
	if errors.Is(err, store.ErrNotFound) {
		return nil, apperr.NotFound("PORTAL_NOT_FOUND", "Failed to open Portal")
	}
	return rec, err
}

// Status answers a portal's upstream.
func (s *Service) Status(ctx context.Context, pa portalaccess.Portal) (*Status, error) {
	rec, err := s.load(ctx, pa)
	if err != nil {
		return nil, err
	}
	return s.status(ctx, rec)
}

func (s *Service) status(ctx context.Context, rec *record) (*Status, error) {
	if rec.URL == "" {
		return &Status{Configured: false, Branches: []hostsync.UpstreamBranch{}, AuthKind: AuthNone, SecretsConfigured: s.cfg.Sealer != nil}, nil
	}
	st := &Status{Configured: true, URL: rec.URL, LastSyncAt: rec.LastSyncAt, Error: rec.LastError, ErrorAt: rec.LastErrorAt,
		AuthKind: rec.AuthKind, HasCredentials: rec.Sealed != "", PublicKey: rec.PublicKey, SecretsConfigured: s.cfg.Sealer != nil,
		WebhookURL: s.webhookURL(rec.PortalID)}
	branches, err := s.host.CompareUpstream(ctx, rec.PortalID, rec.Pending)
	if err != nil {
		return nil, editing.GitError(err)
	}
	st.Branches = []hostsync.UpstreamBranch{}
	for _, b := range branches {
		if !b.OnUpstream && !b.DeletedOnHost && !slices.Contains(rec.Pending, b.Branch) {
			continue // a branch made in the product that was never pushed: not the host's business
		}
		st.Branches = append(st.Branches, b)
		st.Ahead += b.Ahead
		st.Behind += b.Behind
	}
	switch {
	case rec.LastErrorKind == errFetch || rec.LastErrorKind == errCredentials:
		st.State = StateError
	case rec.LastErrorKind == errMerge || (st.Ahead > 0 && st.Behind > 0):
		st.State = StateDiverged
	case st.Ahead > 0:
		st.State = StateAhead
	case st.Behind > 0:
		st.State = StateBehind
	default:
		st.State = StateInSync
	}
	return st, nil
}

func (s *Service) webhookURL(portalID int64) string {
	return s.cfg.PublicURL + "/api/v1/upstream/webhook/" + strconv.FormatInt(portalID, 10)
}

// credentialsError is stored credentials that cannot be used; its text is for the user.
type credentialsError string

func (e credentialsError) Error() string { return string(e) }

// secret is what a portal's credentials are sealed as.
type secret struct {
	UserName   string `json:"userName,omitempty"`
	Password   string `json:"password,omitempty"`
	PrivateKey string `json:"privateKey,omitempty"` // OpenSSH PEM
}

// upstream opens the portal's credentials for one git operation.
func (s *Service) upstream(rec *record) (hostsync.Upstream, error) {
	up := hostsync.Upstream{URL: rec.URL}
	if rec.Sealed == "" {
		return up, nil
	}
	if s.cfg.Sealer == nil {
		return up, credentialsError("the credentials of this portal's git host are stored, but the server has no secrets key to read them: an administrator must configure the key they were stored with.")
	}
	plain, err := s.cfg.Sealer.Open(rec.PortalID, rec.Sealed)
	if err != nil {
		return up, credentialsError("the credentials of this portal's git host cannot be read with the server's secrets key (was the key changed?): enter them again in the portal settings.")
	}
	var sec secret
	if err := json.Unmarshal(plain, &sec); err != nil {
		return up, credentialsError("the stored credentials are damaged: enter them again in the portal settings.")
	}
	up.Creds = &workspace.Credentials{Username: sec.UserName, Password: sec.Password}
	if sec.PrivateKey != "" {
		up.Creds = &workspace.Credentials{SSHKey: []byte(sec.PrivateKey)}
	}
	return up, nil
}

// Imported registers the git host of a portal just created from a git URL, with the
// credentials the import used (portal.Upstreams). The import's clone made the portal's
// branches from the host, so it starts in sync. Credentials that cannot be kept (no secrets
// key) leave the upstream in the ERROR state with the reason.
func (s *Service) Imported(ctx context.Context, portalID int64, creds *workspace.Credentials) {
	rec, err := s.store.load(ctx, portalID)
	if err != nil || rec.URL == "" {
		s.log.Warn("upstream: imported portal not found", "portal", portalID, "error", err)
		return
	}
	if err := s.host.MarkUpstreamSynced(ctx, portalID); err != nil {
		s.log.Warn("upstream: could not record the imported branches", "portal", portalID, "error", err)
	}
	o := outcome{synced: true}
	if creds != nil && (creds.Username != "" || creds.Password != "") {
		if s.cfg.Sealer == nil {
			o.setError, o.errKind = true, errCredentials
			o.errText = "The credentials given at import were not kept: the server has no secrets key. An administrator must configure one (--secrets-key-file) and enter the credentials in the portal settings."
		} else if err := s.storeSecret(ctx, portalID, AuthPassword, secret{UserName: creds.Username, Password: creds.Password}, ""); err != nil {
			s.log.Error("upstream: could not store the import's credentials", "portal", portalID, "error", err)
		}
	}
	if err := s.store.record(ctx, portalID, o); err != nil {
		s.log.Error("upstream: could not record the import", "portal", portalID, "error", err)
	}
}

func (s *Service) storeSecret(ctx context.Context, portalID int64, kind string, sec secret, publicKey string) error {
	plain, err := json.Marshal(sec)
	if err != nil {
		return err
	}
	sealed, err := s.cfg.Sealer.Seal(portalID, plain)
	if err != nil {
		return err
	}
	return s.store.setCredentials(ctx, portalID, kind, sealed, publicKey)
}

// CredentialsInput replaces a portal's credentials (PUT /upstream/{d}/{p}/credentials).
type CredentialsInput struct {
	// Kind: PASSWORD (userName + password or token, for http(s) URLs), SSH_KEY (generate a
	// new deploy key, for ssh URLs) or NONE (forget them).
	Kind     string `json:"kind"`
	UserName string `json:"userName"`
	Password string `json:"password"`
}

// SetCredentials replaces the credentials and then syncs with them (so the answer tells at
// once whether the host takes them; a new deploy key works once it is added to the host).
func (s *Service) SetCredentials(ctx context.Context, c caller.Caller, pa portalaccess.Portal, in CredentialsInput) (*Status, error) {
	rec, err := s.load(ctx, pa)
	if err != nil {
		return nil, err
	}
	if rec.URL == "" {
		return nil, errNotConfigured
	}
	kind := strings.ToUpper(strings.TrimSpace(in.Kind))
	sshURL := isSSHURL(rec.URL)
	switch kind {
	case AuthNone:
		if err := s.store.setCredentials(ctx, rec.PortalID, AuthNone, "", ""); err != nil {
			return nil, err
		}
	case AuthPassword:
		if sshURL {
			return nil, apperr.Validation("This portal's git host is reached over ssh: generate a deploy key instead of a user name and password.")
		}
		if strings.TrimSpace(in.Password) == "" {
			return nil, apperr.Validation("Enter the password or access token.")
		}
		if strings.ContainsAny(in.UserName, ":\n\r\x00") || strings.ContainsAny(in.Password, "\n\r\x00") {
			return nil, apperr.Validation("The user name must not contain ':' or line breaks, nor the password line breaks.")
		}
		if s.cfg.Sealer == nil {
			return nil, errSecretsKeyMissing()
		}
		if err := s.storeSecret(ctx, rec.PortalID, AuthPassword, secret{UserName: strings.TrimSpace(in.UserName), Password: in.Password}, ""); err != nil {
			return nil, err
		}
	case AuthSSHKey:
		if !sshURL {
			return nil, apperr.Validation("A deploy key works with ssh URLs (ssh://… or git@host:…); this portal's git host is reached over " + strings.SplitN(rec.URL, ":", 2)[0] + ": use a user name and password or token.")
		}
		if s.cfg.Sealer == nil {
			return nil, errSecretsKeyMissing()
		}
		private, public, err := newDeployKey(rec.PortalID)
		if err != nil {
			return nil, err
		}
		if err := s.storeSecret(ctx, rec.PortalID, AuthSSHKey, secret{PrivateKey: private}, public); err != nil {
			return nil, err
		}
	default:
		return nil, apperr.Validation("The kind of credentials must be PASSWORD, SSH_KEY or NONE.")
	}
	s.log.Info("upstream credentials replaced", "portal", rec.PortalID, "kind", kind, "by", c.Username) // never the values
	if rec, err = s.load(ctx, pa); err != nil {
		return nil, err
	}
	s.pull(ctx, rec)
	return s.Status(ctx, pa)
}

// newDeployKey makes an ed25519 key pair: the private half as OpenSSH PEM, the public half as
// an authorized_keys line the user adds to the git host.
func newDeployKey(portalID int64) (private, public string, err error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return "", "", err
	}
	comment := "portalwright-portal-" + strconv.FormatInt(portalID, 10)
	block, err := ssh.MarshalPrivateKey(priv, comment)
	if err != nil {
		return "", "", err
	}
	sshPub, err := ssh.NewPublicKey(pub)
	if err != nil {
		return "", "", err
	}
	return string(pem.EncodeToMemory(block)), strings.TrimSpace(string(ssh.MarshalAuthorizedKey(sshPub))) + " " + comment, nil
}

// isSSHURL tells ssh://, git+ssh:// and scp-like (git@host:path) URLs from http(s) and git://.
func isSSHURL(url string) bool {
	scheme, _, ok := strings.Cut(url, "://")
	if !ok {
		return true // scp-like
	}
	switch strings.ToLower(scheme) {
	case "ssh", "git+ssh", "ssh+git":
		return true
	}
	return false
}

// pulled is what fetching and integrating the host's commits came to.
type pulled struct {
	fetchErr  error    // the host could not be fetched (nothing else happened)
	conflicts []string // branches whose commits could not be merged with the host's
	moved     []hostsync.MovedBranch
}

// pull fetches the host and brings its commits onto the portal's branches, recording the
// outcome and announcing the branches that moved.
func (s *Service) pull(ctx context.Context, rec *record) pulled {
	up, err := s.upstream(rec)
	if err != nil {
		s.fail(ctx, rec.PortalID, errCredentials, "Fetching from the git host failed: "+describe(err))
		return pulled{fetchErr: err}
	}
	hosts := rec.KnownHosts
	err = s.host.FetchUpstream(ctx, rec.PortalID, up, &hosts, s.cfg.FetchTimeout)
	s.keepHosts(ctx, rec, hosts)
	if err != nil {
		s.log.Warn("upstream: fetch failed", "portal", rec.PortalID, "error", err)
		s.fail(ctx, rec.PortalID, errFetch, "Fetching from the git host failed: "+describe(err))
		return pulled{fetchErr: err}
	}
	moved, conflicts, err := s.host.IntegrateUpstream(ctx, rec.PortalID, workspace.SystemAuthor)
	s.announce(ctx, rec, moved)
	o := outcome{synced: true, clear: []string{errFetch, errCredentials}}
	switch {
	case err != nil:
		s.log.Error("upstream: integrating the host's commits failed", "portal", rec.PortalID, "error", err)
		o.setError, o.errKind, o.errText = true, errMerge, "The git host's commits could not be brought into the portal. Try Sync now; if it persists, an administrator should look at the server log."
	case len(conflicts) > 0:
		o.setError, o.errKind = true, errMerge
		o.errText = "The git host's commits on " + strings.Join(conflicts, ", ") + " conflict with the portal's commits that are not on the host yet. Merge them on the git host (or in a clone), push, then Sync now."
	default:
		o.clear = append(o.clear, errMerge)
	}
	if err := s.store.record(ctx, rec.PortalID, o); err != nil {
		s.log.Error("upstream: could not record a fetch", "portal", rec.PortalID, "error", err)
	}
	return pulled{conflicts: conflicts, moved: moved}
}

// announce tells the portal's room that the host's commits moved branches (WORKSPACE_COMMIT).
func (s *Service) announce(ctx context.Context, rec *record, moved []hostsync.MovedBranch) {
	if s.events == nil || s.portals == nil || len(moved) == 0 {
		return
	}
	pa, err := s.portals.Check(ctx, rec.DomainID, rec.PortalID) // a webhook names the portal by id only
	if err != nil {
		return
	}
	for _, m := range moved {
		if m.Created {
			continue // a branch new in the portal: nobody has it open to reload
		}
		by := editing.Person{UserName: m.Author, FirstName: m.Author, LastName: "(git host)"}
		s.events.Committed(ctx, pa, by, m.Branch, m.Commit)
	}
}

func (s *Service) keepHosts(ctx context.Context, rec *record, hosts string) {
	if hosts != rec.KnownHosts {
		if err := s.store.setKnownHosts(ctx, rec.PortalID, hosts); err != nil {
			s.log.Warn("upstream: could not keep the host key", "portal", rec.PortalID, "error", err)
		}
		rec.KnownHosts = hosts
	}
}

func (s *Service) fail(ctx context.Context, portalID int64, kind, text string) {
	if err := s.store.record(ctx, portalID, outcome{setError: true, errKind: kind, errText: text}); err != nil {
		s.log.Error("upstream: could not record a failure", "portal", portalID, "error", err)
	}
}

// push sends a branch to the host and records the outcome: a failure keeps the branch
// pending (the portal is ahead) with the reason.
func (s *Service) push(ctx context.Context, rec *record, branch string) error {
	up, err := s.upstream(rec)
	if err != nil {
		s.fail(ctx, rec.PortalID, errCredentials, "Pushing to the git host failed: "+describe(err))
		return err
	}
	hosts := rec.KnownHosts
	err = s.host.PushUpstream(ctx, rec.PortalID, up, branch, &hosts, s.cfg.PushTimeout)
	s.keepHosts(ctx, rec, hosts)
	return s.pushed(ctx, rec, branch, err)
}

// pushed records what a push of branch to the host came to (err: its error): a failure keeps
// the branch pending with the reason; a success clears it.
func (s *Service) pushed(ctx context.Context, rec *record, branch string, err error) error {
	pending := slices.DeleteFunc(slices.Clone(rec.Pending), func(b string) bool { return b == branch })
	if errors.Is(err, workspace.ErrBranchMissing) {
		err = nil // deleted meanwhile: nothing to send
	}
	if errors.Is(err, hostsync.ErrDeletedOnHost) {
		// Kept in the portal, shown as deleted on the git host; not made there again.
		if slices.Contains(rec.Pending, branch) {
			rec.Pending = pending
			if rerr := s.store.record(ctx, rec.PortalID, outcome{pending: append([]string{}, pending...)}); rerr != nil {
				s.log.Error("upstream: could not record a push", "portal", rec.PortalID, "error", rerr)
			}
		}
		return err
	}
	o := outcome{}
	if err != nil {
		s.log.Warn("upstream: push failed", "portal", rec.PortalID, "branch", branch, "error", err)
		pending = append(pending, branch)
		o.setError, o.errKind, o.errText = true, errPush, "The commits on "+branch+" are in the portal but did not reach the git host: "+describe(err)
	} else {
		o.synced = true
		if len(pending) == 0 {
			o.clear = []string{errPush}
		}
	}
	o.pending = append([]string{}, pending...)
	rec.Pending = pending
	if rerr := s.store.record(ctx, rec.PortalID, o); rerr != nil {
		s.log.Error("upstream: could not record a push", "portal", rec.PortalID, "error", rerr)
	}
	return err
}

// Pull is the fetch before an open or a commit (editing.Upstream): a warning for the user
// when the host could not be fetched or its commits could not be merged.
func (s *Service) Pull(ctx context.Context, pa portalaccess.Portal) string {
	rec, err := s.store.load(ctx, pa.ID())
	if err != nil || rec.URL == "" {
		return ""
	}
	res := s.pull(ctx, rec)
	switch {
	case res.fetchErr != nil:
		return "The portal's git host could not be fetched, so commits made there since the last sync are not included: " + describe(res.fetchErr)
	case len(res.conflicts) > 0:
		return "The git host's commits on " + strings.Join(res.conflicts, ", ") + " conflict with the portal's unsent commits; the portal's upstream state shows what to do."
	}
	return ""
}

// Push is the push after a commit (editing.Upstream): a warning when the commit did not
// reach the host (it stays in the portal, which is then ahead).
func (s *Service) Push(ctx context.Context, pa portalaccess.Portal, branch string) string {
	rec, err := s.store.load(ctx, pa.ID())
	if err != nil || rec.URL == "" {
		return ""
	}
	if rec.LastErrorKind == errFetch && rec.LastErrorAt != nil && time.Since(*rec.LastErrorAt) < recentFailure {
		// The host did not answer the fetch a moment ago (before this commit): the author is not
		// kept waiting for it a second time; the branch is left for Sync now.
		if !slices.Contains(rec.Pending, branch) {
			if err := s.store.record(ctx, rec.PortalID, outcome{pending: append(slices.Clone(rec.Pending), branch)}); err != nil {
				s.log.Error("upstream: could not record a pending push", "portal", rec.PortalID, "error", err)
			}
		}
		return "Your commit is saved in the portal but was not sent to its git host. " + rec.LastError + later
	}
	return pushWarning(branch, s.push(ctx, rec, branch))
}

// pushWarning is the author's warning after a commit's push to the host failed with err.
func pushWarning(branch string, err error) string {
	if errors.Is(err, hostsync.ErrDeletedOnHost) {
		return "Your commit is saved in the portal. Its branch " + branch + " was deleted on the git host, so it is not sent there; merge it into another branch to send your work."
	} else if err != nil {
		return "Your commit is saved in the portal but did not reach its git host: " + describe(err) + later
	}
	return ""
}

// SendFirst is editing.Upstream's: a commit is pushed to the git host under the portal lock
// before it lands (workspace/sendfirst.go), so it costs one round trip to the host, not a
// fetch before and a push after. The gate answers workspace.ErrHostMoved when the host may
// have moved (the portal did not have the branch where the host had it when last seen, or the
// host refused the push as a non-fast-forward): the caller then pulls and commits again. ok is
// false when there is no git host, its credentials cannot be read, or it failed a moment ago
// (the usual way says so without waiting for it twice).
func (s *Service) SendFirst(ctx context.Context, pa portalaccess.Portal) (gate workspace.LandingGate, done func() string, ok bool) {
	rec, err := s.store.load(ctx, pa.ID())
	if err != nil || rec.URL == "" {
		return nil, nil, false
	}
	if rec.LastErrorAt != nil && time.Since(*rec.LastErrorAt) < recentFailure {
		return nil, nil, false
	}
	up, err := s.upstream(rec)
	if err != nil {
		return nil, nil, false
	}
	var (
		branch  string
		sendErr error
		tried   bool
	)
	gate = func(ctx context.Context, l *workspace.Landing) error {
		if !l.HostHasTip() {
			return workspace.ErrHostMoved
		}
		hosts := rec.KnownHosts
		err := s.host.SendToHost(ctx, l, up, &hosts, s.cfg.PushTimeout)
		s.keepHosts(ctx, rec, hosts)
		if errors.Is(err, workspace.ErrHostMoved) {
			return err
		}
		branch, sendErr, tried = l.Branch, err, true
		return nil // a host that is down or refuses for another reason does not stop the commit
	}
	done = func() string {
		if !tried {
			return ""
		}
		return pushWarning(branch, s.pushed(ctx, rec, branch, sendErr))
	}
	return gate, done, true
}

// later ends the warnings of a commit that did not reach the host.
const later = " Use Sync now on the portal dashboard once that is resolved."

// recentFailure is how long a failed fetch spares the push right after it (a commit fetches,
// then pushes: an unreachable host would otherwise cost both time-outs).
const recentFailure = time.Minute

// Sync is Sync now: fetch, bring the host's commits in, and push every branch the host is
// missing commits of. It answers the new state, or the error that stopped it (with the state
// in data): the host's commits conflicting with the portal's answer 409 GIT_CONFLICTS, a
// refused push 409 PORTAL_REBASE_ERROR, as for commits.
func (s *Service) Sync(ctx context.Context, c caller.Caller, pa portalaccess.Portal) (*Status, error) {
	rec, err := s.load(ctx, pa)
	if err != nil {
		return nil, err
	}
	if rec.URL == "" {
		return nil, errNotConfigured
	}
	res := s.pull(ctx, rec)
	if res.fetchErr != nil {
		return nil, s.withState(ctx, pa, remoteFailure(res.fetchErr))
	}
	if len(res.conflicts) > 0 {
		return nil, s.withState(ctx, pa, apperr.Conflict(editing.CodeConflicts, "The git host's commits on "+strings.Join(res.conflicts, ", ")+
			" conflict with the portal's commits that are not on the host yet. Merge them on the git host (or in a clone), push, then Sync now."))
	}
	if rec, err = s.load(ctx, pa); err != nil {
		return nil, err
	}
	branches, err := s.host.CompareUpstream(ctx, rec.PortalID, rec.Pending)
	if err != nil {
		return nil, editing.GitError(err)
	}
	for _, b := range branches {
		if b.Ahead == 0 || b.DeletedOnHost || (!b.OnUpstream && !slices.Contains(rec.Pending, b.Branch)) {
			continue // nothing to send, or the host deleted the branch (it is not made again there)
		}
		if err := s.push(ctx, rec, b.Branch); err != nil {
			var pe *hostsync.UpstreamPushError
			if errors.As(err, &pe) {
				return nil, s.withState(ctx, pa, apperr.Conflict(editing.CodeRebaseError, "The commits on "+b.Branch+" did not reach the git host: "+describe(err)))
			}
			return nil, s.withState(ctx, pa, remoteFailure(err))
		}
	}
	s.log.Info("upstream synced", "portal", rec.PortalID, "by", c.Username)
	return s.Status(ctx, pa)
}

// withState puts the portal's upstream state in an error's data, so the client shows both.
func (s *Service) withState(ctx context.Context, pa portalaccess.Portal, e *apperr.Error) error {
	if st, err := s.Status(ctx, pa); err == nil {
		e = e.WithData(st)
	}
	return e
}

// remoteFailure is the API error of a host that could not be fetched or pushed to.
func remoteFailure(err error) *apperr.Error {
	var re *workspace.RemoteError
	var ce credentialsError
	if (errors.As(err, &re) && re.Failure == workspace.RemoteAuth) || errors.As(err, &ce) {
		return apperr.Conflict("UPSTREAM_CREDENTIALS", describe(err)).WithCause(err)
	}
	return apperr.NewError(http.StatusBadGateway, "UPSTREAM_UNREACHABLE", "Bad Gateway", describe(err)).WithCause(err)
}

// describe says in a user's words why the host failed: never git's raw output (only what a
// refusing host said itself), never credentials.
func describe(err error) string {
	var pe *hostsync.UpstreamPushError
	if errors.As(err, &pe) {
		if pe.NonFastForward {
			return "the git host has commits the portal does not have yet. Sync now brings them in and sends the portal's commits after them."
		}
		return "the git host refused the push: " + strings.ReplaceAll(pe.Remote, "\n", " / ") + "."
	}
	if errors.Is(err, workspace.ErrRemoteRefused) {
		return "the git host's address is on a private or local network, which this server does not contact (an administrator can allow it with --allow-private-git-hosts)."
	}
	var re *workspace.RemoteError
	if errors.As(err, &re) {
		switch re.Failure {
		case workspace.RemoteUnreachable:
			return "the git host could not be reached. Check that it is online."
		case workspace.RemoteAuth:
			return "the git host refused the credentials. Replace them in the portal settings (user name and password or access token, or add the deploy key to the repository with write access)."
		case workspace.RemoteNotRepository:
			return "there is no repository at the portal's git URL any more, or the credentials do not open it."
		case workspace.RemoteTimeout:
			return "the git host took too long to answer."
		case workspace.RemoteCorrupt:
			return "the transfer broke off. Try again."
		}
		return "the git host answered with an error."
	}
	var ce credentialsError
	if errors.As(err, &ce) {
		return string(ce)
	}
	return "the git operation failed."
}

// WebhookInfo is what the git host's webhook needs (GET /upstream/{d}/{p}/webhook).
type WebhookInfo struct {
	URL             string `json:"url"`
	Secret          string `json:"secret"`
	ContentType     string `json:"contentType"`
	SignatureHeader string `json:"signatureHeader"`
	TokenHeader     string `json:"tokenHeader"`
}

// Webhook reveals the webhook's URL and secret.
func (s *Service) Webhook(ctx context.Context, pa portalaccess.Portal) (*WebhookInfo, error) {
	rec, err := s.load(ctx, pa)
	if err != nil {
		return nil, err
	}
	if rec.URL == "" {
		return nil, errNotConfigured
	}
	return s.webhookInfo(rec), nil
}

func (s *Service) webhookInfo(rec *record) *WebhookInfo {
	return &WebhookInfo{URL: s.webhookURL(rec.PortalID), Secret: s.webhookSecret(rec), ContentType: "application/json",
		SignatureHeader: "X-Hub-Signature-256", TokenHeader: "X-Gitlab-Token"}
}

// RotateWebhook replaces the webhook's secret (the old one stops working at once).
func (s *Service) RotateWebhook(ctx context.Context, c caller.Caller, pa portalaccess.Portal) (*WebhookInfo, error) {
	rec, err := s.load(ctx, pa)
	if err != nil {
		return nil, err
	}
	if rec.URL == "" {
		return nil, errNotConfigured
	}
	rec.WebhookNonce = newNonce()
	if err := s.store.setNonce(ctx, rec.PortalID, rec.WebhookNonce); err != nil {
		return nil, err
	}
	s.log.Info("upstream webhook secret replaced", "portal", rec.PortalID, "by", c.Username)
	return s.webhookInfo(rec), nil
}

// webhookSecret is derived, never stored: HMAC of the portal and its nonce under the
// server's signing secret.
func (s *Service) webhookSecret(rec *record) string {
	m := hmac.New(sha256.New, s.cfg.WebhookKey)
	m.Write([]byte("portalwright upstream webhook\x00" + strconv.FormatInt(rec.PortalID, 10) + "\x00" + rec.WebhookNonce))
	return hex.EncodeToString(m.Sum(nil))[:40]
}

var errBadSignature = apperr.Unauthorized("WEBHOOK_SIGNATURE", "The webhook's signature does not match this portal's webhook secret.")

// WebhookAnswer is what the git host gets back.
type WebhookAnswer struct {
	Fetched bool     `json:"fetched"`
	Moved   []string `json:"moved"`
}

// Receive handles the host's push webhook: nothing happens before the signature checked out
// (every failure of the check answers the same 401, so the endpoint tells nobody which
// portals exist). Then it fetches as an open does; branches that moved are announced.
func (s *Service) Receive(ctx context.Context, portalID int64, body []byte, h http.Header) (*WebhookAnswer, error) {
	rec, err := s.store.load(ctx, portalID)
	if err != nil || rec.URL == "" || !verify(s.webhookSecret(rec), body, h) {
		return nil, errBadSignature
	}
	res := s.pull(ctx, rec)
	if res.fetchErr != nil {
		return nil, remoteFailure(res.fetchErr)
	}
	ans := &WebhookAnswer{Fetched: true, Moved: []string{}}
	for _, m := range res.moved {
		ans.Moved = append(ans.Moved, m.Branch)
	}
	return ans, nil
}

// verify checks the webhook's secret: HMAC-SHA256 of the body in X-Hub-Signature-256
// (GitHub, Gitea, Forgejo: "sha256=<hex>"), X-Gitea-Signature (hex), or the secret itself in
// X-Gitlab-Token (GitLab). Comparisons take constant time.
func verify(secret string, body []byte, h http.Header) bool {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	want := m.Sum(nil)
	for _, v := range []string{strings.TrimPrefix(h.Get("X-Hub-Signature-256"), "sha256="), h.Get("X-Gitea-Signature")} {
		if got, err := hex.DecodeString(strings.TrimSpace(v)); err == nil && len(got) == len(want) && hmac.Equal(got, want) {
			return true
		}
	}
	if tok := h.Get("X-Gitlab-Token"); tok != "" {
		return hmac.Equal([]byte(tok), []byte(secret))
	}
	return false
}
