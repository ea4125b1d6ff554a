package notify

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"math/big"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// received is a message the test server accepted.
type received struct {
	From string
	To   []string
	Data string
	User string // authenticated user name, "" without AUTH
	TLS  bool   // the session was encrypted
}

// testServer is a real SMTP server (github.com/emersion/go-smtp) on 127.0.0.1 that
// records what it accepts and can be told to reject.
type testServer struct {
	Host string
	Port int

	mu       sync.Mutex
	msgs     []received
	users    map[string]string // user → password; non-nil: AUTH required
	dataErrs []error           // returned by the next DATA commands, in order
	rcptErr  error             // returned by every RCPT
	dataSeen int               // DATA commands received
}

type serverOptions struct {
	users       map[string]string
	tls         *tls.Config // offered through STARTTLS
	implicitTLS bool        // TLS from the first byte instead
}

func startServer(t *testing.T, opt serverOptions) *testServer {
	t.Helper()
	ts := &testServer{users: opt.users}
	s := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &session{srv: ts, conn: c}, nil
	}))
	s.Domain = "localhost"
	s.AllowInsecureAuth = true
	s.ReadTimeout = 10 * time.Second
	s.WriteTimeout = 10 * time.Second
	var l net.Listener
	var err error
	l, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if opt.implicitTLS {
		l = tls.NewListener(l, opt.tls)
	} else {
		s.TLSConfig = opt.tls
	}
	addr := l.Addr().(*net.TCPAddr)
	ts.Host, ts.Port = "127.0.0.1", addr.Port
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = s.Serve(l)
	}()
	t.Cleanup(func() {
		_ = s.Close()
		<-done
	})
	return ts
}

func (ts *testServer) config() SMTPConfig {
	return SMTPConfig{Host: ts.Host, Port: ts.Port, From: "Portalwright <noreply@portalwright.test>"}
}

func (ts *testServer) messages() []received {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return append([]received(nil), ts.msgs...)
}

func (ts *testServer) failData(errs ...error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.dataErrs = append(ts.dataErrs, errs...)
}

func (ts *testServer) setRcptErr(err error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.rcptErr = err
}

func (ts *testServer) dataCount() int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.dataSeen
}

type session struct {
	srv  *testServer
	conn *smtp.Conn
	from string
	to   []string
	user string
}

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *session) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		s.srv.mu.Lock()
		defer s.srv.mu.Unlock()
		if want, ok := s.srv.users[username]; !ok || want != password {
			return smtp.ErrAuthFailed
		}
		s.user = username
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	s.srv.mu.Lock()
	defer s.srv.mu.Unlock()
	if s.srv.users != nil && s.user == "" {
		return smtp.ErrAuthRequired
	}
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.srv.mu.Lock()
	defer s.srv.mu.Unlock()
	if s.srv.rcptErr != nil {
		return s.srv.rcptErr
	}
	s.to = append(s.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.srv.mu.Lock()
	defer s.srv.mu.Unlock()
	s.srv.dataSeen++
	if len(s.srv.dataErrs) > 0 {
		err := s.srv.dataErrs[0]
		s.srv.dataErrs = s.srv.dataErrs[1:]
		return err
	}
	_, isTLS := s.conn.TLSConnectionState()
	s.srv.msgs = append(s.srv.msgs, received{From: s.from, To: s.to, Data: string(b), User: s.user, TLS: isTLS})
	return nil
}

func (s *session) Reset() { s.from, s.to = "", nil }

func (s *session) Logout() error { return nil }

// selfSignedTLS makes a server TLS config with a fresh self-signed certificate for
// 127.0.0.1 and localhost.
func selfSignedTLS(t *testing.T) *tls.Config {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "localhost"},
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}, MinVersion: tls.VersionTLS12}
}

// closedPort is a local port nothing listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return port
}

var (
	errTempFail = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Try again later"}
	errNoUser   = &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such user"}
)
