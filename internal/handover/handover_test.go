package handover

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"portalwright/internal/notice"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"portalwright/internal/apperr"
	"portalwright/internal/store"
	"portalwright/internal/store/storetest"
)

const testSecret = "0123456789abcdef-test-secret"

type recorder struct {
	mu  sync.Mutex
	got []struct {
		user int64
		n    notice.Card
	}
}

func (r *recorder) Publish(context.Context, notice.Room, string, any) {}

func (r *recorder) Progress(_ context.Context, userID int64, n notice.Card) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, struct {
		user int64
		n    notice.Card
	}{userID, n})
}

func (r *recorder) last(t *testing.T) (int64, notice.Card) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.got) == 0 {
		t.Fatal("no notification reported")
	}
	g := r.got[len(r.got)-1]
	return g.user, g.n
}

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// archive writes a fake archive and returns a package for it.
func archive(t *testing.T, loadableID int64, fileName, content string) Package {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, fileName)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(content))
	return Package{
		LoadableID: loadableID, DomainID: 3, PortalID: 7, PortalName: "Crew Portal", DomainName: "Demo Airline",
		Name: "crew-news", Version: "1.2.3", PartNumber: "PN-0001", FileName: fileName, ArchivePath: path,
		SHA256:   hex.EncodeToString(sum[:]),
		Manifest: []byte(`{"name":"crew-news","version":"1.2.3","id":` + strconv.FormatInt(loadableID, 10) + `}`),
	}
}

func mustParse(t *testing.T, js string) *Config {
	t.Helper()
	cfg, err := Parse([]byte(js), func(string) string { return "" })
	if err != nil {
		t.Fatalf("parse config: %v", err)
	}
	return cfg
}

func httpConfig(t *testing.T, url string) *Config {
	return mustParse(t, `{"targets":[{"name":"unity-prod","system":"unity","kind":"http","url":"`+url+`","secret":"`+testSecret+`","timeout":"10s"}]}`)
}

func newService(db *store.DB, cfg *Config, rec *recorder) *Service {
	var p notice.Publisher
	if rec != nil {
		p = rec
	}
	s := New(db, cfg, quietLog(), p)
	s.Backoff = 0 // retries are due at once
	return s
}

// pass runs one DeliverDue pass and returns the delivery's state afterwards.
func pass(t *testing.T, s *Service, id int64) *Delivery {
	t.Helper()
	if err := s.DeliverDue(context.Background()); err != nil {
		t.Fatalf("DeliverDue: %v", err)
	}
	d, err := s.Get(context.Background(), id)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	return d
}

type received struct {
	header http.Header
	body   []byte
}

// receiver is an httptest server answering with the next status of codes (the last one repeats).
type receiver struct {
	mu    sync.Mutex
	codes []int
	got   []received
	srv   *httptest.Server
}

func newReceiver(t *testing.T, codes ...int) *receiver {
	r := &receiver{codes: codes}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, received{req.Header.Clone(), body})
		code := r.codes[0]
		if len(r.codes) > 1 {
			r.codes = r.codes[1:]
		}
		r.mu.Unlock()
		w.WriteHeader(code)
		_, _ = w.Write([]byte("answer " + strconv.Itoa(code) + "\n\x00ctl"))
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) requests() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

func (r *receiver) setCodes(codes ...int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.codes = codes
}

