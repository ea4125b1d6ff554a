package portal

import (
	"context"
	"net/http"

	"portalwright/internal/editing"
	"portalwright/internal/httpx"
	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
	"portalwright/internal/workspace/gitlog"
)

// DomainMembers lists the people of a domain (for the portal's users).
type DomainMembers interface {
	Members(ctx context.Context, domainID int64) ([]Person, error)
}

// Handler serves /portal, /portal_branch, /settings, /category, /template, /microsite and
// /search/portals.
type Handler struct {
	svc     *Service
	tmpl    *Templates
	brs     *Branches
	cat     *Catalog
	sites   *Microsites
	access  *portalaccess.Checker
	members DomainMembers
	wsJSON  wsJSONCache // other users' changes, encoded once per answer
}

// Parts are the portal unit's types the handler serves, one per role.
type Parts struct {
	Portals    *Service
	Templates  *Templates
	Branches   *Branches
	Catalog    *Catalog
	Microsites *Microsites
}

func NewHandler(parts Parts, access *portalaccess.Checker, members DomainMembers) *Handler {
	return &Handler{svc: parts.Portals, tmpl: parts.Templates, brs: parts.Branches, cat: parts.Catalog, sites: parts.Microsites, access: access, members: members}
}

func (h *Handler) Routes() []httpx.Route {
	get, post, put, del := http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete
	in := httpx.InDomain
	at := h.access.Handle // {domainId}/{portalId}: the portal is checked before the handler runs
	inDomain := func(f func(http.ResponseWriter, *http.Request, int64) error) httpx.HandlerFunc {
		return httpx.WithID("domainId", f)
	}
	const p = "/portal/{domainId}/{portalId}"
	return []httpx.Route{
		{Method: get, Pattern: "/portal/{domainId}", Access: in("portal:r"), Handler: inDomain(h.list), Out: []Portal{}},
		{Method: get, Pattern: "/portal/{domainId}/categorized", Access: in("portal:r"), Handler: inDomain(h.categorized), Out: []Category{}},
		{Method: get, Pattern: p + "/open", Access: in("portal:r"), Handler: at(h.open), Out: Opened{}},
		{Method: get, Pattern: p + "/branches", Access: in("branch:r"), Handler: at(h.branches), Out: []string{}},
		{Method: post, Pattern: p + "/branches", Access: in("branch:c"), Handler: at(h.createBranch), In: branchBody{}, Out: branchName{}, Status: http.StatusCreated},
		{Method: put, Pattern: p + "/branches", Access: in("branch:w"), Handler: at(h.mergeBranch), In: branchBody{}, Out: httpx.NoBody},
		{Method: del, Pattern: p + "/branches", Access: in("branch:d"), Handler: at(h.deleteBranch), Out: httpx.NoBody},
		{Method: get, Pattern: p + "/local-changes", Access: in("portal:r"), Handler: at(h.localChanges), Out: workspace.Status{}},
		{Method: get, Pattern: p + "/local-commits", Access: in("portal:r"), Handler: at(h.localCommits), Out: []workspace.LocalCommit{}},
		{Method: post, Pattern: p + "/commits", Access: in("portal:w"), Handler: at(h.commit), In: commitBody{}, Out: editing.CommitAnswer{}},
		{Method: post, Pattern: p + "/revert", Access: in("portal:w"), Handler: at(h.revert), In: revertBody{}, Out: workspace.CommitResult{}},
		{Method: put, Pattern: p + "/reset/{branch}", Access: in("portal:r"), Handler: at(h.reset), In: httpx.NoBody, Out: workspace.Status{}},
		{Method: get, Pattern: p + "/wsChanges/{branch}", Access: in("portal:r"), Handler: at(h.wsChanges), Out: []editing.WorkspaceChange{}},
		{Method: get, Pattern: p + "/statistics", Access: in("portal:r"), Handler: at(h.statistics), Out: gitlog.Statistics{}},
		{Method: get, Pattern: p + "/check-content", Access: in("portal:r"), Handler: at(h.checkContent), Out: editing.ContentCheck{}},
		{Method: get, Pattern: p + "/engine-version", Access: in("portal:r"), Handler: at(h.engine), Out: editing.EngineInfo{}},
		{Method: get, Pattern: "/portal/load/{domainId}/{portalId}/probeSettings", Access: in("portal:r"), Handler: at(h.probeSettings), Out: probeBody{}},
		{Method: post, Pattern: "/portal/save/{domainId}/{portalId}/probeSettings", Access: in("portal:w"), Handler: at(h.saveProbeSettings), In: probeBody{}, Out: httpx.NoBody},
		{Method: get, Pattern: "/portal/load/{domainId}/{portalId}/users", Access: in("portal:r"), Handler: at(h.users), Out: []PortalUser{}},
		{Method: post, Pattern: "/portal/create_url/{domainId}", Access: in("portal:c"), Handler: inDomain(h.createFromURL), In: createBody{}, Out: Portal{}, Status: http.StatusCreated},
		{Method: post, Pattern: "/portal/create_template/{domainId}", Access: in("portal:c"), Handler: inDomain(h.createFromTemplate), In: createBody{}, Out: Portal{}, Status: http.StatusCreated},
		{Method: post, Pattern: "/portal/clone/{domainId}/{portalId}", Access: in("portal:c"), Handler: at(h.clone), In: createBody{}, Out: Portal{}, Status: http.StatusCreated},
		{Method: put, Pattern: "/portal/activate/{domainId}/{portalId}", Access: in("portal:ac"), Handler: at(h.setStatus(true)), In: httpx.NoBody, Out: Portal{}},
		{Method: put, Pattern: "/portal/deactivate/{domainId}/{portalId}", Access: in("portal:t"), Handler: at(h.setStatus(false)), In: httpx.NoBody, Out: Portal{}},
		{Method: del, Pattern: p, Access: in("portal:d"), Handler: at(h.delete), Out: httpx.NoBody},

		{Method: get, Pattern: "/portal_branch/allReferences/{domainId}/{portalId}", Access: in("branch:r"), Handler: at(h.references), Out: References{}},
		{Method: post, Pattern: "/portal_branch/branches/url/{domainId}", Access: in("portal:c"), Handler: h.urlBranches, In: urlBranchesBody{}, Out: referencesAnswer{}},
		{Method: post, Pattern: "/portal_branch/branches/template/{domainId}/", Access: in("portal:c"), Handler: inDomain(h.templateBranches), In: templateBody{}, Out: referencesAnswer{}},
		{Method: get, Pattern: "/portal_branch/branches/active/{domainId}/{portalId}", Access: in("portal:r"), Handler: at(h.activeBranch), Out: httpx.PlainText},

		{Method: get, Pattern: "/settings/{domainId}/{portalId}", Access: in("portal_settings_read"), Handler: at(h.settings), Out: editing.Settings{}},
		{Method: put, Pattern: "/settings/{domainId}/{portalId}", Access: in("portal_settings_write"), Handler: at(h.saveSettings), In: Settings{}, Out: editing.Settings{}},
		{Method: get, Pattern: "/settings/{domainId}/{portalId}/gitUrls", Access: in("portal_settings_read"), Handler: at(h.gitURLs), Out: []string{}},

		{Method: get, Pattern: "/category/{domainId}", Access: in("portal:r"), Handler: inDomain(h.categories), Out: []Category{}},
		{Method: post, Pattern: "/category/{domainId}", Access: in("category:c"), Handler: inDomain(h.createCategory), In: nameBody{}, Out: Category{}, Status: http.StatusCreated},
		{Method: put, Pattern: "/category/{domainId}/{id}", Access: in("category:w"), Handler: h.renameCategory, In: nameBody{}, Out: httpx.NoBody},
		{Method: del, Pattern: "/category/{domainId}/{id}", Access: in("category:d"), Handler: h.deleteCategory, Out: httpx.NoBody},
		{Method: post, Pattern: "/category/{domainId}/{id}/link", Access: in("category:l"), Handler: h.link(true), In: httpx.NoBody, Out: httpx.NoBody},
		{Method: del, Pattern: "/category/{domainId}/{id}/link", Access: in("category:l"), Handler: h.link(false), Out: httpx.NoBody},

		{Method: get, Pattern: "/template/{domainId}", Access: in("template:r"), Handler: inDomain(h.templates), Out: []Template{}},
		{Method: post, Pattern: "/template/accounts/{domainId}/templates", Access: in("template:c"), Handler: inDomain(h.createTemplate), In: templateBody{}, Out: Template{}, Status: http.StatusCreated},
		{Method: put, Pattern: "/template/accounts/{domainId}/templates", Access: in("template:w"), Handler: inDomain(h.updateTemplate), In: templatePut{}, Out: Template{}},
		{Method: del, Pattern: "/template/accounts/{domainId}/templates/{templateId}", Access: in("template:d"), Handler: h.deleteTemplate, Out: httpx.NoBody},

		{Method: get, Pattern: "/microsite/{domainId}/microsite", Access: in("portal:r"), Handler: inDomain(h.microsites), Out: []Microsite{}},
		{Method: get, Pattern: "/microsite/{domainId}/{portalId}/microsite", Access: in("portal:r"), Handler: at(h.linkedMicrosites), Out: []Microsite{}},
		{Method: put, Pattern: "/microsite/{domainId}/microsite", Access: in("microsite:l"), Handler: h.linkMicrosites(true), In: micrositeBody{}, Out: httpx.NoBody},
		{Method: put, Pattern: "/microsite/{domainId}/microsite/unlink", Access: in("microsite:l"), Handler: h.linkMicrosites(false), In: micrositeBody{}, Out: httpx.NoBody},

		{Method: get, Pattern: "/search/portals", Access: httpx.AdminOnly, Handler: h.search, Out: []Portal{}},
	}
}
