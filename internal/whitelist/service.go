// Package whitelist is the portal's whitelist (spec 3 §2 "Whitelist screen", §3 "Whitelist
// entry", §5, §7 "Whitelist", §8 'Could not load Whitelist'): the external URLs a portal may
// load, kept in whitelist.json at the top of the portal ({"whitelist":[{"url":"https://…"}]}),
// so it is versioned per branch like any content; and the portal check, which finds every
// external URL in the caller's workspace and says whether the whitelist allows it.
//
// Safety rules:
//   - every file access goes through editing.Files (the workspace file layer: checked
//     paths, links never followed, atomic versioned writes under the workspace lock); the only
//     file written is the constant whitelist.json: user input never becomes a path;
//   - a save checks every entry first (http:// or https:// with a host, trimmed, at most
//     MaxURLLength characters, at most MaxEntries entries; duplicates dropped) and changes
//     nothing when one fails (400 naming the entry); it is based on the version read: a stale
//     baseVersion is a 409 FILE_CHANGED with the current version, a missing one a 428;
//   - the check reads files with editing.Files.ReadMany (a bounded pool of workers, links
//     never followed), each at most MaxScanFile bytes (larger ones are skipped, not read), in at
//     most MaxScanDirs folders, and keeps at most MaxURLs distinct URLs with at most MaxUsages
//     places each (the answer says truncated): a huge or hostile portal cannot exhaust memory;
//   - .git, the task runner's output folder (outputPath, default pw-dist) and node_modules are
//     not scanned, nor whitelist.json and portal.json themselves (settings and the whitelist
//     are not content a portal loads).
package whitelist

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/portalaccess"
	"portalwright/internal/validate"
	"portalwright/internal/workspace"
)

// File is the whitelist's file at the top of the portal.
const File = "whitelist.json"

// Limits.
const (
	MaxEntries   = 2000
	MaxURLLength = 2048
	MaxScanFile  = 2 << 20 // bytes; larger files are skipped
	MaxScanDirs  = 10000
	MaxURLs      = 5000
	MaxUsages    = 50 // places listed per URL
)

// Messages and codes.
const (
	MsgCouldNotLoad  = "Could not load Whitelist"
	CodeInvalidFile  = "WHITELIST_INVALID"
	CodeInvalidEntry = "VALIDATION_ERROR"
	CodeVersion      = "VERSION_REQUIRED"
)

var filePath = workspace.MustPath(File)

// Entry is a whitelist entry (spec 3 §3: url; further fields not shown).
type Entry struct {
	URL string `json:"url"`
}

// Whitelist is the answer of get-whitelist and save-whitelist: the entries and the version of
// whitelist.json a save must be based on ("0" when the file does not exist).
type Whitelist struct {
	Whitelist []Entry `json:"whitelist"`
	Version   string  `json:"version"`
}

// SaveRequest is the body of save-whitelist.
type SaveRequest struct {
	Whitelist   []Entry `json:"whitelist"`
	BaseVersion *string `json:"baseVersion"`
}

// Usage is a place a URL is used: a file of the workspace and a 1-based line.
type Usage struct {
	Path string `json:"path"`
	Line int    `json:"line"`
}

// CheckedURL is one external URL of the portal.
type CheckedURL struct {
	URL     string  `json:"url"`
	Allowed bool    `json:"allowed"`
	UsedIn  []Usage `json:"usedIn"`
}

// Check is the answer of check-portal: every external URL found (not-allowed ones first, then
// by URL), how many are not allowed, how many files were scanned, and whether a limit cut the
// list (then more URLs or places exist than are listed).
type Check struct {
	URLs       []CheckedURL `json:"urls"`
	NotAllowed int          `json:"notAllowed"`
	Scanned    int          `json:"scanned"`
	Truncated  bool         `json:"truncated"`
}

// fileFormat is whitelist.json.
type fileFormat struct {
	Whitelist []Entry `json:"whitelist"`
}

// Service is the whitelist over the editing unit.
type Service struct {
	ws *editing.Workspace
}

// NewService returns the whitelist service.
func NewService(ws *editing.Workspace) *Service { return &Service{ws: ws} }

// Parse reads whitelist.json: entries with a url (others are dropped), in file order.
func Parse(data []byte) ([]Entry, error) {
	var f fileFormat
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	out := make([]Entry, 0, len(f.Whitelist))
	for _, e := range f.Whitelist {
		if u := strings.TrimSpace(e.URL); u != "" {
			out = append(out, Entry{URL: u})
		}
	}
	return out, nil
}

