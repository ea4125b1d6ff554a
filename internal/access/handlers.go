package access

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/httpx"
)

// Users answers what the access handlers need to know about a user.
type Users interface {
	// IsAdmin reports whether the user exists and has the admin flag.
	IsAdmin(ctx context.Context, userID int64) (exists, admin bool, err error)
}

// Handler serves /domain and /permissions.
type Handler struct {
	svc   *Service
	users Users
}

func NewHandler(svc *Service, users Users) *Handler { return &Handler{svc: svc, users: users} }

func (h *Handler) Routes() []httpx.Route {
	get, post, put, del := http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete
	return []httpx.Route{
		{Method: get, Pattern: "/domain/", Access: httpx.Authenticated, Handler: h.listDomains, Out: []Domain{}},
		{Method: post, Pattern: "/domain/", Access: httpx.AdminOnly, Handler: h.createDomain, In: nameBody{}, Out: Domain{}, Status: http.StatusCreated},
		{Method: put, Pattern: "/domain/{id}", Access: httpx.Requires("domain:w", "id"), Handler: httpx.WithID("id", h.renameDomain), In: nameBody{}, Out: Domain{}},
		{Method: del, Pattern: "/domain/{id}", Access: httpx.AdminOnly, Handler: httpx.WithID("id", h.deleteDomain), Out: httpx.NoBody},
		{Method: get, Pattern: "/domain/users/{id}", Access: httpx.Member("id"), Handler: httpx.WithID("id", h.members), Out: []Member{}},
		{Method: get, Pattern: "/domain/usersInfo/{id}", Access: httpx.Member("id"), Handler: httpx.WithID("id", h.usersInfo), Out: []UserInfo{}},
		{Method: del, Pattern: "/domain/deleteUser/{domain}/{user}", Access: httpx.Requires("domain:k", "domain"), Handler: h.removeMember, Out: httpx.NoBody},
		{Method: get, Pattern: "/domain/{id}/account-meta", Access: httpx.Member("id"), Handler: httpx.WithID("id", h.meta), Out: AccountMeta{}},
		{Method: get, Pattern: "/domain/{id}/logo", Access: httpx.Member("id"), Handler: httpx.WithID("id", h.logo), Out: httpx.File},
		{Method: put, Pattern: "/domain/{id}/logo", Access: httpx.Requires("domain:w", "id"), Handler: httpx.WithID("id", h.setLogo), In: httpx.File, Out: httpx.NoBody},
		{Method: del, Pattern: "/domain/{id}/logo", Access: httpx.Requires("domain:w", "id"), Handler: httpx.WithID("id", h.removeLogo), Out: httpx.NoBody},
		{Method: post, Pattern: "/domain/{id}/addUser", Access: httpx.Requires("domain:u", "id"), Handler: httpx.WithID("id", h.addMember), In: idBody{}, Out: httpx.NoBody},
		{Method: get, Pattern: "/domain/{id}/candidates", Access: httpx.Requires("domain:u", "id"), Handler: httpx.WithID("id", h.candidates), Out: []Member{}},

		{Method: get, Pattern: "/user/{id}/roles", Access: httpx.Authenticated, Handler: httpx.WithID("id", h.rolesByDomain), Out: []DomainRoles{}},
		{Method: get, Pattern: "/permissions/catalogue", Access: httpx.Authenticated, Handler: h.catalogue, Out: []string{}},
		{Method: get, Pattern: "/permissions/getDomains/{userId}/{role}", Access: httpx.Authenticated, Handler: httpx.WithID("userId", h.domainsWith), Out: []Domain{}},
		{Method: get, Pattern: "/permissions/getGroups/{domain}", Access: httpx.Member("domain"), Handler: httpx.WithID("domain", h.groups), Out: []Group{}},
		{Method: put, Pattern: "/permissions/updateRoles/{user}/{domain}/{role}", Access: httpx.Requires("domain:u", "domain"), Handler: h.assignRole, In: httpx.NoBody, Out: httpx.NoBody},
		{Method: del, Pattern: "/permissions/updateRoles/{user}/{domain}/{role}", Access: httpx.Requires("domain:k", "domain"), Handler: h.removeRole, Out: httpx.NoBody},
		{Method: get, Pattern: "/permissions/getUserRoles/{user}/{domain}", Access: httpx.Authenticated, Handler: h.userRoles, Out: UserRoles{}},
		{Method: get, Pattern: "/permissions/getRoles/{domain}", Access: httpx.Member("domain"), Handler: httpx.WithID("domain", h.roles), Out: []string{}},
		{Method: get, Pattern: "/permissions/getPermissions/{domain}/{group}", Access: httpx.Member("domain"), Handler: httpx.WithID("domain", h.groupPermissions), Out: []string{}},
		{Method: put, Pattern: "/permissions/updatePermissions/{domain}/{group}", Access: httpx.Requires("domain:w", "domain"), Handler: httpx.WithID("domain", h.setPermissions), In: []string{}, Out: []string{}},
		{Method: del, Pattern: "/permissions/deleteGroup/{domain}/{group}", Access: httpx.Requires("domain:w", "domain"), Handler: httpx.WithID("domain", h.deleteGroup), Out: httpx.NoBody},
		{Method: post, Pattern: "/permissions/createGroup/{domain}", Access: httpx.Requires("domain:w", "domain"), Handler: httpx.WithID("domain", h.createGroup), In: groupBody{}, Out: Group{}, Status: http.StatusCreated},
	}
}

