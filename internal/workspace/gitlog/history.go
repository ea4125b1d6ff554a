// Package gitlog reads the logs of a portal's canonical repository: a branch's newest commits
// with the files each changed (the history), and the commits that changed one file with its
// blobs (the history of one value). Tips are read from the ref files; nothing is written.
package gitlog

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"time"

	"portalwright/internal/gitcli"
	"portalwright/internal/workspace"
)

// Log reads the logs of the core's canonical repositories.
type Log struct{ core workspace.Core }

// New reads the logs of core's repositories.
func New(core workspace.Core) *Log { return &Log{core: core} }

// commitID is a commit id, short or whole.
var commitID = regexp.MustCompile(`^[0-9a-f]{7,64}$`)

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
// so a missing portal or branch is workspace.ErrBranchMissing without running git.
func (l *Log) History(ctx context.Context, portalID int64, branch string, limit int) ([]HistoryCommit, error) {
	if limit <= 0 {
		limit = DefaultHistoryLimit
	}
	limit = min(limit, MaxHistoryLimit)
	bare, ok := l.core.CanonicalRepo(portalID)
	if !workspace.ValidRefName(branch) || !ok {
		return nil, workspace.ErrBranchMissing
	}
	tip := l.core.Tip(portalID, branch)
	if tip == "" {
		return nil, workspace.ErrBranchMissing
	}
	out, err := l.core.Git().Run(ctx, bare, gitcli.Command("log", "--no-renames", "--name-status", "-z").
		Option("--max-count", strconv.Itoa(limit)).
		Option("--format", logFormat).
		Value(tip).Paths())
	if err != nil {
		if _, ok := l.core.CanonicalRepo(portalID); !ok {
			return nil, workspace.ErrBranchMissing
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
		return workspace.ChangeAdd
	case 'D':
		return workspace.ChangeDelete
	default:
		return workspace.ChangeModify
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
