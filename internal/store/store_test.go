package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"portalwright/internal/store"
	"portalwright/internal/store/storetest"
)

func TestRebind(t *testing.T) {
	db := &store.DB{Dialect: store.Postgres}
	got := db.Rebind("SELECT a FROM t WHERE b = ? AND c = '?' AND d = ?")
	want := "SELECT a FROM t WHERE b = $1 AND c = '?' AND d = $2"
	if got != want {
		t.Fatalf("Rebind = %q, want %q", got, want)
	}
	lite := &store.DB{Dialect: store.SQLite}
	if q := "SELECT ?"; lite.Rebind(q) != q {
		t.Fatalf("SQLite queries must be left alone")
	}
}

func TestStore(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()

		t.Run("migrations are idempotent", func(t *testing.T) {
			res, err := db.Migrate(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Applied) != 0 || res.Current < 1 {
				t.Fatalf("second Migrate applied %v, current %d", res.Applied, res.Current)
			}
		})

		t.Run("ping", func(t *testing.T) {
			if err := db.Ping(ctx); err != nil {
				t.Fatal(err)
			}
		})

		t.Run("rollback leaves no partial rows", func(t *testing.T) {
			boom := errors.New("boom")
			err := db.WithTx(ctx, func(tx *store.Tx) error {
				if _, err := tx.ExecContext(ctx, "INSERT INTO server_secrets (name, value, created_at) VALUES (?, ?, ?)", "a", "1", time.Now().UTC()); err != nil {
					return err
				}
				return boom
			})
			if !errors.Is(err, boom) {
				t.Fatalf("WithTx error = %v, want boom", err)
			}
			var n int
			if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM server_secrets WHERE name = ?", "a").Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != 0 {
				t.Fatalf("rolled back row is visible")
			}
		})

		t.Run("unique violation is recognised", func(t *testing.T) {
			ins := func() error {
				_, err := db.ExecContext(ctx, "INSERT INTO server_secrets (name, value, created_at) VALUES (?, ?, ?)", "dup", "1", time.Now().UTC())
				return err
			}
			if err := ins(); err != nil {
				t.Fatal(err)
			}
			err := ins()
			if !store.IsUniqueViolation(err) {
				t.Fatalf("IsUniqueViolation(%v) = false", err)
			}
		})

		t.Run("times round-trip in UTC", func(t *testing.T) {
			at := time.Date(2026, 11, 22, 10, 30, 15, 123456000, time.UTC)
			if _, err := db.ExecContext(ctx, "INSERT INTO server_secrets (name, value, created_at) VALUES (?, ?, ?)", "t", "1", at); err != nil {
				t.Fatal(err)
			}
			var got time.Time
			if err := db.QueryRowContext(ctx, "SELECT created_at FROM server_secrets WHERE name = ?", "t").Scan(&got); err != nil {
				t.Fatal(err)
			}
			if !got.Equal(at) {
				t.Fatalf("time = %v, want %v", got, at)
			}
		})

		t.Run("not found maps", func(t *testing.T) {
			var v string
			err := store.NotFound(db.QueryRowContext(ctx, "SELECT value FROM server_secrets WHERE name = ?", "missing").Scan(&v))
			if !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("err = %v", err)
			}
		})
	})
}
