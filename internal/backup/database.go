package backup

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"

	"portalwright/internal/store"
)

// querier is what reading the facts needs: a database or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// facts are what the database copy says the rest of the backup must hold.
type facts struct {
	schemaVersion int64
	schema        string // PostgreSQL: the schema
	portals       []int64
	users         map[int64]bool
	loadables     []loadableRow
}

type loadableRow struct {
	id, portal     int64
	file, sha, ref string // ref: the commit it was built from
}

// packaged are the loadable states that have a package on disk.
var packaged = []string{"GENERATED", "APPROVED", "REJECTED"}

// readFacts reads the facts from a database copy (SQLite) or a snapshot (PostgreSQL).
func readFacts(ctx context.Context, q querier, d store.Dialect) (*facts, error) {
	f := &facts{users: map[int64]bool{}}
	var err error
	if f.schemaVersion, err = store.SchemaVersion(ctx, q); err != nil {
		return nil, err
	}
	if d == store.Postgres {
		if err := q.QueryRowContext(ctx, "SELECT current_schema()").Scan(&f.schema); err != nil {
			return nil, err
		}
	}
	has := func(table string) (bool, error) {
		var n int
		query := "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?"
		if d == store.Postgres {
			query = "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1"
		}
		err := q.QueryRowContext(ctx, query, table).Scan(&n)
		return n > 0, err
	}
	ids := func(query string, add func(int64)) error {
		rows, err := q.QueryContext(ctx, query)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return err
			}
			add(id)
		}
		return rows.Err()
	}
	if err := ids("SELECT id FROM users", func(id int64) { f.users[id] = true }); err != nil {
		return nil, fmt.Errorf("read the users: %w", err)
	}
	if ok, err := has("portals"); err != nil {
		return nil, err
	} else if ok {
		if err := ids("SELECT id FROM portals ORDER BY id", func(id int64) { f.portals = append(f.portals, id) }); err != nil {
			return nil, fmt.Errorf("read the portals: %w", err)
		}
	}
	if ok, err := has("loadables"); err != nil {
		return nil, err
	} else if ok {
		rows, err := q.QueryContext(ctx, "SELECT id, portal_id, file_name, sha256, commit_id FROM loadables WHERE status IN ('"+strings.Join(packaged, "', '")+"') ORDER BY id")
		if err != nil {
			return nil, fmt.Errorf("read the loadables: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var l loadableRow
			if err := rows.Scan(&l.id, &l.portal, &l.file, &l.sha, &l.ref); err != nil {
				return nil, err
			}
			f.loadables = append(f.loadables, l)
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// sqlitePath is the file of a sqlite: database URL.
func sqlitePath(dsn string) string { return strings.TrimPrefix(dsn, "sqlite:") }

// openSQLite opens an existing SQLite file (never creating one).
func openSQLite(path string) (*sql.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("cannot read the database: %w", err)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=rw&_pragma=busy_timeout(30000)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// copySQLite makes a consistent copy of a live SQLite database with VACUUM INTO (one read
// transaction: writers go on meanwhile, in WAL mode), checks the copy and reads its facts.
func copySQLite(ctx context.Context, src, dst string) (*facts, error) {
	db, err := openSQLite(src)
	if err != nil {
		return nil, err
	}
	if _, err := db.ExecContext(ctx, "VACUUM INTO ?", dst); err != nil {
		db.Close()
		if strings.Contains(err.Error(), "disk is full") { // SQLITE_FULL: the copy's side
			return nil, fmt.Errorf("copy the database into %s: %w", filepath.Dir(dst), syscall.ENOSPC)
		}
		return nil, fmt.Errorf("cannot read the database %s: %w", src, err)
	}
	db.Close()
	cp, err := openSQLite(dst)
	if err != nil {
		return nil, err
	}
	defer cp.Close()
	var check string
	if err := cp.QueryRowContext(ctx, "PRAGMA quick_check").Scan(&check); err != nil || check != "ok" {
		return nil, fmt.Errorf("the copy of the database %s fails its check: %v %s", src, err, check)
	}
	f, err := readFacts(ctx, cp, store.SQLite)
	if err != nil {
		return nil, fmt.Errorf("cannot read the database %s: %w", src, err)
	}
	return f, nil
}

// pgConn is a PostgreSQL URL as libpq's tools (pg_dump, psql) take it: the URL without the
// password (given in PGPASSWORD, never in the process list) and without parameters only the
// Go driver knows, such as search_path (returned apart).
type pgConn struct {
	url, password, searchPath string
}

// libpqParams are the URL parameters libpq knows.
var libpqParams = map[string]bool{
	"host": true, "hostaddr": true, "port": true, "dbname": true, "user": true, "passfile": true,
	"channel_binding": true, "connect_timeout": true, "client_encoding": true, "options": true,
	"application_name": true, "fallback_application_name": true, "keepalives": true,
	"keepalives_idle": true, "keepalives_interval": true, "keepalives_count": true,
	"tcp_user_timeout": true, "gssencmode": true, "sslmode": true, "requiressl": true,
	"sslcompression": true, "sslcert": true, "sslkey": true, "sslpassword": true, "sslrootcert": true,
	"sslcrl": true, "sslcrldir": true, "sslsni": true, "requirepeer": true,
	"ssl_min_protocol_version": true, "ssl_max_protocol_version": true, "krbsrvname": true,
	"gsslib": true, "service": true, "target_session_attrs": true, "load_balance_hosts": true,
}

func parsePG(raw string) (pgConn, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return pgConn{}, fmt.Errorf("the database URL: %w", err)
	}
	var c pgConn
	if u.User != nil {
		c.password, _ = u.User.Password()
		u.User = url.User(u.User.Username())
	}
	q := u.Query()
	c.searchPath = strings.TrimSpace(strings.Split(q.Get("search_path"), ",")[0])
	for k := range q {
		if !libpqParams[k] {
			q.Del(k)
		}
	}
	u.RawQuery = q.Encode()
	c.url = u.String()
	return c, nil
}

// openPG is the database of a PostgreSQL URL, for Go and for libpq's tools.
func openPG(dsn string) (pgConn, *sql.DB, error) {
	conn, err := parsePG(dsn)
	if err != nil {
		return conn, nil, err
	}
	db, err := sql.Open("pgx", dsn)
	return conn, db, err
}

// run runs a PostgreSQL client tool, with the password in its environment.
func (c pgConn) run(ctx context.Context, stdin io.Reader, name string, args ...string) error {
	bin, err := exec.LookPath(name)
	if err != nil {
		return fmt.Errorf("%s is not on the PATH: install the PostgreSQL client tools of your server's version (Debian: apt-get install postgresql-client); see docs/operations.md \"Backup and restore\" for doing this step by hand", name)
	}
	cmd := exec.CommandContext(ctx, bin, append(args, "--dbname="+c.url)...)
	cmd.Env = os.Environ()
	if c.password != "" {
		cmd.Env = append(cmd.Env, "PGPASSWORD="+c.password)
	}
	cmd.Stdin = stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 4000 {
			msg = msg[:4000] + "…"
		}
		return fmt.Errorf("%s failed: %v: %s", name, err, msg)
	}
	return nil
}

// quoteIdent quotes a PostgreSQL identifier.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// dumpPostgres dumps the database's schema with pg_dump, from a snapshot it exports and reads
// the facts in, so the facts are the dump's.
func dumpPostgres(ctx context.Context, dsn, dst string) (*facts, error) {
	if _, err := exec.LookPath("pg_dump"); err != nil {
		return nil, errors.New("pg_dump is not on the PATH: install the PostgreSQL client tools of your server's version (Debian: apt-get install postgresql-client), or run pg_dump yourself just before and give its file with --database-dump (docs/operations.md \"Backup and restore\")")
	}
	conn, db, err := openPG(dsn)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("cannot read the database: %w", err)
	}
	defer tx.Rollback()
	var snapshot string
	if err := tx.QueryRowContext(ctx, "SELECT pg_export_snapshot()").Scan(&snapshot); err != nil {
		return nil, fmt.Errorf("cannot read the database: %w", err)
	}
	f, err := readFacts(ctx, tx, store.Postgres)
	if err != nil {
		return nil, fmt.Errorf("cannot read the database: %w", err)
	}
	// Every relation of the schema (tables with their sequences and indexes): the product
	// has no functions, types or views. --table leaves CREATE SCHEMA out, so the dump loads
	// into an existing empty schema of the same name.
	if err := conn.run(ctx, nil, "pg_dump", "--no-owner", "--no-privileges", "--format=plain", "--snapshot="+snapshot,
		"--table="+quoteIdent(f.schema)+".*", "--file="+dst); err != nil {
		return nil, fmt.Errorf("cannot read the database: %w", err)
	}
	return f, nil
}

// givenDump takes a dump the operator made (--database-dump) and reads the facts from the live
// database, after it: a superset of the dump's.
func givenDump(ctx context.Context, dsn, dump string) (*facts, bool, error) {
	head := make([]byte, 5)
	f, err := os.Open(dump)
	if err != nil {
		return nil, false, fmt.Errorf("--database-dump: %w", err)
	}
	_, _ = io.ReadFull(f, head)
	f.Close()
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, false, err
	}
	defer db.Close()
	facts, err := readFacts(ctx, db, store.Postgres)
	if err != nil {
		return nil, false, fmt.Errorf("cannot read the database: %w", err)
	}
	return facts, string(head) == "PGDMP", nil
}

