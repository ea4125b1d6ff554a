// Package backup makes an online backup of a Portalwright data directory and its database,
// checks one, and restores one into an empty data directory (issue 34; docs/operations.md
// "Backup and restore").
//
// The consistency rules, which hold while the server runs and writes:
//
//  1. The database is copied first, as one consistent snapshot: SQLite with VACUUM INTO (a
//     read transaction; writers go on in WAL mode), PostgreSQL with pg_dump from a snapshot
//     this package exports and reads the same facts in (or a dump the operator made just
//     before, --database-dump). The rest of the backup follows from that copy: the portals,
//     users and loadables it holds are the ones backed up.
//  2. Then each portal's canonical repository: its refs are listed once, after the database
//     copy, and bundled from that list (backups.Backups.BundleCanonical), never copied as files.
//     Every commit the copy refers to is in the bundle: a branch may only have moved on, the
//     store never prunes, and a loadable's commit that no ref reaches any more is kept under
//     refs/portalwright/referenced/. A repository that fails `git fsck --connectivity-only`
//     fails the backup.
//  3. Loadable packages are write-once (written as .tmp, renamed when complete): those the
//     copy names as generated are copied and must match the SHA-256 it holds.
//  4. With --include-workspaces, each author's workspace gives a snapshot (branch, commit,
//     uncommitted work as a commit made without touching it, discarded work) and a bundle of
//     what the canonical snapshot lacks.
//  5. The operator's files (documents, web configuration, hand-over targets) and the keys
//     (secrets key, SSH host key) are copied and the keys flagged secret in the manifest.
//  6. Everything is written under a temporary name; the manifest (version, schema version,
//     every file with its SHA-256) is written last and the backup renamed into place only
//     then. A backup without a manifest is incomplete: verify and restore refuse it. Any
//     failure (disk full, a damaged repository, an unreadable database, a file the copy names
//     that is missing or changed) removes what was written and fails.
//
// A restore checks the whole backup against its manifest before it writes anything, writes
// only into an empty data directory (and an empty PostgreSQL schema), loads the database
// last, and on failure removes what it wrote. The server then migrates an older schema
// forward when it starts.
package backup

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"portalwright/internal/config"
	"portalwright/internal/gitcli"
	"portalwright/internal/handover"
	"portalwright/internal/store"
	"portalwright/internal/upstream"
	"portalwright/internal/workspace"
	"portalwright/internal/workspace/backups"
	"portalwright/internal/workspace/hostsync"
)

// Options are a backup's choices beyond the server's configuration.
type Options struct {
	To                string // a new folder, or a new FILE.tar.gz
	IncludeWorkspaces bool
	// DatabaseDump is a dump of the PostgreSQL database the operator made just before
	// (pg_dump), used instead of running pg_dump.
	DatabaseDump string
	Version      string   // the product's version, recorded in the manifest
	Progress     Progress // lines for the terminal; nil: none
}

// Progress receives one line of progress.
type Progress func(format string, args ...any)

func (p Progress) say(format string, args ...any) {
	if p != nil {
		p(format, args...)
	}
}

