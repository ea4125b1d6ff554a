package thumbnail

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/disintegration/imaging"

	"portalwright/internal/caller"
	"portalwright/internal/portalaccess"
	"portalwright/internal/testkit"
	"portalwright/internal/workspace"
)

// png16 writes a width×height 16-bit RGBA PNG without holding its pixels: a gradient first
// row, then rows equal to the one above (filter Up, all zero), so 7000×7000 (392 MB decoded)
// compresses to a few hundred KB.
func png16(t testing.TB, w io.Writer, width, height int) {
	t.Helper()
	bw := bufio.NewWriter(w)
	chunk := func(typ string, data []byte) {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(data)))
		bw.Write(n[:])
		crc := crc32.NewIEEE()
		io.WriteString(crc, typ)
		crc.Write(data)
		bw.WriteString(typ)
		bw.Write(data)
		binary.BigEndian.PutUint32(n[:], crc.Sum32())
		bw.Write(n[:])
	}
	bw.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8], ihdr[9] = 16, 6 // 16 bits, RGBA
	chunk("IHDR", ihdr)
	var idat bytes.Buffer
	z, _ := zlib.NewWriterLevel(&idat, zlib.BestSpeed)
	row := make([]byte, 1+width*8)
	for x := range width {
		p := row[1+x*8:]
		binary.BigEndian.PutUint16(p[0:], uint16(x*65535/width))
		binary.BigEndian.PutUint16(p[2:], 0x8000)
		binary.BigEndian.PutUint16(p[4:], uint16(65535-x*65535/width))
		binary.BigEndian.PutUint16(p[6:], 0xFFFF)
	}
	z.Write(row)
	clear(row)
	row[0] = 2 // Up: each row the same as the one above
	for range height - 1 {
		z.Write(row)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	for b := idat.Bytes(); len(b) > 0; {
		n := min(len(b), 1<<20)
		chunk("IDAT", b[:n])
		b = b[n:]
	}
	chunk("IEND", nil)
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
}

// withIHDR changes a PNG's IHDR byte i (24 depth, 25 colour type, 28 interlace) and its CRC.
func withIHDR(data []byte, i int, v byte) []byte {
	out := bytes.Clone(data)
	out[i] = v
	binary.BigEndian.PutUint32(out[29:33], crc32.ChecksumIEEE(out[12:29]))
	return out
}

// big16 is a 16-bit RGBA PNG whose header says 7000×7000 (its data is of a small image: the
// header is all that is read before the refusal; internal/app's TestThumbnailMemory serves a
// whole one).
func big16(t testing.TB) []byte {
	var b bytes.Buffer
	png16(t, &b, 64, 64)
	out := b.Bytes()
	binary.BigEndian.PutUint32(out[16:], 7000)
	binary.BigEndian.PutUint32(out[20:], 7000)
	return withIHDR(out, 24, 16)
}

func TestDecodedBytes(t *testing.T) {
	gray := image.NewGray(image.Rect(0, 0, 100, 50))
	grayTRNS := encode(t, "png", gray)
	{ // a tRNS chunk (grey 0 transparent) before IDAT: image/png decodes into NRGBA
		i := bytes.Index(grayTRNS, []byte("IDAT")) - 4
		trns := []byte{0, 0, 0, 2, 't', 'R', 'N', 'S', 0, 0}
		trns = binary.BigEndian.AppendUint32(trns, crc32.ChecksumIEEE(trns[4:]))
		grayTRNS = slices.Concat(grayTRNS[:i], trns, grayTRNS[i:])
	}
	opaque := encode(t, "png", picture(100, 50, false)) // 8-bit RGB(A)
	var gray16 bytes.Buffer
	png.Encode(&gray16, image.NewGray16(image.Rect(0, 0, 100, 50)))
	var paletted bytes.Buffer
	png.Encode(&paletted, image.NewPaletted(image.Rect(0, 0, 100, 50), color.Palette{color.Black, color.White}))
	baseline := encode(t, "jpg", picture(100, 50, false)) // image/jpeg writes 4:2:0
	progressive := bytes.Clone(baseline)
	progressive[bytes.Index(progressive, []byte{0xFF, 0xC0})+1] = 0xC2
	var grayJPEG bytes.Buffer
	jpeg.Encode(&grayJPEG, gray, nil)
	webp, _ := os.ReadFile("testdata/blue-purple-pink.lossy.webp")
	for _, c := range []struct {
		name string
		data []byte
		want int64
	}{
		{"16-bit RGBA PNG 7000×7000", big16(t), 7000 * 7000 * 8},
		{"8-bit RGB PNG", opaque, 5000 * 4},
		{"8-bit RGB PNG, interlaced", withIHDR(opaque, 28, 1), 5000 * 6},
		{"grey PNG", encode(t, "png", gray), 5000},
		{"grey PNG with tRNS", grayTRNS, 5000 * 4},
		{"16-bit grey PNG", gray16.Bytes(), 5000 * 2},
		{"paletted PNG", paletted.Bytes(), 5000},
		{"JPEG 4:2:0", baseline, 5000 * 3 / 2},
		{"progressive JPEG 4:2:0", progressive, 5000 * 3 / 2 * 5},
		{"grey JPEG", grayJPEG.Bytes(), 5000},
		{"GIF", encode(t, "gif", picture(100, 50, false)), 5000},
		{"lossy WebP", webp, 150 * 100 * 3 / 2},
	} {
		_, _, got, err := inspect(c.data)
		if err != nil || got != c.want {
			t.Errorf("%s: %d bytes (%v), want %d", c.name, got, err, c.want)
		}
	}
}

