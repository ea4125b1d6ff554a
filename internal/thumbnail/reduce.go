package thumbnail

import (
	"image"
	"image/color"

	"github.com/disintegration/imaging"
)

// Shrinking a 2-megapixel photo to a 200-pixel-high thumbnail with a Catmull-Rom filter over
// the whole image costs several times its decoding. So large reductions take two steps: an
// integer box reduction (each output pixel the average of a k×k block: cheap, and free of
// aliasing) to between 1.5 and 3 times the target size, then Catmull-Rom from there. JPEGs (image.YCbCr)
// are reduced straight from their planes, without converting every pixel to RGB first; other
// images pixel by pixel into sums per output pixel, never through an NRGBA copy of the whole
// image (which would double, or for a paletted or grey image quadruple, the memory its
// decoding was allowed).

// shrink scales src to tw×th.
func shrink(src image.Image, tw, th int) image.Image {
	b := src.Bounds()
	k := min(b.Dx()*2/(tw*3), b.Dy()*2/(th*3)) // the reduced image stays ≥ 1.5× the target
	if k >= 2 {
		if ycc, ok := src.(*image.YCbCr); ok {
			if ycc.SubsampleRatio == image.YCbCrSubsampleRatio420 && k%2 == 1 && k > 2 {
				k-- // an even block covers whole chroma samples (the fast path below)
			}
			src = reduceYCbCr(ycc, k)
		} else {
			src = reduceAny(src, k)
		}
	}
	return imaging.Resize(src, tw, th, imaging.CatmullRom)
}

// reduceYCbCr averages k×k blocks of a YCbCr image into an opaque NRGBA image.
func reduceYCbCr(src *image.YCbCr, k int) *image.NRGBA {
	b := src.Bounds()
	if src.SubsampleRatio == image.YCbCrSubsampleRatio420 && k%2 == 0 && b.Min.X%2 == 0 && b.Min.Y%2 == 0 {
		return reduce420(src, k)
	}
	ow, oh := b.Dx()/k, b.Dy()/k
	dst := image.NewNRGBA(image.Rect(0, 0, ow, oh))
	n := k * k
	sx, sy := subsampling(src.SubsampleRatio)
	for oy := 0; oy < oh; oy++ {
		row := dst.Pix[oy*dst.Stride:]
		y0 := b.Min.Y + oy*k
		for ox := 0; ox < ow; ox++ {
			x0 := b.Min.X + ox*k
			var ys, cbs, crs int
			for dy := 0; dy < k; dy++ {
				yi := src.YOffset(x0, y0+dy)
				for _, v := range src.Y[yi : yi+k] {
					ys += int(v)
				}
			}
			// The chroma samples under the block (planes subsampled by sx×sy).
			cn := 0
			for cy := y0 / sy; cy <= (y0+k-1)/sy; cy++ {
				ci := (cy-b.Min.Y/sy)*src.CStride - b.Min.X/sx
				for cx := x0 / sx; cx <= (x0+k-1)/sx; cx++ {
					cbs += int(src.Cb[ci+cx])
					crs += int(src.Cr[ci+cx])
					cn++
				}
			}
			r, g, bl := color.YCbCrToRGB(uint8(ys/n), uint8(cbs/cn), uint8(crs/cn))
			p := row[ox*4 : ox*4+4 : ox*4+4]
			p[0], p[1], p[2], p[3] = r, g, bl, 255
		}
	}
	return dst
}

// reduceAny averages k×k blocks of any image but YCbCr, weighting colours by their alpha.
func reduceAny(src image.Image, k int) *image.NRGBA {
	switch m := src.(type) {
	case *image.NRGBA:
		if m.Rect.Min == (image.Point{}) {
			return reduceNRGBA(m, k)
		}
	case image.RGBA64Image: // every image type of the standard decoders
		return reduceRGBA64(m, k)
	}
	return reduceNRGBA(imaging.Clone(src), k)
}

// reduceRGBA64 sums each k×k block's premultiplied 16-bit colours (RGBA64At): their average
// over the block's alpha is the alpha-weighted average of its colours.
func reduceRGBA64(src image.RGBA64Image, k int) *image.NRGBA {
	b := src.Bounds()
	ow, oh := b.Dx()/k, b.Dy()/k
	dst := image.NewNRGBA(image.Rect(0, 0, ow, oh))
	acc := make([]uint64, ow*4)
	n := uint64(k * k)
	for oy := 0; oy < oh; oy++ {
		clear(acc)
		for y := b.Min.Y + oy*k; y < b.Min.Y+oy*k+k; y++ {
			for ox := 0; ox < ow; ox++ {
				a := acc[ox*4 : ox*4+4 : ox*4+4]
				for x := b.Min.X + ox*k; x < b.Min.X+ox*k+k; x++ {
					c := src.RGBA64At(x, y)
					a[0] += uint64(c.R)
					a[1] += uint64(c.G)
					a[2] += uint64(c.B)
					a[3] += uint64(c.A)
				}
			}
		}
		row := dst.Pix[oy*dst.Stride:]
		for ox := 0; ox < ow; ox++ {
			a := acc[ox*4 : ox*4+4 : ox*4+4]
			p := row[ox*4 : ox*4+4 : ox*4+4]
			if a[3] > 0 {
				p[0] = uint8(min(a[0]*0xffff/a[3], 0xffff) >> 8)
				p[1] = uint8(min(a[1]*0xffff/a[3], 0xffff) >> 8)
				p[2] = uint8(min(a[2]*0xffff/a[3], 0xffff) >> 8)
			}
			p[3] = uint8(a[3] / n >> 8)
		}
	}
	return dst
}

