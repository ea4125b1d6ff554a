package loadable

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"io"
	"runtime"
	"sync"
)

// parallelGzip writes one gzip member whose deflate stream is made of independently compressed
// blocks of blockSize bytes, compressed on every core and written in order. Each block ends
// with a sync flush (byte-aligned, not final) and the stream with an empty final block, so any
// gzip reader reads it as one member; the bytes depend only on the input (fixed block size,
// level, header without name or time), so packages stay byte-identical. A block that does not
// compress (already compressed media) is stored.
type parallelGzip struct {
	w       io.Writer
	level   int
	buf     []byte
	crc     uint32
	size    uint32
	jobs    chan *pgJob
	pending chan *pgJob // in input order
	done    chan error
	err     error
}

type pgJob struct {
	in   []byte
	out  bytes.Buffer
	err  error
	next chan struct{}
}

const pgBlockSize = 1 << 20

// gzipHeader: magic, deflate, no flags, no time, no extra flags, OS unknown.
var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}

func newParallelGzip(w io.Writer, level int) (*parallelGzip, error) {
	if _, err := w.Write(gzipHeader); err != nil {
		return nil, err
	}
	workers := max(1, runtime.GOMAXPROCS(0))
	z := &parallelGzip{w: w, level: level, jobs: make(chan *pgJob), pending: make(chan *pgJob, 2*workers), done: make(chan error, 1)}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range z.jobs {
				lvl := level
				if incompressible(j.in) { // photos, video, fonts: stored, not compressed in vain
					lvl = flate.NoCompression
				}
				fw, err := flate.NewWriter(&j.out, lvl)
				if err == nil {
					_, err = fw.Write(j.in)
				}
				if err == nil {
					err = fw.Flush()
				}
				j.err = err
				close(j.next)
			}
		}()
	}
	go func() { // the writer: blocks in order
		var err error
		for j := range z.pending {
			<-j.next
			if err == nil {
				err = j.err
			}
			if err == nil {
				_, err = z.w.Write(j.out.Bytes())
			}
		}
		wg.Wait()
		z.done <- err
	}()
	return z, nil
}

// incompressible tells a block that would not shrink: its first 64 KiB compressed at the fastest
// level keep 97 % of their size. It depends on the bytes alone, so packages stay identical.
func incompressible(b []byte) bool {
	sample := b[:min(len(b), 64<<10)]
	if len(sample) < 4096 {
		return false
	}
	var n countingDiscard
	fw, _ := flate.NewWriter(&n, flate.BestSpeed)
	_, _ = fw.Write(sample)
	_ = fw.Close()
	return int(n) >= len(sample)*97/100
}

type countingDiscard int

func (c *countingDiscard) Write(p []byte) (int, error) {
	*c += countingDiscard(len(p))
	return len(p), nil
}

func (z *parallelGzip) Write(p []byte) (int, error) {
	z.crc = crc32.Update(z.crc, crc32.IEEETable, p)
	z.size += uint32(len(p))
	n := len(p)
	for len(p) > 0 {
		room := pgBlockSize - len(z.buf)
		if z.buf == nil {
			z.buf = make([]byte, 0, pgBlockSize)
		}
		take := min(room, len(p))
		z.buf = append(z.buf, p[:take]...)
		p = p[take:]
		if len(z.buf) == pgBlockSize {
			z.dispatch()
		}
	}
	return n, nil
}

func (z *parallelGzip) dispatch() {
	if len(z.buf) == 0 {
		return
	}
	j := &pgJob{in: z.buf, next: make(chan struct{})}
	z.buf = nil
	z.pending <- j
	z.jobs <- j
}

// Close compresses what is left, ends the stream and writes the trailer (CRC-32, size).
func (z *parallelGzip) Close() error {
	z.dispatch()
	close(z.jobs)
	close(z.pending)
	if err := <-z.done; err != nil {
		return err
	}
	trailer := []byte{0x03, 0x00, 0, 0, 0, 0, 0, 0, 0, 0} // empty final block, CRC-32, ISIZE
	binary.LittleEndian.PutUint32(trailer[2:], z.crc)
	binary.LittleEndian.PutUint32(trailer[6:], z.size)
	_, err := z.w.Write(trailer)
	return err
}
