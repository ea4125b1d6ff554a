package preview

import (
	"io"
	"net/http"
	"regexp"
	"strings"

	"portalwright/internal/whitelist"
	"portalwright/internal/workspace"
)

// A preview answer runs a portal's scripts, which are untrusted (one author's page runs in
// another author's browser). Its Content-Security-Policy lets them run but keeps what they can
// reach to the portal's own files (and its whitelist): no fetch, XHR, beacon, image, font,
// media, frame, worker or form to any other host. Together with the app's frame-src (the frame
// cannot navigate itself elsewhere) and a sandbox without allow-popups or allow-top-navigation
// (the designer's frame), nothing read in the frame leaves by the usual ways.
//
// WebRTC does not go through fetch, so no CSP directive governs it in Chromium (CSP3's
// `webrtc 'block'` is "Unrecognized" there): a page could send a TURN Allocate whose USERNAME
// is the frame's key, or ICE checks whose ufrag is, to any host over UDP. Every answer also
// carries a Connection-Allowlist (connectionAllowlist): the answer's own origin and the
// whitelist, WebRTC blocked. The browser enforces it for the document and the frames that
// inherit its policies (about:srcdoc, about:blank), so no script in the page can lift it; it
// also refuses navigations and windows to other hosts (a shared link's links out).

// Sandbox flags of the answers. No allow-same-origin except on the frame origin (FrameOrigin):
// on the app's origin the portal runs in an opaque origin, away from the app's storage.
const (
	// sandboxFrame is the designer's frame: no popups (a window to any host), no downloads.
	sandboxFrame = "allow-scripts allow-forms allow-modals"
	// sandboxShared is a shared link, opened as a whole page on a phone: its links may open
	// new windows (a page can navigate itself anyway, so popups add no way out).
	sandboxShared = "allow-scripts allow-forms allow-modals allow-popups allow-popups-to-escape-sandbox allow-downloads"
)

// policy is one Content-Security-Policy of a preview answer.
type policy struct {
	sandbox string
	// own is the source expression of the portal's own files: 'self', or on the frame
	// origin that origin with the portal's path (one portal's frame cannot read another's).
	own string
	// ancestors may frame the answer.
	ancestors string
	// whitelist are sources of the portal's whitelist (whitelistSources), documents only.
	whitelist []string
}

// String is the header value. Scripts and styles may be inline or evaluated (portals are
// built that way) and data:/blob: URLs carry no request; every other load (images, fonts,
// media, manifests fall back to default-src), every connection and every frame is the
// portal's files or its whitelist; forms post only to the portal's files.
func (p policy) String() string {
	src := func(list ...string) string {
		return strings.Join(append(append([]string{p.own}, list...), p.whitelist...), " ")
	}
	return strings.Join([]string{
		"sandbox " + p.sandbox,
		"default-src " + src("'unsafe-inline'", "'unsafe-eval'", "data:", "blob:"),
		"connect-src " + src(),
		"frame-src " + src(),
		"worker-src " + p.own + " blob:",
		"object-src 'none'",
		"base-uri " + p.own,
		"form-action " + p.own,
		"frame-ancestors " + p.ancestors,
	}, "; ")
}

// connectionAllowlist is the Connection-Allowlist header value: connections (requests,
// navigations, windows) only to the answer's own origin and the whitelist's origins, and no
// WebRTC (webrtc=block). Redirects are followed as before (redirects=allow; by default the
// header refuses every redirect, a whitelisted CDN's too): the CSP still checks a request's
// every hop, and the origins that may redirect are the ones the page may reach anyway. The
// whitelist's sources are plain origins (whitelistSources), valid in a URL pattern and a
// structured-field string alike.
func (p policy) connectionAllowlist() string {
	list := []string{"response-origin"}
	for _, o := range p.whitelist {
		list = append(list, `"`+o+`/*"`)
	}
	return "(" + strings.Join(list, " ") + ");webrtc=block;redirects=allow"
}

// appPolicy is the policy of an answer on the app's origin (the frame with a token in its
// path, a shared link, a page's HTML).
func appPolicy(sandbox string) policy {
	return policy{sandbox: sandbox, own: "'self'", ancestors: "'self'"}
}

// setHeaders sets the headers of every preview answer, errors included: the policy and the
// connection allowlist, no referrer (a link out names nothing), no DNS prefetching of the
// page's links, no sniffing.
func (p policy) setHeaders(w http.ResponseWriter) {
	p.setPolicies(w)
	h := w.Header()
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-DNS-Prefetch-Control", "off")
	h.Set("X-Content-Type-Options", "nosniff")
}

// setPolicies sets the headers that name the whitelist.
func (p policy) setPolicies(w http.ResponseWriter) {
	w.Header().Set("Content-Security-Policy", p.String())
	w.Header().Set("Connection-Allowlist", p.connectionAllowlist())
}

// maxWhitelistFile is the largest whitelist.json read for a policy.
const maxWhitelistFile = 1 << 20

// withWhitelist sets the policy again with the portal's whitelist (opened by open) when the
// answer is a document: the only answers whose policy governs what loads.
func (p policy) withWhitelist(w http.ResponseWriter, contentType string, open func() (io.ReadCloser, error)) {
	if !isDocument(contentType) {
		return
	}
	f, err := open()
	if err != nil {
		return // no whitelist (or an unreadable one): the portal's own files only
	}
	raw, err := io.ReadAll(io.LimitReader(f, maxWhitelistFile+1))
	f.Close()
	if err != nil || len(raw) > maxWhitelistFile {
		return
	}
	if p.whitelist = whitelistSources(raw); len(p.whitelist) > 0 {
		p.setPolicies(w)
	}
}

func isDocument(contentType string) bool {
	ct, _, _ := strings.Cut(contentType, ";")
	ct = strings.TrimSpace(strings.ToLower(ct))
	return ct == "text/html" || ct == "application/xhtml+xml"
}

// cspHost is a host a source expression may carry: a name (a leading "*." allowed), an IPv4
// or a bracketed IPv6 address, an optional port. Anything else (a ';', a space, a quote) would
// change the policy, so it is left out.
var cspHost = regexp.MustCompile(`^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:[0-9]{1,5})?$|^\[[0-9a-f:.]+\](:[0-9]{1,5})?$`)

// maxWhitelistChars bounds the whitelist's sources in the headers (they name it four times):
// proxies refuse answers whose headers pass a few KiB.
const maxWhitelistChars = 1000

// whitelistFile is the portal's whitelist, at the top of the portal.
var whitelistFile = workspace.MustPath(whitelist.File)

// whitelistSources are the origins of whitelist.json's URLs (whitelist.Origin), at most
// maxWhitelistChars of them. Entries that are not plain http(s) URLs are skipped: the file is
// portal content and may have been edited by hand.
func whitelistSources(raw []byte) []string {
	entries, err := whitelist.Parse(raw)
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	size := 0
	for _, e := range entries {
		o := whitelist.Origin(e.URL)
		_, host, _ := strings.Cut(o, "://")
		if o == "" || seen[o] || !cspHost.MatchString(host) || size+len(o)+1 > maxWhitelistChars {
			continue
		}
		seen[o] = true
		size += len(o) + 1
		out = append(out, o)
	}
	return out
}
