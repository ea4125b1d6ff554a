package workspace

// The refs of a workspace.
//
// A workspace is a `git clone --shared` of the canonical repository: it reads the canonical
// objects directly, so it never needs to fetch anything. It used to `git fetch --prune origin`
// on every open, which made a remote-tracking ref (and its reflog) for every branch of the
// portal in every workspace: a portal with 2,000 branches gave each workspace 2,000 loose refs
// and reflogs (19 MB of .git), and every open paid for the branches nobody was on.
//
// Now a workspace keeps only the refs it needs:
//
//   - refs/remotes/origin/<branch> for the branch it is on and the branch it opens (the names
//     Open, Reset and the discarded-work listing resolve), set from the canonical repository's
//     ref files; other remote-tracking refs (and origin/HEAD) are deleted. Nothing changed: no
//     git process; else one `git update-ref --stdin`.
//   - no reflogs: new clones are made with core.logAllRefUpdates=false (and --single-branch,
//     --no-tags); an older workspace gets the setting and loses its reflogs at its next open.
//   - its refs and loose objects are packed in the background (workspace/upkeep).

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"portalwright/internal/gitcli"
)

// syncOriginRefs points the workspace's remote-tracking refs at the canonical tips of the
// branches given (those that exist) and drops every other one. The caller holds the workspace
// lock.
func (r *Repos) syncOriginRefs(ctx context.Context, portalID int64, dir string, branches ...string) error {
	gitDir := filepath.Join(dir, ".git")
	canonical, _, err := r.refMap(ctx, r.bare(portalID))
	if err != nil {
		return err
	}
	mine, names, err := r.refMap(ctx, gitDir)
	if err != nil {
		return err
	}
	want := map[string]string{}
	for _, b := range branches {
		if sha := canonical["refs/heads/"+b]; b != "" && sha != "" {
			want["refs/remotes/origin/"+b] = sha
		}
	}
	var tx strings.Builder
	for _, name := range names {
		if _, keep := want[name]; strings.HasPrefix(name, "refs/remotes/") && (!keep || name == "refs/remotes/origin/HEAD") {
			tx.WriteString("option no-deref\ndelete " + name + "\n")
		}
	}
	for name, sha := range want {
		if mine[name] != sha {
			tx.WriteString("update " + name + " " + sha + "\n")
		}
	}
	if err := r.noReflogs(ctx, dir); err != nil {
		return err
	}
	if tx.Len() > 0 {
		if _, err := r.run(ctx, dir, gitcli.Command("update-ref", "--stdin").Stdin(strings.NewReader(tx.String()))); err != nil {
			return err
		}
	}
	r.maintainSoon(gitDir)
	r.maintainSoon(r.bare(portalID))
	return nil
}

var reflogsOff = regexp.MustCompile(`(?im)^\s*logallrefupdates\s*=\s*false\s*$`)

// noReflogs turns reflogs off in a workspace made before they were (and removes the ones it
// has): nothing reads them; discarded work is kept under KeptRefs.
func (r *Repos) noReflogs(ctx context.Context, dir string) error {
	config, err := os.ReadFile(filepath.Join(dir, ".git", "config"))
	if err != nil || reflogsOff.Match(config) {
		return nil
	}
	if _, err := r.run(ctx, dir, gitcli.Command("config").Value("core.logAllRefUpdates", "false")); err != nil {
		return err
	}
	return os.RemoveAll(filepath.Join(dir, ".git", "logs"))
}
