package portal

import (
	"context"
	"time"

	"portalwright/internal/store"
)

// CategoryStore keeps the domains' categories (the categories table) and which portals are
// linked to them (portals.category_id). It is a store of its own beside SQLStore (portal
// records) and TemplateStore, over the same database.
type CategoryStore struct{ db *store.DB }

func NewCategoryStore(db *store.DB) *CategoryStore { return &CategoryStore{db: db} }

func (s *CategoryStore) Categories(ctx context.Context, domainID int64) ([]Category, error) {
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

func (s *CategoryStore) CreateCategory(ctx context.Context, domainID int64, name string) (*Category, error) {
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

func (s *CategoryStore) RenameCategory(ctx context.Context, domainID, id int64, name string) error {
	err := store.Affected(s.db.ExecContext(ctx, "UPDATE categories SET name = ?, name_key = ? WHERE domain_id = ? AND id = ?", name, key(name), domainID, id))
	if store.IsUniqueViolation(err) {
		return ErrDuplicate
	}
	return err
}

func (s *CategoryStore) DeleteCategory(ctx context.Context, domainID, id int64) error {
	return store.Affected(s.db.ExecContext(ctx, "DELETE FROM categories WHERE domain_id = ? AND id = ?", domainID, id))
}

// LinkPortals puts portals into a category (nil: out of any), all or none.
func (s *CategoryStore) LinkPortals(ctx context.Context, domainID int64, categoryID *int64, portalIDs []int64) error {
	return s.db.WithTx(ctx, func(tx *store.Tx) error {
		for _, id := range portalIDs {
			if err := store.Affected(tx.ExecContext(ctx, "UPDATE portals SET category_id = ? WHERE domain_id = ? AND id = ?", categoryID, domainID, id)); err != nil {
				return err
			}
		}
		return nil
	})
}

func (s *CategoryStore) CategoryExists(ctx context.Context, domainID, id int64) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM categories WHERE domain_id = ? AND id = ?", domainID, id).Scan(&n)
	return n > 0, err
}
