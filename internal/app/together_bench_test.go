package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestCollaborationFigures measures issue 21's figures over HTTP on the real server (make
// bench; skipped otherwise):
//   - a commit whose branch moved and that needs the structural merge (both authors changed
//     neighbouring keys of one file) against one whose branch moved without overlap (git's
//     rebase) and one whose branch did not move;
//   - presence: from one author's PUT (the editor's first keystroke) to the PRESENCE message on
//     the other author's socket.
func TestCollaborationFigures(t *testing.T) {
	if os.Getenv("PORTALWRIGHT_BENCH") == "" {
		t.Skip("set PORTALWRIGHT_BENCH=1 (make bench)")
	}
	w, srv := startTwoAuthors(t, testConfig(t))
	ctx := context.Background()
	w.open(w.ann)
	w.open(w.bob)

	const runs = 15
	timed := func(token, message string) time.Duration {
		t0 := time.Now()
		w.must(w.commit(token, message), 200, message)
		return time.Since(t0)
	}
	var plain, rebased, structural []time.Duration
	for i := 0; i < runs; i++ {
		// Nobody committed in between: the branch did not move.
		w.edit(w.ann, w.translated, setKey("TXT_ABOUT_TEXT", fmt.Sprintf("plain %d", i)))
		plain = append(plain, timed(w.ann, fmt.Sprintf("Plain %d", i)))
		w.open(w.bob)

		// Bob commits another file first: Ann's commit is rebased.
		w.edit(w.bob, "widgets/database/footer-links.json", func(doc map[string]any) { doc["note"] = fmt.Sprintf("bob %d", i) })
		w.must(w.commit(w.bob, fmt.Sprintf("Bob other file %d", i)), 200, "bob")
		w.edit(w.ann, w.translated, setKey("TXT_ABOUT_TEXT", fmt.Sprintf("rebased %d", i)))
		rebased = append(rebased, timed(w.ann, fmt.Sprintf("Rebased %d", i)))
		w.open(w.bob)

		// Bob commits the neighbouring key of the same file: Ann's needs the structural merge.
		w.edit(w.bob, w.translated, setKey("TXT_ABOUT_TITLE", fmt.Sprintf("bob title %d", i)))
		w.must(w.commit(w.bob, fmt.Sprintf("Bob title %d", i)), 200, "bob")
		w.edit(w.ann, w.translated, setKey("TXT_ABOUT_TEXT", fmt.Sprintf("structural %d", i)))
		structural = append(structural, timed(w.ann, fmt.Sprintf("Structural %d", i)))
		w.open(w.bob)
		w.open(w.ann)
	}
	mp, mr, ms := medianOf(plain), medianOf(rebased), medianOf(structural)
	fmt.Printf("== Working together (issue 21) ==\n")
	fmt.Printf("commit, branch did not move: median %s\n", mp.Round(time.Millisecond/10))
	fmt.Printf("commit, branch moved, rebased: median %s\n", mr.Round(time.Millisecond/10))
	fmt.Printf("commit, branch moved, structural merge: median %s = %.2fx the rebased one, %.2fx the unmoved one (target <= 1.5x)\n",
		ms.Round(time.Millisecond/10), float64(ms)/float64(mr), float64(ms)/float64(mp))

	// Presence: Ann's PUT → Bob's socket.
	var tk struct{ Ticket string }
	_ = json.Unmarshal([]byte(w.must(w.call(w.bob, "POST", "/ws/ticket", ""), 200, "ticket").Body), &tk)
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.base, "http")+"/api/v1/ws?ticket="+tk.Ticket, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	_ = conn.Write(ctx, websocket.MessageText, []byte(`{"type":"join","room":"portal-1","ack":1}`))
	if m := readJSON(t, conn); m["ok"] != true {
		t.Fatalf("join: %v", m)
	}
	var lat []time.Duration
	for i := 0; i < 30; i++ {
		state := "viewing"
		if i%2 == 1 {
			state = "editing"
		}
		t0 := time.Now()
		w.must(w.call(w.ann, "PUT", "/presence/1/1", `{"path":"pages/home.html","state":"`+state+`"}`), 204, "presence")
		for {
			m := readJSON(t, conn)
			if m["title"] == "PRESENCE" && m["data"].(map[string]any)["state"] == state {
				break
			}
		}
		lat = append(lat, time.Since(t0))
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	fmt.Printf("presence, PUT to the other author's socket: p50 %s, p95 %s over %d (target p50 < 500 ms)\n",
		lat[len(lat)/2].Round(time.Microsecond*10), lat[len(lat)*95/100].Round(time.Microsecond*10), len(lat))
}

func medianOf(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
