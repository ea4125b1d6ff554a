package backup

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// A sink receives the files of a backup under a temporary name and makes it complete, with
// its manifest written last, only in finish.
type sink interface {
	// add stores the file src under name (move: src is the backup's own scratch file and
	// may be moved or removed).
	add(name, src string, move, secret bool) (File, error)
	// finish writes the manifest and gives the backup its final name.
	finish(manifest []byte) error
	// abort removes everything written.
	abort()
}

// isArchive tells whether a backup path names a .tar.gz file rather than a folder.
func isArchive(p string) bool {
	return strings.HasSuffix(p, ".tar.gz") || strings.HasSuffix(p, ".tgz")
}

// newSink prepares the backup at to (a folder or a .tar.gz file that does not exist yet, or
// an empty folder).
func newSink(to string) (sink, error) {
	if fi, err := os.Stat(to); err == nil {
		if !fi.IsDir() || isArchive(to) {
			return nil, fmt.Errorf("%s exists already: give a new name", to)
		}
		if entries, err := os.ReadDir(to); err != nil || len(entries) > 0 {
			return nil, fmt.Errorf("%s exists and is not empty: give a new or empty folder", to)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	parent := filepath.Dir(to)
	if fi, err := os.Stat(parent); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("the folder %s does not exist", parent)
	}
	base := "." + filepath.Base(to) + ".partial-"
	if isArchive(to) {
		f, err := os.CreateTemp(parent, base)
		if err != nil {
			return nil, err
		}
		if err := f.Chmod(0o600); err != nil {
			f.Close()
			os.Remove(f.Name())
			return nil, err
		}
		buf := bufio.NewWriterSize(f, 1<<20)
		zw, _ := gzip.NewWriterLevel(buf, gzip.BestSpeed) // bundles and packages are compressed already
		return &tarSink{to: to, f: f, buf: buf, zw: zw, tw: tar.NewWriter(zw)}, nil
	}
	tmp, err := os.MkdirTemp(parent, base)
	if err != nil {
		return nil, err
	}
	return &dirSink{to: to, tmp: tmp}, nil
}

// dirSink writes a folder: <parent>/.<name>.partial-*, renamed to <name> at the end.
type dirSink struct {
	to, tmp string
	dirs    []string
}

func (s *dirSink) add(name, src string, move, secret bool) (File, error) {
	dst := filepath.Join(s.tmp, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return File{}, err
	}
	var sum string
	var size int64
	var err error
	if move {
		if sum, size, err = hashFile(src); err == nil {
			err = os.Rename(src, dst)
		}
	} else {
		sum, size, err = copyFile(src, dst)
	}
	if err != nil {
		return File{}, fmt.Errorf("write %s: %w", name, err)
	}
	if err := os.Chmod(dst, 0o600); err != nil {
		return File{}, err
	}
	if err := syncPath(dst); err != nil {
		return File{}, fmt.Errorf("write %s: %w", name, err)
	}
	return File{Path: name, Size: size, SHA256: sum, Secret: secret}, nil
}

func (s *dirSink) finish(manifest []byte) error {
	p := filepath.Join(s.tmp, ManifestName)
	if err := os.WriteFile(p, manifest, 0o600); err != nil {
		return fmt.Errorf("write the manifest: %w", err)
	}
	if err := syncPath(p); err != nil {
		return fmt.Errorf("write the manifest: %w", err)
	}
	_ = filepath.WalkDir(s.tmp, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = syncPath(p)
		}
		return nil
	})
	_ = os.Remove(s.to) // an empty folder given as the target
	if err := os.Rename(s.tmp, s.to); err != nil {
		return err
	}
	return syncPath(filepath.Dir(s.to))
}

func (s *dirSink) abort() { _ = os.RemoveAll(s.tmp) }

// tarSink writes a .tar.gz: <parent>/.<name>.partial-*, renamed at the end; the manifest is
// its last entry.
type tarSink struct {
	to  string
	f   *os.File
	buf *bufio.Writer
	zw  *gzip.Writer
	tw  *tar.Writer
}

func (s *tarSink) add(name, src string, move, secret bool) (File, error) {
	f, err := os.Open(src)
	if err != nil {
		return File{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return File{}, err
	}
	if err := s.tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: fi.Size(), ModTime: fi.ModTime(), Typeflag: tar.TypeReg, Format: tar.FormatPAX}); err != nil {
		return File{}, fmt.Errorf("write %s: %w", name, err)
	}
	h := sha256.New()
	n, err := io.CopyN(io.MultiWriter(s.tw, h), f, fi.Size())
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = fmt.Errorf("%s shrank while it was copied", src)
		}
		return File{}, fmt.Errorf("write %s: %w", name, err)
	}
	if move {
		_ = os.Remove(src)
	}
	return File{Path: name, Size: n, SHA256: hex.EncodeToString(h.Sum(nil)), Secret: secret}, nil
}

func (s *tarSink) finish(manifest []byte) error {
	if err := s.tw.WriteHeader(&tar.Header{Name: ManifestName, Mode: 0o600, Size: int64(len(manifest)), ModTime: time.Now(), Typeflag: tar.TypeReg, Format: tar.FormatPAX}); err != nil {
		return fmt.Errorf("write the manifest: %w", err)
	}
	if _, err := s.tw.Write(manifest); err != nil {
		return fmt.Errorf("write the manifest: %w", err)
	}
	for _, c := range []func() error{s.tw.Close, s.zw.Close, s.buf.Flush, s.f.Sync, s.f.Close} {
		if err := c(); err != nil {
			return fmt.Errorf("write %s: %w", s.f.Name(), err)
		}
	}
	if err := os.Rename(s.f.Name(), s.to); err != nil {
		return err
	}
	return syncPath(filepath.Dir(s.to))
}

