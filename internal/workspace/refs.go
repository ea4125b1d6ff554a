package workspace

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

var shaPattern = regexp.MustCompile(`^[0-9a-f]{40}([0-9a-f]{24})?$`)

// readRef reads a ref of a repository without running git: the loose ref file, else the
// packed-refs entry. "" when the ref does not exist. Status calls it on every refresh, so it
// saves a process per call; anything unexpected falls back to "" (callers then ask git).
func readRef(gitDir, ref string) string {
	if data, err := os.ReadFile(filepath.Join(gitDir, filepath.FromSlash(ref))); err == nil {
		if sha := strings.TrimSpace(string(data)); shaPattern.MatchString(sha) {
			return sha
		}
		return ""
	}
	f, err := os.Open(filepath.Join(gitDir, "packed-refs"))
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if sha, name, ok := strings.Cut(line, " "); ok && name == ref && shaPattern.MatchString(sha) {
			return sha
		}
	}
	return ""
}
