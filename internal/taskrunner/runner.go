package taskrunner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Phase is the task runner's state (spec 3 §4 "Task runner").
type Phase string

// The phases, in the spec's order.
const (
	Uninitiated Phase = "UNINITIATED"
	Inactive    Phase = "INACTIVE"
	Validating  Phase = "VALIDATING"
	Running     Phase = "RUNNING"
	Stable      Phase = "STABLE"
	Unstable    Phase = "UNSTABLE"
	Stale       Phase = "STALE"
)

// Busy tells whether a run is under way in this phase.
func (p Phase) Busy() bool { return p == Validating || p == Running }

// Settings are a portal's taskRunnerSettings (portal.json, spec 3 §3). The fields and their
// types are those of editing.TaskRunnerSettings, so one converts to the other:
// taskrunner.Settings(s.TaskRunnerSettings).
type Settings struct {
	Active            bool     `json:"active"`
	AutoRun           bool     `json:"autoRun"`
	Extensions        []string `json:"extensions"`
	OutputPath        string   `json:"outputPath"`
	DockerFileContent string   `json:"dockerFileContent"`
	TemplateName      string   `json:"templateName"`
}

// DefaultOutputPath is the output folder when the settings name none (spec 3 §9).
const DefaultOutputPath = "pw-dist"

// Dockerfile is the build the settings describe: the content, else the named template, else
// DefaultTemplate.
func (s Settings) Dockerfile() (string, error) {
	if strings.TrimSpace(s.DockerFileContent) != "" {
		return s.DockerFileContent, nil
	}
	name := s.TemplateName
	if name == "" {
		name = DefaultTemplate
	}
	t, ok := TemplateByName(name)
	if !ok {
		return "", fmt.Errorf("there is no Dockerfile template %q", name)
	}
	return t.Dockerfile, nil
}

// Output is the settings' output folder, cleaned, inside the portal (DefaultOutputPath when
// none is named); a path out of the portal or into .git is an error.
func (s Settings) Output() (string, error) {
	p := s.OutputPath
	if p == "" {
		p = DefaultOutputPath
	}
	c := path.Clean(p)
	if path.IsAbs(p) || strings.Contains(p, "\\") || c == "." || c == ".." || strings.HasPrefix(c, "../") || c == ".git" || strings.HasPrefix(c, ".git/") {
		return "", fmt.Errorf("outputPath %q must be a folder inside the portal", p)
	}
	return c, nil
}

// Key names one run slot: a user's workspace of a portal.
type Key struct {
	UserID   int64
	PortalID int64
}

// RunError is the state's error (spec 3 §3: errorTitle, errorMessage).
type RunError struct {
	Title   string `json:"errorTitle"`
	Message string `json:"errorMessage"`
}

// State is the task runner state of one user's workspace of a portal (spec 3 §3).
type State struct {
	Phase        Phase         `json:"phase"`
	LastRunDate  *time.Time    `json:"lastRunDate"`
	Output       string        `json:"output"`
	LintWarnings []LintWarning `json:"lintWarnings"`
	Error        *RunError     `json:"error"`
}

// Request asks for a run of a portal's tasks on a user's workspace.
type Request struct {
	Key Key
	// Workspace is the user's working clone of the portal (read: copied into a scratch; the
	// output folder is replaced on success).
	Workspace string
	Settings  Settings
	// Workdir, when set, replaces Workspace: the tasks run in it directly (it is a disposable
	// copy the caller filled, e.g. a commit's snapshot) and the output stays in it.
	Workdir *Workdir
}

// Config configure New.
type Config struct {
	// Sandbox runs the steps. Required.
	Sandbox Sandbox
	// ScratchRoot holds the runs' scratch copies; it must be a folder the sandbox uid can pass
	// through (os.TempDir() by default), never one a task should see: each run gets a private
	// folder below it, mounted alone.
	ScratchRoot string
	// OnChange is called after every state change (persistence, TASK_RUNNER_STATE_CHANGE).
	// It runs on the goroutine making the change, with no lock held; keep it quick.
	OnChange func(Key, State)
	// Now is the clock; nil: time.Now.
	Now func() time.Time
}

// Runner runs portals' tasks, one run per user and portal at a time; a new request supersedes
// (cancels) the running one. Its state lives in memory; Config.OnChange and Restore persist it.
type Runner struct {
	cfg Config
	mu  sync.Mutex
	// slots are per user and portal.
	slots  map[Key]*slot
	closed bool
	wg     sync.WaitGroup
}

