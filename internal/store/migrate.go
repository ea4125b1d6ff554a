package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"hash/crc64"
	"io/fs"
	"log/slog"
	"math"
	"strconv"
	"strings"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

//go:embed migrations
var migrations embed.FS

// MigrationResult reports what Migrate applied.
type MigrationResult struct {
	Applied []int64 // versions applied by this call
	Current int64   // schema version after the call
}

// Migrate applies every pending migration of the dialect. On PostgreSQL a session
// advisory lock makes concurrent instances wait for each other instead of racing.
func (db *DB) Migrate(ctx context.Context, log *slog.Logger) (MigrationResult, error) {
	sub, err := fs.Sub(migrations, "migrations/"+string(db.Dialect))
	if err != nil {
		return MigrationResult{}, err
	}
	dialect := goose.DialectSQLite3
	var opts []goose.ProviderOption
	if db.Dialect == Postgres {
		dialect = goose.DialectPostgres
		// One lock per schema (instances sharing a schema migrate one at a time; databases
		// holding several schemas, such as the test suites', do not wait for each other), tried
		// every second for up to 5 minutes.
		var schema string
		if err := db.write.QueryRowContext(ctx, "SELECT current_schema()").Scan(&schema); err != nil {
			return MigrationResult{}, fmt.Errorf("migrations: %w", err)
		}
		lockID := int64(crc64.Checksum([]byte("portalwright migrations "+schema), crc64.MakeTable(crc64.ECMA)) & math.MaxInt64)
		locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(lockID), lock.WithLockTimeout(1, 300))
		if err != nil {
			return MigrationResult{}, err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	opts = append(opts, goose.WithDisableGlobalRegistry(true))
	p, err := goose.NewProvider(dialect, db.write, sub, opts...)
	if err != nil {
		return MigrationResult{}, fmt.Errorf("migrations: %w", err)
	}
	results, err := p.Up(ctx)
	if err != nil {
		return MigrationResult{}, fmt.Errorf("migrations: %w", err)
	}
	var res MigrationResult
	for _, r := range results {
		res.Applied = append(res.Applied, r.Source.Version)
		if log != nil {
			log.Info("migration applied", "version", r.Source.Version, "file", r.Source.Path, "duration", r.Duration)
		}
	}
	if res.Current, err = p.GetDBVersion(ctx); err != nil {
		return res, err
	}
	return res, nil
}

// LatestVersion is the newest migration this binary has for the dialect: the schema version
// Migrate brings a database to. A backup whose schema is newer came from a newer product.
func LatestVersion(d Dialect) (int64, error) {
	entries, err := fs.ReadDir(migrations, "migrations/"+string(d))
	if err != nil {
		return 0, fmt.Errorf("migrations of %s: %w", d, err)
	}
	var latest int64
	for _, e := range entries {
		digits := e.Name()
		if i := strings.IndexFunc(digits, func(r rune) bool { return r < '0' || r > '9' }); i >= 0 {
			digits = digits[:i]
		}
		if v, err := strconv.ParseInt(digits, 10, 64); err == nil && v > latest {
			latest = v
		}
	}
	return latest, nil
}

// SchemaVersion reads the schema version a database (or a copy of one) was migrated to, from
// the migrations' own table; 0 when it has none.
func SchemaVersion(ctx context.Context, q interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}) (int64, error) {
	var v sql.NullInt64
	if err := q.QueryRowContext(ctx, "SELECT MAX(version_id) FROM goose_db_version WHERE is_applied").Scan(&v); err != nil {
		return 0, fmt.Errorf("read the schema version: %w", err)
	}
	return v.Int64, nil
}
