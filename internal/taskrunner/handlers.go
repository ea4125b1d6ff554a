package taskrunner

import (
	"context"
	"errors"
	"net/http"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/httpx"
	"portalwright/internal/portalaccess"
)

// The spec's messages of the task runner calls (spec 3 §8).
const (
	MsgStart     = "Failed to start the task running process for workspace"
	MsgLint      = "Failed to start Docker lint checking process"
	MsgClear     = "Failed to clear out task runner output folder"
	MsgState     = "Failed to retrieve current task runner state"
	MsgOutput    = "Failed to retrieve last run output"
	MsgTemplates = "Failed to load available Dockerfile templates"
)

// Workspaces finds the caller's workspace of a checked portal: its folder and the task runner
// settings of its portal.json (the app implements it over the editing unit).
type Workspaces interface {
	Workspace(ctx context.Context, c caller.Caller, pa portalaccess.Portal) (dir string, s Settings, err error)
}

// Handler serves /workspace-build (docs/api.md "Task runner (workspace build)").
type Handler struct {
	runner      *Runner
	ws          Workspaces
	access      *portalaccess.Checker
	unavailable error // the sandbox could not start: the runner's calls answer 503
}

// NewHandler returns the workspace build routes over runner.
func NewHandler(runner *Runner, ws Workspaces, access *portalaccess.Checker) *Handler {
	return &Handler{runner: runner, ws: ws, access: access}
}

// Unavailable returns the routes of a server whose sandbox could not start (why): the calls
// that need the runner answer 503 'Task runner is unavailable: …'; the templates are served.
func Unavailable(why error, access *portalaccess.Checker) *Handler {
	return &Handler{access: access, unavailable: why}
}

// Routes lists the workspace build calls (spec 3 §7 "Workspace build").
func (h *Handler) Routes() []httpx.Route {
	get, post, put := http.MethodGet, http.MethodPost, http.MethodPut
	in := httpx.InDomain
	at := h.access.Handle
	const p = "/workspace-build/{domainId}/{portalId}"
	return []httpx.Route{
		{Method: put, Pattern: p + "/build", Access: in("task:w"), Handler: at(h.build), In: httpx.NoBody, Out: State{}},
		{Method: get, Pattern: p + "/lint", Access: in("task:r"), Handler: at(h.lint), Out: []LintWarning{}},
		{Method: post, Pattern: p + "/clear", Access: in("task:w"), Handler: at(h.clear), In: httpx.NoBody, Out: State{}},
		{Method: get, Pattern: p + "/state", Access: in("task:r"), Handler: at(h.state), Out: State{}},
		{Method: get, Pattern: p + "/output", Access: in("task:r"), Handler: at(h.output), Out: httpx.PlainText},
		{Method: get, Pattern: p + "/templates", Access: in("task:r"), Handler: at(h.templates), Out: []Template{}},
		{Method: get, Pattern: p + "/dockerfile/{name}", Access: in("task:r"), Handler: at(h.dockerfile), Out: httpx.PlainText},
	}
}

// failed keeps an error the user can act on (4xx: no workspace, bad settings) and turns any
// other into the call's spec message.
func failed(msg string, err error) error {
	var e *apperr.Error
	if errors.As(err, &e) && e.Status < 500 {
		return e
	}
	return apperr.NewError(http.StatusInternalServerError, "TASK_RUNNER_ERROR", msg, msg).WithCause(err)
}

// request resolves the caller's run slot of the portal, or the 503 of a missing sandbox.
func (h *Handler) request(r *http.Request, pa portalaccess.Portal, msg string) (Request, error) {
	if h.unavailable != nil {
		return Request{}, apperr.NewError(http.StatusServiceUnavailable, "TASK_RUNNER_UNAVAILABLE", "Task runner is unavailable",
			"Task runner is unavailable: "+h.unavailable.Error())
	}
	c := caller.Must(r.Context())
	dir, s, err := h.ws.Workspace(r.Context(), c, pa)
	if err != nil {
		return Request{}, failed(msg, err)
	}
	return Request{Key: Key{UserID: c.UserID, PortalID: pa.ID()}, Workspace: dir, Settings: s}, nil
}

func (h *Handler) build(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	req, err := h.request(r, pa, MsgStart)
	if err != nil {
		return err
	}
	if _, err := h.runner.Start(req); err != nil {
		return failed(MsgStart, err)
	}
	return httpx.OK(w, h.runner.State(req.Key))
}

func (h *Handler) lint(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	req, err := h.request(r, pa, MsgLint)
	if err != nil {
		return err
	}
	warnings, err := h.runner.Lint(req.Key, req.Settings)
	if err != nil {
		e := apperr.NewError(http.StatusBadRequest, "DOCKERFILE_INVALID", MsgLint, err.Error())
		return e.WithData(warnings)
	}
	return httpx.OK(w, warnings)
}

func (h *Handler) clear(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	req, err := h.request(r, pa, MsgClear)
	if err != nil {
		return err
	}
	if err := h.runner.Clear(req.Key, req.Workspace, req.Settings); err != nil {
		return failed(MsgClear, err)
	}
	return httpx.OK(w, h.runner.Watch(req))
}

func (h *Handler) state(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	req, err := h.request(r, pa, MsgState)
	if err != nil {
		return err
	}
	return httpx.OK(w, h.runner.Watch(req))
}

func (h *Handler) output(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
	req, err := h.request(r, pa, MsgOutput)
	if err != nil {
		return err
	}
	return httpx.Text(w, http.StatusOK, h.runner.Output(req.Key))
}

func (h *Handler) templates(w http.ResponseWriter, _ *http.Request, _ portalaccess.Portal) error {
	return httpx.OK(w, Templates())
}

func (h *Handler) dockerfile(w http.ResponseWriter, r *http.Request, _ portalaccess.Portal) error {
	name := chi.URLParam(r, "name")
	t, ok := TemplateByName(name)
	if !ok {
		return apperr.NotFound("DOCKERFILE_TEMPLATE_NOT_FOUND", "There is no Dockerfile template named '"+name+"'.")
	}
	return httpx.Text(w, http.StatusOK, t.Dockerfile)
}
