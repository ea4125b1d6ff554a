package access

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

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
		{Method: get, Pattern: "/domain/", Access: httpx.Authenticated, Handler: h.listDomains},
		{Method: post, Pattern: "/domain/", Access: httpx.AdminOnly, Handler: h.createDomain},
		{Method: put, Pattern: "/domain/{id}", Access: httpx.Requires("domain:w", "id"), Handler: h.renameDomain},
		{Method: del, Pattern: "/domain/{id}", Access: httpx.AdminOnly, Handler: h.deleteDomain},
		{Method: get, Pattern: "/domain/users/{id}", Access: httpx.Member("id"), Handler: h.members},
		{Method: get, Pattern: "/domain/usersInfo/{id}", Access: httpx.Member("id"), Handler: h.usersInfo},
		{Method: del, Pattern: "/domain/deleteUser/{domain}/{user}", Access: httpx.Requires("domain:k", "domain"), Handler: h.removeMember},
		{Method: get, Pattern: "/domain/{id}/account-meta", Access: httpx.Member("id"), Handler: h.meta},
		{Method: get, Pattern: "/domain/{id}/logo", Access: httpx.Member("id"), Handler: h.logo},
		{Method: put, Pattern: "/domain/{id}/logo", Access: httpx.Requires("domain:w", "id"), Handler: h.setLogo},
		{Method: del, Pattern: "/domain/{id}/logo", Access: httpx.Requires("domain:w", "id"), Handler: h.removeLogo},
		{Method: post, Pattern: "/domain/{id}/addUser", Access: httpx.Requires("domain:u", "id"), Handler: h.addMember},
		{Method: get, Pattern: "/domain/{id}/candidates", Access: httpx.Requires("domain:u", "id"), Handler: h.candidates},

		{Method: get, Pattern: "/user/{id}/roles", Access: httpx.Authenticated, Handler: h.rolesByDomain},
		{Method: get, Pattern: "/permissions/catalogue", Access: httpx.Authenticated, Handler: h.catalogue},
		{Method: get, Pattern: "/permissions/getDomains/{userId}/{role}", Access: httpx.Authenticated, Handler: h.domainsWith},
		{Method: get, Pattern: "/permissions/getGroups/{domain}", Access: httpx.Member("domain"), Handler: h.groups},
		{Method: put, Pattern: "/permissions/updateRoles/{user}/{domain}/{role}", Access: httpx.Requires("domain:u", "domain"), Handler: h.assignRole},
		{Method: del, Pattern: "/permissions/updateRoles/{user}/{domain}/{role}", Access: httpx.Requires("domain:k", "domain"), Handler: h.removeRole},
		{Method: get, Pattern: "/permissions/getUserRoles/{user}/{domain}", Access: httpx.Authenticated, Handler: h.userRoles},
		{Method: get, Pattern: "/permissions/getRoles/{domain}", Access: httpx.Member("domain"), Handler: h.roles},
		{Method: get, Pattern: "/permissions/getPermissions/{domain}/{group}", Access: httpx.Member("domain"), Handler: h.groupPermissions},
		{Method: put, Pattern: "/permissions/updatePermissions/{domain}/{group}", Access: httpx.Requires("domain:w", "domain"), Handler: h.setPermissions},
		{Method: del, Pattern: "/permissions/deleteGroup/{domain}/{group}", Access: httpx.Requires("domain:w", "domain"), Handler: h.deleteGroup},
		{Method: post, Pattern: "/permissions/createGroup/{domain}", Access: httpx.Requires("domain:w", "domain"), Handler: h.createGroup},
	}
}

func (h *Handler) listDomains(w http.ResponseWriter, r *http.Request) {
	d, err := h.svc.Domains(r.Context(), httpx.MustPrincipal(r))
	httpx.Respond(w, r, d, err)
}

type nameBody struct {
	Name string `json:"name"`
}

func (h *Handler) createDomain(w http.ResponseWriter, r *http.Request) {
	var b nameBody
	if err := httpx.Decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	d, err := h.svc.CreateDomain(r.Context(), httpx.MustPrincipal(r), b.Name)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusCreated, d)
}

func (h *Handler) renameDomain(w http.ResponseWriter, r *http.Request) {
	id, ok := httpx.PathIDs(w, r, "id")
	if !ok {
		return
	}
	var b nameBody
	if err := httpx.Decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	d, err := h.svc.RenameDomain(r.Context(), httpx.MustPrincipal(r), id[0], b.Name)
	httpx.Respond(w, r, d, err)
}

