package access

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"portalwright/internal/apperr"
	"portalwright/internal/audit"
	"portalwright/internal/caller"
	"portalwright/internal/httpx"
	"portalwright/internal/store"
	"portalwright/internal/validate"
)

// Auditor records administration actions.
type Auditor interface {
	Record(ctx context.Context, e audit.Entry)
}

// DomainPortals deletes the portals of a domain the way the portal delete call does (an
// audit entry per portal, the canonical repository and every workspace removed) before the
// domain itself goes. It returns the names of the portals it deleted.
type DomainPortals interface {
	DeleteDomainPortals(ctx context.Context, p caller.Caller, domainID int64, domainName string) ([]string, error)
}

// The rules are two types over one state, so neither carries every call:
//   - Service: domains (their logo and meta), their members, and the permission checks of
//     the API (Allowed, IsMember); it hands out Grants.
//   - Grants: permission groups, their permissions and who holds them (roles).

// state is what Service and Grants share: set while wiring, before serving.
type state struct {
	store      *SQLStore
	grantStore *GrantStore
	audit      Auditor
	portals    DomainPortals
	events     AccessEvents // lost rights (see events.go)
	grants     *Grants
}

// Service applies the rules of domains and their members, and answers the permission checks.
type Service struct{ *state }

// Grants applies the rules of permission groups and roles: no one gives a permission they do
// not hold, and no non-admin changes their own roles.
type Grants struct{ *state }

func NewService(st *SQLStore, a Auditor) *Service {
	s := &state{store: st, grantStore: st.grants(), audit: a}
	s.grants = &Grants{s}
	return &Service{s}
}

// Grants returns the rules of permission groups and roles.
func (s *Service) Grants() *Grants { return s.grants }

// WithPortals lets DeleteDomain delete the domain's portals. Without it a domain that still
// has portals cannot be deleted.
func (s *Service) WithPortals(dp DomainPortals) *Service { s.portals = dp; return s }

// Messages.
const (
	MsgDomainNotFound = "Could not open domain: The domain does not exist"
	MsgDomainExists   = "A domain with this name already exists."
	MsgGroupNotFound  = "The permission group does not exist."
	MsgGroupExists    = "A permission group with this name already exists in the domain."
	MsgUserNotFound   = "The user does not exist."
	MsgNotMember      = "The user is not a member of this domain."
	// MsgUserNotAddable answers a domain manager (not an admin) for a user id that does not
	// exist and for one they cannot see alike, so the answer tells nothing about who exists.
	MsgUserNotAddable   = "The user was not found among the members of the domains whose users you manage."
	MsgOwnRoles         = "You cannot change your own roles. Please contact your Administrator."
	MsgNotHeld          = "You cannot give permissions you do not hold yourself (%s). Please contact your Administrator."
	MsgDomainBusy       = "Portals were being created in the domain while it was deleted. Please try again."
	MsgDomainHasPortals = "The domain still has portals. Delete them first."
)

var (
	errDomainNotFound = apperr.NotFound("DOMAIN_NOT_FOUND", MsgDomainNotFound)
	errGroupNotFound  = apperr.NotFound("GROUP_NOT_FOUND", MsgGroupNotFound)
	errUserNotFound   = apperr.NotFound("USER_NOT_FOUND", MsgUserNotFound)
)

// Codes of the refusals that keep users from raising their own rights.
const (
	CodeOwnRoles = "OWN_ROLES"
	CodeNotHeld  = "PERMISSION_NOT_HELD"
)

// grantor is whose permissions bound what p may give: nil for admins, who hold everything.
func grantor(p caller.Caller) *int64 {
	if p.Admin {
		return nil
	}
	id := p.UserID
	return &id
}

// refusal turns a store refusal into the API answer and records the attempt.
func (s *state) refusal(ctx context.Context, p caller.Caller, err error, domainID int64, entityType, entityID, what string) error {
	var nh *NotHeldError
	if !errors.As(err, &nh) {
		return err
	}
	list := strings.Join(nh.Permissions, ", ")
	s.record(ctx, p, "PERMISSION_CHANGE_REFUSED", domainID, entityType, entityID, what+": not held: "+list)
	return apperr.Forbidden(CodeNotHeld, fmt.Sprintf(MsgNotHeld, list)).WithData(map[string]any{"permissions": nh.Permissions})
}

