package thumbnail

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"math/rand/v2"
	"testing"

	"github.com/disintegration/imaging"
)

// photoJPEG is a photo-like 1632×1224 JPEG (≈2 megapixels): gradients with noise.
func photoJPEG(t testing.TB) []byte {
	const w, h = 1632, 1224
	rng := rand.New(rand.NewPCG(1, 7))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			n := uint8(rng.IntN(24))
			img.SetRGBA(x, y, color.RGBA{uint8(x*200/w) + n, uint8(y*200/h) + n, uint8((x+y)%200) + n, 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The box reduction straight from the JPEG's planes gives what averaging its RGB pixels gives.
func TestReduceYCbCrMatchesRGB(t *testing.T) {
	src, err := jpeg.Decode(bytes.NewReader(photoJPEG(t)))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{3, 4} { // the general path and the 4:2:0 one
		a := reduceYCbCr(src.(*image.YCbCr), k)
		b := reduceNRGBA(imaging.Clone(src), k)
		if a.Bounds() != b.Bounds() {
			t.Fatalf("bounds %v %v", a.Bounds(), b.Bounds())
		}
		var sum int
		for i := range a.Pix {
			sum += max(int(a.Pix[i])-int(b.Pix[i]), int(b.Pix[i])-int(a.Pix[i]))
		}
		if mean := float64(sum) / float64(len(a.Pix)); mean > 2 {
			t.Errorf("k=%d: mean difference %.2f per channel", k, mean)
		}
	}
}

// BenchmarkRender2MP: one grid thumbnail (height=200) of a 2-megapixel JPEG: decode, reduce,
// Catmull-Rom, encode.
func BenchmarkRender2MP(b *testing.B) {
	data := photoJPEG(b)
	for b.Loop() {
		if _, _, err := Render(data, Size{0, 200}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecode2MP(b *testing.B) {
	data := photoJPEG(b)
	for b.Loop() {
		if _, err := jpeg.Decode(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkShrink2MP(b *testing.B) {
	src, err := jpeg.Decode(bytes.NewReader(photoJPEG(b)))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		shrink(src, 267, 200)
	}
}
