// Package app is the composition root: it opens the database, builds every feature's
// service and the HTTP handler, and runs the server until it is told to stop.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"portalwright"
	"portalwright/internal/access"
	"portalwright/internal/admin"
	"portalwright/internal/apidoc"
	"portalwright/internal/appinfo"
	"portalwright/internal/audit"
	"portalwright/internal/collab"
	"portalwright/internal/config"
	"portalwright/internal/document"
	"portalwright/internal/handover"
	"portalwright/internal/history"
	"portalwright/internal/httpapi"
	"portalwright/internal/httpx"
	"portalwright/internal/identity"
	"portalwright/internal/loadable"
	"portalwright/internal/notice"
	"portalwright/internal/notify"
	"portalwright/internal/portal"
	"portalwright/internal/portalaccess"
	"portalwright/internal/presence"
	"portalwright/internal/preview"
	"portalwright/internal/readiness"
	"portalwright/internal/realtime"
	"portalwright/internal/sso"
	"portalwright/internal/store"
	"portalwright/internal/taskrunner"
	"portalwright/internal/thumbnail"
	"portalwright/internal/upstream"
	"portalwright/internal/workspace"
	"portalwright/internal/workspace/gitlog"
	"portalwright/internal/workspace/upkeep"
	webui "portalwright/web"
)

// InitialAdminPasswordFile is written to the data dir when the admin password is generated.
const InitialAdminPasswordFile = "initial-admin-password"

// App is a wired server.
type App struct {
	Config   config.Config
	Log      *slog.Logger
	DB       *store.DB
	Identity *identity.Service
	Access   *access.Service
	Audit    *audit.Log
	Outbox   *notify.Outbox
	Portals  *portal.Service
	Catalog  *portal.Catalog // the portals' categories
	// PortalAccess makes the checked portal every portal-scoped handler and service method
	// takes (portalaccess.Portal): one per app, over the portal store.
	PortalAccess *portalaccess.Checker
	Hub          *realtime.Hub
	HTTP         *httpapi.Server

	console io.Writer
	stopBus func()
	// notices is the outlet every feature publishes through (hubNotices over the hub).
	notices notice.Publisher
	// repos are the portals' git repositories under the data dir.
	repos *workspace.Repos
	// tasks is the task runner (nil without a sandbox); builds are the commit builds previews
	// and loadables share (portals without tasks build without a sandbox too).
	tasks  *taskrunner.Service
	builds *taskrunner.Builds
	// shares are the shared previews; closed before the task runner (they wait on its runs).
	shares *preview.Shares
	// loadables make packages; closed before the task runner too.
	loadables *loadable.Service
	// readiness keeps the workspaces' readiness indexes and commit reports; its gate is
	// asked by loadable approval.
	readiness *readiness.Service
	// upstream keeps imported portals in sync with their git hosts.
	upstream *upstream.Service
	// handOver queues loadables for downstream systems; stopHandOver stops its worker.
	handOver     *handover.Service
	stopHandOver func()
	started      time.Time // the data dir sweep leaves what this instance made after it
	gitSSH       *gitSSH   // git over SSH for authors (gitssh.go); nil unless --ssh-addr
	// frame is the designer frame's own origin (frame.go); its port is 0 until it listens.
	frame      *preview.FrameOrigin
	framePort  atomic.Int32
	frameTicks *preview.Tickets
	// stopMaintenance ends the background packing of repositories (workspace/upkeep).
	stopMaintenance func()
}

// NewLogger builds the process logger from the configuration.
func NewLogger(cfg config.Config, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.LogLevel))
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// OpenStore opens and migrates the configured database.
func OpenStore(ctx context.Context, cfg config.Config, log *slog.Logger) (*store.DB, error) {
	if err := os.MkdirAll(cfg.DataDir, 0o750); err != nil {
		return nil, fmt.Errorf("create data dir %s: %w", cfg.DataDir, err)
	}
	db, err := store.Open(ctx, cfg.DatabaseDSN())
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", cfg.Redacted(), err)
	}
	if _, err := db.Migrate(ctx, log); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// New wires the application. console receives the lines meant for the person who
