package portal

import (
	"net/http"
	"strings"

	"portalwright/internal/caller"
	"portalwright/internal/httpx"
	"portalwright/internal/portalaccess"
	"portalwright/internal/workspace"
)

// Branch handlers: the portal's branches and references.

// branchParam reads a branch from a URL: a colon stands for a slash (spec 1 §2.1).
func branchParam(v string) string { return strings.ReplaceAll(v, ":", "/") }

type branchBody struct {
	Name   string `json:"name"`
	Branch string `json:"branch"`
	From   string `json:"from"`
	Source string `json:"source"`
	Target string `json:"target"`
}

type urlBranchesBody struct {
	GitURL   string `json:"gitUrl"`
	UserName string `json:"userName"`
	Password string `json:"password"`
}

func (h *Handler) urlBranches(w http.ResponseWriter, r *http.Request) error {
	var b urlBranchesBody
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	var creds *workspace.Credentials
	if b.UserName != "" || b.Password != "" {
		creds = &workspace.Credentials{Username: b.UserName, Password: b.Password}
	}
	v, err := h.brs.RemoteBranches(r.Context(), b.GitURL, creds)
	return httpx.Respond(w, referencesAnswer{AllReferences: v}, err)
}

func (h *Handler) branches(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	v, err := h.brs.Branches(r.Context(), pa)
	return httpx.Respond(w, v, err)
}

func (h *Handler) createBranch(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var b branchBody
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	name := b.Name
	if name == "" {
		name = b.Branch
	}
	if err := h.brs.CreateBranch(r.Context(), caller.Must(r.Context()), pa, name, b.From); err != nil {
		return err
	}
	return httpx.Created(w, branchName{Name: name})
}

func (h *Handler) mergeBranch(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	var b branchBody
	if err := httpx.Decode(r, &b); err != nil {
		return err
	}
	return httpx.Respond(w, nil, h.brs.MergeBranch(r.Context(), caller.Must(r.Context()), pa, b.Source, b.Target))
}

func (h *Handler) deleteBranch(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	return httpx.Respond(w, nil, h.brs.DeleteBranch(r.Context(), caller.Must(r.Context()), pa, branchParam(r.URL.Query().Get("branch"))))
}

func (h *Handler) references(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	v, err := h.brs.References(r.Context(), caller.Must(r.Context()), pa)
	return httpx.Respond(w, v, err)
}

func (h *Handler) activeBranch(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	b, err := h.brs.CurrentBranch(r.Context(), pa)
	if err != nil {
		return err
	}
	return httpx.Text(w, http.StatusOK, b)
}

// referencesAnswer lists the branches of a repository not yet imported (a git URL, a template).
type referencesAnswer struct {
	AllReferences []string `json:"allReferences"`
}

// branchName is a created branch's name.
type branchName struct {
	Name string `json:"name"`
}
