package portal

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/httpx"
	"portalwright/internal/workspace"
)

// DomainNames resolves a domain id to its name (for other users' changes).
type DomainNames func(ctx context.Context, domainID int64) string

// DomainMembers lists the people of a domain (for the portal's users).
type DomainMembers func(ctx context.Context, domainID int64) ([]Person, error)

// Handler serves /portal, /portal_branch, /settings, /category, /template, /microsite and
// /search/portals.
type Handler struct {
	svc         *Service
	domainNames DomainNames
	members     DomainMembers
}

func NewHandler(svc *Service, names DomainNames, members DomainMembers) *Handler {
	return &Handler{svc: svc, domainNames: names, members: members}
}

func (h *Handler) Routes() []httpx.Route {
	get, post, put, del := http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete
	in := func(perm string) httpx.Access { return httpx.Requires(perm, "domainId") }
	const p = "/portal/{domainId}/{portalId}"
	return []httpx.Route{
		{Method: get, Pattern: "/portal/{domainId}", Access: in("portal:r"), Handler: h.list},
		{Method: get, Pattern: "/portal/{domainId}/categorized", Access: in("portal:r"), Handler: h.categorized},
		{Method: get, Pattern: p + "/open", Access: in("portal:r"), Handler: h.open},
		{Method: get, Pattern: p + "/branches", Access: in("branch:r"), Handler: h.branches},
		{Method: post, Pattern: p + "/branches", Access: in("branch:c"), Handler: h.createBranch},
		{Method: put, Pattern: p + "/branches", Access: in("branch:w"), Handler: h.mergeBranch},
		{Method: del, Pattern: p + "/branches", Access: in("branch:d"), Handler: h.deleteBranch},
		{Method: get, Pattern: p + "/local-changes", Access: in("portal:r"), Handler: h.localChanges},
		{Method: get, Pattern: p + "/local-commits", Access: in("portal:r"), Handler: h.localCommits},
		{Method: post, Pattern: p + "/commits", Access: in("portal:w"), Handler: h.commit},
		{Method: post, Pattern: p + "/revert", Access: in("portal:w"), Handler: h.revert},
		{Method: put, Pattern: p + "/reset/{branch}", Access: in("portal:r"), Handler: h.reset},
		{Method: get, Pattern: p + "/wsChanges/{branch}", Access: in("portal:r"), Handler: h.wsChanges},
		{Method: get, Pattern: p + "/statistics", Access: in("portal:r"), Handler: h.statistics},
		{Method: get, Pattern: p + "/check-content", Access: in("portal:r"), Handler: h.checkContent},
		{Method: get, Pattern: p + "/engine-version", Access: in("portal:r"), Handler: h.engine},
		{Method: get, Pattern: "/portal/load/{domainId}/{portalId}/probeSettings", Access: in("portal:r"), Handler: h.probeSettings},
		{Method: post, Pattern: "/portal/save/{domainId}/{portalId}/probeSettings", Access: in("portal:w"), Handler: h.saveProbeSettings},
		{Method: get, Pattern: "/portal/load/{domainId}/{portalId}/users", Access: in("portal:r"), Handler: h.users},
		{Method: post, Pattern: "/portal/create_url/{domainId}", Access: in("portal:c"), Handler: h.createFromURL},
		{Method: post, Pattern: "/portal/create_template/{domainId}", Access: in("portal:c"), Handler: h.createFromTemplate},
		{Method: post, Pattern: "/portal/clone/{domainId}/{portalId}", Access: in("portal:c"), Handler: h.clone},
		{Method: put, Pattern: "/portal/activate/{domainId}/{portalId}", Access: in("portal:ac"), Handler: h.setStatus(true)},
		{Method: put, Pattern: "/portal/deactivate/{domainId}/{portalId}", Access: in("portal:t"), Handler: h.setStatus(false)},
		{Method: del, Pattern: p, Access: in("portal:d"), Handler: h.delete},

		{Method: get, Pattern: "/portal_branch/allReferences/{domainId}/{portalId}", Access: in("branch:r"), Handler: h.references},
		{Method: post, Pattern: "/portal_branch/branches/url/{domainId}", Access: in("portal:c"), Handler: h.urlBranches},
		{Method: get, Pattern: "/portal_branch/branches/active/{domainId}/{portalId}", Access: in("portal:r"), Handler: h.activeBranch},

		{Method: get, Pattern: "/settings/{domainId}/{portalId}", Access: in("portal_settings_read"), Handler: h.settings},
		{Method: put, Pattern: "/settings/{domainId}/{portalId}", Access: in("portal_settings_write"), Handler: h.saveSettings},
		{Method: get, Pattern: "/settings/{domainId}/{portalId}/gitUrls", Access: in("portal_settings_read"), Handler: h.gitURLs},

		{Method: get, Pattern: "/category/{domainId}", Access: in("portal:r"), Handler: h.categories},
		{Method: post, Pattern: "/category/{domainId}", Access: in("category:c"), Handler: h.createCategory},
		{Method: put, Pattern: "/category/{domainId}/{id}", Access: in("category:w"), Handler: h.renameCategory},
		{Method: del, Pattern: "/category/{domainId}/{id}", Access: in("category:d"), Handler: h.deleteCategory},
		{Method: post, Pattern: "/category/{domainId}/{id}/link", Access: in("category:l"), Handler: h.link(true)},
		{Method: del, Pattern: "/category/{domainId}/{id}/link", Access: in("category:l"), Handler: h.link(false)},

		{Method: get, Pattern: "/template/{domainId}", Access: in("template:r"), Handler: h.templates},
		{Method: post, Pattern: "/template/accounts/{domainId}/templates", Access: in("template:c"), Handler: h.createTemplate},
		{Method: put, Pattern: "/template/accounts/{domainId}/templates", Access: in("template:w"), Handler: h.renameTemplate},
		{Method: del, Pattern: "/template/accounts/{domainId}/templates/{templateId}", Access: in("template:d"), Handler: h.deleteTemplate},

		{Method: get, Pattern: "/microsite/{domainId}/microsite", Access: in("portal:r"), Handler: h.microsites},
		{Method: get, Pattern: "/microsite/{domainId}/{portalId}/microsite", Access: in("portal:r"), Handler: h.linkedMicrosites},
		{Method: put, Pattern: "/microsite/{domainId}/microsite", Access: in("microsite:l"), Handler: h.linkMicrosites(true)},
		{Method: put, Pattern: "/microsite/{domainId}/microsite/unlink", Access: in("microsite:l"), Handler: h.linkMicrosites(false)},

		{Method: get, Pattern: "/search/portals", Access: httpx.AdminOnly, Handler: h.search},
	}
}

