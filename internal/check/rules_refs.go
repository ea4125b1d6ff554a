package check

import (
	"net/url"
	"path"
	"strings"
)

// The reference rules: links to pages, page files, referenced files, widgets, image alt text.

type rule struct {
	ids []string
	run func(m *model, emit func(Finding))
}

var rules = []rule{
	{[]string{RuleLinkPageMissing}, ruleLinks},
	{[]string{RulePageMissingFile}, rulePageFiles},
	{[]string{RuleAssetMissing}, ruleAssets},
	{[]string{RuleWidgetMissing}, ruleWidgets},
	{[]string{RulePageImgAlt}, ruleImgAlt},
	{[]string{RuleTranslationMissing}, ruleTranslationMissing},
	{[]string{RuleTranslationUnknownKey, RuleTranslationUnused}, ruleTranslationKeys},
	{[]string{RuleTranslationPlaceholder, RuleTranslationMarkup, RuleTranslationLength}, ruleTranslationValues},
	{[]string{RuleContentSyntax, RuleContentSchema}, ruleContent},
	{[]string{RuleWhitelistNotAllowed}, ruleWhitelist},
	{[]string{RuleSizeBudget}, ruleSize},
}

// htmlRole is how a portal reads an HTML file.
type htmlRole int

const (
	roleNone     htmlRole = iota // not checked (no portal.json)
	rolePage                     // master page or a page of the sitemap: paths from the portal root
	roleTemplate                 // a widget template: paths from the portal root, {{…}} skipped
	roleFile                     // any other HTML file of a portal: paths from its folder
)

func (m *model) roleOf(p string) htmlRole {
	if !m.lay.has {
		return roleNone
	}
	if m.lay.engine {
		if p == masterFile {
			return rolePage
		}
		if _, ok := m.pageFiles[p]; ok {
			return rolePage
		}
		if strings.HasPrefix(p, "widgets/modules/") && path.Base(p) == "template.html" {
			return roleTemplate
		}
	}
	return roleFile
}

// htmlFiles are the read HTML files with their role, sorted.
func (m *model) htmlFiles(fn func(p string, d *details, role htmlRole)) {
	for _, p := range m.html {
		e := m.files[p]
		if e.d == nil {
			continue
		}
		if r := m.roleOf(p); r != roleNone {
			fn(p, e.d, r)
		}
	}
}

func isHTML(p string) bool {
	l := strings.ToLower(p)
	return strings.HasSuffix(l, ".html") || strings.HasSuffix(l, ".htm")
}

func isCSS(p string) bool { return strings.HasSuffix(strings.ToLower(p), ".css") }

// pageIDs are the pages an internal link ("#/page?x=1") goes to: one, or two for the captcha
// form "#/{captchaPageId}/captcha-page/{errorPageId}/{url}"; nil for anything else.
func pageIDs(v string) []string {
	rest, ok := strings.CutPrefix(strings.TrimSpace(v), "#/")
	if !ok || strings.Contains(rest, "{{") {
		return nil
	}
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		rest = rest[:i]
	}
	parts := strings.Split(rest, "/")
	if parts[0] == "" {
		return nil
	}
	if len(parts) >= 3 && parts[1] == "captcha-page" && parts[2] != "" {
		return []string{parts[0], parts[2]}
	}
	return parts[:1]
}

// hasScheme says whether v starts with a URL scheme ("https:", "data:", "mailto:" …).
func hasScheme(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == ':':
			return i > 0
		case isLetter(c), i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-'):
		default:
			return false
		}
	}
	return false
}

// localFile is the file a link names, relative to the portal root (base: the folder relative
// paths start from); ok is false for what is not a file of the portal (other sites, mail,
// in-page and internal links, template placeholders).
func localFile(v, base string) (string, bool) {
	v = strings.TrimSpace(v)
	if v == "" || buildPlaceholder(v) || v[0] == '#' || v[0] == '?' || strings.HasPrefix(v, "//") || hasScheme(v) {
		return "", false
	}
	if i := strings.IndexAny(v, "?#"); i >= 0 {
		v = v[:i]
	}
	if d, err := url.PathUnescape(v); err == nil {
		v = d
	}
	if v == "" {
		return "", false
	}
	if strings.HasPrefix(v, "/") {
		return path.Clean(strings.TrimLeft(v, "/")), true
	}
	return path.Join(base, v), true
}

