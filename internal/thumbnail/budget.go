package thumbnail

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
)

// What decoding an image costs is known from its header, before any pixel is decoded: its
// width and height, and how many bytes each pixel takes in the decoder's image (bit depth ×
// channels, as Go's decoders store them). A pixel count alone says little: a 7000×7000
// 16-bit RGBA PNG of a few hundred KB decodes into 392 MB, the same pixels as a 4:2:0 JPEG
// into 74 MB. decodedBytes is that figure, with what the decoders hold beside the image
// (a progressive JPEG's coefficients, an interlaced PNG's passes, a TIFF's raw strips).

// inspect reads an image's header: its size, its format and the bytes decoding it takes.
func inspect(data []byte) (image.Config, string, int64, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return cfg, format, 0, errUndecodable().WithCause(err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return cfg, format, 0, errUndecodable()
	}
	return cfg, format, decodedBytes(data, format, cfg), nil
}

// decodedBytes is the memory the decoder of format allocates for the image of data (whose
// header gave cfg).
func decodedBytes(data []byte, format string, cfg image.Config) int64 {
	px := int64(cfg.Width) * int64(cfg.Height)
	switch format {
	case "png":
		if n, ok := pngBytes(data, px); ok {
			return n
		}
	case "jpeg":
		if n, ok := jpegBytes(data, px); ok {
			return n
		}
	case "tiff":
		// The decoder reads a strip's (often the whole image's) decompressed bytes, then
		// converts them into the image.
		return 2 * px * modelBytes(cfg.ColorModel)
	case "webp":
		switch cfg.ColorModel {
		case color.YCbCrModel: // lossy: 4:2:0 planes
			return px * 3 / 2
		case color.NYCbCrAModel: // lossy with an alpha plane
			return px * 5 / 2
		case color.NRGBAModel: // lossless: ARGB words, then the NRGBA image
			return px * 8
		}
	}
	return px * modelBytes(cfg.ColorModel)
}

// modelBytes is the bytes per pixel of a decoded image of colour model m (8 when unknown).
func modelBytes(m color.Model) int64 {
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	switch m {
	case color.GrayModel, color.AlphaModel:
		return 1
	case color.Gray16Model, color.Alpha16Model:
		return 2
	case color.YCbCrModel: // 4:4:4 at most
		return 3
	case color.RGBAModel, color.NRGBAModel, color.CMYKModel, color.NYCbCrAModel:
		return 4
	}
	return 8
}

// pngBytes reads the IHDR's bit depth, colour type and interlace method (and whether a tRNS
// chunk comes before the image data) and gives the bytes image/png allocates: 16-bit RGBA
// is NRGBA64 (8 bytes a pixel), 8-bit RGB is RGBA (4), grey with a transparent colour is
// NRGBA. An interlaced image is decoded pass by pass and merged: the largest pass (half the
// pixels) is alive with the whole image.
func pngBytes(data []byte, px int64) (int64, bool) {
	const sig = "\x89PNG\r\n\x1a\n"
	if len(data) < 33 || string(data[:8]) != sig || string(data[12:16]) != "IHDR" {
		return 0, false
	}
	depth, ctype, interlaced := data[24], data[25], data[28] == 1
	trns := false
	for i := 8; i+8 <= len(data); {
		n := int(binary.BigEndian.Uint32(data[i:]))
		typ := string(data[i+4 : i+8])
		if typ == "IDAT" || typ == "IEND" || n < 0 || n > len(data) {
			break
		}
		if typ == "tRNS" {
			trns = true
		}
		i += 12 + n
	}
	var bpp int64
	switch ctype {
	case 0: // grey; with a transparent colour, NRGBA (NRGBA64 at 16 bits)
		switch {
		case trns && depth == 16:
			bpp = 8
		case trns:
			bpp = 4
		case depth == 16:
			bpp = 2
		default:
			bpp = 1
		}
	case 3: // paletted
		bpp = 1
	case 2, 4, 6: // RGB, grey + alpha, RGBA
		bpp = 4
		if depth == 16 {
			bpp = 8
		}
	default:
		return 0, false
	}
	n := px * bpp
	if interlaced {
		n += n / 2
	}
	return n, true
}

// jpegBytes reads the frame header (SOFn): each component's sampling factors give the
// planes image/jpeg allocates (a byte a sample); a progressive frame also keeps every
// coefficient (4 bytes a sample) until the last scan; four components (CMYK, YCCK) are
// converted into an image.CMYK (4 bytes a pixel) at the end.
func jpegBytes(data []byte, px int64) (int64, bool) {
	if len(data) < 4 || data[0] != 0xFF || data[1] != 0xD8 {
		return 0, false
	}
	for i := 2; i+4 <= len(data); {
		if data[i] != 0xFF {
			return 0, false
		}
		m := data[i+1]
		switch {
		case m == 0xFF: // fill byte
			i++
			continue
		case m == 0x01 || (m >= 0xD0 && m <= 0xD8): // no length
			i += 2
			continue
		}
		n := int(binary.BigEndian.Uint16(data[i+2:]))
		if n < 2 || i+2+n > len(data) {
			return 0, false
		}
		if m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC {
			seg := data[i+4 : i+2+n]
			if len(seg) < 6 {
				return 0, false
			}
			nc := int(seg[5])
			if nc < 1 || len(seg) < 6+3*nc {
				return 0, false
			}
			hmax, vmax := 1, 1
			for c := range nc {
				f := seg[6+3*c+1]
				hmax, vmax = max(hmax, int(f>>4)), max(vmax, int(f&15))
			}
			var samples int64
			for c := range nc {
				f := seg[6+3*c+1]
				h, v := max(1, int(f>>4)), max(1, int(f&15))
				samples += px * int64(h*v) / int64(hmax*vmax)
			}
			total := samples
			if m == 0xC2 || m == 0xC6 || m == 0xCA || m == 0xCE { // progressive
				total += 4 * samples
			}
			if nc == 4 {
				total += 4 * px
			}
			return total, true
		}
		i += 2 + n
	}
	return 0, false
}

// scalingBytes bounds what scaling a w×h image to a thumbnail allocates beside the decoded
// image, for the largest size (MaxSide × MaxSide): the box-reduced image (reduce.go; 1.5 to
// 3 times the thumbnail), Catmull-Rom's horizontal pass and result, the encoded bytes.
func scalingBytes(w, h int) int64 {
	tw, th := Size{MaxSide, MaxSide}.Fit(w, h)
	rw, rh := w, h
	var reduced int64
	if k := min(w*2/(tw*3), h*2/(th*3)); k >= 2 {
		rw, rh = w/k, h/k
		reduced = int64(rw) * int64(rh) * 4
	}
	return reduced + int64(tw)*int64(rh)*4 + int64(tw)*int64(th)*5
}