type slot struct {
	state    State
	settings *Settings // of the last request (for Changed)
	req      *Request
	run      *Run // the current or last run
	dirty    bool // a listed file changed while running
}

// Run is one run of a portal's tasks.
type Run struct {
	cancel context.CancelFunc
	done   chan struct{}
	final  State
}

// Done is closed when the run has ended (or was superseded and stopped).
func (r *Run) Done() <-chan struct{} { return r.done }

// Wait waits for the run to end and returns the state it ended with.
func (r *Run) Wait() State { <-r.done; return r.final }

// Cancel stops the run.
func (r *Run) Cancel() { r.cancel() }

// New makes a runner.
func New(cfg Config) (*Runner, error) {
	if cfg.Sandbox == nil {
		return nil, errors.New("taskrunner: Config.Sandbox is required")
	}
	if cfg.ScratchRoot == "" {
		cfg.ScratchRoot = filepath.Join(os.TempDir(), "portalwright-taskrunner")
	}
	RemoveDeadScratch(cfg.ScratchRoot) // scratch copies of runs whose server was killed
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Runner{cfg: cfg, slots: map[Key]*slot{}}, nil
}

func (r *Runner) slot(k Key) *slot {
	s := r.slots[k]
	if s == nil {
		s = &slot{state: State{Phase: Uninitiated}}
		r.slots[k] = s
	}
	return s
}

// State is the current state of a user's workspace of a portal.
func (r *Runner) State(k Key) State {
	r.mu.Lock()
	defer r.mu.Unlock()
	return cloneState(r.slot(k).state)
}

// Output is the captured log of the last (or current) run.
func (r *Runner) Output(k Key) string { return r.State(k).Output }

func cloneState(s State) State {
	s.LintWarnings = slices.Clone(s.LintWarnings)
	if s.Error != nil {
		e := *s.Error
		s.Error = &e
	}
	return s
}

// set changes the state under the lock and reports it after.
func (r *Runner) set(k Key, change func(*State)) {
	r.mu.Lock()
	s := r.slot(k)
	change(&s.state)
	st := cloneState(s.state)
	r.mu.Unlock()
	if r.cfg.OnChange != nil {
		r.cfg.OnChange(k, st)
	}
}

// Restore puts back states persisted before a restart. No run survives a restart: a state that
// was VALIDATING or RUNNING becomes STALE with a note, so the next request runs the tasks again.
func (r *Runner) Restore(k Key, st State) {
	if st.Phase.Busy() {
		st.Phase = Stale
		st.Output += "\n[task runner] the server restarted while the tasks were running; run them again\n"
		st.Error = &RunError{Title: "Task run interrupted", Message: "The server restarted while the tasks were running. Please re-run the tasks."}
	}
	r.set(k, func(s *State) { *s = st })
}

// Start starts a run of req's tasks and returns at once; a run of the same user and portal
// that is under way is cancelled first (the new one starts when it has stopped). With the
// runner inactive in the settings the state becomes INACTIVE and nothing runs.
func (r *Runner) Start(req Request) (*Run, error) {
	ctx, cancel := context.WithCancel(context.Background())
	run := &Run{cancel: cancel, done: make(chan struct{})}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		cancel()
		return nil, errors.New("the task runner is shutting down")
	}
	s := r.slot(req.Key)
	prev := s.run
	s.run = run
	settings := req.Settings
	s.settings = &settings
	s.req = &req
	s.dirty = false
	r.wg.Add(1)
	r.mu.Unlock()
	if prev != nil {
		prev.cancel()
	}
	if !req.Settings.Active {
		r.set(req.Key, func(st *State) { st.Phase = Inactive; st.Error = nil })
	} else {
		r.set(req.Key, func(st *State) { st.Phase = Validating; st.Error = nil })
	}
	go func() {
		defer r.wg.Done()
		defer close(run.done)
		defer cancel()
		if prev != nil {
			<-prev.done
		}
		if !req.Settings.Active {
			run.final = r.State(req.Key)
			return
		}
		run.final = r.execute(ctx, run, req)
	}()
	return run, nil
}

// current tells whether run is still the slot's run (not superseded).
func (r *Runner) current(k Key, run *Run) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.slots[k] != nil && r.slots[k].run == run
}