// buildPlaceholder says whether a value is filled in by a template or a build: {{x}}, {% x %},
// ${x}, <%= x %>, %PUBLIC_URL%.
func buildPlaceholder(v string) bool {
	if strings.Contains(v, "{{") || strings.Contains(v, "{%") || strings.Contains(v, "${") || strings.Contains(v, "<%") {
		return true
	}
	if i := strings.IndexByte(v, '%'); i >= 0 {
		if j := strings.IndexByte(v[i+1:], '%'); j > 0 {
			name := v[i+1 : i+1+j]
			return strings.Trim(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == ""
		}
	}
	return false
}

// missingFile says whether a file a link names is missing (outside the portal counts).
func (m *model) missingFile(p string) bool {
	if p == "." || p == "" {
		return false
	}
	if p == ".." || strings.HasPrefix(p, "../") {
		return true
	}
	return !m.exists(p)
}

// widgetLeaf is one value of widget data with the editor of its property.
type widgetLeaf struct {
	ref
	editor string
	rest   []string // what is left of the pointer below the property ({type, value} of a link)
	key    string   // the value upper-cased and trimmed, when it reads as a translation key
}

// widgetLeaves calls fn for every string value of every widget instance, with the editor of
// its property when the widget's type declares it ("" otherwise).
func (m *model) widgetLeaves(fn func(p string, wl widgetLeaf)) {
	for _, p := range m.wdata {
		for _, wl := range m.leaves[p] {
			fn(p, wl)
		}
	}
}

// editorOf finds the property of a widget data pointer (/data/…, /mediaQueries/<q>/…).
func editorOf(props []probeProp, ptr string) (string, []string) {
	segs := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	switch {
	case len(segs) >= 2 && segs[0] == "data":
		segs = segs[1:]
	case len(segs) >= 3 && segs[0] == "mediaQueries":
		segs = segs[2:]
	default:
		return "", nil
	}
	for i := 0; i < len(segs); i++ {
		name := strings.ReplaceAll(strings.ReplaceAll(segs[i], "~1", "/"), "~0", "~")
		var prop *probeProp
		for k := range props {
			if props[k].Name == name {
				prop = &props[k]
				break
			}
		}
		if prop == nil {
			return "", nil
		}
		if prop.Editor == "SubEditor" {
			props = prop.Properties
			i++ // the item's index
			continue
		}
		return prop.Editor, segs[i+1:]
	}
	return "", nil
}

// linkValue is the href of a LinkManager value: the string itself or the value of
// {type, value}.
func linkValue(wl widgetLeaf) (string, bool) {
	if wl.editor != "LinkManager" {
		return "", false
	}
	if len(wl.rest) == 0 || (len(wl.rest) == 1 && wl.rest[0] == "value") {
		return wl.val, true
	}
	return "", false
}

func ruleLinks(m *model, emit func(Finding)) {
	if !m.hasSitemap {
		return
	}
	check := func(p string, line int, ptr, key, lang, v string) {
		for _, id := range pageIDs(v) {
			if !m.pages[id] {
				emit(Finding{Rule: RuleLinkPageMissing, Path: p, Line: line, Pointer: ptr, Key: key, Language: lang, Target: id,
					Message: "Link to the page '" + id + "', which is not in the sitemap.",
					Fix:     "Link to a page of the sitemap, or add the page '" + id + "'."})
			}
		}
	}
	m.htmlFiles(func(p string, d *details, role htmlRole) {
		if role != rolePage && role != roleTemplate {
			return
		}
		for _, l := range d.links {
			if l.attr == "href" {
				check(p, l.line, "", "", "", l.val)
			}
		}
	})
	m.widgetLeaves(func(p string, wl widgetLeaf) {
		switch {
		case wl.editor == "PageSelector" && len(wl.rest) == 0 && wl.val != "" && !strings.Contains(wl.val, "{{"):
			if !m.pages[wl.val] {
				emit(Finding{Rule: RuleLinkPageMissing, Path: p, Line: wl.line, Pointer: wl.ptr, Target: wl.val,
					Message: "The page '" + wl.val + "' is not in the sitemap.", Fix: "Choose a page of the sitemap."})
			}
		default:
			if v, ok := linkValue(wl); ok {
				check(p, wl.line, wl.ptr, "", "", v)
			}
		}
	})
	if m.tr != nil {
		for _, l := range m.tr.languages {
			lf := m.tr.files[l]
			for _, k := range m.tr.keysOf(l) {
				if strings.HasPrefix(k, "LNK_") {
					check(lf.path, lf.lines[k], "", k, l, m.tr.data[l][k])
				}
			}
		}
	}
}

func rulePageFiles(m *model, emit func(Finding)) {
	if !m.hasSitemap {
		return
	}
	for _, pg := range m.files["sitemap.json"].d.pages {
		f, ok := pageFile(pg.url)
		if !pg.hasURL || pg.url == "" || !ok {
			emit(Finding{Rule: RulePageMissingFile, Path: "sitemap.json", Line: pg.line, Pointer: pg.ptr + "/url", Target: pg.id,
				Message: "The page '" + pg.id + "' has no file (its url is empty or not inside the portal).",
				Fix:     "Set the page's url to its file, e.g. /pages/" + pg.id + ".html."})
			continue
		}
		if m.files[f] == nil {
			emit(Finding{Rule: RulePageMissingFile, Path: "sitemap.json", Line: pg.line, Pointer: pg.ptr + "/url", Target: f,
				Message: "The file " + f + " of the page '" + pg.id + "' is not there.",
				Fix:     "Create " + f + ", or remove the page from the sitemap."})
		}
	}
}

func ruleAssets(m *model, emit func(Finding)) {
	if !m.lay.has {
		return
	}
	missing := func(p string, line int, ptr, key, lang, v, base string) {
		t, ok := localFile(v, base)
		if !ok || !m.missingFile(t) {
			return
		}
		emit(Finding{Rule: RuleAssetMissing, Path: p, Line: line, Pointer: ptr, Key: key, Language: lang, Target: t,
			Message: "The file " + t + " is not there.", Fix: "Upload " + t + ", or correct the path."})
	}
	m.htmlFiles(func(p string, d *details, role htmlRole) {
		base := ""
		if role == roleFile {
			base = path.Dir(p)
		}
		for _, l := range d.links {
			missing(p, l.line, "", "", "", l.val, base)
		}
	})
	for _, p := range m.sorted() {
		e := m.files[p]
		if e.d == nil {
			continue
		}
		if isCSS(p) {
			for _, l := range e.d.links {
				missing(p, l.line, "", "", "", l.val, path.Dir(p))
			}
		}
		if c := e.d.content; c != nil {
			for _, l := range c.media {
				missing(p, l.line, l.ptr, "", "", l.val, "")
			}
		}
	}
	m.widgetLeaves(func(p string, wl widgetLeaf) {
		if wl.editor == "AssetManager" && len(wl.rest) == 0 {
			missing(p, wl.line, wl.ptr, "", "", wl.val, "")
		} else if v, ok := linkValue(wl); ok {
			missing(p, wl.line, wl.ptr, "", "", v, "")
		}
	})
	if m.tr != nil {
		for _, l := range m.tr.languages {
			lf := m.tr.files[l]
			for _, k := range m.tr.keysOf(l) {
				if strings.HasPrefix(k, "IMG_") || strings.HasPrefix(k, "LNK_") {
					missing(lf.path, lf.lines[k], "", k, l, m.tr.data[l][k], "")
				}
			}
		}
	}
}

func ruleWidgets(m *model, emit func(Finding)) {
	if !m.lay.engine {
		return
	}
	m.htmlFiles(func(p string, d *details, role htmlRole) {
		if role == roleFile {
			return
		}
		for _, w := range d.widgets {
			if w.val == "" || strings.Contains(w.val, "{{") {
				continue
			}
			if f := "widgets/database/" + w.val + ".json"; !cleanRel(f) || m.files[f] == nil {
				emit(Finding{Rule: RuleWidgetMissing, Path: p, Line: w.line, Target: w.val,
					Message: "The widget '" + w.val + "' has no data (widgets/database/" + w.val + ".json).",
					Fix:     "Create the widget's data, or remove the widget from the page."})
			}
		}
	})
	for _, p := range m.wdata {
		e := m.files[p]
		if e.d == nil || e.d.syntax != nil {
			continue
		}
		t := e.d.wtype
		if _, ok := m.probes[t.val]; ok {
			continue
		}
		if t.val == "" {
			emit(Finding{Rule: RuleWidgetMissing, Path: p, Line: 1, Pointer: "/type",
				Message: "The widget has no type.", Fix: "Set \"type\" to a folder of widgets/modules."})
			continue
		}
		emit(Finding{Rule: RuleWidgetMissing, Path: p, Line: t.line, Pointer: "/type", Target: t.val,
			Message: "The widget type '" + t.val + "' does not exist (widgets/modules/" + t.val + "/config.probe.json).",
			Fix:     "Add the widget type, or change the widget's type."})
	}
}

func ruleImgAlt(m *model, emit func(Finding)) {
	m.htmlFiles(func(p string, d *details, role htmlRole) {
		if role == roleTemplate {
			return
		}
		for i, line := range d.imgNoAlt {
			emit(Finding{Rule: RulePageImgAlt, Path: p, Line: line, Target: "img " + itoa(i+1),
				Message: "An image without an alt attribute: screen readers read its file name.",
				Fix:     "Describe the image in alt (or data-pw-t-alt); alt=\"\" marks a decorative one."})
		}
	})
}
