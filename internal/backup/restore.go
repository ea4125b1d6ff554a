package backup

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"portalwright/internal/config"
	"portalwright/internal/gitcli"
	"portalwright/internal/handover"
	"portalwright/internal/store"
	"portalwright/internal/workspace"
	"portalwright/internal/workspace/backups"
)

// Restored says where a restore put what the server must be told about.
type Restored struct {
	Manifest *Manifest
	// SecretsKeyFile and SSHHostKeyFile are the restored keys ("" when the backup had none).
	SecretsKeyFile, SSHHostKeyFile string
}

// Verify checks a backup (folder or .tar.gz) against its manifest without restoring it: every
// file present with its size and SHA-256, none missing or added, and a format and schema
// version this binary can restore.
func Verify(from string) (*Manifest, error) {
	src, err := open(from, "")
	if err != nil {
		return nil, err
	}
	return src.manifest, compatible(src.manifest)
}

// open reads a backup; a .tar.gz is extracted into stage when it is not "".
func open(from, stage string) (*source, error) {
	from, err := filepath.Abs(from)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(from)
	if err != nil {
		return nil, fmt.Errorf("cannot read the backup: %w", err)
	}
	if fi.IsDir() {
		return openDir(from)
	}
	return readArchive(from, stage)
}

// compatible refuses a backup of a schema newer than this binary knows.
func compatible(m *Manifest) error {
	latest, err := latestSchema(m.Database.Dialect)
	if err != nil {
		return err
	}
	if m.Database.SchemaVersion > latest {
		return fmt.Errorf("the backup's database has schema version %d, newer than this Portalwright's (%d): restore it with Portalwright %s or newer", m.Database.SchemaVersion, latest, m.Version)
	}
	return nil
}

// Restore puts a backup into the empty data directory (and, for a PostgreSQL backup, the empty
// database) cfg names. It checks the whole backup first and removes what it wrote when it
// fails.
func Restore(ctx context.Context, cfg config.Config, from string, say Progress) (_ *Restored, err error) {
	dataDir, err := filepath.Abs(cfg.DataDir)
	if err != nil {
		return nil, err
	}
	entries, statErr := os.ReadDir(dataDir)
	switch {
	case statErr == nil && len(entries) > 0:
		return nil, fmt.Errorf("the data directory %s is not empty (%d entries): restore only into a new or empty directory", dataDir, len(entries))
	case statErr != nil && !errors.Is(statErr, fs.ErrNotExist):
		return nil, statErr
	}
	if abs, err := filepath.Abs(from); err == nil {
		if rel, err := filepath.Rel(dataDir, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return nil, fmt.Errorf("the backup %s must not be inside the data directory %s", abs, dataDir)
		}
	}
	if err := os.MkdirAll(dataDir, 0o750); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil { // leave the directory as it was: empty, or not there
			if statErr == nil {
				emptyDir(dataDir)
			} else {
				_ = os.RemoveAll(dataDir)
			}
		}
	}()
	started := time.Now()
	stage := ""
	if fi, err := os.Stat(from); err == nil && !fi.IsDir() {
		stage = filepath.Join(dataDir, ".restore-staging")
		if err := os.Mkdir(stage, 0o700); err != nil {
			return nil, err
		}
		defer os.RemoveAll(stage)
	}
	say.say("checking %s against its manifest", from)
	src, err := open(from, stage)
	if err != nil {
		return nil, err
	}
	m := src.manifest
	if err := compatible(m); err != nil {
		return nil, err
	}
	say.say("backup of %s made by Portalwright %s at %s: %s database (schema version %d), %d repositories, %d loadable packages, %d workspaces",
		m.DataDir, m.Version, m.StartedAt.Format(time.RFC3339), m.Database.Dialect, m.Database.SchemaVersion, len(m.Repositories), len(m.Loadables), len(m.Workspaces))
	dsn := cfg.DatabaseDSN()
	switch {
	case m.Database.Dialect == "sqlite" && config.IsPostgresURL(dsn):
		return nil, errors.New("this backup holds a SQLite database: restore it without --database-url (or with sqlite:FILE)")
	case m.Database.Dialect == "postgres" && !config.IsPostgresURL(dsn):
		return nil, errors.New("this backup holds a PostgreSQL database: give --database-url postgres://… of an empty database to restore it into")
	case m.Database.Dialect == "sqlite":
		if _, err := os.Stat(sqlitePath(dsn)); err == nil {
			return nil, fmt.Errorf("the database file %s exists already", sqlitePath(dsn))
		}
	default:
		if err := postgresTarget(ctx, dsn, m.Database.Schema); err != nil {
			return nil, err
		}
	}

	g, err := gitcli.New(ctx, gitcli.Options{Home: filepath.Join(dataDir, "git-home")})
	if err != nil {
		return nil, err
	}
	r := &restore{ctx: ctx, src: src, dataDir: dataDir, say: say, repos: workspace.NewRepos(g, gitcli.NewLocks(), dataDir)}
	out := &Restored{Manifest: m}
	for _, step := range []func() error{r.repositories, r.loadables, r.workspaces, func() error { return r.files(out) }} {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := step(); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, err
		}
	}
	if err := say.while("database", func() error { return r.database(dsn) }); err != nil {
		return nil, err
	}
	say.say("restore complete in %s", time.Since(started).Round(100*time.Millisecond))
	return out, nil
}