// Backup makes a backup of the data directory and database cfg names.
func Backup(ctx context.Context, cfg config.Config, opts Options) (_ *Manifest, err error) {
	dataDir, err := filepath.Abs(cfg.DataDir)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(dataDir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("there is no data directory at %s", dataDir)
	}
	to, err := filepath.Abs(opts.To)
	if err != nil || opts.To == "" {
		return nil, errors.New("--to needs a folder or a FILE.tar.gz to write the backup to")
	}
	if rel, err := filepath.Rel(dataDir, to); err == nil && !strings.HasPrefix(rel, "..") {
		return nil, fmt.Errorf("the backup %s must not be inside the data directory %s", to, dataDir)
	}
	dsn := cfg.DatabaseDSN()
	if opts.DatabaseDump != "" && !config.IsPostgresURL(dsn) {
		return nil, errors.New("--database-dump is for a PostgreSQL database; a SQLite database is copied by the backup itself")
	}
	out, err := newSink(to)
	if err != nil {
		return nil, err
	}
	scratch, err := os.MkdirTemp(filepath.Dir(to), ".portalwright-backup-scratch-")
	if err != nil {
		out.abort()
		return nil, err
	}
	defer os.RemoveAll(scratch)
	defer func() {
		if err != nil {
			err = diskFull(err, filepath.Dir(to)) // before the partial backup is removed
			out.abort()
		}
	}()
	g, err := gitcli.New(ctx, gitcli.Options{Home: filepath.Join(scratch, "git-home")})
	if err != nil {
		return nil, err
	}
	b := &run{
		ctx: ctx, cfg: cfg, opts: opts, dataDir: dataDir, out: out, scratch: scratch, say: opts.Progress,
		repos: workspace.NewRepos(g, gitcli.NewLocks(), dataDir),
		m: &Manifest{Format: Format, Product: "portalwright", Version: opts.Version, StartedAt: time.Now().UTC(), DataDir: dataDir, IncludesWorkspaces: opts.IncludeWorkspaces,
			Repositories: []Repository{}, Loadables: []Loadable{}, Files: []File{}},
	}
	b.say.say("backup of %s to %s", dataDir, to)
	for _, step := range []func() error{b.database, b.repositories, b.loadables, b.workspaces, b.files} {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := step(); err != nil {
			if ctx.Err() != nil { // a git or pg_dump killed by the interruption fails as well
				return nil, ctx.Err()
			}
			return nil, err
		}
	}
	b.m.FinishedAt = time.Now().UTC()
	sortFiles(b.m.Files)
	data, err := json.MarshalIndent(b.m, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := out.finish(append(data, '\n')); err != nil {
		return nil, err
	}
	var total int64
	for _, f := range b.m.Files {
		total += f.Size
	}
	b.say.say("backup complete: %s, %d files, %s, in %s", to, len(b.m.Files)+1, megabytes(total), b.m.FinishedAt.Sub(b.m.StartedAt).Round(100*time.Millisecond))
	return b.m, nil
}

// run is one backup under way.
type run struct {
	ctx     context.Context
	cfg     config.Config
	opts    Options
	dataDir string
	out     sink
	scratch string
	say     Progress
	repos   *workspace.Repos
	m       *Manifest
	facts   *facts
	tips    map[int64][]string // portal → the objects of its snapshot's refs
}

func (b *run) add(name, src string, move, secret bool) error {
	f, err := b.out.add(name, src, move, secret)
	if err != nil {
		return err
	}
	b.m.Files = append(b.m.Files, f)
	return nil
}

// database copies the database (rule 1).
func (b *run) database() error {
	return b.say.while("database", b.copyDatabase)
}

func (b *run) copyDatabase() error {
	started := time.Now()
	dsn := b.cfg.DatabaseDSN()
	var err error
	switch {
	case !config.IsPostgresURL(dsn):
		tmp := filepath.Join(b.scratch, "portalwright.db")
		if b.facts, err = copySQLite(b.ctx, sqlitePath(dsn), tmp); err != nil {
			return err
		}
		b.m.Database = Database{Dialect: "sqlite", File: "database/portalwright.db", Dump: "vacuum-into"}
		err = b.add(b.m.Database.File, tmp, true, false)
	case b.opts.DatabaseDump != "":
		var custom bool
		if b.facts, custom, err = givenDump(b.ctx, dsn, b.opts.DatabaseDump); err != nil {
			return err
		}
		b.m.Database = Database{Dialect: "postgres", File: "database/portalwright.sql", Dump: "given"}
		if custom {
			b.m.Database.File = "database/portalwright.dump"
		}
		err = b.add(b.m.Database.File, b.opts.DatabaseDump, false, false)
	default:
		tmp := filepath.Join(b.scratch, "portalwright.sql")
		if b.facts, err = dumpPostgres(b.ctx, dsn, tmp); err != nil {
			return err
		}
		b.m.Database = Database{Dialect: "postgres", File: "database/portalwright.sql", Dump: "pg_dump"}
		err = b.add(b.m.Database.File, tmp, true, false)
	}
	if err != nil {
		return err
	}
	b.m.Database.SchemaVersion, b.m.Database.Schema = b.facts.schemaVersion, b.facts.schema
	b.say.say("database (%s, schema version %d) copied: %d portals, %d users, %d loadable packages, in %s", b.m.Database.Dialect,
		b.facts.schemaVersion, len(b.facts.portals), len(b.facts.users), len(b.facts.loadables), time.Since(started).Round(10*time.Millisecond))
	return nil
}

// repositories bundles every portal's canonical repository (rule 2).
func (b *run) repositories() error {
	keep := map[int64][]string{}
	for _, l := range b.facts.loadables {
		keep[l.portal] = append(keep[l.portal], l.ref)
	}
	b.tips = map[int64][]string{}
	tick := b.say.counter("repositories", len(b.facts.portals))
	for _, id := range b.facts.portals {
		if err := b.ctx.Err(); err != nil {
			return err
		}
		name := "repos/" + strconv.FormatInt(id, 10) + ".bundle"
		tmp := filepath.Join(b.scratch, strconv.FormatInt(id, 10)+".bundle")
		var snap *backups.RepoSnapshot
		err := b.say.while(fmt.Sprintf("repository of portal %d", id), func() (err error) {
			snap, err = backups.New(b.repos).BundleCanonical(b.ctx, id, b.scratch, tmp, keep[id])
			return err
		})
		if errors.Is(err, backups.ErrNoRepository) {
			return fmt.Errorf("portal %d is in the database but its repository %s is missing (deleted since the backup started? run the backup again)", id, b.repos.Core().Bare(id))
		}
		if err != nil {
			return fmt.Errorf("portal %d: %w", id, err)
		}
		for _, sha := range snap.Missing {
			return fmt.Errorf("portal %d: the database names commit %s, which its repository %s does not have", id, sha, b.repos.Core().Bare(id))
		}
		rec := Repository{Portal: id, Head: snap.Head, Refs: snap.Refs, Kept: snap.Kept}
		if len(snap.Refs) > 0 {
			rec.Bundle = name
			if err := b.add(name, tmp, true, false); err != nil {
				return err
			}
		}
		for _, side := range hostsync.SideFiles {
			src := filepath.Join(b.repos.Core().Bare(id), side)
			if _, err := os.Stat(src); err != nil {
				continue
			}
			p := "repos/" + strconv.FormatInt(id, 10) + "/" + side
			if err := b.add(p, src, false, false); err != nil {
				return err
			}
			if rec.SideFiles == nil {
				rec.SideFiles = map[string]string{}
			}
			rec.SideFiles[side] = p
		}
		b.tips[id] = snap.Tips()
		b.m.Repositories = append(b.m.Repositories, rec)
		tick(fmt.Sprintf("portal %d, %d refs", id, len(snap.Refs)))
	}
	return nil
}

// loadables copies the packages the database names (rule 3).
func (b *run) loadables() error {
	tick := b.say.counter("loadable packages", len(b.facts.loadables))
	for _, l := range b.facts.loadables {
		if l.file == "" || l.file != filepath.Base(l.file) || strings.HasPrefix(l.file, ".") {
			return fmt.Errorf("loadable %d: the database names no valid package file (%q)", l.id, l.file)
		}
		rel := "loadables/" + strconv.FormatInt(l.portal, 10) + "/" + strconv.FormatInt(l.id, 10) + "/" + l.file
		src := filepath.Join(b.dataDir, filepath.FromSlash(rel))
		if _, err := os.Stat(src); err != nil {
			return fmt.Errorf("loadable %d: its package %s is missing (deleted since the backup started? run the backup again): %w", l.id, src, err)
		}
		if err := b.add(rel, src, false, false); err != nil {
			return err
		}
		if got := b.m.Files[len(b.m.Files)-1].SHA256; l.sha != "" && got != l.sha {
			return fmt.Errorf("loadable %d: its package %s does not match the SHA-256 the database holds (changed on disk: %s, approved %s)", l.id, src, got, l.sha)
		}
		b.m.Loadables = append(b.m.Loadables, Loadable{ID: l.id, Portal: l.portal, File: rel, SHA256: l.sha})
		tick(rel)
	}
	return nil
}

// workspaces takes each author's workspace (rule 4), with --include-workspaces.
func (b *run) workspaces() error {
	if !b.opts.IncludeWorkspaces {
		return nil
	}
	type ws struct{ user, portal int64 }
	var list []ws
	portals := map[int64]bool{}
	for _, p := range b.facts.portals {
		portals[p] = true
	}
	users, _ := os.ReadDir(filepath.Join(b.dataDir, "workspaces"))
	for _, u := range users {
		uid, err := strconv.ParseInt(u.Name(), 10, 64)
		if err != nil || !b.facts.users[uid] {
			continue
		}
		entries, _ := os.ReadDir(filepath.Join(b.dataDir, "workspaces", u.Name()))
		for _, e := range entries {
			pid, err := strconv.ParseInt(e.Name(), 10, 64)
			if err == nil && e.IsDir() && portals[pid] {
				list = append(list, ws{uid, pid})
			}
		}
	}
	sort.Slice(list, func(i, j int) bool {
		return list[i].user < list[j].user || list[i].user == list[j].user && list[i].portal < list[j].portal
	})
	tick := b.say.counter("workspaces", len(list))
	for _, w := range list {
		if err := b.ctx.Err(); err != nil {
			return err
		}
		tmp := filepath.Join(b.scratch, fmt.Sprintf("ws-%d-%d.bundle", w.user, w.portal))
		var snap *backups.WorkspaceSnapshot
		err := b.say.while(fmt.Sprintf("workspace of user %d in portal %d", w.user, w.portal), func() (err error) {
			snap, err = backups.New(b.repos).ExportWorkspace(b.ctx, w.user, w.portal, b.scratch, tmp, b.tips[w.portal])
			return err
		})
		if errors.Is(err, workspace.ErrNoWorkspace) {
			continue // removed meanwhile, or a half-made clone
		}
		if err != nil {
			return fmt.Errorf("workspace of user %d in portal %d: %w", w.user, w.portal, err)
		}
		rec := Workspace{User: w.user, Portal: w.portal, WorkspaceSnapshot: *snap}
		if snap.Bundled {
			rec.Bundle = fmt.Sprintf("workspaces/%d/%d.bundle", w.user, w.portal)
			if err := b.add(rec.Bundle, tmp, true, false); err != nil {
				return err
			}
		}
		b.m.Workspaces = append(b.m.Workspaces, rec)
		tick(fmt.Sprintf("user %d, portal %d", w.user, w.portal))
	}
	return nil
}

// Where the operator's files go in a backup, and back in a data directory.
const (
	filesPrefix   = "files/"
	secretsKey    = "keys/secrets.key"
	sshHostKey    = "keys/ssh_host_ed25519_key"
	handoverFile  = "config/" + handover.DefaultFileName
	sshKeyDefault = "ssh_host_ed25519_key"
	secretsKeyOut = "secrets.key"
)

// operatorFolders are the data directory's folders of operator files, copied whole.
var operatorFolders = []string{"documents", "web-config"}

// files copies the operator's files and the keys (rule 5).
func (b *run) files() error {
	n := 0
	for _, dir := range operatorFolders {
		root := filepath.Join(b.dataDir, dir)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if errors.Is(err, fs.ErrNotExist) && p == root {
				return nil
			}
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			rel, _ := filepath.Rel(b.dataDir, p)
			n++
			return b.add(filesPrefix+filepath.ToSlash(rel), p, false, false)
		})
		if err != nil {
			return err
		}
	}
	switch {
	case b.cfg.SecretsKey != "":
		if _, err := upstream.LoadKey("", b.cfg.SecretsKey); err != nil {
			return err
		}
		tmp := filepath.Join(b.scratch, "secrets.key")
		if err := os.WriteFile(tmp, []byte(strings.TrimSpace(b.cfg.SecretsKey)+"\n"), 0o600); err != nil {
			return err
		}
		if err := b.add(secretsKey, tmp, true, true); err != nil {
			return err
		}
		n++
	case b.cfg.SecretsKeyFile != "":
		if _, err := upstream.LoadKey(b.cfg.SecretsKeyFile, ""); err != nil {
			return err
		}
		if err := b.add(secretsKey, b.cfg.SecretsKeyFile, false, true); err != nil {
			return err
		}
		n++
	default:
		b.say.say("no secrets key configured (--secrets-key-file, PORTALWRIGHT_SECRETS_KEY): the backup has none; stored git host credentials need the key to be read")
	}
	if p := b.cfg.SSHHostKeyPath(); exists(p) {
		if err := b.add(sshHostKey, p, false, true); err != nil {
			return err
		}
		n++
	}
	hc := b.cfg.HandoverConfig
	if hc == "" {
		hc = filepath.Join(b.dataDir, handover.DefaultFileName)
	}
	if exists(hc) {
		if err := b.add(handoverFile, hc, false, true); err != nil {
			return err
		}
		n++
	}
	b.say.say("operator files and keys: %d files", n)
	return nil
}

