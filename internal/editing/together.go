package editing

// Working together (issue 21): the conflicts of a commit and their resolution, discarded work
// and its restore, the review of what a commit changes, and the merge of an editor's unsaved
// edit into a file that changed under it. The git work is in internal/workspace (threeway.go,
// conflicts.go, discarded.go, review.go); the merge rules in internal/merge.

import (
	"context"
	"errors"
	"io/fs"
	"strings"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/merge"
	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
)

// Codes and messages of the conflict calls.
const (
	CodeTipMoved     = "CONFLICT_TIP_MOVED"
	MsgTipMoved      = "The branch changed while you were resolving. Review the conflicts again."
	CodeUnresolved   = "CONFLICTS_UNRESOLVED"
	CodeMergeInvalid = "MERGE_INVALID"
	CodeNoDiscarded  = "DISCARDED_WORK_NOT_FOUND"
	MsgNoDiscarded   = "This discarded work does not exist (it may have expired)."
)

// Conflicts describes what stands between the caller's commit and the branch.
func (f *Together) Conflicts(ctx context.Context, c caller.Caller, pa portalaccess.Portal) (*workspace.ConflictState, error) {
	st, err := f.collab.Conflicts(ctx, c.UserID, pa.ID())
	return st, GitError(err)
}

// ConflictFile is one conflicting file in full, for the resolution screen.
type ConflictFile struct {
	Path      string           `json:"path"`
	Kind      merge.Kind       `json:"kind"`
	Binary    bool             `json:"binary"`
	Base      *string          `json:"base"`
	Mine      *string          `json:"mine"`
	Theirs    *string          `json:"theirs"`
	Schema    *string          `json:"schema"`
	Conflicts []merge.Conflict `json:"conflicts"`
}

// ConflictFile reads base, mine and theirs of one file and merges them.
func (f *Together) ConflictFile(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path) (*ConflictFile, error) {
	v, err := f.collab.ConflictFileVersions(ctx, c.UserID, pa.ID(), p)
	if err != nil {
		return nil, GitError(err)
	}
	res, err := merge.Merge(p.String(), v.Base, v.Mine, v.Theirs, merge.Options{})
	if err != nil {
		return nil, err
	}
	out := &ConflictFile{Path: p.String(), Kind: res.Kind, Binary: res.Kind == merge.KindBinary, Conflicts: res.Conflicts}
	if !out.Binary {
		out.Base, out.Mine, out.Theirs = text(v.Base), text(v.Mine), text(v.Theirs)
	}
	out.Schema = text(v.Schema)
	return out, nil
}

func text(b []byte) *string {
	if b == nil {
		return nil
	}
	s := string(b)
	return &s
}

// Resolve answers the conflicts and publishes the result as one commit.
func (f *Together) Resolve(ctx context.Context, c caller.Caller, pa portalaccess.Portal, tip string, choices workspace.MergeChoices) (*CommitAnswer, error) {
	res, err := f.collab.Resolve(ctx, c.UserID, pa.ID(), strings.TrimSpace(tip), choices, f.ws.Author(ctx, c))
	var unresolved *workspace.UnresolvedError
	switch {
	case errors.Is(err, workspace.ErrTipMoved):
		return nil, apperr.Conflict(CodeTipMoved, MsgTipMoved)
	case errors.As(err, &unresolved) && unresolved.Invalid != "":
		return nil, apperr.BadRequest(CodeMergeInvalid, unresolved.Path+": "+unresolved.Invalid).
			WithData(map[string]any{"path": unresolved.Path, "unresolved": unresolved.Unresolved})
	case errors.As(err, &unresolved):
		return nil, apperr.BadRequest(CodeUnresolved, "Choose a version for every conflict in "+unresolved.Path+" before committing.").
			WithData(map[string]any{"path": unresolved.Path, "unresolved": unresolved.Unresolved})
	case err != nil:
		return nil, GitError(err)
	}
	if !res.Committed {
		f.ws.Changed(ctx, c, pa) // the workspace is on the branch now; nothing was committed
		return &CommitAnswer{CommitResult: res, Message: MsgNothingLeft}, nil
	}
	f.committed(ctx, c, pa, res.CommitID)
	ans := &CommitAnswer{CommitResult: res, UpstreamWarning: f.pushUpstream(ctx, pa, f.repos.CurrentBranch(c.UserID, pa.ID()))}
	if len(res.RuleWarnings) > 0 {
		ans.Code, ans.Message = CodeWarnings, MsgValidationWarn
	}
	return ans, nil
}