// ownRoles refuses a non-admin changing their own roles.
func (s *state) ownRoles(ctx context.Context, p caller.Caller, userID, domainID int64, what string) error {
	if p.Admin || p.UserID != userID {
		return nil
	}
	s.record(ctx, p, "PERMISSION_CHANGE_REFUSED", domainID, "USER", strconv.FormatInt(userID, 10), what+": own roles")
	return apperr.Forbidden(CodeOwnRoles, MsgOwnRoles)
}

// visible checks that a non-admin may name the user in the domain (see SQLStore.CanAdd);
// nonexistent and invisible users get the same answer.
func (s *state) visible(ctx context.Context, p caller.Caller, domainID, userID int64) error {
	if p.Admin {
		return nil
	}
	ok, err := s.store.CanAdd(ctx, domainID, userID, p.UserID)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.NotFound("USER_NOT_FOUND", MsgUserNotAddable)
	}
	return nil
}

func (s *state) record(ctx context.Context, p caller.Caller, action string, domainID int64, entityType, entityID, details string) {
	if s.audit == nil {
		return
	}
	actor := p.UserID
	var d *int64
	if domainID != 0 {
		d = &domainID
	}
	s.audit.Record(ctx, audit.Entry{Action: action, ActorID: &actor, ActorName: p.Username, DomainID: d, EntityType: entityType, EntityID: entityID, Details: details})
}

// ParseID reads a numeric id from a URL value (httpx.ParseID: digits only).
func ParseID(v string) (int64, bool) { return httpx.ParseID(v) }

// Allowed implements httpapi.Authorizer: does p hold the permission in the domain?
func (s *Service) Allowed(ctx context.Context, p caller.Caller, permission, domain string) (bool, error) {
	return NewRules(s.store).Allowed(ctx, p, permission, domain)
}

// IsMember implements httpapi.Authorizer.
func (s *Service) IsMember(ctx context.Context, p caller.Caller, domain string) (bool, error) {
	return NewRules(s.store).IsMember(ctx, p, domain)
}

// Domains lists what p may see: every domain for admins, their own for others.
func (s *Service) Domains(ctx context.Context, p caller.Caller) ([]Domain, error) {
	if p.Admin {
		return s.store.AllDomains(ctx)
	}
	return s.store.MemberDomains(ctx, p.UserID)
}

// DomainsWith answers getDomains/{userId}/{role}: the domains where the user holds the
// permission (role). Users may ask about themselves; admins about anyone.
func (s *Service) DomainsWith(ctx context.Context, p caller.Caller, userID int64, role string, targetIsAdmin bool) ([]Domain, error) {
	if !p.Admin && p.UserID != userID {
		return nil, apperr.Forbidden("FORBIDDEN", "Could not retrieve domains for userId "+strconv.FormatInt(userID, 10)+" and role "+role)
	}
	if targetIsAdmin {
		return s.store.AllDomains(ctx)
	}
	return s.store.DomainsWithPermission(ctx, userID, Expand(role))
}

func (s *state) domain(ctx context.Context, id int64) (*Domain, error) {
	d, err := s.store.Domain(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errDomainNotFound
	}
	return d, err
}

func checkName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if err := validate.Required(name); err != nil {
		return "", apperr.Validation(err.Error())
	}
	if err := validate.Alphanumeric(name); err != nil {
		return "", apperr.Validation(err.Error())
	}
	if len(name) > validate.MaxNameLength {
		return "", apperr.Validation("The name must be at most 100 characters.")
	}
	return name, nil
}

