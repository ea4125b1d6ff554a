package heartbeat

import (
	"os"
	"os/exec"
	"strconv"
	"testing"
)

func TestOwners(t *testing.T) {
	if Dead(Self()) {
		t.Fatal("this process counts as dead")
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("cannot run true:", err)
	}
	host, _ := os.Hostname()
	gone := host + "/" + Tag(cmd.Process.Pid) // its start time is unknown now: "pid.0"
	if !Dead(gone) {
		t.Fatalf("a process that exited counts as alive: %s", gone)
	}
	if Dead("elsewhere/" + Tag(cmd.Process.Pid)) {
		t.Fatal("another host's owner is judged by its heartbeat, never as dead")
	}
	if Dead("") || TagDead("nonsense") {
		t.Fatal("an empty or unreadable owner counts as dead")
	}
	// A reused pid (same pid, another start time) is another process.
	if reused := strconv.Itoa(os.Getppid()) + ".1"; !TagDead(reused) {
		t.Fatalf("a pid with another start time counts as the same process: %s (now %s)", reused, Tag(os.Getppid()))
	}
	if TagDead(Tag(os.Getppid())) {
		t.Fatal("the parent process counts as dead")
	}
}
