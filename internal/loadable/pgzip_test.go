package loadable

import (
	"bytes"
	"compress/gzip"
	"io"
	"math/rand/v2"
	"os/exec"
	"testing"
)

// TestParallelGzip: the blocks make one gzip member that Go's reader and GNU gzip read back,
// the same input gives the same bytes, and an empty input is a valid stream.
func TestParallelGzip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	in := make([]byte, 3*pgBlockSize+12345)
	for i := range in {
		if i%3 == 0 {
			in[i] = byte(rng.Uint32())
		} else {
			in[i] = 'a' + byte(i%7)
		}
	}
	pack := func(data []byte) []byte {
		var out bytes.Buffer
		z, err := newParallelGzip(&out, gzip.DefaultCompression)
		if err != nil {
			t.Fatal(err)
		}
		for len(data) > 0 { // odd write sizes
			n := min(len(data), 70001)
			if _, err := z.Write(data[:n]); err != nil {
				t.Fatal(err)
			}
			data = data[n:]
		}
		if err := z.Close(); err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	a, b := pack(in), pack(in)
	if !bytes.Equal(a, b) {
		t.Fatal("the same input gave different bytes")
	}
	for _, c := range [][2][]byte{{a, in}, {pack(nil), nil}} {
		r, err := gzip.NewReader(bytes.NewReader(c[0]))
		if err != nil {
			t.Fatal(err)
		}
		r.Multistream(false)
		got, err := io.ReadAll(r)
		if err != nil || !bytes.Equal(got, c[1]) {
			t.Fatalf("read back: %v, %d bytes", err, len(got))
		}
	}
	if gz, err := exec.LookPath("gzip"); err == nil {
		cmd := exec.Command(gz, "-dc")
		cmd.Stdin = bytes.NewReader(a)
		out, err := cmd.Output()
		if err != nil || !bytes.Equal(out, in) {
			t.Fatalf("GNU gzip: %v, %d bytes", err, len(out))
		}
	}
}
