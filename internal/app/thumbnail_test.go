package app

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"portalwright/internal/caller"
	"portalwright/internal/identity"
	"portalwright/internal/portal"
	"portalwright/internal/testkit"
	"portalwright/internal/thumbnail"
)

// thumbPicture is an opaque w×h test image (a gradient).
func thumbPicture(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x * 255 / w), uint8(y * 255 / h), 90, 255})
		}
	}
	return img
}

func encodeAs(t testing.TB, format string, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&buf, img)
	case "jpg":
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85})
	case "gif":
		err = gif.Encode(&buf, img, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// putWorkspaceFile writes a file into a user's workspace on disk (test set-up only).
func putWorkspaceFile(t testing.TB, dataDir string, userID, portalID int64, name string, data []byte) {
	t.Helper()
	p := filepath.Join(dataDir, "workspaces", strconv.FormatInt(userID, 10), strconv.FormatInt(portalID, 10), filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestThumbnails walks issue 10's thumbnails over HTTP: read tokens need asset:r and are
// bound to their user and portal; images of the user's own workspace are scaled with their
// aspect ratio, cached on disk, revalidated by ETag; SVGs are served sandboxed.
func TestThumbnails(t *testing.T) {
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	ctx := context.Background()
	a, err := New(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	root := caller.Caller{UserID: 1, Username: "admin", Admin: true}
	if _, err := a.Access.Grants().CreateGroup(ctx, root, 1, "Readers", []string{"portal:r", "asset:r"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Access.Grants().CreateGroup(ctx, root, 1, "NoAssets", []string{"portal:r"}); err != nil {
		t.Fatal(err)
	}
	users := map[string]int64{}
	for name, group := range map[string]string{"ann": "Readers", "bob": "Readers", "nia": "NoAssets"} {
		u, err := a.Identity.CreateUser(ctx, identity.NewUser{UserName: name, Password: name + "-pass-1"})
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Access.Grants().AssignRole(ctx, root, u.ID, 1, group); err != nil {
			t.Fatal(err)
		}
		users[name] = u.ID
	}
	second, err := a.Portals.CreateFromTemplate(ctx, root, 1, portal.NewPortal{Name: "Second", Type: portal.TypeCrew, Scope: portal.ScopeFull}, 0, "crew")
	if err != nil {
		t.Fatal(err)
	}
	ann := testkit.SignIn(t, srv.base, "ann", "ann-pass-1")
	bob := testkit.SignIn(t, srv.base, "bob", "bob-pass-1")
	nia := testkit.SignIn(t, srv.base, "nia", "nia-pass-1")
	for _, c := range []*testkit.Client{ann, bob, nia} {
		if got := c.Do("GET", "/portal/1/1/open", ""); got.Status != 200 {
			t.Fatalf("open: %d %s", got.Status, got.Body)
		}
	}
	photo := encodeAs(t, "jpg", thumbPicture(1600, 1200))
	putWorkspaceFile(t, cfg.DataDir, users["ann"], 1, "images/photo.jpg", photo)
	putWorkspaceFile(t, cfg.DataDir, users["ann"], 1, "images/wide.png", encodeAs(t, "png", thumbPicture(900, 300)))
	putWorkspaceFile(t, cfg.DataDir, users["ann"], 1, "images/tall.gif", encodeAs(t, "gif", thumbPicture(200, 800)))
	webp, err := os.ReadFile("../thumbnail/testdata/blue-purple-pink.lossy.webp") // 150×100
	if err != nil {
		t.Fatal(err)
	}
	putWorkspaceFile(t, cfg.DataDir, users["ann"], 1, "images/pink.webp", webp)
	svg := `<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><script>alert(document.cookie)</script></svg>`
	putWorkspaceFile(t, cfg.DataDir, users["ann"], 1, "logo.svg", []byte(svg))
	putWorkspaceFile(t, cfg.DataDir, users["bob"], 1, "bobs/private.png", encodeAs(t, "png", thumbPicture(50, 50)))

	mint := func(c *testkit.Client, portalID int64) string {
		t.Helper()
		r := c.Do("POST", "/thumbnail/1/"+itoa(portalID)+"/token", "")
		var out struct {
			Token     string `json:"token"`
			ExpiresIn int    `json:"expiresIn"`
		}
		r.JSON(t, &out)
		if r.Status != 200 || out.Token == "" || out.ExpiresIn != 600 || out.Token == c.Token {
			t.Fatalf("token: %d %s", r.Status, r.Body)
		}
		return out.Token
	}
	get := func(portalID int64, path, query, tok string, hdr ...string) testkit.Reply {
		t.Helper()
		u := srv.base + "/api/v1/thumbnail/1/" + itoa(portalID) + "/master/thumbnail/" + path + "?" + query
		if tok != "" {
			u += "&t=" + url.QueryEscape(tok)
		}
		return testkit.Call(t, "GET", u, "", "", hdr...)
	}

	// Minting needs asset:r.
	if got := nia.Do("POST", "/thumbnail/1/1/token", ""); got.Status != http.StatusForbidden {
		t.Fatalf("token without asset:r: %d", got.Status)
	}
	annTok, bobTok := mint(ann, 1), mint(bob, 1)

	// Scaled with the aspect ratio, in every raster type.
	for _, c := range []struct {
		path, query string
		w, h        int
		ctype       string
	}{
		{"images/photo.jpg", "height=200", 267, 200, "image/jpeg"},
		{"images/photo.jpg", "width=240&height=0", 240, 180, "image/jpeg"},
		{"images/wide.png", "height=200", 600, 200, "image/jpeg"},
		{"images/tall.gif", "height=200", 50, 200, "image/jpeg"},
		{"images/pink.webp", "height=200", 150, 100, "image/jpeg"},      // never upscaled
		{"images/pink.webp", "width=60&height=0", 64, 43, "image/jpeg"}, // snapped up to the 64 bucket
	} {
		r := get(1, c.path, c.query, annTok)
		if r.Status != 200 || r.Header.Get("Content-Type") != c.ctype {
			t.Errorf("%s?%s: %d %s %s", c.path, c.query, r.Status, r.Header.Get("Content-Type"), r.Body)
			continue
		}
		cfg, _, err := image.DecodeConfig(strings.NewReader(r.Body))
		if err != nil || cfg.Width != c.w || cfg.Height != c.h {
			t.Errorf("%s?%s: %d×%d %v, want %d×%d", c.path, c.query, cfg.Width, cfg.Height, err, c.w, c.h)
		}
	}

	// Cached on disk under the data dir, revalidated by ETag.
	first := get(1, "images/photo.jpg", "height=200", annTok)
	etag := first.ETag()
	if etag == "" || !strings.HasPrefix(first.Header.Get("Cache-Control"), "private, max-age=") {
		t.Fatalf("headers: %v", first.Header)
	}
	cacheFile := filepath.Join(cfg.DataDir, "cache", "thumbnails", etag+".jpg")
	st, err := os.Stat(cacheFile)
	if err != nil {
		t.Fatalf("cache file: %v", err)
	}
	again := get(1, "images/photo.jpg", "height=200", annTok)
	if st2, _ := os.Stat(cacheFile); again.Status != 200 || again.ETag() != etag || again.Body != first.Body || !st2.ModTime().Equal(st.ModTime()) {
		t.Errorf("second call: %d %q (cache file rewritten: %v)", again.Status, again.ETag(), !st2.ModTime().Equal(st.ModTime()))
	}
	if r := get(1, "images/photo.jpg", "height=200", annTok, "If-None-Match", `"`+etag+`"`); r.Status != http.StatusNotModified || r.Body != "" {
		t.Errorf("If-None-Match: %d", r.Status)
	}

	// SVG: its own bytes, sandboxed.
	s := get(1, "logo.svg", "height=200", annTok)
	if s.Status != 200 || s.Body != svg || s.Header.Get("Content-Type") != "image/svg+xml" ||
		s.Header.Get("Content-Security-Policy") != thumbnail.SVGPolicy || s.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("svg: %d %v", s.Status, s.Header)
	}

	// Each token reads its own user's workspace: Ann's token does not reach Bob's file.
	if r := get(1, "bobs/private.png", "height=200", annTok); r.Status != http.StatusNotFound {
		t.Errorf("ann's token on bob's file: %d", r.Status)
	}
	if r := get(1, "bobs/private.png", "height=200", bobTok); r.Status != 200 {
		t.Errorf("bob's token on bob's file: %d %s", r.Status, r.Body)
	}
	// A token of another portal; the login token; none; a bearer header only.
	if r := get(1, "images/photo.jpg", "height=200", mint(ann, second.ID)); r.Status != http.StatusForbidden {
		t.Errorf("another portal's token: %d", r.Status)
	}
	if r := get(1, "images/photo.jpg", "height=200", ann.Token); r.Status != http.StatusUnauthorized {
		t.Errorf("login token as t: %d", r.Status)
	}
	if r := get(1, "images/photo.jpg", "height=200", ""); r.Status != http.StatusUnauthorized || r.Code == "" {
		t.Errorf("no token: %d %s", r.Status, r.Body)
	}
	if r := testkit.Call(t, "GET", srv.base+"/api/v1/thumbnail/1/1/master/thumbnail/images/photo.jpg?height=200", ann.Token, ""); r.Status != http.StatusUnauthorized {
		t.Errorf("bearer only: %d", r.Status)
	}
	// Expired and tampered tokens.
	key, err := identity.NewSQLStore(a.DB).SigningKey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	old, _ := thumbnail.NewSigner(key).WithClock(func() time.Time { return time.Now().Add(-11 * time.Minute) }).Mint(users["ann"], 1, 1)
	if r := get(1, "images/photo.jpg", "height=200", old); r.Status != http.StatusUnauthorized || r.Code != "READ_TOKEN_EXPIRED" {
		t.Errorf("expired: %d %s", r.Status, r.Code)
	}
	fresh, _ := thumbnail.NewSigner(key).Mint(users["ann"], 1, 1) // what another instance would mint
	if r := get(1, "images/photo.jpg", "height=200", fresh); r.Status != 200 {
		t.Errorf("a token minted from the shared secret: %d", r.Status)
	}
	parts := strings.Split(annTok, ".")
	asBob, _ := thumbnail.NewSigner("guess").Mint(users["bob"], 1, 1)
	for _, bad := range []string{
		parts[0] + "." + strings.Split(asBob, ".")[1] + "." + parts[2], // Bob's payload, Ann's signature
		asBob, // signed with another key
		annTok[:len(annTok)-3],
	} {
		if r := get(1, "images/photo.jpg", "height=200", bad); r.Status != http.StatusUnauthorized {
			t.Errorf("tampered %q: %d", bad, r.Status)
		}
	}
	// Paths: traversal, .git, not an image, missing, broken.
	putWorkspaceFile(t, cfg.DataDir, users["ann"], 1, "images/broken.png", []byte("not a png"))
	for _, c := range []struct {
		path   string
		status int
	}{
		{"..%2F..%2F" + itoa(users["bob"]) + "%2F1%2Fbobs%2Fprivate.png", 400},
		{"images%2F..%2F..%2Fx.png", 400},
		{".git%2Fx.png", 400},
		{"portal.json", 415},
		{"images/missing.png", 404},
		{"images/broken.png", 422},
	} {
		if r := get(1, c.path, "height=200", annTok); r.Status != c.status || r.Code == "" {
			t.Errorf("%s: %d %s, want %d", c.path, r.Status, r.Body, c.status)
		}
	}
}