// The 16-bit PNG of issue 23 (49 megapixels, under the old pixel cap) is refused from its
// header: nothing is decoded, so it is answered at once.
func TestRenderRefusesFromDecodedBytes(t *testing.T) {
	start := time.Now()
	_, _, err := Render(big16(t), Size{0, 200})
	testkit.APIError(t, err, 422, "IMAGE_TOO_LARGE")
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("refusal took %s: decoded?", d)
	}
	// Under the limit, the same kind of image renders (a band at a time, from NRGBA64).
	var small bytes.Buffer
	png16(t, &small, 900, 700)
	out, ext, err := Render(small.Bytes(), Size{0, 200})
	if err != nil {
		t.Fatal(err)
	}
	if img, _ := decode(t, out); ext != "jpg" || img.Bounds().Dx() != 257 || img.Bounds().Dy() != 200 {
		t.Errorf("%s %v", ext, img.Bounds())
	}
}

func TestSnap(t *testing.T) {
	for in, want := range map[int]int{0: 0, 1: 64, 64: 64, 65: 128, 199: 200, 200: 200, 201: 240, 240: 240, 241: 320, 801: 1024, 1024: 1024, 5000: 1024} {
		if got := snap(in); got != want {
			t.Errorf("snap(%d) = %d, want %d", in, got, want)
		}
	}
	if got := (Size{240, 0}).Snap(); got != (Size{240, 0}) {
		t.Errorf("the pickers' size changed: %v", got)
	}
	if got := (Size{0, 200}).Snap(); got != (Size{0, 200}) {
		t.Errorf("the grid's size changed: %v", got)
	}
}

func portal(t *testing.T) portalaccess.Portal {
	t.Helper()
	pa, err := portalaccess.NewChecker(finder{}).Check(context.Background(), 1, 10)
	if err != nil {
		t.Fatal(err)
	}
	return pa
}

