package portal

import (
	"context"
	"errors"
	"time"

	"portalwright/internal/caller"
	"portalwright/internal/editing"
	"portalwright/internal/portalaccess"
	"portalwright/internal/store"
)

// The settings Portalwright keeps for a portal outside its repository (portal_settings; where
// a portal's settings live is decided in internal/editing/settings.go): a portal imported
// from a git URL whose repository has no portal.json, so turning on the Translation Manager
// never puts a file of ours into a project's history.

// SourceURL is the source of a portal imported from a git URL (portals.source).
const SourceURL = "url"

// KeptSettings reads a portal's kept settings and their revision (nil, 0 when none).
func (s *SQLStore) KeptSettings(ctx context.Context, portalID int64) ([]byte, int64, error) {
	var data string
	var rev int64
	err := s.db.QueryRowContext(ctx, "SELECT settings, revision FROM portal_settings WHERE portal_id = ?", portalID).Scan(&data, &rev)
	if errors.Is(store.NotFound(err), store.ErrNotFound) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	return []byte(data), rev, nil
}

// KeepSettings replaces a portal's kept settings if they are at revision base (0: none yet)
// and answers the new revision; editing.ErrSettingsMoved when they are not.
func (s *SQLStore) KeepSettings(ctx context.Context, portalID int64, data []byte, base, by int64) (int64, error) {
	now := time.Now().UTC()
	var err error
	if base == 0 {
		err = store.Affected(s.db.ExecContext(ctx, `INSERT INTO portal_settings (portal_id, settings, revision, updated_by, updated_at)
			VALUES (?, ?, 1, ?, ?) ON CONFLICT (portal_id) DO NOTHING`, portalID, string(data), nullID(by), now))
	} else {
		err = store.Affected(s.db.ExecContext(ctx, `UPDATE portal_settings SET settings = ?, revision = revision + 1, updated_by = ?, updated_at = ?
			WHERE portal_id = ? AND revision = ?`, string(data), nullID(by), now, portalID, base))
	}
	if errors.Is(err, store.ErrNotFound) {
		return base, editing.ErrSettingsMoved
	}
	return base + 1, err
}

// CopyKeptSettings gives a new portal (a clone) the kept settings of its source, if it has
// some.
func (s *SQLStore) CopyKeptSettings(ctx context.Context, from, to int64) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO portal_settings (portal_id, settings, revision, updated_by, updated_at)
		SELECT ?, settings, 1, updated_by, ? FROM portal_settings WHERE portal_id = ?`, to, time.Now().UTC(), from)
	return err
}

func nullID(id int64) any {
	if id <= 0 {
		return nil
	}
	return id
}

func (r records) KeptSettings(ctx context.Context, pa portalaccess.Portal) ([]byte, int64, error) {
	return r.s.store.KeptSettings(ctx, pa.ID())
}

func (r records) KeepSettings(ctx context.Context, c caller.Caller, pa portalaccess.Portal, data []byte, base int64) (int64, error) {
	return r.s.store.KeepSettings(ctx, pa.ID(), data, base, c.UserID)
}

// guessSettings keeps the settings guessed from an imported portal's files on its start
// branch (editing.GuessSettings), unless the repository carries its own portal.json. A
// failure leaves the spec's defaults: the import itself has succeeded.
func (s *Service) guessSettings(ctx context.Context, pt *Portal, by int64) {
	files, err := s.snaps.TreeFiles(ctx, pt.ID, "refs/heads/"+pt.ActiveBranch)
	if err != nil {
		return
	}
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.Path
	}
	st, ok := editing.GuessSettings(paths)
	if !ok {
		return
	}
	if data, err := editing.MarshalKept(st); err == nil {
		_, _ = s.store.KeepSettings(ctx, pt.ID, data, 0, by)
	}
}

// KeptSettings answers the settings kept for a portal outside its repository (nil when none
// are kept): what a build of a commit without portal.json uses (taskrunner.KeptSettings).
func (s *Service) KeptSettings(ctx context.Context, portalID int64) (*editing.Settings, error) {
	data, _, err := s.store.KeptSettings(ctx, portalID)
	if err != nil || data == nil {
		return nil, err
	}
	st, err := editing.ParseSettings(data)
	if err != nil {
		return nil, err
	}
	return &st, nil
}
