// Package thumbnail serves scaled images of a user's workspace for the asset manager's grid
// and the image pickers (spec 2 §7, §9): GET /thumbnail/{domainId}/{portalId}/{branch}/
// thumbnail/{path}?height=200 (or ?width=240&height=0), authenticated by a short-lived read
// token in the URL (token.go), since an <img src> cannot send the bearer header.
//
// Files are read from the token user's own workspace through editing.Files (checked
// paths, links refused). Scaled images are cached on disk under <data>/cache/thumbnails,
// named by the content's version (a SHA-256 prefix) and the size, so a cached thumbnail can
// never be served for other content, and the same image in two workspaces or portals is
// scaled once.
//
// The work is bounded (issue 23, Limits): an image whose decoded size (pixels × bytes per
// pixel, read from its header: budget.go) is over a limit is refused before it is decoded;
// decodes share a memory budget and a number of slots, and wait for them (or for their
// request to end); asked sizes are snapped up to a few buckets (Buckets), so a client cannot
// make a decode and a cache file per pixel of size; concurrent requests of one thumbnail make
// it once, and of one image at several sizes decode it once; the disk cache has a size limit
// and drops the least recently used (cache.go).
package thumbnail

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // registers its decoder
	"image/jpeg"
	"image/png"
	"path"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	_ "golang.org/x/image/bmp" // decoders registered with image.Decode
	_ "golang.org/x/image/tiff"
	_ "golang.org/x/image/webp"
	"golang.org/x/sync/semaphore"
	"golang.org/x/sync/singleflight"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
)

// Sizes.
const (
	// MaxSide bounds an asked width or height: larger asks are clamped.
	MaxSide = 1024
	// DefaultHeight is used when neither width nor height is asked (the grid's size).
	DefaultHeight = 200
)

// Buckets are the sides a thumbnail is made at: an asked side is snapped up to the next one
// (the browser scales the image down to what it asked), so one image has a few thumbnails,
// not one per asked pixel. 200 (the asset grid's height) and 240 (the pickers' width) are
// the web app's own sizes, served exactly.
var Buckets = []int{64, 128, 200, 240, 320, 400, 512, 800, MaxSide}

// Limits bound the image work of a Service (the server's --thumbnail-* settings).
type Limits struct {
	// DecodeBytes is the largest decoded image (from its header): larger ones are refused.
	DecodeBytes int64
	// MemoryBytes bounds the decoded images, and the scaling of one size of each, of all
	// decodes at once: a decode waits for its share (an image whose share is more decodes
	// alone).
	MemoryBytes int64
	// Decodes is the most decodes (and scalings) at once (≤ 0: GOMAXPROCS).
	Decodes int
	// CacheBytes is the disk cache's size limit (≤ 0: none).
	CacheBytes int64
}

// Default limits: 96 MiB decoded per image (a 12-megapixel progressive JPEG, a 24-megapixel
// 8-bit RGBA PNG, a 3,500×3,500 16-bit one), 96 MiB for all decodes at once (the largest
// image decodes alone: with its scaling and the collector's margin the server grows by less
// than 150 MB), a 512 MiB cache.
const (
	DefaultDecodeMB = 96
	DefaultMemoryMB = 96
	DefaultCacheMB  = 512
)

// DefaultLimits are the limits of the server's defaults.
func DefaultLimits() Limits {
	return Limits{DecodeBytes: DefaultDecodeMB << 20, MemoryBytes: DefaultMemoryMB << 20, CacheBytes: DefaultCacheMB << 20}
}

// LimitsMB are limits given in MiB, as the configuration has them.
func LimitsMB(decodeMB, memoryMB, decodes, cacheMB int) Limits {
	return Limits{DecodeBytes: int64(decodeMB) << 20, MemoryBytes: int64(memoryMB) << 20, Decodes: decodes, CacheBytes: int64(cacheMB) << 20}
}

// collectAbove is the decoded size above which garbage is collected after each size made of
// the image and before its share is given back, so what comes next reuses the pages instead
// of growing the heap (the collector would otherwise let the heap reach twice what was
// alive at its last cycle, the large image included).
const collectAbove = 32 << 20

// Extensions are the image types of the spec (spec 2 §7); svg is served as is.
var Extensions = []string{"jpeg", "jpg", "png", "gif", "svg", "tiff", "tif", "bmp", "webp"}

// Errors a user can act on (new values each time: apperr errors are mutable).
func errNotImage() *apperr.Error {
	return apperr.NewError(415, "UNSUPPORTED_MEDIA_TYPE", "Unsupported Media Type", "The file is not an image with a thumbnail (jpeg, jpg, png, gif, svg, tiff, tif, bmp, webp).")
}
func errUndecodable() *apperr.Error {
	return apperr.NewError(422, "IMAGE_NOT_READABLE", "Unprocessable Entity", "The image could not be read.")
}
func errTooLarge(need, limit int64) *apperr.Error {
	return apperr.NewError(422, "IMAGE_TOO_LARGE", "Unprocessable Entity", fmt.Sprintf(
		"The image is too large to make a thumbnail of: %d MiB decoded, over the limit of %d MiB.", (need+(1<<20)-1)>>20, limit>>20))
}

