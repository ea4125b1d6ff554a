package access

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"

	"portalwright/internal/store"
)

// Errors the store reports for the service to translate.
var (
	ErrDuplicate = errors.New("duplicate")
	ErrNoUser    = errors.New("user does not exist")
)

// SQLStore keeps domains and their members in the metadata database.
type SQLStore struct{ db *store.DB }

func NewSQLStore(db *store.DB) *SQLStore { return &SQLStore{db: db} }

// GrantStore keeps permission groups, their permissions and their holders in the same
// database (permission_groups, group_permissions, user_groups).
type GrantStore struct{ db *store.DB }

// grants is the grant store over the same database (Service and Rules take it from here, so
// wiring needs one store).
func (s *SQLStore) grants() *GrantStore { return &GrantStore{db: s.db} }

func key(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

func scanDomains(rows *sql.Rows, err error) ([]Domain, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Domain{}
	for rows.Next() {
		var d Domain
		if err := rows.Scan(&d.ID, &d.Name, &d.HasLogo, &d.CreatedAt); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

const domainCols = "d.id, d.name, d.logo IS NOT NULL, d.created_at"

func (s *SQLStore) AllDomains(ctx context.Context) ([]Domain, error) {
	return scanDomains(s.db.QueryContext(ctx, "SELECT "+domainCols+" FROM domains d ORDER BY d.name_key"))
}

func (s *SQLStore) MemberDomains(ctx context.Context, userID int64) ([]Domain, error) {
	return scanDomains(s.db.QueryContext(ctx, "SELECT "+domainCols+` FROM domains d
		JOIN domain_users du ON du.domain_id = d.id WHERE du.user_id = ? ORDER BY d.name_key`, userID))
}

// DomainsWithPermission lists the domains where the user's groups give the permission.
func (s *SQLStore) DomainsWithPermission(ctx context.Context, userID int64, permission string) ([]Domain, error) {
	return scanDomains(s.db.QueryContext(ctx, "SELECT "+domainCols+` FROM domains d WHERE EXISTS (
		SELECT 1 FROM user_groups ug JOIN group_permissions gp ON gp.group_id = ug.group_id
		WHERE ug.domain_id = d.id AND ug.user_id = ? AND gp.permission = ?) ORDER BY d.name_key`, userID, permission))
}

func (s *SQLStore) Domain(ctx context.Context, id int64) (*Domain, error) {
	var d Domain
	err := s.db.QueryRowContext(ctx, "SELECT "+domainCols+" FROM domains d WHERE d.id = ?", id).Scan(&d.ID, &d.Name, &d.HasLogo, &d.CreatedAt)
	if err != nil {
		return nil, store.NotFound(err)
	}
	return &d, nil
}

func (s *SQLStore) CreateDomain(ctx context.Context, name string) (*Domain, error) {
	now := time.Now().UTC()
	d := &Domain{Name: name, CreatedAt: now}
	err := s.db.WithTx(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, `INSERT INTO domains (name, name_key, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id`,
			name, key(name), now, now).Scan(&d.ID)
	})
	if store.IsUniqueViolation(err) {
		return nil, ErrDuplicate
	}
	return d, err
}

func (s *SQLStore) RenameDomain(ctx context.Context, id int64, name string) error {
	res, err := s.db.ExecContext(ctx, "UPDATE domains SET name = ?, name_key = ?, updated_at = ? WHERE id = ?", name, key(name), time.Now().UTC(), id)
	if store.IsUniqueViolation(err) {
		return ErrDuplicate
	}
	return store.Affected(res, err)
}

// ErrHasPortals is returned by DeleteDomain while the domain still has portals: they must be
// deleted first (with their repositories and an audit entry each), never by the cascade.
var ErrHasPortals = errors.New("the domain still has portals")

// DeleteDomain removes a domain that has no portals. The domain row is locked first, so a
// portal created at the same time either is seen here (ErrHasPortals) or fails its foreign key.
func (s *SQLStore) DeleteDomain(ctx context.Context, id int64) error {
	return s.db.WithTx(ctx, func(tx *store.Tx) error {
		lock := "SELECT id FROM domains WHERE id = ?"
		if s.db.Dialect == store.Postgres {
			lock += " FOR UPDATE"
		}
		var got int64
		if err := tx.QueryRowContext(ctx, lock, id).Scan(&got); err != nil {
			return store.NotFound(err)
		}
		var portals int
		if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM portals WHERE domain_id = ?", id).Scan(&portals); err != nil {
			return err
		}
		if portals > 0 {
			return ErrHasPortals
		}
		return store.Affected(tx.ExecContext(ctx, "DELETE FROM domains WHERE id = ?", id))
	})
}