// Encode is whitelist.json as saved: indented by two spaces, ending with a newline, URLs as
// written (no HTML escaping of &).
func Encode(entries []Entry) ([]byte, error) {
	if entries == nil {
		entries = []Entry{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(fileFormat{Whitelist: entries}); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Normalize checks a save's entries: each trimmed, an http:// or https:// URL with a host
// (validate.URL, the spec's message), at most MaxURLLength characters; duplicates dropped
// (first kept); at most MaxEntries. The error is a 400 naming the entry (data {index, url}).
func Normalize(in []Entry) ([]Entry, error) {
	out := make([]Entry, 0, len(in))
	seen := make(map[string]bool, len(in))
	for i, e := range in {
		u := strings.TrimSpace(e.URL)
		bad := func(msg string) error {
			shown := u
			if utf8.RuneCountInString(shown) > 100 {
				shown = string([]rune(shown)[:100]) + "…"
			}
			return apperr.BadRequest(CodeInvalidEntry, msg).WithData(map[string]any{"index": i, "url": shown})
		}
		if len(u) > MaxURLLength {
			return nil, bad(fmt.Sprintf("A whitelist URL may be at most %d characters long.", MaxURLLength))
		}
		if u == "" || validate.URL(u) != nil || strings.ContainsAny(u, "\x00\"<>\\") {
			return nil, bad(validate.MsgURL)
		}
		if seen[u] {
			continue
		}
		seen[u] = true
		out = append(out, Entry{URL: u})
	}
	if len(out) > MaxEntries {
		return nil, apperr.BadRequest(CodeInvalidEntry, fmt.Sprintf("A whitelist may hold at most %d URLs.", MaxEntries))
	}
	return out, nil
}

// read reads whitelist.json of the caller's workspace: raw is nil and the version NoVersion
// when it does not exist.
func (s *Service) read(ctx context.Context, c caller.Caller, pa portalaccess.Portal) (raw []byte, version workspace.Version, err error) {
	data, v, err := s.ws.Files().Read(ctx, c, pa, filePath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, workspace.NoVersion, nil
	}
	if err != nil {
		return nil, v, editing.FileError(err, File)
	}
	return data, v, nil
}

func unreadable(version workspace.Version) error {
	return apperr.NewError(http.StatusUnprocessableEntity, CodeInvalidFile, MsgCouldNotLoad,
		"whitelist.json is not a JSON object like {\"whitelist\":[{\"url\":\"https://…\"}]}. Correct it in the file explorer, or save a new whitelist over it.").
		WithData(map[string]string{"path": File, "currentVersion": string(version)})
}

// Get reads the whitelist of the caller's workspace; a missing file is an empty list.
func (s *Service) Get(ctx context.Context, c caller.Caller, pa portalaccess.Portal) (*Whitelist, error) {
	raw, version, err := s.read(ctx, c, pa)
	if err != nil {
		return nil, err
	}
	entries := []Entry{}
	if raw != nil {
		if entries, err = Parse(raw); err != nil {
			return nil, unreadable(version)
		}
	}
	return &Whitelist{Whitelist: entries, Version: string(version)}, nil
}

// Save writes the whitelist into the caller's workspace (a local change to commit), based on
// the version it was read at. Entries are checked first (Normalize); a missing baseVersion is
// a 428, a stale one a 409 FILE_CHANGED with data.currentVersion, and nothing is written. A
// save that changes nothing writes nothing (its base must still be current).
func (s *Service) Save(ctx context.Context, c caller.Caller, pa portalaccess.Portal, req SaveRequest) (*Whitelist, error) {
	entries, err := Normalize(req.Whitelist)
	if err != nil {
		return nil, err
	}
	if req.BaseVersion == nil || *req.BaseVersion == "" {
		return nil, apperr.NewError(http.StatusPreconditionRequired, CodeVersion, "Precondition Required",
			"The save does not say which version of the whitelist it was based on (baseVersion). Reload and try again.")
	}
	base := workspace.Version(*req.BaseVersion)
	data, err := Encode(entries)
	if err != nil {
		return nil, err
	}
	raw, current, err := s.read(ctx, c, pa)
	if err != nil {
		return nil, err
	}
	if bytes.Equal(raw, data) {
		if base != current {
			return nil, editing.FileError(&workspace.ErrStale{Current: current}, File)
		}
		return &Whitelist{Whitelist: entries, Version: string(current)}, nil
	}
	version, err := s.ws.Files().Write(ctx, c, pa, filePath, data, base, File)
	if err != nil {
		return nil, err
	}
	return &Whitelist{Whitelist: entries, Version: string(version)}, nil
}

// skipDir says whether a folder (a workspace path) is not scanned.
func skipDir(p, output string) bool {
	name := path.Base(p)
	return p == output || p == "pw-dist" || strings.EqualFold(name, ".git") || name == "node_modules"
}

// Scanned says whether the portal check reads a file (p: its path from the portal root,
// output: the task runner's output folder) and whether its content is markup (HTML or CSS,
// whose character references are decoded): the files of the scan's kinds, outside the folders
// it skips, except whitelist.json and portal.json. The readiness check (internal/check) scans
// the same files.
func Scanned(p, output string) (scan, markup bool) {
	if p == File || p == editing.SettingsFile {
		return false, false
	}
	for i := strings.IndexByte(p, '/'); i >= 0; i = next(p, i) {
		if skipDir(p[:i], output) {
			return false, false
		}
	}
	kind := kindOf(p, "")
	return kind != "", kind == KindPage || kind == KindHTML || kind == KindCSS
}

// next is the index of the first '/' of p after i, or -1.
func next(p string, i int) int {
	j := strings.IndexByte(p[i+1:], '/')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

// folders lists the workspace's folders to scan, breadth first from the top (at most
// MaxScanDirs; truncated says some were left).
func (s *Service) folders(ctx context.Context, c caller.Caller, pa portalaccess.Portal, output string) (dirs []workspace.Path, truncated bool, err error) {
	queue := []workspace.Path{workspace.Root}
	for len(queue) > 0 {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		d := queue[0]
		queue = queue[1:]
		if len(dirs) >= MaxScanDirs {
			return dirs, true, nil
		}
		dirs = append(dirs, d)
		list, err := s.ws.Files().List(ctx, c, pa, d)
		if err != nil {
			if d == workspace.Root {
				return nil, false, err
			}
			continue // removed meanwhile
		}
		for _, fi := range list {
			if !fi.Dir || skipDir(fi.Path, output) {
				continue
			}
			if p, err := workspace.CleanPath(fi.Path); err == nil {
				queue = append(queue, p)
			}
		}
	}
	return dirs, false, nil
}

// CheckPortal finds every external URL of the caller's workspace (pages, other HTML, widget
// data, translations, other JSON, CSS; see Extract) and compares it with the whitelist.
func (s *Service) CheckPortal(ctx context.Context, c caller.Caller, pa portalaccess.Portal) (*Check, error) {
	wl, err := s.Get(ctx, c, pa)
	if err != nil {
		return nil, err
	}
	urls := make([]string, len(wl.Whitelist))
	for i, e := range wl.Whitelist {
		urls[i] = e.URL
	}
	match := NewMatcher(urls)
	output, trDir := editing.DefaultOutputPath, editing.DefaultTranslations
	if st, _, err := s.ws.Settings(ctx, c, pa); err == nil { // unreadable settings: the defaults
		if o := path.Clean(st.TaskRunnerSettings.OutputPath); o != "." && o != "" {
			output = o
		}
		if t := path.Clean(st.LanguageSettings.TranslationsBasePath); t != "" {
			trDir = t
		}
	}
	dirs, truncated, err := s.folders(ctx, c, pa, output)
	if err != nil {
		return nil, err
	}
	keep := func(name string) bool {
		return kindOf(name, "") != ""
	}
	var (
		mu      sync.Mutex
		found   = map[string]*CheckedURL{}
		scanned int
	)
	err = s.ws.Files().ReadMany(ctx, c, pa, dirs, keep, MaxScanFile, func(p workspace.Path, data []byte) error {
		name := p.String()
		if name == File || name == editing.SettingsFile {
			return nil
		}
		kind := kindOf(name, trDir)
		hits := Extract(data, kind == KindPage || kind == KindHTML || kind == KindCSS)
		mu.Lock()
		defer mu.Unlock()
		scanned++
		for _, h := range hits {
			cu := found[h.URL]
			if cu == nil {
				if len(found) >= MaxURLs {
					truncated = true
					continue
				}
				cu = &CheckedURL{URL: h.URL, Allowed: match.Allowed(h.URL)}
				found[h.URL] = cu
			}
			u := Usage{Path: name, Line: h.Line}
			if n := len(cu.UsedIn); n > 0 && cu.UsedIn[n-1] == u {
				continue // the same line twice
			}
			if len(cu.UsedIn) >= MaxUsages {
				truncated = true
				continue
			}
			cu.UsedIn = append(cu.UsedIn, u)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := &Check{URLs: make([]CheckedURL, 0, len(found)), Scanned: scanned, Truncated: truncated}
	for _, cu := range found {
		sort.Slice(cu.UsedIn, func(i, j int) bool {
			a, b := cu.UsedIn[i], cu.UsedIn[j]
			if a.Path != b.Path {
				return a.Path < b.Path
			}
			return a.Line < b.Line
		})
		if !cu.Allowed {
			out.NotAllowed++
		}
		out.URLs = append(out.URLs, *cu)
	}
	sort.Slice(out.URLs, func(i, j int) bool {
		a, b := out.URLs[i], out.URLs[j]
		if a.Allowed != b.Allowed {
			return !a.Allowed
		}
		return a.URL < b.URL
	})
	return out, nil
}
