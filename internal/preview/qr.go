package preview

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"

	qrcode "github.com/yeqown/go-qrcode/v2"
)

// QR code rendering: the matrix comes from github.com/yeqown/go-qrcode (a maintained encoder;
// its core module has no image dependencies), the PNG from the standard library.
const (
	qrModulePixels = 6 // pixels per module: a 2-3 cm code on a screen scans well
	qrQuietZone    = 4 // modules of white around the code (the standard's minimum)
)

// QRCodePNG encodes text as a QR code (error correction M) and returns it as a base64 PNG.
func QRCodePNG(text string) (string, error) {
	code, err := qrcode.NewWith(text, qrcode.WithErrorCorrectionLevel(qrcode.ErrorCorrectionMedium))
	if err != nil {
		return "", err
	}
	w := &pngWriter{}
	if err := code.Save(w); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(w.out.Bytes()), nil
}

// pngWriter is a qrcode.Writer that draws the matrix black on white, two colours.
type pngWriter struct{ out bytes.Buffer }

func (w *pngWriter) Write(mat qrcode.Matrix) error {
	size := (mat.Width() + 2*qrQuietZone) * qrModulePixels
	img := image.NewPaletted(image.Rect(0, 0, size, size), color.Palette{color.White, color.Black})
	mat.Iterate(qrcode.IterDirection_ROW, func(x, y int, v qrcode.QRValue) {
		if !v.IsSet() {
			return
		}
		x0, y0 := (x+qrQuietZone)*qrModulePixels, (y+qrQuietZone)*qrModulePixels
		for dy := range qrModulePixels {
			for dx := range qrModulePixels {
				img.SetColorIndex(x0+dx, y0+dy, 1)
			}
		}
	})
	return png.Encode(&w.out, img)
}

func (w *pngWriter) Close() error { return nil }
