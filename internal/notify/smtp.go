package notify

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"net/textproto"
	"os"
	"strconv"
	"strings"
	"time"
)

// SMTPConfig is the mail server the outbox delivers to.
type SMTPConfig struct {
	Host, Username, Password string
	// From is the sender, "noreply@example.com" or "Portalwright <noreply@example.com>".
	From string
	// Port defaults to 587 (465 with ImplicitTLS).
	Port int
	// StartTLS requires STARTTLS: delivery fails (and is retried) when the server does not
	// offer it. The configuration should default it to true unless Port is 465. Without it
	// the connection stays unencrypted (and net/smtp refuses to send a password over it to
	// anything but localhost).
	StartTLS bool
	// ImplicitTLS speaks TLS from the first byte (port 465, "SMTPS").
	ImplicitTLS bool
	// InsecureSkipVerify accepts any server certificate. Tests only.
	InsecureSkipVerify bool
}

// Enabled tells whether mails can be sent: a host and a sender are set.
func (c SMTPConfig) Enabled() bool { return c.Host != "" && c.From != "" }

func (c SMTPConfig) port() int {
	switch {
	case c.Port > 0:
		return c.Port
	case c.ImplicitTLS:
		return 465
	default:
		return 587
	}
}

const (
	dialTimeout = 10 * time.Second
	sendTimeout = 30 * time.Second
)

// isPermanent tells whether err is a permanent failure: a 5xx SMTP reply (including a
// rejected login). Everything else (4xx, network, TLS, configuration) is temporary.
func isPermanent(err error) bool {
	var tp *textproto.Error
	return errors.As(err, &tp) && tp.Code >= 500 && tp.Code <= 599
}

// sendSMTP delivers one message: dial (10 s), optional TLS / STARTTLS, optional PLAIN
// authentication, MAIL, RCPT, DATA. The whole exchange is bounded by 30 s.
func sendSMTP(ctx context.Context, cfg SMTPConfig, from, to string, msg []byte) error {
	ctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	addr := net.JoinHostPort(cfg.Host, strconv.Itoa(cfg.port()))
	d := net.Dialer{Timeout: dialTimeout}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", addr, err)
	}
	defer conn.Close()
	deadline, _ := ctx.Deadline()
	_ = conn.SetDeadline(deadline)
	// Cancellation (shutdown) interrupts a blocked read or write at once.
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()

	tlsConfig := &tls.Config{ServerName: cfg.Host, InsecureSkipVerify: cfg.InsecureSkipVerify, MinVersion: tls.VersionTLS12}
	if cfg.ImplicitTLS {
		tc := tls.Client(conn, tlsConfig)
		if err := tc.HandshakeContext(ctx); err != nil {
			return fmt.Errorf("TLS handshake with %s: %w", addr, err)
		}
		conn = tc
	}
	c, err := smtp.NewClient(conn, cfg.Host)
	if err != nil {
		return fmt.Errorf("SMTP greeting from %s: %w", addr, err)
	}
	defer c.Close()
	if err := c.Hello(helloName()); err != nil {
		return fmt.Errorf("EHLO: %w", err)
	}
	if cfg.StartTLS && !cfg.ImplicitTLS {
		if ok, _ := c.Extension("STARTTLS"); !ok {
			return fmt.Errorf("the SMTP server %s does not offer STARTTLS", addr)
		}
		if err := c.StartTLS(tlsConfig); err != nil {
			return fmt.Errorf("STARTTLS: %w", err)
		}
	}
	if cfg.Username != "" {
		if ok, _ := c.Extension("AUTH"); !ok {
			return fmt.Errorf("the SMTP server %s does not offer authentication (AUTH)", addr)
		}
		if err := c.Auth(smtp.PlainAuth("", cfg.Username, cfg.Password, cfg.Host)); err != nil {
			return fmt.Errorf("authenticate as %s: %w", cfg.Username, err)
		}
	}
	if err := c.Mail(from); err != nil {
		return fmt.Errorf("MAIL FROM: %w", err)
	}
	if err := c.Rcpt(to); err != nil {
		return fmt.Errorf("RCPT TO: %w", err)
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	if _, err := w.Write(msg); err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	_ = c.Quit() // the server accepted the message; a failing QUIT changes nothing
	return nil
}

// helloName is the name given in EHLO: the host name when it looks like one.
func helloName() string {
	h, err := os.Hostname()
	if err != nil || h == "" || strings.ContainsAny(h, " \t\r\n") {
		return "localhost"
	}
	return h
}

// buildMessage renders a message: RFC 5322 headers (non-ASCII words encoded, long lines
// folded), a quoted-printable UTF-8 plain-text body, CRLF line endings throughout. The
// Message-ID is stable across retries, so a receiver can drop a duplicate.
func buildMessage(from mail.Address, c *claimed) []byte {
	var b bytes.Buffer
	header := func(name, value string) {
		b.WriteString(name)
		b.WriteString(": ")
		b.WriteString(fold(len(name)+2, value))
		b.WriteString("\r\n")
	}
	header("From", from.String())
	header("To", (&mail.Address{Name: c.toName, Address: c.to}).String())
	header("Subject", mime.QEncoding.Encode("utf-8", c.subject))
	header("Date", c.createdAt.Format(time.RFC1123Z))
	header("Message-ID", "<"+c.messageKey+"."+strconv.FormatInt(c.id, 10)+"@"+domainOf(from.Address)+">")
	header("MIME-Version", "1.0")
	header("Content-Type", "text/plain; charset=utf-8")
	header("Content-Transfer-Encoding", "quoted-printable")
	header("Auto-Submitted", "auto-generated") // RFC 3834: no auto-replies, please
	b.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&b)
	// The writer turns \n, \r and \r\n into CRLF and wraps lines at 76 characters.
	_, _ = qp.Write([]byte(c.text))
	_ = qp.Close()
	if !bytes.HasSuffix(b.Bytes(), []byte("\r\n")) {
		b.WriteString("\r\n")
	}
	return b.Bytes()
}

// fold breaks a header value at spaces so lines stay within 78 characters where possible;
// used is the length of "Name: " before it. Unfolding (removing the CRLFs) gives value back.
func fold(used int, value string) string {
	if used+len(value) <= 78 {
		return value
	}
	var b strings.Builder
	line := used
	for i, w := range strings.Split(value, " ") {
		if i > 0 {
			if w != "" && line > 1 && line+1+len(w) > 78 {
				b.WriteString("\r\n")
				line = 0
			}
			b.WriteByte(' ')
			line++
		}
		b.WriteString(w)
		line += len(w)
	}
	return b.String()
}

func domainOf(addr string) string {
	if i := strings.LastIndexByte(addr, '@'); i >= 0 && i < len(addr)-1 {
		return addr[i+1:]
	}
	return "portalwright.invalid"
}
