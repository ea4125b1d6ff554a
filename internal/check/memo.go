package check

import "slices"

// The memo: what the rules found in one snapshot, kept so that a save costs what it changed.
//
// A rule has up to three parts (rule in rules_refs.go): a file part that finds one file's
// findings from that file's facts and the portal-wide sets it declares (deps); a portal part
// that reads only portal-wide sets it declares; a report part that reads readiness.json's
// budgets (which Options.Config may replace), run on every Report. newSnapshot knows which
// files' entries moved (touched) and which sets moved; remember then runs a file part again
// for the touched files only, or for every file when a set it declares moved, and a portal
// part again only when a set it declares moved. Everything else is the previous snapshot's.
// A snapshot and its memo never change once published, so Reports read them without a lock.

// deps are portal-wide sets a rule part reads besides a file's own facts.
type deps uint16

const (
	depList         deps = 1 << iota // which files and folders exist
	depSitemap                       // sitemap.json's entry (its pages with their lines)
	depPages                         // the sitemap's page ids and page files (the roles of HTML files)
	depTranslations                  // the translation files (s.tr)
	depKeys                          // the keys the languages define, and whether keys are checked at all
	depProbes                        // the widget types and their properties
	depWhitelist                     // whitelist.json
	depURLs                          // the external URLs of every file (in path order)
	depMentions                      // which keys the HTML files and widget data mention; unreadable widget data

	allDeps deps = 1<<iota - 1
)

// memo holds, by rule (the index into rules), the file parts' findings by file (files with
// findings only) and the portal parts' findings. Findings are stamped (severity, id).
type memo struct {
	files  []map[string][]Finding
	portal [][]Finding
}

// stamp gives a finding its rule's severity (unless it has one) and its id.
func stamp(f Finding) Finding {
	if f.Severity == "" {
		f.Severity = severities[f.Rule]
	}
	f.ID = FindingID(f)
	return f
}

// remember fills s.memo from old's (nil: find everything): moved are the sets that changed
// since old, touched the files whose entry may differ from old's.
func (s *snapshot) remember(old *snapshot, moved deps, touched []string) {
	full := old == nil
	s.memo = memo{files: make([]map[string][]Finding, len(rules)), portal: make([][]Finding, len(rules))}
	var buf []Finding
	emit := func(f Finding) { buf = append(buf, stamp(f)) }
	find := func(r rule, p string) []Finding {
		e := s.files[p]
		if e == nil || e.d == nil {
			return nil
		}
		buf = buf[:0]
		r.file(s, p, e.d, emit)
		return slices.Clone(buf)
	}
	for i, r := range rules {
		if r.file != nil {
			switch {
			case full || r.fileDeps&moved != 0:
				byFile := map[string][]Finding{}
				for _, p := range s.paths {
					if found := find(r, p); len(found) > 0 {
						byFile[p] = found
					}
				}
				s.memo.files[i] = byFile
			default:
				byFile := old.memo.files[i]
				cloned := false
				for _, p := range touched {
					found := find(r, p)
					if _, had := byFile[p]; !had && len(found) == 0 {
						continue
					}
					if !cloned {
						byFile, cloned = clone(byFile), true
					}
					if len(found) > 0 {
						byFile[p] = found
					} else {
						delete(byFile, p)
					}
				}
				s.memo.files[i] = byFile
			}
		}
		if r.portal != nil {
			if full || r.portalDeps&moved != 0 {
				buf = buf[:0]
				r.portal(s, emit)
				s.memo.portal[i] = slices.Clone(buf)
			} else {
				s.memo.portal[i] = old.memo.portal[i]
			}
		}
	}
}

func clone(m map[string][]Finding) map[string][]Finding {
	out := make(map[string][]Finding, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}
