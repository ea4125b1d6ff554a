package taskrunner

import (
	"testing"
	"time"
)

// TestWatchFollowsSettings: a read records the settings (so Changed works on a state restored
// after a restart), inactive settings show INACTIVE, active ones again UNINITIATED.
func TestWatchFollowsSettings(t *testing.T) {
	r := newRunner(t, fast())
	l := newLayout(t)
	k := Key{UserID: 5, PortalID: 6}
	now := time.Now()
	r.Restore(k, State{Phase: Stable, LastRunDate: &now})
	if r.Changed(k, []string{"content/a.json"}) {
		t.Fatal("a restored state with no settings went stale")
	}
	s := settings("FROM x\nRUN true\n")
	s.Extensions = []string{"json"}
	if st := r.Watch(Request{Key: k, Workspace: l.workspace, Settings: s}); st.Phase != Stable {
		t.Fatalf("watch changed the phase: %s", st.Phase)
	}
	if !r.Changed(k, []string{"content/a.json"}) || r.State(k).Phase != Stale {
		t.Fatalf("after watch, a change: %s", r.State(k).Phase)
	}
	s.Active = false
	if st := r.Watch(Request{Key: k, Workspace: l.workspace, Settings: s}); st.Phase != Inactive {
		t.Fatalf("inactive settings: %s", st.Phase)
	}
	s.Active = true
	if st := r.Watch(Request{Key: k, Workspace: l.workspace, Settings: s}); st.Phase != Uninitiated {
		t.Fatalf("active again: %s", st.Phase)
	}
}

// TestChangeBeforeAnyRunStaysUninitiated: STALE needs an earlier run; a change to a listed file
// of a workspace whose tasks never ran (a fresh clone) or were cleared leaves UNINITIATED.
func TestChangeBeforeAnyRunStaysUninitiated(t *testing.T) {
	r := newRunner(t, fast())
	l := newLayout(t)
	k := Key{UserID: 5, PortalID: 8}
	if st := r.Watch(Request{Key: k, Workspace: l.workspace, Settings: settings("FROM x\nRUN true\n")}); st.Phase != Uninitiated {
		t.Fatalf("a fresh workspace: %s", st.Phase)
	}
	r.Changed(k, []string{"content/a.json"})
	if st := r.State(k); st.Phase != Uninitiated {
		t.Fatalf("a change before any run: %s, want UNINITIATED", st.Phase)
	}
}
