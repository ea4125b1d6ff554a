package page

// The sitemap as a tree to change: find, insert, remove, move, and its file form.

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"unicode"
)

// fileEntry is a page as sitemap.json holds it: the fields the portal format names
// (design §7), in that order. Designer-only fields are never written.
type fileEntry struct {
	ID         string      `json:"id"`
	Title      string      `json:"title"`
	URL        string      `json:"url"`
	Parameters []Parameter `json:"parameters"`
	HidePage   bool        `json:"hidePage"`
	Status     string      `json:"status"`
	Deactived  bool        `json:"deactived,omitempty"`
	Children   []fileEntry `json:"children"`
}

func toFile(p *SitemapPage) fileEntry {
	e := fileEntry{ID: p.ID, Title: p.Title, URL: p.URL, Parameters: p.Parameters, HidePage: p.HidePage,
		Status: p.Status, Deactived: p.Deactived, Children: make([]fileEntry, 0, len(p.Children))}
	if e.Parameters == nil {
		e.Parameters = []Parameter{}
	}
	for _, c := range p.Children {
		e.Children = append(e.Children, toFile(c))
	}
	return e
}

// EncodeSitemap is sitemap.json for the root's children: a JSON list, two-space indentation,
// markup kept as written, a trailing newline.
func EncodeSitemap(root *SitemapPage) ([]byte, error) {
	list := make([]fileEntry, 0, len(root.Children))
	for _, c := range root.Children {
		list = append(list, toFile(c))
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(list); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// find answers the page with the id, its parent (the root for a root page) and its index
// among the parent's children; nil when there is none. The root itself is found as
// MasterID with a nil parent.
func find(root *SitemapPage, id string) (page, parent *SitemapPage, index int) {
	if id == MasterID {
		return root, nil, 0
	}
	var walk func(p *SitemapPage) bool
	walk = func(p *SitemapPage) bool {
		for i, c := range p.Children {
			if c.ID == id {
				page, parent, index = c, p, i
				return true
			}
			if walk(c) {
				return true
			}
		}
		return false
	}
	walk(root)
	return page, parent, index
}

// contains tells whether the tree under p (p included) holds the page with the id.
func contains(p *SitemapPage, id string) bool {
	if p.ID == id {
		return true
	}
	for _, c := range p.Children {
		if contains(c, id) {
			return true
		}
	}
	return false
}

func removeAt(parent *SitemapPage, i int) {
	parent.Children = append(parent.Children[:i:i], parent.Children[i+1:]...)
}

func insertAt(parent *SitemapPage, i int, p *SitemapPage) {
	parent.Children = append(parent.Children[:i:i], append([]*SitemapPage{p}, parent.Children[i:]...)...)
}

// titles maps every page id of the tree to its title.
func titles(root *SitemapPage) map[string]string {
	out := map[string]string{}
	var walk func(p *SitemapPage)
	walk = func(p *SitemapPage) {
		for _, c := range p.Children {
			out[c.ID] = c.Title
			walk(c)
		}
	}
	walk(root)
	return out
}

// Rules of page fields (spec 2 §5 "Pages").
const (
	MaxIDLength    = 64
	MaxTitleLength = 120
	MaxURLLength   = 512

	MsgName = "Please enter only alphanumeric characters, spaces, underscores and/or dashes."
	MsgID   = "A page id may hold only lower-case letters (a-z), digits, dashes and underscores, must not start with a dash and is at most 64 characters long: it names the page's file pages/<id>.html."
)

var (
	idRule        = regexp.MustCompile(`^[a-z0-9_][a-z0-9_-]{0,63}$`)
	parameterRule = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]{0,63}$`)
)

// ValidID tells whether id may name a page: lower-case letters, digits, '-' and '_', not
// starting with '-', at most 64 characters, not the synthetic root's id nor "sitemap" (the
// path GET /page/{d}/{p}/sitemap).
func ValidID(id string) bool { return idRule.MatchString(id) && id != MasterID && id != "sitemap" }

// ValidName is the spec's page name rule: letters, digits, spaces, underscores and dashes,
// not starting with a dash or a space.
func ValidName(s string) bool {
	if s == "" || s[0] == '-' || s[0] == ' ' {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != ' ' && r != '_' && r != '-' {
			return false
		}
	}
	return true
}

// Page statuses the engine knows (engine/portal-engine.js: DRAFT pages are shown in design
// mode only).
const (
	StatusPublished = "PUBLISHED"
	StatusDraft     = "DRAFT"
)

// Fields a check looks at (checkFields): a change checks only what it sets, so a page of an
// older sitemap (a title with a dot, no status) can still be moved or get new HTML.
type fieldSet uint8

const (
	fieldTitle fieldSet = 1 << iota
	fieldURL
	fieldStatus
	fieldParameters
	allFields = fieldTitle | fieldURL | fieldStatus | fieldParameters
)

// checkFields checks the fields of a page the caller sets; it answers the first broken rule.
func checkFields(p *SitemapPage, fields fieldSet) string {
	if fields&fieldTitle != 0 {
		switch {
		case strings.TrimSpace(p.Title) == "":
			return "The page title is required."
		case len([]rune(p.Title)) > MaxTitleLength:
			return "The page title is longer than 120 characters."
		case !ValidName(p.Title):
			return MsgName
		}
	}
	if fields&fieldURL != 0 && (len(p.URL) > MaxURLLength || !strings.HasPrefix(p.URL, "/") || strings.ContainsAny(p.URL, " \t\r\n\\\"<>") || strings.Contains(p.URL, "..")) {
		return "The page url must be a path inside the portal starting with '/', such as /pages/<id>.html."
	}
	if fields&fieldStatus != 0 && p.Status != StatusPublished && p.Status != StatusDraft {
		return "The page status must be PUBLISHED or DRAFT."
	}
	if fields&fieldParameters == 0 {
		return ""
	}
	seen := map[string]bool{}
	for _, prm := range p.Parameters {
		switch {
		case !parameterRule.MatchString(prm.Name):
			return "A page parameter name may hold only letters, digits, underscores and dashes, must start with a letter or an underscore and is at most 64 characters long."
		case seen[prm.Name]:
			return "The page parameter '" + prm.Name + "' is listed twice."
		case len(prm.Description) > 500:
			return "The description of page parameter '" + prm.Name + "' is longer than 500 characters."
		}
		seen[prm.Name] = true
	}
	return ""
}
