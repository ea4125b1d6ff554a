package gitssh

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"

	"portalwright/internal/caller"
	"portalwright/internal/gitcli"
	"portalwright/internal/validate"
)

// How a push is checked.
//
// git receive-pack first lists the repository's refs; the client answers with its ref
// updates ("<old> <new> <ref>" pkt-lines up to a flush packet), then sends the pack. The
// server reads that command list itself before passing it on, decides, and writes its
// verdict to a file named in the environment of receive-pack. The pre-receive hook below
// (core.hooksPath points at the server's own directory, so no hook of the repository ever
// runs) prints the verdict and refuses unless it is exactly "ok". git runs the hook after it
// received the pack and before any ref moves, with the new objects still in quarantine: a
// refused push changes nothing. The hook fails closed: no verdict, no push.

const preReceiveHook = `#!/bin/sh
# Written by Portalwright (internal/gitssh). The SSH server checked this push's ref updates
# before git read them and left its verdict in $PORTALWRIGHT_PUSH_VERDICT.
verdict=$(cat "$PORTALWRIGHT_PUSH_VERDICT" 2>/dev/null)
[ "$verdict" = ok ] && exit 0
[ -n "$verdict" ] && printf '%s\n' "$verdict" >&2 || echo "Portalwright: push refused" >&2
exit 1
`

// update is one ref update of a push.
type update struct{ Old, New, Ref string }

const maxUpdates = 1000 // ref updates in one push

// receive runs git receive-pack under the portal's lock and announces the branches that moved.
func (s *Server) receive(ctx context.Context, log *slog.Logger, c caller.Caller, req Request, repo string, ch ssh.Channel, protocol string) uint32 {
	canCreate, err := s.deps.Access.Allowed(ctx, c, "branch:c", strconv.FormatInt(req.DomainID, 10))
	if err != nil {
		log.Error("ssh: permission check failed", "error", err)
		fmt.Fprintln(ch.Stderr(), errInternal.Error())
		return 1
	}
	verdict, err := os.CreateTemp(filepath.Join(s.cfg.WorkDir, "verdicts"), "push-*")
	if err != nil {
		log.Error("ssh: cannot make a verdict file", "error", err)
		fmt.Fprintln(ch.Stderr(), errInternal.Error())
		return 1
	}
	verdict.Close()
	defer os.Remove(verdict.Name())

	unlock, err := s.deps.Repos.LockPortal(ctx, req.PortalID)
	if err != nil {
		fmt.Fprintln(ch.Stderr(), errInternal.Error())
		return 1
	}
	before, err := s.branches(ctx, repo)
	if err != nil {
		unlock()
		log.Error("ssh: cannot list branches", "error", err)
		fmt.Fprintln(ch.Stderr(), errInternal.Error())
		return 1
	}
	cmd := gitcli.Command("receive-pack").Value(repo).
		Config("core.hooksPath", s.hookDir).
		Config("receive.denyNonFastForwards", "true").
		Config("receive.denyDeletes", "true").
		Config("receive.fsckObjects", "true").
		Config("receive.autogc", "false").
		Config("receive.advertisePushOptions", "false").
		Config("receive.maxInputSize", strconv.FormatInt(s.cfg.MaxPushBytes, 10)).
		Env("PORTALWRIGHT_PUSH_VERDICT", verdict.Name())
	status := s.run(ctx, log, cmd, protocol, ch, func(w *os.File) {
		gatePush(ch, w, verdict.Name(), func(u []update) []string { return checkUpdates(u, canCreate) })
	})
	// The push may have landed even if the client has gone since: still announce it.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	after, err := s.branches(ctx, repo)
	unlock()
	if err != nil {
		log.Error("ssh: cannot list branches", "error", err)
		return status
	}
	for branch, commit := range after {
		if before[branch] != commit {
			log.Info("ssh: pushed", "branch", branch, "commit", commit)
			if s.deps.Events != nil {
				s.deps.Events.Pushed(ctx, c, req.DomainID, req.PortalID, branch, commit)
			}
		}
	}
	return status
}

