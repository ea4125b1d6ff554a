package page

// The pages API (spec 2 §7 "Pages"): get, add, update (and move), delete and clone a page.
// Each call that changes the sitemap and a page file writes both or neither
// (editing.Files.WriteAll), based on the versions the caller read: sitemapVersion for
// sitemap.json, version for pages/<id>.html ("" for a file that does not exist). A stale one
// is a 409 FILE_CHANGED {path, currentVersion} and nothing is written.

import (
	"context"
	"errors"
	"html"
	"io/fs"
	"net/http"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
)

// Page error titles (spec 2 §8).
const (
	MsgRemoveFailed   = "Failed to remove page."
	MsgRetrieveFailed = "Failed to retrieve page."
	MsgUpdateFailed   = "Failed to update page."
	MsgAddFailed      = "Failed to add a new page."
	MsgCloneFailed    = "Failed to clone page."
)

// Codes of the page calls.
const (
	CodePageNotFound    = "PAGE_NOT_FOUND"
	CodePageExists      = "PAGE_EXISTS"
	CodePageHasChildren = "PAGE_HAS_CHILDREN"
	CodeVersionRequired = "VERSION_REQUIRED"
	CodeSitemapInvalid  = "SITEMAP_INVALID"
	CodeValidation      = "VALIDATION_ERROR"
)

// MasterFile is the master page of a portal (a MULTILANGUAGE portal has one per language).
const MasterFile = "index.html"

// PageFile is the file of a page's body.
func PageFile(id string) (workspace.Path, error) { return workspace.CleanPath("pages/" + id + ".html") }

// Page is the answer of the page calls: the page's sitemap fields (children included), its
// place in the tree, its HTML and the versions a change must be based on.
type Page struct {
	SitemapPage
	HTML           string `json:"html"`
	ParentID       string `json:"parentId"`
	Position       int    `json:"position"`
	Path           string `json:"path"`
	Version        string `json:"version"`
	SitemapVersion string `json:"sitemapVersion"`
}

// AddRequest is the body of POST /page/{d}/{p}: a page (without children), where it goes
// (parentId: "" or master-page for a root page; position: index among the parent's
// children, the end when left out), its optional HTML and the sitemap's version.
type AddRequest struct {
	ID             string      `json:"id"`
	Title          string      `json:"title"`
	URL            string      `json:"url"`
	Parameters     []Parameter `json:"parameters"`
	HidePage       bool        `json:"hidePage"`
	Status         string      `json:"status"`
	Deactived      bool        `json:"deactived"`
	ParentID       string      `json:"parentId"`
	Position       *int        `json:"position"`
	HTML           *string     `json:"html"`
	SitemapVersion *string     `json:"sitemapVersion"`
}

// UpdateRequest is the body of PUT /page/{d}/{p}: the page's id and the fields to change
// (left out: unchanged); parentId/position move it; html replaces its file.
type UpdateRequest struct {
	ID             string       `json:"id"`
	Title          *string      `json:"title"`
	URL            *string      `json:"url"`
	Parameters     *[]Parameter `json:"parameters"`
	HidePage       *bool        `json:"hidePage"`
	Status         *string      `json:"status"`
	Deactived      *bool        `json:"deactived"`
	ParentID       *string      `json:"parentId"`
	Position       *int         `json:"position"`
	HTML           *string      `json:"html"`
	SitemapVersion *string      `json:"sitemapVersion"`
	Version        *string      `json:"version"`
}

// CloneRequest is the body of POST /page/{d}/{p}/clone/{page}.
type CloneRequest struct {
	ID             string  `json:"id"`
	Title          string  `json:"title"`
	SitemapVersion *string `json:"sitemapVersion"`
}

// Deleted is the answer of a delete.
type Deleted struct {
	ID             string `json:"id"`
	SitemapVersion string `json:"sitemapVersion"`
}

// sitemapState is sitemap.json as read for a change.
type sitemapState struct {
	root    *SitemapPage
	version workspace.Version
}

// titled gives an error the call's title (spec 2 §8); a stale version's currentVersion is ""
// for a missing file, as the API shows versions.
func titled(err error, title string) error {
	var e *apperr.Error
	if err == nil || !errors.As(err, &e) {
		if err == nil {
			return nil
		}
		return apperr.NewError(http.StatusInternalServerError, "INTERNAL_ERROR", title, "An unexpected error occurred. Please try again or contact your administrator.").WithCause(err)
	}
	out := *e
	out.Title = title
	if m, ok := out.Data.(map[string]string); ok && m["currentVersion"] == string(workspace.NoVersion) {
		c := map[string]string{}
		for k, v := range m {
			c[k] = v
		}
		c["currentVersion"] = ""
		out.Data = c
	}
	return &out
}

