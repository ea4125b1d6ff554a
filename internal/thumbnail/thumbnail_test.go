package thumbnail

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/portalaccess"
	"portalwright/internal/testkit"
	"portalwright/internal/workspace"
)

// Test images, made here.
func picture(w, h int, alpha bool) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			a := uint8(255)
			if alpha && x < w/2 {
				a = 80
			}
			img.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(y), 120, a})
		}
	}
	return img
}

func encode(t testing.TB, format string, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&buf, img)
	case "jpg":
		err = jpeg.Encode(&buf, img, nil)
	case "gif":
		err = gif.Encode(&buf, img, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func decode(t testing.TB, data []byte) (image.Image, string) {
	t.Helper()
	img, format, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decode the thumbnail: %v", err)
	}
	return img, format
}

func TestFit(t *testing.T) {
	for _, c := range []struct {
		sz           Size
		w, h, tw, th int
	}{
		{Size{0, 200}, 1600, 1200, 267, 200},
		{Size{240, 0}, 1600, 1200, 240, 180},
		{Size{240, 240}, 1600, 1200, 240, 180},
		{Size{0, 200}, 100, 50, 100, 50},      // never upscaled
		{Size{0, 200}, 10000, 20, MaxSide, 2}, // the free side is bounded too
		{Size{0, 200}, 5, 5000, 1, 200},
	} {
		if tw, th := c.sz.Fit(c.w, c.h); tw != c.tw || th != c.th {
			t.Errorf("%v.Fit(%d, %d) = %d×%d, want %d×%d", c.sz, c.w, c.h, tw, th, c.tw, c.th)
		}
	}
}

func TestParseSize(t *testing.T) {
	if sz, err := ParseSize("", "200"); err != nil || sz != (Size{0, 200}) {
		t.Errorf("height=200: %v %v", sz, err)
	}
	if sz, err := ParseSize("240", "0"); err != nil || sz != (Size{240, 0}) {
		t.Errorf("width=240&height=0: %v %v", sz, err)
	}
	if sz, _ := ParseSize("", ""); sz != (Size{0, DefaultHeight}) {
		t.Errorf("no size: %v", sz)
	}
	if sz, _ := ParseSize("99999", "5000"); sz != (Size{MaxSide, MaxSide}) {
		t.Errorf("clamped: %v", sz)
	}
	for _, bad := range []string{"-1", "abc", "1.5"} {
		if _, err := ParseSize(bad, ""); err == nil {
			t.Errorf("width=%s accepted", bad)
		}
	}
}

func TestRenderFormatsAndAspect(t *testing.T) {
	webp, err := os.ReadFile("testdata/blue-purple-pink.lossy.webp") // 150×100; Go has no webp encoder
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		data    []byte
		sz      Size
		w, h    int
		wantExt string
	}{
		{"png opaque", encode(t, "png", picture(800, 600, false)), Size{0, 200}, 267, 200, "jpg"},
		{"png alpha", encode(t, "png", picture(800, 600, true)), Size{0, 200}, 267, 200, "png"},
		{"jpeg", encode(t, "jpg", picture(1200, 400, false)), Size{240, 0}, 240, 80, "jpg"},
		{"gif", encode(t, "gif", picture(300, 600, false)), Size{0, 200}, 100, 200, "jpg"},
		{"webp", webp, Size{0, 50}, 75, 50, "jpg"},
		{"small png not upscaled", encode(t, "png", picture(40, 30, false)), Size{0, 200}, 40, 30, "jpg"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, ext, err := Render(c.data, c.sz)
			if err != nil {
				t.Fatal(err)
			}
			if ext != c.wantExt {
				t.Errorf("format %s, want %s", ext, c.wantExt)
			}
			img, format := decode(t, out)
			if b := img.Bounds(); b.Dx() != c.w || b.Dy() != c.h {
				t.Errorf("size %d×%d, want %d×%d", b.Dx(), b.Dy(), c.w, c.h)
			}
			if want := map[string]string{"jpg": "jpeg", "png": "png"}[c.wantExt]; format != want {
				t.Errorf("encoded as %s", format)
			}
		})
	}
}

func TestRenderRefusals(t *testing.T) {
	if _, _, err := Render([]byte("not an image at all"), Size{0, 200}); err == nil {
		t.Fatal("garbage rendered")
	} else {
		testkit.APIError(t, err, 422, "IMAGE_NOT_READABLE")
	}
	// A PNG header claiming 10000×10000 (100 megapixels) is refused from its header alone.
	huge := encode(t, "png", picture(1, 1, false))
	huge[16], huge[17], huge[18], huge[19] = 0, 0, 0x27, 0x10 // width 10000
	huge[20], huge[21], huge[22], huge[23] = 0, 0, 0x27, 0x10 // height 10000
	binary.BigEndian.PutUint32(huge[29:33], crc32.ChecksumIEEE(huge[12:29]))
	_, _, err := Render(huge, Size{0, 200})
	testkit.APIError(t, err, 422, "IMAGE_TOO_LARGE")
	// A truncated image passes its header but not decoding.
	full := encode(t, "png", picture(300, 300, false))
	_, _, err = Render(full[:len(full)/2], Size{0, 200})
	testkit.APIError(t, err, 422, "IMAGE_NOT_READABLE")
}

