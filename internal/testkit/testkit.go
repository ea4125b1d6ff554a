// Package testkit holds the helpers tests of every package share: asserting an API error,
// and calling a running server's API as a signed-in user. Test code only.
package testkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/apperr"
	"portalwright/internal/httpx"
)

// APIError fails the test unless err is an *apperr.Error with the status and, when code is
// not "", the code. It returns the error for further checks.
func APIError(t testing.TB, err error, status int, code string) *apperr.Error {
	t.Helper()
	var e *apperr.Error
	if !errors.As(err, &e) || e.Status != status || (code != "" && e.Code != code) {
		t.Fatalf("err = %v, want %d %s", err, status, code)
	}
	return e
}

// Reply is an HTTP answer read whole, with the API error's code and message when it is one.
type Reply struct {
	Status  int
	Header  http.Header
	Body    string
	Code    string // errorCode of an error body
	Message string // errorMessage of an error body
}

// ETag is the version the answer carries (without quotes).
func (r Reply) ETag() string { return strings.Trim(r.Header.Get("ETag"), `"`) }

// JSON decodes the body into v, failing the test when it is not JSON.
func (r Reply) JSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(r.Body), v); err != nil {
		t.Fatalf("answer %d is not JSON: %v: %s", r.Status, err, r.Body)
	}
}

// Call sends one request: method, full URL, bearer token ("" for none), JSON body ("" for
// none) and header name/value pairs (a pair with an empty value is skipped).
func Call(t testing.TB, method, url, token, body string, hdr ...string) Reply {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i+1] != "" {
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var e struct{ ErrorCode, ErrorMessage string }
	_ = json.Unmarshal(data, &e)
	return Reply{Status: resp.StatusCode, Header: resp.Header, Body: string(data), Code: e.ErrorCode, Message: e.ErrorMessage}
}

// Login signs in at the server's base URL and returns the bearer token.
func Login(t testing.TB, base, user, pass string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"username": user, "password": pass})
	resp, err := http.Post(base+"/api/v1/user/login", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		IDToken string `json:"id_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK || out.IDToken == "" {
		t.Fatalf("login %s: %d %v", user, resp.StatusCode, err)
	}
	return out.IDToken
}

// Client calls one server's API (base URL + /api/v1) as one signed-in user.
type Client struct {
	t     testing.TB
	base  string
	Token string
}

// SignIn logs user in at base and returns a client for the API.
func SignIn(t testing.TB, base, user, pass string) *Client {
	t.Helper()
	return &Client{t: t, base: base, Token: Login(t, base, user, pass)}
}

// Do calls path (relative to /api/v1) with a JSON body ("" for none) and header pairs.
func (c *Client) Do(method, path, body string, hdr ...string) Reply {
	c.t.Helper()
	return Call(c.t, method, c.base+"/api/v1"+path, c.Token, body, hdr...)
}

// Routes mounts a feature's routes on a router without the guard, for handler tests that
// do not need a signed-in caller (a returned error is written as the API's error body by
// httpx.HandlerFunc.ServeHTTP, as in the real router).
func Routes(routes []httpx.Route) http.Handler {
	r := chi.NewRouter()
	for _, rt := range routes {
		r.Method(rt.Method, rt.Pattern, rt.Handler)
	}
	return r
}

// Binary is the server binary for tests that run it as a process of its own:
// PORTALWRIGHT_BIN (make test), else one built once from ./cmd/portalwright.
func Binary(t testing.TB) string {
	t.Helper()
	if bin := os.Getenv("PORTALWRIGHT_BIN"); bin != "" {
		return bin
	}
	binaryBuild.Do(func() {
		dir, err := os.MkdirTemp("", "pw-test-bin-")
		if err != nil {
			binaryErr = err.Error()
			return
		}
		binaryPath = filepath.Join(dir, "portalwright")
		out, err := exec.Command("go", "build", "-o", binaryPath, "portalwright/cmd/portalwright").CombinedOutput()
		if err != nil {
			binaryErr = err.Error() + ": " + string(out)
		}
	})
	if binaryErr != "" {
		t.Fatalf("building the server: %s", binaryErr)
	}
	return binaryPath
}

var (
	binaryBuild           sync.Once
	binaryPath, binaryErr string
)

// SyncBuffer is a bytes.Buffer that a process's or a goroutine's output and the test reading
// it can share.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// StopProcess stops a server process as Ctrl-C does and waits for it, killing it when it has
// not ended within grace.
func StopProcess(cmd *exec.Cmd, grace time.Duration) {
	cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
		cmd.Process.Kill()
		<-done
	}
}