// Reader reads a file of the caller's workspace: *editing.Files.
type Reader interface {
	Read(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path) ([]byte, workspace.Version, error)
}

// Service makes and caches thumbnails.
type Service struct {
	files  Reader
	limits Limits
	cache  *diskCache
	slots  chan struct{}       // bounds concurrent decodes and scalings (CPU)
	memory *semaphore.Weighted // bounds their bytes together
	once   singleflight.Group  // one making per thumbnail (version and size)

	mu        sync.Mutex
	decodings map[workspace.Version]*decoding // one decode per content version
	decodes   atomic.Int64                    // images decoded so far
}

// NewService serves thumbnails of files read through files, cached in dir (made on first
// use), within limits (DecodeBytes ≤ 0: the default; MemoryBytes is at least DecodeBytes).
func NewService(files Reader, dir string, limits Limits) *Service {
	d := DefaultLimits()
	if limits.DecodeBytes <= 0 {
		limits.DecodeBytes = d.DecodeBytes
	}
	limits.MemoryBytes = max(limits.MemoryBytes, limits.DecodeBytes)
	if limits.Decodes <= 0 {
		limits.Decodes = max(1, runtime.GOMAXPROCS(0))
	}
	return &Service{
		files: files, limits: limits, cache: newDiskCache(dir, limits.CacheBytes),
		slots: make(chan struct{}, limits.Decodes), memory: semaphore.NewWeighted(limits.MemoryBytes),
		decodings: map[workspace.Version]*decoding{},
	}
}

// Dir is the cache folder.
func (s *Service) Dir() string { return s.cache.dir }

// Limits are the service's limits (defaults filled in).
func (s *Service) Limits() Limits { return s.limits }

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

// Snap is the size a thumbnail is made at for the asked size: each asked side snapped up to
// the next of Buckets (0 stays 0: the aspect ratio decides), at most MaxSide.
func (sz Size) Snap() Size {
	return Size{snap(sz.Width), snap(sz.Height)}
}

