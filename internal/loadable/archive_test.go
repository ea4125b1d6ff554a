package loadable

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestArchiveDeterministic: the same content gives the same bytes whatever the files' times
// and the order they were written in, and the package verifies against its manifest.
func TestArchiveDeterministic(t *testing.T) {
	files := map[string]string{"index.html": "<html></html>", "b/z.js": "z()", "b/a.css": "a{}", "assets/logo.svg": "<svg/>"}
	a, b := tree(t, files), tree(t, files)
	if err := os.Chtimes(filepath.Join(b, "index.html"), time.Unix(1, 0), time.Unix(1, 0)); err != nil {
		t.Fatal(err)
	}
	var x, y bytes.Buffer
	if _, err := Write(&x, a, "c0ffee", 1<<20); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(&y, b, "c0ffee", 1<<20); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(x.Bytes(), y.Bytes()) {
		t.Fatal("the same content gave different packages")
	}
	m, err := Verify(bytes.NewReader(x.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range m.Files {
		paths = append(paths, f.Path)
	}
	if m.SourceCommit != "c0ffee" || strings.Join(paths, ",") != "assets/logo.svg,b/a.css,b/z.js,index.html" {
		t.Fatalf("manifest: %+v", m)
	}
	dest := t.TempDir()
	if err := Extract(bytes.NewReader(x.Bytes()), dest); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dest, "b", "z.js")); string(got) != "z()" {
		t.Fatalf("extracted %q", got)
	}
}

// rewrite repacks a package, changing entries with edit (nil drops an entry).
func rewrite(t *testing.T, pkg []byte, edit func(name string, body []byte) []byte, extra ...string) []byte {
	t.Helper()
	gz, _ := gzip.NewReader(bytes.NewReader(pkg))
	tr := tar.NewReader(gz)
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	tw := tar.NewWriter(zw)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		body, _ := io.ReadAll(tr)
		if body = edit(h.Name, body); body == nil {
			continue
		}
		h.Size = int64(len(body))
		_ = tw.WriteHeader(h)
		_, _ = tw.Write(body)
	}
	for _, name := range extra {
		_ = tw.WriteHeader(&tar.Header{Name: name, Size: 1, Mode: 0o644, Typeflag: tar.TypeReg})
		_, _ = tw.Write([]byte("x"))
	}
	_ = tw.Close()
	_ = zw.Close()
	return out.Bytes()
}

// TestArchiveTampered: a changed file, a missing one, an extra one or a changed manifest fail
// verification.
func TestArchiveTampered(t *testing.T) {
	var pkg bytes.Buffer
	if _, err := Write(&pkg, tree(t, map[string]string{"index.html": "<html>ok</html>", "app.js": "ok()"}), "c0ffee", 1<<20); err != nil {
		t.Fatal(err)
	}
	same := func(_ string, b []byte) []byte { return b }
	if _, err := Verify(bytes.NewReader(rewrite(t, pkg.Bytes(), same))); err != nil {
		t.Fatalf("an unchanged repack: %v", err)
	}
	for name, bad := range map[string][]byte{
		"changed file": rewrite(t, pkg.Bytes(), func(n string, b []byte) []byte {
			if n == "app.js" {
				return []byte("evil()")
			}
			return b
		}),
		"missing file": rewrite(t, pkg.Bytes(), func(n string, b []byte) []byte {
			if n == "index.html" {
				return nil
			}
			return b
		}),
		"extra file": rewrite(t, pkg.Bytes(), same, "payload.sh"),
		"manifest edited": rewrite(t, pkg.Bytes(), func(n string, b []byte) []byte {
			if n == ManifestName {
				return bytes.Replace(b, []byte("c0ffee"), []byte("bad000"), 1)[:len(b)-40]
			}
			return b
		}),
		"not a package": []byte("hello"),
	} {
		if _, err := Verify(bytes.NewReader(bad)); !errors.Is(err, ErrTampered) {
			t.Errorf("%s: %v, want ErrTampered", name, err)
		}
	}
}

func TestRules(t *testing.T) {
	ok := Request{Name: "news", PartNumber: "PW-1", VersionPrefix: "1.0", Type: "PORTAL", GitRef: "master", CopyrightData: Copyright{MetaData: CopyrightMeta{Accept: true}}}
	if err := ok.Check(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []func(r *Request){
		func(r *Request) { r.Name = "" }, func(r *Request) { r.Name = "a b" }, func(r *Request) { r.PartNumber = "pw-1" },
		func(r *Request) { r.VersionPrefix = "1.0.0" }, func(r *Request) { r.VersionPrefix = "01.0" }, func(r *Request) { r.Type = "X" },
		func(r *Request) { r.GitRef = " " }, func(r *Request) { r.CopyrightData.MetaData.Accept = false },
	} {
		r := ok
		bad(&r)
		if err := r.Check(); err == nil {
			t.Errorf("%+v passed", r)
		}
	}
	if got := SuggestName("Crew News!", "PORTAL", time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC), func(n string) bool { return n == "crew-news-portal-20261123" }); got != "crew-news-portal-20261123-2" {
		t.Fatalf("SuggestName: %s", got)
	}
}
