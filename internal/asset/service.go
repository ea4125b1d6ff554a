// Package asset is the asset manager's server (spec 2 §2 "Asset manager", §5, §7 "Assets"):
// the files and folders of the caller's workspace of a portal — listed with their types and
// image sizes, read and downloaded as streams, edited (JSON checked against its companion
// schema), uploaded (streamed, limited per type and per request, announced to the portal's
// room), renamed, made and deleted (refused while other files reference them).
//
// Every file access goes through editing.Files (the workspace file layer): API paths
// become workspace.Path only through ParsePath.
package asset

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime/multipart"
	"net/http"
	"path"
	"portalwright/internal/notice"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/filetype"
	"portalwright/internal/portalaccess"
	"portalwright/internal/validate"
	"portalwright/internal/workspace"
)

// People names the uploader of an upload notification.
type People interface {
	Person(ctx context.Context, userID int64) (editing.Person, error)
}

// EventUploaded is the title of the upload notification.
const EventUploaded = "ASSET_UPLOADED"

// Uploaded is the data of the upload notification (spec 2 §3).
type Uploaded struct {
	File       string   `json:"file"`
	UploadPath string   `json:"uploadPath"`
	Branch     string   `json:"branch"`
	User       Uploader `json:"user"`
	Domain     string   `json:"domain"`
	Portal     string   `json:"portal"`
}

