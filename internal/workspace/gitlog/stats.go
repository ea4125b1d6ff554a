package gitlog

import (
	"context"
	"path"
	"strconv"
	"strings"
	"time"

	"portalwright/internal/gitcli"
	"portalwright/internal/workspace"
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
func (l *Log) Statistics(ctx context.Context, portalID int64, branch string) (*Statistics, error) {
	bare := l.core.Bare(portalID)
	ref := "refs/heads/" + branch
	if _, err := l.core.Run(ctx, bare, gitcli.Command("rev-parse", "--verify", "-q").Value(ref)); err != nil {
		return nil, workspace.MissingOr(ctx, err, workspace.ErrBranchMissing)
	}
	st := &Statistics{Branch: branch}
	tree, err := l.core.Run(ctx, bare, gitcli.Command("ls-tree", "-r", "-l", "-z").Value(ref))
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
	count, err := l.core.Run(ctx, bare, gitcli.Command("rev-list", "--count").Value(ref))
	if err != nil {
		return nil, err
	}
	st.Commits, _ = strconv.Atoi(strings.TrimSpace(count))
	authors, err := l.core.Run(ctx, bare, gitcli.Command("shortlog", "-s", "-e").Value(ref))
	if err == nil {
		st.Contributors = len(strings.FieldsFunc(authors, func(c rune) bool { return c == '\n' }))
	}
	last, err := l.core.Run(ctx, bare, gitcli.Command("log", "-1", "--format=%H%x1f%an%x1f%cI").Value(ref))
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