// CreateDomain adds a domain (admins).
func (s *Service) CreateDomain(ctx context.Context, p caller.Caller, name string) (*Domain, error) {
	name, err := checkName(name)
	if err != nil {
		return nil, err
	}
	d, err := s.store.CreateDomain(ctx, name)
	if errors.Is(err, ErrDuplicate) {
		return nil, apperr.Conflict("DOMAIN_EXISTS", MsgDomainExists)
	}
	if err != nil {
		return nil, err
	}
	s.record(ctx, p, "DOMAIN_CREATED", d.ID, "DOMAIN", strconv.FormatInt(d.ID, 10), d.Name)
	return d, nil
}

// RenameDomain changes a domain's name.
func (s *Service) RenameDomain(ctx context.Context, p caller.Caller, id int64, name string) (*Domain, error) {
	name, err := checkName(name)
	if err != nil {
		return nil, err
	}
	err = s.store.RenameDomain(ctx, id, name)
	switch {
	case errors.Is(err, ErrDuplicate):
		return nil, apperr.Conflict("DOMAIN_EXISTS", MsgDomainExists)
	case errors.Is(err, store.ErrNotFound):
		return nil, errDomainNotFound
	case err != nil:
		return nil, err
	}
	s.record(ctx, p, "DOMAIN_RENAMED", id, "DOMAIN", strconv.FormatInt(id, 10), name)
	return s.domain(ctx, id)
}

// DeleteDomain removes a domain with its portals, members, groups, categories and templates
// (admins). Each portal is deleted as the portal delete call does it — audit entry, repository
// and workspaces removed — before the domain row goes; a domain never takes portals with it
// through the database cascade.
func (s *Service) DeleteDomain(ctx context.Context, p caller.Caller, id int64) error {
	d, err := s.domain(ctx, id)
	if err != nil {
		return err
	}
	var deleted []string
	for attempt := 0; ; attempt++ {
		if s.portals != nil {
			names, err := s.portals.DeleteDomainPortals(ctx, p, id, d.Name)
			deleted = append(deleted, names...)
			if err != nil {
				return err
			}
		}
		err = s.store.DeleteDomain(ctx, id)
		if errors.Is(err, ErrHasPortals) && s.portals != nil && attempt < 3 {
			continue // a portal was created meanwhile: delete it too
		}
		break
	}
	switch {
	case errors.Is(err, ErrHasPortals) && s.portals == nil:
		return apperr.Conflict("DOMAIN_HAS_PORTALS", MsgDomainHasPortals)
	case errors.Is(err, ErrHasPortals):
		return apperr.Conflict("DOMAIN_HAS_PORTALS", MsgDomainBusy)
	case errors.Is(err, store.ErrNotFound):
		return errDomainNotFound
	case err != nil:
		return err
	}
	details := d.Name
	if len(deleted) > 0 {
		details += " (portals deleted: " + strings.Join(deleted, ", ") + ")"
	}
	s.record(ctx, p, "DOMAIN_DELETED", 0, "DOMAIN", strconv.FormatInt(id, 10), details)
	s.accessChanged(ctx, id, 0)
	return nil
}

// MaxLogoBytes bounds an uploaded domain logo.
const MaxLogoBytes = 512 << 10

var logoTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// SetLogo stores a domain logo; the type is sniffed from the bytes, not trusted from the client.
func (s *Service) SetLogo(ctx context.Context, p caller.Caller, id int64, data []byte) error {
	if len(data) == 0 {
		return apperr.Validation("The logo file is empty.")
	}
	if len(data) > MaxLogoBytes {
		return apperr.Validation("The logo must be at most 512 KB.")
	}
	ct := http.DetectContentType(data)
	if !logoTypes[ct] {
		return apperr.Validation("The logo must be a PNG, JPEG, GIF or WebP image.")
	}
	if err := s.store.SetLogo(ctx, id, data, ct); errors.Is(err, store.ErrNotFound) {
		return errDomainNotFound
	} else if err != nil {
		return err
	}
	s.record(ctx, p, "DOMAIN_LOGO_CHANGED", id, "DOMAIN", strconv.FormatInt(id, 10), ct)
	return nil
}

