// Package heartbeat names the process that runs a piece of background work (a loadable
// generation, a preview's preparation, a task run's scratch folder) so that work left behind by
// a process that died (a kill -9, a crash) can be told from work another process still runs.
//
// An owner is "host/pid/start": the host name, the process id and the process's start time
// in clock ticks since boot (from /proc, so that a reused pid is not taken for the old process).
// On its own host, a process can tell at once whether an owner is dead (Dead); work owned by
// another host is judged by its heartbeat's age only (the rows' heartbeat_at / generated_at).
package heartbeat

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// DefaultInterval is how often running work beats (config --heartbeat); what has not beaten
// for more than StaleBeats intervals counts as stopped.
const (
	DefaultInterval = 30 * time.Second
	StaleBeats      = 2
)

var (
	selfOnce sync.Once
	self     string
)

// Self is this process's owner name.
func Self() string {
	selfOnce.Do(func() {
		host, _ := os.Hostname()
		self = strings.ReplaceAll(host, "/", "_") + "/" + Tag(os.Getpid())
	})
	return self
}

// Tag is "pid.start" of a process (start "0" when unknown): the part of an owner that is
// used in folder names.
func Tag(pid int) string {
	return strconv.Itoa(pid) + "." + strconv.FormatUint(startTime(pid), 10)
}

// startTime is field 22 of /proc/<pid>/stat (0 when it cannot be read).
func startTime(pid int) uint64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')') // the command name may hold spaces
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 { // fields from 3 (state) on: start time is field 22, index 19
		return 0
	}
	n, _ := strconv.ParseUint(f[19], 10, 64)
	return n
}

// TagDead tells whether the process of a Tag ("pid.start") is gone from this host.
func TagDead(tag string) bool {
	pidS, startS, ok := strings.Cut(tag, ".")
	pid, err := strconv.Atoi(pidS)
	if !ok || err != nil || pid <= 0 {
		return false
	}
	if pid == os.Getpid() {
		return tag != Tag(pid)
	}
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	start, err := strconv.ParseUint(startS, 10, 64)
	if err != nil || start == 0 {
		return false
	}
	now := startTime(pid)
	return now != 0 && now != start // the pid was reused
}

// Dead tells whether owner is a process of this host that no longer runs. Owners of other
// hosts, and empty ones, are not known to be dead (their heartbeat tells).
func Dead(owner string) bool {
	host, tag, ok := strings.Cut(owner, "/")
	if !ok {
		return false
	}
	me, _, _ := strings.Cut(Self(), "/")
	return host == me && TagDead(tag)
}

// Beat calls beat every interval, from a goroutine of its own, until stop is called or ctx is
// done: the heartbeat of a piece of background work (its row's beat, which other instances'
// sweeps read). stop waits for a beat in progress to end.
func Beat(ctx context.Context, interval time.Duration, beat func()) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				beat()
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { cancel(); <-done }) }
}
