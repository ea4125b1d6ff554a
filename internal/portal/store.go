package portal

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"portalwright/internal/store"
)

// ErrDuplicate is a name taken within the domain.
var ErrDuplicate = errors.New("duplicate name")

// SQLStore keeps portal metadata, categories and templates.
type SQLStore struct{ db *store.DB }

func NewSQLStore(db *store.DB) *SQLStore { return &SQLStore{db: db} }

func key(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

const portalCols = `p.id, p.domain_id, p.name, p.portal_type, p.scope, p.status, p.category_id, COALESCE(c.name, ''),
	p.active_branch, p.upstream_url, p.source, p.created_at, p.last_modified`

func scanPortal(row interface{ Scan(...any) error }) (*Portal, error) {
	var p Portal
	var cat sql.NullInt64
	if err := row.Scan(&p.ID, &p.DomainID, &p.Name, &p.Type, &p.Scope, &p.Status, &cat, &p.Category,
		&p.ActiveBranch, &p.URL, &p.Source, &p.CreatedAt, &p.LastModified); err != nil {
		return nil, store.NotFound(err)
	}
	if cat.Valid {
		p.CategoryID = &cat.Int64
	}
	p.CreatedAt, p.LastModified = p.CreatedAt.UTC(), p.LastModified.UTC()
	p.Deactivated = p.Status != StatusActive
	return &p, nil
}

func (s *SQLStore) Portals(ctx context.Context, domainID int64) ([]Portal, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+portalCols+` FROM portals p LEFT JOIN categories c ON c.id = p.category_id
		WHERE p.domain_id = ? ORDER BY p.name_key`, domainID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Portal{}
	for rows.Next() {
		p, err := scanPortal(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *p)
	}
	return out, rows.Err()
}

// Search finds portals by name (case-insensitive substring) across domains, or by id.
func (s *SQLStore) Search(ctx context.Context, name string, id int64) ([]Portal, error) {
	q := "SELECT " + portalCols + " FROM portals p LEFT JOIN categories c ON c.id = p.category_id WHERE 1=1"
	var args []any
	if name != "" {
		q += " AND p.name_key LIKE ? ESCAPE '\\'"
		args = append(args, "%"+escapeLike(key(name))+"%")
	}
	if id != 0 {
		q += " AND p.id = ?"
		args = append(args, id)
	}
	rows, err := s.db.QueryContext(ctx, q+" ORDER BY p.name_key LIMIT 200", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Portal{}
	for rows.Next() {
		p, err := scanPortal(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *p)
	}
	return out, rows.Err()
}

func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(s)
}

func (s *SQLStore) Portal(ctx context.Context, domainID, portalID int64) (*Portal, error) {
	return scanPortal(s.db.QueryRowContext(ctx, "SELECT "+portalCols+` FROM portals p LEFT JOIN categories c ON c.id = p.category_id
		WHERE p.domain_id = ? AND p.id = ?`, domainID, portalID))
}

// NameTaken tells whether the domain has a portal of that name (case-insensitively).
func (s *SQLStore) NameTaken(ctx context.Context, domainID int64, name string) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM portals WHERE domain_id = ? AND name_key = ?", domainID, key(name)).Scan(&n)
	return n > 0, err
}

// Insert adds a portal row; install is called inside the transaction with the new id to put
// the (already built) repository in place, so a failed install leaves no row.
func (s *SQLStore) Insert(ctx context.Context, p *Portal, createdBy int64, install func(id int64) error) error {
	now := time.Now().UTC()
	p.CreatedAt, p.LastModified, p.Status = now, now, StatusActive
	if p.ActiveBranch == "" {
		p.ActiveBranch = "master"
	}
	err := s.db.WithTx(ctx, func(tx *store.Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO portals (domain_id, name, name_key, portal_type, scope, status, category_id,
			active_branch, upstream_url, source, created_by, created_at, last_modified) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			p.DomainID, p.Name, key(p.Name), p.Type, p.Scope, p.Status, p.CategoryID, p.ActiveBranch, p.URL, p.Source, createdBy, now, now).Scan(&p.ID)
		if err != nil {
			return err
		}
		return install(p.ID)
	})
	if store.IsUniqueViolation(err) {
		return ErrDuplicate
	}
	return err
}