func invalid(title, msg string) error {
	return apperr.NewError(http.StatusBadRequest, CodeValidation, title, msg)
}

func notFound(title, id string) error {
	return apperr.NewError(http.StatusNotFound, CodePageNotFound, title, "There is no page '"+id+"' in the sitemap. Reload the sitemap.").
		WithData(map[string]string{"id": id})
}

func versionRequired(title, field, path string) error {
	return apperr.NewError(http.StatusPreconditionRequired, CodeVersionRequired, title,
		"The change must say which version of "+path+" it is based on ("+field+", \"\" for a file that does not exist yet). Reload the page, then apply your change again.").
		WithData(map[string]string{"path": path, "field": field})
}

func stale(title, path string, current workspace.Version) error {
	return apperr.NewError(http.StatusConflict, editing.CodeFileChanged, title,
		"The file "+path+" was changed since you opened it (by another save, a revert, a reset or a branch switch). Reload it, then apply your change again.").
		WithData(map[string]string{"path": path, "currentVersion": current.Shown()})
}

// readSitemap reads sitemap.json for a change: an empty tree at NoVersion when it is
// missing, a 422 when it cannot be parsed (it is not overwritten then).
func (s *Service) readSitemap(ctx context.Context, c caller.Caller, pa portalaccess.Portal, title string) (sitemapState, error) {
	data, version, err := s.ws.Files().Read(ctx, c, pa, sitemapPath)
	if errors.Is(err, fs.ErrNotExist) {
		return sitemapState{root: Root(), version: workspace.NoVersion}, nil
	}
	if err != nil {
		return sitemapState{}, titled(editing.FileError(err, SitemapFile), title)
	}
	root, err := ParseSitemap(data)
	if err != nil {
		return sitemapState{}, apperr.NewError(http.StatusUnprocessableEntity, CodeSitemapInvalid, title,
			"sitemap.json is not a list of pages ("+err.Error()+"). Correct it in the file explorer first.").WithCause(err)
	}
	return sitemapState{root: root, version: version}, nil
}

// checkSitemapBase compares the caller's sitemapVersion with the file as read.
func checkSitemapBase(title string, sent *string, st sitemapState) error {
	if sent == nil {
		return versionRequired(title, "sitemapVersion", SitemapFile)
	}
	if workspace.BasedOn(*sent) != st.version {
		return stale(title, SitemapFile, st.version)
	}
	return nil
}

// readPage reads a page's file: "" at NoVersion when it is missing.
func (s *Service) readPage(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path, title string) (string, workspace.Version, error) {
	data, version, err := s.ws.Files().Read(ctx, c, pa, p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", workspace.NoVersion, nil
	}
	if err != nil {
		return "", "", titled(editing.FileError(err, p.String()), title)
	}
	return string(data), version, nil
}

func view(st sitemapState, id string, htmlText string, p workspace.Path, version workspace.Version) *Page {
	page, parent, index := find(st.root, id)
	out := &Page{SitemapPage: *page, HTML: htmlText, Position: index, Path: p.String(), Version: version.Shown(), SitemapVersion: st.version.Shown()}
	if parent != nil {
		out.ParentID = parent.ID
	}
	return out
}

// Get answers a page of the sitemap with its HTML and versions; master-page answers the
// master page (index.html) with the whole tree as its children.
func (s *Service) Get(ctx context.Context, c caller.Caller, pa portalaccess.Portal, id string) (*Page, error) {
	st, err := s.readSitemap(ctx, c, pa, MsgRetrieveFailed)
	if err != nil {
		return nil, err
	}
	if page, _, _ := find(st.root, id); page == nil {
		return nil, notFound(MsgRetrieveFailed, id)
	}
	p := workspace.MustPath(MasterFile)
	if id != MasterID {
		if p, err = PageFile(id); err != nil {
			return nil, notFound(MsgRetrieveFailed, id)
		}
	}
	text, version, err := s.readPage(ctx, c, pa, p, MsgRetrieveFailed)
	if err != nil {
		return nil, err
	}
	out := view(st, id, text, p, version)
	if id == MasterID {
		out.ParentID = ""
	}
	return out, nil
}

