// Package workspacetest holds the fixtures the tests of the role packages under
// internal/workspace share: repositories in a temporary folder, a starter portal, a user's
// workspace with edits.
package workspacetest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"portalwright/internal/gitcli"
	"portalwright/internal/workspace"
)

// Ann and Bob author the tests' commits.
var (
	Ann = workspace.Author{Name: "Ann Author", Email: "ann@example.com"}
	Bob = workspace.Author{Name: "Bob Builder", Email: "bob@example.com"}
)

// NewRepos makes repositories under a temporary folder. The tests' git servers listen on
// loopback, so private hosts are allowed, as an operator would for a git server on the
// internal network.
func NewRepos(t *testing.T) *workspace.Repos {
	t.Helper()
	g, err := gitcli.New(context.Background(), gitcli.Options{Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return workspace.NewRepos(g, gitcli.NewLocks(), t.TempDir()).AllowPrivateGitHosts(true)
}

// Starter is a small portal's files.
func Starter() fstest.MapFS {
	return fstest.MapFS{
		"portal.json":     {Data: []byte(`{"engineType":"PORTAL_ENGINE"}`)},
		"index.html":      {Data: []byte(`<html><img src="assets/logo.svg"></html>`)},
		"assets/logo.svg": {Data: []byte(`<svg/>`)},
		"pages/home.html": {Data: []byte("<p>home</p>\n")},
	}
}

// Portal makes portal 1 from the starter files.
func Portal(t *testing.T, r *workspace.Repos) {
	t.Helper()
	if err := r.Core().CreateFromFiles(context.Background(), 1, Starter(), "Create portal", workspace.SystemAuthor); err != nil {
		t.Fatal(err)
	}
}

// Write writes a file into the user's workspace of portal 1, behind git's back.
func Write(t *testing.T, r *workspace.Repos, user int64, name, content string) {
	t.Helper()
	p := filepath.Join(r.WorkspaceDir(user, 1), filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Open opens the user's workspace of portal 1 on branch.
func Open(t *testing.T, r *workspace.Repos, user int64, branch string) *workspace.Status {
	t.Helper()
	st, err := r.Open(context.Background(), user, 1, branch, false)
	if err != nil {
		t.Fatalf("open %d %s: %v", user, branch, err)
	}
	return st
}