// DiscardedWork lists the caller's discarded work in the portal.
func (f *Together) DiscardedWork(ctx context.Context, c caller.Caller, pa portalaccess.Portal) ([]workspace.Discarded, error) {
	list, err := f.collab.DiscardedWork(ctx, c.UserID, pa.ID())
	return list, GitError(err)
}

// RestoreDiscarded brings discarded work back as uncommitted changes and announces them.
func (f *Together) RestoreDiscarded(ctx context.Context, c caller.Caller, pa portalaccess.Portal, id string) (*workspace.Restored, error) {
	res, err := f.collab.RestoreDiscarded(ctx, c.UserID, pa.ID(), id)
	if errors.Is(err, workspace.ErrNoDiscarded) {
		return nil, apperr.NotFound(CodeNoDiscarded, MsgNoDiscarded)
	}
	if err != nil {
		return nil, GitError(err)
	}
	f.publish(ctx, c, pa, res.Status)
	return res, nil
}

// Review is one file's change for the review view.
type Review struct {
	Path   string      `json:"path"`
	Change string      `json:"change"`
	Kind   merge.Kind  `json:"kind"`
	Image  bool        `json:"image"`
	Page   bool        `json:"page"`
	Diff   *merge.Diff `json:"diff"`
	Before *string     `json:"before"`
	After  *string     `json:"after"`
	// TooLarge: a side is over workspace.ReviewMaxBytes; the diff is not computed.
	TooLarge bool `json:"tooLarge"`
	// ModeChange is set when the file's git mode changes (100644 → 100755 and back).
	ModeChange *ModeChange `json:"modeChange,omitempty"`
}

// ModeChange is a file's git mode before and after.
type ModeChange struct {
	Old string `json:"old"`
	New string `json:"new"`
}

// reviewTextMax bounds the texts sent with a review (pages rendered before and after).
const reviewTextMax = 1 << 20

// ReviewFiles lists what a workspace's next commit changes (the caller's, or userID's when
// not zero) or, with a commit id, what that commit changed.
func (f *Together) ReviewFiles(ctx context.Context, c caller.Caller, pa portalaccess.Portal, userID int64, commit string) (map[string]string, error) {
	var files map[string]string
	var err error
	if commit != "" {
		files, err = f.collab.CommitFiles(ctx, pa.ID(), commit)
	} else {
		files, err = f.collab.ReviewFiles(ctx, reviewUser(c, userID), pa.ID())
	}
	return files, reviewError(err)
}

// ReviewFile describes one file's change (see ReviewFiles for who and what).
func (f *Together) ReviewFile(ctx context.Context, c caller.Caller, pa portalaccess.Portal, userID int64, commit string, p workspace.Path) (*Review, error) {
	sides, err := f.ReviewSides(ctx, c, pa, userID, commit, p)
	if err != nil {
		return nil, err
	}
	rv := &Review{Path: p.String(), Change: workspace.ChangeModify, TooLarge: sides.TooLarge,
		Image: isImage(p.String()), Page: strings.HasPrefix(p.String(), "pages/") && strings.HasSuffix(p.String(), ".html")}
	switch {
	case !sides.BeforeExists && !sides.AfterExists:
		return nil, apperr.NotFound("FILE_NOT_FOUND", "The file "+p.String()+" is not changed here.")
	case !sides.BeforeExists:
		rv.Change = workspace.ChangeAdd
	case !sides.AfterExists:
		rv.Change = workspace.ChangeDelete
	}
	if sides.ModeBefore != "" && sides.ModeAfter != "" && sides.ModeBefore != sides.ModeAfter {
		rv.ModeChange = &ModeChange{Old: sides.ModeBefore, New: sides.ModeAfter}
	}
	if !sides.TooLarge {
		rv.Diff = merge.Compare(p.String(), sidesOrNil(sides.Before, sides.BeforeExists), sidesOrNil(sides.After, sides.AfterExists))
		rv.Kind = rv.Diff.Kind
		if !rv.Diff.Binary {
			if len(sides.Before) <= reviewTextMax {
				rv.Before = text(sidesOrNil(sides.Before, sides.BeforeExists))
			}
			if len(sides.After) <= reviewTextMax {
				rv.After = text(sidesOrNil(sides.After, sides.AfterExists))
			}
		}
	} else {
		rv.Kind = merge.KindOf(p.String(), nil)
	}
	return rv, nil
}