// DefaultHTML is the body of a page added without HTML.
func DefaultHTML(title string) string {
	return "<article class=\"pw-page\">\n  <h1>" + html.EscapeString(title) + "</h1>\n</article>\n"
}

// place finds the parent a page goes under and checks the position ("" or master-page: the
// root). The position may be one past the last child (the end).
func place(root *SitemapPage, title, parentID string, position *int, size func(*SitemapPage) int) (*SitemapPage, int, error) {
	if parentID == "" {
		parentID = MasterID
	}
	parent, _, _ := find(root, parentID)
	if parent == nil {
		return nil, 0, invalid(title, "The parent page '"+parentID+"' is not in the sitemap. Reload the sitemap.")
	}
	n := size(parent)
	if position == nil {
		return parent, n, nil
	}
	if *position < 0 || *position > n {
		return nil, 0, invalid(title, "The position must be between 0 and the number of pages under the parent page.")
	}
	return parent, *position, nil
}

func children(p *SitemapPage) int { return len(p.Children) }

// newPageChecks checks an id for a page to add or clone: its rule, free in the tree, no
// file of that name yet.
func (s *Service) newPageChecks(ctx context.Context, c caller.Caller, pa portalaccess.Portal, st sitemapState, id, title string) (workspace.Path, error) {
	if !ValidID(id) {
		if id == MasterID {
			return workspace.Path{}, invalid(title, "The page id master-page is reserved for the master page.")
		}
		return workspace.Path{}, invalid(title, MsgID)
	}
	if page, _, _ := find(st.root, id); page != nil {
		return workspace.Path{}, apperr.NewError(http.StatusConflict, CodePageExists, title, "A page with the id '"+id+"' exists already. Choose another id.").
			WithData(map[string]string{"id": id})
	}
	p, err := PageFile(id)
	if err != nil {
		return workspace.Path{}, invalid(title, MsgID)
	}
	if _, version, err := s.readPage(ctx, c, pa, p, title); err != nil {
		return workspace.Path{}, err
	} else if version != workspace.NoVersion {
		return workspace.Path{}, apperr.NewError(http.StatusConflict, "FILE_EXISTS", title,
			"The file "+p.String()+" exists already, though no page of the sitemap uses it. Choose another id, or remove the file in the file explorer.").
			WithData(map[string]string{"path": p.String()})
	}
	return p, nil
}

// write writes the new sitemap and the page files all or nothing, answering the versions.
func (s *Service) write(ctx context.Context, c caller.Caller, pa portalaccess.Portal, title string, root *SitemapPage, sitemapBase workspace.Version, files ...workspace.FileWrite) ([]workspace.Version, error) {
	var writes []workspace.FileWrite
	if root != nil {
		data, err := EncodeSitemap(root)
		if err != nil {
			return nil, titled(err, title)
		}
		writes = append(writes, workspace.FileWrite{Path: sitemapPath, Data: data, Base: sitemapBase})
	}
	writes = append(writes, files...)
	versions, err := s.ws.Files().WriteAll(ctx, c, pa, writes)
	if err != nil {
		return nil, titled(err, title)
	}
	return versions, nil
}

// Add adds a page to the sitemap and writes its file (the HTML sent, or DefaultHTML).
func (s *Service) Add(ctx context.Context, c caller.Caller, pa portalaccess.Portal, req AddRequest) (*Page, error) {
	const title = MsgAddFailed
	page := &SitemapPage{ID: req.ID, Title: req.Title, URL: req.URL, Parameters: req.Parameters, HidePage: req.HidePage,
		Status: req.Status, Deactived: req.Deactived, Children: []*SitemapPage{}}
	if page.URL == "" {
		page.URL = "/pages/" + req.ID + ".html"
	}
	if page.Status == "" {
		page.Status = StatusPublished
	}
	if page.Parameters == nil {
		page.Parameters = []Parameter{}
	}
	if !ValidID(req.ID) && req.ID != MasterID {
		return nil, invalid(title, MsgID)
	}
	if msg := checkFields(page, allFields); msg != "" {
		return nil, invalid(title, msg)
	}
	st, err := s.readSitemap(ctx, c, pa, title)
	if err != nil {
		return nil, err
	}
	if err := checkSitemapBase(title, req.SitemapVersion, st); err != nil {
		return nil, err
	}
	p, err := s.newPageChecks(ctx, c, pa, st, req.ID, title)
	if err != nil {
		return nil, err
	}
	parent, pos, err := place(st.root, title, req.ParentID, req.Position, children)
	if err != nil {
		return nil, err
	}
	if req.Deactived && parent != st.root {
		return nil, invalid(title, "Only root pages can be deactivated.")
	}
	text := DefaultHTML(req.Title)
	if req.HTML != nil {
		text = *req.HTML
	}
	insertAt(parent, pos, page)
	vs, err := s.write(ctx, c, pa, title, st.root, st.version, workspace.FileWrite{Path: p, Data: []byte(text), Base: workspace.NoVersion})
	if err != nil {
		return nil, err
	}
	st.version = vs[0]
	return view(st, req.ID, text, p, vs[1]), nil
}

