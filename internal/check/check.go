// Package check is the release-readiness engine (issue 29, design §7 "Release readiness"): it
// reads a portal's tree through one interface (a workspace folder, a commit, a folder on disk),
// builds the portal's reference graph once (pages ↔ sitemap ids, data-pw-widget → instance →
// type, data-pw-t and widget values → translation keys, src/href/url()/schema media fields →
// files), and runs rules over that graph as pure functions. Each rule has an id, a severity
// and a test over a real tree (docs/readiness.md lists them).
//
// The engine knows nothing of users, databases or HTTP: the CLI (`portalwright check`), the
// readiness feature's API, the editors' marks and the approval gate are faces of the same
// findings. It reuses the product's rules — the translation key status, the JSON Schema
// validator, the whitelist scan — rather than a second copy.
//
// Incremental runs: an Index keeps what it parsed of each file with the file's Version; Refresh
// lists the tree again and re-reads only the files whose Version changed (Update: only the
// paths a save names). The findings are kept too (the memo, memo.go): each rule declares the
// portal-wide sets it reads besides a file's own facts, and after a change only the changed
// files, and the files of rules whose sets moved, are checked again; a Report gathers the
// findings and applies the budgets. A full run is NewIndex + Report.
package check

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
)

// Severity of a finding.
type Severity string

const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Info    Severity = "info"
)

// Rule ids (docs/readiness.md explains each one and its settings).
const (
	RuleLinkPageMissing        = "link.page-missing"
	RulePageMissingFile        = "page.missing-file"
	RuleAssetMissing           = "asset.missing"
	RuleWidgetMissing          = "widget.missing"
	RuleTranslationMissing     = "translation.missing"
	RuleTranslationUnknownKey  = "translation.unknown-key"
	RuleTranslationUnused      = "translation.unused"
	RuleTranslationPlaceholder = "translation.placeholder"
	RuleTranslationMarkup      = "translation.markup"
	RuleTranslationLength      = "translation.length"
	RulePageImgAlt             = "page.img-alt"
	RuleContentSyntax          = "content.syntax"
	RuleContentSchema          = "content.schema"
	RuleWhitelistNotAllowed    = "whitelist.not-allowed"
	RuleSizeBudget             = "size.budget"
)

// Finding is one thing wrong with a portal. Path is relative to the portal root, slash
// separated, without a leading slash. Pointer is a JSON pointer into Path (content, widget
// data); Key a translation key; Target what the finding refers to (the missing page id, the
// missing file, the URL not allowed). ID is a stable fingerprint (FindingID) that survives
// edits elsewhere in the file: ignores are keyed by it.
type Finding struct {
	ID       string   `json:"id"`
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Path     string   `json:"path"`
	Line     int      `json:"line,omitempty"`
	Pointer  string   `json:"pointer,omitempty"`
	Key      string   `json:"key,omitempty"`
	Language string   `json:"language,omitempty"`
	Target   string   `json:"target,omitempty"`
	Message  string   `json:"message"`
	Fix      string   `json:"fix,omitempty"`
}

// FindingID is the fingerprint of a finding: its rule, path, pointer, key, language and target
// (never its line or message, which move and change wording).
func FindingID(f Finding) string {
	h := sha256.New()
	for _, s := range []string{f.Rule, f.Path, f.Pointer, f.Key, f.Language, f.Target} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// File is a regular file of a tree. Version changes whenever the content may have changed
// (a blob id for a commit; size and modification time for a folder).
type File struct {
	Path    string
	Size    int64
	Version string
}

// Tree is what the engine reads: a workspace folder, a commit, or a folder on disk. Files
// lists the regular files (no links, no submodules, nothing under .git); Read reads one of
// them. Paths are relative, slash separated, without a leading slash.
type Tree interface {
	Files(ctx context.Context) ([]File, error)
	Read(ctx context.Context, path string) ([]byte, error)
}
