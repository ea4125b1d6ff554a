// Package valuehistory is the history of one value — a translation key in one or every
// language, a JSON pointer in a content file or widget instance, a page's file — over the
// commits of the branch the author's workspace is on, its blame (every value of a file with
// the change that last made it what it is), and the restore of one value as it was after a
// chosen commit (docs/api.md "Value history").
//
// Rules:
//   - Built on git and the structural compare, never on a copy of values: the commits that
//     changed the file come from gitlog.Log.FileLog (git log --follow: renames followed;
//     merges: full history with git's simplification — a side branch's change at its own
//     commit, a merge only when it differs from every parent), the values from the file's
//     versions read by JSON pointer (merge.Doc; array items followed by identity), the blame
//     from merge.Compare between versions. A commit is listed only where the value changed.
//   - The author's uncommitted work comes first when the value there differs from the
//     branch tip's.
//   - Reading a value's history needs what reading the value needs (the route's permission:
//     translation:r, asset:r, page:r); a restore needs what saving it needs and goes through
//     the same save as the editor (translation.Service, asset.Service, page.Service): the
//     same checks, versions and events. A restore changes that one value and nothing else of
//     the file, as an uncommitted change of the author's workspace.
//   - Caches (bounded by size) are keyed by what makes an answer: the branch tip and file
//     for the commit list, the tip, file and value's pointer there for a history, the tip
//     and the author's version of the file for a blame; so a second call reads no git.
package valuehistory

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"portalwright/internal/apperr"
	"portalwright/internal/asset"
	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/merge"
	"portalwright/internal/page"
	"portalwright/internal/portalaccess"
	"portalwright/internal/translation"
	"portalwright/internal/workspace"
	"portalwright/internal/workspace/gitlog"
)

// Files is the caller's workspace: its files (*editing.Files), its branch and author
// (*editing.Workspace).
type Files interface {
	Read(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path) ([]byte, workspace.Version, error)
	Write(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path, data []byte, base workspace.Version, name string) (workspace.Version, error)
	Branch(c caller.Caller, pa portalaccess.Portal) string
	// Author is who the caller's commits are by (their uncommitted work is shown as theirs).
	Author(ctx context.Context, c caller.Caller) workspace.Author
}

// Git reads the canonical repository: *gitlog.Log.
type Git interface {
	BranchTip(portalID int64, branch string) (string, error)
	FileLog(ctx context.Context, portalID int64, tip string, p workspace.Path) ([]gitlog.FileChange, error)
	Blobs(ctx context.Context, portalID int64, ids []string) (map[string][]byte, error)
}

// Cache sizes.
const (
	logCacheBytes     = 16 << 20
	historyCacheBytes = 32 << 20
	blobCacheBytes    = 32 << 20
	blameCacheBytes   = 32 << 20
)

// Service answers value histories and blames.
type Service struct {
	files   Files
	git     Git
	ed      Editors
	logs    *lru[[]gitlog.FileChange]
	entries *lru[[]Entry]
	blobs   *lru[[]byte]
	blames  *lru[[]Row]
}

// Translations is the Translation Manager: *translation.Service.
type Translations interface {
	Get(ctx context.Context, c caller.Caller, pa portalaccess.Portal) (*translation.Translations, error)
	Save(ctx context.Context, c caller.Caller, pa portalaccess.Portal, req translation.SaveRequest) (*translation.Saved, error)
}

// Assets saves a file as the JSON editor does: *asset.Service.
type Assets interface {
	Save(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path, data string, base workspace.Version) (*asset.Asset, error)
}

// Pages reads and saves a page as the Page Manager does: *page.Service.
type Pages interface {
	Get(ctx context.Context, c caller.Caller, pa portalaccess.Portal, id string) (*page.Page, error)
	Update(ctx context.Context, c caller.Caller, pa portalaccess.Portal, req page.UpdateRequest) (*page.Page, error)
}

// Editors are the saves a restore goes through.
type Editors struct {
	Translations Translations
	Assets       Assets
	Pages        Pages
}

