package portal

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"portalwright/internal/portalaccess"
	"portalwright/internal/store"
)

// ErrDuplicate is a name taken within the domain.
var ErrDuplicate = errors.New("duplicate name")

// SQLStore keeps portal metadata (categories: CategoryStore, templates: TemplateStore).
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
	return s.queryPortals(ctx, "SELECT "+portalCols+` FROM portals p LEFT JOIN categories c ON c.id = p.category_id
		WHERE p.domain_id = ? ORDER BY p.name_key`, domainID)
}

// queryPortals runs a query of portalCols and scans every row.
func (s *SQLStore) queryPortals(ctx context.Context, query string, args ...any) ([]Portal, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
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
		args = append(args, "%"+store.EscapeLike(key(name))+"%")
	}
	if id != 0 {
		q += " AND p.id = ?"
		args = append(args, id)
	}
	return s.queryPortals(ctx, q+" ORDER BY p.name_key LIMIT 200", args...)
}

func (s *SQLStore) Portal(ctx context.Context, domainID, portalID int64) (*Portal, error) {
	return scanPortal(s.db.QueryRowContext(ctx, "SELECT "+portalCols+` FROM portals p LEFT JOIN categories c ON c.id = p.category_id
		WHERE p.domain_id = ? AND p.id = ?`, domainID, portalID))
}

// Load reads what a portal check hands on (portalaccess.Record) in one query: the portal's
// row and its domain's name.
func (s *SQLStore) Load(ctx context.Context, domainID, portalID int64) (portalaccess.Record, error) {
	var r portalaccess.Record
	var status, source string
	err := s.db.QueryRowContext(ctx, `SELECT p.name, d.name, p.status, p.portal_type, p.scope, p.active_branch, p.source
		FROM portals p JOIN domains d ON d.id = p.domain_id WHERE p.domain_id = ? AND p.id = ?`, domainID, portalID).
		Scan(&r.Name, &r.DomainName, &status, &r.Type, &r.Scope, &r.ActiveBranch, &source)
	r.Active, r.Imported = status == StatusActive, source == SourceURL
	return r, store.NotFound(err)
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