func exists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// counter reports the progress of a step of n items: every item when there are few, else
// every two seconds, and the end.
func (p Progress) counter(what string, n int) func(item string) {
	started, last, done := time.Now(), time.Now(), 0
	if n == 0 {
		p.say("%s: none", what)
	}
	return func(item string) {
		done++
		switch {
		case done == n:
			p.say("%s: %d/%d in %s", what, done, n, time.Since(started).Round(10*time.Millisecond))
		case n <= 20 || time.Since(last) >= 2*time.Second:
			last = time.Now()
			p.say("%s: %d/%d (%s)", what, done, n, item)
		}
	}
}

// while runs a long step, saying every 10 s that it still runs (a large repository's bundle,
// a large database's dump).
func (p Progress) while(what string, step func() error) error {
	if p == nil {
		return step()
	}
	done := make(chan struct{})
	started := time.Now()
	go func() {
		t := time.NewTicker(10 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				p.say("%s: still running after %s", what, time.Since(started).Round(time.Second))
			}
		}
	}()
	defer close(done)
	return step()
}

func megabytes(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }

// latestSchema is the schema version this binary migrates a dialect to.
func latestSchema(dialect string) (int64, error) {
	if dialect == "postgres" {
		return store.LatestVersion(store.Postgres)
	}
	return store.LatestVersion(store.SQLite)
}

// diskFull names a full file system as the cause of a failure whose own message may not (git's
// "failed to write", a tool's "write error").
func diskFull(err error, dir string) error {
	var st syscall.Statfs_t
	if errors.Is(err, syscall.ENOSPC) || strings.Contains(err.Error(), syscall.ENOSPC.Error()) || syscall.Statfs(dir, &st) != nil {
		return err
	}
	if free := int64(st.Bavail) * int64(st.Bsize); free < 1<<20 {
		return fmt.Errorf("%w (%v: %s has %d bytes free)", err, syscall.ENOSPC, dir, free)
	}
	return err
}
