package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"portalwright/internal/caller"
	"portalwright/internal/config"
	"portalwright/internal/handover"
	"portalwright/internal/identity"
	"portalwright/internal/loadable"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
)

func TestLoadables(t *testing.T) { loadableSuite(t, testConfig(t)) }

func TestLoadablesPostgres(t *testing.T) {
	cfg := testConfig(t)
	cfg.DatabaseURL = storetest.PostgresURL(t) // skips without TEST_DATABASE_URL
	loadableSuite(t, cfg)
}

type loadableView struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Version  string `json:"version"`
	Status   string `json:"status"`
	FileName string `json:"fileName"`
	SHA256   string `json:"sha256"`
	Size     int64  `json:"size"`
	CommitID string `json:"commitId"`
	Error    *struct {
		ErrorCode string `json:"errorCode"`
		Output    string `json:"output"`
	} `json:"error"`
	ApprovedBy *struct {
		UserName string `json:"userName"`
	} `json:"approvedBy"`
}

// loadableSuite walks the loadable calls over HTTP on the demo Passenger Portal (UNIVERSAL,
// its tasks run in the sandbox): the wizard's calls, two generations of one commit giving the
// same bytes, the manifest checking out, approval by a second user only with loadable
// approval, rejection, ranges, a LOADABLE preview, and a restart during a generation.
func loadableSuite(t *testing.T, cfg config.Config) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("bwrap is not installed (Debian: apt-get install bubblewrap)")
	}
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	// A downstream endpoint that fails twice, then takes the package.
	var mu sync.Mutex
	var answers []int
	var ids []string
	var received [][]byte
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		ids = append(ids, r.Header.Get("X-Portalwright-Delivery"))
		if len(answers) < 2 {
			answers = append(answers, 503)
			w.WriteHeader(503)
			return
		}
		if err := handover.Verify(r.Header, []byte("a-shared-secret-of-32-characters"), time.Now(), time.Minute); err != nil {
			answers = append(answers, 401)
			w.WriteHeader(401)
			return
		}
		answers = append(answers, 200)
		received = append(received, body)
	}))
	defer receiver.Close()
	if err := os.MkdirAll(cfg.DataDir, 0o755); err != nil {
		t.Fatal(err)
	}
	targets := `{"targets":[{"name":"unity-test","system":"unity","kind":"http","url":"` + receiver.URL + `/in","secret":"a-shared-secret-of-32-characters"}]}`
	if err := os.WriteFile(filepath.Join(cfg.DataDir, "handover.json"), []byte(targets), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := start(t, cfg)
	ctx := context.Background()
	a := srv.app
	a.handOver.Backoff = 20 * time.Millisecond
	a.handOver.MaxBackoff = 50 * time.Millisecond
	root := caller.Caller{UserID: 1, Username: "admin", Admin: true}
	groups := map[string][]string{
		"Makers":    {"portal:r", "loadable:c", "loadable:r"},
		"Approvers": {"portal:r", "loadable:r", "loadable:a"},
	}
	for name, perms := range groups {
		if _, err := a.Access.Grants().CreateGroup(ctx, root, 1, name, perms); err != nil {
			t.Fatal(err)
		}
	}
	for user, group := range map[string]string{"maker": "Makers", "approver": "Approvers"} {
		u, err := a.Identity.CreateUser(ctx, identity.NewUser{UserName: user, Password: user + "-pass-1"})
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Access.Grants().AssignRole(ctx, root, u.ID, 1, group); err != nil {
			t.Fatal(err)
		}
	}
	maker := testkit.SignIn(t, srv.base, "maker", "maker-pass-1")
	approver := testkit.SignIn(t, srv.base, "approver", "approver-pass-1")
	if r := maker.Do("GET", "/portal/1/2/open", ""); r.Status != 200 {
		t.Fatalf("open: %d %s", r.Status, r.Body)
	}
	const base = "/loadable/1/2"

	// The wizard's calls.
	if r := maker.Do("GET", base+"/gitvalidation?type=PORTAL&branch=master", ""); r.Status != 200 || !strings.Contains(r.Body, `"valid":true`) {
		t.Fatalf("gitvalidation: %d %s", r.Status, r.Body)
	}
	if r := maker.Do("GET", base+"/gitvalidation?type=PORTAL&branch=nope", ""); r.Status != 200 || !strings.Contains(r.Body, `"valid":false`) {
		t.Fatalf("gitvalidation of a missing branch: %d %s", r.Status, r.Body)
	}
	if r := maker.Do("GET", base+"/copyright?type=PORTAL&branch=master&checkRefs=true", ""); r.Status != 200 || !strings.Contains(r.Body, `"statement"`) || !strings.Contains(r.Body, `"ipAddress":"127.0.0.1"`) {
		t.Fatalf("copyright: %d %s", r.Status, r.Body)
	}
	var name struct{ Name string }
	if r := maker.Do("GET", base+"/generateName?contentType=PORTAL", ""); r.Status != 200 || json.Unmarshal([]byte(r.Body), &name) != nil || !strings.HasPrefix(name.Name, "passenger-portal-portal-") {
		t.Fatalf("generateName: %d %s", r.Status, r.Body)
	}
	if r := maker.Do("GET", base+"/unity/partNumber?foldetName=Inflight%20News&contentType=PORTAL&contentTag=q3", ""); r.Status != 200 || !strings.Contains(r.Body, `"PW-POR-INFLIGHT-Q3"`) {
		t.Fatalf("partNumber: %d %s", r.Status, r.Body)
	}
	create := func(name, prefix string, accept bool) testkit.Reply {
		body, _ := json.Marshal(map[string]any{"name": name, "partNumber": "PW-POR-NEWS", "versionPrefix": prefix, "type": "PORTAL",
			"gitRef": "master", "copyrightData": map[string]any{"metaData": map[string]any{"accept": accept, "ipAddress": "203.0.113.9"}}})
		return maker.Do("POST", base, string(body))
	}
	for _, bad := range []struct {
		r    testkit.Reply
		want string
	}{
		{create("news", "1.0", false), "Please accept the copyright statement."},
		{create("-news", "1.0", true), "INVALID_LOADABLE_NAME"},
		{create("news", "1", true), "Please enter the version as major.minor"},
	} {
		if bad.r.Status != 400 || !strings.Contains(bad.r.Body, bad.want) {
			t.Fatalf("bad request: %d %s, want %q", bad.r.Status, bad.r.Body, bad.want)
		}
	}
	generated := func(r testkit.Reply) loadableView {
		t.Helper()
		var l loadableView
		if r.Status != 201 || json.Unmarshal([]byte(r.Body), &l) != nil {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		if g := maker.Do("POST", base+"/generate/"+itoa(l.ID), ""); g.Status != 202 {
			t.Fatalf("generate: %d %s", g.Status, g.Body)
		}
		for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			var list []loadableView
			_ = json.Unmarshal([]byte(maker.Do("GET", base, "").Body), &list)
			for _, x := range list {
				if x.ID == l.ID && x.Status != "GENERATING" {
					if x.Status != "GENERATED" {
						t.Fatalf("generation: %+v", x)
					}
					return x
				}
			}
		}
		t.Fatal("generation did not finish")
		return l
	}
	one := generated(create("news", "1.0", true))
	two := generated(create("news-again", "1.0", true))
	if one.Version != "1.0.1" || two.Version != "1.0.2" || one.FileName != "news-1.0.1.tar.gz" {
		t.Fatalf("versions: %+v %+v", one, two)
	}
	if one.SHA256 == "" || one.SHA256 != two.SHA256 || one.Size != two.Size || len(one.CommitID) != 40 {
		t.Fatalf("the same commit gave different packages: %+v %+v", one, two)
	}
	if r := create("news", "2.0", true); r.Status != 409 || !strings.Contains(r.Body, "LOADABLE_NAME_TAKEN") {
		t.Fatalf("a taken name: %d %s", r.Status, r.Body)
	}

	// Download: the whole package verifies against its manifest; ranges and HEAD work.
	dl := maker.Do("GET", base+"/download/"+one.FileName, "")
	if dl.Status != 200 || dl.Header.Get("Content-Type") != "application/gzip" || !strings.Contains(dl.Header.Get("Content-Disposition"), one.FileName) {
		t.Fatalf("download: %d %v", dl.Status, dl.Header)
	}
	m, err := loadable.Verify(bytes.NewReader([]byte(dl.Body)))
	if err != nil || m.SourceCommit != one.CommitID || len(m.Files) == 0 {
		t.Fatalf("verify the download: %v %+v", err, m)
	}
	if r := maker.Do("GET", base+"/download/"+one.FileName, "", "Range", "bytes=0-9"); r.Status != 206 || len(r.Body) != 10 {
		t.Fatalf("range: %d %d", r.Status, len(r.Body))
	}
	if r := maker.Do("HEAD", base+"/download/"+one.FileName, ""); r.Status != 200 || r.Header.Get("ETag") != `"`+one.SHA256+`"` {
		t.Fatalf("head: %d %v", r.Status, r.Header)
	}
	if r := maker.Do("GET", base+"/download/nope.tar.gz", ""); r.Status != 404 || !strings.Contains(r.Body, "Could not download loadable") {
		t.Fatalf("download of nothing: %d %s", r.Status, r.Body)
	}

	// Approval: not by the maker (no loadable approval), by the approver; a rejected one
	// cannot be approved.
	if r := maker.Do("POST", base+"/approve/"+itoa(one.ID), ""); r.Status != 403 {
		t.Fatalf("approve without loadable approval: %d", r.Status)
	}
	var ok loadableView
	if r := approver.Do("POST", base+"/approve/"+itoa(one.ID), ""); r.Status != 200 || json.Unmarshal([]byte(r.Body), &ok) != nil || ok.Status != "APPROVED" || ok.ApprovedBy == nil || ok.ApprovedBy.UserName != "approver" {
		t.Fatalf("approve: %d %s", r.Status, r.Body)
	}
	if r := approver.Do("POST", base+"/approve/"+itoa(one.ID), ""); r.Status != 409 {
		t.Fatalf("approve twice: %d", r.Status)
	}
	// The reason's limit is 1000 characters, as the browser counts them (not bytes).
	if r := approver.Do("PUT", base+"/reject/"+itoa(two.ID), `{"reason":"`+strings.Repeat("é", 1001)+`"}`); r.Status != 400 {
		t.Fatalf("reject with 1001 characters: %d %s", r.Status, r.Body)
	}
	if r := approver.Do("PUT", base+"/reject/"+itoa(two.ID), `{"reason":"`+strings.Repeat("é", 1000)+`"}`); r.Status != 200 || !strings.Contains(r.Body, `"REJECTED"`) {
		t.Fatalf("reject: %d %s", r.Status, r.Body)
	}
	if r := approver.Do("POST", base+"/approve/"+itoa(two.ID), ""); r.Status != 409 {
		t.Fatalf("approve a rejected one: %d", r.Status)
	}
	var latest []loadableView
	if r := maker.Do("GET", base+"/latestloadables", ""); r.Status != 200 || json.Unmarshal([]byte(r.Body), &latest) != nil || len(latest) != 1 || latest[0].ID != one.ID {
		t.Fatalf("latestloadables: %d %s", r.Status, r.Body)
	}
	if r := maker.Do("GET", base+"/getCopyright/"+itoa(one.ID), ""); r.Status != 200 || !strings.Contains(r.Body, `"accept":true`) || !strings.Contains(r.Body, `"userName":"maker"`) {
		t.Fatalf("getCopyright: %d %s", r.Status, r.Body)
	}

	// Hand-over: only approved loadables, to a configured target; the endpoint that failed
	// twice receives exactly one package, the approved one, under one delivery id.
	if r := approver.Do("POST", base+"/unity/"+itoa(two.ID), `{"target":"unity-test"}`); r.Status != 409 || !strings.Contains(r.Body, "LOADABLE_NOT_APPROVED") {
		t.Fatalf("hand over a rejected loadable: %d %s", r.Status, r.Body)
	}
	if r := approver.Do("POST", base+"/unity/"+itoa(one.ID), `{"target":"nowhere"}`); r.Status != 400 {
		t.Fatalf("hand over to an unknown target: %d %s", r.Status, r.Body)
	}
	if r := maker.Do("POST", base+"/unity/"+itoa(one.ID), `{"target":"unity-test"}`); r.Status != 403 {
		t.Fatalf("hand over without loadable approval: %d", r.Status)
	}
	if r := maker.Do("GET", base+"/unity/profiles/"+itoa(one.ID), ""); r.Status != 200 || !strings.Contains(r.Body, `"unity-test"`) || strings.Contains(r.Body, "secret") {
		t.Fatalf("profiles: %d %s", r.Status, r.Body)
	}
	for range 2 { // asked twice: one delivery
		if r := approver.Do("POST", base+"/unity/"+itoa(one.ID), `{"target":"unity-test"}`); r.Status != 202 {
			t.Fatalf("hand over: %d %s", r.Status, r.Body)
		}
	}
	var deliveries []struct {
		ID     int64  `json:"id"`
		Status string `json:"status"`
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		_ = json.Unmarshal([]byte(maker.Do("GET", base+"/handover/"+itoa(one.ID), "").Body), &deliveries)
		if len(deliveries) == 1 && deliveries[0].Status == "DELIVERED" {
			break
		}
	}
	mu.Lock()
	if len(deliveries) != 1 || deliveries[0].Status != "DELIVERED" || len(received) != 1 || !bytes.Equal(received[0], []byte(dl.Body)) ||
		strings.Join(ids, ",") != strings.Repeat(itoa(deliveries[0].ID)+",", 2)+itoa(deliveries[0].ID) {
		t.Fatalf("hand-over: deliveries %+v, answers %v, ids %v, %d received", deliveries, answers, ids, len(received))
	}
	mu.Unlock()

	// A tampered package cannot be approved.
	three := generated(create("news-three", "1.0", true))
	archive := filepath.Join(cfg.DataDir, "loadables", "2", itoa(three.ID), three.FileName)
	if err := os.WriteFile(archive, []byte("not the package"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := approver.Do("POST", base+"/approve/"+itoa(three.ID), ""); r.Status != 409 || !strings.Contains(r.Body, "LOADABLE_TAMPERED") {
		t.Fatalf("approve a tampered package: %d %s", r.Status, r.Body)
	}

	// A LOADABLE preview of the approved package.
	r := maker.Do("POST", base+"/preview", `{"versionTag":"`+one.Version+`","emulator":"phone"}`)
	var p sharedPreview
	if r.Status != 202 || json.Unmarshal([]byte(r.Body), &p) != nil || p.Type != "LOADABLE" {
		t.Fatalf("loadable preview: %d %s", r.Status, r.Body)
	}
	for deadline := time.Now().Add(time.Minute); p.Status == "PROGRESS" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		_ = json.Unmarshal([]byte(maker.Do("GET", "/preview/1/2/"+itoa(p.ID), "").Body), &p)
	}
	if p.Status != "READY" || !strings.Contains(p.Link, "/LOADABLE/"+one.Version+"/") {
		t.Fatalf("loadable preview: %+v", p)
	}
	if page := testkit.Call(t, "GET", strings.Split(p.Link, "#")[0], "", ""); page.Status != 200 || !strings.Contains(page.Body, "<html") {
		t.Fatalf("loadable preview page: %d %.200s", page.Status, page.Body)
	}
}

// TestLoadableInterrupted: a generation cut short by a stop leaves the loadable FAILED with no
// package, and it can be generated again.
func TestLoadableInterrupted(t *testing.T) {
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	ctx := context.Background()
	svc := srv.app.loadables
	st := loadable.NewSQLStore(srv.app.DB)
	l := &loadable.Loadable{DomainID: 1, PortalID: 2, Name: "cut", PartNumber: "PW-CUT", VersionPrefix: "1.0", Type: "PORTAL",
		GitRef: "master", CommitID: strings.Repeat("a", 40), Status: loadable.Generating, CreatedBy: loadable.Person{ID: 1}, CreatedAt: time.Now()}
	if err := st.Insert(ctx, l); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cfg.DataDir, "loadables", "2", itoa(l.ID))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	half := filepath.Join(dir, l.FileName+".tmp")
	if err := os.WriteFile(half, []byte("half a package"), 0o644); err != nil {
		t.Fatal(err)
	}
	_ = svc
	// Another generation still beating (another instance runs it): left alone.
	alive := &loadable.Loadable{DomainID: 1, PortalID: 2, Name: "alive", PartNumber: "PW-CUT", VersionPrefix: "1.0", Type: "PORTAL",
		GitRef: "master", CommitID: strings.Repeat("b", 40), Status: loadable.Generating, CreatedBy: loadable.Person{ID: 1}, CreatedAt: time.Now()}
	if err := st.Insert(ctx, alive); err != nil {
		t.Fatal(err)
	}
	if err := st.Heartbeat(ctx, alive.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	aliveTmp := filepath.Join(cfg.DataDir, "loadables", "2", itoa(alive.ID), alive.FileName+".tmp")
	if err := os.MkdirAll(filepath.Dir(aliveTmp), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(aliveTmp, []byte("being written"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A restart: the new service finds the GENERATING records.
	again, err := loadable.New(ctx, loadable.Config{Dir: filepath.Join(cfg.DataDir, "loadables")}, loadable.Deps{Store: st, Log: srv.app.Log})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	got, err := st.Get(ctx, 2, l.ID)
	if err != nil || got.Status != loadable.Failed || got.Error == nil || got.Error.Code != "LOADABLE_INTERRUPTED" || got.SHA256 != "" {
		t.Fatalf("after the restart: %+v %v", got, err)
	}
	if _, err := os.Stat(half); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the half-written package is still there: %v", err)
	}
	if got, err := st.Get(ctx, 2, alive.ID); err != nil || got.Status != loadable.Generating || got.GeneratedAt != nil {
		t.Fatalf("a generation still beating: %+v %v", got, err)
	}
	if _, err := os.Stat(aliveTmp); err != nil {
		t.Fatalf("the other instance's package being written was removed: %v", err)
	}
	admin := testkit.SignIn(t, srv.base, "admin", "admin-pass")
	if r := admin.Do("GET", "/loadable/1/2/download/"+l.FileName, ""); r.Status != 409 && r.Status != 404 {
		t.Fatalf("download of an interrupted loadable: %d", r.Status)
	}
}
