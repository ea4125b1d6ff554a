package workspace

import (
	"context"
	"path"
	"strconv"
	"strings"
	"time"

	"portalwright/internal/gitcli"
)

// Statistics describe a branch of a portal.
type Statistics struct {
	Branch       string    `json:"branch"`
	Files        int       `json:"files"`
	Bytes        int64     `json:"bytes"`
	Pages        int       `json:"pages"` // files under pages/
	Commits      int       `json:"commits"`
	Contributors int       `json:"contributors"`
	LastCommit   string    `json:"lastCommit"`
	LastAuthor   string    `json:"lastAuthor"`
	LastModified time.Time `json:"lastModified"`
}

// Statistics reads the branch from the canonical repository.
func (r *Repos) Statistics(ctx context.Context, portalID int64, branch string) (*Statistics, error) {
	bare := r.bare(portalID)
	ref := "refs/heads/" + branch
	if ok, err := r.hasBranch(ctx, portalID, branch); err != nil {
		return nil, err
	} else if !ok {
		return nil, ErrBranchMissing
	}
	st := &Statistics{Branch: branch}
	tree, err := r.run(ctx, bare, gitcli.Command("ls-tree", "-r", "-l", "-z").Value(ref))
	if err != nil {
		return nil, err
	}
	for _, entry := range strings.Split(tree, "\x00") {
		meta, name, ok := strings.Cut(entry, "\t")
		if !ok {
			continue
		}
		f := strings.Fields(meta)
		if len(f) < 4 || f[1] != "blob" {
			continue
		}
		st.Files++
		if n, err := strconv.ParseInt(f[3], 10, 64); err == nil {
			st.Bytes += n
		}
		if strings.HasPrefix(name, "pages/") && path.Ext(name) == ".html" {
			st.Pages++
		}
	}
	count, err := r.run(ctx, bare, gitcli.Command("rev-list", "--count").Value(ref))
	if err != nil {
		return nil, err
	}
	st.Commits, _ = strconv.Atoi(strings.TrimSpace(count))
	authors, err := r.run(ctx, bare, gitcli.Command("shortlog", "-s", "-e").Value(ref))
	if err == nil {
		st.Contributors = len(lines(authors))
	}
	last, err := r.run(ctx, bare, gitcli.Command("log", "-1", "--format=%H%x1f%an%x1f%cI").Value(ref))
	if err != nil {
		return nil, err
	}
	if f := strings.Split(strings.TrimSpace(last), "\x1f"); len(f) == 3 {
		st.LastCommit, st.LastAuthor = f[0], f[1]
		st.LastModified, _ = time.Parse(time.RFC3339, f[2])
		st.LastModified = st.LastModified.UTC()
	}
	return st, nil
}

// CheckAll runs the content check over every tracked and new file of the workspace.
func (r *Repos) CheckAll(ctx context.Context, userID, portalID int64) ([]string, error) {
	dir, unlock, err := r.openWorkspace(ctx, userID, portalID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	out, err := r.git.Run(ctx, dir, gitcli.Command("ls-files", "-z", "--cached", "--others", "--exclude-standard"))
	if err != nil {
		return nil, err
	}
	files := map[string]string{}
	for _, f := range nulFields(out) {
		files[f] = ChangeModify
	}
	warnings := checkContent(dir, files, r.schemaCheck)
	if warnings == nil {
		warnings = []string{}
	}
	return warnings, nil
}