// ReviewSides reads a file before and after (see ReviewFiles for who and what).
func (f *Together) ReviewSides(ctx context.Context, c caller.Caller, pa portalaccess.Portal, userID int64, commit string, p workspace.Path) (*workspace.ReviewSides, error) {
	var sides *workspace.ReviewSides
	var err error
	if commit != "" {
		sides, err = f.collab.CommitFile(ctx, pa.ID(), commit, p)
	} else {
		sides, err = f.collab.ReviewFile(ctx, reviewUser(c, userID), pa.ID(), p)
	}
	return sides, reviewError(err)
}

func sidesOrNil(b []byte, exists bool) []byte {
	if !exists {
		return nil
	}
	if b == nil {
		return []byte{}
	}
	return b
}

func reviewUser(c caller.Caller, userID int64) int64 {
	if userID != 0 {
		return userID
	}
	return c.UserID
}

func reviewError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, workspace.ErrUnknownCommit):
		return apperr.NotFound("UNKNOWN_COMMIT", "The commit does not exist in this portal.")
	case errors.Is(err, workspace.ErrNoWorkspace):
		return apperr.NotFound("NO_WORKSPACE", "That user has no workspace of this portal.")
	case errors.Is(err, workspace.ErrBadPath):
		return apperr.BadRequest("INVALID_PATH", "The path is not a file path inside the portal.")
	}
	return GitError(err)
}

func isImage(p string) bool {
	switch strings.ToLower(p[strings.LastIndex(p, ".")+1:]) {
	case "png", "jpg", "jpeg", "gif", "webp", "svg", "bmp", "ico":
		return true
	}
	return false
}

// EditMerge is the merge of an editor's unsaved edit into the file as it is now.
type EditMerge struct {
	Kind       merge.Kind        `json:"kind"`
	Merged     *string           `json:"merged"`
	Theirs     string            `json:"theirs"`
	Version    workspace.Version `json:"version"`
	Conflicts  []merge.Conflict  `json:"conflicts"`
	Unresolved int               `json:"unresolved"`
}

// MergeEdit merges an editor's text (mine, edited from base) into the workspace's current
// file with the same merge as commits; choices answer its conflicts. Nothing is written:
// the editor saves the merged text with the returned version.
func (f *Together) MergeEdit(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path, base, mine string, choices map[string]merge.Choice) (*EditMerge, error) {
	theirs, version, err := f.files.ReadFile(c.UserID, pa.ID(), p)
	if errors.Is(err, fs.ErrNotExist) {
		theirs, version, err = nil, workspace.NoVersion, nil
	}
	if err != nil {
		return nil, FileError(err, p.String())
	}
	opts := merge.Options{Choices: choices}
	if schemaPath, err := workspace.CleanPath(p.String() + ".schema"); err == nil {
		if schema, _, err := f.files.ReadFile(c.UserID, pa.ID(), schemaPath); err == nil {
			opts.Validate = f.collab.SchemaValidator(schema)
		}
	}
	res, err := merge.Merge(p.String(), []byte(base), []byte(mine), theirs, opts)
	if err != nil {
		return nil, err
	}
	out := &EditMerge{Kind: res.Kind, Theirs: string(theirs), Version: version, Conflicts: res.Conflicts, Unresolved: res.Unresolved}
	if out.Conflicts == nil {
		out.Conflicts = []merge.Conflict{} // a list is never null (docs/api.md)
	}
	if res.Unresolved == 0 && !res.Deleted {
		out.Merged = text(res.Merged)
		if out.Merged == nil {
			empty := ""
			out.Merged = &empty
		}
	}
	return out, nil
}