func TestHTTPRetriesThenDelivers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		rcv := newReceiver(t, 503, 503, 200)
		rec := &recorder{}
		s := newService(db, httpConfig(t, rcv.srv.URL+"/inbox?token=abc"), rec)
		pkg := archive(t, 11, "crew-news-1.2.3.tar.gz", strings.Repeat("archive-bytes ", 1000))

		d, err := s.Enqueue(ctx, 42, pkg, "unity-prod")
		if err != nil {
			t.Fatal(err)
		}
		if d.Status != StatusQueued || d.System != SystemUnity || d.CreatedBy != 42 || d.LoadableID != 11 {
			t.Fatalf("enqueued: %+v", d)
		}
		if user, n := rec.last(t); user != 42 || n.Status != "PROGRESS" || n.MessageType != MessageType ||
			n.ID != "UPLOAD_LOADABLE-"+strconv.FormatInt(d.ID, 10) || n.Title != "crew-news 1.2.3 → unity-prod" {
			t.Fatalf("enqueue notification: %d %+v", user, n)
		}

		for i, want := range []string{StatusQueued, StatusQueued, StatusDelivered} {
			if got := pass(t, s, d.ID); got.Status != want {
				t.Fatalf("after pass %d: status %s, want %s (%s)", i+1, got.Status, want, got.LastError)
			}
		}
		if err := s.DeliverDue(ctx); err != nil { // nothing left to send
			t.Fatal(err)
		}

		reqs := rcv.requests()
		if len(reqs) != 3 {
			t.Fatalf("%d requests, want 3", len(reqs))
		}
		ok := 0
		for i, r := range reqs {
			if r.header.Get(HeaderDelivery) != strconv.FormatInt(d.ID, 10) {
				t.Errorf("request %d: delivery id %q, want %d", i, r.header.Get(HeaderDelivery), d.ID)
			}
			if err := Verify(r.header, []byte(testSecret), time.Now(), time.Minute); err != nil {
				t.Errorf("request %d: %v", i, err)
			}
			if Verify(r.header, []byte("another-secret-of-16+"), time.Now(), 0) == nil {
				t.Errorf("request %d: verified with the wrong secret", i)
			}
			sum := sha256.Sum256(r.body)
			if hex.EncodeToString(sum[:]) != r.header.Get(HeaderSHA256) || r.header.Get(HeaderSHA256) != pkg.SHA256 {
				t.Errorf("request %d: body sha mismatch", i)
			}
			if msum := sha256.Sum256(pkg.Manifest); r.header.Get(HeaderManifest) != hex.EncodeToString(msum[:]) {
				t.Errorf("request %d: manifest sha %q", i, r.header.Get(HeaderManifest))
			}
			if r.header.Get("Content-Type") != "application/gzip" || r.header.Get(HeaderLoadable) != "11" ||
				r.header.Get(HeaderName) != "crew-news" || r.header.Get(HeaderVersion) != "1.2.3" || r.header.Get(HeaderPartNumber) != "PN-0001" {
				t.Errorf("request %d: headers %v", i, r.header)
			}
			// The signed string, computed independently.
			signed := r.header.Get(HeaderTimestamp) + "." + strconv.FormatInt(d.ID, 10) + "." + pkg.SHA256 + "." + ManifestSHA256(pkg.Manifest)
			if r.header.Get(HeaderSignature) != Sign([]byte(testSecret), signed) {
				t.Errorf("request %d: signature does not cover %q", i, signed)
			}
			if i == 2 {
				ok++
			}
		}
		if ok != 1 {
			t.Fatalf("successful packages: %d", ok)
		}

		ds, err := s.Deliveries(ctx, 11)
		if err != nil {
			t.Fatal(err)
		}
		if len(ds) != 1 {
			t.Fatalf("deliveries: %+v", ds)
		}
		got := ds[0]
		if got.Status != StatusDelivered || got.Attempts != 3 || got.DeliveredAt == nil || got.LastAttempt == nil || got.LastError != "" {
			t.Fatalf("delivery: %+v", got)
		}
		if len(got.AttemptLog) != 3 {
			t.Fatalf("attempt log: %+v", got.AttemptLog)
		}
		for i, want := range []struct {
			outcome string
			code    int
		}{{OutcomeRetry, 503}, {OutcomeRetry, 503}, {OutcomeDelivered, 200}} {
			a := got.AttemptLog[i]
			if a.Attempt != i+1 || a.Outcome != want.outcome || a.HTTPStatus != want.code || a.At.IsZero() {
				t.Errorf("attempt %d: %+v", i+1, a)
			}
		}
		if e := got.AttemptLog[0].Error; !strings.Contains(e, "HTTP 503") || strings.Contains(e, "token=abc") || strings.ContainsRune(e, 0) {
			t.Errorf("attempt error: %q", e)
		}
		user, n := rec.last(t)
		data, _ := n.Data.(NotificationData)
		if user != 42 || n.Status != "SUCCESS" || n.Progress != 100 || data.PortalID != 7 || data.DomainID != 3 ||
			data.LoadableID != 11 || data.DeliveryID != d.ID || data.Target != "unity-prod" || data.PortalName != "Crew Portal" {
			t.Fatalf("final notification: %+v", n)
		}
		js, _ := json.Marshal(got)
		if !strings.Contains(string(js), `"attempts_log":[`) || !strings.Contains(string(js), `"lastAttemptAt":"`) {
			t.Fatalf("JSON: %s", js)
		}
	})
}