func (h *Handler) list(w http.ResponseWriter, r *http.Request) {
	if ids, ok := httpx.PathIDs(w, r, "domainId"); ok {
		v, err := h.svc.Portals(r.Context(), ids[0])
		httpx.Respond(w, r, v, err)
	}
}

func (h *Handler) categorized(w http.ResponseWriter, r *http.Request) {
	if ids, ok := httpx.PathIDs(w, r, "domainId"); ok {
		v, err := h.svc.Categorized(r.Context(), ids[0])
		httpx.Respond(w, r, v, err)
	}
}

// branchParam reads a branch from a URL: a colon stands for a slash (spec 1 §2.1).
func branchParam(v string) string { return strings.ReplaceAll(v, ":", "/") }

func (h *Handler) open(w http.ResponseWriter, r *http.Request) {
	if ids, ok := httpx.PathIDs(w, r, "domainId", "portalId"); ok {
		q := r.URL.Query()
		override := q.Get("override") == "true" || q.Get("override") == "1"
		v, err := h.svc.Open(r.Context(), httpx.MustPrincipal(r), ids[0], ids[1], branchParam(q.Get("branch")), override)
		httpx.Respond(w, r, v, err)
	}
}

func (h *Handler) branches(w http.ResponseWriter, r *http.Request) {
	if ids, ok := httpx.PathIDs(w, r, "domainId", "portalId"); ok {
		v, err := h.svc.Branches(r.Context(), ids[0], ids[1])
		httpx.Respond(w, r, v, err)
	}
}