// NewService reads the caller's workspace through files and the repository through git, and
// restores values through the editors' saves.
func NewService(files Files, git Git, ed Editors) *Service {
	return &Service{files: files, git: git, ed: ed,
		logs: newLRU[[]gitlog.FileChange](logCacheBytes), entries: newLRU[[]Entry](historyCacheBytes),
		blobs: newLRU[[]byte](blobCacheBytes), blames: newLRU[[]Row](blameCacheBytes)}
}

var errNotJSON = apperr.NewError(http.StatusUnprocessableEntity, "NOT_JSON", "Unprocessable Entity",
	"The file is not JSON: its values cannot be told apart. Use the file's history in the commit list instead.")

// Codes of the value history calls.
const (
	CodeNotInHistory = "VALUE_NOT_IN_HISTORY"
	CodeNotOpen      = "PORTAL_NOT_OPEN"
)

func cleanPath(p string) (workspace.Path, error) {
	wp, err := workspace.CleanPath(strings.TrimPrefix(p, "/"))
	if err != nil || wp == workspace.Root {
		return workspace.Path{}, apperr.BadRequest("INVALID_PATH", "The file path is not a path of a file in the portal.")
	}
	return wp, nil
}

func checkPointer(ptr string) error {
	if _, err := merge.SplitPointer(ptr); err != nil {
		return apperr.BadRequest("INVALID_POINTER", "The pointer must be a JSON pointer: empty for the whole file, else '/' then the keys and item indexes separated by '/' (~1 for a '/' in a key, ~0 for '~').")
	}
	return nil
}

// state is what a call starts from: the author's version of the file, the branch tip and the
// commits that changed the file.
type state struct {
	path    workspace.Path
	work    *version
	version workspace.Version
	tip     string
	changes []gitlog.FileChange
	tipFile *version
}

func (s *Service) load(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path) (*state, error) {
	branch := s.files.Branch(c, pa)
	if branch == "" {
		return nil, apperr.Conflict(CodeNotOpen, "Open the portal first: the history is of the branch your workspace is on.")
	}
	st := &state{path: p, work: absent, tipFile: absent}
	raw, v, err := s.files.Read(ctx, c, pa, p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, editing.FileError(err, p.String())
	default:
		st.work, st.version = newVersion(raw, true), v
	}
	if st.tip, err = s.git.BranchTip(pa.ID(), branch); err != nil {
		return nil, apperr.NotFound("BRANCH_DOES_NOT_EXIST_IN_PORTAL", "The branch does not exist in this portal.")
	}
	logKey := strconv.FormatInt(pa.ID(), 10) + "\x00" + st.tip + "\x00" + p.String()
	var ok bool
	if st.changes, ok = s.logs.get(logKey); !ok {
		if st.changes, err = s.git.FileLog(ctx, pa.ID(), st.tip, p); err != nil {
			return nil, err
		}
		s.logs.put(logKey, st.changes, 256+len(st.changes)*320)
	}
	if len(st.changes) > 0 && st.changes[0].After != "" {
		id := st.changes[0].After
		raw, ok := s.blobs.get(id)
		if !ok {
			got, err := s.git.Blobs(ctx, pa.ID(), []string{id})
			if err != nil {
				return nil, err
			}
			raw = got[id]
			s.blobs.put(id, raw, len(raw))
		}
		st.tipFile = newVersion(raw, raw != nil)
	}
	return st, nil
}

func (s *Service) reader(ctx context.Context, pa portalaccess.Portal) Blobs {
	return func(ids []string) (map[string][]byte, error) { return s.git.Blobs(ctx, pa.ID(), ids) }
}