// started the server (URL, generated admin password).
func New(ctx context.Context, cfg config.Config, log *slog.Logger, console io.Writer) (*App, error) {
	db, err := OpenStore(ctx, cfg, log)
	if err != nil {
		return nil, err
	}
	a := &App{Config: cfg, Log: log, DB: db, console: console, started: time.Now()}
	if err := a.wire(ctx); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// wire builds the parts in the order they depend on each other, each from parts already
// built: storage and people, the realtime hub and the notice outlet over it, the portals and
// their checked access, then the features, then the HTTP server over their routes.
func (a *App) wire(ctx context.Context) error {
	var err error
	a.Audit = audit.New(a.DB, a.Log)
	smtp := a.Config.SMTP
	a.Outbox = notify.NewOutbox(a.DB, a.Log, notify.SMTPConfig{Host: smtp.Host, Port: smtp.Port, Username: smtp.Username,
		Password: smtp.Password, From: smtp.From, StartTLS: smtp.StartTLS && smtp.Port != 465, ImplicitTLS: smtp.Port == 465},
		notify.UserOptOut(a.DB))
	if !a.Outbox.Configured() {
		a.Log.Info("SMTP is not configured: e-mails are held in the outbox (Administration → Mail outbox)")
	}
	mailer := outboxMailer{a.Outbox}
	identityStore := identity.NewSQLStore(a.DB)
	a.Identity, err = identity.NewService(ctx, identityStore, identity.Config{
		AccessTokenTTL:  a.Config.AccessTokenTTL,
		RefreshTokenTTL: a.Config.RefreshTokenTTL,
		PublicURL:       a.publicURL(),
	})
	if err != nil {
		return err
	}
	a.Identity.WithMailer(mailer).WithAuditor(a.Audit)
	if a.repos, err = newRepos(ctx, a.Config.DataDir, a.DB); err != nil {
		return err
	}
	a.repos.AllowPrivateGitHosts(a.Config.AllowPrivateGitHosts) // off: git URLs to internal hosts are refused
	// Loose refs and objects are packed in the background, at most hourly per repository.
	upkeeper := upkeep.New(a.repos)
	upkeeper.StartMaintenance(time.Hour)
	a.stopMaintenance = upkeeper.StopMaintenance

	// The hub's room rules are the API's (access rules over the store); the portals' domains
	// come from the portal store. Every feature publishes through the notice outlet over it.
	accessStore := access.NewSQLStore(a.DB)
	portalStore := portal.NewSQLStore(a.DB)
	a.Hub = realtime.NewHub(a.Log, realtime.NewTickets(a.DB), a.Identity.AuthenticateSession,
		realtime.PolicyAuthorizer(access.NewRoomPolicy(access.NewRules(accessStore), portalStore.DomainOf)), a.newBus())
	a.notices = hubNotices{a.Hub}
	// Open sockets follow the session and the rights they joined their rooms with.
	a.Identity.WithSessionEvents(revalidation{a.Hub})

	a.Portals = portal.NewService(portalStore, portal.NewCategoryStore(a.DB), portal.NewTemplateStore(a.DB), a.repos, starterCatalog{}, people{a.Identity}, a.notices, a.Audit)
	a.Catalog = portal.NewCatalog(a.Portals)
	a.PortalAccess = portalaccess.NewChecker(a.Portals)
	// Deleting a domain deletes its portals and their files.
	a.Access = access.NewService(accessStore, a.Audit).WithPortals(a.Portals).WithAccessEvents(revalidation{a.Hub})

	if a.gitSSH, err = a.newGitSSH(); err != nil {
		return err
	}
	if err := a.bootstrapAdmin(ctx); err != nil {
		return err
	}
	web, err := a.webFS()
	if err != nil {
		return err
	}
	// The SSO flow cookie is sealed with the database-held signing secret, so a sign-in
	// started on one instance can finish on another.
	cookieKey, err := identityStore.SigningKey(ctx)
	if err != nil {
		return err
	}
	oidc := a.Config.OIDC
	single := sso.New(sso.Config{Issuer: oidc.Issuer, ClientID: oidc.ClientID, ClientSecret: oidc.ClientSecret,
		Label: oidc.Label, Provision: oidc.Provision, PublicURL: a.publicURL(), CookieKey: []byte(cookieKey)}, a.Identity, a.Log)
	features := []httpx.Routes{
		identity.NewHandler(a.Identity),
		single,
		appinfo.NewHandler(func() appinfo.Features {
			return appinfo.Features{SSO: appinfo.SSO{Enabled: single.Enabled(), Label: single.Label(), LoginURL: single.LoginURL()},
				Limits: appinfo.Limits{TaskTimeoutMs: a.Config.Tasks.Timeout.Milliseconds(), DiscardedWorkDays: int(workspace.DiscardedKeep / (24 * time.Hour))}}
		}),
		appinfo.NewLookupHandler(a.Config.DataDir),
		apidoc.Handler{}, // the OpenAPI document of these routes
		document.NewHandler(a.Config.DataDir),
		access.NewHandler(a.Access, identityStore),
		audit.NewHandler(a.Audit),
		admin.NewPreferencesHandler(admin.NewPreferences(a.DB, a.Audit, a.notices)), // a changed banner reaches every client at once
		admin.NewEmailHandler(admin.NewMessenger(a.DB, a.Identity, a.Access, mailer, a.Audit)),
		notify.NewHandler(a.Outbox),
		a.Hub,
		history.NewHandler(a.PortalAccess, gitlog.New(a.repos.Core())),
		a.newAssets(),
		// Thumbnails: read tokens keyed from the shared signing secret (every instance accepts them).
		thumbnail.NewHandler(thumbnail.NewService(a.Portals.Workspace().Files(), filepath.Join(a.Config.DataDir, "cache", "thumbnails"), thumbnail.LimitsMB(a.Config.Thumbnails.DecodeMB, a.Config.Thumbnails.MemoryMB, a.Config.Thumbnails.Decodes, a.Config.Thumbnails.CacheMB)),
			thumbnail.NewSigner(cookieKey), a.PortalAccess),
		// The portal unit's types by role, over the one portal service's dependencies.
		portal.NewHandler(portal.Parts{Portals: a.Portals, Templates: portal.NewTemplates(a.Portals), Branches: portal.NewBranches(a.Portals),
			Catalog: a.Catalog, Microsites: portal.NewMicrosites(a.Portals)}, a.PortalAccess, domainMembers{a.Access}),
	}
	features = append(features, a.newTranslations()...)
	features = append(features, a.newValueHistory())
	frames := a.newPreview(cookieKey)
	features = append(features, frames)
	features = append(features, a.newPages())
	features = append(features, a.newTaskRunner(ctx, a.repos))
	features = append(features, a.newShares())
	// Release readiness: workspace indexes kept live by saves, commit reports, the gate.
	a.readiness = readiness.New(readiness.Deps{Workspace: a.Portals.Workspace(), People: people{a.Identity}, Notices: a.notices,
		DB: a.DB, Audit: a.Audit, Log: a.Log, KeptSettings: a.Portals.KeptSettings})
	features = append(features, readiness.NewHandler(a.readiness, a.PortalAccess))
	loadables, err := a.newLoadables(ctx)
	if err != nil {
		return err
	}
	features = append(features, loadables)
	features = append(features, a.newWhitelist())
	features = append(features, collab.NewHandler(a.Portals.Workspace().Together(), a.PortalAccess),
		presence.NewHandler(presence.NewService(a.DB, people{a.Identity}, a.notices), a.PortalAccess))
	if err := a.wireUpstream(cookieKey, &features); err != nil { // git hosts of imported portals (upstream.go)
		return err
	}
	// Workspace writes reach, in process, the task runner (stale builds, Auto run), the
	// live previews (they follow commits) and release readiness (the author's findings).
	if a.tasks != nil {
		a.Portals.Listen(a.tasks)
	}
	a.Portals.Listen(a.shares, a.readiness)
	a.HTTP = httpapi.New(httpapi.Deps{
		Logger:     a.Log,
		DB:         a.DB,
		Auth:       a.Identity,
		Authorizer: a.Access,
		Features:   features,
		Web:        webWithConfig{FS: web, dir: filepath.Join(a.Config.DataDir, "web-config")},
		Registry:   prometheus.NewRegistry(),
		// /metrics on the public address only with its token; see also serveMetrics.
		MetricsToken: a.Config.MetricsToken,
		// X-Forwarded-For is believed only from these peers (sign-in limits, sessions, audit).
		TrustedProxies: a.Config.TrustedProxyPrefixes(),
		// The designer's frame on its own origin, when --frame-addr is set (frame.go).
		FrameSource: a.frame.For,
		FrameRoutes: frames.FrameRoutes(),
	})
	return nil
}

// newBus is how room messages reach the clients of other instances: with PostgreSQL,
// LISTEN/NOTIFY; with SQLite (one instance) none.
func (a *App) newBus() realtime.Bus {
	if a.DB.Dialect != store.Postgres {
		return nil
	}
	busCtx, cancel := context.WithCancel(context.Background())
	a.stopBus = cancel
	pg, ready := realtime.NewPGBus(busCtx, a.DB, a.Config.DatabaseDSN(), a.Log)
	select {
	case <-ready:
	case <-time.After(10 * time.Second):
		a.Log.Warn("realtime: LISTEN not ready yet; messages from other instances may be late")
	}
	return pg
}

func (a *App) webFS() (fs.FS, error) {
	if a.Config.WebDir != "" {
		if _, err := os.Stat(filepath.Join(a.Config.WebDir, "index.html")); err != nil {
			return nil, fmt.Errorf("web-dir %s has no index.html: %w", a.Config.WebDir, err)
		}
		return os.DirFS(a.Config.WebDir), nil
	}
	web := webui.FS()
	if _, err := fs.Stat(web, "index.html"); err != nil {
		a.Log.Warn("this binary was built without the web app (run `make build`); only the API is served")
	}
	return web, nil
}

// bootstrapAdmin creates the first admin on an empty database and tells the console its
// password once; a generated one is also written (mode 0600) to the data dir.
func (a *App) bootstrapAdmin(ctx context.Context) error {
	created, generated, err := a.Identity.EnsureInitialAdmin(ctx, a.Config.AdminPassword)
	if err != nil {
		return err
	}
	file := filepath.Join(a.Config.DataDir, InitialAdminPasswordFile)
	switch {
	case created && generated != "":
		if err := os.WriteFile(file, []byte(generated+"\n"), 0o600); err != nil {
			return fmt.Errorf("write %s: %w", file, err)
		}
		fmt.Fprintf(a.console, "Created the user %q with the password: %s\n(also written to %s; change it after signing in)\n",
			identity.InitialAdminName, generated, file)
	case created:
		fmt.Fprintf(a.console, "Created the user %q with the password from PORTALWRIGHT_ADMIN_PASSWORD.\n", identity.InitialAdminName)
	}
	// The demo comes after the password is out: a failing demo must not leave an admin whose
	// password nobody saw. It is a convenience, so a failure is logged, not fatal.
	if created && a.Config.Demo {
		if err := a.bootstrapDemo(ctx); err != nil {
			a.Log.Error("could not create the demo domain", "error", err)
		}
	}
	return nil
}

func (a *App) bootstrapDemo(ctx context.Context) error {
	admin, err := a.Identity.UserByName(ctx, identity.InitialAdminName)
	if err != nil {
		return err
	}
	return createDemo(ctx, a.Access, a.Portals, a.Catalog, admin.ID)
}

// Close stops the event bus and releases the database.
func (a *App) Close() error {
	a.gitSSH.close()
	if a.shares != nil {
		a.shares.Close()
	}
	if a.loadables != nil {
		a.loadables.Close()
	}
	if a.readiness != nil {
		a.readiness.Close()
	}
	if a.stopHandOver != nil {
		a.stopHandOver()
	}
	if a.tasks != nil {
		a.tasks.Close()
	}
	if a.stopBus != nil {
		a.stopBus()
	}
	if a.stopMaintenance != nil {
		a.stopMaintenance()
	}
	return a.DB.Close()
}

// Serve listens on the configured address and serves until ctx is cancelled, then shuts
// down gracefully (in-flight requests get up to 15 s).
func (a *App) Serve(ctx context.Context) error {
	ln, err := net.Listen("tcp", a.Config.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", a.Config.Addr, err)
	}
	return a.ServeListener(ctx, ln)
}

// ServeListener serves on an existing listener (tests use port 0).
func (a *App) ServeListener(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           a.HTTP,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(a.Log.Handler(), slog.LevelWarn),
		// No ReadTimeout or WriteTimeout: they would bound whole requests (uploads, imports,
		// the WebSocket). Request bodies get a per-chunk time-out instead (httpapi).
	}
	if a.Config.MetricsAddr != "" { // /metrics for operators, on their own address
		stopMetrics, err := a.serveMetrics(a.Config.MetricsAddr)
		if err != nil {
			return err
		}
		defer stopMetrics()
	}
	stopSSH, err := a.gitSSH.listen(a) // git over SSH, when --ssh-addr is set
	if err != nil {
		return err
	}
	defer stopSSH()
	stopFrame, err := a.serveFrame() // the designer's frame on its own origin, when --frame-addr is set
	if err != nil {
		return err
	}
	defer stopFrame()
	fmt.Fprintf(a.console, "Portalwright %s is running at %s\n", portalwright.BackendVersion(), PublicURL(ln.Addr()))
	workers, stopWorkers := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); a.Outbox.Run(workers) }()
	wg.Add(1)
	go func() { defer wg.Done(); a.Hub.Run(workers) }() // re-checks every socket now and then
	wg.Add(1)
	go func() { defer wg.Done(); a.Portals.SweepDataDir(workers, a.started, a.DB.Dialect != store.Postgres) }()
	defer func() { stopWorkers(); wg.Wait() }()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	a.Log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// publicURL is the configured public URL, or one made from the listen address.
func (a *App) publicURL() string {
	if a.Config.PublicURL != "" {
		return strings.TrimRight(a.Config.PublicURL, "/")
	}
	if addr, err := net.ResolveTCPAddr("tcp", a.Config.Addr); err == nil {
		return strings.TrimRight(PublicURL(addr), "/")
	}
	return "http://" + a.Config.Addr
}

// outboxMailer lets identity and admin queue mail in the outbox.
type outboxMailer struct{ o *notify.Outbox }

func (m outboxMailer) QueueTx(ctx context.Context, tx *store.Tx, mail identity.Mail) error {
	kind := notify.Notification
	if mail.Transactional {
		kind = notify.Transactional
	}
	_, err := m.o.EnqueueTx(ctx, tx, notify.Mail{To: mail.To, ToName: mail.ToName, Subject: mail.Subject, Text: mail.Text, UserID: mail.UserID, Kind: kind})
	return err
}

// PublicURL is the address to open in a browser: a wildcard host becomes localhost.
func PublicURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String() + "/"
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return "http://" + host + ":" + port + "/"
}