func (s *SQLStore) SetLogo(ctx context.Context, id int64, data []byte, contentType string) error {
	return store.Affected(s.db.ExecContext(ctx, "UPDATE domains SET logo = ?, logo_content_type = ?, updated_at = ? WHERE id = ?", data, contentType, time.Now().UTC(), id))
}

func (s *SQLStore) Logo(ctx context.Context, id int64) ([]byte, string, error) {
	var data []byte
	var ct string
	err := s.db.QueryRowContext(ctx, "SELECT logo, logo_content_type FROM domains WHERE id = ? AND logo IS NOT NULL", id).Scan(&data, &ct)
	return data, ct, store.NotFound(err)
}

func (s *SQLStore) Meta(ctx context.Context, id int64) (*AccountMeta, error) {
	var m AccountMeta
	err := s.db.QueryRowContext(ctx, `SELECT d.id, d.name, d.logo IS NOT NULL, d.created_at,
		(SELECT COUNT(*) FROM domain_users du WHERE du.domain_id = d.id),
		(SELECT COUNT(*) FROM permission_groups g WHERE g.domain_id = d.id),
		(SELECT COUNT(*) FROM portals p WHERE p.domain_id = d.id)
		FROM domains d WHERE d.id = ?`, id).Scan(&m.ID, &m.Name, &m.HasLogo, &m.CreatedAt, &m.MemberCount, &m.GroupCount, &m.PortalCount)
	if err != nil {
		return nil, store.NotFound(err)
	}
	return &m, nil
}

func (s *SQLStore) Members(ctx context.Context, domainID int64) ([]Member, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT u.id, u.username, u.first_name, u.last_name, u.email, u.admin
		FROM users u JOIN domain_users du ON du.user_id = u.id WHERE du.domain_id = ? ORDER BY u.username_key`, domainID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Member{}
	for rows.Next() {
		var m Member
		if err := rows.Scan(&m.ID, &m.UserName, &m.FirstName, &m.LastName, &m.Email, &m.Admin); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

func (s *SQLStore) IsMember(ctx context.Context, domainID, userID int64) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM domain_users WHERE domain_id = ? AND user_id = ?", domainID, userID).Scan(&n)
	return n > 0, err
}

// CanAdd tells whether a non-admin caller may add the user to the domain: the user is a member
// of it already, or of another domain where the caller holds domain_user_create — someone the
// caller can already see there. Nobody else is visible, whether they exist or not.
func (s *SQLStore) CanAdd(ctx context.Context, domainID, userID, callerID int64) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM domain_users du WHERE du.user_id = ? AND (du.domain_id = ?
		OR du.domain_id IN (SELECT ug.domain_id FROM user_groups ug JOIN group_permissions gp ON gp.group_id = ug.group_id
			WHERE ug.user_id = ? AND gp.permission = ?))`, userID, domainID, callerID, PermUserCreate).Scan(&n)
	return n > 0, err
}