func (s *SQLStore) SetStatus(ctx context.Context, domainID, portalID int64, status string) error {
	return store.Affected(s.db.ExecContext(ctx, "UPDATE portals SET status = ?, last_modified = ? WHERE domain_id = ? AND id = ?",
		status, time.Now().UTC(), domainID, portalID))
}

func (s *SQLStore) Touch(ctx context.Context, portalID int64) error {
	_, err := s.db.ExecContext(ctx, "UPDATE portals SET last_modified = ? WHERE id = ?", time.Now().UTC(), portalID)
	return err
}

func (s *SQLStore) Delete(ctx context.Context, domainID, portalID int64) error {
	return store.Affected(s.db.ExecContext(ctx, "DELETE FROM portals WHERE domain_id = ? AND id = ?", domainID, portalID))
}

// categories ---------------------------------------------------------------------------

func (s *SQLStore) Categories(ctx context.Context, domainID int64) ([]Category, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id, name, created_at FROM categories WHERE domain_id = ? ORDER BY name_key", domainID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Category{}
	for rows.Next() {
		var c Category
		if err := rows.Scan(&c.ID, &c.Name, &c.CreatedAt); err != nil {
			return nil, err
		}
		c.Children = []Portal{}
		out = append(out, c)
	}
	return out, rows.Err()
}

func (s *SQLStore) CreateCategory(ctx context.Context, domainID int64, name string) (*Category, error) {
	c := &Category{Name: name, Children: []Portal{}, CreatedAt: time.Now().UTC()}
	err := s.db.WithTx(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, "INSERT INTO categories (domain_id, name, name_key, created_at) VALUES (?, ?, ?, ?) RETURNING id",
			domainID, name, key(name), c.CreatedAt).Scan(&c.ID)
	})
	if store.IsUniqueViolation(err) {
		return nil, ErrDuplicate
	}
	return c, err
}

func (s *SQLStore) RenameCategory(ctx context.Context, domainID, id int64, name string) error {
	err := store.Affected(s.db.ExecContext(ctx, "UPDATE categories SET name = ?, name_key = ? WHERE domain_id = ? AND id = ?", name, key(name), domainID, id))
	if store.IsUniqueViolation(err) {
		return ErrDuplicate
	}
	return err
}

func (s *SQLStore) DeleteCategory(ctx context.Context, domainID, id int64) error {
	return store.Affected(s.db.ExecContext(ctx, "DELETE FROM categories WHERE domain_id = ? AND id = ?", domainID, id))
}

// LinkPortals puts portals into a category (nil: out of any), all or none.
func (s *SQLStore) LinkPortals(ctx context.Context, domainID int64, categoryID *int64, portalIDs []int64) error {
	return s.db.WithTx(ctx, func(tx *store.Tx) error {
		for _, id := range portalIDs {
			if err := store.Affected(tx.ExecContext(ctx, "UPDATE portals SET category_id = ? WHERE domain_id = ? AND id = ?", categoryID, domainID, id)); err != nil {
				return err
			}
		}
		return nil
	})
}

func (s *SQLStore) CategoryExists(ctx context.Context, domainID, id int64) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM categories WHERE domain_id = ? AND id = ?", domainID, id).Scan(&n)
	return n > 0, err
}

// templates ----------------------------------------------------------------------------

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

