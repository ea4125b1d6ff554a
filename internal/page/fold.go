package page

import (
	"bytes"
	"unicode/utf8"
)

// finder looks for a lower-cased needle in text, ignoring case, without lower-casing the
// text when the needle is ASCII (the common case): candidates are found with
// bytes.IndexByte on the first byte in either case, then compared folding ASCII letters.
type finder struct {
	needle []byte // lower-cased
	ascii  bool
}

func newFinder(needle []byte) finder {
	ascii := true
	for _, b := range needle {
		if b >= utf8.RuneSelf {
			ascii = false
		}
	}
	return finder{needle: needle, ascii: ascii}
}

// in tells whether text holds the needle, ignoring case.
func (f finder) in(text []byte) bool {
	if !f.ascii {
		return bytes.Contains(bytes.ToLower(text), f.needle)
	}
	return indexFoldASCII(text, f.needle) >= 0
}

func upperASCII(b byte) byte {
	if 'a' <= b && b <= 'z' {
		return b - ('a' - 'A')
	}
	return b
}

// indexFoldASCII is the first index of needle (lower-cased ASCII) in text ignoring ASCII
// case, or -1.
func indexFoldASCII(text, needle []byte) int {
	n := len(needle)
	if n == 0 {
		return 0
	}
	lo, up := needle[0], upperASCII(needle[0])
	nextLo, nextUp := -2, -2 // -2: not looked up yet
	for off := 0; off+n <= len(text); {
		if nextLo != -1 && nextLo < off {
			nextLo = bytes.IndexByte(text[off:], lo)
			if nextLo >= 0 {
				nextLo += off
			}
		}
		if up != lo && nextUp != -1 && nextUp < off {
			nextUp = bytes.IndexByte(text[off:], up)
			if nextUp >= 0 {
				nextUp += off
			}
		}
		i := nextLo
		if up != lo && nextUp >= 0 && (i < 0 || nextUp < i) {
			i = nextUp
		}
		if i < 0 || i+n > len(text) {
			return -1
		}
		if equalFoldASCII(text[i+1:i+n], needle[1:]) {
			return i
		}
		off = i + 1
	}
	return -1
}

func equalFoldASCII(a, lowerB []byte) bool {
	for k, c := range a {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lowerB[k] {
			return false
		}
	}
	return true
}

// prefilterWord is the longest word of the phrase made only of ASCII letters and digits
// (nil when none): a page whose bytes do not hold it, and that has no numeric character
// reference (&#…;), cannot hold the phrase in its text.
func prefilterWord(needle []byte) []byte {
	var best []byte
	for _, w := range bytes.Fields(needle) {
		ok := true
		for _, c := range w {
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
				ok = false
				break
			}
		}
		if ok && len(w) > len(best) {
			best = w
		}
	}
	return best
}