// Update changes a page's sitemap fields, moves it (parentId, position) and/or replaces its
// HTML. The sitemap is written only when the entry changes (sitemapVersion then required),
// the file only when html is sent (version required); both or neither.
func (s *Service) Update(ctx context.Context, c caller.Caller, pa portalaccess.Portal, req UpdateRequest) (*Page, error) {
	const title = MsgUpdateFailed
	if req.ID == MasterID {
		return nil, invalid(title, "The master page is not an entry of the sitemap; save its HTML through the batch save.")
	}
	if !ValidID(req.ID) {
		return nil, invalid(title, MsgID)
	}
	st, err := s.readSitemap(ctx, c, pa, title)
	if err != nil {
		return nil, err
	}
	page, parent, index := find(st.root, req.ID)
	if page == nil {
		return nil, notFound(title, req.ID)
	}
	before, err := EncodeSitemap(st.root)
	if err != nil {
		return nil, titled(err, title)
	}
	next := *page
	var set fieldSet
	if req.Title != nil {
		next.Title, set = *req.Title, set|fieldTitle
	}
	if req.URL != nil {
		next.URL, set = *req.URL, set|fieldURL
	}
	if req.Parameters != nil {
		next.Parameters, set = *req.Parameters, set|fieldParameters
		if next.Parameters == nil {
			next.Parameters = []Parameter{}
		}
	}
	if req.HidePage != nil {
		next.HidePage = *req.HidePage
	}
	if req.Status != nil {
		next.Status, set = *req.Status, set|fieldStatus
	}
	if req.Deactived != nil {
		next.Deactived = *req.Deactived
	}
	if msg := checkFields(&next, set); msg != "" {
		return nil, invalid(title, msg)
	}
	*page = next
	parentID := parent.ID
	if req.ParentID != nil {
		parentID = *req.ParentID
	}
	if parentID == "" {
		parentID = MasterID
	}
	// A move: another parent, or a position (the same parent sent back alone is no move).
	if parentID != parent.ID || req.Position != nil {
		if target, _, _ := find(st.root, parentID); target != nil && contains(page, parentID) {
			return nil, invalid(title, "A page cannot be moved under itself or one of its sub-pages.")
		}
		removeAt(parent, index)
		var pos int
		parent, pos, err = place(st.root, title, parentID, req.Position, children)
		if err != nil {
			return nil, err
		}
		insertAt(parent, pos, page)
	}
	if page.Deactived && parent != st.root {
		return nil, invalid(title, "Only root pages can be deactivated.")
	}
	after, err := EncodeSitemap(st.root)
	if err != nil {
		return nil, titled(err, title)
	}
	p, err := PageFile(req.ID)
	if err != nil {
		return nil, invalid(title, MsgID)
	}
	var root *SitemapPage
	if string(after) != string(before) {
		if err := checkSitemapBase(title, req.SitemapVersion, st); err != nil {
			return nil, err
		}
		root = st.root
	}
	var files []workspace.FileWrite
	if req.HTML != nil {
		if req.Version == nil {
			return nil, versionRequired(title, "version", p.String())
		}
		files = append(files, workspace.FileWrite{Path: p, Data: []byte(*req.HTML), Base: workspace.BasedOn(*req.Version)})
	}
	if root == nil && len(files) == 0 {
		return s.Get(ctx, c, pa, req.ID) // nothing changes
	}
	vs, err := s.write(ctx, c, pa, title, root, st.version, files...)
	if err != nil {
		return nil, err
	}
	if root != nil {
		st.version, vs = vs[0], vs[1:]
	}
	var text string
	var version workspace.Version
	if req.HTML != nil {
		text, version = *req.HTML, vs[0]
	} else if text, version, err = s.readPage(ctx, c, pa, p, title); err != nil {
		return nil, err
	}
	return view(st, req.ID, text, p, version), nil
}

