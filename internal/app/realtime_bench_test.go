package app

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"portalwright/internal/testkit"

	"github.com/coder/websocket"
)

// TestRealtimeFanOut is the issue 5 benchmark (make bench): the real binary on loopback,
// 500 WebSocket clients in one portal room, commits through the API; for each commit the
// time from sending the commit until each client has the WORKSPACE_COMMIT message (p50,
// p99, medians over commits) and the server's RSS with the clients connected. Skipped
// unless PORTALWRIGHT_BENCH and PORTALWRIGHT_BIN are set.
func TestRealtimeFanOut(t *testing.T) {
	bin := os.Getenv("PORTALWRIGHT_BIN")
	if os.Getenv("PORTALWRIGHT_BENCH") == "" || bin == "" {
		t.Skip("set PORTALWRIGHT_BENCH=1 and PORTALWRIGHT_BIN (make bench) to run")
	}
	clients := 500
	if v, _ := strconv.Atoi(os.Getenv("PORTALWRIGHT_BENCH_CLIENTS")); v > 0 {
		clients = v
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	data := t.TempDir()
	cmd := exec.Command(bin, "serve", "--addr", addr, "--data-dir", data, "--log-level", "error")
	cmd.Env = append(os.Environ(), "PORTALWRIGHT_ADMIN_PASSWORD=bench-pass")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	base := "http://" + addr
	waitReady(t, base)
	token := testkit.Login(t, base, "admin", "bench-pass")
	call := func(method, path, body string) (int, []byte) {
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var buf strings.Builder
		b := make([]byte, 1<<14)
		for {
			n, err := resp.Body.Read(b)
			buf.Write(b[:n])
			if err != nil {
				break
			}
		}
		return resp.StatusCode, []byte(buf.String())
	}
	if code, body := call("GET", "/api/v1/portal/1/1/open", ""); code != 200 {
		t.Fatalf("open: %d %s", code, body)
	}

	type arrival struct {
		commit int
		at     time.Time
	}
	arrivals := make(chan arrival, clients*8)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var joined sync.WaitGroup
	for i := 0; i < clients; i++ {
		_, body := call("POST", "/api/v1/ws/ticket", "")
		var tk struct{ Ticket string }
		json.Unmarshal(body, &tk)
		conn, _, err := websocket.Dial(ctx, "ws://"+addr+"/api/v1/ws?ticket="+tk.Ticket, nil)
		if err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
		conn.SetReadLimit(1 << 20)
		defer conn.CloseNow()
		conn.Write(ctx, websocket.MessageText, []byte(`{"type":"join","room":"portal-1","ack":1}`))
		joined.Add(1)
		go func() {
			acked := false
			for {
				_, msg, err := conn.Read(ctx)
				if err != nil {
					return
				}
				now := time.Now()
				var m struct {
					Type  string
					Title string
					Data  struct{ CommitID string }
				}
				json.Unmarshal(msg, &m)
				if m.Type == "ack" && !acked {
					acked = true
					joined.Done()
				}
				if m.Title == "WORKSPACE_COMMIT" {
					arrivals <- arrival{at: now}
				}
			}
		}()
	}
	joined.Wait()
	rss := func() int {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "VmRSS:") {
				kb, _ := strconv.Atoi(strings.Fields(l)[1])
				return kb / 1024
			}
		}
		return 0
	}
	connectedRSS := rss()

	const commits = 7
	var p50s, p99s, spreads, commitDurations []time.Duration
	for c := 0; c < commits; c++ {
		os.WriteFile(filepath.Join(data, "workspaces", "1", "1", "pages", "bench-"+strconv.Itoa(c)+".html"), []byte("x"), 0o644)
		start := time.Now()
		code, body := call("POST", "/api/v1/portal/1/1/commits", `{"message":"Bench `+strconv.Itoa(c)+`"}`)
		commitDurations = append(commitDurations, time.Since(start))
		if code != 200 {
			t.Fatalf("commit: %d %s", code, body)
		}
		lat := make([]time.Duration, 0, clients)
		timeout := time.After(10 * time.Second)
		for len(lat) < clients {
			select {
			case a := <-arrivals:
				lat = append(lat, a.at.Sub(start))
			case <-timeout:
				t.Fatalf("commit %d: only %d of %d clients heard it", c, len(lat), clients)
			}
		}
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		p50s = append(p50s, lat[len(lat)/2])
		p99s = append(p99s, lat[len(lat)*99/100])
		spreads = append(spreads, lat[len(lat)*99/100]-lat[0])
	}
	fmt.Printf("== Realtime (issue 5): %d WebSocket clients in one portal room, %d commits, medians ==\n", clients, commits)
	fmt.Printf("commit request (git work included)         %s\n", median(commitDurations).Round(time.Millisecond))
	fmt.Printf("commit sent → notification received  p50  %s\n", median(p50s).Round(time.Millisecond))
	fmt.Printf("commit sent → notification received  p99  %s (target < 100 ms)\n", median(p99s).Round(time.Millisecond))
	fmt.Printf("fan-out: first client → p99 client        %s\n", median(spreads).Round(100*time.Microsecond))
	fmt.Printf("server RSS with %d clients connected      %d MB\n", clients, connectedRSS)
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
