package page

// The batch save of the page designer (spec 2 §3 "Batch save item", §4: the dirty cache saved
// in one batch; spec 3 §7 POST /portal/{d}/{p}/batch): pages and widget data, each item
// written whole or not at all on its own, the workspace change published once.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"regexp"
	"strings"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
)

// Types of batch items.
const (
	TypePage   = "page"
	TypeWidget = "widget"
)

// FullSize is the designer's default media query (spec 2 §9): the widget's own data.
const FullSize = "Full Size"

// WidgetsDir is where widget instance data lives (design §7).
const WidgetsDir = "widgets/database"

// MaxBatchItems bounds the items of one batch.
const MaxBatchItems = 500

// BatchItem is one item of a batch save. File names what is saved: for a page its id
// (pages/<id>.html; master-page: index.html), for a widget its id
// (widgets/database/<id>.json). Data is the page's HTML (a JSON string) or the widget's data
// (see Batch). Version is the version of the file the edit started from ("" for a file that
// does not exist yet); it is required.
type BatchItem struct {
	File    string          `json:"file"`
	Data    json.RawMessage `json:"data"`
	Type    string          `json:"type"`
	Query   string          `json:"query,omitempty"`
	Version *string         `json:"version"`
}

// BatchResult is the answer for one item: its file as sent, and either its new version or
// its error (the spec's error object).
type BatchResult struct {
	File    string        `json:"file"`
	Path    string        `json:"path,omitempty"`
	Version string        `json:"version,omitempty"`
	Error   *apperr.Error `json:"error,omitempty"`
	item    *workspace.FileWrite
}

