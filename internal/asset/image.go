package asset

import (
	"bufio"
	"encoding/xml"
	"image"
	_ "image/gif" // decoders for image.DecodeConfig
	_ "image/jpeg"
	_ "image/png"
	"io"
	"strconv"
	"strings"

	_ "golang.org/x/image/bmp"
	_ "golang.org/x/image/tiff"
	_ "golang.org/x/image/webp"
)

// isImage tells whether a file name is of an image type whose size can be read.
func isImage(name string) bool { return in(imageExts, ext(name)) }

// maxHeader bounds what is read of a file to find its size.
const maxHeader = 256 << 10

// headerSize reads an image's size from its header only (never the whole image).
func headerSize(r io.Reader, e string) (Size, error) {
	lr := io.LimitReader(r, maxHeader)
	if e == "svg" {
		return svgSize(lr)
	}
	cfg, _, err := image.DecodeConfig(bufio.NewReader(lr))
	if err != nil {
		return Size{}, err
	}
	return Size{Width: cfg.Width, Height: cfg.Height}, nil
}

// svgSize reads the width and height (else the viewBox) of an SVG's root element.
func svgSize(r io.Reader) (Size, error) {
	dec := xml.NewDecoder(r)
	dec.Strict = false
	for {
		tok, err := dec.Token()
		if err != nil {
			return Size{}, err
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if el.Name.Local != "svg" {
			return Size{}, io.EOF
		}
		var w, h int
		var box string
		for _, a := range el.Attr {
			switch a.Name.Local {
			case "width":
				w = svgLength(a.Value)
			case "height":
				h = svgLength(a.Value)
			case "viewBox":
				box = a.Value
			}
		}
		if (w == 0 || h == 0) && box != "" {
			f := strings.FieldsFunc(box, func(r rune) bool { return r == ' ' || r == ',' })
			if len(f) == 4 {
				w, h = svgLength(f[2]), svgLength(f[3])
			}
		}
		return Size{Width: w, Height: h}, nil
	}
}

// svgLength reads a length in pixels ("640", "640px", "64.5"); 0 for other units.
func svgLength(s string) int {
	s = strings.TrimSuffix(strings.TrimSpace(s), "px")
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f <= 0 || f > 1e6 {
		return 0
	}
	return int(f + 0.5)
}