// Delete removes a page without sub-pages from the sitemap and its file pages/<id>.html,
// both or neither. sitemapVersion is required, and version when the file exists.
func (s *Service) Delete(ctx context.Context, c caller.Caller, pa portalaccess.Portal, id string, sitemapVersion, version *string) (*Deleted, error) {
	const title = MsgRemoveFailed
	if id == MasterID {
		return nil, invalid(title, "The master page cannot be removed.")
	}
	if !ValidID(id) {
		return nil, invalid(title, MsgID)
	}
	st, err := s.readSitemap(ctx, c, pa, title)
	if err != nil {
		return nil, err
	}
	page, parent, index := find(st.root, id)
	if page == nil {
		return nil, notFound(title, id)
	}
	if len(page.Children) > 0 {
		return nil, apperr.NewError(http.StatusConflict, CodePageHasChildren, title,
			"The page '"+page.Title+"' has sub-pages. Move or remove them first.").WithData(map[string]string{"id": id})
	}
	if err := checkSitemapBase(title, sitemapVersion, st); err != nil {
		return nil, err
	}
	p, err := PageFile(id)
	if err != nil {
		return nil, invalid(title, MsgID)
	}
	_, current, err := s.readPage(ctx, c, pa, p, title)
	if err != nil {
		return nil, err
	}
	base := workspace.NoVersion
	if current != workspace.NoVersion {
		if version == nil {
			return nil, versionRequired(title, "version", p.String())
		}
		base = workspace.BasedOn(*version)
	} else if version != nil && workspace.BasedOn(*version) != workspace.NoVersion {
		return nil, stale(title, p.String(), workspace.NoVersion)
	}
	removeAt(parent, index)
	vs, err := s.write(ctx, c, pa, title, st.root, st.version, workspace.FileWrite{Path: p, Base: base, Remove: true})
	if err != nil {
		return nil, err
	}
	return &Deleted{ID: id, SitemapVersion: vs[0].Shown()}, nil
}

// Clone copies a page's entry (without its sub-pages) under a new id and title, right after
// it among its siblings, and its file to pages/<new id>.html.
func (s *Service) Clone(ctx context.Context, c caller.Caller, pa portalaccess.Portal, from string, req CloneRequest) (*Page, error) {
	const title = MsgCloneFailed
	if from == MasterID {
		return nil, invalid(title, "The master page cannot be cloned.")
	}
	if !ValidID(from) {
		return nil, invalid(title, MsgID)
	}
	st, err := s.readSitemap(ctx, c, pa, title)
	if err != nil {
		return nil, err
	}
	src, parent, index := find(st.root, from)
	if src == nil {
		return nil, notFound(title, from)
	}
	if !ValidID(req.ID) {
		if req.ID == MasterID {
			return nil, invalid(title, "The page id master-page is reserved for the master page.")
		}
		return nil, invalid(title, MsgID)
	}
	cp := &SitemapPage{ID: req.ID, Title: req.Title, URL: "/pages/" + req.ID + ".html", Parameters: append([]Parameter{}, src.Parameters...),
		HidePage: src.HidePage, Status: src.Status, Deactived: src.Deactived, Children: []*SitemapPage{}}
	if cp.Status == "" {
		cp.Status = StatusPublished
	}
	if msg := checkFields(cp, fieldTitle|fieldURL); msg != "" {
		return nil, invalid(title, msg)
	}
	if err := checkSitemapBase(title, req.SitemapVersion, st); err != nil {
		return nil, err
	}
	p, err := s.newPageChecks(ctx, c, pa, st, req.ID, title)
	if err != nil {
		return nil, err
	}
	srcFile, _ := PageFile(from)
	text, version, err := s.readPage(ctx, c, pa, srcFile, title)
	if err != nil {
		return nil, err
	}
	if version == workspace.NoVersion {
		text = DefaultHTML(req.Title)
	}
	insertAt(parent, index+1, cp)
	vs, err := s.write(ctx, c, pa, title, st.root, st.version, workspace.FileWrite{Path: p, Data: []byte(text), Base: workspace.NoVersion})
	if err != nil {
		return nil, err
	}
	st.version = vs[0]
	return view(st, req.ID, text, p, vs[1]), nil
}
