package backup

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"portalwright/internal/app"
	"portalwright/internal/config"
)

// fixture is a data directory made by the server (the demo domain's three portals), copied
// for each test from one made once.
func fixture(t *testing.T) config.Config {
	t.Helper()
	fixtureOnce.Do(func() {
		dir, err := os.MkdirTemp("", "pw-backup-fixture-")
		if err != nil {
			fixtureErr = err
			return
		}
		cfg := config.Defaults()
		cfg.DataDir, cfg.AdminPassword = dir, "admin-pass"
		a, err := app.New(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard)
		if err != nil {
			fixtureErr = err
			return
		}
		a.Close()
		fixtureDir = dir
	})
	if fixtureErr != nil {
		t.Fatal(fixtureErr)
	}
	cfg := config.Defaults()
	cfg.DataDir = filepath.Join(t.TempDir(), "data")
	if out, err := exec.Command("cp", "-a", fixtureDir, cfg.DataDir).CombinedOutput(); err != nil {
		t.Fatalf("copy the fixture: %v %s", err, out)
	}
	return cfg
}

var (
	fixtureOnce sync.Once
	fixtureDir  string
	fixtureErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if fixtureDir != "" {
		os.RemoveAll(fixtureDir)
	}
	os.Exit(code)
}

func mustBackup(t *testing.T, cfg config.Config, to string) *Manifest {
	t.Helper()
	m, err := Backup(context.Background(), cfg, Options{To: to, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// expectErr fails unless err says want.
func expectErr(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want %q", err, want)
	}
}

// leftovers lists what is in a folder but the names given.
func leftovers(t *testing.T, dir string, keep ...string) []string {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	var out []string
outer:
	for _, e := range entries {
		for _, k := range keep {
			if e.Name() == k {
				continue outer
			}
		}
		out = append(out, e.Name())
	}
	return out
}

// TestRefusals: every bad target or damaged backup is refused with a clear error, and
// nothing is written.
func TestRefusals(t *testing.T) {
	cfg := fixture(t)
	ctx := context.Background()
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	m := mustBackup(t, cfg, good)
	if len(m.Repositories) != 3 || m.Database.Dialect != "sqlite" || m.Database.SchemaVersion == 0 {
		t.Fatalf("manifest %+v", m)
	}
	if _, err := Verify(good); err != nil {
		t.Fatal(err)
	}
	restoreInto := func(t *testing.T, from string) (string, error) {
		rc := config.Defaults()
		rc.DataDir = filepath.Join(t.TempDir(), "restored")
		_, err := Restore(ctx, rc, from, nil)
		if _, statErr := os.Stat(rc.DataDir); err != nil && statErr == nil {
			t.Errorf("a failed restore left %s", rc.DataDir)
		}
		return rc.DataDir, err
	}

	t.Run("backup targets", func(t *testing.T) {
		_, err := Backup(ctx, cfg, Options{To: good})
		expectErr(t, err, "exists and is not empty")
		file := filepath.Join(dir, "there.tar.gz")
		os.WriteFile(file, []byte("x"), 0o600)
		_, err = Backup(ctx, cfg, Options{To: file})
		expectErr(t, err, "exists already")
		_, err = Backup(ctx, cfg, Options{To: filepath.Join(cfg.DataDir, "inside")})
		expectErr(t, err, "must not be inside the data directory")
		_, err = Backup(ctx, cfg, Options{To: filepath.Join(dir, "no", "such", "folder")})
		expectErr(t, err, "does not exist")
		other := cfg
		other.DataDir = filepath.Join(dir, "nothing-here")
		_, err = Backup(ctx, other, Options{To: filepath.Join(dir, "b")})
		expectErr(t, err, "no data directory")
		if got := leftovers(t, dir, "good", "there.tar.gz"); len(got) > 0 {
			t.Errorf("refused backups left %v", got)
		}
	})

	t.Run("non-empty data directory", func(t *testing.T) {
		rc := config.Defaults()
		rc.DataDir = t.TempDir()
		os.WriteFile(filepath.Join(rc.DataDir, "keep.txt"), []byte("mine"), 0o600)
		_, err := Restore(ctx, rc, good, nil)
		expectErr(t, err, "is not empty")
		if got := leftovers(t, rc.DataDir, "keep.txt"); len(got) > 0 {
			t.Errorf("the refused restore wrote %v", got)
		}
	})

	t.Run("missing manifest", func(t *testing.T) {
		cp := copyBackup(t, good)
		os.Remove(filepath.Join(cp, ManifestName))
		_, err := Verify(cp)
		expectErr(t, err, "the backup is incomplete")
		_, err = restoreInto(t, cp)
		expectErr(t, err, "the backup is incomplete")
	})

	t.Run("tampered", func(t *testing.T) {
		for _, c := range []struct {
			name, want string
			tamper     func(dir string)
		}{
			{"a bundle changed", "repos/1.bundle does not match its checksum", func(d string) { appendTo(t, filepath.Join(d, "repos", "1.bundle"), "x") }},
			{"the database changed", "database/portalwright.db does not match its checksum", func(d string) { appendTo(t, filepath.Join(d, "database", "portalwright.db"), "x") }},
			{"a file added", "extra.txt is not in the manifest", func(d string) { os.WriteFile(filepath.Join(d, "extra.txt"), nil, 0o600) }},
			{"a file removed", "repos/2.bundle is missing", func(d string) { os.Remove(filepath.Join(d, "repos", "2.bundle")) }},
			{"a checksum changed", "repos/3.bundle does not match", func(d string) {
				editManifest(t, d, func(m *Manifest) {
					for i := range m.Files {
						if m.Files[i].Path == "repos/3.bundle" {
							m.Files[i].SHA256 = strings.Repeat("0", 64)
						}
					}
				})
			}},
			{"a path out of the backup", "unsafe path", func(d string) {
				editManifest(t, d, func(m *Manifest) {
					m.Files = append(m.Files, File{Path: "../../etc/passwd", SHA256: strings.Repeat("0", 64)})
				})
			}},
			{"a newer schema", "newer than this Portalwright's", func(d string) { editManifest(t, d, func(m *Manifest) { m.Database.SchemaVersion = 1 << 40 }) }},
			{"not JSON", "not valid JSON", func(d string) { os.WriteFile(filepath.Join(d, ManifestName), []byte("{"), 0o600) }},
		} {
			t.Run(c.name, func(t *testing.T) {
				cp := copyBackup(t, good)
				c.tamper(cp)
				_, err := Verify(cp)
				expectErr(t, err, c.want)
				_, err = restoreInto(t, cp)
				expectErr(t, err, c.want)
			})
		}
	})

	t.Run("archive", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "b.tar.gz")
		mustBackup(t, cfg, file)
		if _, err := Verify(file); err != nil {
			t.Fatal(err)
		}
		// Cut short: the manifest, written last, is gone.
		data, _ := os.ReadFile(file)
		cut := filepath.Join(t.TempDir(), "cut.tar.gz")
		os.WriteFile(cut, data[:len(data)/2], 0o600)
		_, err := Verify(cut)
		expectErr(t, err, "damaged or cut short")
		_, err = restoreInto(t, cut)
		expectErr(t, err, "damaged or cut short")
		// Without its manifest entry.
		noManifest := filepath.Join(t.TempDir(), "nomanifest.tar.gz")
		rewriteArchive(t, file, noManifest, func(h *tar.Header) bool { return h.Name != ManifestName })
		_, err = restoreInto(t, noManifest)
		expectErr(t, err, "the backup is incomplete")
		// An entry changed.
		changed := filepath.Join(t.TempDir(), "changed.tar.gz")
		rewriteArchive(t, file, changed, func(h *tar.Header) bool {
			if h.Name == "repos/1.bundle" {
				h.Name = "repos/9.bundle"
			}
			return true
		})
		_, err = restoreInto(t, changed)
		expectErr(t, err, "repos/1.bundle is missing")
	})

	t.Run("another database", func(t *testing.T) {
		rc := config.Defaults()
		rc.DataDir = filepath.Join(t.TempDir(), "restored")
		rc.DatabaseURL = "postgres://nobody@127.0.0.1:1/none"
		_, err := Restore(ctx, rc, good, nil)
		expectErr(t, err, "this backup holds a SQLite database")
		if _, err := os.Stat(rc.DataDir); err == nil {
			t.Error("the refused restore left its data directory")
		}
	})

	t.Run("restores", func(t *testing.T) {
		data, err := restoreInto(t, good)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"portalwright.db", "repos/1.git/HEAD", "repos/2.git/HEAD", "repos/3.git/HEAD"} {
			if _, err := os.Stat(filepath.Join(data, p)); err != nil {
				t.Error(err)
			}
		}
	})
}