// branches maps each branch of the repository to its commit.
func (s *Server) branches(ctx context.Context, repo string) (map[string]string, error) {
	out, err := s.deps.Repos.Git().Run(ctx, repo, gitcli.Command("for-each-ref").Option("--format", "%(objectname) %(refname)").Value("refs/heads/"))
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if id, ref, ok := strings.Cut(line, " "); ok {
			m[strings.TrimPrefix(ref, "refs/heads/")] = id
		}
	}
	return m, nil
}

// gatePush reads the client's command list from in, writes the verdict of check on it, then
// passes the list and the rest of the stream to w (receive-pack's input). A malformed list
// is not passed on: receive-pack then ends without changing anything.
func gatePush(in io.Reader, w io.Writer, verdictFile string, check func([]update) []string) {
	br := bufio.NewReaderSize(in, 64<<10)
	var raw bytes.Buffer
	updates, err := readCommands(br, &raw)
	verdict := "ok"
	if err != nil {
		verdict = "Portalwright: " + err.Error()
	} else if problems := check(updates); len(problems) > 0 {
		verdict = strings.Join(problems, "\n")
	}
	if werr := os.WriteFile(verdictFile, []byte(verdict), 0o600); werr != nil || err != nil {
		return
	}
	if _, err := w.Write(raw.Bytes()); err != nil {
		return
	}
	_, _ = io.Copy(w, br)
}

// readCommands reads pkt-lines up to the first flush packet, keeping their bytes in raw,
// and returns the ref updates among them ("shallow" lines are passed on as they are).
func readCommands(r *bufio.Reader, raw *bytes.Buffer) ([]update, error) {
	var out []update
	for {
		var head [4]byte
		if _, err := io.ReadFull(r, head[:]); err != nil {
			return nil, errors.New("the push ended before its ref updates")
		}
		raw.Write(head[:])
		n, err := strconv.ParseUint(string(head[:]), 16, 16)
		if err != nil || (n > 0 && n < 4) || n > 65520 {
			return nil, errors.New("malformed push request")
		}
		if n == 0 { // flush: the end of the command list
			return out, nil
		}
		line := make([]byte, n-4)
		if _, err := io.ReadFull(r, line); err != nil {
			return nil, errors.New("the push ended before its ref updates")
		}
		raw.Write(line)
		text := strings.TrimSuffix(string(line), "\n")
		if i := strings.IndexByte(text, 0); i >= 0 {
			text = text[:i] // the first command carries the capabilities after a NUL
		}
		if strings.HasPrefix(text, "shallow ") {
			continue
		}
		if strings.HasPrefix(text, "push-cert") {
			return nil, errors.New("signed pushes are not accepted")
		}
		f := strings.Split(text, " ")
		if len(f) != 3 || !isObjectID(f[0]) || !isObjectID(f[1]) || f[2] == "" {
			return nil, errors.New("malformed push request")
		}
		if len(out) == maxUpdates {
			return nil, fmt.Errorf("a push may update at most %d refs", maxUpdates)
		}
		out = append(out, update{Old: f[0], New: f[1], Ref: f[2]})
	}
}

func isObjectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func isZero(id string) bool { return strings.Trim(id, "0") == "" }

// checkUpdates applies the branch rules to a push's ref updates and says what is refused.
func checkUpdates(updates []update, canCreate bool) []string {
	var problems []string
	for _, u := range updates {
		name, ok := strings.CutPrefix(u.Ref, "refs/heads/")
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("Portalwright: refusing %s: only branches (refs/heads/…) can be pushed", u.Ref))
		case validate.BranchName(name) != nil:
			problems = append(problems, fmt.Sprintf("Portalwright: refusing branch %q: %s", name, validate.MsgBranchName))
		case isZero(u.New):
			problems = append(problems, fmt.Sprintf("Portalwright: refusing to delete branch %s: delete branches in Portalwright", name))
		case isZero(u.Old) && !canCreate:
			problems = append(problems, fmt.Sprintf("Portalwright: refusing to create branch %s: you do not have the permission to create branches (branch:c)", name))
		}
	}
	return problems
}
