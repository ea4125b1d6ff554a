package workspace_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"portalwright/internal/gitcli"
	"portalwright/internal/workspace"
	"portalwright/internal/workspace/workspacetest"
)

func TestImportOpensOnTheRemoteDefaultBranch(t *testing.T) {
	ctx := context.Background()
	r := workspacetest.NewRepos(t)
	served := t.TempDir()
	bare := workspacetest.BareRepo(t, r, served, "site", "main", func(w string) {
		os.WriteFile(filepath.Join(w, "index.html"), []byte("<p>site</p>"), 0o644)
	})
	if _, err := r.Core().Git().Run(ctx, bare, gitcli.Command("branch").Value("feature/dark-mode", "main")); err != nil {
		t.Fatal(err)
	}
	url := "git://127.0.0.1:" + workspacetest.ServeDaemon(t, served) + "/site.git"
	st, err := r.Core().StageURL(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Discard()
	if b, err := st.StartBranch(ctx, ""); err != nil || b != "main" {
		t.Fatalf("default branch %q %v", b, err)
	}

	// Failures say why.
	var re *workspace.RemoteError
	if _, err := r.Core().StageURL(ctx, "git://127.0.0.1:"+workspacetest.FreePort(t)+"/none.git", nil); !errors.As(err, &re) || re.Failure != workspace.RemoteUnreachable {
		t.Fatalf("closed port: %v", err)
	}
	if _, err := r.Core().StageURL(ctx, strings.TrimSuffix(url, "site.git")+"missing.git", nil); !errors.As(err, &re) || re.Failure != workspace.RemoteNotRepository {
		t.Fatalf("missing repository: %v", err)
	}
	empty := filepath.Join(served, "empty.git")
	if _, err := r.Core().Git().Run(ctx, served, gitcli.Command("init", "-q", "--bare").Value(empty)); err != nil {
		t.Fatal(err)
	}
	st2, err := r.Core().StageURL(ctx, strings.TrimSuffix(url, "site.git")+"empty.git", nil)
	if err == nil {
		defer st2.Discard()
		_, err = st2.StartBranch(ctx, "")
	}
	if !errors.As(err, &re) || re.Failure != workspace.RemoteEmpty {
		t.Fatalf("empty repository: %v", err)
	}
}