// emptyDir removes everything in a folder.
func emptyDir(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		_ = os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}

// restore is one restore under way.
type restore struct {
	ctx     context.Context
	src     *source
	dataDir string
	say     Progress
	repos   *workspace.Repos
}

// place puts a file of the backup at dst (mode 0600): moved out of a staging folder, else
// copied.
func (r *restore) place(name, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o750); err != nil {
		return err
	}
	if r.src.staged {
		return os.Rename(r.src.path(name), dst)
	}
	_, _, err := copyFile(r.src.path(name), dst)
	return err
}

func (r *restore) repositories() error {
	m := r.src.manifest
	tick := r.say.counter("repositories", len(m.Repositories))
	for _, rec := range m.Repositories {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		bundle := ""
		if rec.Bundle != "" {
			bundle = r.src.path(rec.Bundle)
		}
		err := r.say.while(fmt.Sprintf("repository of portal %d", rec.Portal), func() error {
			return backups.New(r.repos).RestoreCanonical(r.ctx, rec.Portal, bundle, &backups.RepoSnapshot{Head: rec.Head, Refs: rec.Refs})
		})
		if err != nil {
			return fmt.Errorf("portal %d: %w", rec.Portal, err)
		}
		for name, p := range rec.SideFiles {
			if err := r.place(p, filepath.Join(r.repos.Core().Bare(rec.Portal), name)); err != nil {
				return err
			}
		}
		tick(fmt.Sprintf("portal %d", rec.Portal))
	}
	return nil
}

func (r *restore) loadables() error {
	for _, l := range r.src.manifest.Loadables {
		if err := r.place(l.File, filepath.Join(r.dataDir, filepath.FromSlash(l.File))); err != nil {
			return fmt.Errorf("loadable %d: %w", l.ID, err)
		}
	}
	r.say.say("loadable packages: %d restored", len(r.src.manifest.Loadables))
	return nil
}

func (r *restore) workspaces() error {
	m := r.src.manifest
	if !m.IncludesWorkspaces {
		return nil
	}
	tick := r.say.counter("workspaces", len(m.Workspaces))
	for _, w := range m.Workspaces {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		bundle := ""
		if w.Bundle != "" {
			bundle = r.src.path(w.Bundle)
		}
		snap := w.WorkspaceSnapshot
		if err := backups.New(r.repos).RestoreWorkspace(r.ctx, w.User, w.Portal, bundle, &snap); err != nil {
			return err
		}
		tick(fmt.Sprintf("user %d, portal %d", w.User, w.Portal))
	}
	return nil
}

// files puts the operator's files and the keys back.
func (r *restore) files(out *Restored) error {
	for _, f := range r.src.manifest.Files {
		var dst string
		switch {
		case strings.HasPrefix(f.Path, filesPrefix):
			rel := strings.TrimPrefix(f.Path, filesPrefix)
			top, _, _ := strings.Cut(rel, "/")
			if !operatorFolder(top) {
				return fmt.Errorf("the backup holds %s, which is no operator file", f.Path)
			}
			dst = filepath.Join(r.dataDir, filepath.FromSlash(rel))
		case f.Path == secretsKey:
			dst = filepath.Join(r.dataDir, secretsKeyOut)
			out.SecretsKeyFile = dst
		case f.Path == sshHostKey:
			dst = filepath.Join(r.dataDir, sshKeyDefault)
			out.SSHHostKeyFile = dst
		case f.Path == handoverFile:
			dst = filepath.Join(r.dataDir, handover.DefaultFileName)
		default:
			continue
		}
		if err := r.place(f.Path, dst); err != nil {
			return err
		}
	}
	return nil
}

func operatorFolder(name string) bool {
	for _, f := range operatorFolders {
		if f == name {
			return true
		}
	}
	return false
}

// database loads the database last: a SQLite file renamed into place, or the PostgreSQL dump.
func (r *restore) database(dsn string) error {
	m := r.src.manifest
	started := time.Now()
	if m.Database.Dialect == "sqlite" {
		dst := sqlitePath(dsn)
		tmp := dst + ".restoring"
		if err := r.place(m.Database.File, tmp); err != nil {
			return err
		}
		db, err := openSQLite(tmp)
		if err != nil {
			return err
		}
		err = movePaths(r.ctx, db, store.SQLite, m.DataDir, r.dataDir)
		if cerr := db.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			_ = os.Remove(tmp)
			return fmt.Errorf("restore the database: %w", err)
		}
		if err := os.Rename(tmp, dst); err != nil {
			return err
		}
	} else {
		if err := loadPostgres(r.ctx, dsn, m.Database.Schema, r.src.path(m.Database.File)); err != nil {
			return err
		}
		db, err := sql.Open("pgx", dsn)
		if err != nil {
			return err
		}
		err = movePaths(r.ctx, db, store.Postgres, m.DataDir, r.dataDir)
		db.Close()
		if err != nil { // the database is in: keep the restore; a hand-over retried finds its package again
			r.say.say("warning: the hand-over queue still names packages under %s: %v", m.DataDir, err)
		}
	}
	r.say.say("database (%s, schema version %d) restored in %s", m.Database.Dialect, m.Database.SchemaVersion, time.Since(started).Round(10*time.Millisecond))
	return nil
}