// Candidates lists the users a caller may add to a domain: for admins (callerID 0) every user
// who is not a member; for others the members of the other domains where the caller holds
// domain_user_create who are not members.
func (s *SQLStore) Candidates(ctx context.Context, domainID, callerID int64) ([]Member, error) {
	q := `SELECT u.id, u.username, u.first_name, u.last_name, u.email, u.admin FROM users u
		WHERE NOT EXISTS (SELECT 1 FROM domain_users m WHERE m.domain_id = ? AND m.user_id = u.id)`
	args := []any{domainID}
	if callerID != 0 {
		q += ` AND EXISTS (SELECT 1 FROM domain_users du WHERE du.user_id = u.id AND du.domain_id IN (
			SELECT ug.domain_id FROM user_groups ug JOIN group_permissions gp ON gp.group_id = ug.group_id
			WHERE ug.user_id = ? AND gp.permission = ?))`
		args = append(args, callerID, PermUserCreate)
	}
	rows, err := s.db.QueryContext(ctx, q+" ORDER BY u.username_key", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Member{}
	for rows.Next() {
		var m Member
		if err := rows.Scan(&m.ID, &m.UserName, &m.FirstName, &m.LastName, &m.Email, &m.Admin); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

func (s *SQLStore) AddMember(ctx context.Context, domainID, userID int64) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO domain_users (domain_id, user_id, created_at) VALUES (?, ?, ?)
		ON CONFLICT (domain_id, user_id) DO NOTHING`, domainID, userID, time.Now().UTC())
	if store.IsForeignKeyViolation(err) {
		return ErrNoUser
	}
	return err
}

func (s *SQLStore) RemoveMember(ctx context.Context, domainID, userID int64) error {
	return s.db.WithTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, "DELETE FROM user_groups WHERE domain_id = ? AND user_id = ?", domainID, userID); err != nil {
			return err
		}
		return store.Affected(tx.ExecContext(ctx, "DELETE FROM domain_users WHERE domain_id = ? AND user_id = ?", domainID, userID))
	})
}

func (s *SQLStore) UsersInfo(ctx context.Context, domainID int64) ([]UserInfo, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT du.user_id, COALESCE(g.name, '') FROM domain_users du
		LEFT JOIN user_groups ug ON ug.domain_id = du.domain_id AND ug.user_id = du.user_id
		LEFT JOIN permission_groups g ON g.id = ug.group_id
		WHERE du.domain_id = ? ORDER BY du.user_id, g.name_key`, domainID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []UserInfo{}
	for rows.Next() {
		var id int64
		var group string
		if err := rows.Scan(&id, &group); err != nil {
			return nil, err
		}
		if len(out) == 0 || out[len(out)-1].UserID != id {
			out = append(out, UserInfo{UserID: id, AccountGroups: []AccountGroup{}})
		}
		if group != "" {
			last := &out[len(out)-1]
			last.AccountGroups = append(last.AccountGroups, AccountGroup{GroupName: group})
		}
	}
	return out, rows.Err()
}

func (s *GrantStore) Groups(ctx context.Context, domainID int64) ([]Group, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT g.id, g.name, COALESCE(gp.permission, '') FROM permission_groups g
		LEFT JOIN group_permissions gp ON gp.group_id = g.id WHERE g.domain_id = ? ORDER BY g.name_key, gp.permission`, domainID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Group{}
	for rows.Next() {
		var id int64
		var name, perm string
		if err := rows.Scan(&id, &name, &perm); err != nil {
			return nil, err
		}
		if len(out) == 0 || out[len(out)-1].ID != id {
			out = append(out, Group{ID: id, GroupName: name, Permissions: []string{}})
		}
		if perm != "" {
			last := &out[len(out)-1]
			last.Permissions = append(last.Permissions, perm)
		}
	}
	return out, rows.Err()
}

func (s *GrantStore) groupID(ctx context.Context, q store.Querier, domainID int64, name string) (int64, error) {
	var id int64
	err := q.QueryRowContext(ctx, "SELECT id FROM permission_groups WHERE domain_id = ? AND name_key = ?", domainID, key(name)).Scan(&id)
	return id, store.NotFound(err)
}

// CreateGroup adds a group; with a grantor, every permission must be one the grantor holds.
func (s *GrantStore) CreateGroup(ctx context.Context, domainID int64, name string, perms []string, grantor *int64) (*Group, error) {
	g := &Group{GroupName: name, Permissions: perms}
	err := s.db.WithTx(ctx, func(tx *store.Tx) error {
		if err := notHeld(ctx, tx, domainID, grantor, perms); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO permission_groups (domain_id, name, name_key, created_at) VALUES (?, ?, ?, ?) RETURNING id`,
			domainID, name, key(name), time.Now().UTC()).Scan(&g.ID); err != nil {
			return err
		}
		return insertPermissions(ctx, tx, g.ID, perms)
	})
	if store.IsUniqueViolation(err) {
		return nil, ErrDuplicate
	}
	return g, err
}