type branchBody struct {
	Name   string `json:"name"`
	Branch string `json:"branch"`
	From   string `json:"from"`
	Source string `json:"source"`
	Target string `json:"target"`
}

func (h *Handler) createBranch(w http.ResponseWriter, r *http.Request) {
	ids, ok := httpx.PathIDs(w, r, "domainId", "portalId")
	if !ok {
		return
	}
	var b branchBody
	if err := httpx.Decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	name := b.Name
	if name == "" {
		name = b.Branch
	}
	if err := h.svc.CreateBranch(r.Context(), httpx.MustPrincipal(r), ids[0], ids[1], name, b.From); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusCreated, map[string]string{"name": name})
}

func (h *Handler) mergeBranch(w http.ResponseWriter, r *http.Request) {
	ids, ok := httpx.PathIDs(w, r, "domainId", "portalId")
	if !ok {
		return
	}
	var b branchBody
	if err := httpx.Decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.Respond(w, r, nil, h.svc.MergeBranch(r.Context(), httpx.MustPrincipal(r), ids[0], ids[1], b.Source, b.Target))
}

func (h *Handler) deleteBranch(w http.ResponseWriter, r *http.Request) {
	if ids, ok := httpx.PathIDs(w, r, "domainId", "portalId"); ok {
		httpx.Respond(w, r, nil, h.svc.DeleteBranch(r.Context(), httpx.MustPrincipal(r), ids[0], ids[1], branchParam(r.URL.Query().Get("branch"))))
	}
}

func (h *Handler) localChanges(w http.ResponseWriter, r *http.Request) {
	if ids, ok := httpx.PathIDs(w, r, "domainId", "portalId"); ok {
		if _, err := h.svc.Portal(r.Context(), ids[0], ids[1]); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		v, err := h.svc.LocalChanges(r.Context(), httpx.MustPrincipal(r), ids[1])
		httpx.Respond(w, r, v, err)
	}
}

func (h *Handler) localCommits(w http.ResponseWriter, r *http.Request) {
	if ids, ok := httpx.PathIDs(w, r, "domainId", "portalId"); ok {
		if _, err := h.svc.Portal(r.Context(), ids[0], ids[1]); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		v, err := h.svc.LocalCommits(r.Context(), httpx.MustPrincipal(r), ids[1])
		httpx.Respond(w, r, v, err)
	}
}

type commitBody struct {
	Message string `json:"message"`
}

func (h *Handler) commit(w http.ResponseWriter, r *http.Request) {
	ids, ok := httpx.PathIDs(w, r, "domainId", "portalId")
	if !ok {
		return
	}
	var b commitBody
	if err := httpx.Decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	v, err := h.svc.Commit(r.Context(), httpx.MustPrincipal(r), ids[0], ids[1], b.Message)
	httpx.Respond(w, r, v, err)
}

// revertBody: without a commitId, Revert All; with one, Revert To.
type revertBody struct {
	CommitID string `json:"commitId"`
}

func (h *Handler) revert(w http.ResponseWriter, r *http.Request) {
	ids, ok := httpx.PathIDs(w, r, "domainId", "portalId")
	if !ok {
		return
	}
	var b revertBody
	if err := httpx.Decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if _, err := h.svc.Portal(r.Context(), ids[0], ids[1]); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	p := httpx.MustPrincipal(r)
	if b.CommitID == "" {
		httpx.Respond(w, r, nil, h.svc.RevertAll(r.Context(), p, ids[1]))
		return
	}
	v, err := h.svc.RevertTo(r.Context(), p, ids[0], ids[1], b.CommitID)
	httpx.Respond(w, r, v, err)
}