// RemoveLogo clears a domain logo.
func (s *Service) RemoveLogo(ctx context.Context, p caller.Caller, id int64) error {
	if _, err := s.domain(ctx, id); err != nil {
		return err
	}
	if err := s.store.SetLogo(ctx, id, nil, ""); err != nil {
		return err
	}
	s.record(ctx, p, "DOMAIN_LOGO_CHANGED", id, "DOMAIN", strconv.FormatInt(id, 10), "removed")
	return nil
}

// Logo returns the logo bytes and content type.
func (s *Service) Logo(ctx context.Context, id int64) ([]byte, string, error) {
	data, ct, err := s.store.Logo(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, "", apperr.NotFound("LOGO_NOT_FOUND", "The domain has no logo.")
	}
	return data, ct, err
}

// Meta summarises a domain.
func (s *Service) Meta(ctx context.Context, id int64) (*AccountMeta, error) {
	m, err := s.store.Meta(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errDomainNotFound
	}
	return m, err
}

// Members lists the users of a domain.
func (s *Service) Members(ctx context.Context, id int64) ([]Member, error) {
	if _, err := s.domain(ctx, id); err != nil {
		return nil, err
	}
	return s.store.Members(ctx, id)
}

// UsersInfo lists each member with their groups.
func (s *Service) UsersInfo(ctx context.Context, id int64) ([]UserInfo, error) {
	if _, err := s.domain(ctx, id); err != nil {
		return nil, err
	}
	return s.store.UsersInfo(ctx, id)
}

// Candidates lists the users p may add to the domain (GET /domain/{id}/candidates): every
// non-member for admins; for others, the members of the other domains whose users p manages.
func (s *Service) Candidates(ctx context.Context, p caller.Caller, domainID int64) ([]Member, error) {
	if _, err := s.domain(ctx, domainID); err != nil {
		return nil, err
	}
	var callerID int64
	if !p.Admin {
		callerID = p.UserID
	}
	return s.store.Candidates(ctx, domainID, callerID)
}

// AddMember makes a user a member of a domain (idempotent). Admins may add anyone; others
// only users they can already see as members of another domain whose users they manage
// (domain_user_create there), and any other id — existing or not — answers the same 404.
func (s *Service) AddMember(ctx context.Context, p caller.Caller, domainID, userID int64) error {
	if _, err := s.domain(ctx, domainID); err != nil {
		return err
	}
	if err := s.visible(ctx, p, domainID, userID); err != nil {
		return err
	}
	if err := s.store.AddMember(ctx, domainID, userID); errors.Is(err, ErrNoUser) {
		return errUserNotFound
	} else if err != nil {
		return err
	}
	s.record(ctx, p, "DOMAIN_USER_ADDED", domainID, "USER", strconv.FormatInt(userID, 10), "")
	return nil
}

// RemoveMember takes a user and their groups out of a domain.
func (s *Service) RemoveMember(ctx context.Context, p caller.Caller, domainID, userID int64) error {
	if _, err := s.domain(ctx, domainID); err != nil {
		return err
	}
	if err := s.store.RemoveMember(ctx, domainID, userID); errors.Is(err, store.ErrNotFound) {
		return apperr.NotFound("NOT_A_MEMBER", MsgNotMember)
	} else if err != nil {
		return err
	}
	s.record(ctx, p, "DOMAIN_USER_REMOVED", domainID, "USER", strconv.FormatInt(userID, 10), "")
	s.accessChanged(ctx, domainID, userID)
	return nil
}

// Groups lists a domain's permission groups with their permissions.
func (s *Grants) Groups(ctx context.Context, domainID int64) ([]Group, error) {
	if _, err := s.domain(ctx, domainID); err != nil {
		return nil, err
	}
	return s.grantStore.Groups(ctx, domainID)
}

// Roles lists the group names of a domain.
func (s *Grants) Roles(ctx context.Context, domainID int64) ([]string, error) {
	groups, err := s.Groups(ctx, domainID)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(groups))
	for _, g := range groups {
		names = append(names, g.GroupName)
	}
	return names, nil
}

