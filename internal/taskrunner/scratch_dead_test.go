package taskrunner

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"portalwright/internal/heartbeat"
)

// TestRemoveDeadScratch: run folders of a process that is gone are removed at start; this
// process's, and folders of the old naming, are left.
func TestRemoveDeadScratch(t *testing.T) {
	root := t.TempDir()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	dead := filepath.Join(root, "run-"+heartbeat.Tag(cmd.Process.Pid)+"-123")
	mine := filepath.Join(root, runPrefix()+"456")
	old := filepath.Join(root, "run-789")
	for _, d := range []string{dead, mine, old} {
		if err := os.MkdirAll(filepath.Join(d, "workspace"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if n := RemoveDeadScratch(root); n != 1 {
		t.Fatalf("removed %d folders, want 1", n)
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Fatalf("a dead run's folder is still there: %v", err)
	}
	for _, d := range []string{mine, old} {
		if _, err := os.Stat(d); err != nil {
			t.Fatalf("%s was removed: %v", d, err)
		}
	}
}