func snap(n int) int {
	if n <= 0 {
		return 0
	}
	for _, b := range Buckets {
		if n <= b {
			return b
		}
	}
	return MaxSide
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
	ETag        string // the cache key: content version and size (snapped)
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

// Key is the cache key (and ETag) of a thumbnail of content at version, at size sz (snapped).
func Key(version workspace.Version, sz Size) string {
	return string(version) + "-" + strconv.Itoa(sz.Width) + "x" + strconv.Itoa(sz.Height)
}

// Thumbnail answers the thumbnail of the caller's file p at the asked size, snapped up to the
// next bucket (Size.Snap). notModified is the client's If-None-Match: when it is the answer's
// ETag, Data is nil (304).
func (s *Service) Thumbnail(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path, sz Size, notModified string) (*Image, error) {
	data, version, err := s.files.Read(ctx, c, pa, p)
	if err != nil {
		return nil, editing.FileError(err, "/"+p.String())
	}
	if _, size, ok := workspace.LFSPointer(data); ok {
		// The repository holds only a pointer to the image (Git LFS): say so, do not decode.
		return nil, apperr.NewError(422, "IMAGE_IS_LFS_POINTER", "Unprocessable Entity",
			fmt.Sprintf("This image is stored with Git LFS (%d bytes); the portal's repository holds only its pointer.", size))
	}
	if strings.EqualFold(path.Ext(p.String()), ".svg") {
		etag := string(version) + "-svg"
		if etag == notModified {
			return &Image{ETag: etag, SVG: true, ContentType: "image/svg+xml"}, nil
		}
		return &Image{Data: data, ContentType: "image/svg+xml", ETag: etag, SVG: true}, nil
	}
	sz = sz.Snap()
	key := Key(version, sz)
	if key == notModified {
		return &Image{ETag: key}, nil
	}
	if img, ok := s.cache.read(key); ok {
		return img, nil
	}
	v, err, _ := s.once.Do(key, func() (any, error) {
		if img, ok := s.cache.read(key); ok {
			return img, nil
		}
		out, ext, err := s.render(ctx, version, data, sz)
		if err != nil {
			return nil, err
		}
		s.cache.write(key+"."+ext, out)
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

// render checks the image's decoded size from its header, has it decoded (or joins its
// decoding by another request: shared), then scales and encodes it in a decode slot, one
// size at a time per image.
func (s *Service) render(ctx context.Context, version workspace.Version, data []byte, sz Size) ([]byte, string, error) {
	cfg, _, need, err := inspect(data)
	if err != nil {
		return nil, "", err
	}
	if need > s.limits.DecodeBytes {
		return nil, "", errTooLarge(need, s.limits.DecodeBytes)
	}
	// The share of the memory budget: the decoded image and the scaling of one size (at
	// most the budget: such an image decodes alone).
	share := min(need+scalingBytes(cfg.Width, cfg.Height), s.limits.MemoryBytes)
	d, err := s.decode(ctx, version, data, share)
	if err != nil {
		return nil, "", err
	}
	defer s.leave(d)
	select {
	case d.scaling <- struct{}{}:
	case <-ctx.Done():
		return nil, "", ctx.Err()
	}
	defer func() { <-d.scaling }()
	if err := s.slot(ctx); err != nil {
		return nil, "", err
	}
	defer func() { <-s.slots }()
	out, ext, err := scaleAndEncode(d.img, sz)
	if d.share > collectAbove {
		runtime.GC() // the scaling's garbage, before the next size is made of the image
	}
	return out, ext, err
}

// A decoding is one decoded image shared by the requests of its content at any size: eight
// sizes asked at once cost one decode. It holds its share of the memory budget until the
// last of them has scaled it.
type decoding struct {
	key     workspace.Version
	done    chan struct{} // closed when img or err is set
	scaling chan struct{} // one size scaled at a time (the share counts one)
	img     image.Image
	err     error
	share   int64 // of s.memory, given back by the last user
	users   int   // guarded by Service.mu
}

// decode answers the decoded image of data (content version), decoding it or joining the
// decoding under way (need: its share of the memory budget); the caller leaves it when done
// with it.
func (s *Service) decode(ctx context.Context, version workspace.Version, data []byte, need int64) (*decoding, error) {
	s.mu.Lock()
	d, joined := s.decodings[version]
	if !joined {
		d = &decoding{key: version, done: make(chan struct{}), scaling: make(chan struct{}, 1)}
		s.decodings[version] = d
	}
	d.users++
	s.mu.Unlock()
	if joined {
		select {
		case <-d.done:
		case <-ctx.Done():
			s.leave(d)
			return nil, ctx.Err()
		}
		if d.err != nil {
			s.leave(d)
			return nil, d.err
		}
		return d, nil
	}
	d.img, d.err = s.decodeWithin(ctx, data, need, d)
	if d.err != nil {
		s.mu.Lock()
		if s.decodings[version] == d { // a failed decoding is not joined again
			delete(s.decodings, version)
		}
		s.mu.Unlock()
	}
	close(d.done)
	if d.err != nil {
		s.leave(d)
		return nil, d.err
	}
	return d, nil
}

// decodeWithin waits for the decode's share of the memory budget and a decode slot (or for
// ctx to end), then decodes.
func (s *Service) decodeWithin(ctx context.Context, data []byte, need int64, d *decoding) (image.Image, error) {
	need = max(need, 1)
	if err := s.memory.Acquire(ctx, need); err != nil {
		return nil, err
	}
	d.share = need
	if err := s.slot(ctx); err != nil {
		return nil, err
	}
	defer func() { <-s.slots }()
	s.decodes.Add(1)
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, errUndecodable().WithCause(err)
	}
	return img, nil
}

// leave ends a user's use of a decoding; the last one drops the image and gives its memory
// share back (after a collection when it is large: see collectAbove).
func (s *Service) leave(d *decoding) {
	s.mu.Lock()
	d.users--
	last := d.users == 0
	if last && s.decodings[d.key] == d {
		delete(s.decodings, d.key)
	}
	s.mu.Unlock()
	if !last {
		return
	}
	d.img = nil
	if d.share > 0 {
		if d.share > collectAbove {
			runtime.GC()
		}
		s.memory.Release(d.share)
	}
}

// slot waits for a decode slot (CPU), or for ctx to end.
func (s *Service) slot(ctx context.Context) error {
	select {
	case s.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

var contentTypes = map[string]string{"jpg": "image/jpeg", "png": "image/png"}

// Render scales an encoded raster image into the asked size (keeping its aspect ratio, never
// upscaling) and encodes it: JPEG when it is opaque, PNG when it has transparency. It reads
// the image's header first and refuses images whose decoded size is over the default limit
// (DefaultDecodeMB) before decoding them. The size is used as given (not snapped).
func Render(data []byte, sz Size) (out []byte, ext string, err error) {
	_, _, need, err := inspect(data)
	if err != nil {
		return nil, "", err
	}
	if limit := DefaultLimits().DecodeBytes; need > limit {
		return nil, "", errTooLarge(need, limit)
	}
	return decodeAndScale(data, sz)
}

// decodeAndScale decodes, scales and encodes an image whose header was checked.
func decodeAndScale(data []byte, sz Size) (out []byte, ext string, err error) {
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, "", errUndecodable().WithCause(err)
	}
	return scaleAndEncode(src, sz)
}

// scaleAndEncode scales a decoded image into the asked size and encodes it (src is only read:
// other sizes are made of it after).
func scaleAndEncode(src image.Image, sz Size) (out []byte, ext string, err error) {
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