func TestHTTPPermanentFailureAndRetry(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		rcv := newReceiver(t, 400)
		rec := &recorder{}
		s := newService(db, httpConfig(t, rcv.srv.URL), rec)
		pkg := archive(t, 5, "a-1.0.0.tar.gz", "content")
		d, err := s.Enqueue(ctx, 9, pkg, "unity-prod")
		if err != nil {
			t.Fatal(err)
		}
		got := pass(t, s, d.ID)
		if got.Status != StatusFailed || got.Attempts != 1 || !strings.Contains(got.LastError, "HTTP 400") {
			t.Fatalf("after a 400: %+v", got)
		}
		if _, n := rec.last(t); n.Status != "ERROR" {
			t.Fatalf("notification: %+v", n)
		}
		if err := s.DeliverDue(ctx); err != nil || len(rcv.requests()) != 1 {
			t.Fatalf("a failed delivery was sent again: %v, %d requests", err, len(rcv.requests()))
		}

		rcv.setCodes(201)
		r, err := s.Retry(ctx, d.ID)
		if err != nil || r.Status != StatusQueued || r.ID != d.ID {
			t.Fatalf("Retry: %+v %v", r, err)
		}
		got = pass(t, s, d.ID)
		if got.Status != StatusDelivered || got.Attempts != 2 || len(got.AttemptLog) != 2 || got.AttemptLog[1].HTTPStatus != 201 {
			t.Fatalf("after retry: %+v", got)
		}
		reqs := rcv.requests()
		if len(reqs) != 2 || reqs[0].header.Get(HeaderDelivery) != reqs[1].header.Get(HeaderDelivery) {
			t.Fatalf("requests: %d", len(reqs))
		}
		if _, err := s.Retry(ctx, d.ID); !errors.Is(err, ErrAlreadyDelivered) {
			t.Fatalf("Retry of a delivered: %v", err)
		}
		if _, err := s.Retry(ctx, 999999); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Retry of a missing: %v", err)
		}
	})
}

func TestHTTPGivesUpAfterMaxAttemptsAndEnqueueRequeues(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		rcv := newReceiver(t, 429, 408, 500)
		s := newService(db, httpConfig(t, rcv.srv.URL), nil)
		s.MaxAttempts = 3
		pkg := archive(t, 6, "b-1.0.0.tar.gz", "content b")
		d, err := s.Enqueue(ctx, 1, pkg, "unity-prod")
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3; i++ {
			pass(t, s, d.ID)
		}
		got := pass(t, s, d.ID)
		if got.Status != StatusFailed || got.Attempts != 3 || got.AttemptLog[2].Outcome != OutcomeFailed {
			t.Fatalf("after 3 temporary failures: %+v", got)
		}
		// Enqueue again re-queues the failed delivery, same id, a fresh round of attempts.
		rcv.setCodes(503, 204)
		again, err := s.Enqueue(ctx, 1, pkg, "unity-prod")
		if err != nil || again.ID != d.ID || again.Status != StatusQueued {
			t.Fatalf("re-enqueue: %+v %v", again, err)
		}
		pass(t, s, d.ID)
		got = pass(t, s, d.ID)
		if got.Status != StatusDelivered || got.Attempts != 5 {
			t.Fatalf("after re-queue: %+v", got)
		}
	})
}

func TestHTTPRedirectRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var hit atomic.Int32
		other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hit.Add(1) }))
		defer other.Close()
		redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL, http.StatusTemporaryRedirect)
		}))
		defer redirect.Close()
		s := newService(db, httpConfig(t, redirect.URL), nil)
		d, err := s.Enqueue(context.Background(), 1, archive(t, 8, "c.tar.gz", "c"), "unity-prod")
		if err != nil {
			t.Fatal(err)
		}
		got := pass(t, s, d.ID)
		if got.Status != StatusFailed || !strings.Contains(got.LastError, "redirect") || hit.Load() != 0 {
			t.Fatalf("redirect: %+v, other hit %d", got, hit.Load())
		}
	})
}

func TestEnqueueIdempotent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		rcv := newReceiver(t, 200)
		s := newService(db, httpConfig(t, rcv.srv.URL), nil)
		pkg := archive(t, 21, "d-1.0.0.tar.gz", "d")
		d1, err := s.Enqueue(ctx, 1, pkg, "unity-prod")
		if err != nil {
			t.Fatal(err)
		}
		d2, err := s.Enqueue(ctx, 2, pkg, "unity-prod")
		if err != nil {
			t.Fatal(err)
		}
		if d1.ID != d2.ID || d2.CreatedBy != 1 {
			t.Fatalf("two deliveries: %+v %+v", d1, d2)
		}
		pass(t, s, d1.ID)
		d3, err := s.Enqueue(ctx, 1, pkg, "unity-prod")
		if err != nil || d3.ID != d1.ID || d3.Status != StatusDelivered {
			t.Fatalf("enqueue after delivery: %+v %v", d3, err)
		}
		if err := s.DeliverDue(ctx); err != nil {
			t.Fatal(err)
		}
		if n := len(rcv.requests()); n != 1 {
			t.Fatalf("%d requests, want 1", n)
		}
		ds, err := s.Deliveries(ctx, 21)
		if err != nil || len(ds) != 1 {
			t.Fatalf("deliveries: %+v %v", ds, err)
		}

		// Another archive for the same loadable is refused, not sent under the same id.
		other := archive(t, 21, "d-1.0.0.tar.gz", "different")
		var ae *apperr.Error
		if _, err := s.Enqueue(ctx, 1, other, "unity-prod"); !errors.As(err, &ae) || ae.Code != "HANDOVER_PACKAGE_CHANGED" {
			t.Fatalf("changed package: %v", err)
		}
		if _, err := s.Enqueue(ctx, 1, pkg, "nope"); !errors.As(err, &ae) || ae.Status != 400 || ae.Code != "UNKNOWN_TARGET" {
			t.Fatalf("unknown target: %v", err)
		}
		bad := pkg
		bad.FileName = "../x.tar.gz"
		if _, err := s.Enqueue(ctx, 1, bad, "unity-prod"); !errors.As(err, &ae) || ae.Status != 400 {
			t.Fatalf("bad file name: %v", err)
		}
		bad = pkg
		bad.SHA256 = "abc"
		if _, err := s.Enqueue(ctx, 1, bad, "unity-prod"); !errors.As(err, &ae) || ae.Status != 400 {
			t.Fatalf("bad sha: %v", err)
		}
		if ds, err := s.Deliveries(ctx, 12345); err != nil || ds == nil || len(ds) != 0 {
			t.Fatalf("no deliveries: %#v %v", ds, err)
		}
	})
}