func insertPermissions(ctx context.Context, tx *store.Tx, groupID int64, perms []string) error {
	for _, p := range perms {
		if _, err := tx.ExecContext(ctx, "INSERT INTO group_permissions (group_id, permission) VALUES (?, ?)", groupID, p); err != nil {
			return err
		}
	}
	return nil
}

// NotHeldError refuses a change that would give permissions the caller does not hold.
type NotHeldError struct{ Permissions []string }

func (e *NotHeldError) Error() string {
	return "permissions not held by the caller: " + strings.Join(e.Permissions, ", ")
}

// heldBy reads the permissions a user's groups give in a domain, inside tx.
func heldBy(ctx context.Context, q store.Querier, domainID, userID int64) (map[string]bool, error) {
	rows, err := q.QueryContext(ctx, `SELECT DISTINCT gp.permission FROM group_permissions gp JOIN user_groups ug ON ug.group_id = gp.group_id
		WHERE ug.domain_id = ? AND ug.user_id = ?`, domainID, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	held := map[string]bool{}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		held[p] = true
	}
	return held, rows.Err()
}

// notHeld returns the permissions of perms the grantor lacks in the domain (none when
// grantor is nil: administrators hold everything).
func notHeld(ctx context.Context, q store.Querier, domainID int64, grantor *int64, perms []string) error {
	if grantor == nil || len(perms) == 0 {
		return nil
	}
	held, err := heldBy(ctx, q, domainID, *grantor)
	if err != nil {
		return err
	}
	var missing []string
	for _, p := range perms {
		if !held[p] {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return &NotHeldError{Permissions: missing}
	}
	return nil
}

// PermissionChange is what SetPermissions changed.
type PermissionChange struct{ Added, Removed []string }

// SetPermissions replaces a group's permissions in one transaction. With a grantor, every
// permission the change adds must be one the grantor holds in the domain (NotHeldError);
// permissions the group had already may stay.
func (s *GrantStore) SetPermissions(ctx context.Context, domainID int64, group string, perms []string, grantor *int64) (PermissionChange, error) {
	var change PermissionChange
	err := s.db.WithTx(ctx, func(tx *store.Tx) error {
		id, err := s.groupID(ctx, tx, domainID, group)
		if err != nil {
			return err
		}
		old, err := txStrings(ctx, tx, "SELECT permission FROM group_permissions WHERE group_id = ? ORDER BY permission", id)
		if err != nil {
			return err
		}
		change = PermissionChange{}
		for _, p := range perms {
			if !slices.Contains(old, p) {
				change.Added = append(change.Added, p)
			}
		}
		for _, p := range old {
			if !slices.Contains(perms, p) {
				change.Removed = append(change.Removed, p)
			}
		}
		if err := notHeld(ctx, tx, domainID, grantor, change.Added); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM group_permissions WHERE group_id = ?", id); err != nil {
			return err
		}
		return insertPermissions(ctx, tx, id, perms)
	})
	return change, err
}

