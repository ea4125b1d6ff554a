package portal

import (
	"context"
	"net/http"

	"portalwright/internal/httpx"
	"portalwright/internal/portalaccess"
)

// DomainMembers lists the people of a domain (for the portal's users).
type DomainMembers interface {
	Members(ctx context.Context, domainID int64) ([]Person, error)
}

// Handler serves /portal, /portal_branch, /settings, /category, /template, /microsite and
// /search/portals.
type Handler struct {
	svc     *Service
	access  *portalaccess.Checker
	members DomainMembers
	wsJSON  wsJSONCache // other users' changes, encoded once per answer
}

func NewHandler(svc *Service, access *portalaccess.Checker, members DomainMembers) *Handler {
	return &Handler{svc: svc, access: access, members: members}
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
		{Method: get, Pattern: "/portal/{domainId}", Access: in("portal:r"), Handler: inDomain(h.list)},
		{Method: get, Pattern: "/portal/{domainId}/categorized", Access: in("portal:r"), Handler: inDomain(h.categorized)},
		{Method: get, Pattern: p + "/open", Access: in("portal:r"), Handler: at(h.open)},
		{Method: get, Pattern: p + "/branches", Access: in("branch:r"), Handler: at(h.branches)},
		{Method: post, Pattern: p + "/branches", Access: in("branch:c"), Handler: at(h.createBranch)},
		{Method: put, Pattern: p + "/branches", Access: in("branch:w"), Handler: at(h.mergeBranch)},
		{Method: del, Pattern: p + "/branches", Access: in("branch:d"), Handler: at(h.deleteBranch)},
		{Method: get, Pattern: p + "/local-changes", Access: in("portal:r"), Handler: at(h.localChanges)},
		{Method: get, Pattern: p + "/local-commits", Access: in("portal:r"), Handler: at(h.localCommits)},
		{Method: post, Pattern: p + "/commits", Access: in("portal:w"), Handler: at(h.commit)},
		{Method: post, Pattern: p + "/revert", Access: in("portal:w"), Handler: at(h.revert)},
		{Method: put, Pattern: p + "/reset/{branch}", Access: in("portal:r"), Handler: at(h.reset)},
		{Method: get, Pattern: p + "/wsChanges/{branch}", Access: in("portal:r"), Handler: at(h.wsChanges)},
		{Method: get, Pattern: p + "/statistics", Access: in("portal:r"), Handler: at(h.statistics)},
		{Method: get, Pattern: p + "/check-content", Access: in("portal:r"), Handler: at(h.checkContent)},
		{Method: get, Pattern: p + "/engine-version", Access: in("portal:r"), Handler: at(h.engine)},
		{Method: get, Pattern: "/portal/load/{domainId}/{portalId}/probeSettings", Access: in("portal:r"), Handler: at(h.probeSettings)},
		{Method: post, Pattern: "/portal/save/{domainId}/{portalId}/probeSettings", Access: in("portal:w"), Handler: at(h.saveProbeSettings)},
		{Method: get, Pattern: "/portal/load/{domainId}/{portalId}/users", Access: in("portal:r"), Handler: at(h.users)},
		{Method: post, Pattern: "/portal/create_url/{domainId}", Access: in("portal:c"), Handler: inDomain(h.createFromURL)},
		{Method: post, Pattern: "/portal/create_template/{domainId}", Access: in("portal:c"), Handler: inDomain(h.createFromTemplate)},
		{Method: post, Pattern: "/portal/clone/{domainId}/{portalId}", Access: in("portal:c"), Handler: at(h.clone)},
		{Method: put, Pattern: "/portal/activate/{domainId}/{portalId}", Access: in("portal:ac"), Handler: at(h.setStatus(true))},
		{Method: put, Pattern: "/portal/deactivate/{domainId}/{portalId}", Access: in("portal:t"), Handler: at(h.setStatus(false))},
		{Method: del, Pattern: p, Access: in("portal:d"), Handler: at(h.delete)},

		{Method: get, Pattern: "/portal_branch/allReferences/{domainId}/{portalId}", Access: in("branch:r"), Handler: at(h.references)},
		{Method: post, Pattern: "/portal_branch/branches/url/{domainId}", Access: in("portal:c"), Handler: h.urlBranches},
		{Method: post, Pattern: "/portal_branch/branches/template/{domainId}/", Access: in("portal:c"), Handler: inDomain(h.templateBranches)},
		{Method: get, Pattern: "/portal_branch/branches/active/{domainId}/{portalId}", Access: in("portal:r"), Handler: at(h.activeBranch)},

		{Method: get, Pattern: "/settings/{domainId}/{portalId}", Access: in("portal_settings_read"), Handler: at(h.settings)},
		{Method: put, Pattern: "/settings/{domainId}/{portalId}", Access: in("portal_settings_write"), Handler: at(h.saveSettings)},
		{Method: get, Pattern: "/settings/{domainId}/{portalId}/gitUrls", Access: in("portal_settings_read"), Handler: at(h.gitURLs)},

		{Method: get, Pattern: "/category/{domainId}", Access: in("portal:r"), Handler: inDomain(h.categories)},
		{Method: post, Pattern: "/category/{domainId}", Access: in("category:c"), Handler: inDomain(h.createCategory)},
		{Method: put, Pattern: "/category/{domainId}/{id}", Access: in("category:w"), Handler: h.renameCategory},
		{Method: del, Pattern: "/category/{domainId}/{id}", Access: in("category:d"), Handler: h.deleteCategory},
		{Method: post, Pattern: "/category/{domainId}/{id}/link", Access: in("category:l"), Handler: h.link(true)},
		{Method: del, Pattern: "/category/{domainId}/{id}/link", Access: in("category:l"), Handler: h.link(false)},

		{Method: get, Pattern: "/template/{domainId}", Access: in("template:r"), Handler: inDomain(h.templates)},
		{Method: post, Pattern: "/template/accounts/{domainId}/templates", Access: in("template:c"), Handler: inDomain(h.createTemplate)},
		{Method: put, Pattern: "/template/accounts/{domainId}/templates", Access: in("template:w"), Handler: inDomain(h.updateTemplate)},
		{Method: del, Pattern: "/template/accounts/{domainId}/templates/{templateId}", Access: in("template:d"), Handler: h.deleteTemplate},

		{Method: get, Pattern: "/microsite/{domainId}/microsite", Access: in("portal:r"), Handler: inDomain(h.microsites)},
		{Method: get, Pattern: "/microsite/{domainId}/{portalId}/microsite", Access: in("portal:r"), Handler: at(h.linkedMicrosites)},
		{Method: put, Pattern: "/microsite/{domainId}/microsite", Access: in("microsite:l"), Handler: h.linkMicrosites(true)},
		{Method: put, Pattern: "/microsite/{domainId}/microsite/unlink", Access: in("microsite:l"), Handler: h.linkMicrosites(false)},

		{Method: get, Pattern: "/search/portals", Access: httpx.AdminOnly, Handler: h.search},
	}
}