func TestDirectoryTarget(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		dir := t.TempDir()
		rec := &recorder{}
		cfg := mustParse(t, `{"targets":[{"name":"scmdb-drop","system":"scmdb","kind":"directory","dir":"`+dir+`"}]}`)
		s := newService(db, cfg, rec)

		pkg := archive(t, 31, "crew-news-1.2.3.tar.gz", strings.Repeat("x", 100000))
		d, err := s.Enqueue(ctx, 4, pkg, "scmdb-drop")
		if err != nil {
			t.Fatal(err)
		}
		if got := pass(t, s, d.ID); got.Status != StatusDelivered || got.AttemptLog[0].HTTPStatus != 0 {
			t.Fatalf("delivery: %+v", got)
		}
		want, _ := os.ReadFile(pkg.ArchivePath)
		if gotBytes, err := os.ReadFile(filepath.Join(dir, "crew-news-1.2.3.tar.gz")); err != nil || string(gotBytes) != string(want) {
			t.Fatalf("delivered archive differs: %v", err)
		}
		if m, err := os.ReadFile(filepath.Join(dir, "crew-news-1.2.3.tar.gz.manifest.json")); err != nil || string(m) != string(pkg.Manifest) {
			t.Fatalf("manifest: %q %v", m, err)
		}
		if _, n := rec.last(t); n.Status != "SUCCESS" {
			t.Fatalf("notification: %+v", n)
		}

		// Another loadable with the same file name and other content is refused.
		other := archive(t, 32, "crew-news-1.2.3.tar.gz", "something else")
		other.Manifest = pkg.Manifest // even with the same manifest
		d2, err := s.Enqueue(ctx, 4, other, "scmdb-drop")
		if err != nil {
			t.Fatal(err)
		}
		if got := pass(t, s, d2.ID); got.Status != StatusFailed || got.Attempts != 1 || !strings.Contains(got.LastError, "refusing to overwrite") {
			t.Fatalf("different content: %+v", got)
		}
		if gotBytes, _ := os.ReadFile(filepath.Join(dir, "crew-news-1.2.3.tar.gz")); string(gotBytes) != string(want) {
			t.Fatal("the delivered archive was overwritten")
		}

		// The same content again (another delivery of the same package) is idempotent.
		same := archive(t, 33, "crew-news-1.2.3.tar.gz", strings.Repeat("x", 100000))
		same.Manifest = pkg.Manifest
		d3, err := s.Enqueue(ctx, 4, same, "scmdb-drop")
		if err != nil {
			t.Fatal(err)
		}
		if got := pass(t, s, d3.ID); got.Status != StatusDelivered {
			t.Fatalf("same content: %+v", got)
		}

		// No temporary files left behind.
		entries, _ := os.ReadDir(dir)
		if len(entries) != 2 {
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			t.Fatalf("directory holds %v", names)
		}

		// A missing directory is a temporary failure (a mount may come back).
		gone := mustParse(t, `{"targets":[{"name":"scmdb-drop","system":"scmdb","kind":"directory","dir":"`+filepath.Join(dir, "missing")+`"}]}`)
		s2 := newService(db, gone, nil)
		d4, err := s2.Enqueue(ctx, 4, archive(t, 34, "e.tar.gz", "e"), "scmdb-drop")
		if err != nil {
			t.Fatal(err)
		}
		if got := pass(t, s2, d4.ID); got.Status != StatusQueued || got.Attempts != 1 {
			t.Fatalf("missing dir: %+v", got)
		}

		// An archive changed on disk is never delivered.
		changed := archive(t, 35, "f.tar.gz", "f")
		d5, err := s.Enqueue(ctx, 4, changed, "scmdb-drop")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(changed.ArchivePath, []byte("tampered"), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := pass(t, s, d5.ID); got.Status != StatusFailed || !strings.Contains(got.LastError, "changed on disk") {
			t.Fatalf("changed archive: %+v", got)
		}
		if _, err := os.Stat(filepath.Join(dir, "f.tar.gz")); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("a changed archive was dropped: %v", err)
		}
	})
}

func TestConcurrentWorkersSendOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		var mu sync.Mutex
		seen := map[string]int{}
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			time.Sleep(20 * time.Millisecond) // widen the window for a second sender
			mu.Lock()
			seen[r.Header.Get(HeaderDelivery)]++
			mu.Unlock()
		}))
		defer srv.Close()
		cfg := httpConfig(t, srv.URL)
		a, b := newService(db, cfg, nil), newService(db, cfg, nil)
		const n = 6
		for i := int64(1); i <= n; i++ {
			if _, err := a.Enqueue(ctx, 1, archive(t, 100+i, "p.tar.gz", "p"+strconv.FormatInt(i, 10)), "unity-prod"); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		for _, s := range []*Service{a, b, a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := s.DeliverDue(ctx); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		mu.Lock()
		defer mu.Unlock()
		if len(seen) != n {
			t.Fatalf("delivered %d packages, want %d: %v", len(seen), n, seen)
		}
		for id, c := range seen {
			if c != 1 {
				t.Fatalf("delivery %s sent %d times", id, c)
			}
		}
		for i := int64(1); i <= n; i++ {
			ds, err := a.Deliveries(ctx, 100+i)
			if err != nil || len(ds) != 1 || ds[0].Status != StatusDelivered || ds[0].Attempts != 1 || len(ds[0].AttemptLog) != 1 {
				t.Fatalf("loadable %d: %+v %v", 100+i, ds, err)
			}
		}
	})
}

func TestStaleClaimIsTakenOver(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		rcv := newReceiver(t, 200)
		s := newService(db, httpConfig(t, rcv.srv.URL), nil)
		d, err := s.Enqueue(ctx, 1, archive(t, 41, "g.tar.gz", "g"), "unity-prod")
		if err != nil {
			t.Fatal(err)
		}
		// An instance claimed it and died 5 minutes ago: not yet claimable.
		claimAt := func(at time.Time) {
			if _, err := db.ExecContext(ctx, `UPDATE handover_deliveries SET status = 'SENDING', claim_token = 'dead', claimed_at = ? WHERE id = ?`,
				at.UTC(), d.ID); err != nil {
				t.Fatal(err)
			}
		}
		claimAt(time.Now().Add(-5 * time.Minute))
		if got := pass(t, s, d.ID); got.Status != StatusSending || len(rcv.requests()) != 0 {
			t.Fatalf("fresh claim taken over: %+v", got)
		}
		if _, err := s.Retry(ctx, d.ID); !errors.Is(err, ErrSending) {
			t.Fatalf("Retry while sending: %v", err)
		}
		claimAt(time.Now().Add(-11 * time.Minute))
		if got := pass(t, s, d.ID); got.Status != StatusDelivered || len(rcv.requests()) != 1 {
			t.Fatalf("stale claim: %+v", got)
		}
	})
}