// history is the value's history in one file: the author's uncommitted change first.
func (s *Service) history(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path, t Target) ([]Entry, error) {
	st, err := s.load(ctx, c, pa, p)
	if err != nil {
		return nil, err
	}
	entries := []Entry{}
	var tipPtr string
	if st.work.exists {
		w := t.start(st.work)
		tipPtr, _ = t.locate(st.work, w, st.tipFile)
		if !t.same(st.work, w, st.tipFile, tipPtr) {
			entries = append(entries, withDiff(Entry{Change: uncommitted(s.files.Author(ctx, c)), Path: p.String(),
				Old: t.value(st.tipFile, tipPtr), New: t.value(st.work, w)}))
		}
	} else {
		tipPtr = t.start(st.tipFile)
		if st.tipFile.exists {
			entries = append(entries, Entry{Change: uncommitted(s.files.Author(ctx, c)), Path: p.String(), Old: t.value(st.tipFile, tipPtr)})
		}
	}
	key := strings.Join([]string{strconv.FormatInt(pa.ID(), 10), st.tip, p.String(), t.Key, strconv.FormatBool(t.Whole), tipPtr}, "\x00")
	committed, ok := s.entries.get(key)
	if !ok {
		if committed, err = Walk(t, st.tipFile, tipPtr, st.changes, s.reader(ctx, pa)); err != nil {
			return nil, err
		}
		s.entries.put(key, committed, sizeOf(committed))
	}
	return append(entries, committed...), nil
}

func sizeOf(entries []Entry) int {
	n := 256
	for _, e := range entries {
		n += 256 + len(e.Message) + len(e.Path)
		if e.Old != nil {
			n += len(*e.Old)
		}
		if e.New != nil {
			n += len(*e.New)
		}
		for _, h := range e.Diff {
			for _, l := range h.Lines {
				n += 32 + len(l.Text)
			}
		}
	}
	return n
}

// History is the answer of a value history.
type History struct {
	Path    string  `json:"path"` // the file (a translation history of every language: "")
	Pointer string  `json:"pointer,omitempty"`
	Key     string  `json:"key,omitempty"`
	Entries []Entry `json:"entries"`
}

// FileValue is the history of the value at pointer in a file ("" the whole file).
func (s *Service) FileValue(ctx context.Context, c caller.Caller, pa portalaccess.Portal, path, pointer string) (*History, error) {
	p, err := cleanPath(path)
	if err != nil {
		return nil, err
	}
	if err := checkPointer(pointer); err != nil {
		return nil, err
	}
	t := Target{Pointer: pointer, Whole: pointer == ""}
	entries, err := s.history(ctx, c, pa, p, t)
	if err != nil {
		return nil, err
	}
	return &History{Path: p.String(), Pointer: pointer, Entries: entries}, nil
}

// pick is the value a restore writes: the value after commit in entries.
func pick(entries []Entry, commit string) (*string, error) {
	if commit != "" {
		for _, e := range entries {
			if e.Commit == commit || (len(commit) >= 7 && strings.HasPrefix(e.Commit, commit)) {
				return e.New, nil
			}
		}
	}
	return nil, apperr.NotFound(CodeNotInHistory, "That commit did not change this value on your branch: choose a commit of its history.")
}

// Blame is the answer of a blame.
type Blame struct {
	Path string `json:"path"`
	Rows []Row  `json:"rows"`
}

// FileBlame explains every value of a JSON file of the author's workspace.
func (s *Service) FileBlame(ctx context.Context, c caller.Caller, pa portalaccess.Portal, path string) (*Blame, error) {
	p, err := cleanPath(path)
	if err != nil {
		return nil, err
	}
	return s.blame(ctx, c, pa, p, false)
}

func (s *Service) blame(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path, translation bool) (*Blame, error) {
	st, err := s.load(ctx, c, pa, p)
	if err != nil {
		return nil, err
	}
	if !st.work.exists {
		return nil, editing.FileError(fs.ErrNotExist, p.String())
	}
	key := strings.Join([]string{strconv.FormatInt(pa.ID(), 10), st.tip, p.String(), string(st.version), c.Username}, "\x00")
	rows, ok := s.blames.get(key)
	if !ok {
		if rows, err = BlameWalk(p.String(), translation, st.work, st.tipFile, st.changes, s.reader(ctx, pa), s.files.Author(ctx, c)); err != nil {
			return nil, err
		}
		n := 256
		for _, r := range rows {
			n += 160 + len(r.Pointer) + len(r.Path) + len(r.Message)
			if r.Value != nil {
				n += len(*r.Value)
			}
		}
		s.blames.put(key, rows, n)
	}
	return &Blame{Path: p.String(), Rows: slices.Clone(rows)}, nil
}