// execute does one run; its state changes are published only while it is the current run.
func (r *Runner) execute(ctx context.Context, run *Run, req Request) State {
	k := req.Key
	lim := r.cfg.Sandbox.limits()
	log := NewLog(lim.OutputBytes)
	st := State{Phase: Validating}
	publish := func(change func(*State)) {
		change(&st)
		st.Output = log.String()
		if r.current(k, run) {
			r.set(k, func(s *State) { *s = cloneState(st) })
		}
	}
	finish := func(phase Phase, title, msg string) State {
		now := r.cfg.Now().UTC()
		if msg != "" {
			log.Notef("%s", msg)
		}
		change := func(s *State) {
			s.Phase = phase
			s.LastRunDate = &now
			if title != "" {
				s.Error = &RunError{Title: title, Message: msg}
			}
		}
		change(&st)
		st.Output = log.String()
		r.mu.Lock()
		sl := r.slots[k]
		cur := sl != nil && sl.run == run
		if cur && phase == Stable && sl.dirty {
			st.Phase = Stale
		}
		r.mu.Unlock()
		if cur {
			r.set(k, func(s *State) { *s = cloneState(st) })
		}
		return cloneState(st)
	}
	ctx, cancel := context.WithTimeout(ctx, lim.WallTime)
	defer cancel()

	// VALIDATING: the build, the output path and a scratch copy of the workspace.
	dockerfile, err := req.Settings.Dockerfile()
	if err != nil {
		return finish(Unstable, "Invalid task runner settings", err.Error())
	}
	out, err := req.Settings.Output()
	if err != nil {
		return finish(Unstable, "Invalid task runner settings", err.Error())
	}
	plan, err := ParseDockerfile(dockerfile)
	st.LintWarnings = plan.Lint
	if err != nil {
		return finish(Unstable, "Invalid Dockerfile", err.Error())
	}
	for _, n := range plan.Notes {
		log.Notef("%s", n)
	}
	// The build's budget: its control group (or its own uid), ended with the scratch.
	bud, err := r.cfg.Sandbox.newBudget(ctx)
	if err != nil {
		return finish(Unstable, "A Task Runner Error Occurred", err.Error())
	}
	var scratch *Scratch
	if req.Workdir != nil {
		scratch, err = adopt(req.Workdir, plan.MountAt, bud)
	} else {
		scratch, err = newScratch(r.cfg.ScratchRoot, req.Workspace, out, plan.MountAt, bud)
	}
	if err != nil {
		return finish(Unstable, "A Task Runner Error Occurred", err.Error())
	}
	defer scratch.Remove()
	for _, step := range plan.Steps { // WORKDIR folders exist, as in a Docker build
		if rel, ok := strings.CutPrefix(step.Task.Dir, plan.MountAt); ok && rel != "" {
			d := filepath.Join(scratch.dir, filepath.FromSlash(rel))
			if err := os.MkdirAll(d, 0o755); err == nil && bud.uid >= 0 {
				_ = os.Lchown(d, bud.uid, bud.gid)
			}
		}
	}
	if ctx.Err() != nil {
		return finish(Unstable, "Task run cancelled", "a newer run replaced this one")
	}

	// RUNNING: the steps in order, in the sandbox.
	publish(func(s *State) { s.Phase = Running })
	for i, step := range plan.Steps {
		log.Notef("step %d/%d (line %d): %s", i+1, len(plan.Steps), step.Line, step.Text)
		res, err := r.cfg.Sandbox.Run(ctx, scratch, step.Task, log)
		if err != nil {
			return finish(Unstable, "Failed to start the task running process for workspace", err.Error())
		}
		switch {
		case res.Limit != "":
			return finish(Unstable, "The build went over a limit", fmt.Sprintf("%s Step %d (line %d) was stopped.", res.Limit, i+1, step.Line))
		case res.TimedOut || errors.Is(ctx.Err(), context.DeadlineExceeded):
			return finish(Unstable, "Tasks timed out", fmt.Sprintf("%s Step %d (line %d) was stopped.", timeMessage(lim), i+1, step.Line))
		case ctx.Err() != nil:
			return finish(Unstable, "Task run cancelled", "a newer run replaced this one")
		case !res.OK():
			how := fmt.Sprintf("exit status %d", res.ExitCode)
			if res.Signal != "" {
				how = "signal " + res.Signal
			}
			return finish(Unstable, "Something went wrong while trying to build your portal", fmt.Sprintf("step %d (line %d) failed: %s", i+1, step.Line, how))
		}
		publish(func(*State) {})
	}
	if ctx.Err() != nil {
		return finish(Unstable, "Task run cancelled", "a newer run replaced this one")
	}
	if req.Workdir != nil {
		if st, err := os.Lstat(filepath.Join(scratch.dir, filepath.FromSlash(out))); err != nil || !st.IsDir() {
			return finish(Unstable, "Something went wrong while trying to build your portal", "the tasks did not produce the output folder "+out)
		}
	} else if err := publishOutput(scratch, req.Workspace, out, lim.CopyBackBytes); err != nil {
		return finish(Unstable, "Something went wrong while trying to build your portal", err.Error())
	}
	if d := log.Dropped(); d > 0 {
		log.Notef("output over %d bytes: %d bytes were dropped", lim.OutputBytes, d)
	}
	log.Notef("done: %s copied to the workspace", out)
	return finish(Stable, "", "")
}

