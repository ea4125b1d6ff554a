package handover

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Headers of an HTTP hand-over.
const (
	HeaderDelivery   = "X-Portalwright-Delivery"
	HeaderLoadable   = "X-Portalwright-Loadable"
	HeaderName       = "X-Portalwright-Name"
	HeaderVersion    = "X-Portalwright-Version"
	HeaderPartNumber = "X-Portalwright-Part-Number"
	HeaderSHA256     = "X-Portalwright-SHA256"
	HeaderManifest   = "X-Portalwright-Manifest-SHA256"
	HeaderTimestamp  = "X-Portalwright-Timestamp"
	HeaderSignature  = "X-Portalwright-Signature"
	HeaderFileName   = "X-Portalwright-File-Name"
	HeaderSystem     = "X-Portalwright-System"
)

// SignedString is what the signature covers: timestamp "." deliveryID "." archiveSHA256 "."
// manifestSHA256, where timestamp is the X-Portalwright-Timestamp value (unix seconds),
// deliveryID the X-Portalwright-Delivery value, archiveSHA256 the lower-case hex
// X-Portalwright-SHA256 value and manifestSHA256 the X-Portalwright-Manifest-SHA256 value
// (lower-case hex SHA-256 of manifest.json, the archive's first entry: a manifest of any size
// is bound without travelling in a header).
func SignedString(timestamp string, deliveryID int64, archiveSHA256, manifestSHA256 string) string {
	return timestamp + "." + strconv.FormatInt(deliveryID, 10) + "." + archiveSHA256 + "." + manifestSHA256
}

// ManifestSHA256 is the X-Portalwright-Manifest-SHA256 value of a manifest.
func ManifestSHA256(manifest []byte) string {
	sum := sha256.Sum256(manifest)
	return hex.EncodeToString(sum[:])
}

// Sign returns the X-Portalwright-Signature value: "sha256=" + hex(HMAC-SHA256(secret, signed)).
func Sign(secret []byte, signed string) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(signed))
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// Verify checks a received hand-over's headers against secret (constant-time), and that
// its timestamp is within maxSkew of now (0: not checked). It does not read the body: the
// receiver must still compare the body's SHA-256 with X-Portalwright-SHA256.
func Verify(h http.Header, secret []byte, now time.Time, maxSkew time.Duration) error {
	id, err := strconv.ParseInt(h.Get(HeaderDelivery), 10, 64)
	if err != nil {
		return errors.New("missing or invalid " + HeaderDelivery)
	}
	ts := h.Get(HeaderTimestamp)
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return errors.New("missing or invalid " + HeaderTimestamp)
	}
	if maxSkew > 0 {
		if d := now.Sub(time.Unix(sec, 0)); d > maxSkew || d < -maxSkew {
			return errors.New("timestamp outside the allowed window")
		}
	}
	want := Sign(secret, SignedString(ts, id, h.Get(HeaderSHA256), h.Get(HeaderManifest)))
	if !hmac.Equal([]byte(want), []byte(h.Get(HeaderSignature))) {
		return errors.New("signature mismatch")
	}
	return nil
}

func newHTTPClient() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	return &http.Client{
		Transport: tr,
		// Redirects are refused: the package and its signature go only to the configured URL.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// openVerified opens the archive and checks that its content still has the approved
// SHA-256; the returned file is positioned at its start.
func openVerified(p *Package) (*os.File, int64, error) {
	f, err := os.Open(p.ArchivePath)
	if err != nil {
		return nil, 0, fmt.Errorf("open archive: %w", err)
	}
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("read archive: %w", err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != p.SHA256 {
		f.Close()
		return nil, 0, errPermanent(fmt.Errorf("the archive %s changed on disk (sha256 %s, approved %s)", filepath.Base(p.ArchivePath), got, p.SHA256))
	}
	return f, n, nil
}

// permanentError marks an error that retrying cannot fix.
type permanentError struct{ error }

func (e permanentError) Unwrap() error { return e.error }

func errPermanent(err error) error { return permanentError{err} }

func classify(err error) result {
	var p permanentError
	return result{err: err, permanent: errors.As(err, &p)}
}

// sendHTTP POSTs the archive to an http target.
func (s *Service) sendHTTP(ctx context.Context, t Target, c *claimed) result {
	f, size, err := openVerified(&c.pkg)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return result{err: err, permanent: true}
		}
		return classify(err)
	}
	defer f.Close()
	actx, cancel := context.WithTimeout(ctx, t.Timeout)
	defer cancel()
	// io.NopCloser hides *os.File's other methods from the transport; the deferred Close
	// closes the file.
	req, err := http.NewRequestWithContext(actx, http.MethodPost, t.URL, io.NopCloser(f))
	if err != nil {
		return result{err: fmt.Errorf("build request to %s: %w", t.redactedURL(), err), permanent: true}
	}
	req.ContentLength = size
	manifest := ManifestSHA256(c.pkg.Manifest)
	ts := strconv.FormatInt(s.now().Unix(), 10)
	h := req.Header
	h.Set("Content-Type", "application/gzip")
	h.Set("User-Agent", "Portalwright-Handover/1")
	h.Set(HeaderDelivery, strconv.FormatInt(c.id, 10))
	h.Set(HeaderLoadable, strconv.FormatInt(c.loadableID, 10))
	h.Set(HeaderSystem, c.system)
	h.Set(HeaderName, c.pkg.Name)
	h.Set(HeaderVersion, c.pkg.Version)
	h.Set(HeaderPartNumber, c.pkg.PartNumber)
	h.Set(HeaderFileName, c.pkg.FileName)
	h.Set(HeaderSHA256, c.pkg.SHA256)
	h.Set(HeaderManifest, manifest)
	h.Set(HeaderTimestamp, ts)
	h.Set(HeaderSignature, Sign([]byte(t.Secret), SignedString(ts, c.id, c.pkg.SHA256, manifest)))

	client := s.clients[t.Name]
	if client == nil {
		client = newHTTPClient()
	}
	resp, err := client.Do(req)
	if err != nil {
		return result{err: fmt.Errorf("POST %s: %s", t.redactedURL(), netError(err, actx))}
	}
	defer resp.Body.Close()
	snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20)) // let the connection be reused
	code := resp.StatusCode
	if code >= 200 && code < 300 {
		return result{httpStatus: code}
	}
	msg := fmt.Sprintf("POST %s: HTTP %s", t.redactedURL(), resp.Status)
	if b := cleanText(snippet); b != "" {
		msg += ": " + b
	}
	switch {
	case code >= 300 && code < 400:
		msg += " (redirects are refused: configure the final URL)"
		return result{httpStatus: code, err: errors.New(msg), permanent: true}
	case code == http.StatusRequestTimeout || code == http.StatusTooManyRequests || code >= 500:
		return result{httpStatus: code, err: errors.New(msg)}
	default:
		return result{httpStatus: code, err: errors.New(msg), permanent: true}
	}
}