func TestInterruptedAttemptDoesNotCount(t *testing.T) {
	db := storetest.SQLite(t)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	s := newService(db, httpConfig(t, srv.URL), nil)
	d, err := s.Enqueue(context.Background(), 1, archive(t, 51, "h.tar.gz", "h"), "unity-prod")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_ = s.DeliverDue(ctx)
	got, err := s.Get(context.Background(), d.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != StatusQueued || got.Attempts != 0 || len(got.AttemptLog) != 1 || got.AttemptLog[0].Outcome != OutcomeInterrupted {
		t.Fatalf("interrupted: %+v", got)
	}
}

func TestRunWakesOnEnqueue(t *testing.T) {
	db := storetest.SQLite(t)
	rcv := newReceiver(t, 200)
	s := newService(db, httpConfig(t, rcv.srv.URL), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	time.Sleep(50 * time.Millisecond) // the first pass finds nothing
	d, err := s.Enqueue(context.Background(), 1, archive(t, 61, "i.tar.gz", "i"), "unity-prod")
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(3 * time.Second) // well under the 5 s poll
	for time.Now().Before(deadline) {
		if got, _ := s.Get(context.Background(), d.ID); got != nil && got.Status == StatusDelivered {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("Run did not deliver after Enqueue")
}

func TestBackoff(t *testing.T) {
	s := New(nil, nil, quietLog(), nil)
	for n, want := range map[int]time.Duration{0: 30 * time.Second, 1: 30 * time.Second, 2: time.Minute, 3: 2 * time.Minute, 8: time.Hour, 100: time.Hour} {
		if got := s.backoff(n); got != want {
			t.Errorf("backoff(%d) = %s, want %s", n, got, want)
		}
	}
}

func TestConfig(t *testing.T) {
	env := func(k string) string {
		if k == "UNITY_SECRET" {
			return "from-the-environment-123"
		}
		return ""
	}
	cfg, err := Parse([]byte(`{"targets":[
		{"name":"unity-prod","system":"unity","kind":"http","url":"https://unity.example/api/loadables?key=hidden","secretEnv":"UNITY_SECRET","description":"Unity"},
		{"name":"scmdb-drop","system":"scmdb","kind":"directory","dir":"/srv/drop/../scmdb/"}]}`), env)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := cfg.Target("unity-prod")
	if u.Secret != "from-the-environment-123" || u.Timeout != 5*time.Minute {
		t.Fatalf("http target: %+v", u)
	}
	if d, _ := cfg.Target("scmdb-drop"); d.Dir != "/srv/scmdb" {
		t.Fatalf("dir: %q", d.Dir)
	}
	s := New(nil, cfg, quietLog(), nil)
	if got := s.Targets(SystemSCMDB); len(got) != 1 || got[0].Name != "scmdb-drop" {
		t.Fatalf("Targets(scmdb): %+v", got)
	}
	all := s.Targets("")
	js, _ := json.Marshal(all)
	if len(all) != 2 || strings.Contains(string(js), "from-the-environment") || strings.Contains(string(js), "hidden") ||
		strings.Contains(string(js), "UNITY_SECRET") || !strings.Contains(string(js), `"url":"https://unity.example/api/loadables"`) {
		t.Fatalf("Targets JSON: %s", js)
	}
	if len(s.Targets("other")) != 0 {
		t.Fatal("Targets of an unknown system")
	}

	// A missing file is no targets; an explicitly configured missing file is an error.
	missing := filepath.Join(t.TempDir(), "none.json")
	if c, err := Load(missing); err != nil || len(c.Targets) != 0 {
		t.Fatalf("missing file: %+v %v", c, err)
	}
	if _, err := LoadFor(missing, t.TempDir()); err == nil {
		t.Fatal("LoadFor of a missing explicit file")
	}
	dataDir := t.TempDir()
	if c, err := LoadFor("", dataDir); err != nil || len(c.Targets) != 0 {
		t.Fatalf("LoadFor default missing: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dataDir, DefaultFileName), []byte(`{"targets":[{"name":"x","system":"scmdb","kind":"directory","dir":"/tmp"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if c, err := LoadFor("", dataDir); err != nil || len(c.Targets) != 1 {
		t.Fatalf("LoadFor default: %+v %v", c, err)
	}
	if err := os.WriteFile(filepath.Join(dataDir, "bad.json"), []byte(`{"targets":[{"name":"x"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(filepath.Join(dataDir, "bad.json")); err == nil || !strings.Contains(err.Error(), "bad.json") {
		t.Fatalf("bad file: %v", err)
	}

	const okHTTP = `"system":"unity","kind":"http","url":"https://u.example/in","secret":"` + testSecret + `"`
	for _, tc := range []struct{ js, want string }{
		{`not json`, "invalid JSON"},
		{`{"targets":[]} {}`, "after the top-level"},
		{`{"targets":[{"name":"a",` + okHTTP + `,"extra":1}]}`, "unknown field"},
		{`{"targets":[{"name":"a",` + okHTTP + `},{"name":"a",` + okHTTP + `}]}`, "used twice"},
		{`{"targets":[{"name":"Bad Name",` + okHTTP + `}]}`, "name must be"},
		{`{"targets":[{"name":"","system":"unity","kind":"directory","dir":"/x"}]}`, "name must be"},
		{`{"targets":[{"name":"a","system":"sap","kind":"directory","dir":"/x"}]}`, "system must be"},
		{`{"targets":[{"name":"a","system":"unity","kind":"ftp","dir":"/x"}]}`, "kind must be"},
		{`{"targets":[{"name":"a","system":"unity","kind":"directory","dir":"relative/x"}]}`, "absolute"},
		{`{"targets":[{"name":"a","system":"unity","kind":"directory"}]}`, "absolute"},
		{`{"targets":[{"name":"a","system":"unity","kind":"directory","dir":"/x","url":"https://u.example"}]}`, "http targets only"},
		{`{"targets":[{"name":"a","system":"unity","kind":"http","secret":"` + testSecret + `"}]}`, "url is required"},
		{`{"targets":[{"name":"a","system":"unity","kind":"http","url":"ftp://u.example","secret":"` + testSecret + `"}]}`, "http:// or https://"},
		{`{"targets":[{"name":"a","system":"unity","kind":"http","url":"https://","secret":"` + testSecret + `"}]}`, "no host"},
		{`{"targets":[{"name":"a","system":"unity","kind":"http","url":"https://me:pw@u.example","secret":"` + testSecret + `"}]}`, "credentials"},
		{`{"targets":[{"name":"a","system":"unity","kind":"http","url":"https://u.example"}]}`, "needs secret"},
		{`{"targets":[{"name":"a","system":"unity","kind":"http","url":"https://u.example","secret":"short"}]}`, "at least 16"},
		{`{"targets":[{"name":"a","system":"unity","kind":"http","url":"https://u.example","secretEnv":"UNSET"}]}`, "UNSET"},
		{`{"targets":[{"name":"a","system":"unity","kind":"http","url":"https://u.example","secretEnv":"UNITY_SECRET","secret":"` + testSecret + `"}]}`, "not both"},
		{`{"targets":[{"name":"a",` + okHTTP + `,"timeout":"forever"}]}`, "timeout must be"},
		{`{"targets":[{"name":"a",` + okHTTP + `,"timeout":"1ms"}]}`, "timeout must be"},
		{`{"targets":[{"name":"a",` + okHTTP + `,"dir":"/x"}]}`, "directory targets only"},
	} {
		_, err := Parse([]byte(tc.js), env)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.js, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), testSecret) {
			t.Errorf("%s: the error shows the secret", tc.js)
		}
	}
}

func TestHeartbeatKeepsLongAttemptClaimed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		var calls atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			calls.Add(1)
			_, _ = io.Copy(io.Discard, r.Body)
			time.Sleep(900 * time.Millisecond) // far longer than StaleClaim
		}))
		defer srv.Close()
		cfg := httpConfig(t, srv.URL)
		a, b := newService(db, cfg, nil), newService(db, cfg, nil)
		a.StaleClaim, b.StaleClaim = 300*time.Millisecond, 300*time.Millisecond
		d, err := a.Enqueue(ctx, 1, archive(t, 71, "j.tar.gz", "j"), "unity-prod")
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- a.DeliverDue(ctx) }()
		for i := 0; i < 8; i++ { // b keeps looking while a sends
			time.Sleep(100 * time.Millisecond)
			if err := b.DeliverDue(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		got, err := a.Get(ctx, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		if calls.Load() != 1 || got.Status != StatusDelivered || len(got.AttemptLog) != 1 {
			t.Fatalf("%d calls, delivery %+v", calls.Load(), got)
		}
	})
}
