package backup

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/pressly/goose/v3"

	"portalwright/internal/app"
	"portalwright/internal/config"
	"portalwright/internal/store"
)

// TestRestoreOfAnOlderSchemaIsMigrated: a backup made by an older Portalwright (its database
// at an earlier schema version) restores as it was, and the server's start brings it up to
// date, migrating the restored rows (issue 34 item 2).
func TestRestoreOfAnOlderSchemaIsMigrated(t *testing.T) {
	ctx := context.Background()
	cfg := fixture(t)

	// The fixture's database taken back to schema 19, before release readiness (00020), whose
	// migration writes a row for every portal that exists: the rows show it ran on this data.
	const older = 19
	db, err := store.Open(ctx, cfg.DatabaseDSN())
	if err != nil {
		t.Fatal(err)
	}
	migrations := os.DirFS(filepath.Join("..", "store", "migrations", "sqlite"))
	p, err := goose.NewProvider(goose.DialectSQLite3, db.SQL(), migrations, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, older); err != nil {
		t.Fatal(err)
	}
	db.Close()

	from := filepath.Join(t.TempDir(), "older.tar.gz")
	m := mustBackup(t, cfg, from)
	if m.Database.SchemaVersion != older {
		t.Fatalf("the backup's schema version is %d, want %d", m.Database.SchemaVersion, older)
	}

	rc := config.Defaults()
	rc.DataDir = filepath.Join(t.TempDir(), "restored")
	if _, err := Restore(ctx, rc, from, nil); err != nil {
		t.Fatal(err)
	}
	restored, err := store.Open(ctx, rc.DatabaseDSN())
	if err != nil {
		t.Fatal(err)
	}
	if v, err := store.SchemaVersion(ctx, restored); err != nil || v != older {
		t.Fatalf("restored schema version %d (%v), want %d: the restore itself does not migrate", v, err, older)
	}
	restored.Close()

	// The server's start migrates (serve does the same on every start).
	rc.AdminPassword = "admin-pass"
	a, err := app.New(ctx, rc, slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard)
	if err != nil {
		t.Fatalf("the server does not start on the restored older backup: %v", err)
	}
	a.Close()

	db, err = store.Open(ctx, rc.DatabaseDSN())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	latest, err := store.LatestVersion(store.SQLite)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := store.SchemaVersion(ctx, db); err != nil || v != latest {
		t.Fatalf("after the start the schema version is %d (%v), want %d", v, err, latest)
	}
	var portals, gatesOff int
	if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM portals").Scan(&portals); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM readiness_settings WHERE gate = FALSE").Scan(&gatesOff); err != nil {
		t.Fatal(err)
	}
	if portals != 3 || gatesOff != portals {
		t.Fatalf("%d portals restored, %d with the gate off by migration 00020; want 3 and 3", portals, gatesOff)
	}
}
