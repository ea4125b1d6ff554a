package taskrunner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"

	"portalwright/internal/editing"
)

// Snapshots writes the files of a commit (or a branch's tip) of a portal into a folder and
// answers the commit (snapshot.Snapshots.Snapshot).
type Snapshots interface {
	Snapshot(ctx context.Context, portalID int64, ref, dir string, maxBytes int64) (string, error)
}

// KeptSettings is implemented by Snapshots that know the settings Portalwright keeps for a
// portal outside its repository (internal/editing/settings.go): a commit without portal.json
// is built with them (nil: none kept, the spec's defaults).
type KeptSettings interface {
	KeptSettings(ctx context.Context, portalID int64) (*editing.Settings, error)
}

// Builds is the step previews and loadables share: a commit's files taken into a folder, its
// portal.json read, and, when its tasks are active, the tasks run on it in the sandbox, with
// the folder to serve or pack answered. One-off builds are nobody's run: their states are not
// saved or published. Without a sandbox (runner nil) portals without tasks still build.
type Builds struct {
	snaps  Snapshots
	runner *Runner
	next   atomic.Int64 // keys of one-off builds
}

// NewBuilds returns the builds over snaps; runner (nil: no sandbox) runs the tasks.
func NewBuilds(snaps Snapshots, runner *Runner) *Builds { return &Builds{snaps: snaps, runner: runner} }

// CommitRequest is one commit to build.
type CommitRequest struct {
	PortalID int64
	Ref      string // a branch (its tip) or a commit id
	MaxBytes int64  // the snapshot's size limit
	// Dir is the folder to fill (a preview's, kept; a loadable's work folder); the tasks run
	// on a copy and their output replaces the output folder in Dir.
	Dir string
	// Disposable says the files are used once and thrown away (a loadable's, packed): with a
	// sandbox, the build takes a folder of the runner's instead of Dir and runs the tasks in
	// it in place, without a copy. Remove the Built when done.
	Disposable bool
}

// Built is a built commit. Remove it when done with a build made without Dir.
type Built struct {
	CommitID string
	Settings editing.Settings
	Tasks    bool   // the portal's tasks ran
	Root     string // the snapshot folder
	Content  string // what to serve or pack: Root, or the tasks' output folder in it
	Output   string // the tasks' output (their log), when they ran
	workdir  *Workdir
}

// Remove deletes a build's folder of the runner's (a Disposable build's; Dir is the caller's).
func (b *Built) Remove() {
	if b != nil && b.workdir != nil {
		_ = b.workdir.Remove()
	}
}

// BuildStep names where a build failed.
type BuildStep int

const (
	StepSnapshot    BuildStep = iota + 1 // the commit could not be taken (too large, missing, git)
	StepSettings                         // portal.json at the commit cannot be read, or its output path is bad
	StepUnavailable                      // the tasks are active but this server has no sandbox
	StepTasks                            // the tasks could not run, or did not end STABLE
	StepNoOutput                         // the tasks ended STABLE but wrote no output folder
)

// BuildError is a failed build: the step, the cause, and for the tasks' steps their last
// state (Output holds their log).
type BuildError struct {
	Step  BuildStep
	Err   error
	State State
}

func (e *BuildError) Error() string { return e.Err.Error() }
func (e *BuildError) Unwrap() error { return e.Err }

// Message is what the build's failure says to a user: the cause, or for failed tasks their
// error's title and message.
func (e *BuildError) Message() string {
	if e.Step == StepTasks && e.Err == errTasksFailed && e.State.Error != nil {
		return e.State.Error.Title + ": " + e.State.Error.Message
	}
	return e.Err.Error()
}

var (
	errTasksFailed = errors.New("The portal's tasks failed.")
	errNoSandbox   = errors.New("The portal's tasks cannot run on this server (no sandbox).")
)

// Commit builds a commit: snapshot, settings, tasks. report (nil: none) hears the steps as
// they start. A failure is a *BuildError and leaves no folder of the runner's behind.
func (b *Builds) Commit(ctx context.Context, req CommitRequest, report func(pct int, details string)) (*Built, error) {
	if report == nil {
		report = func(int, string) {}
	}
	built := &Built{Root: req.Dir}
	fail := func(step BuildStep, err error, st State) (*Built, error) {
		built.Remove()
		return nil, &BuildError{Step: step, Err: err, State: st}
	}
	if req.Disposable && b.runner != nil { // the snapshot goes where the tasks can run on it in place
		w, err := b.runner.NewWorkdir()
		if err != nil {
			return fail(StepSnapshot, err, State{})
		}
		built.workdir, built.Root = w, w.Dir()
	}
	report(10, "Taking a snapshot of "+short(req.Ref))
	commit, err := b.snaps.Snapshot(ctx, req.PortalID, req.Ref, built.Root, req.MaxBytes)
	if err != nil {
		return fail(StepSnapshot, err, State{})
	}
	built.CommitID, built.Content = commit, built.Root
	data, err := os.ReadFile(filepath.Join(built.Root, editing.SettingsFile))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fail(StepSettings, err, State{})
	}
	if built.Settings, err = editing.ParseSettings(data); err != nil {
		return fail(StepSettings, errors.New("The portal's settings at this commit cannot be read: "+err.Error()), State{})
	}
	if kept, ok := b.snaps.(KeptSettings); ok && data == nil {
		st, err := kept.KeptSettings(ctx, req.PortalID)
		if err != nil {
			return fail(StepSettings, errors.New("The portal's settings cannot be read: "+err.Error()), State{})
		}
		if st != nil {
			built.Settings = *st
		}
	}
	set := Settings(built.Settings.TaskRunnerSettings)
	if !set.Active {
		return built, nil
	}
	if b.runner == nil {
		return fail(StepUnavailable, errNoSandbox, State{})
	}
	out, err := set.Output()
	if err != nil {
		return fail(StepSettings, err, State{})
	}
	report(40, "Running the portal's tasks")
	built.Tasks = true
	st, err := b.run(ctx, built, set)
	built.Output = st.Output
	if err != nil {
		return fail(StepTasks, err, st)
	}
	if st.Phase != Stable {
		return fail(StepTasks, errTasksFailed, st)
	}
	built.Content = filepath.Join(built.Root, filepath.FromSlash(out))
	if fi, err := os.Stat(built.Content); err != nil || !fi.IsDir() {
		return fail(StepNoOutput, errors.New("The tasks wrote no "+out+" folder."), st)
	}
	return built, nil
}

// run runs the tasks on the build's folder: in place in a Workdir of the runner's, else on a
// copy of Dir whose output replaces Dir's.
func (b *Builds) run(ctx context.Context, built *Built, set Settings) (State, error) {
	k := Key{UserID: -1, PortalID: b.next.Add(1)}
	defer b.runner.Forget(k)
	req := Request{Key: k, Workspace: built.Root, Settings: set}
	if built.workdir != nil {
		req = Request{Key: k, Workdir: built.workdir, Settings: set}
	}
	run, err := b.runner.Start(req)
	if err != nil {
		return State{}, err
	}
	if err := waitRun(ctx, run, true); err != nil {
		return State{}, err
	}
	return run.Wait(), nil
}

func short(ref string) string {
	if len(ref) == 40 {
		return ref[:12]
	}
	return ref
}