// Uploader is who uploaded a file; the id (not in the spec) lets their own clients tell their
// uploads from other users'.
type Uploader struct {
	ID        int64  `json:"id"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
}

// Service is the asset manager over the editing unit.
type Service struct {
	ws     *editing.Workspace
	limits Limits
	notify notice.Publisher
	names  People
	sizes  *sizeCache

	folders folderCache // recent folder listings (foldercache.go)
	perms   Permissions // the source editor's code:w (nil: not checked, tests only)
	now     func() time.Time
}

// NewService returns the asset manager; notify and names may be nil (nothing announced).
func NewService(ws *editing.Workspace, limits Limits, notify notice.Publisher, names People) *Service {
	return &Service{ws: ws, limits: limits, notify: notify, names: names, sizes: &sizeCache{}, now: time.Now}
}

// Permissions tells whether a caller holds a permission in a domain (the access service): a
// save checks more than its route's asset_create when it is a source edit.
type Permissions interface {
	Allowed(ctx context.Context, c caller.Caller, permission, domainID string) (bool, error)
}

// WithPermissions makes source saves (any file but JSON) require code:w besides asset_create
// (spec 2 §6: code:w saves source; asset_create edits assets, the JSON editor).
func (s *Service) WithPermissions(p Permissions) *Service { s.perms = p; return s }

// msgNoPermission is the spec's message for a permission the caller lacks (spec 2 §6).
const msgNoPermission = "You do not have the right permission to access to this section. Please contact your Administrator"

// SizeLimits describes the upload limits.
func (s *Service) SizeLimits() SizeLimits { return s.limits.SizeLimits() }

// maxTextSearch bounds the text files searched for references.
const maxTextSearch = 2 << 20

// maxCheckedUpload bounds an uploaded JSON file that is checked against its companion schema.
const maxCheckedUpload = 8 << 20

// Get describes a file (with its version) or a folder with its children (one level). A
// folder's answer is shared by callers while the folder is unchanged (foldercache.go): it is
// read only.
func (s *Service) Get(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path) (*Asset, error) {
	info, err := s.ws.Files().Info(ctx, c, pa, p)
	if err != nil {
		return nil, err
	}
	if p == workspace.Root {
		info.Name = "/"
	}
	if info.Dir {
		key, stamp, now := folderKey{c.UserID, pa.ID(), p.String()}, stampOf(info), s.now()
		if a := s.folders.get(key, stamp, now); a != nil {
			return a, nil
		}
		a, err := s.folder(ctx, c, pa, p, info)
		if err == nil {
			s.folders.put(key, stamp, now, a)
		}
		return a, err
	}
	return s.file(ctx, c, pa, p, info)
}

// file describes a file as its folder's listing does (describe), with its version and, for a
// JSON file, whether its saves must be strict JSON. Its content is read once, as a stream
// (never held in memory, but for a JSON file up to maxCheckedUpload).
func (s *Service) file(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path, info workspace.FileInfo) (*Asset, error) {
	f, _, err := s.ws.Files().OpenFile(ctx, c, pa, p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	keep := int64(filetype.SniffLen)
	isJSON := ext(info.Name) == "json"
	if isJSON {
		keep = maxCheckedUpload
	}
	var head bytes.Buffer
	v, err := workspace.VersionOfReader(io.TeeReader(f, &limitedWriter{w: &head, n: keep}))
	if err != nil {
		return nil, apperr.Internal(err)
	}
	// An LFS pointer is marked as the listing marks it (workspace/files Files.List).
	if oid, size, ok := workspace.LFSPointer(head.Bytes()); ok && info.Size == int64(head.Len()) {
		info.Kind, info.Target, info.LFSSize = workspace.KindLFS, oid, size
	}
	a := s.describe(ctx, c, pa, info, nil, head.Bytes())
	a.Version = string(v)
	if isJSON && a.CanEdit.Editable {
		var current []byte
		if info.Size == int64(head.Len()) {
			current = head.Bytes()
		}
		a.StrictJSON = s.strictJSON(ctx, c, pa, p, current, true)
	}
	return a, nil
}

// limitedWriter keeps the first n bytes written to it and drops the rest.
type limitedWriter struct {
	w *bytes.Buffer
	n int64
}

func (l *limitedWriter) Write(b []byte) (int, error) {
	if room := l.n - int64(l.w.Len()); room > 0 {
		l.w.Write(b[:min(int64(len(b)), room)])
	}
	return len(b), nil
}

// version is a file's version, its content hashed as a stream (never held in memory).
func (s *Service) version(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path) (workspace.Version, error) {
	f, _, err := s.ws.Files().OpenFile(ctx, c, pa, p)
	if err != nil {
		return workspace.NoVersion, err
	}
	defer f.Close()
	v, err := workspace.VersionOfReader(f)
	if err != nil {
		return workspace.NoVersion, apperr.Internal(err)
	}
	return v, nil
}

func (s *Service) folder(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path, info workspace.FileInfo) (*Asset, error) {
	list, err := s.ws.Files().List(ctx, c, pa, p)
	if err != nil {
		return nil, err
	}
	a := s.describe(ctx, c, pa, info, nil, nil)
	a.Path, a.Name = APIPath(p), path.Base(APIPath(p))
	names := map[string]bool{}
	for _, f := range list {
		names[f.Name] = true
	}
	a.Children = make([]*Asset, 0, len(list))
	for _, f := range list {
		child := s.describe(ctx, c, pa, f, names, nil)
		child.IsHidden = !f.Dir
		if f.Dir {
			a.HasChildren = true
			if cp, err := workspace.CleanPath(f.Path); err == nil {
				if sub, err := s.ws.Files().List(ctx, c, pa, cp); err == nil {
					for _, g := range sub {
						child.HasChildren = child.HasChildren || g.Dir
					}
				}
			}
		}
		a.Children = append(a.Children, child)
	}
	sort.SliceStable(a.Children, func(i, j int) bool {
		x, y := a.Children[i], a.Children[j]
		if (x.Type == "DIR") != (y.Type == "DIR") {
			return x.Type == "DIR"
		}
		return strings.ToLower(x.Name) < strings.ToLower(y.Name)
	})
	a.HasChildren = false
	for _, ch := range a.Children {
		a.HasChildren = a.HasChildren || ch.Type == "DIR"
	}
	return a, nil
}

// describe makes the Asset of a file or folder; siblings, when known, are the names of its
// folder (to find a JSON file's companion schema without another call); head, when read, is
// the start of the file (else it is read when the file's name does not say its type).
func (s *Service) describe(ctx context.Context, c caller.Caller, pa portalaccess.Portal, f workspace.FileInfo, siblings map[string]bool, head []byte) *Asset {
	a := &Asset{Name: f.Name, Path: "/" + f.Path, CreatedDate: f.ModTime.UTC().Format(time.RFC3339), Size: f.Size, Kind: f.Kind, Target: f.Target}
	switch f.Kind {
	case workspace.KindSubmodule:
		a.Type, a.Size, a.Children = "DIR", 0, []*Asset{}
		a.CanEdit = CanEdit{ToolTipMessage: MsgSubmodule}
		return a
	case workspace.KindLink:
		a.Type = byName(f.Name).MIME
		a.CanEdit = CanEdit{ToolTipMessage: MsgLink + f.Target}
		return a
	case workspace.KindLFS:
		a.Type, a.Size = byName(f.Name).MIME, f.LFSSize // the object's real size, not the pointer's
		a.CanEdit = CanEdit{ToolTipMessage: MsgLFS}
		return a
	}
	if f.Dir {
		a.Type, a.Size, a.Children = "DIR", 0, []*Asset{}
		return a
	}
	t := s.typeOf(ctx, c, pa, f, head)
	a.Type = t.MIME
	a.CanEdit = s.canEdit(ctx, c, pa, f, siblings, t)
	if a.CanEdit.Editable {
		a.EditorMode = t.Mode
	}
	if isImage(f.Name) {
		if p, err := workspace.CleanPath(f.Path); err == nil {
			if sz, err := s.cachedImageSize(ctx, c, pa, p, f); err == nil && sz.Width > 0 && sz.Height > 0 {
				a.Width, a.Height, a.Dimensions = sz.Width, sz.Height, fmt.Sprintf("%dx%d", sz.Width, sz.Height)
			}
		}
	}
	return a
}

// typeOf is a file's type: by its name, else sniffed from head or, when nil, from the first
// filetype.SniffLen bytes of the file.
func (s *Service) typeOf(ctx context.Context, c caller.Caller, pa portalaccess.Portal, f workspace.FileInfo, head []byte) filetype.Type {
	if t, ok := filetype.ByName(f.Name); ok {
		return t
	}
	if head == nil {
		head = []byte{}
		if p, err := workspace.CleanPath(f.Path); err == nil {
			if r, _, err := s.ws.Files().OpenFile(ctx, c, pa, p); err == nil {
				head, _ = io.ReadAll(io.LimitReader(r, filetype.SniffLen))
				r.Close()
			}
		}
	}
	return filetype.Sniff(head)
}

// canEdit is the one rule of "editable" (the listing, a file's answer, a save's answer): a
// JSON file in the JSON editor (with its companion schema) or the source editor (without;
// not a microsite's), any other text type of the file type table in the source editor.
func (s *Service) canEdit(ctx context.Context, c caller.Caller, pa portalaccess.Portal, f workspace.FileInfo, siblings map[string]bool, t filetype.Type) CanEdit {
	if ext(f.Name) == "json" {
		if strings.Contains("/"+f.Path, "microsites/") {
			return CanEdit{ToolTipMessage: MsgMicrosite}
		}
		has := siblings[f.Name+".schema"]
		if siblings == nil {
			if p, err := workspace.CleanPath(f.Path); err == nil {
				has = s.hasCompanion(ctx, c, pa, p)
			}
		}
		switch {
		case has:
			return CanEdit{Editable: true}
		case validate.IsJSONC(f.Path):
			return CanEdit{Editable: true, ToolTipMessage: MsgJSONC}
		}
		// No schema: the source editor with JSON syntax checking (issue 24 item 6).
		return CanEdit{Editable: true, ToolTipMessage: MsgNoSchemaSource}
	}
	return CanEdit{Editable: t.Text}
}

// strictJSON tells whether a save of the JSON file p must be strict JSON: it has a companion
// schema, or it is not JSON with comments by its name (validate.IsJSONC) and its content now
// (current; nil: read here, exists false: a new file) is strict JSON. A file that was not
// strict JSON when it was read (a real repository's configuration with comments) is saved as
// text.
func (s *Service) strictJSON(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path, current []byte, exists bool) bool {
	if s.hasCompanion(ctx, c, pa, p) {
		return true
	}
	if validate.IsJSONC(p.String()) {
		return false
	}
	if !exists {
		return true
	}
	if current == nil {
		data, _, err := s.ws.Files().Read(ctx, c, pa, p)
		if err != nil {
			return true // gone meanwhile: a new file; unreadable: the write will say
		}
		current = data
	}
	return validate.JSONSyntax(current) == ""
}

// ImageSize reads an image's width and height from its header (0, 0 when not an image).
func (s *Service) ImageSize(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path) (Size, error) {
	if p == workspace.Root {
		return Size{}, badPath("/")
	}
	info, err := s.ws.Files().Info(ctx, c, pa, p)
	if err != nil {
		return Size{}, err
	}
	if info.Dir || !isImage(info.Name) {
		return Size{}, nil
	}
	sz, err := s.cachedImageSize(ctx, c, pa, p, info)
	if err != nil {
		return Size{}, nil // not readable as an image: no size
	}
	return sz, nil
}

// cachedImageSize is the size of the image p, described by info (its size and mtime): from
// the cache while the file is unchanged, else read from its header (and cached, a file
// not readable as an image as 0×0).
func (s *Service) cachedImageSize(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path, info workspace.FileInfo) (Size, error) {
	key := sizeKey{user: c.UserID, portal: pa.ID(), path: info.Path}
	if sz, ok := s.sizes.get(key, info); ok {
		return sz, nil
	}
	f, opened, err := s.ws.Files().OpenFile(ctx, c, pa, p)
	if err != nil {
		return Size{}, err // not cached: the file may come back
	}
	defer f.Close()
	sz, err := headerSize(f, ext(p.Name()))
	if err != nil {
		sz = Size{}
	}
	s.sizes.put(key, opened, sz) // under what was opened: a file changed since info is read again
	return sz, err
}

// Open opens a file for a streamed read with its description (Version set).
func (s *Service) Open(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path) (io.ReadSeekCloser, workspace.FileInfo, error) {
	if p == workspace.Root {
		return nil, workspace.FileInfo{}, apperr.BadRequest("NOT_A_FILE", "The root folder is not a file.")
	}
	f, info, err := s.ws.Files().OpenFile(ctx, c, pa, p)
	if err != nil {
		return nil, info, err
	}
	v, err := workspace.VersionOfReader(f)
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, info, apperr.Internal(err)
	}
	info.Version = v
	return f, info, nil
}

// IsFolder tells whether p names a folder (the root included).
func (s *Service) IsFolder(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path) (bool, error) {
	if p == workspace.Root {
		return true, nil
	}
	info, err := s.ws.Files().Info(ctx, c, pa, p)
	if err != nil {
		return false, err
	}
	return info.Dir, nil
}

// Save writes a text file edited in the browser, based on version base (workspace.NoVersion:
// a new file). A .json file must be JSON and, when "<path>.schema" exists, valid against it.
func (s *Service) Save(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path, data string, base workspace.Version) (*Asset, error) {
	if p == workspace.Root {
		return nil, apperr.BadRequest("NOT_A_FILE", "The root folder is not a file.")
	}
	// The name rules are for new names: a file the repository already has keeps its name
	// and can be saved (a real repository's "hash#percent q?.md").
	if base == workspace.NoVersion {
		if !ValidName(p.Name()) {
			return nil, apperr.Validation("The file name " + quote(p.Name()) + " may only hold letters, digits, spaces and [ ] - _ ) & $ @ ( ^ { } ~ .")
		}
		if e := ext(p.Name()); !allowedExt(e) {
			return nil, apperr.Validation("Files of the type '" + e + "' are not allowed.")
		}
	}
	if ext(p.Name()) != "json" && s.perms != nil {
		ok, err := s.perms.Allowed(ctx, c, "code:w", strconv.FormatInt(pa.DomainID(), 10))
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, apperr.Forbidden("FORBIDDEN", msgNoPermission)
		}
	}
	if ext(p.Name()) == "json" && s.strictJSON(ctx, c, pa, p, nil, base != workspace.NoVersion) {
		if err := s.validateJSON(ctx, c, pa, p, []byte(data)); err != nil {
			return nil, err
		}
	}
	if _, err := s.ws.Files().Write(ctx, c, pa, p, []byte(data), base, APIPath(p)); err != nil {
		return nil, err
	}
	return s.Get(ctx, c, pa, p)
}

// Mkdir makes a folder; its name keeps the name rule and holds no space.
func (s *Service) Mkdir(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path) (*Asset, error) {
	if p == workspace.Root {
		return nil, apperr.Conflict("FILE_EXISTS", "The root folder exists already.")
	}
	if err := folderName(p.Name()); err != nil {
		return nil, err
	}
	if err := s.ws.Files().Mkdir(ctx, c, pa, p); err != nil {
		return nil, err
	}
	return s.Get(ctx, c, pa, p)
}

func folderName(name string) error {
	if strings.Contains(name, " ") || !ValidName(name) {
		return apperr.Validation("The folder name " + quote(name) + " may only hold letters, digits and [ ] - _ ) & $ @ ( ^ { } ~ . (no spaces).")
	}
	return nil
}

// RenameFolder renames a folder (not the root); the target must not exist.
func (s *Service) RenameFolder(ctx context.Context, c caller.Caller, pa portalaccess.Portal, from, to workspace.Path) (*Asset, error) {
	if from == workspace.Root || to == workspace.Root {
		return nil, apperr.BadRequest("ROOT_FOLDER", "The root folder cannot be renamed.")
	}
	if err := folderName(to.Name()); err != nil {
		return nil, err
	}
	info, err := s.ws.Files().Info(ctx, c, pa, from)
	if err != nil {
		return nil, err
	}
	if !info.Dir {
		return nil, apperr.BadRequest("NOT_A_FOLDER", "The path "+APIPath(from)+" is not a folder.")
	}
	if err := s.ws.Files().Move(ctx, c, pa, from, to, workspace.NoVersion); err != nil {
		return nil, err
	}
	return s.Get(ctx, c, pa, to)
}

// RenameFile renames (or moves) a file; the target must not exist.
func (s *Service) RenameFile(ctx context.Context, c caller.Caller, pa portalaccess.Portal, from, to workspace.Path) (*Asset, error) {
	if from == workspace.Root || to == workspace.Root {
		return nil, apperr.BadRequest("NOT_A_FILE", "The root folder is not a file.")
	}
	if !ValidName(to.Name()) {
		return nil, apperr.Validation("The file name " + quote(to.Name()) + " may only hold letters, digits, spaces and [ ] - _ ) & $ @ ( ^ { } ~ .")
	}
	// A rename cannot turn a file into a type an upload would refuse (keeping its own type is fine).
	if e := ext(to.Name()); e != ext(from.Name()) && !allowedExt(e) {
		return nil, apperr.Validation("Files of the type '" + e + "' are not allowed.")
	}
	info, err := s.ws.Files().Info(ctx, c, pa, from)
	if err != nil {
		return nil, err
	}
	if info.Dir {
		return nil, apperr.BadRequest("NOT_A_FILE", "The path "+APIPath(from)+" is a folder.")
	}
	v, err := s.version(ctx, c, pa, from)
	if err != nil {
		return nil, err
	}
	if err := s.ws.Files().Move(ctx, c, pa, from, to, v); err != nil {
		return nil, err
	}
	return s.Get(ctx, c, pa, to)
}

// Delete deletes files and empty folders, each on its own: a folder with children, or a
// file other text files of the portal reference, is refused with the reason.
func (s *Service) Delete(ctx context.Context, c caller.Caller, pa portalaccess.Portal, apiPaths []string) ([]DeleteResult, error) {
	out := make([]DeleteResult, 0, len(apiPaths))
	var refs map[string][]string // file → the text files that mention it, found once
	for _, ap := range apiPaths {
		res := DeleteResult{File: ap}
		fail := func(msg string, data any) {
			b, _ := json.Marshal(map[string]any{"errorMessage": msg, "data": data})
			res.Error = &DeleteError{Error: string(b)}
		}
		p, err := ParsePath(ap)
		if err != nil || p == workspace.Root {
			fail("The path "+quote(ap)+" is not a file path inside the portal.", nil)
			out = append(out, res)
			continue
		}
		info, err := s.ws.Files().Info(ctx, c, pa, p)
		switch {
		case err != nil:
			fail(apperr.AsError(err).Message, nil)
		case info.Dir:
			list, err := s.ws.Files().List(ctx, c, pa, p)
			if err != nil {
				fail(apperr.AsError(err).Message, nil)
			} else if len(list) > 0 {
				fail(MsgChildren, nil)
			} else if err := s.ws.Files().Remove(ctx, c, pa, p, workspace.NoVersion); err != nil {
				fail(apperr.AsError(err).Message, nil)
			} else {
				res.Result = true
			}
		default:
			if refs == nil {
				if refs, err = s.references(ctx, c, pa, apiPaths); err != nil {
					return nil, err
				}
			}
			if by := refs[p.String()]; len(by) > 0 {
				fail(MsgUsed, by)
			} else if v, err := s.version(ctx, c, pa, p); err != nil {
				fail(apperr.AsError(err).Message, nil)
			} else if err := s.ws.Files().Remove(ctx, c, pa, p, v); err != nil {
				fail(apperr.AsError(err).Message, nil)
			} else {
				res.Result = true
			}
		}
		out = append(out, res)
	}
	return out, nil
}

// references finds, for each of the paths, the text files of the workspace (up to
// maxTextSearch bytes; text by the file type table, else by their content) that mention it:
// by its path without the leading slash, or by its root-relative web path through a site
// root (siteRoots: apps/site/public/static/x.pdf is /static/x.pdf, in a Markdown link too).
func (s *Service) references(ctx context.Context, c caller.Caller, pa portalaccess.Portal, apiPaths []string) (map[string][]string, error) {
	type needle struct {
		file string   // the workspace path
		web  []string // its root-relative web paths
	}
	var roots []string
	if st, _, err := s.ws.Settings(ctx, c, pa); err == nil {
		roots = st.SiteRoots
	}
	roots = siteRoots(roots)
	var needles []needle
	for _, ap := range apiPaths {
		if p, err := ParsePath(ap); err == nil && p != workspace.Root {
			needles = append(needles, needle{file: p.String(), web: webPaths(p.String(), roots)})
		}
	}
	out := map[string][]string{}
	var walk func(dir workspace.Path) error
	walk = func(dir workspace.Path) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		list, err := s.ws.Files().List(ctx, c, pa, dir)
		if err != nil {
			return err
		}
		for _, f := range list {
			fp, err := workspace.CleanPath(f.Path)
			if err != nil {
				continue
			}
			if f.Dir {
				if err := walk(fp); err != nil {
					return err
				}
				continue
			}
			if t, known := filetype.ByName(f.Name); known && !t.Text || f.Size > maxTextSearch || f.Kind != "" {
				continue
			}
			data, _, err := s.ws.Files().Read(ctx, c, pa, fp)
			if err != nil || !filetype.Of(f.Name, data).Text {
				continue
			}
			for _, n := range needles {
				if n.file == f.Path {
					continue
				}
				found := bytes.Contains(data, []byte(n.file))
				for _, w := range n.web {
					found = found || mentions(data, w)
				}
				if found {
					out[n.file] = append(out[n.file], f.Path)
				}
			}
		}
		return nil
	}
	if err := walk(workspace.Root); err != nil {
		return nil, err
	}
	return out, nil
}

// DefaultSiteRoots are the folders a repository's sites are served from (a * is one folder);
// a portal's settings add theirs (editing.Settings.SiteRoots).
var DefaultSiteRoots = []string{"public", "static", "apps/*/public", "packages/*/public"}

// siteRoots are the default site roots and the settings' own (clean relative folder paths
// only; others are ignored).
func siteRoots(extra []string) []string {
	out := slices.Clone(DefaultSiteRoots)
	for _, r := range extra {
		r = path.Clean(strings.Trim(strings.TrimSpace(r), "/"))
		if r == "." || r == ".." || strings.HasPrefix(r, "../") || !utf8.ValidString(r) || slices.Contains(out, r) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// webPaths are the root-relative web paths of the file p through the site roots it is under
// ("apps/site/public/static/x.pdf" → "/static/x.pdf").
func webPaths(p string, roots []string) []string {
	segs := strings.Split(p, "/")
	var out []string
	for _, r := range roots {
		rs := strings.Split(r, "/")
		if len(rs) >= len(segs) {
			continue
		}
		if ok, err := path.Match(r, strings.Join(segs[:len(rs)], "/")); ok && err == nil {
			if w := "/" + strings.Join(segs[len(rs):], "/"); !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

// mentions tells whether data holds the web path w as a whole path: not inside a longer one
// ("/x.pdf" is not in "/docs/x.pdf" nor in "/x.pdf.bak"); a query, fragment, quote, bracket or
// space may follow it ("[report](/static/x.pdf)", "src=\"/static/x.pdf?v=2\"").
func mentions(data []byte, w string) bool {
	for from := 0; ; {
		i := bytes.Index(data[from:], []byte(w))
		if i < 0 {
			return false
		}
		i += from
		end := i + len(w)
		before := i == 0 || !pathByte(data[i-1])
		after := end == len(data) || !pathByte(data[end]) && !(data[end] == '.' && end+1 < len(data) && alnum(data[end+1]))
		if before && after {
			return true
		}
		from = i + 1
	}
}

// pathByte is a byte that continues a path (a segment's character or a slash).
func pathByte(b byte) bool { return alnum(b) || strings.IndexByte("/_-~%", b) >= 0 || b >= 0x80 }

func alnum(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' }

// uploadError is a refused file of an upload in the spec's shape.
func uploadError(filename, msg string) UploadError {
	b, _ := json.Marshal(map[string]any{"errorCodeDesc": CodeContentInvalid, "errorMessage": msg,
		"data": map[string]any{"ruleErrors": []map[string]string{{"message": msg}}}})
	return UploadError{Filename: filename, Error: string(b)}
}

// refusedUpload is an upload refused by its content's rules, with all of them.
func refusedUpload(filename string, e *apperr.Error) UploadError {
	b, _ := json.Marshal(map[string]any{"errorCodeDesc": CodeContentInvalid, "errorMessage": e.Message, "data": e.Data})
	return UploadError{Filename: filename, Error: string(b)}
}

// hasCompanion tells whether p has a companion schema (<path>.schema) in the caller's workspace.
func (s *Service) hasCompanion(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path) bool {
	sp, err := workspace.CleanPath(p.String() + ".schema")
	if err != nil {
		return false
	}
	info, err := s.ws.Files().Info(ctx, c, pa, sp)
	return err == nil && !info.Dir
}

// TooLarge is the 413 of an upload over a limit.
func TooLarge() *apperr.Error {
	return apperr.NewError(413, "FILE_SIZE_EXCEEDED", "Request Entity Too Large", MsgSizeExceeded)
}

// Upload stores the "files" parts of a multipart request into folder, one by one, streamed:
// a file over its type's limit, or over what is left of the request's total, ends the
// request with a 413 (nothing of that file stored; the files before it stay); a file refused
// by the name rule or its extension is listed in the errors. Each stored file is announced to
// the portal's room.
func (s *Service) Upload(ctx context.Context, c caller.Caller, pa portalaccess.Portal, folder workspace.Path, mr *multipart.Reader) (*UploadResult, error) {
	isDir, err := s.IsFolder(ctx, c, pa, folder)
	if err != nil && !errors.Is(err, fs.ErrNotExist) && apperr.AsError(err).Status != 404 {
		return nil, err
	}
	if err == nil && !isDir {
		return nil, apperr.BadRequest("NOT_A_FOLDER", "The path "+APIPath(folder)+" is not a folder.")
	}
	res := &UploadResult{Success: []string{}, Errors: []UploadError{}}
	var used int64
	var deferred []deferredJSON
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		var overBody *http.MaxBytesError
		if errors.As(err, &overBody) {
			return nil, TooLarge()
		}
		if err != nil {
			return nil, apperr.BadRequest("INVALID_UPLOAD", "The upload could not be read as multipart form data.").WithCause(err)
		}
		if part.FormName() != "files" || part.FileName() == "" {
			part.Close()
			continue
		}
		name := part.FileName()
		if !ValidName(name) {
			res.Errors = append(res.Errors, uploadError(name, MsgSpecialChars))
			part.Close()
			continue
		}
		e := ext(name)
		if !allowedExt(e) {
			res.Errors = append(res.Errors, uploadError(name, "Files of the type '"+e+"' are not allowed."))
			part.Close()
			continue
		}
		target, err := workspace.CleanPath(path.Join(strings.TrimPrefix(APIPath(folder), "/"), name))
		if err != nil {
			res.Errors = append(res.Errors, uploadError(name, MsgSpecialChars))
			part.Close()
			continue
		}
		limit := min(s.limits.limitFor(e), TotalLimit-used)
		n := &countingReader{r: part}
		var src io.Reader = n
		// A JSON file with a companion schema must keep it, uploaded or saved. A JSON file of
		// checkable size is read into memory and stored after the request's other files, so a
		// schema uploaded with it is the one it is checked against, whichever part comes first.
		if e == "json" {
			data, rerr := io.ReadAll(io.LimitReader(n, min(limit, maxCheckedUpload)+1))
			switch {
			case rerr != nil:
				err = &workspace.ErrSource{Err: rerr}
			case int64(len(data)) <= min(limit, maxCheckedUpload):
				part.Close()
				used += n.n
				deferred = append(deferred, deferredJSON{name: name, target: target, data: data, limit: limit})
				continue
			case s.hasCompanion(ctx, c, pa, target):
				err = &workspace.ErrTooLarge{Limit: min(limit, maxCheckedUpload)}
			default: // too large to check and nothing to check it against: streamed
				src = io.MultiReader(bytes.NewReader(data), n)
			}
		}
		if err == nil {
			err = s.ws.Files().WriteStream(ctx, c, pa, target, src, limit)
		}
		part.Close()
		used += n.n
		var tooLarge *workspace.ErrTooLarge
		var source *workspace.ErrSource
		switch {
		case errors.As(err, &tooLarge), errors.As(err, &overBody):
			return nil, TooLarge()
		case errors.As(err, &source), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
			return nil, apperr.BadRequest("UPLOAD_INTERRUPTED", "The upload of "+quote(name)+" stopped before its end; nothing of it was stored. Try again.").WithCause(err)
		case err != nil && apperr.AsError(err).Status < 500:
			res.Errors = append(res.Errors, uploadError(name, apperr.AsError(err).Message))
			continue
		case err != nil:
			return nil, err
		}
		res.Success = append(res.Success, name)
		s.announce(ctx, c, pa, name, APIPath(folder))
	}
	for _, f := range deferred {
		var err error
		if s.hasCompanion(ctx, c, pa, f.target) {
			err = s.validateJSON(ctx, c, pa, f.target, f.data)
		}
		if ae := apperr.AsError(err); err != nil && ae.Code == CodeContentInvalid {
			res.Errors = append(res.Errors, refusedUpload(f.name, ae))
			continue
		}
		if err == nil {
			err = s.ws.Files().WriteStream(ctx, c, pa, f.target, bytes.NewReader(f.data), f.limit)
		}
		var tooLarge *workspace.ErrTooLarge
		switch {
		case errors.As(err, &tooLarge):
			return nil, TooLarge()
		case err != nil && apperr.AsError(err).Status < 500:
			res.Errors = append(res.Errors, uploadError(f.name, apperr.AsError(err).Message))
			continue
		case err != nil:
			return nil, err
		}
		res.Success = append(res.Success, f.name)
		s.announce(ctx, c, pa, f.name, APIPath(folder))
	}
	return res, nil
}

// deferredJSON is an uploaded JSON file kept until the request's other files are stored.
type deferredJSON struct {
	name   string
	target workspace.Path
	data   []byte
	limit  int64
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (s *Service) announce(ctx context.Context, c caller.Caller, pa portalaccess.Portal, file, folder string) {
	if s.notify == nil {
		return
	}
	u := Uploaded{File: file, UploadPath: folder, User: Uploader{ID: c.UserID}}
	if st, err := s.ws.LocalChanges(ctx, c, pa); err == nil && st != nil {
		u.Branch = st.Branch
	}
	if s.names != nil {
		if p, err := s.names.Person(ctx, c.UserID); err == nil {
			u.User.FirstName, u.User.LastName = p.FirstName, p.LastName
		}
	}
	u.Domain, u.Portal = pa.DomainName(), pa.Name()
	s.notify.Publish(ctx, notice.Portal(pa.ID()), EventUploaded, u)
}