// netError describes a transport failure without the URL (which may carry a token in its
// query).
func netError(err error, ctx context.Context) string {
	if ctx.Err() == context.DeadlineExceeded {
		return "timed out"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "timed out: " + err.Error()
	}
	return err.Error()
}

// cleanText makes a response body excerpt safe to store: valid UTF-8, one line.
func cleanText(b []byte) string {
	s := strings.ToValidUTF8(string(b), "�")
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
		s += "…"
	}
	return s
}

// dropDir copies the archive to <dir>/<FileName> and the manifest to
// <dir>/<FileName>.manifest.json, atomically and without overwriting a different file.
func dropDir(t Target, c *claimed) result {
	p := &c.pkg
	st, err := os.Stat(t.Dir)
	if err != nil {
		return result{err: fmt.Errorf("target directory: %w", err)} // a mount may come back: retry
	}
	if !st.IsDir() {
		return result{err: fmt.Errorf("target directory %s is not a directory", t.Dir), permanent: true}
	}
	archiveDest := filepath.Join(t.Dir, p.FileName)
	manifestDest := archiveDest + ".manifest.json"

	// The manifest goes first, so a watcher that picks up the archive finds it beside it.
	if err := placeBytes(manifestDest, p.Manifest); err != nil {
		return classify(err)
	}
	if err := placeArchive(archiveDest, p); err != nil {
		return classify(err)
	}
	syncDir(t.Dir)
	return result{}
}

// placeBytes writes data at dest unless dest already holds exactly data.
func placeBytes(dest string, data []byte) error {
	if existing, err := os.ReadFile(dest); err == nil {
		if bytes.Equal(existing, data) {
			return nil
		}
		return errPermanent(fmt.Errorf("a different %s already exists in the target directory; refusing to overwrite it", filepath.Base(dest)))
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read %s: %w", filepath.Base(dest), err)
	}
	return place(dest, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}, "")
}

// placeArchive copies the archive to dest, streaming and checking its SHA-256, unless dest
// already holds the same content.
func placeArchive(dest string, p *Package) error {
	if sum, err := fileSHA256(dest); err == nil {
		if sum == p.SHA256 {
			return nil // delivered before (e.g. our answer was lost): idempotent
		}
		return errPermanent(fmt.Errorf("a different %s (sha256 %s) already exists in the target directory; refusing to overwrite it with sha256 %s",
			filepath.Base(dest), sum, p.SHA256))
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read %s: %w", filepath.Base(dest), err)
	}
	src, err := os.Open(p.ArchivePath)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return errPermanent(fmt.Errorf("open archive: %w", err))
		}
		return fmt.Errorf("open archive: %w", err)
	}
	defer src.Close()
	return place(dest, func(w io.Writer) error {
		_, err := io.Copy(w, src)
		return err
	}, p.SHA256)
}

// place writes dest through a hidden temporary file in the same directory: write, fsync,
// then link it into place (which fails rather than replace an existing file). With
// wantSHA set the written content must have that SHA-256.
func place(dest string, write func(io.Writer) error, wantSHA string) error {
	dir, base := filepath.Split(dest)
	tmp, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return fmt.Errorf("create a temporary file in the target directory: %w", err)
	}
	tmpName := tmp.Name()
	defer os.Remove(tmpName) // after a link, or on failure
	h := sha256.New()
	err = write(io.MultiWriter(tmp, h))
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", base, err)
	}
	if wantSHA != "" {
		if got := hex.EncodeToString(h.Sum(nil)); got != wantSHA {
			return errPermanent(fmt.Errorf("the archive changed on disk (sha256 %s, approved %s)", got, wantSHA))
		}
	}
	if err := os.Chmod(tmpName, 0o644); err != nil {
		return fmt.Errorf("chmod %s: %w", base, err)
	}
	err = os.Link(tmpName, dest)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrExist):
		// Appeared meanwhile: the same content is fine, another one is refused.
		if sum, serr := fileSHA256(dest); serr == nil && sum == hex.EncodeToString(h.Sum(nil)) {
			return nil
		}
		return errPermanent(fmt.Errorf("a different %s appeared in the target directory; refusing to overwrite it", base))
	}
	// The filesystem has no hard links: rename, after checking dest is still absent.
	if _, serr := os.Lstat(dest); serr == nil {
		return errPermanent(fmt.Errorf("a different %s appeared in the target directory; refusing to overwrite it", base))
	}
	if err := os.Rename(tmpName, dest); err != nil {
		return fmt.Errorf("rename into %s: %w", base, err)
	}
	return nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