func (h *Handler) reset(w http.ResponseWriter, r *http.Request) {
	if ids, ok := httpx.PathIDs(w, r, "domainId", "portalId"); ok {
		pt, err := h.svc.Portal(r.Context(), ids[0], ids[1])
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		v, err := h.svc.Reset(r.Context(), httpx.MustPrincipal(r), pt, branchParam(chi.URLParam(r, "branch")))
		httpx.Respond(w, r, v, err)
	}
}

func (h *Handler) wsChanges(w http.ResponseWriter, r *http.Request) {
	if ids, ok := httpx.PathIDs(w, r, "domainId", "portalId"); ok {
		// Encoded once per change and shared by every caller (wschanges.go).
		data, err := h.svc.WorkspaceChangesJSON(r.Context(), ids[0], ids[1], h.domainNames(r.Context(), ids[0]), branchParam(chi.URLParam(r, "branch")))
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		httpx.WriteEncoded(w, r, http.StatusOK, data)
	}
}

// createBody accepts the spec's nested form ({portal:{…}, userName, password, categoryID})
// and a flat one.
type createBody struct {
	Portal *struct {
		NewPortal
		URL string `json:"url"`
	} `json:"portal"`
	NewPortal
	URL        string `json:"url"`
	GitURL     string `json:"gitUrl"`
	UserName   string `json:"userName"`
	Password   string `json:"password"`
	CategoryID *int64 `json:"categoryID"`
	TemplateID int64  `json:"templateId"`
	Starter    string `json:"starter"`
}

func (b *createBody) portal() (NewPortal, string) {
	in, url := b.NewPortal, firstOf(b.URL, b.GitURL)
	if b.Portal != nil {
		in, url = b.Portal.NewPortal, firstOf(b.Portal.URL, url)
	}
	if in.CategoryID == nil {
		in.CategoryID = b.CategoryID
	}
	return in, url
}

func firstOf(v ...string) string {
	for _, s := range v {
		if s != "" {
			return s
		}
	}
	return ""
}

func (h *Handler) created(w http.ResponseWriter, r *http.Request, v *Portal, err error) {
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusCreated, v)
}

func (h *Handler) createFromURL(w http.ResponseWriter, r *http.Request) {
	ids, ok := httpx.PathIDs(w, r, "domainId")
	if !ok {
		return
	}
	var b createBody
	if err := httpx.Decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	in, url := b.portal()
	var creds *workspace.Credentials
	if b.UserName != "" || b.Password != "" {
		creds = &workspace.Credentials{Username: b.UserName, Password: b.Password}
	}
	v, err := h.svc.CreateFromURL(r.Context(), httpx.MustPrincipal(r), ids[0], in, url, creds)
	h.created(w, r, v, err)
}

func (h *Handler) createFromTemplate(w http.ResponseWriter, r *http.Request) {
	ids, ok := httpx.PathIDs(w, r, "domainId")
	if !ok {
		return
	}
	var b createBody
	if err := httpx.Decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	in, _ := b.portal()
	if b.TemplateID == 0 && b.Starter == "" {
		httpx.WriteError(w, r, httpx.Validation("Choose a template."))
		return
	}
	v, err := h.svc.CreateFromTemplate(r.Context(), httpx.MustPrincipal(r), ids[0], in, b.TemplateID, b.Starter)
	h.created(w, r, v, err)
}

func (h *Handler) clone(w http.ResponseWriter, r *http.Request) {
	ids, ok := httpx.PathIDs(w, r, "domainId", "portalId")
	if !ok {
		return
	}
	var b createBody
	if err := httpx.Decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	in, _ := b.portal()
	v, err := h.svc.Clone(r.Context(), httpx.MustPrincipal(r), ids[0], ids[1], in)
	h.created(w, r, v, err)
}

func (h *Handler) setStatus(active bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if ids, ok := httpx.PathIDs(w, r, "domainId", "portalId"); ok {
			v, err := h.svc.SetStatus(r.Context(), httpx.MustPrincipal(r), ids[0], ids[1], active, r.URL.Query().Get("comment"))
			httpx.Respond(w, r, v, err)
		}
	}
}

