package whitelist

// Finding external URLs in portal content, and comparing them with the whitelist. Pure
// functions over bytes: no file access here (the service reads the files).

import (
	"bytes"
	"html"
	"net/url"
	"path"
	"regexp"
	"strings"
)

// Ignored are the words that exclude a URL from the comparison, case-insensitive (spec 3 §5:
// "Whitelist comparison ignores urls containing inflight, placehold or portal-engine").
var Ignored = []string{"inflight", "placehold", "portal-engine"}

// Kinds of scanned files (what the answer's usedIn paths are).
const (
	KindPage        = "page"        // pages/*.html
	KindHTML        = "html"        // any other .html / .htm
	KindWidget      = "widget"      // widgets/database/*.json
	KindTranslation = "translation" // <translationsBasePath>/*.json
	KindJSON        = "json"        // any other .json
	KindCSS         = "css"         // .css
)

// kindOf is the kind of a file by its path, "" for a file that is not scanned. trDir is the
// portal's translations folder ("translations" by default).
func kindOf(p, trDir string) string {
	dir, name := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	lower := strings.ToLower(name)
	switch {
	case strings.HasSuffix(lower, ".html") || strings.HasSuffix(lower, ".htm"):
		if dir == "pages" {
			return KindPage
		}
		return KindHTML
	case strings.HasSuffix(lower, ".json"):
		switch dir {
		case "widgets/database":
			return KindWidget
		case trDir:
			return KindTranslation
		}
		return KindJSON
	case strings.HasSuffix(lower, ".css"):
		return KindCSS
	}
	return ""
}

var (
	// absoluteURL is an http:// or https:// URL, also with JSON-escaped slashes (https:\/\/…).
	// It ends at whitespace, quotes, angle brackets, brackets, braces, a backslash that does not
	// escape a slash, and the characters a URL cannot hold unescaped (^ ` |).
	absoluteURL = regexp.MustCompile(`(?i)\bhttps?:(?:\\?/){2}(?:[^\s"'<>()\[\]{}\\^` + "`" + `|]|\\/)+`)
	// relativeURL is a protocol-relative URL (//host/…) as the value of src= or href= (in HTML,
	// also inside a JSON string with escaped quotes) or of CSS url().
	relativeURL = regexp.MustCompile(`(?i)(?:\b(?:src|href)\s*=\s*\\?["']?|\burl\(\s*\\?["']?)((?:\\?/){2}[A-Za-z0-9](?:[^\s"'<>()\[\]{}\\^` + "`" + `|]|\\/)*)`)
	// namespaceAttr ends right before a URL that is an XML namespace name (xmlns="…",
	// xmlns:xlink="…"): an identifier a browser never loads.
	namespaceAttr = regexp.MustCompile(`(?i)\bxmlns(?::[a-z0-9_-]+)?\s*=\s*\\?["']?$`)
)

// Found is one URL at one line of a file.
type Found struct {
	URL  string
	Line int
}

// Extract finds the external URLs of one file's content: absolute http:// and https:// URLs
// anywhere, and protocol-relative ones (//host/…) in src=, href= and url(). JSON-escaped slashes
// are unescaped, and in HTML and CSS character references (&amp;) too; trailing punctuation
// (. , ; : ! ?) is not part of a URL. URLs containing an Ignored word and XML namespace names
// are left out. isMarkup says whether the content is HTML or CSS (entities are decoded).
func Extract(data []byte, isMarkup bool) []Found {
	var out []Found
	lines := lineCounter{data: data}
	add := func(start, end int) {
		raw := string(data[start:end])
		u := clean(raw, isMarkup)
		if u == "" || IsIgnored(u) {
			return
		}
		out = append(out, Found{URL: u, Line: lines.at(start)})
	}
	for _, m := range absoluteURL.FindAllIndex(data, -1) {
		if namespaceAttr.Match(data[max(0, m[0]-64):m[0]]) {
			continue
		}
		add(m[0], m[1])
	}
	for _, m := range relativeURL.FindAllSubmatchIndex(data, -1) {
		add(m[2], m[3])
	}
	return out
}

