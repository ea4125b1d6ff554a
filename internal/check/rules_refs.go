package check

import (
	"net/url"
	"path"
	"strings"
)

// The reference rules: links to pages, page files, referenced files, widgets, image alt text.

// rule is one or more rule ids and how their findings are found, in up to three parts (the
// memo, memo.go, keeps what the first two found):
//   - file: one file's findings (called for files that were read), from its own facts and the
//     portal-wide sets fileDeps names;
//   - portal: findings from the portal-wide sets portalDeps names only;
//   - report: findings that read the budgets of readiness.json (m.cfg, which Options.Config may
//     replace), found on every Report.
type rule struct {
	ids        []string
	file       func(s *snapshot, p string, d *details, emit func(Finding))
	fileDeps   deps
	portal     func(s *snapshot, emit func(Finding))
	portalDeps deps
	report     func(m *model, emit func(Finding))
}

var rules = []rule{
	{ids: []string{RuleLinkPageMissing},
		file: linksIn, fileDeps: depPages | depProbes,
		portal: linksInTranslations, portalDeps: depTranslations | depPages},
	{ids: []string{RulePageMissingFile},
		portal: rulePageFiles, portalDeps: depSitemap | depList},
	{ids: []string{RuleAssetMissing},
		file: assetsIn, fileDeps: depList | depPages | depProbes,
		portal: assetsInTranslations, portalDeps: depTranslations | depList},
	{ids: []string{RuleWidgetMissing},
		file: widgetsIn, fileDeps: depList | depPages | depProbes},
	{ids: []string{RulePageImgAlt},
		file: imgAltIn, fileDeps: depPages},
	{ids: []string{RuleTranslationMissing},
		portal: ruleTranslationMissing, portalDeps: depTranslations},
	{ids: []string{RuleTranslationUnknownKey, RuleTranslationUnused},
		file: unknownKeysIn, fileDeps: depKeys | depPages | depProbes,
		portal: unusedKeys, portalDeps: depTranslations | depMentions},
	{ids: []string{RuleTranslationPlaceholder, RuleTranslationMarkup, RuleTranslationLength},
		report: ruleTranslationValues},
	{ids: []string{RuleContentSyntax, RuleContentSchema},
		file: contentIn, portal: translationFileProblems, portalDeps: depTranslations, report: budgetProblems},
	{ids: []string{RuleWhitelistNotAllowed},
		file: whitelistIn, fileDeps: depWhitelist,
		portal: whitelistNote, portalDeps: depWhitelist | depURLs},
	{ids: []string{RuleSizeBudget},
		report: ruleSize},
}

// htmlRole is how a portal reads an HTML file.
type htmlRole int

const (
	roleNone     htmlRole = iota // not checked (no portal.json)
	rolePage                     // master page or a page of the sitemap: paths from the portal root
	roleTemplate                 // a widget template: paths from the portal root, {{…}} skipped
	roleFile                     // any other HTML file of a portal: paths from its folder
)

func (s *snapshot) roleOf(p string) htmlRole {
	if !s.lay.has {
		return roleNone
	}
	if s.lay.engine {
		if p == masterFile {
			return rolePage
		}
		if _, ok := s.pageFiles[p]; ok {
			return rolePage
		}
		if strings.HasPrefix(p, "widgets/modules/") && path.Base(p) == "template.html" {
			return roleTemplate
		}
	}
	return roleFile
}