func (h *Handler) delete(w http.ResponseWriter, r *http.Request) {
	if ids, ok := httpx.PathIDs(w, r, "domainId", "portalId"); ok {
		httpx.Respond(w, r, nil, h.svc.Delete(r.Context(), httpx.MustPrincipal(r), ids[0], ids[1], r.URL.Query().Get("comment")))
	}
}

func (h *Handler) references(w http.ResponseWriter, r *http.Request) {
	if ids, ok := httpx.PathIDs(w, r, "domainId", "portalId"); ok {
		v, err := h.svc.References(r.Context(), httpx.MustPrincipal(r), ids[0], ids[1])
		httpx.Respond(w, r, v, err)
	}
}

type urlBranchesBody struct {
	GitURL   string `json:"gitUrl"`
	UserName string `json:"userName"`
	Password string `json:"password"`
}

func (h *Handler) urlBranches(w http.ResponseWriter, r *http.Request) {
	var b urlBranchesBody
	if err := httpx.Decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	var creds *workspace.Credentials
	if b.UserName != "" || b.Password != "" {
		creds = &workspace.Credentials{Username: b.UserName, Password: b.Password}
	}
	v, err := h.svc.RemoteBranches(r.Context(), b.GitURL, creds)
	httpx.Respond(w, r, map[string]any{"allReferences": v}, err)
}

func (h *Handler) activeBranch(w http.ResponseWriter, r *http.Request) {
	if ids, ok := httpx.PathIDs(w, r, "domainId", "portalId"); ok {
		pt, err := h.svc.Portal(r.Context(), ids[0], ids[1])
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		httpx.Text(w, http.StatusOK, h.svc.ActiveBranch(r.Context(), pt))
	}
}

func (h *Handler) settings(w http.ResponseWriter, r *http.Request) {
	h.withPortal(w, r, func(portalID int64) (any, error) {
		v, version, err := h.svc.Settings(r.Context(), httpx.MustPrincipal(r).UserID, portalID)
		httpx.SetETag(w, string(version))
		return v, err
	})
}

func (h *Handler) saveSettings(w http.ResponseWriter, r *http.Request) {
	h.withPortal(w, r, func(portalID int64) (any, error) {
		base, err := httpx.IfMatch(r)
		if err != nil {
			return nil, err
		}
		var s Settings
		if err := httpx.Decode(r, &s); err != nil {
			return nil, err
		}
		v, version, err := h.svc.SaveSettings(r.Context(), httpx.MustPrincipal(r).UserID, portalID, s, workspace.Version(base))
		if err == nil {
			httpx.SetETag(w, string(version))
		}
		return v, err
	})
}

func (h *Handler) gitURLs(w http.ResponseWriter, r *http.Request) {
	if ids, ok := httpx.PathIDs(w, r, "domainId", "portalId"); ok {
		pt, err := h.svc.Portal(r.Context(), ids[0], ids[1])
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		urls := []string{}
		if pt.URL != "" {
			urls = append(urls, pt.URL)
		}
		httpx.JSON(w, http.StatusOK, urls)
	}
}

type nameBody struct {
	Name string `json:"name"`
}

func (h *Handler) categories(w http.ResponseWriter, r *http.Request) {
	if ids, ok := httpx.PathIDs(w, r, "domainId"); ok {
		v, err := h.svc.Categories(r.Context(), ids[0])
		httpx.Respond(w, r, v, err)
	}
}

func (h *Handler) createCategory(w http.ResponseWriter, r *http.Request) {
	ids, ok := httpx.PathIDs(w, r, "domainId")
	if !ok {
		return
	}
	var b nameBody
	if err := httpx.Decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	v, err := h.svc.CreateCategory(r.Context(), httpx.MustPrincipal(r), ids[0], b.Name)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusCreated, v)
}