func (h *Handler) deleteDomain(w http.ResponseWriter, r *http.Request) {
	if id, ok := httpx.PathIDs(w, r, "id"); ok {
		httpx.Respond(w, r, nil, h.svc.DeleteDomain(r.Context(), httpx.MustPrincipal(r), id[0]))
	}
}

func (h *Handler) members(w http.ResponseWriter, r *http.Request) {
	if id, ok := httpx.PathIDs(w, r, "id"); ok {
		m, err := h.svc.Members(r.Context(), id[0])
		httpx.Respond(w, r, m, err)
	}
}

func (h *Handler) usersInfo(w http.ResponseWriter, r *http.Request) {
	if id, ok := httpx.PathIDs(w, r, "id"); ok {
		u, err := h.svc.UsersInfo(r.Context(), id[0])
		httpx.Respond(w, r, u, err)
	}
}

func (h *Handler) removeMember(w http.ResponseWriter, r *http.Request) {
	if id, ok := httpx.PathIDs(w, r, "domain", "user"); ok {
		httpx.Respond(w, r, nil, h.svc.RemoveMember(r.Context(), httpx.MustPrincipal(r), id[0], id[1]))
	}
}

func (h *Handler) meta(w http.ResponseWriter, r *http.Request) {
	if id, ok := httpx.PathIDs(w, r, "id"); ok {
		m, err := h.svc.Meta(r.Context(), id[0])
		httpx.Respond(w, r, m, err)
	}
}

func (h *Handler) logo(w http.ResponseWriter, r *http.Request) {
	id, ok := httpx.PathIDs(w, r, "id")
	if !ok {
		return
	}
	data, ct, err := h.svc.Logo(r.Context(), id[0])
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "private, no-cache")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(data)
}

// setLogo takes the image as the raw request body.
func (h *Handler) setLogo(w http.ResponseWriter, r *http.Request) {
	id, ok := httpx.PathIDs(w, r, "id")
	if !ok {
		return
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, MaxLogoBytes+1))
	if err != nil {
		httpx.WriteError(w, r, httpx.BadRequest("INVALID_BODY", "The logo could not be read."))
		return
	}
	httpx.Respond(w, r, nil, h.svc.SetLogo(r.Context(), httpx.MustPrincipal(r), id[0], data))
}

func (h *Handler) removeLogo(w http.ResponseWriter, r *http.Request) {
	if id, ok := httpx.PathIDs(w, r, "id"); ok {
		httpx.Respond(w, r, nil, h.svc.RemoveLogo(r.Context(), httpx.MustPrincipal(r), id[0]))
	}
}

type idBody struct {
	ID json.Number `json:"id"`
}

// candidates lists who the caller may add to the domain (the Add Member dialog's choices).
func (h *Handler) candidates(w http.ResponseWriter, r *http.Request) {
	if id, ok := httpx.PathIDs(w, r, "id"); ok {
		m, err := h.svc.Candidates(r.Context(), httpx.MustPrincipal(r), id[0])
		httpx.Respond(w, r, m, err)
	}
}

func (h *Handler) addMember(w http.ResponseWriter, r *http.Request) {
	id, ok := httpx.PathIDs(w, r, "id")
	if !ok {
		return
	}
	var b idBody
	if err := httpx.Decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	userID, err := strconv.ParseInt(b.ID.String(), 10, 64)
	if err != nil || userID <= 0 {
		httpx.WriteError(w, r, httpx.Validation("The user id must be a positive number."))
		return
	}
	httpx.Respond(w, r, nil, h.svc.AddMember(r.Context(), httpx.MustPrincipal(r), id[0], userID))
}

// rolesByDomain answers GET /user/{id}/roles: the user's roles in each of their domains
// (themselves, or anyone for admins).
func (h *Handler) rolesByDomain(w http.ResponseWriter, r *http.Request) {
	id, ok := httpx.PathIDs(w, r, "id")
	if !ok {
		return
	}
	p := httpx.MustPrincipal(r)
	if !p.Admin && p.UserID != id[0] {
		httpx.WriteError(w, r, httpx.Forbidden("FORBIDDEN", "Failed to fetch roles"))
		return
	}
	roles, err := h.svc.RolesByDomain(r.Context(), id[0])
	httpx.Respond(w, r, roles, err)
}

func (h *Handler) catalogue(w http.ResponseWriter, _ *http.Request) {
	httpx.JSON(w, http.StatusOK, Catalogue)
}

func (h *Handler) targetAdmin(w http.ResponseWriter, r *http.Request, userID int64) (admin, ok bool) {
	exists, admin, err := h.users.IsAdmin(r.Context(), userID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return false, false
	}
	if !exists {
		httpx.WriteError(w, r, errUserNotFound)
		return false, false
	}
	return admin, true
}

