package gen

import (
	"fmt"
	"slices"
	"strings"
)

// Notes are docs/api-notes.md read: the sections of docs/api.md's route tables, in order,
// and the note of each route.
type Notes struct {
	Sections []string
	byRoute  map[string]note // "GET /user/profile"
}

type note struct {
	section string
	text    string
	line    int
}

var methods = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"}

// ParseNotes reads the notes file: "## Section" starts a table, "### GET, POST /path" names
// routes, and the lines up to the next heading are their note (one paragraph).
func ParseNotes(md string) (*Notes, error) {
	n := &Notes{byRoute: map[string]note{}}
	var keys []string
	var text []string
	section := ""
	flush := func() {
		for _, k := range keys {
			nt := n.byRoute[k]
			nt.text = strings.Join(text, " ")
			n.byRoute[k] = nt
		}
		keys, text = nil, nil
	}
	for i, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "### "):
			flush()
			if section == "" {
				return nil, fmt.Errorf("api notes line %d: a route before the first section", i+1)
			}
			head := strings.TrimSpace(strings.TrimPrefix(line, "### "))
			sp := strings.LastIndex(head, " ")
			if sp < 0 {
				return nil, fmt.Errorf("api notes line %d: %q is not METHOD /path", i+1, head)
			}
			path := head[sp+1:]
			for _, m := range strings.Split(head[:sp], ",") {
				m = strings.TrimSpace(m)
				if !slices.Contains(methods, m) || !strings.HasPrefix(path, "/") {
					return nil, fmt.Errorf("api notes line %d: %q is not METHOD /path", i+1, head)
				}
				k := m + " " + path
				if prev, ok := n.byRoute[k]; ok {
					return nil, fmt.Errorf("api notes line %d: %s already has a note (line %d)", i+1, k, prev.line)
				}
				n.byRoute[k] = note{section: section, line: i + 1}
				keys = append(keys, k)
			}
		case strings.HasPrefix(line, "## "):
			flush()
			section = strings.TrimSpace(strings.TrimPrefix(line, "## "))
			if slices.Contains(n.Sections, section) {
				return nil, fmt.Errorf("api notes line %d: section %q twice", i+1, section)
			}
			n.Sections = append(n.Sections, section)
		case strings.HasPrefix(line, "#"):
			flush()
		case keys != nil && strings.TrimSpace(line) != "":
			text = append(text, strings.TrimSpace(line))
		}
	}
	flush()
	return n, nil
}

// check says which routes have no note and which notes name no route.
func (n *Notes) check(routes []Route) error {
	var errs []string
	seen := map[string]bool{}
	for _, r := range routes {
		k := r.Method + " " + r.Pattern
		seen[k] = true
		if _, ok := n.byRoute[k]; !ok {
			errs = append(errs, "no entry for "+k)
		}
	}
	for k, nt := range n.byRoute {
		if !seen[k] {
			errs = append(errs, fmt.Sprintf("line %d names %s, which is no route", nt.line, k))
		}
	}
	if len(errs) > 0 {
		slices.Sort(errs)
		return fmt.Errorf("docs/api-notes.md: %s", strings.Join(errs, "; "))
	}
	return nil
}