func checkPermissions(perms []string) ([]string, error) {
	out, unknown := normalise(perms)
	if unknown != "" {
		return nil, apperr.Validation("Unknown permission '" + unknown + "'.")
	}
	if out == nil {
		out = []string{}
	}
	return out, nil
}

// CreateGroup adds a permission group to a domain.
func (s *Grants) CreateGroup(ctx context.Context, p caller.Caller, domainID int64, name string, perms []string) (*Group, error) {
	name, err := checkName(name)
	if err != nil {
		return nil, err
	}
	if perms, err = checkPermissions(perms); err != nil {
		return nil, err
	}
	if _, err := s.domain(ctx, domainID); err != nil {
		return nil, err
	}
	g, err := s.grantStore.CreateGroup(ctx, domainID, name, perms, grantor(p))
	if errors.Is(err, ErrDuplicate) {
		return nil, apperr.Conflict("GROUP_EXISTS", MsgGroupExists)
	}
	if err != nil {
		return nil, s.refusal(ctx, p, err, domainID, "GROUP", name, "create group")
	}
	s.record(ctx, p, "GROUP_CREATED", domainID, "GROUP", name, strings.Join(perms, ","))
	return g, nil
}

// GroupPermissions returns the permissions of one group.
func (s *Grants) GroupPermissions(ctx context.Context, domainID int64, group string) ([]string, error) {
	perms, err := s.grantStore.GroupPermissions(ctx, domainID, group)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errGroupNotFound
	}
	return perms, err
}

// SetPermissions replaces the permissions of a group. A non-admin may add to a group only
// permissions they hold themselves in the domain; those the group had already may stay.
func (s *Grants) SetPermissions(ctx context.Context, p caller.Caller, domainID int64, group string, perms []string) ([]string, error) {
	perms, err := checkPermissions(perms)
	if err != nil {
		return nil, err
	}
	change, err := s.grantStore.SetPermissions(ctx, domainID, group, perms, grantor(p))
	if errors.Is(err, store.ErrNotFound) {
		return nil, errGroupNotFound
	} else if err != nil {
		return nil, s.refusal(ctx, p, err, domainID, "GROUP", group, "update permissions")
	}
	s.record(ctx, p, "GROUP_PERMISSIONS_UPDATED", domainID, "GROUP", group, permissionDetails(perms, change))
	s.accessChanged(ctx, domainID, 0)
	return perms, nil
}

// permissionDetails is the audit text of a permission change: the new list, then what changed.
func permissionDetails(perms []string, c PermissionChange) string {
	d := strings.Join(perms, ",")
	if len(c.Added) > 0 {
		d += "; added " + strings.Join(c.Added, ",")
	}
	if len(c.Removed) > 0 {
		d += "; removed " + strings.Join(c.Removed, ",")
	}
	return d
}

// DeleteGroup removes a group; its members lose what it gave them.
func (s *Grants) DeleteGroup(ctx context.Context, p caller.Caller, domainID int64, group string) error {
	if err := s.grantStore.DeleteGroup(ctx, domainID, group); errors.Is(err, store.ErrNotFound) {
		return errGroupNotFound
	} else if err != nil {
		return err
	}
	s.record(ctx, p, "GROUP_DELETED", domainID, "GROUP", group, "")
	s.accessChanged(ctx, domainID, 0)
	return nil
}

// AssignRole gives a user a group of the domain, adding them to the domain if needed.
// Non-admins may not change their own roles, may name only users they can see (as for
// AddMember), and may give only groups whose every permission they hold in the domain.
func (s *Grants) AssignRole(ctx context.Context, p caller.Caller, userID, domainID int64, group string) error {
	if _, err := s.domain(ctx, domainID); err != nil {
		return err
	}
	if err := s.ownRoles(ctx, p, userID, domainID, "assign role "+group); err != nil {
		return err
	}
	if err := s.visible(ctx, p, domainID, userID); err != nil {
		return err
	}
	a, err := s.grantStore.AssignGroup(ctx, domainID, userID, group, grantor(p))
	switch {
	case errors.Is(err, store.ErrNotFound):
		return errGroupNotFound
	case errors.Is(err, ErrNoUser):
		return errUserNotFound
	case err != nil:
		return s.refusal(ctx, p, err, domainID, "USER", strconv.FormatInt(userID, 10), "assign role "+group)
	}
	if a.Joined {
		s.record(ctx, p, "DOMAIN_USER_ADDED", domainID, "USER", strconv.FormatInt(userID, 10), "with role "+group)
	}
	if a.Added {
		s.record(ctx, p, "ROLE_ASSIGNED", domainID, "USER", strconv.FormatInt(userID, 10), group)
	}
	return nil
}

