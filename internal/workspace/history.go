package workspace

import (
	"context"
	"strconv"
	"strings"
	"time"

	"portalwright/internal/gitcli"
)

// History limits: a page of commits and the files listed per commit (a commit that touches
// thousands of files reports how many there were instead of listing them all).
const (
	DefaultHistoryLimit = 20
	MaxHistoryLimit     = 100
	MaxFilesPerCommit   = 50
)

// HistoryFile is one file a commit changed: its path and ADD, MODIFY or DELETE.
type HistoryFile struct {
	Path   string `json:"path"`
	Change string `json:"change"`
}

// HistoryCommit is one commit of a branch's history in the canonical repository.
type HistoryCommit struct {
	CommitID string        `json:"commitId"`
	Author   string        `json:"author"`
	Email    string        `json:"email"`
	Time     time.Time     `json:"time"`
	Message  string        `json:"message"`
	Files    []HistoryFile `json:"files"`
	// FilesTotal is how many files the commit changed; Files holds at most MaxFilesPerCommit.
	FilesTotal int `json:"filesTotal"`
}

// History lists the newest commits of a branch of the canonical repository with the files
// each changed, newest first, in one git process. The branch tip is read from the ref files,
// so a missing portal or branch is ErrBranchMissing without running git.
func (r *Repos) History(ctx context.Context, portalID int64, branch string, limit int) ([]HistoryCommit, error) {
	if limit <= 0 {
		limit = DefaultHistoryLimit
	}
	limit = min(limit, MaxHistoryLimit)
	bare := r.bare(portalID)
	if !ValidRefName(branch) || !exists(bare) {
		return nil, ErrBranchMissing
	}
	tip := tipOf(bare, branch)
	if tip == "" {
		return nil, ErrBranchMissing
	}
	out, err := r.git.Run(ctx, bare, gitcli.Command("log", "--no-renames", "--name-status", "-z").
		Option("--max-count", strconv.Itoa(limit)).
		Option("--format", logFormat).
		Value(tip).Paths())
	if err != nil {
		if !exists(bare) {
			return nil, ErrBranchMissing
		}
		return nil, err
	}
	return parseHistory(string(out)), nil
}

// parseHistory reads git's -z output: per commit a header token ("\x1e" then fields split by
// "\x1f", the subject last) and then (status, path) token pairs, all ended by NUL. Reading
// tokens in order means neither a subject nor a path can be mistaken for a record start
// (a path follows its status; only a token in status position can start a record).
func parseHistory(out string) []HistoryCommit {
	commits := []HistoryCommit{}
	tokens := strings.Split(out, "\x00")
	var c *HistoryCommit
	for i := 0; i < len(tokens); i++ {
		tok := strings.TrimLeft(tokens[i], "\n")
		if header, ok := strings.CutPrefix(tok, "\x1e"); ok {
			c = nil
			if h, ok := parseHeader(header); ok {
				h.Files = []HistoryFile{}
				commits = append(commits, h)
				c = &commits[len(commits)-1]
			}
			continue
		}
		if tok == "" || c == nil || i+1 >= len(tokens) {
			continue
		}
		i++ // the path
		c.FilesTotal++
		if len(c.Files) < MaxFilesPerCommit {
			c.Files = append(c.Files, HistoryFile{Path: tokens[i], Change: changeOf(tok)})
		}
	}
	return commits
}

func changeOf(status string) string {
	switch status[0] {
	case 'A':
		return ChangeAdd
	case 'D':
		return ChangeDelete
	default:
		return ChangeModify
	}
}

// logFormat is the header of a commit in the logs read here: "\x1e", then id, author, e-mail,
// author date and subject split by "\x1f".
const logFormat = "%x1e%H%x1f%an%x1f%ae%x1f%aI%x1f%s"

// parseHeader reads a header token (without its "\x1e").
func parseHeader(header string) (HistoryCommit, bool) {
	f := strings.SplitN(header, "\x1f", 5)
	if len(f) != 5 {
		return HistoryCommit{}, false
	}
	t, _ := time.Parse(time.RFC3339, f[3])
	return HistoryCommit{CommitID: f[0], Author: f[1], Email: f[2], Time: t.UTC(), Message: f[4]}, true
}
