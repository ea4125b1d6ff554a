package portal

import (
	"net/http"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/httpx"
	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
)

// Portal handlers: list, create (URL, template, clone), activate, delete, search, users.

func (h *Handler) list(w http.ResponseWriter, r *http.Request, domainID int64) error {
	v, err := h.svc.Portals(r.Context(), domainID)
	return httpx.Respond(w, v, err)
}

func (h *Handler) categorized(w http.ResponseWriter, r *http.Request, domainID int64) error {
	v, err := h.cat.Categorized(r.Context(), domainID)
	return httpx.Respond(w, v, err)
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

func (h *Handler) created(w http.ResponseWriter, v *Portal, err error) error {
	if err != nil {
		return err
	}
	return httpx.Created(w, v)
}

func (h *Handler) createFromURL(w http.ResponseWriter, r *http.Request, domainID int64) error {
	var b createBody
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	in, url := b.portal()
	var creds *workspace.Credentials
	if b.UserName != "" || b.Password != "" {
		creds = &workspace.Credentials{Username: b.UserName, Password: b.Password}
	}
	v, err := h.svc.CreateFromURL(r.Context(), caller.Must(r.Context()), domainID, in, url, creds)
	return h.created(w, v, err)
}

func (h *Handler) createFromTemplate(w http.ResponseWriter, r *http.Request, domainID int64) error {
	var b createBody
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	in, _ := b.portal()
	if b.TemplateID == 0 && b.Starter == "" {
		return apperr.Validation("Choose a template.")
	}
	v, err := h.svc.CreateFromTemplate(r.Context(), caller.Must(r.Context()), domainID, in, b.TemplateID, b.Starter)
	return h.created(w, v, err)
}

func (h *Handler) search(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	var pid int64
	if u := q.Get("uuid"); u != "" {
		n, ok := httpx.ParseID(u)
		if !ok {
			return apperr.BadRequest("INVALID_ID", "uuid must be a portal id.")
		}
		pid = n
	}
	v, err := h.svc.Search(r.Context(), q.Get("pn"), pid)
	return httpx.Respond(w, v, err)
}

func (h *Handler) clone(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var b createBody
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	in, _ := b.portal()
	v, err := h.svc.Clone(r.Context(), caller.Must(r.Context()), pa, in)
	return h.created(w, v, err)
}

func (h *Handler) setStatus(active bool) portalaccess.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
		v, err := h.svc.SetStatus(r.Context(), caller.Must(r.Context()), pa, active, r.URL.Query().Get("comment"))
		return httpx.Respond(w, v, err)
	}
}

func (h *Handler) delete(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	return httpx.Respond(w, nil, h.svc.Delete(r.Context(), caller.Must(r.Context()), pa, r.URL.Query().Get("comment")))
}

func (h *Handler) statistics(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	v, err := h.svc.Statistics(r.Context(), pa, branchParam(r.URL.Query().Get("branch")))
	return httpx.Respond(w, v, err)
}

func (h *Handler) users(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	people, err := h.members.Members(r.Context(), pa.DomainID())
	if err != nil {
		return err
	}
	return httpx.OK(w, h.svc.Users(pa, people))
}
