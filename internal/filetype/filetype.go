// Package filetype is the one table of file types the product owns (not the host's mime
// database): for a file name, its media type, whether it is UTF-8 text (served with
// charset=utf-8, editable in the source editor, searched for references) and the source
// editor's Ace mode. A name the table does not know is sniffed: a NUL byte in its first
// SniffLen bytes makes it binary, else it is plain text.
//
// The web app's Ace modes and their loaders are generated from this table
// (web/src/features/editors/aceModes.generated.ts; TestWebModesAreGenerated fails on drift).
package filetype

import (
	"bytes"
	"path"
	"sort"
	"strings"
)

// Type is what the product knows of a kind of file.
type Type struct {
	MIME string // the media type, without parameters
	Text bool   // UTF-8 text: charset=utf-8, the source editor, the reference search
	Mode string // the source editor's Ace mode ("" for binary files)
}

// ContentType is the Content-Type header of the type: text carries charset=utf-8.
func (t Type) ContentType() string {
	if t.Text {
		return t.MIME + "; charset=utf-8"
	}
	return t.MIME
}

// Binary is an unknown file with a NUL byte; Plain is an unknown file without one.
var (
	Binary = Type{MIME: "application/octet-stream"}
	Plain  = Type{MIME: "text/plain", Text: true, Mode: "text"}
)

// SniffLen is how much of an unknown file is searched for a NUL byte (git's own rule).
const SniffLen = 8000

func text(mime, mode string) Type { return Type{MIME: mime, Text: true, Mode: mode} }
func bin(mime string) Type        { return Type{MIME: mime} }

