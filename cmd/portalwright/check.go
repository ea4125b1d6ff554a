package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"portalwright/internal/check"
)

// exitError is an error with the exit status main should end with.
type exitError struct {
	code int
	err  error // nil: nothing to print
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// cannotCheck is exit status 2: the check could not run.
func cannotCheck(err error) error { return &exitError{code: 2, err: err} }

const checkSynopsis = `Check a portal folder or git checkout for release readiness, without a server or database:
links, files, widgets, translations, JSON content, the whitelist and size (docs/readiness.md).

Exit status: 0 no errors, 1 errors found, 2 the check could not run.`

// checkPortal is `portalwright check [--format text|json] [--rules a,b] DIR`.
func checkPortal(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output: text (for people) or json ({\"findings\", \"ignored\", \"summary\"})")
	rulesFlag := fs.String("rules", "", "comma-separated rule ids to run (default: all): "+strings.Join(check.RuleIDs(), ", "))
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: portalwright check [--format text|json] [--rules a,b] DIR\n\n%s\n\nFlags:\n", checkSynopsis)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return cannotCheck(err)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return cannotCheck(errors.New("check needs one folder: portalwright check [flags] DIR"))
	}
	if *format != "text" && *format != "json" {
		return cannotCheck(fmt.Errorf("--format must be text or json, not %q", *format))
	}
	var rules []string
	for _, r := range strings.Split(*rulesFlag, ",") {
		if r = strings.TrimSpace(r); r != "" {
			rules = append(rules, r)
		}
	}
	if err := check.ValidateRules(rules); err != nil {
		return cannotCheck(err)
	}
	dir := fs.Arg(0)
	if fi, err := os.Stat(dir); err != nil {
		return cannotCheck(fmt.Errorf("cannot check %s: %w", dir, err))
	} else if !fi.IsDir() {
		return cannotCheck(fmt.Errorf("cannot check %s: not a folder", dir))
	}
	rep, err := check.Run(ctx, check.DirTree(dir), check.Options{Rules: rules})
	if err != nil {
		return cannotCheck(fmt.Errorf("cannot check %s: %w", dir, err))
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return cannotCheck(err)
		}
	} else {
		writeText(stdout, rep)
	}
	if rep.Summary.Errors > 0 {
		return &exitError{code: 1}
	}
	return nil
}

// writeText writes one line per finding, grouped by file (the report's order), then a summary.
func writeText(w io.Writer, rep check.Report) {
	last := ""
	for _, f := range rep.Findings {
		if f.Path != last && last != "" {
			fmt.Fprintln(w)
		}
		last = f.Path
		where := f.Path
		if f.Line > 0 {
			where += ":" + fmt.Sprint(f.Line)
		}
		fmt.Fprintf(w, "%s: %s: %s [%s]\n", where, f.Severity, f.Message, f.Rule)
	}
	if len(rep.Findings) > 0 {
		fmt.Fprintln(w)
	}
	s := rep.Summary
	fmt.Fprintf(w, "%d files checked: %d %s, %d %s, %d %s", s.Files, s.Errors, plural(s.Errors, "error"), s.Warnings, plural(s.Warnings, "warning"), s.Infos, plural(s.Infos, "info"))
	if s.Ignored > 0 {
		fmt.Fprintf(w, ", %d ignored", s.Ignored)
	}
	fmt.Fprintln(w, ".")
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