func (s *tarSink) abort() {
	s.f.Close()
	_ = os.Remove(s.f.Name())
}

// hashFile is the SHA-256 and size of a file; with dst != "" the file is copied there too
// (a new file, mode 0600).
func hashFile(src string, dst ...string) (string, int64, error) {
	in, err := os.Open(src)
	if err != nil {
		return "", 0, err
	}
	defer in.Close()
	h := sha256.New()
	var w io.Writer = h
	var out *os.File
	if len(dst) > 0 {
		if out, err = os.OpenFile(dst[0], os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600); err != nil {
			return "", 0, err
		}
		w = io.MultiWriter(out, h)
	}
	n, err := io.Copy(w, in)
	if out != nil {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			_ = os.Remove(dst[0])
		}
	}
	return hex.EncodeToString(h.Sum(nil)), n, err
}

// copyFile copies src to dst (a new file, mode 0600), answering the copy's SHA-256 and size.
func copyFile(src, dst string) (string, int64, error) { return hashFile(src, dst) }

// syncPath flushes a file or folder to disk.
func syncPath(p string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}

// source is a backup being read: a folder, or a .tar.gz extracted into a staging folder.
type source struct {
	root     string    // where the files are
	manifest *Manifest // parsed and checked against every file
	staged   bool      // root is a staging folder of ours: files may be moved out of it
}

// openDir reads a backup folder's manifest and checks every file against it.
func openDir(dir string) (*source, error) {
	data, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s has no %s: the backup is incomplete (it was interrupted or failed) or not a Portalwright backup", dir, ManifestName)
	} else if err != nil {
		return nil, err
	}
	m, err := parseManifest(data)
	if err != nil {
		return nil, err
	}
	listed := map[string]File{}
	for _, f := range m.Files {
		listed[f.Path] = f
	}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir() || rel == ManifestName:
			return nil
		case !d.Type().IsRegular():
			return fmt.Errorf("%s is not a regular file", rel)
		}
		f, ok := listed[rel]
		if !ok {
			return fmt.Errorf("%s is not in the manifest", rel)
		}
		sum, size, err := hashFile(p)
		if err != nil {
			return err
		}
		if size != f.Size || sum != f.SHA256 {
			return fmt.Errorf("%s does not match its checksum in the manifest (changed or damaged)", rel)
		}
		delete(listed, rel)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("the backup %s fails its manifest: %w", dir, err)
	}
	for p := range listed {
		return nil, fmt.Errorf("the backup %s fails its manifest: %s is missing", dir, p)
	}
	return &source{root: dir, manifest: m}, nil
}

// readArchive reads a .tar.gz backup, checking every entry against the manifest; with stage
// != "" the files are extracted into that folder (which must exist and be empty).
func readArchive(file, stage string) (*source, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("%s is not a .tar.gz backup: %w", file, err)
	}
	tr := tar.NewReader(zr)
	seen := map[string]File{}
	var manifest []byte
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s is damaged or cut short: %w", file, err)
		}
		name := hdr.Name
		if hdr.Typeflag != tar.TypeReg {
			return nil, fmt.Errorf("%s holds %s, which is not a regular file", file, name)
		}
		if name == ManifestName {
			if manifest, err = io.ReadAll(io.LimitReader(tr, 256<<20)); err != nil {
				return nil, fmt.Errorf("%s is damaged or cut short: %w", file, err)
			}
			continue
		}
		if err := safePath(name); err != nil {
			return nil, err
		}
		if _, dup := seen[name]; dup {
			return nil, fmt.Errorf("%s holds %s twice", file, name)
		}
		var w io.Writer = io.Discard
		var out *os.File
		if stage != "" {
			dst := filepath.Join(stage, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
				return nil, err
			}
			if out, err = os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600); err != nil {
				return nil, err
			}
			w = out
		}
		h := sha256.New()
		n, err := io.Copy(io.MultiWriter(w, h), tr)
		if out != nil {
			if cerr := out.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			return nil, fmt.Errorf("%s is damaged or cut short: reading %s: %w", file, name, err)
		}
		seen[name] = File{Path: name, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}
	}
	if manifest == nil {
		return nil, fmt.Errorf("%s has no %s: the backup is incomplete (it was interrupted or failed) or not a Portalwright backup", file, ManifestName)
	}
	m, err := parseManifest(manifest)
	if err != nil {
		return nil, err
	}
	for _, want := range m.Files {
		got, ok := seen[want.Path]
		if !ok {
			return nil, fmt.Errorf("the backup %s fails its manifest: %s is missing", file, want.Path)
		}
		if got.Size != want.Size || got.SHA256 != want.SHA256 {
			return nil, fmt.Errorf("the backup %s fails its manifest: %s does not match its checksum (changed or damaged)", file, want.Path)
		}
		delete(seen, want.Path)
	}
	for p := range seen {
		return nil, fmt.Errorf("the backup %s fails its manifest: %s is not in the manifest", file, p)
	}
	return &source{root: stage, manifest: m, staged: true}, nil
}

// path is where a file of the backup is.
func (s *source) path(name string) string { return filepath.Join(s.root, filepath.FromSlash(name)) }