// reduceNRGBA averages k×k blocks of an NRGBA image, weighting colours by their alpha.
func reduceNRGBA(src *image.NRGBA, k int) *image.NRGBA {
	b := src.Bounds()
	dst := image.NewNRGBA(image.Rect(0, 0, b.Dx()/k, b.Dy()/k))
	reduceNRGBAInto(dst, src, k)
	return dst
}

// reduceNRGBAInto writes the k×k block averages of src (its origin at Pix[0]) into dst,
// whose size is src's divided by k.
func reduceNRGBAInto(dst, src *image.NRGBA, k int) {
	ow, oh := dst.Rect.Dx(), dst.Rect.Dy()
	n := k * k
	for oy := 0; oy < oh; oy++ {
		row := dst.Pix[oy*dst.Stride:]
		for ox := 0; ox < ow; ox++ {
			var rs, gs, bs, as int
			for dy := 0; dy < k; dy++ {
				i := (oy*k+dy)*src.Stride + ox*k*4
				px := src.Pix[i : i+4*k]
				for j := 0; j < len(px); j += 4 {
					a := int(px[j+3])
					rs += int(px[j]) * a
					gs += int(px[j+1]) * a
					bs += int(px[j+2]) * a
					as += a
				}
			}
			p := row[ox*4 : ox*4+4 : ox*4+4]
			if as > 0 {
				p[0], p[1], p[2] = uint8(rs/as), uint8(gs/as), uint8(bs/as)
			}
			p[3] = uint8(as / n)
		}
	}
}

// subsampling is how many luma pixels share a chroma sample, across and down.
func subsampling(r image.YCbCrSubsampleRatio) (int, int) {
	switch r {
	case image.YCbCrSubsampleRatio422:
		return 2, 1
	case image.YCbCrSubsampleRatio420:
		return 2, 2
	case image.YCbCrSubsampleRatio440:
		return 1, 2
	case image.YCbCrSubsampleRatio411:
		return 4, 1
	case image.YCbCrSubsampleRatio410:
		return 4, 2
	}
	return 1, 1
}

// reduce420 is reduceYCbCr for the common case — 4:2:0 chroma, an even k — as whole-row sums:
// each k×k luma block has exactly (k/2)×(k/2) chroma samples.
func reduce420(src *image.YCbCr, k int) *image.NRGBA {
	b := src.Bounds()
	ow, oh := b.Dx()/k, b.Dy()/k
	dst := image.NewNRGBA(image.Rect(0, 0, ow, oh))
	h := k / 2
	ys, cbs, crs := make([]int, ow), make([]int, ow), make([]int, ow)
	n, cn := k*k, h*h
	for oy := 0; oy < oh; oy++ {
		clear(ys)
		clear(cbs)
		clear(crs)
		y0 := b.Min.Y + oy*k
		for dy := 0; dy < k; dy++ {
			i := src.YOffset(b.Min.X, y0+dy)
			row := src.Y[i : i+ow*k]
			for ox := range ys {
				s := 0
				for _, v := range row[ox*k : ox*k+k] {
					s += int(v)
				}
				ys[ox] += s
			}
		}
		for dy := 0; dy < k; dy += 2 {
			i := src.COffset(b.Min.X, y0+dy)
			cb, cr := src.Cb[i:i+ow*h], src.Cr[i:i+ow*h]
			for ox := range cbs {
				s, t := 0, 0
				for j := ox * h; j < ox*h+h; j++ {
					s += int(cb[j])
					t += int(cr[j])
				}
				cbs[ox] += s
				crs[ox] += t
			}
		}
		row := dst.Pix[oy*dst.Stride : oy*dst.Stride+ow*4]
		for ox := range ys {
			r, g, bl := color.YCbCrToRGB(uint8(ys[ox]/n), uint8(cbs[ox]/cn), uint8(crs[ox]/cn))
			p := row[ox*4 : ox*4+4 : ox*4+4]
			p[0], p[1], p[2], p[3] = r, g, bl, 255
		}
	}
	return dst
}