// postgresTarget checks the database a PostgreSQL backup is restored into: its schema (the
// URL's search_path, else the connection's current schema) must be the backup's, and empty or
// not there yet (loadPostgres creates it).
func postgresTarget(ctx context.Context, dsn, schema string) error {
	conn, db, err := openPG(dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	target := conn.searchPath
	if target == "" {
		var cur sql.NullString
		if err := db.QueryRowContext(ctx, "SELECT current_schema()").Scan(&cur); err != nil {
			return fmt.Errorf("cannot connect to the database to restore into: %w", err)
		}
		target = cur.String
	}
	if target != schema {
		return fmt.Errorf("the backup's database is in the schema %q, the database URL's is %q: give a --database-url with ?search_path=%s", schema, target, url.QueryEscape(schema))
	}
	var n int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1`, schema).Scan(&n); err != nil {
		return fmt.Errorf("cannot connect to the database to restore into: %w", err)
	}
	if n > 0 {
		return fmt.Errorf("the schema %q of the database to restore into is not empty (%d tables, sequences or indexes): restore only into an empty database", schema, n)
	}
	return nil
}

// loadPostgres loads a dump into the (checked) database's schema: psql in one transaction for
// a plain dump, pg_restore for a custom-format one.
func loadPostgres(ctx context.Context, dsn, schema, dump string) error {
	conn, db, err := openPG(dsn)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "CREATE SCHEMA IF NOT EXISTS "+quoteIdent(schema))
	db.Close()
	if err != nil {
		return fmt.Errorf("create the schema %q: %w", schema, err)
	}
	head := make([]byte, 5)
	if f, err := os.Open(dump); err == nil {
		_, _ = io.ReadFull(f, head)
		f.Close()
	}
	if string(head) == "PGDMP" {
		return conn.run(ctx, nil, "pg_restore", "--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error", dump)
	}
	f, err := os.Open(dump)
	if err != nil {
		return err
	}
	defer f.Close()
	return conn.run(ctx, bufio.NewReaderSize(f, 1<<20), "psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "--single-transaction", "--output=/dev/null")
}

// movePaths rewrites what the restored database holds as absolute paths under the old data
// directory (the hand-over queue's archive paths) to the new one.
func movePaths(ctx context.Context, db *sql.DB, d store.Dialect, oldDir, newDir string) error {
	if oldDir == "" || oldDir == newDir {
		return nil
	}
	var n int
	query := "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'handover_deliveries'"
	if d == store.Postgres {
		query = "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'handover_deliveries'"
	}
	if err := db.QueryRowContext(ctx, query).Scan(&n); err != nil || n == 0 {
		return err
	}
	from := filepath.Join(oldDir, "loadables") + string(filepath.Separator)
	to := filepath.Join(newDir, "loadables") + string(filepath.Separator)
	update := "UPDATE handover_deliveries SET archive_path = ? || substr(archive_path, ?) WHERE substr(archive_path, 1, ?) = ?"
	if d == store.Postgres {
		update = "UPDATE handover_deliveries SET archive_path = $1 || substr(archive_path, $2) WHERE substr(archive_path, 1, $3) = $4"
	}
	k := utf8.RuneCountInString(from)
	_, err := db.ExecContext(ctx, update, to, k+1, k, from)
	return err
}
