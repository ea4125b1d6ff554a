package taskrunner

import (
	"fmt"
	"os"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/moby/buildkit/frontend/dockerfile/instructions"
	"github.com/moby/buildkit/frontend/dockerfile/linter"
	"github.com/moby/buildkit/frontend/dockerfile/parser"
)

// DefaultMountPoint is where the workspace copy is when the Dockerfile does not COPY the build
// context somewhere else.
const DefaultMountPoint = "/workspace"

// Template is a Dockerfile build template (GET /workspace-build/{domain}/{portal}/templates and
// .../dockerfile/{name}).
type Template struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Dockerfile  string `json:"dockerFileContent"`
}

// DefaultTemplate is used when a portal's settings name neither Dockerfile content nor a
// template: the passenger starter's build (templates/passenger, `node build.js`).
const DefaultTemplate = "node-build"

var templates = []Template{
	{
		Name:        "node-build",
		Description: "Runs `node build.js` (plain Node.js, no dependencies): the passenger starter's build.",
		Dockerfile:  "FROM node:20-bookworm-slim\nWORKDIR /workspace\nCOPY . .\nRUN node build.js\n",
	},
	{
		Name:        "node-check",
		Description: "Validates the content only: `node build.js --check`, then builds.",
		Dockerfile:  "FROM node:20-bookworm-slim\nWORKDIR /workspace\nCOPY . .\nRUN node build.js --check\nRUN node build.js\n",
	},
	{
		Name:        "npm-build",
		Description: "Runs `npm run build`; there is no network, so dependencies must be in the portal (node_modules committed or none needed).",
		Dockerfile:  "FROM node:20-bookworm-slim\nWORKDIR /workspace\nCOPY . .\nRUN npm run build --offline\n",
	},
}

// Templates lists the built-in Dockerfile templates.
func Templates() []Template { return slices.Clone(templates) }

// TemplateByName finds a built-in template.
func TemplateByName(name string) (Template, bool) {
	for _, t := range templates {
		if t.Name == name {
			return t, true
		}
	}
	return Template{}, false
}

// LintWarning is one finding of BuildKit's Dockerfile linter (or parser).
type LintWarning struct {
	Rule    string `json:"rule"`
	Message string `json:"message"`
	Line    int    `json:"line,omitempty"`
	URL     string `json:"url,omitempty"`
}

// Step is one RUN of the Dockerfile, ready for a sandbox.
type Step struct {
	Line int
	Task Task
	Text string // the instruction as written, for the log
}

// Plan is what a Dockerfile asks for, as the sandbox runs it.
type Plan struct {
	MountAt string        // where the workspace copy is (the context COPY's destination)
	Steps   []Step        // the RUN steps, in order
	Notes   []string      // what the sandbox does differently from a Docker build
	Lint    []LintWarning // BuildKit's linter
}

// Lint parses and lints a Dockerfile with BuildKit; an error means it cannot be parsed.
func Lint(dockerfile string) ([]LintWarning, error) {
	p, err := ParseDockerfile(dockerfile)
	return p.Lint, err
}

