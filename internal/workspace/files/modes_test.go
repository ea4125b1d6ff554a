package files

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"portalwright/internal/workspace"
	"portalwright/internal/workspace/workspacetest"
)

// Issue 30 item 1 on real repositories: every write keeps a file's mode.

// Git's modes of regular files.
const (
	modeFile       = "100644"
	modeExecutable = "100755"
)

func TestWritesKeepFileModes(t *testing.T) {
	ctx := context.Background()
	r := workspacetest.NewRepos(t)
	portal := workspacetest.Starter()
	for name, content := range map[string]string{
		"bin/save.sh": "#!/bin/sh\necho save\n", "bin/each.sh": "#!/bin/sh\necho each\n",
		"bin/files.sh": "#!/bin/sh\necho files\n", "bin/upload.sh": "#!/bin/sh\necho upload\n",
		"bin/move.sh": "#!/bin/sh\necho move\n",
	} {
		portal[name] = &fstest.MapFile{Data: []byte(content), Mode: 0o755}
	}
	if err := r.Core().CreateFromFiles(ctx, 1, portal, "Executables", workspace.SystemAuthor); err != nil {
		t.Fatal(err)
	}
	bare := r.Core().Bare(1)
	branchMode := func(name string) string {
		t.Helper()
		mode, _, _ := strings.Cut(workspacetest.GitOut(t, r, bare, "ls-tree", "refs/heads/"+workspace.DefaultBranch, name), " ")
		return mode
	}
	diskMode := func(name string) string {
		t.Helper()
		fi, err := os.Lstat(filepath.Join(r.WorkspaceDir(2, 1), filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm()&0o100 != 0 {
			return modeExecutable
		}
		return modeFile
	}
	workspacetest.Open(t, r, 2, workspace.DefaultBranch)
	version := func(name string) workspace.Version {
		_, v, err := New(r).ReadFile(2, 1, workspace.MustPath(name))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	// save (the asset, JSON, translation and page saves all end here)
	if _, _, err := New(r).WriteFile(ctx, 2, 1, workspace.MustPath("bin/save.sh"), []byte("#!/bin/sh\necho saved\n"), version("bin/save.sh")); err != nil {
		t.Fatal(err)
	}
	// a new file beside executables is git's 100644
	if _, _, err := New(r).WriteFile(ctx, 2, 1, workspace.MustPath("bin/new.sh"), []byte("#!/bin/sh\n"), workspace.NoVersion); err != nil {
		t.Fatal(err)
	}
	// all or nothing (translations)
	if _, _, err := New(r).WriteFiles(ctx, 2, 1, []workspace.FileWrite{{Path: workspace.MustPath("bin/files.sh"), Data: []byte("#!/bin/sh\necho files!\n"), Base: version("bin/files.sh")}}); err != nil {
		t.Fatal(err)
	}
	// batch (the designer's batch save)
	if _, errs, _, err := New(r).WriteEach(ctx, 2, 1, []workspace.FileWrite{{Path: workspace.MustPath("bin/each.sh"), Data: []byte("#!/bin/sh\necho each!\n"), Base: version("bin/each.sh")}}); err != nil || errs[0] != nil {
		t.Fatal(err, errs)
	}
	// upload over an existing file, and a new upload
	if _, err := New(r).WriteStream(ctx, 2, 1, workspace.MustPath("bin/upload.sh"), strings.NewReader("#!/bin/sh\necho uploaded\n"), 1<<20); err != nil {
		t.Fatal(err)
	}
	if _, err := New(r).WriteStream(ctx, 2, 1, workspace.MustPath("bin/uploaded-new.sh"), strings.NewReader("#!/bin/sh\n"), 1<<20); err != nil {
		t.Fatal(err)
	}
	// move
	if _, err := New(r).Move(ctx, 2, 1, workspace.MustPath("bin/move.sh"), workspace.MustPath("tools/moved.sh"), version("bin/move.sh")); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"bin/save.sh": modeExecutable, "bin/files.sh": modeExecutable, "bin/each.sh": modeExecutable,
		"bin/upload.sh": modeExecutable, "tools/moved.sh": modeExecutable, "bin/new.sh": modeFile, "bin/uploaded-new.sh": modeFile}
	for name, mode := range want {
		if got := diskMode(name); got != mode {
			t.Errorf("in the workspace %s is %s, want %s", name, got, mode)
		}
	}
	// The review shows no mode change for a saved file.
	if sides, err := r.Collab().ReviewFile(ctx, 2, 1, workspace.MustPath("bin/save.sh")); err != nil || sides.ModeBefore != modeExecutable || sides.ModeAfter != modeExecutable {
		t.Fatalf("review of a save: %+v %v", sides, err)
	}
	if _, err := r.Commit(ctx, 2, 1, "Edit executables", workspacetest.Bob); err != nil {
		t.Fatal(err)
	}
	for name, mode := range want {
		if got := branchMode(name); got != mode {
			t.Errorf("on the branch %s is %q, want %s", name, got, mode)
		}
	}
	if out := workspacetest.GitOut(t, r, bare, "show", "--summary", "--format=%s", "refs/heads/"+workspace.DefaultBranch); strings.Contains(out, "mode change") {
		t.Fatalf("the commit changed a mode:\n%s", out)
	}
}