// TestFailuresLeaveNothing: a backup that fails (a repository that fails git fsck, a database
// that cannot be read, a full disk) says why and leaves no backup, complete-looking or not.
func TestFailuresLeaveNothing(t *testing.T) {
	ctx := context.Background()
	t.Run("repository fails git fsck", func(t *testing.T) {
		cfg := fixture(t)
		repo := filepath.Join(cfg.DataDir, "repos", "2.git")
		// A blob master's tree names is missing.
		out, err := exec.Command("git", "-C", repo, "ls-tree", "-r", "master").Output()
		if err != nil {
			t.Fatal(err)
		}
		blob := strings.Fields(strings.SplitN(string(out), "\n", 2)[0])[2]
		if out, err := exec.Command("git", "-C", repo, "repack", "-a", "-d", "-q").CombinedOutput(); err != nil {
			t.Fatalf("repack: %v %s", err, out)
		}
		// Keep every object but the blob: unpack the pack without it.
		packs, _ := filepath.Glob(filepath.Join(repo, "objects", "pack", "*.pack"))
		dump := t.TempDir()
		for _, p := range packs {
			os.Rename(p, filepath.Join(dump, filepath.Base(p)))
			os.Remove(strings.TrimSuffix(p, ".pack") + ".idx")
		}
		for _, p := range packs {
			f, _ := os.Open(filepath.Join(dump, filepath.Base(p)))
			cmd := exec.Command("git", "-C", repo, "unpack-objects", "-q")
			cmd.Stdin = f
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("unpack: %v %s", err, out)
			}
			f.Close()
		}
		if err := os.Remove(filepath.Join(repo, "objects", blob[:2], blob[2:])); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		_, err = Backup(ctx, cfg, Options{To: filepath.Join(dir, "b.tar.gz")})
		expectErr(t, err, "portal 2: git fsck of "+repo+" failed")
		if got := leftovers(t, dir); len(got) > 0 {
			t.Errorf("the failed backup left %v", got)
		}
	})

	t.Run("database cannot be read", func(t *testing.T) {
		cfg := fixture(t)
		db := filepath.Join(cfg.DataDir, "portalwright.db")
		os.Remove(db + "-wal")
		os.Remove(db + "-shm")
		if err := os.WriteFile(db, []byte(strings.Repeat("not a database ", 1000)), 0o600); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		_, err := Backup(ctx, cfg, Options{To: filepath.Join(dir, "b")})
		expectErr(t, err, "cannot read the database")
		if got := leftovers(t, dir); len(got) > 0 {
			t.Errorf("the failed backup left %v", got)
		}
	})

	t.Run("disk full", func(t *testing.T) {
		cfg := fixture(t)
		small := t.TempDir()
		if os.Geteuid() != 0 {
			t.Skip("mounting a small file system needs root")
		}
		if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", small).CombinedOutput(); err != nil {
			t.Skipf("cannot mount a small file system here: %v %s", err, out)
		}
		t.Cleanup(func() { exec.Command("umount", small).Run() })
		// Full at the database copy, then after it (the repositories): room for the copy and
		// 8 KiB more.
		fi, err := os.Stat(filepath.Join(cfg.DataDir, "portalwright.db"))
		if err != nil {
			t.Fatal(err)
		}
		after := strconv.FormatInt(fi.Size()/1024+8, 10) + "k"
		for size, targets := range map[string][]string{"64k": {"b", "b.tar.gz"}, after: {"b"}} {
			if out, err := exec.Command("mount", "-o", "remount,size="+size, small).CombinedOutput(); err != nil {
				t.Fatalf("remount: %v %s", err, out)
			}
			for _, to := range targets {
				_, err := Backup(ctx, cfg, Options{To: filepath.Join(small, to)})
				if err == nil || !strings.Contains(err.Error(), syscall.ENOSPC.Error()) {
					t.Fatalf("%s on %s: err = %v, want %q", to, size, err, syscall.ENOSPC.Error())
				}
				t.Logf("%s on %s: %v", to, size, err)
				if got := leftovers(t, small); len(got) > 0 {
					t.Errorf("the failed backup left %v", got)
				}
			}
		}
	})
}

// copyBackup copies a backup folder.
func copyBackup(t *testing.T, dir string) string {
	t.Helper()
	cp := filepath.Join(t.TempDir(), "copy")
	if out, err := exec.Command("cp", "-a", dir, cp).CombinedOutput(); err != nil {
		t.Fatalf("copy: %v %s", err, out)
	}
	return cp
}

func appendTo(t *testing.T, file, s string) {
	f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(s)
	f.Close()
}

func editManifest(t *testing.T, dir string, edit func(*Manifest)) {
	p := filepath.Join(dir, ManifestName)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	edit(&m)
	data, _ = json.Marshal(&m)
	os.WriteFile(p, data, 0o600)
}

// rewriteArchive copies a .tar.gz, entry by entry, keeping those keep says (it may rename them).
func rewriteArchive(t *testing.T, from, to string, keep func(*tar.Header) bool) {
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	zr, err := gzip.NewReader(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	zw := gzip.NewWriter(out)
	tw := tar.NewWriter(zw)
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !keep(h) {
			continue
		}
		tw.WriteHeader(h)
		io.Copy(tw, tr)
	}
	tw.Close()
	zw.Close()
}