func (h *Handler) domainsWith(w http.ResponseWriter, r *http.Request) {
	id, ok := httpx.PathIDs(w, r, "userId")
	if !ok {
		return
	}
	p := httpx.MustPrincipal(r)
	if !p.Admin && p.UserID != id[0] {
		httpx.WriteError(w, r, httpx.Forbidden("FORBIDDEN", "Could not retrieve domains for userId "+strconv.FormatInt(id[0], 10)+" and role "+chi.URLParam(r, "role")))
		return
	}
	admin, ok := h.targetAdmin(w, r, id[0])
	if !ok {
		return
	}
	d, err := h.svc.DomainsWith(r.Context(), p, id[0], chi.URLParam(r, "role"), admin)
	httpx.Respond(w, r, d, err)
}

func (h *Handler) groups(w http.ResponseWriter, r *http.Request) {
	if id, ok := httpx.PathIDs(w, r, "domain"); ok {
		g, err := h.svc.Groups(r.Context(), id[0])
		httpx.Respond(w, r, g, err)
	}
}

func (h *Handler) roles(w http.ResponseWriter, r *http.Request) {
	if id, ok := httpx.PathIDs(w, r, "domain"); ok {
		g, err := h.svc.Roles(r.Context(), id[0])
		httpx.Respond(w, r, g, err)
	}
}

func (h *Handler) assignRole(w http.ResponseWriter, r *http.Request) {
	if id, ok := httpx.PathIDs(w, r, "user", "domain"); ok {
		httpx.Respond(w, r, nil, h.svc.AssignRole(r.Context(), httpx.MustPrincipal(r), id[0], id[1], chi.URLParam(r, "role")))
	}
}

func (h *Handler) removeRole(w http.ResponseWriter, r *http.Request) {
	if id, ok := httpx.PathIDs(w, r, "user", "domain"); ok {
		httpx.Respond(w, r, nil, h.svc.RemoveRole(r.Context(), httpx.MustPrincipal(r), id[0], id[1], chi.URLParam(r, "role")))
	}
}

func (h *Handler) userRoles(w http.ResponseWriter, r *http.Request) {
	id, ok := httpx.PathIDs(w, r, "user", "domain")
	if !ok {
		return
	}
	// Who may ask is decided before the user is looked up, so the answer cannot tell a
	// stranger whether an id exists.
	if err := h.svc.CanReadRoles(r.Context(), httpx.MustPrincipal(r), id[0], id[1]); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	admin, ok := h.targetAdmin(w, r, id[0])
	if !ok {
		return
	}
	roles, err := h.svc.UserRoles(r.Context(), httpx.MustPrincipal(r), id[0], id[1], admin)
	httpx.Respond(w, r, roles, err)
}

func (h *Handler) groupPermissions(w http.ResponseWriter, r *http.Request) {
	if id, ok := httpx.PathIDs(w, r, "domain"); ok {
		p, err := h.svc.GroupPermissions(r.Context(), id[0], chi.URLParam(r, "group"))
		httpx.Respond(w, r, p, err)
	}
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
		return nil, httpx.BadRequest("INVALID_JSON", "The body must be a list of permissions.")
	}
	return obj.Permissions, nil
}

func (h *Handler) setPermissions(w http.ResponseWriter, r *http.Request) {
	id, ok := httpx.PathIDs(w, r, "domain")
	if !ok {
		return
	}
	perms, err := permissionsBody(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	out, err := h.svc.SetPermissions(r.Context(), httpx.MustPrincipal(r), id[0], chi.URLParam(r, "group"), perms)
	httpx.Respond(w, r, out, err)
}

func (h *Handler) deleteGroup(w http.ResponseWriter, r *http.Request) {
	if id, ok := httpx.PathIDs(w, r, "domain"); ok {
		httpx.Respond(w, r, nil, h.svc.DeleteGroup(r.Context(), httpx.MustPrincipal(r), id[0], chi.URLParam(r, "group")))
	}
}

type groupBody struct {
	GroupName   string   `json:"groupName"`
	Name        string   `json:"name"`
	Permissions []string `json:"permissions"`
}

func (h *Handler) createGroup(w http.ResponseWriter, r *http.Request) {
	id, ok := httpx.PathIDs(w, r, "domain")
	if !ok {
		return
	}
	var b groupBody
	if err := httpx.Decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if b.GroupName == "" {
		b.GroupName = b.Name
	}
	g, err := h.svc.CreateGroup(r.Context(), httpx.MustPrincipal(r), id[0], b.GroupName, b.Permissions)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusCreated, g)
}
