package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"strings"
	"testing"

	"portalwright"
)

func runCLI(t *testing.T, env map[string]string, stdin string, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(stdin), &out, &errOut, func(k string) string { return env[k] })
	return out.String() + errOut.String(), err
}

func TestVersionAndHelp(t *testing.T) {
	out, err := runCLI(t, nil, "", "version")
	if err != nil || strings.TrimSpace(out) != portalwright.BackendVersion() {
		t.Fatalf("version: %q %v", out, err)
	}
	for _, args := range [][]string{{"serve", "--help"}, {"migrate", "--help"}, {"user", "create", "--help"}, {"backup", "--help"}, {"restore", "--help"}, {"--help"}} {
		out, err := runCLI(t, nil, "", args...)
		if !errors.Is(err, flag.ErrHelp) || !strings.Contains(out, "Usage: portalwright") || !strings.Contains(out, "-data-dir") {
			t.Errorf("%v: %v\n%s", args, err, out)
		}
	}
	out, err = runCLI(t, nil, "", "help")
	for _, command := range []string{"[serve]", "migrate", "user create", "check", "verify-loadable", "backup", "restore", "verify-backup", "version"} {
		if err != nil || !strings.Contains(out, "portalwright "+command) {
			t.Errorf("help does not list %q: %v %q", command, err, out)
		}
	}
	for _, command := range []string{"check", "verify-loadable", "backup", "restore", "verify-backup"} {
		if out, err := runCLI(t, nil, "", command, "--help"); !errors.Is(err, flag.ErrHelp) || !strings.Contains(out, "Usage: portalwright "+command) {
			t.Errorf("%s --help: %v %q", command, err, out)
		}
	}
	if _, err := runCLI(t, nil, "", "frobnicate"); err == nil || !strings.Contains(err.Error(), `unknown command "frobnicate"`) {
		t.Errorf("unknown command: %v", err)
	}
}

func TestMigrateAndUserCreate(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"PORTALWRIGHT_DATA_DIR": dir}
	if out, err := runCLI(t, env, "", "migrate"); err != nil || !strings.Contains(out, "is up to date") {
		t.Fatalf("migrate: %v %q", err, out)
	}
	out, err := runCLI(t, env, "", "user", "create", "--username", "bob", "--password", "secret1")
	if err != nil || !strings.Contains(out, `Created user "bob"`) {
		t.Fatalf("user create: %v %q", err, out)
	}
	out, err = runCLI(t, env, "topsecret\n", "user", "create", "--username", "carol", "--password-stdin", "--admin")
	if err != nil || !strings.Contains(out, `Created administrator "carol"`) {
		t.Fatalf("user create --admin: %v %q", err, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"user", "create", "--username", "bob", "--password", "secret1"}, "already exists"},
		{[]string{"user", "create", "--username", "-x", "--password", "secret1"}, "Username not valid"},
		{[]string{"user", "create", "--username", "dave", "--password", "123"}, "at least 5 characters"},
		{[]string{"user", "create", "--username", "dave"}, "a password is required"},
		{[]string{"user", "create", "--password", "secret1"}, "--username is required"},
		{[]string{"user", "delete"}, "usage: portalwright user create"},
	} {
		if _, err := runCLI(t, env, "", c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err = %v, want %q", c.args, err, c.want)
		}
	}
	if _, err := runCLI(t, map[string]string{"PORTALWRIGHT_DATA_DIR": dir, "PORTALWRIGHT_LOG_FORMAT": "xml"}, "", "migrate"); err == nil {
		t.Error("a bad setting must stop the command")
	}
}

// TestBackupCommands: the commands' own checks, before any work (the work: internal/backup).
func TestBackupCommands(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"PORTALWRIGHT_DATA_DIR": dir}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"backup"}, "--to is required"},
		{[]string{"restore"}, "--from is required"},
		{[]string{"verify-backup"}, "usage: portalwright verify-backup"},
		{[]string{"verify-backup", dir}, "has no manifest.json: the backup is incomplete"},
		{[]string{"restore", "--from", dir, "--data-dir", t.TempDir()}, "has no manifest.json"},
	} {
		if _, err := runCLI(t, env, "", c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err = %v, want %q", c.args, err, c.want)
		}
	}
}