// clean unescapes a raw match and cuts trailing punctuation; "" when nothing of a URL is left.
func clean(raw string, isMarkup bool) string {
	u := strings.ReplaceAll(raw, `\/`, "/")
	if isMarkup && strings.Contains(u, "&") {
		u = html.UnescapeString(u)
	}
	u = strings.TrimRight(u, ".,;:!?*")
	rest := u
	if i := strings.Index(rest, "//"); i >= 0 {
		rest = rest[i+2:]
	}
	if rest == "" || rest[0] == '/' {
		return ""
	}
	return u
}

// IsIgnored says whether a URL is left out of the comparison (it contains an Ignored word).
func IsIgnored(u string) bool {
	lower := strings.ToLower(u)
	for _, w := range Ignored {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// lineCounter answers the 1-based line of byte offsets given in increasing order (it restarts
// when asked for an earlier one).
type lineCounter struct {
	data []byte
	pos  int
	line int
}

func (c *lineCounter) at(off int) int {
	if off < c.pos || c.line == 0 {
		c.pos, c.line = 0, 1
	}
	c.line += bytes.Count(c.data[c.pos:off], []byte{'\n'})
	c.pos = off
	return c.line
}

// Matcher compares URLs with a whitelist.
type Matcher struct {
	origins  map[string]bool // entries of just scheme://host[:port], normalised
	prefixes []string        // the other entries, normalised
}

// NewMatcher is a matcher over the whitelist's URLs (already validated or not: an entry that
// is not an http(s) URL matches nothing).
func NewMatcher(entries []string) *Matcher {
	m := &Matcher{origins: map[string]bool{}}
	for _, e := range entries {
		origin, rest, ok := splitOrigin(strings.TrimSpace(e))
		if !ok {
			continue
		}
		if rest == "" || rest == "/" {
			m.origins[origin] = true
		} else {
			m.prefixes = append(m.prefixes, origin+rest)
		}
	}
	return m
}

// Allowed says whether a URL is allowed: its origin is an entry of just scheme and host, or it
// starts with an entry (scheme and host compared case-insensitively). A protocol-relative URL
// is allowed when its http: or https: form is.
func (m *Matcher) Allowed(u string) bool {
	if strings.HasPrefix(u, "//") {
		return m.Allowed("https:"+u) || m.Allowed("http:"+u)
	}
	origin, rest, ok := splitOrigin(u)
	if !ok {
		return false
	}
	if m.origins[origin] {
		return true
	}
	full := origin + rest
	for _, p := range m.prefixes {
		if strings.HasPrefix(full, p) {
			return true
		}
	}
	return false
}

// splitOrigin splits an http(s) URL into its origin, lower-cased (scheme://host[:port], without
// user info) and the rest as written (path, query, fragment).
func splitOrigin(u string) (origin, rest string, ok bool) {
	scheme, after, found := strings.Cut(u, "://")
	scheme = strings.ToLower(scheme)
	if !found || (scheme != "http" && scheme != "https") {
		return "", "", false
	}
	end := strings.IndexAny(after, "/?#")
	host := after
	if end >= 0 {
		host, rest = after[:end], after[end:]
	}
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		host = host[i+1:]
	}
	if host == "" {
		return "", "", false
	}
	return scheme + "://" + strings.ToLower(host), rest, true
}

// Origin is scheme://host[:port] of an http(s) or protocol-relative URL (https: assumed for the
// latter), "" when it has none: what 'Add to whitelist' adds.
func Origin(u string) string {
	if strings.HasPrefix(u, "//") {
		u = "https:" + u
	}
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return ""
	}
	return strings.ToLower(p.Scheme + "://" + p.Host)
}