var widgetIDRule = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$`)

func itemError(status int, code, msg string) *apperr.Error {
	return apperr.NewError(status, code, "Could not save design surface changes.", msg)
}

// Batch saves the items: each is checked (type, file, version, data) and written whole or
// not at all; a failed item leaves its file untouched and the others are saved. The answer
// lists every item in order.
//
// A widget item's data: with no query (or "Full Size"), a JSON object with a string "type"
// is the whole widget file ({type, data, mediaQueries?}), any other JSON value replaces the
// file's "data"; with a query (a media query such as "(max-width: 600px)"), it replaces the
// file's mediaQueries[query] (the overrides the engine applies over data when the query
// matches; null removes them). Other members of the file are kept in their order.
func (s *Service) Batch(ctx context.Context, c caller.Caller, pa portalaccess.Portal, items []BatchItem) ([]BatchResult, error) {
	if len(items) == 0 {
		return nil, apperr.Validation("The batch holds no items.")
	}
	if len(items) > MaxBatchItems {
		return nil, apperr.Validation("A batch holds at most 500 items; save in several batches.")
	}
	var tree *SitemapPage // read once, when a page item needs it
	results := make([]BatchResult, len(items))
	seen := map[string]int{}
	for i, it := range items {
		results[i].File = it.File
		w, err := s.prepare(ctx, c, pa, it, &tree)
		if err != nil {
			results[i].Error = err
			continue
		}
		results[i].Path = w.Path.String()
		if j, dup := seen[w.Path.String()]; dup {
			results[i].Error = itemError(http.StatusBadRequest, "DUPLICATE_ITEM", "The batch saves "+w.Path.String()+" twice; send one item per file.")
			if results[j].Error == nil {
				results[j].Error, results[j].item = results[i].Error, nil
			}
			continue
		}
		seen[w.Path.String()] = i
		results[i].item = w
	}
	var writes []workspace.FileWrite
	var at []int
	for i := range results {
		if results[i].item != nil {
			writes = append(writes, *results[i].item)
			at = append(at, i)
		}
	}
	versions, errs, err := s.ws.Files().WriteEach(ctx, c, pa, writes)
	if err != nil {
		return nil, err
	}
	for k, i := range at {
		if errs[k] != nil {
			results[i].Error = apperr.AsError(errs[k])
			results[i].Error.Title = "Could not save design surface changes."
			continue
		}
		results[i].Version = string(versions[k])
	}
	return results, nil
}

// prepare checks an item and makes its write.
func (s *Service) prepare(ctx context.Context, c caller.Caller, pa portalaccess.Portal, it BatchItem, tree **SitemapPage) (*workspace.FileWrite, *apperr.Error) {
	if it.Version == nil {
		return nil, itemError(http.StatusPreconditionRequired, CodeVersionRequired, "The item must say which version of its file it is based on (version, \"\" for a new file). Reload, then apply your change again.")
	}
	base := workspace.BasedOn(*it.Version)
	switch it.Type {
	case TypePage:
		var text string
		if err := json.Unmarshal(it.Data, &text); err != nil || len(it.Data) == 0 {
			return nil, itemError(http.StatusBadRequest, CodeValidation, "The data of a page item must be its HTML as a JSON string.")
		}
		p, err := s.pagePath(ctx, c, pa, it.File, tree)
		if err != nil {
			return nil, err
		}
		return &workspace.FileWrite{Path: p, Data: []byte(text), Base: base}, nil
	case TypeWidget:
		if !widgetIDRule.MatchString(it.File) || strings.Contains(it.File, "..") {
			return nil, itemError(http.StatusBadRequest, CodeValidation, "A widget id may hold only letters, digits, dots, dashes and underscores (at most 128 characters): it names widgets/database/<id>.json.")
		}
		p, err := workspace.CleanPath(WidgetsDir + "/" + it.File + ".json")
		if err != nil {
			return nil, itemError(http.StatusBadRequest, "INVALID_PATH", "The widget id does not name a file.")
		}
		data, err2 := s.widgetData(ctx, c, pa, p, it, base)
		if err2 != nil {
			return nil, err2
		}
		return &workspace.FileWrite{Path: p, Data: data, Base: base}, nil
	}
	return nil, itemError(http.StatusBadRequest, CodeValidation, "The item type must be 'page' or 'widget'.")
}

// pagePath is the file of a page item: a page of the sitemap, or master-page (index.html).
func (s *Service) pagePath(ctx context.Context, c caller.Caller, pa portalaccess.Portal, id string, tree **SitemapPage) (workspace.Path, *apperr.Error) {
	if id == MasterID {
		return workspace.MustPath(MasterFile), nil
	}
	if !ValidID(id) {
		return workspace.Path{}, itemError(http.StatusBadRequest, CodeValidation, MsgID)
	}
	if *tree == nil {
		st, err := s.readSitemap(ctx, c, pa, MsgUpdateFailed)
		if err != nil {
			return workspace.Path{}, apperr.AsError(err)
		}
		*tree = st.root
	}
	if page, _, _ := find(*tree, id); page == nil {
		return workspace.Path{}, itemError(http.StatusNotFound, CodePageNotFound, "There is no page '"+id+"' in the sitemap. Add it in the Page Manager first.")
	}
	p, err := PageFile(id)
	if err != nil {
		return workspace.Path{}, itemError(http.StatusBadRequest, CodeValidation, MsgID)
	}
	return p, nil
}

// widgetData makes a widget file's new content from an item (see Batch).
func (s *Service) widgetData(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path, it BatchItem, base workspace.Version) ([]byte, *apperr.Error) {
	bad := func(msg string) *apperr.Error {
		return itemError(http.StatusBadRequest, "CONTENT_VALIDATION_FAILED", msg)
	}
	raw := bytes.TrimSpace(it.Data)
	if len(raw) > 0 && raw[0] == '"' { // the widget's JSON sent as text
		var text string
		if json.Unmarshal(raw, &text) != nil {
			return nil, bad("The widget data is not valid JSON ('Wrong JSON Format').")
		}
		raw = bytes.TrimSpace([]byte(text))
	}
	if len(raw) == 0 || !json.Valid(raw) {
		return nil, bad("The widget data is not valid JSON ('Wrong JSON Format').")
	}
	query := strings.TrimSpace(it.Query)
	if query == FullSize {
		query = ""
	}
	if len(query) > 200 || strings.ContainsAny(query, "\r\n\x00") {
		return nil, bad("The media query name is not usable (one line, at most 200 characters).")
	}
	if query == "" {
		if obj, err := parseObject(raw); err == nil && obj.has("type") {
			var typ string
			if json.Unmarshal(obj.get("type"), &typ) != nil || typ == "" {
				return nil, bad("The widget's type must be a non-empty string.")
			}
			return indent(raw)
		}
	}
	// A part of the file changes: read it at the item's version.
	current, version, err := s.ws.Files().Read(ctx, c, pa, p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, bad("The widget file " + p.String() + " does not exist; send the whole widget ({type, data}) to create it.")
	}
	if err != nil {
		return nil, apperr.AsError(editing.FileError(err, p.String()))
	}
	if version != base {
		return nil, apperr.AsError(stale("Could not save design surface changes.", p.String(), version))
	}
	obj, err := parseObject(current)
	if err != nil {
		return nil, bad("The widget file " + p.String() + " is not a JSON object; correct it in the file explorer first.")
	}
	if query == "" {
		obj.set("data", raw)
	} else {
		queries, err := parseObject(obj.get("mediaQueries"))
		if obj.get("mediaQueries") == nil {
			queries, err = &object{}, nil
		}
		if err != nil {
			return nil, bad("The mediaQueries of " + p.String() + " is not a JSON object; correct it in the file explorer first.")
		}
		if string(raw) == "null" {
			queries.remove(query)
		} else {
			queries.set(query, raw)
		}
		enc, _ := queries.marshal()
		obj.set("mediaQueries", enc)
	}
	enc, err := obj.marshal()
	if err != nil {
		return nil, bad("The widget data could not be written.")
	}
	return indent(enc)
}

func indent(raw []byte) ([]byte, *apperr.Error) {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return nil, itemError(http.StatusBadRequest, "CONTENT_VALIDATION_FAILED", "The widget data is not valid JSON ('Wrong JSON Format').")
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// object is a JSON object with its members in their order.
type object struct {
	keys []string
	vals map[string]json.RawMessage
}

func parseObject(data []byte) (*object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not an object")
	}
	o := &object{vals: map[string]json.RawMessage{}}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		o.set(key, v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return o, nil
}

func (o *object) has(k string) bool            { _, ok := o.vals[k]; return ok }
func (o *object) get(k string) json.RawMessage { return o.vals[k] }

func (o *object) set(k string, v json.RawMessage) {
	if o.vals == nil {
		o.vals = map[string]json.RawMessage{}
	}
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *object) remove(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	for i, x := range o.keys {
		if x == k {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

func (o *object) marshal() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		b.Write(o.vals[k])
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
