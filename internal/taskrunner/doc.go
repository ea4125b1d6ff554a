// Package taskrunner runs a portal's build tasks (spec 3 §3, §4 "Task runner", §7 "Workspace
// build") on a user's workspace, isolated from the host.
//
// A portal's tasks are untrusted code: anyone who can edit the portal can change its Dockerfile
// content or its build script. Isolation rules, enforced by the types:
//   - Tasks run only through a Sandbox, and only this package can implement one (the interface has
//     an unexported method), so every implementation applies the rules below; there is no way to
//     run a task with os/exec from the Runner's API.
//   - The only writable place a task sees is a Scratch: a copy of the workspace (without .git and
//     without the old output folder) in a directory the runner owns. A Scratch can only be made by
//     copying (newScratch), or from a Workdir — a fresh folder below the runner's own scratch root
//     that a caller filled with a disposable copy (a commit's snapshot for a loadable) and that
//     only Runner.NewWorkdir makes; no constructor takes a path to mount writable, so the
//     workspace itself, the data directory, the database, other workspaces and HOME can never
//     be handed to a task.
//     The build output is copied back into the workspace's output path only after a successful
//     run, into a fresh directory swapped into place atomically; links and special files the task
//     made are not copied back.
//   - The Bubblewrap sandbox (bwrap, Debian package bubblewrap) gives each step: no network (a new
//     network namespace with only its own loopback), new user, pid, ipc, uts and cgroup
//     namespaces, no capabilities, a new session (no terminal injection), no nested user
//     namespaces, a read-only /usr (and the /bin, /lib*, /sbin links or folders), a few read-only
//     files of /etc, a fresh /proc, a minimal /dev, its own empty size-limited /tmp and
//     /dev/shm, and the Scratch at its mount point. Nothing else of the host is mounted.
//   - Every build (a run: all its steps) has a budget, never shared with another build: its
//     processes, the memory of all its processes together, /tmp and /dev/shm sizes, what it
//     writes to its scratch folder, its captured output (Log keeps the first
//     Limits.OutputBytes and notes what was dropped), its output copied back and its wall time
//     (the Sandbox adds its own deadline, so a caller cannot forget one). The kernel enforces
//     them with a control group per build (cgroup.go: cgroup v2 where the host delegates one,
//     else the v1 pids and memory hierarchies), made under the server's own group and removed
//     after the build; a watcher (budget.go) reads the group's counters and the scratch
//     folder's size every 250 ms and kills the whole build when it goes over a limit; the step
//     then fails with a message naming the limit. Without control groups, a server running as
//     root gives each build a host uid of its own (a range, BubblewrapOptions.BuildUIDs), so
//     RLIMIT_NPROC counts that build alone, and memory is RLIMIT_AS per process.
//   - On expiry, cancellation or a limit, the process group of bwrap and every process of the
//     build's control group are killed; with the pid namespace and --die-with-parent
//     everything in the sandbox dies with it.
//   - When the server runs as root, bwrap itself runs as an unprivileged host uid (65534 with
//     control groups, a build uid without), never as root.
//   - The task's argv never reaches bwrap as an option: it follows "--". bwrap and prlimit run
//     with a fixed environment; the Dockerfile's ENV only reaches the task, through --setenv.
//
// The Dockerfile content is parsed and linted by BuildKit's own parser and linter used as a
// library; its RUN steps run in order inside the sandbox with WORKDIR, ENV, ARG defaults and
// SHELL honoured. No image is pulled: FROM names the image a Docker build would use, the sandbox
// runs on the host's /usr (Node.js from Debian). See docs/operations.md "Task runner sandbox".
package taskrunner