// RemoveRole takes a group away from a user. Non-admins may not change their own roles.
func (s *Grants) RemoveRole(ctx context.Context, p caller.Caller, userID, domainID int64, group string) error {
	if err := s.ownRoles(ctx, p, userID, domainID, "remove role "+group); err != nil {
		return err
	}
	if err := s.grantStore.UnassignGroup(ctx, domainID, userID, group); errors.Is(err, store.ErrNotFound) {
		return apperr.NotFound("ROLE_NOT_HELD", "The user does not hold this role in the domain.")
	} else if err != nil {
		return err
	}
	s.record(ctx, p, "ROLE_REMOVED", domainID, "USER", strconv.FormatInt(userID, 10), group)
	s.accessChanged(ctx, domainID, userID)
	return nil
}

// CanReadRoles decides whether p may read a user's roles in a domain, before anything about
// the user is looked up: users may read their own; admins anyone's; those who manage the
// domain's users the roles of its members (anyone else answers as a missing user would).
func (s *Grants) CanReadRoles(ctx context.Context, p caller.Caller, userID, domainID int64) error {
	if p.Admin || p.UserID == userID {
		return nil
	}
	ok, err := s.grantStore.HasPermission(ctx, domainID, p.UserID, PermUserCreate)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.Forbidden("FORBIDDEN", "Could not load user permissions for domain with ID "+strconv.FormatInt(domainID, 10))
	}
	member, err := s.store.IsMember(ctx, domainID, userID)
	if err != nil {
		return err
	}
	if !member {
		return apperr.NotFound("USER_NOT_FOUND", MsgUserNotAddable)
	}
	return nil
}

// UserRoles answers what a user holds in a domain (see CanReadRoles for who may ask).
func (s *Grants) UserRoles(ctx context.Context, p caller.Caller, userID, domainID int64, targetIsAdmin bool) (*UserRoles, error) {
	if err := s.CanReadRoles(ctx, p, userID, domainID); err != nil {
		return nil, err
	}
	if _, err := s.domain(ctx, domainID); err != nil {
		return nil, err
	}
	roles, err := s.grantStore.UserGroups(ctx, domainID, userID)
	if err != nil {
		return nil, err
	}
	perms, err := s.grantStore.UserPermissions(ctx, domainID, userID)
	if err != nil {
		return nil, err
	}
	if targetIsAdmin {
		perms = append([]string(nil), Catalogue...)
	}
	return &UserRoles{DomainID: domainID, Roles: roles, Permissions: perms, Admin: targetIsAdmin}, nil
}

// RolesByDomain lists, for each domain the user belongs to, their roles (GET /user/{id}/roles).
func (s *Grants) RolesByDomain(ctx context.Context, userID int64) ([]DomainRoles, error) {
	domains, err := s.store.MemberDomains(ctx, userID)
	if err != nil {
		return nil, err
	}
	out := make([]DomainRoles, 0, len(domains))
	for _, d := range domains {
		roles, err := s.grantStore.UserGroups(ctx, d.ID, userID)
		if err != nil {
			return nil, err
		}
		out = append(out, DomainRoles{DomainID: d.ID, DomainName: d.Name, Roles: roles})
	}
	return out, nil
}

// DomainRoles is one domain's roles of a user.
type DomainRoles struct {
	DomainID   int64    `json:"domainId"`
	DomainName string   `json:"domainName"`
	Roles      []string `json:"roles"`
}
