// Package thumbnail serves scaled images of a user's workspace for the asset manager's grid
// and the image pickers (spec 2 §7, §9): GET /thumbnail/{domainId}/{portalId}/{branch}/
// thumbnail/{path}?height=200 (or ?width=240&height=0), authenticated by a short-lived read
// token in the URL (token.go), since an <img src> cannot send the bearer header.
//
// Files are read from the token user's own workspace through editing.Workspace (checked
// paths, links refused). Scaled images are cached on disk under <data>/cache/thumbnails,
// named by the content's version (a SHA-256 prefix) and the asked size, so a cached
// thumbnail can never be served for other content, and the same image in two workspaces or
// portals is scaled once.
package thumbnail

import (
	"bytes"
	"context"
	"errors"
	"image"
	_ "image/gif" // registers its decoder
	"image/jpeg"
	"image/png"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	_ "golang.org/x/image/bmp" // decoders registered with image.Decode
	_ "golang.org/x/image/tiff"
	_ "golang.org/x/image/webp"
	"golang.org/x/sync/singleflight"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
)

// Limits.
const (
	// MaxSide bounds a asked width or height: larger asks are clamped.
	MaxSide = 1024
	// MaxPixels bounds the images decoded (width × height of the source, from its header):
	// a 50-megapixel image takes 200 MB decoded.
	MaxPixels = 50_000_000
	// DefaultHeight is used when neither width nor height is asked (the grid's size).
	DefaultHeight = 200
)

// Extensions are the image types of the spec (spec 2 §7); svg is served as is.
var Extensions = []string{"jpeg", "jpg", "png", "gif", "svg", "tiff", "tif", "bmp", "webp"}

// Errors a user can act on (new values each time: apperr errors are mutable).
func errNotImage() *apperr.Error {
	return apperr.NewError(415, "UNSUPPORTED_MEDIA_TYPE", "Unsupported Media Type", "The file is not an image with a thumbnail (jpeg, jpg, png, gif, svg, tiff, tif, bmp, webp).")
}
func errUndecodable() *apperr.Error {
	return apperr.NewError(422, "IMAGE_NOT_READABLE", "Unprocessable Entity", "The image could not be read.")
}
func errTooLarge() *apperr.Error {
	return apperr.NewError(422, "IMAGE_TOO_LARGE", "Unprocessable Entity", "The image is too large to make a thumbnail of (over 50 megapixels).")
}

// Reader reads a file of the caller's workspace: *editing.Workspace.
type Reader interface {
	Read(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path) ([]byte, workspace.Version, error)
}

// Service makes and caches thumbnails.
type Service struct {
	files Reader
	dir   string
	slots chan struct{} // bounds concurrent decodes (CPU and memory)
	once  singleflight.Group
}

// NewService serves thumbnails of files read through files, cached in dir (made on first use).
func NewService(files Reader, dir string) *Service {
	return &Service{files: files, dir: dir, slots: make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))}
}

// Dir is the cache folder.
func (s *Service) Dir() string { return s.dir }

// Size is an asked size: 0 on one side keeps the aspect ratio.
type Size struct{ Width, Height int }

// ParseSize reads width and height (absent = 0), clamps them to MaxSide, and defaults to
// DefaultHeight when both are 0.
func ParseSize(width, height string) (Size, error) {
	var sz Size
	for _, f := range []struct {
		v   string
		out *int
	}{{width, &sz.Width}, {height, &sz.Height}} {
		if f.v == "" {
			continue
		}
		n, err := strconv.Atoi(f.v)
		if err != nil || n < 0 {
			return Size{}, apperr.BadRequest("VALIDATION_ERROR", "width and height are whole numbers of pixels (0: keep the aspect ratio).")
		}
		*f.out = min(n, MaxSide)
	}
	if sz.Width == 0 && sz.Height == 0 {
		sz.Height = DefaultHeight
	}
	return sz, nil
}

// Fit is the size of a w×h image scaled into the asked size, keeping its aspect ratio and
// never larger than the source; the side asked as 0 is bounded by MaxSide too.
func (sz Size) Fit(w, h int) (int, int) {
	bw, bh := sz.Width, sz.Height
	if bw == 0 {
		bw = MaxSide
	}
	if bh == 0 {
		bh = MaxSide
	}
	scale := min(1.0, float64(bw)/float64(w), float64(bh)/float64(h))
	tw := max(1, int(float64(w)*scale+0.5))
	th := max(1, int(float64(h)*scale+0.5))
	return min(tw, w), min(th, h)
}

