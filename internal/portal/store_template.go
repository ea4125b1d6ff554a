package portal

import (
	"context"
	"database/sql"
	"time"

	"portalwright/internal/store"
)

// TemplateStore keeps the domains' own templates (the templates table): their rows and the
// updating/update error state while a portal-made template's source is read. It is a store of
// its own beside SQLStore (portal records, categories), over the same database.
type TemplateStore struct{ db *store.DB }

func NewTemplateStore(db *store.DB) *TemplateStore { return &TemplateStore{db: db} }

const templateColumns = "id, name, starter, source_portal_id, url, updating, update_error"

func scanTemplate(row interface{ Scan(...any) error }, domainID int64) (Template, error) {
	var t Template
	var src sql.NullInt64
	if err := row.Scan(&t.ID, &t.Name, &t.Starter, &src, &t.URL, &t.Updating, &t.UpdateError); err != nil {
		return t, err
	}
	if src.Valid {
		t.PortalID = &src.Int64
	}
	t.TemplateName, t.Accounts = t.Name, []int64{domainID}
	return t, nil
}

func (s *TemplateStore) Templates(ctx context.Context, domainID int64) ([]Template, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+templateColumns+" FROM templates WHERE domain_id = ? ORDER BY name_key", domainID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Template{}
	for rows.Next() {
		t, err := scanTemplate(rows, domainID)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

func (s *TemplateStore) Template(ctx context.Context, domainID, id int64) (*Template, error) {
	t, err := scanTemplate(s.db.QueryRowContext(ctx, "SELECT "+templateColumns+" FROM templates WHERE domain_id = ? AND id = ?", domainID, id), domainID)
	if err != nil {
		return nil, store.NotFound(err)
	}
	return &t, nil
}

// TemplateByName finds a domain's template by its name (case-insensitive, as names are unique).
func (s *TemplateStore) TemplateByName(ctx context.Context, domainID int64, name string) (*Template, error) {
	t, err := scanTemplate(s.db.QueryRowContext(ctx, "SELECT "+templateColumns+" FROM templates WHERE domain_id = ? AND name_key = ?", domainID, key(name)), domainID)
	if err != nil {
		return nil, store.NotFound(err)
	}
	return &t, nil
}

func (s *TemplateStore) CreateTemplate(ctx context.Context, domainID int64, t *Template) error {
	err := s.db.WithTx(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, "INSERT INTO templates (domain_id, name, name_key, starter, source_portal_id, url, updating, update_error, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
			domainID, t.Name, key(t.Name), t.Starter, t.PortalID, t.URL, t.Updating, t.UpdateError, time.Now().UTC()).Scan(&t.ID)
	})
	if store.IsUniqueViolation(err) {
		return ErrDuplicate
	}
	t.TemplateName, t.Accounts = t.Name, []int64{domainID}
	return err
}

// UpdateTemplate writes what a template's PUT may change: its name and its source portal.
func (s *TemplateStore) UpdateTemplate(ctx context.Context, domainID int64, t *Template) error {
	err := store.Affected(s.db.ExecContext(ctx, "UPDATE templates SET name = ?, name_key = ?, source_portal_id = ? WHERE domain_id = ? AND id = ?",
		t.Name, key(t.Name), t.PortalID, domainID, t.ID))
	if store.IsUniqueViolation(err) {
		return ErrDuplicate
	}
	return err
}

// ClaimTemplateUpdate marks a template updating unless it already is (store.ErrNotFound then,
// or when it does not exist): one update at a time, decided by the database.
func (s *TemplateStore) ClaimTemplateUpdate(ctx context.Context, domainID, id int64) error {
	return store.Affected(s.db.ExecContext(ctx, "UPDATE templates SET updating = ? WHERE domain_id = ? AND id = ? AND updating = ?", true, domainID, id, false))
}

// SetTemplateState records a template's create or update state: running, its source URL
// when done, the error when it failed.
func (s *TemplateStore) SetTemplateState(ctx context.Context, domainID, id int64, updating bool, url, updateError string) error {
	return store.Affected(s.db.ExecContext(ctx, "UPDATE templates SET updating = ?, url = ?, update_error = ? WHERE domain_id = ? AND id = ?",
		updating, url, updateError, domainID, id))
}

func (s *TemplateStore) DeleteTemplate(ctx context.Context, domainID, id int64) error {
	return store.Affected(s.db.ExecContext(ctx, "DELETE FROM templates WHERE domain_id = ? AND id = ?", domainID, id))
}