func TestImagePath(t *testing.T) {
	for _, ok := range []string{"a.png", "images/b.JPG", "x/y/z.webp", "v.svg", "t.tiff", "b.bmp"} {
		if _, err := ImagePath(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	testkit.APIError(t, func() error { _, err := ImagePath("notes.txt"); return err }(), 415, "")
	testkit.APIError(t, func() error { _, err := ImagePath("noext"); return err }(), 415, "")
	for _, bad := range []string{"../x.png", "a/../../x.png", ".git/x.png", "/etc/x.png", "a\\..\\x.png", ""} {
		testkit.APIError(t, func() error { _, err := ImagePath(bad); return err }(), 400, "")
	}
}

func TestTokens(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	s := NewSigner("secret").WithClock(func() time.Time { return now })
	tok, ttl := s.Mint(7, 2, 3)
	if ttl != 10*time.Minute {
		t.Errorf("ttl %v", ttl)
	}
	c, err := s.Verify(tok)
	if err != nil || c.UserID != 7 || c.DomainID != 2 || c.PortalID != 3 {
		t.Fatalf("verify: %+v %v", c, err)
	}
	// Another instance with the same secret accepts it; another secret does not.
	if _, err := NewSigner("secret").WithClock(func() time.Time { return now }).Verify(tok); err != nil {
		t.Errorf("same secret: %v", err)
	}
	testkit.APIError(t, func() error { _, err := NewSigner("other").Verify(tok); return err }(), 401, "INVALID_READ_TOKEN")
	// Tampered: another user in the payload, or a changed signature.
	parts := strings.Split(tok, ".")
	forged := parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte("8.2.3.9999999999")) + "." + parts[2]
	testkit.APIError(t, func() error { _, err := s.Verify(forged); return err }(), 401, "INVALID_READ_TOKEN")
	flipped := tok[:len(tok)-2] + map[bool]string{true: "AA", false: "BB"}[!strings.HasSuffix(tok, "AA")]
	testkit.APIError(t, func() error { _, err := s.Verify(flipped); return err }(), 401, "INVALID_READ_TOKEN")
	testkit.APIError(t, func() error { _, err := s.Verify("eyJhbGciOiJIUzI1NiJ9.e30.sig"); return err }(), 401, "INVALID_READ_TOKEN")
	testkit.APIError(t, func() error { _, err := s.Verify(""); return err }(), 401, "UNAUTHORIZED")
	// Expired.
	later := NewSigner("secret").WithClock(func() time.Time { return now.Add(TokenTTL + time.Second) })
	testkit.APIError(t, func() error { _, err := later.Verify(tok); return err }(), 401, "READ_TOKEN_EXPIRED")
}

// files is a fake workspace: user → path → content.
type files struct {
	byUser map[int64]map[string][]byte
	reads  atomic.Int64
}

func (f *files) Read(_ context.Context, c caller.Caller, _ portalaccess.Portal, p workspace.Path) ([]byte, workspace.Version, error) {
	f.reads.Add(1)
	data, ok := f.byUser[c.UserID][p.String()]
	if !ok {
		return nil, workspace.NoVersion, fs.ErrNotExist
	}
	return data, workspace.VersionOf(data), nil
}

type finder struct{}

func (finder) Load(_ context.Context, domainID, portalID int64) (portalaccess.Record, error) {
	if domainID == 1 && (portalID == 10 || portalID == 11) {
		return portalaccess.Record{Name: "Portal", Active: true}, nil
	}
	return portalaccess.Record{}, apperr.NotFound("PORTAL_NOT_FOUND", "no")
}

func TestHandler(t *testing.T) {
	photo := encode(t, "jpg", picture(1600, 1200, false))
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>`)
	fake := &files{byUser: map[int64]map[string][]byte{
		1: {"images/photo.jpg": photo, "logo.svg": svg, "broken.png": []byte("nope"), "notes.txt": []byte("x")},
		2: {"secret.png": encode(t, "png", picture(10, 10, false))},
	}}
	dir := t.TempDir()
	svc := NewService(fake, dir, Limits{})
	signer := NewSigner("k")
	srv := httptest.NewServer(testkit.Routes(NewHandler(svc, signer, portalaccess.NewChecker(finder{})).Routes()))
	defer srv.Close()
	tok1, _ := signer.Mint(1, 1, 10)
	get := func(path, tok string, hdr ...string) testkit.Reply {
		t.Helper()
		return testkit.Call(t, "GET", srv.URL+"/thumbnail/1/10/master/thumbnail/"+path+"&t="+tok, "", "", hdr...)
	}

	r := get("images/photo.jpg?height=200", tok1)
	if r.Status != 200 || r.Header.Get("Content-Type") != "image/jpeg" {
		t.Fatalf("thumbnail: %d %s %s", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
	img, _ := decode(t, []byte(r.Body))
	if b := img.Bounds(); b.Dx() != 267 || b.Dy() != 200 {
		t.Errorf("size %v", b)
	}
	etag := r.ETag()
	if etag != Key(workspace.VersionOf(photo), Size{0, 200}) || !strings.HasPrefix(r.Header.Get("Cache-Control"), "private, max-age=") {
		t.Errorf("etag %q cache-control %q", etag, r.Header.Get("Cache-Control"))
	}
	if _, err := os.Stat(filepath.Join(dir, etag+".jpg")); err != nil {
		t.Errorf("cache file: %v", err)
	}
	// The second call is served from the cache: same bytes; even with the cache file's
	// content changed it answers the cached file (proves it was not rendered again).
	os.WriteFile(filepath.Join(dir, etag+".jpg"), []byte("cached"), 0o644)
	if r2 := get("images/photo.jpg?height=200", tok1); r2.Status != 200 || r2.Body != "cached" || r2.ETag() != etag {
		t.Errorf("cache hit: %d %q", r2.Status, r2.Body)
	}
	if r3 := get("images/photo.jpg?height=200", tok1, "If-None-Match", `"`+etag+`"`); r3.Status != 304 || r3.Body != "" {
		t.Errorf("If-None-Match: %d", r3.Status)
	}
	if r4 := get("images/photo.jpg?width=240&height=0", tok1); r4.Status != 200 || r4.ETag() == etag {
		t.Errorf("width=240: %d %q", r4.Status, r4.ETag())
	} else if img, _ := decode(t, []byte(r4.Body)); img.Bounds().Dx() != 240 || img.Bounds().Dy() != 180 {
		t.Errorf("width=240 size %v", img.Bounds())
	}

	s := get("logo.svg?height=200", tok1)
	if s.Status != 200 || s.Body != string(svg) || s.Header.Get("Content-Type") != "image/svg+xml" ||
		s.Header.Get("Content-Security-Policy") != SVGPolicy || s.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("svg: %d %v", s.Status, s.Header)
	}

	for _, c := range []struct {
		path, tok string
		status    int
	}{
		{"missing.png?height=200", tok1, 404},
		{"notes.txt?height=200", tok1, 415},
		{"broken.png?height=200", tok1, 422},
		{"secret.png?height=200", tok1, 404}, // user 2's file is not in user 1's workspace
		{"..%2F..%2Fetc%2Fx.png?height=200", tok1, 400},
		{".git%2Fx.png?height=200", tok1, 400},
		{"images/photo.jpg?height=-5", tok1, 400},
		{"images/photo.jpg?height=200", "", 401},
		{"images/photo.jpg?height=200", "garbage", 401},
	} {
		if got := get(c.path, c.tok); got.Status != c.status || got.Code == "" {
			t.Errorf("%s: %d %q, want %d", c.path, got.Status, got.Code, c.status)
		}
	}
	// User 2's token reads user 2's workspace only.
	tok2, _ := signer.Mint(2, 1, 10)
	if got := get("secret.png?height=200", tok2); got.Status != 200 {
		t.Errorf("user 2: %d", got.Status)
	}
	// A token of another portal of the same domain: 403; a portal outside the domain: 404.
	other, _ := signer.Mint(1, 1, 11)
	if got := get("images/photo.jpg?height=200", other); got.Status != 403 {
		t.Errorf("other portal's token: %d", got.Status)
	}
	if got := testkit.Call(t, "GET", srv.URL+"/thumbnail/1/99/master/thumbnail/images/photo.jpg?t="+tok1, "", ""); got.Status != 404 {
		t.Errorf("portal outside the domain: %d", got.Status)
	}
}

// Concurrent asks for the same thumbnail: all answered alike, one cache file, no leftovers.
func TestConcurrentSameThumbnail(t *testing.T) {
	photo := encode(t, "jpg", picture(1200, 900, false))
	fake := &files{byUser: map[int64]map[string][]byte{1: {"a.jpg": photo}}}
	dir := t.TempDir()
	svc := NewService(fake, dir, Limits{})
	pa, err := portalaccess.NewChecker(finder{}).Check(context.Background(), 1, 10)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := ImagePath("a.jpg")
	var wg sync.WaitGroup
	etags := make([]string, 8)
	for i := range etags {
		wg.Add(1)
		go func() {
			defer wg.Done()
			img, err := svc.Thumbnail(context.Background(), caller.Caller{UserID: 1}, pa, p, Size{0, 200}, "")
			if err != nil || len(img.Data) == 0 {
				t.Errorf("thumbnail: %v", err)
				return
			}
			etags[i] = img.ETag
		}()
	}
	wg.Wait()
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != etags[0]+".jpg" {
		t.Errorf("cache dir: %v", entries)
	}
	for _, e := range etags {
		if e != etags[0] {
			t.Errorf("etags differ: %v", etags)
		}
	}
}