// Asked sizes in one bucket make one thumbnail (one cache file, one ETag); the answer is the
// bucket's size.
func TestSizesSnapToBuckets(t *testing.T) {
	fake := &files{byUser: map[int64]map[string][]byte{1: {"a.png": encode(t, "png", picture(1600, 1200, false))}}}
	dir := t.TempDir()
	svc := NewService(fake, dir, Limits{})
	p, _ := ImagePath("a.png")
	var wg sync.WaitGroup
	etags := make([]string, 8)
	for i := range etags {
		wg.Add(1)
		go func() {
			defer wg.Done()
			img, err := svc.Thumbnail(context.Background(), caller.Caller{UserID: 1}, portal(t), p, Size{0, 130 + 10*i}, "")
			if err != nil {
				t.Error(err)
				return
			}
			etags[i] = img.ETag
			if b, _ := decode(t, img.Data); b.Bounds().Dy() != 200 {
				t.Errorf("height %d", b.Bounds().Dy())
			}
		}()
	}
	wg.Wait()
	for _, e := range etags {
		if e != etags[0] {
			t.Fatalf("etags %v", etags)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("cache: %v", entries)
	}
}

// Different sizes of one image asked at once share one decode.
func TestSizesShareOneDecode(t *testing.T) {
	data := encode(t, "png", picture(1200, 1600, true))
	fake := &files{byUser: map[int64]map[string][]byte{1: {"a.png": data}}}
	svc := NewService(fake, t.TempDir(), Limits{})
	p, _ := ImagePath("a.png")
	all := svc.Limits().MemoryBytes
	svc.memory.Acquire(context.Background(), all) // the first decode waits until all have joined
	heights := []int{64, 128, 200, 240, 320, 400, 512, 800}
	var wg sync.WaitGroup
	for _, h := range heights {
		wg.Add(1)
		go func() {
			defer wg.Done()
			img, err := svc.Thumbnail(context.Background(), caller.Caller{UserID: 1}, portal(t), p, Size{0, h}, "")
			if err != nil {
				t.Error(err)
				return
			}
			if b, _ := decode(t, img.Data); b.Bounds().Dy() != h {
				t.Errorf("height %d, want %d", b.Bounds().Dy(), h)
			}
		}()
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		svc.mu.Lock()
		d := svc.decodings[workspace.VersionOf(data)]
		joined := d != nil && d.users == len(heights)
		svc.mu.Unlock()
		if joined {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the requests never joined one decoding")
		}
	}
	svc.memory.Release(all)
	wg.Wait()
	if n := svc.decodes.Load(); n != 1 {
		t.Errorf("%d decodes, want 1", n)
	}
	svc.mu.Lock()
	defer svc.mu.Unlock()
	if len(svc.decodings) != 0 {
		t.Errorf("decodings left: %v", svc.decodings)
	}
	if err := svc.memory.Acquire(context.Background(), all); err != nil { // all given back
		t.Error(err)
	}
}

// A decode waits for its share of the memory budget, and stops waiting when its request ends.
func TestDecodeWaitsForMemory(t *testing.T) {
	fake := &files{byUser: map[int64]map[string][]byte{1: {"a.png": encode(t, "png", picture(800, 600, false))}}}
	svc := NewService(fake, t.TempDir(), Limits{DecodeBytes: 4 << 20, MemoryBytes: 4 << 20, Decodes: 1})
	p, _ := ImagePath("a.png")
	if err := svc.memory.Acquire(context.Background(), 4<<20); err != nil { // another decode holds it all
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := svc.Thumbnail(ctx, caller.Caller{UserID: 1}, portal(t), p, Size{0, 200}, ""); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("waited past the request: %v", err)
	}
	svc.memory.Release(4 << 20)
	if _, err := svc.Thumbnail(context.Background(), caller.Caller{UserID: 1}, portal(t), p, Size{0, 200}, ""); err != nil {
		t.Fatal(err)
	}
	// An image over the per-image limit is refused, not waited for.
	fake.byUser[1]["big.png"] = encode(t, "png", picture(1200, 1000, false)) // 4.8 MB decoded
	big, _ := ImagePath("big.png")
	_, err := svc.Thumbnail(context.Background(), caller.Caller{UserID: 1}, portal(t), big, Size{0, 200}, "")
	testkit.APIError(t, err, 422, "IMAGE_TOO_LARGE")
}

// The cache keeps under its limit by removing the least recently used files; a hit counts as
// a use; temporary files of a crash are removed once old.
func TestCacheEviction(t *testing.T) {
	dir := t.TempDir()
	c := newDiskCache(dir, 1000)
	blob := bytes.Repeat([]byte("x"), 300)
	for _, k := range []string{"a", "b", "c"} {
		c.write(k+".jpg", blob)
	}
	now := time.Now()
	for k, age := range map[string]time.Duration{"a": 3 * time.Hour, "b": 2 * time.Hour, "c": time.Hour} {
		os.Chtimes(filepath.Join(dir, k+".jpg"), now.Add(-age), now.Add(-age))
	}
	os.WriteFile(filepath.Join(dir, ".tmp-old"), blob, 0o644)
	os.Chtimes(filepath.Join(dir, ".tmp-old"), now.Add(-2*time.Hour), now.Add(-2*time.Hour))
	os.WriteFile(filepath.Join(dir, ".tmp-new"), blob, 0o644) // being written by another instance
	if _, ok := c.read("a"); !ok {                            // a is used: now the newest
		t.Fatal("a not cached")
	}
	c.write("d.jpg", blob) // 1,200 bytes: over the limit
	var names []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{".tmp-new", "a.jpg", "c.jpg", "d.jpg"}; !slices.Equal(names, want) {
		t.Errorf("after the sweep: %v, want %v", names, want)
	}
	if left := c.sweep(); left != 900 {
		t.Errorf("left %d bytes", left)
	}
}

// Writes of another instance into the shared folder are counted at the next sweep.
func TestCacheCountsOtherInstances(t *testing.T) {
	dir := t.TempDir()
	mine, other := newDiskCache(dir, 2000), newDiskCache(dir, 0)
	mine.write("mine.jpg", make([]byte, 100))
	for i := range 10 {
		other.write(fmt.Sprintf("other-%d.jpg", i), make([]byte, 300))
	}
	if left := mine.sweep(); left > 2000 {
		t.Errorf("left %d bytes", left)
	}
}

// Reducing any image from its RGBA64 colours gives what reducing its NRGBA copy gives (but
// for rounding), weighting colours by their alpha.
func TestReduceRGBA64(t *testing.T) {
	src := image.NewNRGBA64(image.Rect(0, 0, 900, 601))
	for y := 0; y < 601; y++ {
		for x := 0; x < 900; x++ {
			src.SetNRGBA64(x, y, color.NRGBA64{uint16(x * 72), uint16(y * 109), uint16((x + y) * 43), uint16(65535 - x*30)})
		}
	}
	for _, k := range []int{2, 3, 7} {
		a, b := reduceAny(src, k), reduceNRGBA(imaging.Clone(src), k)
		if a.Bounds() != b.Bounds() {
			t.Fatalf("k=%d: bounds %v %v", k, a.Bounds(), b.Bounds())
		}
		for i := range a.Pix {
			if d := int(a.Pix[i]) - int(b.Pix[i]); d > 2 || d < -2 {
				t.Fatalf("k=%d: byte %d is %d, the NRGBA copy's %d", k, i, a.Pix[i], b.Pix[i])
			}
		}
	}
}