func (s *SQLStore) Templates(ctx context.Context, domainID int64) ([]Template, error) {
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

func (s *SQLStore) Template(ctx context.Context, domainID, id int64) (*Template, error) {
	t, err := scanTemplate(s.db.QueryRowContext(ctx, "SELECT "+templateColumns+" FROM templates WHERE domain_id = ? AND id = ?", domainID, id), domainID)
	if err != nil {
		return nil, store.NotFound(err)
	}
	return &t, nil
}

// TemplateByName finds a domain's template by its name (case-insensitive, as names are unique).
func (s *SQLStore) TemplateByName(ctx context.Context, domainID int64, name string) (*Template, error) {
	t, err := scanTemplate(s.db.QueryRowContext(ctx, "SELECT "+templateColumns+" FROM templates WHERE domain_id = ? AND name_key = ?", domainID, key(name)), domainID)
	if err != nil {
		return nil, store.NotFound(err)
	}
	return &t, nil
}

func (s *SQLStore) CreateTemplate(ctx context.Context, domainID int64, t *Template) error {
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
func (s *SQLStore) UpdateTemplate(ctx context.Context, domainID int64, t *Template) error {
	err := store.Affected(s.db.ExecContext(ctx, "UPDATE templates SET name = ?, name_key = ?, source_portal_id = ? WHERE domain_id = ? AND id = ?",
		t.Name, key(t.Name), t.PortalID, domainID, t.ID))
	if store.IsUniqueViolation(err) {
		return ErrDuplicate
	}
	return err
}

// ClaimTemplateUpdate marks a template updating unless it already is (store.ErrNotFound then,
// or when it does not exist): one update at a time, decided by the database.
func (s *SQLStore) ClaimTemplateUpdate(ctx context.Context, domainID, id int64) error {
	return store.Affected(s.db.ExecContext(ctx, "UPDATE templates SET updating = ? WHERE domain_id = ? AND id = ? AND updating = ?", true, domainID, id, false))
}

// SetTemplateState records a template's create or update state: running, its source URL
// when done, the error when it failed.
func (s *SQLStore) SetTemplateState(ctx context.Context, domainID, id int64, updating bool, url, updateError string) error {
	return store.Affected(s.db.ExecContext(ctx, "UPDATE templates SET updating = ?, url = ?, update_error = ? WHERE domain_id = ? AND id = ?",
		updating, url, updateError, domainID, id))
}

func (s *SQLStore) DeleteTemplate(ctx context.Context, domainID, id int64) error {
	return store.Affected(s.db.ExecContext(ctx, "DELETE FROM templates WHERE domain_id = ? AND id = ?", domainID, id))
}

// microsites ---------------------------------------------------------------------------

// LinkedMicrosites lists the microsite portals linked into a portal.
func (s *SQLStore) LinkedMicrosites(ctx context.Context, portalID int64) ([]Portal, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+portalCols+` FROM portal_microsites pm JOIN portals p ON p.id = pm.microsite_id
		LEFT JOIN categories c ON c.id = p.category_id WHERE pm.portal_id = ? ORDER BY p.name_key`, portalID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Portal{}
	for rows.Next() {
		p, err := scanPortal(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *p)
	}
	return out, rows.Err()
}

// SetMicrositeLinks links (or unlinks) microsites into a portal, all or none.
func (s *SQLStore) SetMicrositeLinks(ctx context.Context, portalID int64, micrositeIDs []int64, link bool) error {
	return s.db.WithTx(ctx, func(tx *store.Tx) error {
		for _, m := range micrositeIDs {
			var err error
			if link {
				_, err = tx.ExecContext(ctx, `INSERT INTO portal_microsites (portal_id, microsite_id, created_at) VALUES (?, ?, ?)
					ON CONFLICT (portal_id, microsite_id) DO NOTHING`, portalID, m, time.Now().UTC())
			} else {
				_, err = tx.ExecContext(ctx, "DELETE FROM portal_microsites WHERE portal_id = ? AND microsite_id = ?", portalID, m)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// DomainOf returns the domain a portal belongs to.
func (s *SQLStore) DomainOf(ctx context.Context, portalID int64) (int64, error) {
	var d int64
	err := s.db.QueryRowContext(ctx, "SELECT domain_id FROM portals WHERE id = ?", portalID).Scan(&d)
	return d, store.NotFound(err)
}

// AllIDs lists the id of every portal of every domain (the data dir sweep keeps their files).
func (s *SQLStore) AllIDs(ctx context.Context) ([]int64, error) {
	return s.db.Int64s(ctx, `SELECT id FROM portals`)
}