// ParseDockerfile parses the Dockerfile with BuildKit's parser and linter and turns it into
// sandbox steps: RUN in order, with WORKDIR, ENV, ARG defaults and SHELL honoured.
func ParseDockerfile(dockerfile string) (Plan, error) {
	plan := Plan{MountAt: DefaultMountPoint}
	res, err := parser.Parse(strings.NewReader(dockerfile))
	if err != nil {
		return plan, fmt.Errorf("the Dockerfile cannot be parsed: %w", err)
	}
	for _, w := range res.Warnings {
		lw := LintWarning{Rule: "Parser", Message: w.Short, URL: w.URL}
		if w.Location != nil {
			lw.Line = w.Location.Start.Line
		}
		plan.Lint = append(plan.Lint, lw)
	}
	lint := linter.New(&linter.Config{Warn: func(rule, desc, url, msg string, loc []parser.Range) {
		lw := LintWarning{Rule: rule, Message: msg, URL: url}
		if len(loc) > 0 {
			lw.Line = loc[0].Start.Line
		}
		plan.Lint = append(plan.Lint, lw)
	}})
	stages, metaArgs, err := instructions.Parse(res.AST, lint)
	if err != nil {
		return plan, fmt.Errorf("the Dockerfile is not valid: %w", err)
	}
	sort.SliceStable(plan.Lint, func(i, j int) bool { return plan.Lint[i].Line < plan.Lint[j].Line })
	if len(stages) == 0 {
		return plan, fmt.Errorf("the Dockerfile has no FROM")
	}
	if len(stages) > 1 {
		plan.Notes = append(plan.Notes, fmt.Sprintf("%d build stages: their RUN steps run one after the other in the same folder", len(stages)))
	}
	// Global ARG defaults apply to every stage, as the build's --build-arg are not given.
	global := map[string]string{}
	for _, a := range metaArgs {
		for _, kv := range a.Args {
			if kv.Value != nil {
				global[kv.Key] = *kv.Value
			}
		}
	}
	var steps []rawStep
	for _, st := range stages {
		plan.Notes = append(plan.Notes, fmt.Sprintf("FROM %s: no image is pulled; the steps run on the server's system (read-only /usr)", st.BaseName))
		env := map[string]string{}
		for k, v := range global {
			env[k] = v
		}
		var order []string // ENV names in the order they were set
		workdir := "/"
		shell := []string{"/bin/sh", "-c"}
		expand := func(s string) string {
			return os.Expand(s, func(k string) string { return env[k] })
		}
		for _, c := range st.Commands {
			switch c := c.(type) {
			case *instructions.WorkdirCommand:
				p := expand(c.Path)
				if !path.IsAbs(p) {
					p = path.Join(workdir, p)
				}
				workdir = path.Clean(p)
			case *instructions.EnvCommand:
				for _, kv := range c.Env {
					if !slices.Contains(order, kv.Key) {
						order = append(order, kv.Key)
					}
					env[kv.Key] = expand(kv.Value)
				}
			case *instructions.ArgCommand:
				for _, kv := range c.Args {
					if _, set := env[kv.Key]; !set && kv.Value != nil {
						env[kv.Key] = expand(*kv.Value)
						order = append(order, kv.Key)
					}
				}
			case *instructions.ShellCommand:
				shell = slices.Clone(c.Shell)
			case *instructions.CopyCommand:
				if plan.MountAt == DefaultMountPoint && len(steps) == 0 && isContext(c.SourcePaths) {
					dest := expand(c.DestPath)
					if !path.IsAbs(dest) {
						dest = path.Join(workdir, dest)
					}
					if err := checkMountPoint(path.Clean(dest)); err != nil {
						return plan, err
					}
					plan.MountAt = path.Clean(dest)
				} else {
					plan.Notes = append(plan.Notes, fmt.Sprintf("line %d: %s: only the copy of the whole build context (COPY . <folder>) before the first RUN is used", line(c), c.String()))
				}
			case *instructions.RunCommand:
				var argv []string
				if c.PrependShell {
					argv = append(slices.Clone(shell), strings.Join(c.CmdLine, " "))
				} else {
					argv = slices.Clone(c.CmdLine)
				}
				if len(c.FlagsUsed) > 0 {
					plan.Notes = append(plan.Notes, fmt.Sprintf("line %d: RUN flags %s are ignored", line(c), strings.Join(c.FlagsUsed, ", ")))
				}
				var e []string
				for _, k := range order {
					e = append(e, k+"="+env[k])
				}
				steps = append(steps, rawStep{line: line(c), text: c.String(), argv: argv, dir: workdir, env: e})
			default:
				plan.Notes = append(plan.Notes, fmt.Sprintf("line %d: %s is not used by the task runner", line(c), strings.ToUpper(c.Name())))
			}
		}
	}
	if len(steps) == 0 {
		return plan, fmt.Errorf("the Dockerfile has no RUN step")
	}
	for _, s := range steps {
		dir := s.dir
		if dir == "/" {
			dir = plan.MountAt // Docker's default folder has no meaning here: run in the copy
		}
		if dir != plan.MountAt && !strings.HasPrefix(dir, plan.MountAt+"/") && dir != "/tmp" && !strings.HasPrefix(dir, "/tmp/") {
			return plan, fmt.Errorf("line %d: WORKDIR %s is outside the build folder %s", s.line, dir, plan.MountAt)
		}
		plan.Steps = append(plan.Steps, Step{Line: s.line, Text: s.text, Task: Task{Argv: s.argv, Dir: dir, Env: s.env}})
	}
	return plan, nil
}

type rawStep struct {
	line int
	text string
	argv []string
	dir  string
	env  []string
}

func isContext(src []string) bool {
	return len(src) == 1 && (src[0] == "." || src[0] == "./")
}

func line(c instructions.Command) int {
	if l, ok := c.(interface{ Location() []parser.Range }); ok && len(l.Location()) > 0 {
		return l.Location()[0].Start.Line
	}
	return 0
}