func (h *Handler) renameCategory(w http.ResponseWriter, r *http.Request) {
	ids, ok := httpx.PathIDs(w, r, "domainId", "id")
	if !ok {
		return
	}
	var b nameBody
	if err := httpx.Decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.Respond(w, r, nil, h.svc.RenameCategory(r.Context(), httpx.MustPrincipal(r), ids[0], ids[1], b.Name))
}

func (h *Handler) deleteCategory(w http.ResponseWriter, r *http.Request) {
	if ids, ok := httpx.PathIDs(w, r, "domainId", "id"); ok {
		httpx.Respond(w, r, nil, h.svc.DeleteCategory(r.Context(), httpx.MustPrincipal(r), ids[0], ids[1]))
	}
}

// link reads portalIds as a comma-separated list or repeated parameters.
func (h *Handler) link(link bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ids, ok := httpx.PathIDs(w, r, "domainId", "id")
		if !ok {
			return
		}
		var portals []int64
		for _, v := range r.URL.Query()["portalIds"] {
			for _, part := range strings.Split(v, ",") {
				n, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
				if err != nil || n <= 0 {
					httpx.WriteError(w, r, httpx.BadRequest("INVALID_ID", "portalIds must be portal ids separated by commas."))
					return
				}
				portals = append(portals, n)
			}
		}
		httpx.Respond(w, r, nil, h.svc.LinkPortals(r.Context(), ids[0], ids[1], portals, link))
	}
}

func (h *Handler) templates(w http.ResponseWriter, r *http.Request) {
	if ids, ok := httpx.PathIDs(w, r, "domainId"); ok {
		v, err := h.svc.Templates(r.Context(), ids[0])
		httpx.Respond(w, r, v, err)
	}
}

type templateBody struct {
	ID           int64  `json:"id"`
	TemplateName string `json:"templateName"`
	Starter      string `json:"starter"`
	PortalID     *int64 `json:"portalId"`
}

func (h *Handler) createTemplate(w http.ResponseWriter, r *http.Request) {
	ids, ok := httpx.PathIDs(w, r, "domainId")
	if !ok {
		return
	}
	var b templateBody
	if err := httpx.Decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	v, err := h.svc.CreateTemplate(r.Context(), httpx.MustPrincipal(r), ids[0], b.TemplateName, b.Starter, b.PortalID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusCreated, v)
}

func (h *Handler) renameTemplate(w http.ResponseWriter, r *http.Request) {
	ids, ok := httpx.PathIDs(w, r, "domainId")
	if !ok {
		return
	}
	var b templateBody
	if err := httpx.Decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.Respond(w, r, nil, h.svc.RenameTemplate(r.Context(), ids[0], b.ID, b.TemplateName))
}

func (h *Handler) deleteTemplate(w http.ResponseWriter, r *http.Request) {
	if ids, ok := httpx.PathIDs(w, r, "domainId", "templateId"); ok {
		httpx.Respond(w, r, nil, h.svc.DeleteTemplate(r.Context(), httpx.MustPrincipal(r), ids[0], ids[1]))
	}
}

func (h *Handler) search(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var pid int64
	if u := q.Get("uuid"); u != "" {
		n, err := strconv.ParseInt(u, 10, 64)
		if err != nil {
			httpx.WriteError(w, r, httpx.BadRequest("INVALID_ID", "uuid must be a portal id."))
			return
		}
		pid = n
	}
	v, err := h.svc.Search(r.Context(), q.Get("pn"), pid)
	httpx.Respond(w, r, v, err)
}

func (h *Handler) statistics(w http.ResponseWriter, r *http.Request) {
	if ids, ok := httpx.PathIDs(w, r, "domainId", "portalId"); ok {
		v, err := h.svc.Statistics(r.Context(), ids[0], ids[1], branchParam(r.URL.Query().Get("branch")))
		httpx.Respond(w, r, v, err)
	}
}