func txStrings(ctx context.Context, q store.Querier, query string, args ...any) ([]string, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

func (s *GrantStore) GroupPermissions(ctx context.Context, domainID int64, group string) ([]string, error) {
	id, err := s.groupID(ctx, s.db, domainID, group)
	if err != nil {
		return nil, err
	}
	return s.strings(ctx, "SELECT permission FROM group_permissions WHERE group_id = ? ORDER BY permission", id)
}

func (s *GrantStore) DeleteGroup(ctx context.Context, domainID int64, group string) error {
	return store.Affected(s.db.ExecContext(ctx, "DELETE FROM permission_groups WHERE domain_id = ? AND name_key = ?", domainID, key(group)))
}

// Assigned says what AssignGroup changed.
type Assigned struct {
	Joined bool // the user became a member of the domain
	Added  bool // the user did not hold the group before
}

// AssignGroup gives the user the group, making them a member of the domain if needed, in
// one transaction. With a grantor, every permission of the group must be one the grantor
// holds in the domain (NotHeldError), read in the same transaction as the assignment.
func (s *GrantStore) AssignGroup(ctx context.Context, domainID, userID int64, group string, grantor *int64) (Assigned, error) {
	var a Assigned
	err := s.db.WithTx(ctx, func(tx *store.Tx) error {
		id, err := s.groupID(ctx, tx, domainID, group)
		if err != nil {
			return err
		}
		if grantor != nil {
			perms, err := txStrings(ctx, tx, "SELECT permission FROM group_permissions WHERE group_id = ? ORDER BY permission", id)
			if err != nil {
				return err
			}
			if err := notHeld(ctx, tx, domainID, grantor, perms); err != nil {
				return err
			}
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO domain_users (domain_id, user_id, created_at) VALUES (?, ?, ?)
			ON CONFLICT (domain_id, user_id) DO NOTHING`, domainID, userID, time.Now().UTC())
		if store.IsForeignKeyViolation(err) {
			return ErrNoUser
		}
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		a.Joined = n == 1
		res, err = tx.ExecContext(ctx, `INSERT INTO user_groups (domain_id, user_id, group_id) VALUES (?, ?, ?)
			ON CONFLICT (user_id, group_id) DO NOTHING`, domainID, userID, id)
		if store.IsForeignKeyViolation(err) {
			return ErrNoUser
		}
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		a.Added = n == 1
		return err
	})
	return a, err
}

func (s *GrantStore) UnassignGroup(ctx context.Context, domainID, userID int64, group string) error {
	return s.db.WithTx(ctx, func(tx *store.Tx) error {
		id, err := s.groupID(ctx, tx, domainID, group)
		if err != nil {
			return err
		}
		return store.Affected(tx.ExecContext(ctx, "DELETE FROM user_groups WHERE user_id = ? AND group_id = ?", userID, id))
	})
}

func (s *GrantStore) UserGroups(ctx context.Context, domainID, userID int64) ([]string, error) {
	return s.strings(ctx, `SELECT g.name FROM permission_groups g JOIN user_groups ug ON ug.group_id = g.id
		WHERE ug.domain_id = ? AND ug.user_id = ? ORDER BY g.name_key`, domainID, userID)
}

func (s *GrantStore) UserPermissions(ctx context.Context, domainID, userID int64) ([]string, error) {
	return s.strings(ctx, `SELECT DISTINCT gp.permission FROM group_permissions gp JOIN user_groups ug ON ug.group_id = gp.group_id
		WHERE ug.domain_id = ? AND ug.user_id = ? ORDER BY gp.permission`, domainID, userID)
}

func (s *GrantStore) HasPermission(ctx context.Context, domainID, userID int64, permission string) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM group_permissions gp JOIN user_groups ug ON ug.group_id = gp.group_id
		WHERE ug.domain_id = ? AND ug.user_id = ? AND gp.permission = ?`, domainID, userID, permission).Scan(&n)
	return n > 0, err
}

func (s *GrantStore) strings(ctx context.Context, query string, args ...any) ([]string, error) {
	return txStrings(ctx, s.db, query, args...)
}