func (h *Handler) listDomains(w http.ResponseWriter, r *http.Request) error {
	d, err := h.svc.Domains(r.Context(), caller.Must(r.Context()))
	return httpx.Respond(w, d, err)
}

type nameBody struct {
	Name string `json:"name"`
}

func (h *Handler) createDomain(w http.ResponseWriter, r *http.Request) error {
	var b nameBody
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	d, err := h.svc.CreateDomain(r.Context(), caller.Must(r.Context()), b.Name)
	if err != nil {
		return err
	}
	return httpx.Created(w, d)
}

func (h *Handler) renameDomain(w http.ResponseWriter, r *http.Request, id int64) error {
	var b nameBody
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	d, err := h.svc.RenameDomain(r.Context(), caller.Must(r.Context()), id, b.Name)
	return httpx.Respond(w, d, err)
}

func (h *Handler) deleteDomain(w http.ResponseWriter, r *http.Request, id int64) error {
	return httpx.Respond(w, nil, h.svc.DeleteDomain(r.Context(), caller.Must(r.Context()), id))
}

func (h *Handler) members(w http.ResponseWriter, r *http.Request, id int64) error {
	m, err := h.svc.Members(r.Context(), id)
	return httpx.Respond(w, m, err)
}

func (h *Handler) usersInfo(w http.ResponseWriter, r *http.Request, id int64) error {
	u, err := h.svc.UsersInfo(r.Context(), id)
	return httpx.Respond(w, u, err)
}

func (h *Handler) removeMember(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.PathIDs(r, "domain", "user")
	if err != nil {
		return err
	}
	return httpx.Respond(w, nil, h.svc.RemoveMember(r.Context(), caller.Must(r.Context()), id[0], id[1]))
}

func (h *Handler) meta(w http.ResponseWriter, r *http.Request, id int64) error {
	m, err := h.svc.Meta(r.Context(), id)
	return httpx.Respond(w, m, err)
}

func (h *Handler) logo(w http.ResponseWriter, r *http.Request, id int64) error {
	data, ct, err := h.svc.Logo(r.Context(), id)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "private, no-cache")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(data)
	return nil
}

// setLogo takes the image as the raw request body.
func (h *Handler) setLogo(w http.ResponseWriter, r *http.Request, id int64) error {
	data, err := io.ReadAll(io.LimitReader(r.Body, MaxLogoBytes+1))
	if err != nil {
		return apperr.BadRequest("INVALID_BODY", "The logo could not be read.")
	}
	return httpx.Respond(w, nil, h.svc.SetLogo(r.Context(), caller.Must(r.Context()), id, data))
}

func (h *Handler) removeLogo(w http.ResponseWriter, r *http.Request, id int64) error {
	return httpx.Respond(w, nil, h.svc.RemoveLogo(r.Context(), caller.Must(r.Context()), id))
}

type idBody struct {
	ID json.Number `json:"id"`
}

// candidates lists who the caller may add to the domain (the Add Member dialog's choices).
func (h *Handler) candidates(w http.ResponseWriter, r *http.Request, id int64) error {
	m, err := h.svc.Candidates(r.Context(), caller.Must(r.Context()), id)
	return httpx.Respond(w, m, err)
}

func (h *Handler) addMember(w http.ResponseWriter, r *http.Request, id int64) error {
	var b idBody
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	userID, err := strconv.ParseInt(b.ID.String(), 10, 64)
	if err != nil || userID <= 0 {
		return apperr.Validation("The user id must be a positive number.")
	}
	return httpx.Respond(w, nil, h.svc.AddMember(r.Context(), caller.Must(r.Context()), id, userID))
}

// rolesByDomain answers GET /user/{id}/roles: the user's roles in each of their domains
// (themselves, or anyone for admins).
func (h *Handler) rolesByDomain(w http.ResponseWriter, r *http.Request, id int64) error {
	p := caller.Must(r.Context())
	if !p.Admin && p.UserID != id {
		return apperr.Forbidden("FORBIDDEN", "Failed to fetch roles")
	}
	roles, err := h.svc.Grants().RolesByDomain(r.Context(), id)
	return httpx.Respond(w, roles, err)
}

