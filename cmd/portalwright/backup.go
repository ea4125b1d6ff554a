package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"golang.org/x/sys/unix"

	"portalwright"
	"portalwright/internal/backup"
)

// progress writes a backup's or restore's progress lines to the terminal (stderr).
func progress(w io.Writer, prefix string) backup.Progress {
	return func(format string, args ...any) { fmt.Fprintf(w, prefix+format+"\n", args...) }
}

// backupCmd is `portalwright backup --to DIR|FILE.tar.gz [--include-workspaces]`.
func backupCmd(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	var opts backup.Options
	cfg, err := parse("backup", "Back up the data directory and database while the server runs, into a new folder or\n"+
		"FILE.tar.gz: the database first, then every portal's repository, loadable packages,\n"+
		"documents, hand-over targets and the keys; --include-workspaces adds each author's\n"+
		"uncommitted work. The manifest is written last: a backup without one is incomplete.\n"+
		"The backup holds the keys: store it as a secret (docs/operations.md \"Backup and restore\").", args, stdout, getenv, func(fs *flag.FlagSet) {
		fs.StringVar(&opts.To, "to", "", "the backup to write: a new (or empty) folder, or a new FILE.tar.gz (required)")
		fs.BoolVar(&opts.IncludeWorkspaces, "include-workspaces", false, "also back up each author's workspace: local commits, uncommitted changes, discarded work")
		fs.StringVar(&opts.DatabaseDump, "database-dump", "", "PostgreSQL: a pg_dump file you made just before, used instead of running pg_dump")
	})
	if err != nil {
		return err
	}
	if opts.To == "" {
		return errors.New("--to is required: the folder or FILE.tar.gz to write the backup to")
	}
	opts.Version = portalwright.BackendVersion()
	opts.Progress = progress(stderr, "backup: ")
	lowerPriority()
	_, err = backup.Backup(ctx, cfg, opts)
	return interrupted(err, "the backup was interrupted: nothing of it was kept")
}

// interrupted says what Ctrl-C (or SIGTERM) left instead of "context canceled".
func interrupted(err error, what string) error {
	if errors.Is(err, context.Canceled) {
		return errors.New(what)
	}
	return err
}

// lowerPriority runs the backup (and the git and pg_dump it starts) at nice 10, so the server
// it runs beside keeps answering (a higher niceness given by the operator is kept).
func lowerPriority() {
	// getpriority(2) answers 20 - nice.
	if p, err := unix.Getpriority(unix.PRIO_PROCESS, 0); err == nil && 20-p < 10 {
		_ = unix.Setpriority(unix.PRIO_PROCESS, 0, 10)
	}
}

// restoreCmd is `portalwright restore --from DIR|FILE.tar.gz --data-dir DIR [--database-url …]`.
func restoreCmd(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	var from string
	cfg, err := parse("restore", "Restore a backup into an empty data directory (and, for a PostgreSQL backup, the empty\n"+
		"database of --database-url), after checking it against its manifest. Start the server\n"+
		"on it afterwards: it migrates an older backup's database forward.", args, stdout, getenv, func(fs *flag.FlagSet) {
		fs.StringVar(&from, "from", "", "the backup: a folder or FILE.tar.gz (required)")
	})
	if err != nil {
		return err
	}
	if from == "" {
		return errors.New("--from is required: the backup folder or FILE.tar.gz to restore")
	}
	res, err := backup.Restore(ctx, cfg, from, progress(stderr, "restore: "))
	if err != nil {
		return interrupted(err, "the restore was interrupted: what it had written was removed")
	}
	fmt.Fprintf(stdout, "Restored the backup of %s (Portalwright %s, %s) into %s.\n", res.Manifest.DataDir, res.Manifest.Version,
		res.Manifest.StartedAt.Format("2006-01-02 15:04:05 MST"), cfg.DataDir)
	var start []string
	if res.SecretsKeyFile != "" {
		start = append(start, "--secrets-key-file "+res.SecretsKeyFile)
	}
	if cfg.DatabaseURL != "" {
		start = append(start, "--database-url "+cfg.Redacted())
	}
	fmt.Fprintf(stdout, "Start the server with: portalwright serve --data-dir %s %s\n", cfg.DataDir, strings.Join(start, " "))
	if res.SSHHostKeyFile != "" {
		fmt.Fprintf(stdout, "The SSH host key is %s (the default --ssh-host-key-file).\n", res.SSHHostKeyFile)
	}
	return nil
}

// verifyBackup is `portalwright verify-backup DIR|FILE.tar.gz`.
func verifyBackup(args []string, stdout io.Writer) error {
	from, err := oneArgument(args, stdout, "portalwright verify-backup DIR|FILE.tar.gz",
		"Check a backup against its manifest without restoring it: every file with its size and\nSHA-256, none missing or added, and a format and schema version this binary restores.")
	if err != nil {
		return err
	}
	m, err := backup.Verify(from)
	if err != nil {
		return err
	}
	var size int64
	secret := 0
	for _, f := range m.Files {
		size += f.Size
		if f.Secret {
			secret++
		}
	}
	fmt.Fprintf(stdout, "OK: backup of %s by Portalwright %s, %s to %s; %s database (schema version %d), %d repositories, %d loadable packages, %d workspaces; %d files, %.1f MB, %d secret\n",
		m.DataDir, m.Version, m.StartedAt.Format("2006-01-02 15:04:05"), m.FinishedAt.Format("15:04:05 MST"), m.Database.Dialect, m.Database.SchemaVersion,
		len(m.Repositories), len(m.Loadables), len(m.Workspaces), len(m.Files)+1, float64(size)/1e6, secret)
	return nil
}