// withPortal checks the portal belongs to the domain, then runs f with the portal id.
func (h *Handler) withPortal(w http.ResponseWriter, r *http.Request, f func(portalID int64) (any, error)) {
	ids, ok := httpx.PathIDs(w, r, "domainId", "portalId")
	if !ok {
		return
	}
	if _, err := h.svc.Portal(r.Context(), ids[0], ids[1]); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	v, err := f(ids[1])
	httpx.Respond(w, r, v, err)
}

func (h *Handler) checkContent(w http.ResponseWriter, r *http.Request) {
	h.withPortal(w, r, func(portalID int64) (any, error) {
		return h.svc.CheckContent(r.Context(), httpx.MustPrincipal(r).UserID, portalID)
	})
}

func (h *Handler) engine(w http.ResponseWriter, r *http.Request) {
	h.withPortal(w, r, func(portalID int64) (any, error) {
		return h.svc.Engine(r.Context(), httpx.MustPrincipal(r).UserID, portalID)
	})
}

type probeBody struct {
	Data json.RawMessage `json:"data"`
}

func (h *Handler) probeSettings(w http.ResponseWriter, r *http.Request) {
	h.withPortal(w, r, func(portalID int64) (any, error) {
		data, version, err := h.svc.ProbeSettings(r.Context(), httpx.MustPrincipal(r).UserID, portalID)
		if err != nil {
			return nil, err
		}
		httpx.SetETag(w, string(version))
		return probeBody{Data: data}, nil
	})
}

func (h *Handler) saveProbeSettings(w http.ResponseWriter, r *http.Request) {
	h.withPortal(w, r, func(portalID int64) (any, error) {
		base, err := httpx.IfMatch(r)
		if err != nil {
			return nil, err
		}
		var b probeBody
		if err := httpx.Decode(r, &b); err != nil {
			return nil, err
		}
		version, err := h.svc.SaveProbeSettings(r.Context(), httpx.MustPrincipal(r).UserID, portalID, b.Data, workspace.Version(base))
		if err == nil {
			httpx.SetETag(w, string(version))
		}
		return nil, err
	})
}

// PortalUser is a person of the portal's domain and whether they have a workspace of it.
type PortalUser struct {
	Person
	HasWorkspace bool `json:"hasWorkspace"`
}

func (h *Handler) users(w http.ResponseWriter, r *http.Request) {
	ids, ok := httpx.PathIDs(w, r, "domainId", "portalId")
	if !ok {
		return
	}
	h.withPortal(w, r, func(portalID int64) (any, error) {
		people, err := h.members(r.Context(), ids[0])
		if err != nil {
			return nil, err
		}
		with := map[int64]bool{}
		for _, u := range h.svc.repos.Workspaces(portalID) {
			with[u] = true
		}
		out := make([]PortalUser, 0, len(people))
		for _, p := range people {
			out = append(out, PortalUser{Person: p, HasWorkspace: with[p.ID]})
		}
		return out, nil
	})
}

func (h *Handler) microsites(w http.ResponseWriter, r *http.Request) {
	if ids, ok := httpx.PathIDs(w, r, "domainId"); ok {
		v, err := h.svc.Microsites(r.Context(), ids[0])
		httpx.Respond(w, r, v, err)
	}
}

func (h *Handler) linkedMicrosites(w http.ResponseWriter, r *http.Request) {
	if ids, ok := httpx.PathIDs(w, r, "domainId", "portalId"); ok {
		v, err := h.svc.LinkedMicrosites(r.Context(), ids[0], ids[1])
		httpx.Respond(w, r, v, err)
	}
}

type micrositeBody struct {
	PortalID   int64   `json:"portalId"`
	Microsites []int64 `json:"microsites"`
}

func (h *Handler) linkMicrosites(link bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ids, ok := httpx.PathIDs(w, r, "domainId")
		if !ok {
			return
		}
		var b micrositeBody
		if err := httpx.Decode(r, &b); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		httpx.Respond(w, r, nil, h.svc.LinkMicrosites(r.Context(), ids[0], b.PortalID, b.Microsites, link))
	}
}