func (h *Handler) catalogue(w http.ResponseWriter, _ *http.Request) error {
	return httpx.OK(w, Catalogue)
}

func (h *Handler) targetAdmin(r *http.Request, userID int64) (bool, error) {
	exists, admin, err := h.users.IsAdmin(r.Context(), userID)
	if err != nil {
		return false, err
	}
	if !exists {
		return false, errUserNotFound
	}
	return admin, nil
}

func (h *Handler) domainsWith(w http.ResponseWriter, r *http.Request, userID int64) error {
	p := caller.Must(r.Context())
	if !p.Admin && p.UserID != userID {
		return apperr.Forbidden("FORBIDDEN", "Could not retrieve domains for userId "+strconv.FormatInt(userID, 10)+" and role "+chi.URLParam(r, "role"))
	}
	admin, err := h.targetAdmin(r, userID)
	if err != nil {
		return err
	}
	d, err := h.svc.DomainsWith(r.Context(), p, userID, chi.URLParam(r, "role"), admin)
	return httpx.Respond(w, d, err)
}

func (h *Handler) groups(w http.ResponseWriter, r *http.Request, domainID int64) error {
	g, err := h.svc.Grants().Groups(r.Context(), domainID)
	return httpx.Respond(w, g, err)
}

func (h *Handler) roles(w http.ResponseWriter, r *http.Request, domainID int64) error {
	g, err := h.svc.Grants().Roles(r.Context(), domainID)
	return httpx.Respond(w, g, err)
}

func (h *Handler) assignRole(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.PathIDs(r, "user", "domain")
	if err != nil {
		return err
	}
	return httpx.Respond(w, nil, h.svc.Grants().AssignRole(r.Context(), caller.Must(r.Context()), id[0], id[1], chi.URLParam(r, "role")))
}

func (h *Handler) removeRole(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.PathIDs(r, "user", "domain")
	if err != nil {
		return err
	}
	return httpx.Respond(w, nil, h.svc.Grants().RemoveRole(r.Context(), caller.Must(r.Context()), id[0], id[1], chi.URLParam(r, "role")))
}

func (h *Handler) userRoles(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.PathIDs(r, "user", "domain")
	if err != nil {
		return err
	}
	// Who may ask is decided before the user is looked up, so the answer cannot tell a
	// stranger whether an id exists.
	if err := h.svc.Grants().CanReadRoles(r.Context(), caller.Must(r.Context()), id[0], id[1]); err != nil {
		return err
	}
	admin, err := h.targetAdmin(r, id[0])
	if err != nil {
		return err
	}
	roles, err := h.svc.Grants().UserRoles(r.Context(), caller.Must(r.Context()), id[0], id[1], admin)
	return httpx.Respond(w, roles, err)
}

func (h *Handler) groupPermissions(w http.ResponseWriter, r *http.Request, domainID int64) error {
	p, err := h.svc.Grants().GroupPermissions(r.Context(), domainID, chi.URLParam(r, "group"))
	return httpx.Respond(w, p, err)
}

// permissionsBody accepts either a JSON array of permissions or {"permissions": [...]}.
func permissionsBody(r *http.Request) ([]string, error) {
	var raw json.RawMessage
	if err := httpx.Decode(r, &raw); err != nil {
		return nil, err
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err == nil {
		return list, nil
	}
	var obj struct {
		Permissions []string `json:"permissions"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, apperr.BadRequest("INVALID_JSON", "The body must be a list of permissions.")
	}
	return obj.Permissions, nil
}

func (h *Handler) setPermissions(w http.ResponseWriter, r *http.Request, domainID int64) error {
	perms, err := permissionsBody(r)
	if err != nil {
		return err
	}
	out, err := h.svc.Grants().SetPermissions(r.Context(), caller.Must(r.Context()), domainID, chi.URLParam(r, "group"), perms)
	return httpx.Respond(w, out, err)
}

func (h *Handler) deleteGroup(w http.ResponseWriter, r *http.Request, domainID int64) error {
	return httpx.Respond(w, nil, h.svc.Grants().DeleteGroup(r.Context(), caller.Must(r.Context()), domainID, chi.URLParam(r, "group")))
}

type groupBody struct {
	GroupName   string   `json:"groupName"`
	Name        string   `json:"name"`
	Permissions []string `json:"permissions"`
}

func (h *Handler) createGroup(w http.ResponseWriter, r *http.Request, domainID int64) error {
	var b groupBody
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	if b.GroupName == "" {
		b.GroupName = b.Name
	}
	g, err := h.svc.Grants().CreateGroup(r.Context(), caller.Must(r.Context()), domainID, b.GroupName, b.Permissions)
	if err != nil {
		return err
	}
	return httpx.Created(w, g)
}
