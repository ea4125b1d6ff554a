// Package store opens the metadata database (SQLite by default, PostgreSQL for scale-out),
// applies the embedded migrations and gives features one small query API that hides the
// differences between the two dialects.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver
)

// Dialect names the SQL flavour behind a DB.
type Dialect string

const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// Querier is what reads and writes need; both *DB and *Tx implement it.
// Queries are written with ? placeholders and rebound for PostgreSQL.
type Querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// DB is the metadata database. Reads go to a pool; writes go through WithTx, which for
// SQLite uses a single writer connection so that writers queue instead of failing with
// SQLITE_BUSY.
type DB struct {
	Dialect Dialect
	read    *sql.DB
	write   *sql.DB

	prepared stmtCache // SQLite reads (stmtcache.go)
}

// Open connects to the database named by dsn: "sqlite:<path>" or "postgres://…".
func Open(ctx context.Context, dsn string) (*DB, error) {
	switch {
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return openPostgres(ctx, dsn)
	case strings.HasPrefix(dsn, "sqlite:"):
		return openSQLite(ctx, strings.TrimPrefix(dsn, "sqlite:"))
	default:
		return nil, fmt.Errorf("unsupported database URL (want sqlite:<path> or postgres://…)")
	}
}

func openSQLite(ctx context.Context, path string) (*DB, error) {
	if path == "" {
		return nil, errors.New("sqlite: empty file path")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, fmt.Errorf("sqlite: create directory: %w", err)
	}
	pragmas := "_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=busy_timeout(10000)&_pragma=synchronous(NORMAL)&_time_format=sqlite"
	// The writer takes its lock at BEGIN (IMMEDIATE) so a transaction never has to upgrade
	// a read lock, which is where SQLite reports busy errors busy_timeout cannot absorb.
	write, err := sql.Open("sqlite", "file:"+path+"?"+pragmas+"&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	write.SetMaxOpenConns(1)
	write.SetMaxIdleConns(1)
	write.SetConnMaxIdleTime(0)
	// Open the writer first: it creates the file and switches it to WAL before readers attach.
	if err := write.PingContext(ctx); err != nil {
		write.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	read, err := sql.Open("sqlite", "file:"+path+"?"+pragmas)
	if err != nil {
		write.Close()
		return nil, err
	}
	read.SetMaxOpenConns(max(4, runtime.NumCPU()))
	read.SetMaxIdleConns(max(4, runtime.NumCPU()))
	return &DB{Dialect: SQLite, read: read, write: write}, nil
}

func openPostgres(ctx context.Context, dsn string) (*DB, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(20)
	db.SetMaxIdleConns(10)
	db.SetConnMaxIdleTime(5 * time.Minute)
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := db.PingContext(pingCtx); err != nil {
		db.Close()
		return nil, fmt.Errorf("postgres: connect: %w", err)
	}
	return &DB{Dialect: Postgres, read: db, write: db}, nil
}

// Close closes every connection.
func (db *DB) Close() error {
	db.closeStmts()
	if db.read == db.write {
		return db.read.Close()
	}
	return errors.Join(db.write.Close(), db.read.Close())
}

// Ping checks that the database answers (readiness).
func (db *DB) Ping(ctx context.Context) error {
	if err := db.read.PingContext(ctx); err != nil {
		return err
	}
	var one int
	return db.read.QueryRowContext(ctx, "SELECT 1").Scan(&one)
}

// SQL exposes the writer handle for tools that need a plain *sql.DB (migrations).
func (db *DB) SQL() *sql.DB { return db.write }

// ExecContext runs a single write statement in its own transaction.
func (db *DB) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	logQuery(ctx, query)
	return db.write.ExecContext(ctx, db.Rebind(query), args...)
}

// QueryContext runs a read.
func (db *DB) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	logQuery(ctx, query)
	if st := db.stmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return db.read.QueryContext(ctx, db.Rebind(query), args...)
}

// QueryRowContext runs a read that returns at most one row.
// Int64s runs a query whose rows are one integer column (ids) and collects them.
func (db *DB) Int64s(ctx context.Context, query string, args ...any) ([]int64, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

func (db *DB) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	logQuery(ctx, query)
	if st := db.stmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return db.read.QueryRowContext(ctx, db.Rebind(query), args...)
}

// Tx is a write transaction; its methods take ? placeholders like DB's.
type Tx struct {
	tx      *sql.Tx
	dialect Dialect
}

func (t *Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	logQuery(ctx, query)
	return t.tx.ExecContext(ctx, rebind(t.dialect, query), args...)
}

func (t *Tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	logQuery(ctx, query)
	return t.tx.QueryContext(ctx, rebind(t.dialect, query), args...)
}

func (t *Tx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	logQuery(ctx, query)
	return t.tx.QueryRowContext(ctx, rebind(t.dialect, query), args...)
}

// WithTx runs fn in a write transaction: committed when fn returns nil, rolled back
// otherwise (and on panic), so a failed operation leaves no partial rows.
func (db *DB) WithTx(ctx context.Context, fn func(tx *Tx) error) (err error) {
	sqlTx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	defer func() {
		if p := recover(); p != nil {
			_ = sqlTx.Rollback()
			panic(p)
		}
		if err != nil {
			_ = sqlTx.Rollback()
		}
	}()
	if err = fn(&Tx{tx: sqlTx, dialect: db.Dialect}); err != nil {
		return err
	}
	if err = sqlTx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// Rebind turns ? placeholders into the dialect's form ($1, $2, … for PostgreSQL).
func (db *DB) Rebind(query string) string { return rebind(db.Dialect, query) }

func rebind(d Dialect, query string) string {
	if d != Postgres || !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 8)
	n := 0
	inString := false
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case c == '\'':
			inString = !inString
			b.WriteByte(c)
		case c == '?' && !inString:
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