// Image is a thumbnail's answer.
type Image struct {
	Data        []byte
	ContentType string
	ETag        string // the cache key: content version and asked size
	SVG         bool   // served as is: the handler adds the sandboxing headers
}

// ImagePath checks that p names an image type with a thumbnail and makes it a workspace path.
func ImagePath(p string) (workspace.Path, error) {
	wp, err := workspace.CleanPath(p)
	if err != nil {
		return wp, editing.FileError(err, p)
	}
	ext := strings.ToLower(strings.TrimPrefix(path.Ext(p), "."))
	for _, e := range Extensions {
		if e == ext {
			return wp, nil
		}
	}
	return wp, errNotImage()
}

// Key is the cache key (and ETag) of a thumbnail of content at version, at the asked size.
func Key(version workspace.Version, sz Size) string {
	return string(version) + "-" + strconv.Itoa(sz.Width) + "x" + strconv.Itoa(sz.Height)
}

// Thumbnail answers the thumbnail of the caller's file p at the asked size. notModified is
// the client's If-None-Match: when it is the answer's ETag, Data is nil (304).
func (s *Service) Thumbnail(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path, sz Size, notModified string) (*Image, error) {
	data, version, err := s.files.Read(ctx, c, pa, p)
	if err != nil {
		return nil, editing.FileError(err, "/"+p.String())
	}
	if strings.EqualFold(path.Ext(p.String()), ".svg") {
		etag := string(version) + "-svg"
		if etag == notModified {
			return &Image{ETag: etag, SVG: true, ContentType: "image/svg+xml"}, nil
		}
		return &Image{Data: data, ContentType: "image/svg+xml", ETag: etag, SVG: true}, nil
	}
	key := Key(version, sz)
	if key == notModified {
		return &Image{ETag: key}, nil
	}
	if img, ok := s.cached(key); ok {
		return img, nil
	}
	v, err, _ := s.once.Do(key, func() (any, error) {
		if img, ok := s.cached(key); ok {
			return img, nil
		}
		select {
		case s.slots <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		out, ext, err := Render(data, sz)
		<-s.slots
		if err != nil {
			return nil, err
		}
		s.store(key+"."+ext, out) // a cache that cannot be written costs time, not the answer
		return &Image{Data: out, ContentType: contentTypes[ext], ETag: key}, nil
	})
	if err != nil {
		if ctx.Err() == nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
			// Another request made it and went away before it was made: make it for this one.
			return s.Thumbnail(ctx, c, pa, p, sz, notModified)
		}
		return nil, err
	}
	return v.(*Image), nil
}

var contentTypes = map[string]string{"jpg": "image/jpeg", "png": "image/png"}

// cached reads a cached thumbnail (either format).
func (s *Service) cached(key string) (*Image, bool) {
	for _, ext := range []string{"jpg", "png"} {
		if data, err := os.ReadFile(filepath.Join(s.dir, key+"."+ext)); err == nil {
			return &Image{Data: data, ContentType: contentTypes[ext], ETag: key}, true
		}
	}
	return nil, false
}

// store writes a cache file atomically: a temporary file renamed into place, so a reader
// never sees half a thumbnail.
func (s *Service) store(name string, data []byte) {
	if err := os.MkdirAll(s.dir, 0o750); err != nil {
		return
	}
	f, err := os.CreateTemp(s.dir, ".tmp-*")
	if err != nil {
		return
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(s.dir, name))
	}
	if err != nil {
		_ = os.Remove(f.Name())
	}
}

// Render scales an encoded raster image into the asked size (keeping its aspect ratio, never
// upscaling) and encodes it: JPEG when it is opaque, PNG when it has transparency. It reads
// the image's header first and refuses images over MaxPixels before decoding them.
func Render(data []byte, sz Size) (out []byte, ext string, err error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, "", errUndecodable().WithCause(err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, "", errUndecodable()
	}
	if int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		return nil, "", errTooLarge()
	}
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, "", errUndecodable().WithCause(err)
	}
	b := src.Bounds()
	tw, th := sz.Fit(b.Dx(), b.Dy())
	var dst image.Image = src
	if tw != b.Dx() || th != b.Dy() {
		dst = shrink(src, tw, th)
	}
	var buf bytes.Buffer
	if opaque(dst) {
		err, ext = jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 85}), "jpg"
	} else {
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		err, ext = enc.Encode(&buf, dst), "png"
	}
	if err != nil {
		return nil, "", err
	}
	return buf.Bytes(), ext, nil
}

// opaque tells whether an image has no transparent pixel.
func opaque(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	return false
}
