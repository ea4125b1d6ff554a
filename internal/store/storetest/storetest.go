// Package storetest gives tests a fresh, migrated database of every configured dialect:
// always SQLite in a temp dir, and PostgreSQL too when TEST_DATABASE_URL is set (each test
// in its own schema, dropped afterwards).
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"portalwright/internal/store"
)

// EnvPostgres names the variable holding a PostgreSQL URL for the store suite.
const EnvPostgres = "TEST_DATABASE_URL"

// EnvMarker names a file that is created when a PostgreSQL subtest passes, so CI can
// prove the PostgreSQL suite really ran.
const EnvMarker = "PORTALWRIGHT_PG_MARKER"

// Each runs fn as a subtest per dialect ("sqlite", and "postgres" when configured),
// each with a freshly migrated database.
func Each(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLite(t)) })
	if os.Getenv(EnvPostgres) == "" {
		return
	}
	t.Run("postgres", func(t *testing.T) {
		fn(t, Postgres(t))
		if !t.Failed() {
			markPostgresRan(t)
		}
	})
}

// SQLite opens a migrated SQLite database in a temp dir.
func SQLite(t testing.TB) *store.DB {
	t.Helper()
	return open(t, "sqlite:"+filepath.Join(t.TempDir(), "test.db"))
}

// PostgresURL creates a fresh schema on the TEST_DATABASE_URL server, drops it when the
// test ends, and returns a URL whose connections use it. It skips without the variable.
func PostgresURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv(EnvPostgres)
	if base == "" {
		t.Skip(EnvPostgres + " not set")
	}
	schema := "pwtest_" + randomHex(6)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatalf("open postgres: %v", err)
	}
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		admin.Close()
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec("DROP SCHEMA " + schema + " CASCADE")
		admin.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("parse %s: %v", EnvPostgres, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// Postgres opens a migrated database in a fresh schema (skips without TEST_DATABASE_URL).
func Postgres(t testing.TB) *store.DB {
	t.Helper()
	return open(t, PostgresURL(t))
}

func open(t testing.TB, dsn string) *store.DB {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Migrate(ctx, nil); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	return db
}

func markPostgresRan(t *testing.T) {
	if p := os.Getenv(EnvMarker); p != "" {
		if err := os.WriteFile(p, []byte("postgres store suite ran\n"), 0o644); err != nil {
			t.Errorf("write marker: %v", err)
		}
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}
