// Command portalwright is the Portalwright server and its administration commands.
package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"portalwright"
	"portalwright/internal/app"
	"portalwright/internal/config"
	"portalwright/internal/identity"
	"portalwright/internal/loadable"
)

const usage = `Portalwright: browser-based authoring and publishing workspace for portals.

Usage:
  portalwright [serve] [flags]   start the server (default)
  portalwright migrate [flags]   apply database migrations and exit
  portalwright user create [flags]
                                 create a user (--admin for an administrator)
  portalwright check [--format text|json] [--rules a,b] DIR
                                 check a portal folder or git checkout for release
                                 readiness (exit 0: no errors, 1: errors, 2: could not check)
  portalwright verify-loadable <file.tar.gz>
                                 check a loadable package against its manifest
  portalwright backup --to DIR|FILE.tar.gz [--include-workspaces]
                                 back up the data directory and database while the
                                 server runs (docs/operations.md "Backup and restore")
  portalwright restore --from DIR|FILE.tar.gz --data-dir DIR [--database-url URL]
                                 restore a backup into an empty data directory
  portalwright verify-backup DIR|FILE.tar.gz
                                 check a backup against its manifest
  portalwright version           print the version

Run 'portalwright <command> --help' for the flags of a command.
Flags win over PORTALWRIGHT_* environment variables, which win over defaults.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	var exit *exitError
	if errors.As(err, &exit) {
		if exit.err != nil {
			fmt.Fprintln(os.Stderr, "portalwright:", exit.err)
		}
		stop()
		os.Exit(exit.code)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "portalwright:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) error {
	cmd := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(ctx, args, stdout, stderr, getenv)
	case "migrate":
		return migrate(ctx, args, stdout, stderr, getenv)
	case "user":
		if len(args) == 0 || args[0] != "create" {
			if len(args) > 0 && (args[0] == "--help" || args[0] == "-h") {
				fmt.Fprint(stdout, "Usage: portalwright user create [flags]\n")
				return flag.ErrHelp
			}
			return errors.New("usage: portalwright user create [flags]")
		}
		return userCreate(ctx, args[1:], stdin, stdout, stderr, getenv)
	case "check":
		return checkPortal(ctx, args, stdout, stderr)
	case "verify-loadable":
		return verifyLoadable(args, stdout)
	case "backup":
		return backupCmd(ctx, args, stdout, stderr, getenv)
	case "restore":
		return restoreCmd(ctx, args, stdout, stderr, getenv)
	case "verify-backup":
		return verifyBackup(args, stdout)
	case "version":
		fmt.Fprintln(stdout, portalwright.BackendVersion())
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	default:
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown command %q", cmd)
	}
}

// parse builds a flag set for a command with the shared configuration flags.
func parse(name, synopsis string, args []string, stdout io.Writer, getenv func(string) string, extra func(*flag.FlagSet)) (config.Config, error) {
	cfg := config.Defaults()
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stdout)
	fs.Usage = func() {
		fmt.Fprintf(stdout, "Usage: portalwright %s [flags]\n\n%s\n\nFlags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	binder := config.Register(fs, &cfg)
	if extra != nil {
		extra(fs)
	}
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return cfg, binder.Resolve(getenv)
}

func serve(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	cfg, err := parse("serve", "Start the server. The first start creates the user 'admin'; its password is\n"+
		"PORTALWRIGHT_ADMIN_PASSWORD or a generated one printed here once.", args, stdout, getenv, nil)
	if err != nil {
		return err
	}
	log := app.NewLogger(cfg, stderr)
	a, err := app.New(ctx, cfg, log, stdout)
	if err != nil {
		return err
	}
	defer a.Close()
	return a.Serve(ctx)
}

func migrate(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	cfg, err := parse("migrate", "Apply pending database migrations and exit.", args, stdout, getenv, nil)
	if err != nil {
		return err
	}
	db, err := app.OpenStore(ctx, cfg, app.NewLogger(cfg, stderr))
	if err != nil {
		return err
	}
	defer db.Close()
	fmt.Fprintf(stdout, "Database %s is up to date.\n", cfg.Redacted())
	return nil
}

func userCreate(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) error {
	var in identity.NewUser
	var passwordStdin bool
	cfg, err := parse("user create", "Create a user. The password is read from --password or, with --password-stdin,\n"+
		"from the first line of standard input.", args, stdout, getenv, func(fs *flag.FlagSet) {
		fs.StringVar(&in.UserName, "username", "", "user name (required)")
		fs.StringVar(&in.Password, "password", "", "password (visible in the process list: prefer --password-stdin)")
		fs.BoolVar(&passwordStdin, "password-stdin", false, "read the password from standard input")
		fs.StringVar(&in.FirstName, "first-name", "", "first name")
		fs.StringVar(&in.LastName, "last-name", "", "last name")
		fs.StringVar(&in.Email, "email", "", "e-mail address")
		fs.BoolVar(&in.Admin, "admin", false, "make the user an administrator")
	})
	if err != nil {
		return err
	}
	if in.UserName == "" {
		return errors.New("--username is required")
	}
	if passwordStdin {
		line, err := bufio.NewReader(stdin).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("read password: %w", err)
		}
		in.Password = strings.TrimRight(line, "\r\n")
	}
	if in.Password == "" {
		return errors.New("a password is required: --password or --password-stdin")
	}
	log := app.NewLogger(cfg, stderr)
	db, err := app.OpenStore(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer db.Close()
	svc, err := identity.NewService(ctx, identity.NewSQLStore(db), identity.Config{AccessTokenTTL: cfg.AccessTokenTTL, RefreshTokenTTL: cfg.RefreshTokenTTL})
	if err != nil {
		return err
	}
	u, err := svc.CreateUser(ctx, in)
	if err != nil {
		return err
	}
	role := "user"
	if u.Admin {
		role = "administrator"
	}
	fmt.Fprintf(stdout, "Created %s %q (id %d).\n", role, u.UserName, u.ID)
	return nil
}

// verifyLoadable checks a package against its manifest (docs/portal-format.md "Loadable
// packages") and prints its commit, file count and SHA-256.
func verifyLoadable(args []string, stdout io.Writer) error {
	file, err := oneArgument(args, stdout, "portalwright verify-loadable <file.tar.gz>",
		"Check a loadable package against its manifest: every file's size and SHA-256, none missing or added.")
	if err != nil {
		return err
	}
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	sum := sha256.New()
	m, err := loadable.Verify(io.TeeReader(f, sum))
	if err != nil {
		return err
	}
	if _, err := io.Copy(sum, f); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "OK: %d files from commit %s; package sha256 %s\n", len(m.Files), m.SourceCommit, hex.EncodeToString(sum.Sum(nil)))
	return nil
}

// oneArgument is the one argument of a command that takes nothing else (--help prints usage and
// synopsis).
func oneArgument(args []string, stdout io.Writer, usage, synopsis string) (string, error) {
	if len(args) == 1 && (args[0] == "--help" || args[0] == "-h") {
		fmt.Fprintf(stdout, "Usage: %s\n\n%s\n", usage, synopsis)
		return "", flag.ErrHelp
	}
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		return "", errors.New("usage: " + usage)
	}
	return args[0], nil
}