// htmlRole is p's role when p is an HTML file the rules read (roleNone otherwise).
func (s *snapshot) htmlRole(p string) htmlRole {
	if !isHTML(p) {
		return roleNone
	}
	return s.roleOf(p)
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
func (s *snapshot) missingFile(p string) bool {
	if p == "." || p == "" {
		return false
	}
	if p == ".." || strings.HasPrefix(p, "../") {
		return true
	}
	return !s.exists(p)
}

// widgetLeaf is one value of widget data with the editor of its property.
type widgetLeaf struct {
	ref
	editor string
	rest   []string // what is left of the pointer below the property ({type, value} of a link)
	key    string   // the value upper-cased and trimmed, when it reads as a translation key
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

// pageLink emits link.page-missing for each page an internal link names that is not in the
// sitemap.
func (s *snapshot) pageLink(emit func(Finding), p string, line int, ptr, key, lang, v string) {
	for _, id := range pageIDs(v) {
		if !s.pages[id] {
			emit(Finding{Rule: RuleLinkPageMissing, Path: p, Line: line, Pointer: ptr, Key: key, Language: lang, Target: id,
				Message: "Link to the page '" + id + "', which is not in the sitemap.",
				Fix:     "Link to a page of the sitemap, or add the page '" + id + "'."})
		}
	}
}

// linksIn: the internal links of the master page, the pages and widget templates, and the
// PageSelector and LinkManager values of widget data.
func linksIn(s *snapshot, p string, d *details, emit func(Finding)) {
	if !s.hasSitemap {
		return
	}
	if role := s.htmlRole(p); role == rolePage || role == roleTemplate {
		for _, l := range d.links {
			if l.attr == "href" {
				s.pageLink(emit, p, l.line, "", "", "", l.val)
			}
		}
	}
	for _, wl := range s.leavesOf(p) {
		switch {
		case wl.editor == "PageSelector" && len(wl.rest) == 0 && wl.val != "" && !strings.Contains(wl.val, "{{"):
			if !s.pages[wl.val] {
				emit(Finding{Rule: RuleLinkPageMissing, Path: p, Line: wl.line, Pointer: wl.ptr, Target: wl.val,
					Message: "The page '" + wl.val + "' is not in the sitemap.", Fix: "Choose a page of the sitemap."})
			}
		default:
			if v, ok := linkValue(wl); ok {
				s.pageLink(emit, p, wl.line, wl.ptr, "", "", v)
			}
		}
	}
}

// linksInTranslations: the LNK_ values of every language.
func linksInTranslations(s *snapshot, emit func(Finding)) {
	if !s.hasSitemap || s.tr == nil {
		return
	}
	for _, l := range s.tr.languages {
		lf := s.tr.files[l]
		for _, k := range s.tr.keysOf(l) {
			if strings.HasPrefix(k, "LNK_") {
				s.pageLink(emit, lf.path, lf.lines[k], "", k, l, s.tr.data[l][k])
			}
		}
	}
}

// leavesOf are the string values of widget data file p (nil for another file), with the
// editor of their property when the widget's type declares it ("" otherwise).
func (s *snapshot) leavesOf(p string) []widgetLeaf {
	if !isWidgetData(p) {
		return nil
	}
	return s.leaves[p]
}

func rulePageFiles(s *snapshot, emit func(Finding)) {
	if !s.hasSitemap {
		return
	}
	for _, pg := range s.files["sitemap.json"].d.pages {
		f, ok := pageFile(pg.url)
		if !pg.hasURL || pg.url == "" || !ok {
			emit(Finding{Rule: RulePageMissingFile, Path: "sitemap.json", Line: pg.line, Pointer: pg.ptr + "/url", Target: pg.id,
				Message: "The page '" + pg.id + "' has no file (its url is empty or not inside the portal).",
				Fix:     "Set the page's url to its file, e.g. /pages/" + pg.id + ".html."})
			continue
		}
		if s.files[f] == nil {
			emit(Finding{Rule: RulePageMissingFile, Path: "sitemap.json", Line: pg.line, Pointer: pg.ptr + "/url", Target: f,
				Message: "The file " + f + " of the page '" + pg.id + "' is not there.",
				Fix:     "Create " + f + ", or remove the page from the sitemap."})
		}
	}
}

// missingAsset emits asset.missing when the file a link names (from base) is not there.
func (s *snapshot) missingAsset(emit func(Finding), p string, line int, ptr, key, lang, v, base string) {
	t, ok := localFile(v, base)
	if !ok || !s.missingFile(t) {
		return
	}
	emit(Finding{Rule: RuleAssetMissing, Path: p, Line: line, Pointer: ptr, Key: key, Language: lang, Target: t,
		Message: "The file " + t + " is not there.", Fix: "Upload " + t + ", or correct the path."})
}

// assetsIn: the files HTML, CSS, content's media fields and widget data name.
func assetsIn(s *snapshot, p string, d *details, emit func(Finding)) {
	if !s.lay.has {
		return
	}
	if role := s.htmlRole(p); role != roleNone {
		base := ""
		if role == roleFile {
			base = path.Dir(p)
		}
		for _, l := range d.links {
			s.missingAsset(emit, p, l.line, "", "", "", l.val, base)
		}
	}
	if isCSS(p) {
		for _, l := range d.links {
			s.missingAsset(emit, p, l.line, "", "", "", l.val, path.Dir(p))
		}
	}
	if c := d.content; c != nil {
		for _, l := range c.media {
			s.missingAsset(emit, p, l.line, l.ptr, "", "", l.val, "")
		}
	}
	for _, wl := range s.leavesOf(p) {
		if wl.editor == "AssetManager" && len(wl.rest) == 0 {
			s.missingAsset(emit, p, wl.line, wl.ptr, "", "", wl.val, "")
		} else if v, ok := linkValue(wl); ok {
			s.missingAsset(emit, p, wl.line, wl.ptr, "", "", v, "")
		}
	}
}

// assetsInTranslations: the IMG_ and LNK_ values of every language.
func assetsInTranslations(s *snapshot, emit func(Finding)) {
	if !s.lay.has || s.tr == nil {
		return
	}
	for _, l := range s.tr.languages {
		lf := s.tr.files[l]
		for _, k := range s.tr.keysOf(l) {
			if strings.HasPrefix(k, "IMG_") || strings.HasPrefix(k, "LNK_") {
				s.missingAsset(emit, lf.path, lf.lines[k], "", k, l, s.tr.data[l][k], "")
			}
		}
	}
}

// widgetsIn: the widgets of the master page, the pages and widget templates, and the type of
// widget data.
func widgetsIn(s *snapshot, p string, d *details, emit func(Finding)) {
	if !s.lay.engine {
		return
	}
	if role := s.htmlRole(p); role == rolePage || role == roleTemplate {
		for _, w := range d.widgets {
			if w.val == "" || strings.Contains(w.val, "{{") {
				continue
			}
			if f := "widgets/database/" + w.val + ".json"; !cleanRel(f) || s.files[f] == nil {
				emit(Finding{Rule: RuleWidgetMissing, Path: p, Line: w.line, Target: w.val,
					Message: "The widget '" + w.val + "' has no data (widgets/database/" + w.val + ".json).",
					Fix:     "Create the widget's data, or remove the widget from the page."})
			}
		}
	}
	if !isWidgetData(p) || d.syntax != nil {
		return
	}
	t := d.wtype
	if _, ok := s.probes[t.val]; ok {
		return
	}
	if t.val == "" {
		emit(Finding{Rule: RuleWidgetMissing, Path: p, Line: 1, Pointer: "/type",
			Message: "The widget has no type.", Fix: "Set \"type\" to a folder of widgets/modules."})
		return
	}
	emit(Finding{Rule: RuleWidgetMissing, Path: p, Line: t.line, Pointer: "/type", Target: t.val,
		Message: "The widget type '" + t.val + "' does not exist (widgets/modules/" + t.val + "/config.probe.json).",
		Fix:     "Add the widget type, or change the widget's type."})
}

func imgAltIn(s *snapshot, p string, d *details, emit func(Finding)) {
	if role := s.htmlRole(p); role == roleNone || role == roleTemplate {
		return
	}
	for i, line := range d.imgNoAlt {
		emit(Finding{Rule: RulePageImgAlt, Path: p, Line: line, Target: "img " + itoa(i+1),
			Message: "An image without an alt attribute: screen readers read its file name.",
			Fix:     "Describe the image in alt (or data-pw-t-alt); alt=\"\" marks a decorative one."})
	}
}
