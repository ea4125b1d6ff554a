package loadable

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The package format (docs/portal-format.md "Loadables"): a gzip-compressed tar whose first
// entry is manifest.json, then every file of the content in byte order of its path. The
// archive depends on the content alone: entries carry a fixed time, mode 0644, owner 0 and no
// user names, and the gzip stream (compressed in 1 MiB blocks on every core, pgzip.go) has no
// name and no time in its header — so the same commit always gives
// the same bytes, and anyone can check a package against its manifest (Verify, or
// `portalwright verify-loadable`).

// ManifestName is the first entry of every package.
const ManifestName = "manifest.json"

// FormatVersion is the package format's version, in the manifest.
const FormatVersion = 1

// entryTime is every entry's modification time.
var entryTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// Manifest lists a package's files.
type Manifest struct {
	FormatVersion int    `json:"formatVersion"`
	SourceCommit  string `json:"sourceCommit"`
	// Files are the package's files (manifest.json excepted), in the archive's order.
	Files []ManifestFile `json:"files"`
}

// ManifestFile is one file of a package.
type ManifestFile struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Limits of a package's content (a portal imported from a URL may carry anything).
const (
	maxFiles = 200_000
)

// collect lists the regular files below dir (links and special files are refused: a snapshot
// has none), in byte order of their slash-separated paths, with their sizes and hashes.
func collect(dir string, maxBytes int64) ([]ManifestFile, error) {
	var files []ManifestFile
	var total int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s is not a regular file", p)
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == ManifestName {
			return fmt.Errorf("the content has a file named %s: that name is the package's own", ManifestName)
		}
		if len(files) >= maxFiles {
			return fmt.Errorf("the content has more than %d files", maxFiles)
		}
		sum, size, err := hashFile(p)
		if err != nil {
			return err
		}
		if total += size; total > maxBytes {
			return fmt.Errorf("the content is larger than %d MiB", maxBytes>>20)
		}
		files = append(files, ManifestFile{Path: rel, Size: size, SHA256: sum})
		return nil
	})
	slices.SortFunc(files, func(a, b ManifestFile) int { return strings.Compare(a.Path, b.Path) })
	return files, err
}

func hashFile(p string) (string, int64, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	return hex.EncodeToString(h.Sum(nil)), n, err
}

// Write packs the files of dir (as listed by its manifest) into w: manifest.json first, then
// the files. It returns the manifest's bytes.
func Write(w io.Writer, dir, commit string, maxBytes int64) ([]byte, error) {
	files, err := collect(dir, maxBytes)
	if err != nil {
		return nil, err
	}
	manifest, err := json.MarshalIndent(Manifest{FormatVersion: FormatVersion, SourceCommit: commit, Files: files}, "", "  ")
	if err != nil {
		return nil, err
	}
	manifest = append(manifest, '\n')
	gz, err := newParallelGzip(w, gzip.DefaultCompression)
	if err != nil {
		return nil, err
	}
	bw := bufio.NewWriterSize(gz, 256<<10)
	tw := tar.NewWriter(bw)
	header := func(name string, size int64) *tar.Header {
		return &tar.Header{Typeflag: tar.TypeReg, Name: name, Size: size, Mode: 0o644, ModTime: entryTime, Format: tar.FormatPAX}
	}
	if err := tw.WriteHeader(header(ManifestName, int64(len(manifest)))); err != nil {
		return nil, err
	}
	if _, err := tw.Write(manifest); err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := tw.WriteHeader(header(f.Path, f.Size)); err != nil {
			return nil, err
		}
		if err := copyFile(tw, filepath.Join(dir, filepath.FromSlash(f.Path)), f.Size); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := bw.Flush(); err != nil {
		return nil, err
	}
	return manifest, gz.Close()
}

// copyFile writes exactly size bytes of the file (a file that changed since it was hashed
// fails the archive rather than disagreeing with its manifest).
func copyFile(w io.Writer, p string, size int64) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	n, err := io.Copy(w, io.LimitReader(f, size+1))
	if err == nil && n != size {
		err = fmt.Errorf("%s changed while it was packed", p)
	}
	return err
}

// ErrTampered is wrapped by Verify's errors: the package does not match its manifest.
var ErrTampered = errors.New("the package does not match its manifest")

// Verify reads a package and checks it against its manifest: manifest.json first, then exactly
// the listed files in order, each with its size and SHA-256. It returns the manifest.
func Verify(r io.Reader) (*Manifest, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("%w: not a gzip stream: %v", ErrTampered, err)
	}
	tr := tar.NewReader(gz)
	h, err := tr.Next()
	if err != nil || h.Name != ManifestName {
		return nil, fmt.Errorf("%w: the first entry is not %s", ErrTampered, ManifestName)
	}
	var m Manifest
	if err := json.NewDecoder(io.LimitReader(tr, 64<<20)).Decode(&m); err != nil {
		return nil, fmt.Errorf("%w: %s cannot be read: %v", ErrTampered, ManifestName, err)
	}
	for i := 0; ; i++ {
		h, err := tr.Next()
		if err == io.EOF {
			if i != len(m.Files) {
				return nil, fmt.Errorf("%w: %d files are missing", ErrTampered, len(m.Files)-i)
			}
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrTampered, err)
		}
		if i >= len(m.Files) {
			return nil, fmt.Errorf("%w: %s is not in the manifest", ErrTampered, h.Name)
		}
		want := m.Files[i]
		if h.Typeflag != tar.TypeReg || h.Name != want.Path || path.Clean(h.Name) != h.Name || strings.HasPrefix(h.Name, "../") || path.IsAbs(h.Name) {
			return nil, fmt.Errorf("%w: entry %d is %q, the manifest lists %q", ErrTampered, i+1, h.Name, want.Path)
		}
		sum := sha256.New()
		n, err := io.Copy(sum, tr)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrTampered, err)
		}
		if n != want.Size || hex.EncodeToString(sum.Sum(nil)) != want.SHA256 {
			return nil, fmt.Errorf("%w: %s differs from its manifest entry", ErrTampered, want.Path)
		}
	}
	return &m, nil
}

// Extract writes a verified package's files (manifest.json included) into dest, a new folder
// (a loadable preview). Paths come from the verified manifest order, so none leaves dest.
func Extract(r io.Reader, dest string) error {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	root, err := os.OpenRoot(dest)
	if err != nil {
		return err
	}
	defer root.Close()
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if h.Typeflag != tar.TypeReg {
			return fmt.Errorf("%w: %s is not a regular file", ErrTampered, h.Name)
		}
		if dir := path.Dir(h.Name); dir != "." {
			if err := root.MkdirAll(dir, 0o755); err != nil {
				return err
			}
		}
		f, err := root.OpenFile(h.Name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		_, err = io.Copy(f, tr)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
}
