package gitlog

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"portalwright/internal/gitcli"
	"portalwright/internal/workspace"
)

// The commits of a branch of the canonical repository that changed one file, following its
// renames, with the file's blob before and after each, for the history of one value
// (internal/valuehistory). One git process lists them (git log --follow), one more reads the
// blobs (cat-file --batch).
//
// Merges: the walk is git's default history simplification over the full history, not
// first-parent: a change made on a side branch shows as its own commit with its real author;
// a merge shows only when its file differs from every parent's (a conflict resolved by hand:
// combined diff, -c), with one "before" blob per parent. A side branch whose changes to the
// file the merge did not keep is not walked (the merge is the same as its other parent).
// --topo-order puts every commit before its parents, which the value walk relies on.

// FileChange is one commit that changed a file.
type FileChange struct {
	Commit  string
	Author  string
	Email   string
	Time    time.Time
	Message string
	Path    string   // the file's path after the commit
	OldPath string   // its path before (a rename), else Path
	Before  []string // the blob before, per parent ("" absent); one for a plain commit
	After   string   // the blob after ("" deleted)
}

// zeroBlob is git's id of "no blob".
const zeroBlob = "0000000000000000000000000000000000000000"

// BranchTip is the commit branch points at in the portal's canonical repository, read from
// its ref files; workspace.ErrBranchMissing when the portal or the branch does not exist.
func (l *Log) BranchTip(portalID int64, branch string) (string, error) {
	if _, ok := l.core.CanonicalRepo(portalID); !workspace.ValidRefName(branch) || !ok {
		return "", workspace.ErrBranchMissing
	}
	tip := l.core.Tip(portalID, branch)
	if tip == "" {
		return "", workspace.ErrBranchMissing
	}
	return tip, nil
}

// FileLog lists, newest first, the commits from tip (a full commit id, as BranchTip gives)
// that changed path, following its renames.
func (l *Log) FileLog(ctx context.Context, portalID int64, tip string, p workspace.Path) ([]FileChange, error) {
	bare, ok := l.core.CanonicalRepo(portalID)
	if !commitID.MatchString(tip) || !ok {
		return nil, workspace.ErrUnknownCommit
	}
	out, err := l.core.Git().Run(ctx, bare, gitcli.Command("log", "--follow", "--topo-order", "-c", "--raw", "-z", "--no-abbrev").
		Option("--format", logFormat).
		Value(tip).Paths(p.String()).Env("GIT_LITERAL_PATHSPECS", "1")) // a name is a name, not a pattern
	if err != nil {
		return nil, workspace.MissingOr(ctx, err, workspace.ErrUnknownCommit)
	}
	return parseFileLog(string(out)), nil
}

// parseFileLog reads FileLog's output: per commit a header token ("\x1e" then fields split by
// "\x1f"), then raw diff records, each a status token then one path (two for a rename or
// copy), all ended by NUL. A plain record's status token is ":mode mode old new S"; a
// merge's combined one "::mode… blob… new SS".
func parseFileLog(out string) []FileChange {
	changes := []FileChange{}
	tokens := strings.Split(out, "\x00")
	var c *FileChange
	for i := 0; i < len(tokens); i++ {
		tok := strings.TrimLeft(tokens[i], "\n")
		if header, ok := strings.CutPrefix(tok, "\x1e"); ok {
			c = nil
			if h, ok := parseHeader(header); ok {
				changes = append(changes, FileChange{Commit: h.CommitID, Author: h.Author, Email: h.Email, Time: h.Time, Message: h.Message})
				c = &changes[len(changes)-1]
			}
			continue
		}
		if c == nil || !strings.HasPrefix(tok, ":") || i+1 >= len(tokens) {
			continue
		}
		colons := len(tok) - len(strings.TrimLeft(tok, ":"))
		f := strings.Fields(tok[colons:])
		// colons parents: modes (parents+1), blobs (parents+1), status.
		if len(f) != 2*(colons+1)+1 {
			continue
		}
		blobs := f[colons+1 : 2*colons+2]
		status := f[len(f)-1]
		i++
		c.Path, c.OldPath = tokens[i], tokens[i]
		if colons == 1 && (status[0] == 'R' || status[0] == 'C') && i+1 < len(tokens) {
			i++
			c.Path = tokens[i]
		}
		c.Before = c.Before[:0]
		for _, b := range blobs[:colons] {
			c.Before = append(c.Before, blobOrAbsent(b))
		}
		c.After = blobOrAbsent(blobs[colons])
	}
	// A commit listed without a record of the file (a merge the same as a parent) changed
	// nothing of it.
	kept := changes[:0]
	for _, ch := range changes {
		if ch.Path != "" {
			kept = append(kept, ch)
		}
	}
	return kept
}

func blobOrAbsent(id string) string {
	if id == zeroBlob {
		return ""
	}
	return id
}

// Blobs reads blobs of the portal's canonical repository by id, in one git process
// (cat-file --batch, read as it streams: each blob is copied once, into its own buffer); ids
// that are missing are left out.
func (l *Log) Blobs(ctx context.Context, portalID int64, ids []string) (map[string][]byte, error) {
	bare, ok := l.core.CanonicalRepo(portalID)
	if !ok {
		return nil, workspace.ErrBranchMissing
	}
	want := make([]string, 0, len(ids))
	for _, id := range ids {
		if commitID.MatchString(id) && !slices.Contains(want, id) {
			want = append(want, id)
		}
	}
	bw := &blobWriter{blobs: make(map[string][]byte, len(want))}
	if len(want) == 0 {
		return bw.blobs, nil
	}
	err := l.core.Git().Stream(ctx, bare, gitcli.Command("cat-file", "--batch").Stdin(strings.NewReader(strings.Join(want, "\n")+"\n")), bw)
	if err == nil && (bw.cur != nil || len(bw.head) > 0) {
		err = fmt.Errorf("cat-file: output cut short")
	}
	return bw.blobs, err
}

// blobWriter parses cat-file --batch output as it arrives: "<id> blob <size>\n<content>\n",
// or "<id> missing\n".
type blobWriter struct {
	blobs map[string][]byte
	head  []byte // a header line being read
	id    string
	cur   []byte // the blob being read (nil: between blobs)
	need  int    // bytes of cur (and its newline) still to come
}

func (w *blobWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if w.cur != nil || w.need > 0 {
			if k := min(len(p), w.need); k > 0 {
				if len(w.cur) < cap(w.cur) {
					take := min(k, cap(w.cur)-len(w.cur))
					w.cur = append(w.cur, p[:take]...)
				}
				w.need -= k
				p = p[k:]
			}
			if w.need == 0 {
				w.blobs[w.id] = w.cur
				w.cur = nil
			}
			continue
		}
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.head = append(w.head, p...)
			break
		}
		line := string(append(w.head, p[:i]...))
		w.head, p = w.head[:0], p[i+1:]
		f := strings.Fields(line)
		if len(f) != 3 {
			continue // "<id> missing"
		}
		size, err := strconv.Atoi(f[2])
		if err != nil || size < 0 {
			return 0, fmt.Errorf("cat-file: bad header %q", line)
		}
		w.id, w.cur, w.need = f[0], make([]byte, 0, size), size+1 // the content and its newline
	}
	return n, nil
}
