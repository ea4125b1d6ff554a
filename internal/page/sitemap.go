// Package page is the server of a portal's pages (spec 2 §2 "Page designer and sitemap", §3
// "Sitemap page / Page"). For now it reads the sitemap: sitemap.json of the caller's workspace
// under the synthetic root page (id master-page). The page designer extends this package.
//
// Every file access goes through editing.Files (the workspace file layer); the sitemap's
// path is a constant of the code.
package page

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
)

// The synthetic root of every sitemap (spec 2 §2 "Routes").
const (
	MasterID    = "master-page"
	MasterTitle = "Master Page"
	MasterURL   = "/index.html"
)

// SitemapFile is where a portal keeps its sitemap.
const SitemapFile = "sitemap.json"

// Messages and codes (spec 2 §8).
const (
	CodeSitemapFailed = "SITEMAP_LOAD_FAILED"
	MsgSitemapFailed  = "Failed to retrieve Sitemap."
)

// Parameter is a URL parameter a page takes.
type Parameter struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
}

// SitemapPage is a page of the sitemap (spec 2 §3 "Sitemap page / Page"). The fields the
// sitemap file holds are always answered; those the page designer fills (html, branch, dirty,
// …) only when set.
type SitemapPage struct {
	ID         string         `json:"id"`
	Title      string         `json:"title"`
	URL        string         `json:"url"`
	Parameters []Parameter    `json:"parameters"`
	HidePage   bool           `json:"hidePage"`
	Status     string         `json:"status"`
	Deactived  bool           `json:"deactived"` // the spec's spelling; root pages only
	Children   []*SitemapPage `json:"children"`
	IsMaster   bool           `json:"isMaster,omitempty"`

	PageURL             string            `json:"pageUrl,omitempty"`
	BaseURL             string            `json:"baseUrl,omitempty"`
	ParameterString     string            `json:"parameterString,omitempty"`
	DefaultURLParams    map[string]string `json:"defaultUrlParams,omitempty"`
	HTML                string            `json:"html,omitempty"`
	Branch              string            `json:"branch,omitempty"`
	Dirty               bool              `json:"dirty,omitempty"`
	PageParameterValues map[string]string `json:"pageParameterValues,omitempty"`
	ErrorMessage        string            `json:"errorMessage,omitempty"`
	PseudoPageID        string            `json:"pseudoPageId,omitempty"`
	PageLocation        string            `json:"pageLocation,omitempty"`
}

// Root is an empty sitemap: the synthetic master page alone.
func Root() *SitemapPage {
	return &SitemapPage{ID: MasterID, Title: MasterTitle, URL: MasterURL, IsMaster: true, Parameters: []Parameter{}, Children: []*SitemapPage{}}
}

// ParseSitemap reads sitemap.json: the list of root pages (or an object with its children
// under "children"), placed under the synthetic root. Missing lists answer as [].
func ParseSitemap(data []byte) (*SitemapPage, error) {
	root := Root()
	var pages []*SitemapPage
	if err := json.Unmarshal(data, &pages); err != nil {
		var obj struct {
			Children []*SitemapPage `json:"children"`
		}
		if err2 := json.Unmarshal(data, &obj); err2 != nil {
			return nil, err
		}
		pages = obj.Children
	}
	for _, p := range pages {
		if p == nil {
			return nil, errors.New("a page of the sitemap is null")
		}
		fill(p)
		root.Children = append(root.Children, p)
	}
	return root, nil
}

func fill(p *SitemapPage) {
	if p.Parameters == nil {
		p.Parameters = []Parameter{}
	}
	if p.Children == nil {
		p.Children = []*SitemapPage{}
	}
	kept := p.Children[:0]
	for _, c := range p.Children {
		if c != nil {
			fill(c)
			kept = append(kept, c)
		}
	}
	p.Children = kept
}

// Service reads a portal's pages through the editing unit.
type Service struct {
	ws     *editing.Workspace
	titles titleCache // search.go
}

// NewService returns the page service.
func NewService(ws *editing.Workspace) *Service { return &Service{ws: ws} }

var sitemapPath = workspace.MustPath(SitemapFile)

// Sitemap reads the sitemap of the caller's workspace: the root alone when the portal has no
// sitemap.json, a 500 'Failed to retrieve Sitemap.' when it cannot be read.
func (s *Service) Sitemap(ctx context.Context, c caller.Caller, pa portalaccess.Portal) (*SitemapPage, error) {
	root, _, err := s.SitemapVersion(ctx, c, pa)
	return root, err
}

// SitemapVersion is Sitemap with the version of sitemap.json ("" when there is none), the
// sitemapVersion the page calls are based on.
func (s *Service) SitemapVersion(ctx context.Context, c caller.Caller, pa portalaccess.Portal) (*SitemapPage, string, error) {
	data, version, err := s.ws.Files().Read(ctx, c, pa, sitemapPath)
	if errors.Is(err, fs.ErrNotExist) {
		return Root(), "", nil
	}
	if err != nil {
		var apiErr *apperr.Error
		if mapped := editing.FileError(err, SitemapFile); errors.As(mapped, &apiErr) && apiErr.Status < 500 {
			return nil, "", mapped // no workspace, a link: what the user can act on
		}
		return nil, "", failed(err)
	}
	root, err := ParseSitemap(data)
	if err != nil {
		return nil, "", failed(err)
	}
	return root, string(version), nil
}

func failed(err error) error {
	return apperr.NewError(http.StatusInternalServerError, CodeSitemapFailed, "Error", MsgSitemapFailed).WithCause(err)
}
