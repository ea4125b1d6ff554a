package loadable

import (
	"context"
	"strings"
	"testing"
	"time"

	"portalwright/internal/store/storetest"
	"portalwright/internal/taskrunner"
)

// stalledSnapshots takes a commit until the call is cancelled, as git does when the server
// stops under it.
type stalledSnapshots struct{ started chan struct{} }

func (s stalledSnapshots) Snapshot(ctx context.Context, _ int64, _, _ string, _ int64) (string, error) {
	close(s.started)
	<-ctx.Done()
	return "", ctx.Err()
}

// TestStopDuringGenerationIsInterrupted: a server stopping normally (Close, on SIGTERM) while a
// generation runs records LOADABLE_INTERRUPTED — Retry generates it again — not the build's
// failure ("context canceled", "unknown commit").
func TestStopDuringGenerationIsInterrupted(t *testing.T) {
	ctx := context.Background()
	db := storetest.SQLite(t)
	now := time.Now().UTC()
	if _, err := db.ExecContext(ctx, `INSERT INTO domains (name, name_key, created_at, updated_at) VALUES ('D', 'd', ?, ?)`, now, now); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO portals (domain_id, name, name_key, created_at, last_modified) VALUES (1, 'P', 'p', ?, ?)`, now, now); err != nil {
		t.Fatal(err)
	}
	st := NewSQLStore(db)
	snaps := stalledSnapshots{started: make(chan struct{})}
	s, err := New(ctx, Config{Dir: t.TempDir()}, Deps{Store: st, Builds: taskrunner.NewBuilds(snaps, nil)})
	if err != nil {
		t.Fatal(err)
	}
	l := &Loadable{DomainID: 1, PortalID: 1, Name: "stop", PartNumber: "PW-STOP", VersionPrefix: "1.0", Type: "PORTAL",
		GitRef: "master", CommitID: strings.Repeat("a", 40), Status: Generating, CreatedBy: Person{ID: 1}, CreatedAt: now}
	if err := st.Insert(ctx, l); err != nil {
		t.Fatal(err)
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.generate(l, card{s: s, l: l, userID: 1})
	}()
	<-snaps.started
	s.Close()
	got, err := st.Get(ctx, 1, l.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != Failed || got.Error == nil || got.Error.Code != "LOADABLE_INTERRUPTED" || got.Error.Message != interrupted.Message {
		t.Fatalf("after a stop: %s %+v", got.Status, got.Error)
	}
}