// byExt are the types by lower-case extension (without its dot).
var byExt = map[string]Type{
	// Markup and prose.
	"md": text("text/markdown", "markdown"), "markdown": text("text/markdown", "markdown"),
	"mdx": text("text/markdown", "markdown"), "txt": text("text/plain", "text"),
	"text": text("text/plain", "text"), "log": text("text/plain", "text"),
	"html": text("text/html", "html"), "htm": text("text/html", "html"), "xhtml": text("application/xhtml+xml", "html"),
	"rst": text("text/x-rst", "rst"), "adoc": text("text/asciidoc", "asciidoc"), "tex": text("text/x-tex", "latex"),
	"xml": text("application/xml", "xml"), "xsl": text("application/xml", "xml"), "rss": text("application/rss+xml", "xml"),
	"atom": text("application/atom+xml", "xml"), "svg": text("image/svg+xml", "svg"),
	"csv": text("text/csv", "csv"), "tsv": text("text/tab-separated-values", "tsv"),
	// Styles.
	"css": text("text/css", "css"), "scss": text("text/x-scss", "scss"), "sass": text("text/x-sass", "sass"),
	"less": text("text/x-less", "less"), "styl": text("text/x-stylus", "stylus"),
	// Scripts and components.
	"js": text("text/javascript", "javascript"), "mjs": text("text/javascript", "javascript"),
	"cjs": text("text/javascript", "javascript"), "jsx": text("text/javascript", "jsx"),
	"ts": text("text/typescript", "typescript"), "mts": text("text/typescript", "typescript"),
	"cts": text("text/typescript", "typescript"), "tsx": text("text/tsx", "tsx"),
	"vue": text("text/x-vue", "vue"), "svelte": text("text/x-svelte", "html"), "astro": text("text/x-astro", "astro"),
	"hbs": text("text/x-handlebars-template", "handlebars"), "handlebars": text("text/x-handlebars-template", "handlebars"),
	"njk": text("text/x-nunjucks", "nunjucks"), "liquid": text("text/x-liquid", "liquid"),
	"ejs": text("text/x-ejs", "ejs"), "pug": text("text/x-pug", "jade"), "twig": text("text/x-twig", "twig"),
	// Data and configuration.
	"json": text("application/json", "json"), "schema": text("application/schema+json", "json"),
	"jsonc": text("application/json", "json"), "json5": text("application/json5", "json5"),
	"geojson": text("application/geo+json", "json"), "jsonld": text("application/ld+json", "json"),
	"webmanifest": text("application/manifest+json", "json"), "map": text("application/json", "json"),
	"yaml": text("text/yaml", "yaml"), "yml": text("text/yaml", "yaml"), "toml": text("application/toml", "toml"),
	"ini": text("text/plain", "ini"), "cfg": text("text/plain", "ini"), "conf": text("text/plain", "ini"),
	"properties": text("text/plain", "properties"), "lock": text("text/plain", "text"),
	"graphql": text("application/graphql", "graphqlschema"), "gql": text("application/graphql", "graphqlschema"),
	"prisma": text("text/plain", "prisma"), "proto": text("text/plain", "protobuf"), "tf": text("text/plain", "terraform"),
	"diff": text("text/x-diff", "diff"), "patch": text("text/x-diff", "diff"), "sql": text("application/sql", "sql"),
	// Programs.
	"sh": text("text/x-sh", "sh"), "bash": text("text/x-sh", "sh"), "zsh": text("text/x-sh", "sh"),
	"ps1": text("text/plain", "powershell"), "bat": text("text/plain", "batchfile"),
	"py": text("text/x-python", "python"), "rb": text("text/x-ruby", "ruby"), "go": text("text/x-go", "golang"),
	"rs": text("text/x-rust", "rust"), "php": text("text/x-php", "php"), "java": text("text/x-java", "java"),
	"kt": text("text/x-kotlin", "kotlin"), "swift": text("text/x-swift", "swift"),
	"c": text("text/x-c", "c_cpp"), "h": text("text/x-c", "c_cpp"), "cpp": text("text/x-c++", "c_cpp"),
	"cs": text("text/x-csharp", "csharp"), "lua": text("text/x-lua", "lua"),
	// Images.
	"png": bin("image/png"), "jpg": bin("image/jpeg"), "jpeg": bin("image/jpeg"), "gif": bin("image/gif"),
	"webp": bin("image/webp"), "avif": bin("image/avif"), "bmp": bin("image/bmp"), "tif": bin("image/tiff"),
	"tiff": bin("image/tiff"), "ico": bin("image/x-icon"), "apng": bin("image/apng"),
	// Video and audio.
	"mp4": bin("video/mp4"), "webm": bin("video/webm"), "ogv": bin("video/ogg"), "mov": bin("video/quicktime"),
	"m4v": bin("video/x-m4v"), "avi": bin("video/x-msvideo"), "mkv": bin("video/x-matroska"),
	"mp3": bin("audio/mpeg"), "wav": bin("audio/wav"), "ogg": bin("audio/ogg"), "oga": bin("audio/ogg"),
	"m4a": bin("audio/mp4"), "aac": bin("audio/aac"), "flac": bin("audio/flac"),
	// Fonts.
	"woff": bin("font/woff"), "woff2": bin("font/woff2"), "ttf": bin("font/ttf"), "otf": bin("font/otf"),
	"eot": bin("application/vnd.ms-fontobject"),
	// Documents and archives.
	"pdf": bin("application/pdf"), "doc": bin("application/msword"),
	"docx": bin("application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
	"xls":  bin("application/vnd.ms-excel"), "xlsx": bin("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
	"ppt": bin("application/vnd.ms-powerpoint"), "pptx": bin("application/vnd.openxmlformats-officedocument.presentationml.presentation"),
	"odt": bin("application/vnd.oasis.opendocument.text"), "ods": bin("application/vnd.oasis.opendocument.spreadsheet"),
	"odp": bin("application/vnd.oasis.opendocument.presentation"),
	"zip": bin("application/zip"), "gz": bin("application/gzip"), "tgz": bin("application/gzip"),
	"tar": bin("application/x-tar"), "wasm": bin("application/wasm"),
}

// byName are files known by their whole (lower-case) name: dot-files and names without an
// extension that are text by convention.
var byName = map[string]Type{
	"license": text("text/plain", "text"), "licence": text("text/plain", "text"), "copying": text("text/plain", "text"),
	"readme": text("text/plain", "text"), "changelog": text("text/plain", "text"), "changes": text("text/plain", "text"),
	"history": text("text/plain", "text"), "authors": text("text/plain", "text"), "contributors": text("text/plain", "text"),
	"contributing": text("text/plain", "text"), "notice": text("text/plain", "text"), "codeowners": text("text/plain", "text"),
	"dockerfile": text("text/plain", "dockerfile"), "containerfile": text("text/plain", "dockerfile"),
	"makefile": text("text/x-makefile", "makefile"), "gnumakefile": text("text/x-makefile", "makefile"),
	"procfile": text("text/plain", "text"), "gemfile": text("text/x-ruby", "ruby"), "rakefile": text("text/x-ruby", "ruby"),
	"vagrantfile": text("text/x-ruby", "ruby"), "jenkinsfile": text("text/plain", "groovy"), "brewfile": text("text/x-ruby", "ruby"),
	".nvmrc": text("text/plain", "text"), ".node-version": text("text/plain", "text"), ".python-version": text("text/plain", "text"),
	".ruby-version": text("text/plain", "text"), ".tool-versions": text("text/plain", "text"),
	".editorconfig": text("text/plain", "ini"), ".gitattributes": text("text/plain", "text"), ".gitmodules": text("text/plain", "ini"),
	".gitignore": text("text/plain", "gitignore"), ".dockerignore": text("text/plain", "gitignore"),
	".npmignore": text("text/plain", "gitignore"), ".prettierignore": text("text/plain", "gitignore"),
	".eslintignore": text("text/plain", "gitignore"), ".stylelintignore": text("text/plain", "gitignore"),
	".vercelignore": text("text/plain", "gitignore"), ".gitkeep": text("text/plain", "text"), ".keep": text("text/plain", "text"),
	".nojekyll": text("text/plain", "text"), ".mailmap": text("text/plain", "text"), ".browserslistrc": text("text/plain", "text"),
	".npmrc": text("text/plain", "ini"), ".yarnrc": text("text/plain", "ini"), ".env": text("text/plain", "sh"),
	".prettierrc": text("text/plain", "yaml"), ".eslintrc": text("text/plain", "yaml"), ".stylelintrc": text("text/plain", "yaml"),
	".babelrc": text("application/json", "json"), ".swcrc": text("application/json", "json"),
	".htaccess": text("text/plain", "apache_conf"),
}

// ByName is the type a file's name says: its whole name (LICENSE, Dockerfile, .nvmrc), else
// its extension; ok is false when the table knows neither (the content decides: Of).
func ByName(name string) (Type, bool) {
	lower := strings.ToLower(path.Base(name))
	if t, ok := byName[lower]; ok {
		return t, true
	}
	if e := path.Ext(lower); e != "" && e != lower {
		t, ok := byExt[e[1:]]
		return t, ok
	}
	return Type{}, false
}

// Of is the type of a file from its name, else from the start of its content (sample: at
// least its first SniffLen bytes, or all of it).
func Of(name string, sample []byte) Type {
	if t, ok := ByName(name); ok {
		return t
	}
	return Sniff(sample)
}

// Sniff is the type of content the table's names do not decide: Binary with a NUL byte in
// its first SniffLen bytes, else Plain.
func Sniff(sample []byte) Type {
	if bytes.IndexByte(sample[:min(len(sample), SniffLen)], 0) >= 0 {
		return Binary
	}
	return Plain
}

// Modes are the Ace modes the table names, sorted, "text" among them.
func Modes() []string {
	seen := map[string]bool{Plain.Mode: true}
	for _, m := range []map[string]Type{byExt, byName} {
		for _, t := range m {
			if t.Mode != "" {
				seen[t.Mode] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for m := range seen {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

// TextExtensions are the extensions the table knows as text, sorted (docs/api.md lists them).
func TextExtensions() []string { return textKeys(byExt) }

// TextNames are the whole names the table knows as text, sorted.
func TextNames() []string { return textKeys(byName) }

func textKeys(m map[string]Type) []string {
	var out []string
	for k, t := range m {
		if t.Text {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