func publishOutput(s *Scratch, workspace, out string, limit int64) error {
	return publish(s, workspace, filepath.FromSlash(out), limit)
}

// Changed tells the runner that files of a user's workspace changed (workspace-relative
// paths). A change to a file with one of the settings' extensions makes a finished state
// (STABLE, UNSTABLE) STALE; during a run the run ends STALE instead of STABLE. STALE needs an
// earlier run: a state that never ran (or was cleared) stays UNINITIATED, 'has not run yet'.
// With autoRun on, a run starts.
// It reports whether the state became (or will become) stale.
func (r *Runner) Changed(k Key, paths []string) bool {
	r.mu.Lock()
	s := r.slots[k]
	if s == nil || s.settings == nil || !s.settings.Active || !matches(s.settings.Extensions, s.settings.OutputPath, paths) {
		r.mu.Unlock()
		return false
	}
	busy := s.state.Phase.Busy()
	if busy {
		s.dirty = true
	}
	auto := s.settings.AutoRun && s.req != nil
	var req Request
	if auto {
		req = *s.req
	}
	r.mu.Unlock()
	if auto {
		_, _ = r.Start(req)
		return true
	}
	if !busy {
		r.set(k, func(st *State) {
			if st.Phase == Stable || st.Phase == Unstable {
				st.Phase = Stale
			}
		})
	}
	return true
}

// matches tells whether one of paths has one of the extensions (with or without the dot) and
// is not in the output folder.
func matches(exts []string, output string, paths []string) bool {
	if output == "" {
		output = DefaultOutputPath
	}
	output = path.Clean(output)
	for _, p := range paths {
		p = path.Clean(filepath.ToSlash(p))
		if p == output || strings.HasPrefix(p, output+"/") {
			continue
		}
		ext := strings.TrimPrefix(path.Ext(p), ".")
		for _, e := range exts {
			if ext != "" && strings.EqualFold(strings.TrimPrefix(e, "."), ext) {
				return true
			}
		}
	}
	return false
}

// Lint lints the Dockerfile of the settings with BuildKit and stores the warnings in the state
// (GET .../lint).
func (r *Runner) Lint(k Key, settings Settings) ([]LintWarning, error) {
	df, err := settings.Dockerfile()
	if err != nil {
		return nil, err
	}
	w, err := Lint(df)
	if w == nil {
		w = []LintWarning{}
	}
	r.set(k, func(s *State) { s.LintWarnings = slices.Clone(w) })
	return w, err
}

// Clear cancels a run under way, removes the output folder from the workspace and puts the
// state back to UNINITIATED (POST .../clear).
func (r *Runner) Clear(k Key, workspace string, settings Settings) error {
	r.mu.Lock()
	s := r.slot(k)
	run := s.run
	s.run = nil
	s.dirty = false
	r.mu.Unlock()
	if run != nil {
		run.cancel()
		<-run.done
	}
	out, err := settings.Output()
	if err != nil {
		return err
	}
	if err := os.RemoveAll(filepath.Join(workspace, filepath.FromSlash(out))); err != nil {
		return fmt.Errorf("Failed to clear out task runner output folder: %w", err)
	}
	r.set(k, func(st *State) { *st = State{Phase: Uninitiated} })
	return nil
}

// Current is the run of k under way, or nil when none is.
func (r *Runner) Current(k Key) *Run {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.slots[k]
	if s == nil || s.run == nil {
		return nil
	}
	select {
	case <-s.run.done:
		return nil
	default:
		return s.run
	}
}

// Forget drops the slot of k once its run has ended (one-off builds leave nothing behind).
func (r *Runner) Forget(k Key) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s := r.slots[k]; s != nil && (s.run == nil || isDone(s.run)) {
		delete(r.slots, k)
	}
}

func isDone(run *Run) bool {
	select {
	case <-run.done:
		return true
	default:
		return false
	}
}

// Close cancels every run and waits for them to stop.
func (r *Runner) Close() {
	r.mu.Lock()
	r.closed = true
	for _, s := range r.slots {
		if s.run != nil {
			s.run.cancel()
		}
	}
	r.mu.Unlock()
	r.wg.Wait()
}
