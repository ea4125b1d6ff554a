package backup

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"portalwright/internal/workspace/backups"
	"portalwright/internal/workspace/hostsync"
)

// ManifestName is the manifest's name in a backup; it is written last.
const ManifestName = "manifest.json"

// Format is the version of the backup layout this binary writes and reads.
const Format = 1

// Manifest describes a complete backup. A backup without one is incomplete.
type Manifest struct {
	Format     int       `json:"format"`
	Product    string    `json:"product"` // "portalwright"
	Version    string    `json:"version"` // the product's version that made it
	StartedAt  time.Time `json:"startedAt"`
	FinishedAt time.Time `json:"finishedAt"`
	// DataDir is the data directory backed up (restore rewrites paths the database holds
	// under it).
	DataDir string `json:"dataDir"`

	Database     Database     `json:"database"`
	Repositories []Repository `json:"repositories"`
	Loadables    []Loadable   `json:"loadables"`
	// IncludesWorkspaces says whether --include-workspaces was given; Workspaces lists them.
	IncludesWorkspaces bool        `json:"includesWorkspaces"`
	Workspaces         []Workspace `json:"workspaces,omitempty"`
	// Files lists every file of the backup but the manifest, with its checksum.
	Files []File `json:"files"`
}

// Database is the database copy.
type Database struct {
	Dialect       string `json:"dialect"` // sqlite or postgres
	SchemaVersion int64  `json:"schemaVersion"`
	File          string `json:"file"`             // database/portalwright.db or database/portalwright.sql
	Schema        string `json:"schema,omitempty"` // PostgreSQL: the schema dumped
	// Dump says how the copy was made: "vacuum-into", "pg_dump" or "given" (--database-dump).
	Dump string `json:"dump"`
}

// Repository is one portal's canonical repository.
type Repository struct {
	Portal int64  `json:"portal"`
	Bundle string `json:"bundle,omitempty"` // "" for an empty repository
	Head   string `json:"head"`
	// Refs are every ref of the snapshot (kept commits' refs included) and its object.
	Refs map[string]string `json:"refs"`
	// Kept are commits the database referred to that no branch reached: in the bundle under
	// backups.ReferencedRefs.
	Kept []string `json:"kept,omitempty"`
	// SideFiles are the files kept beside the refs, by name (hostsync.SideFiles).
	SideFiles map[string]string `json:"sideFiles,omitempty"` // name → path in the backup
}

// Loadable is one loadable package.
type Loadable struct {
	ID     int64  `json:"id"`
	Portal int64  `json:"portal"`
	File   string `json:"file"` // loadables/<portal>/<id>/<name>
	SHA256 string `json:"sha256"`
}

// Workspace is one author's workspace of a portal.
type Workspace struct {
	User   int64  `json:"user"`
	Portal int64  `json:"portal"`
	Bundle string `json:"bundle,omitempty"`
	backups.WorkspaceSnapshot
}

// File is one file of the backup.
type File struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	// Secret: a key (the secrets key, the SSH host key) or a file that may hold secrets (the
	// hand-over targets file). Every file is written with mode 0600; these are flagged so an
	// operator who splits a backup keeps them apart.
	Secret bool `json:"secret,omitempty"`
}

// parseManifest reads a manifest and checks that it is one this binary can restore and that
// every path it names is a file it lists.
func parseManifest(data []byte) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("the manifest is not valid JSON: %w", err)
	}
	if m.Product != "portalwright" {
		return nil, errors.New("the manifest is not a Portalwright backup's")
	}
	if m.Format != Format {
		return nil, fmt.Errorf("the backup's format is %d; this version of Portalwright reads format %d", m.Format, Format)
	}
	if m.FinishedAt.IsZero() || m.FinishedAt.Before(m.StartedAt) {
		return nil, errors.New("the manifest has no valid finishing time")
	}
	files := map[string]bool{}
	for _, f := range m.Files {
		if err := safePath(f.Path); err != nil {
			return nil, err
		}
		if files[f.Path] {
			return nil, fmt.Errorf("the manifest lists %s twice", f.Path)
		}
		if len(f.SHA256) != 64 || f.Size < 0 {
			return nil, fmt.Errorf("the manifest's entry of %s has no valid checksum", f.Path)
		}
		files[f.Path] = true
	}
	need := func(p, what string) error {
		if !files[p] {
			return fmt.Errorf("the manifest names %s (%s) but does not list it", p, what)
		}
		return nil
	}
	switch m.Database.Dialect {
	case "sqlite", "postgres":
	default:
		return nil, fmt.Errorf("the manifest names an unknown database %q", m.Database.Dialect)
	}
	if err := need(m.Database.File, "the database"); err != nil {
		return nil, err
	}
	for _, r := range m.Repositories {
		if r.Bundle != "" {
			if err := need(r.Bundle, "a repository"); err != nil {
				return nil, err
			}
		}
		for name, p := range r.SideFiles {
			if !isSideFile(name) {
				return nil, fmt.Errorf("the manifest names an unknown repository file %q", name)
			}
			if err := need(p, "a repository file"); err != nil {
				return nil, err
			}
		}
	}
	for _, l := range m.Loadables {
		if err := need(l.File, "a loadable"); err != nil {
			return nil, err
		}
		if !strings.HasPrefix(l.File, "loadables/") {
			return nil, fmt.Errorf("the manifest names a loadable outside loadables/: %s", l.File)
		}
	}
	for _, w := range m.Workspaces {
		if w.Bundle != "" {
			if err := need(w.Bundle, "a workspace"); err != nil {
				return nil, err
			}
		}
	}
	return &m, nil
}

func isSideFile(name string) bool {
	for _, n := range hostsync.SideFiles {
		if n == name {
			return true
		}
	}
	return false
}

// safePath refuses a path that could leave the folder it is restored into.
func safePath(p string) error {
	if p == "" || p != path.Clean(p) || path.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../") || strings.ContainsAny(p, "\\\x00") || p == ManifestName {
		return fmt.Errorf("the backup names an unsafe path %q", p)
	}
	return nil
}

// sortFiles orders the file list by path (a stable manifest).
func sortFiles(files []File) {
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
}
