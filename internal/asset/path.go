package asset

import (
	"path"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"portalwright/internal/apperr"
	"portalwright/internal/validate"
	"portalwright/internal/workspace"
)

// ParsePath turns an API asset path ("/images/a.png"; "/" is the root) into a checked
// workspace path. A trailing slash is allowed (a folder). Control characters, invalid UTF-8,
// backslashes, "..", "." and empty segments and any segment naming .git are refused.
func ParsePath(api string) (workspace.Path, error) {
	if !utf8.ValidString(api) || strings.IndexFunc(api, unicode.IsControl) >= 0 {
		return workspace.Path{}, badPath(api)
	}
	rel := strings.TrimPrefix(api, "/")
	if len(rel) > 1 {
		rel = strings.TrimSuffix(rel, "/")
	}
	if rel == "" {
		return workspace.Root, nil
	}
	p, err := workspace.CleanPath(rel)
	if err != nil || p.String() != rel {
		return workspace.Path{}, badPath(api)
	}
	return p, nil
}

// APIPath is the API form of a workspace path: "/" for the root, else "/" + the path.
func APIPath(p workspace.Path) string {
	if p == workspace.Root {
		return "/"
	}
	return "/" + p.String()
}

func badPath(api string) error {
	return apperr.BadRequest("INVALID_PATH", "The path "+quote(api)+" is not a file path inside the portal.")
}

// quote shows a user-given path in a message without its control characters.
func quote(s string) string {
	return "'" + strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return '?'
		}
		return r
	}, s) + "'"
}

// nameRule is spec 2 §5: letters, digits, space and [ ] - _ ) & $ @ ( ^ { } ~ . only.
var nameRule = regexp.MustCompile(validate.FileNamePattern)

// MsgSpecialChars is the spec's warning for upload names outside the name rule.
const MsgSpecialChars = "Warning! Some of the selected files can not be uploaded because it contains special characters."

// ValidName tells whether a file or folder name keeps the name rule (and is not "." or "..").
func ValidName(name string) bool {
	return name != "." && name != ".." && len(name) <= 255 && nameRule.MatchString(name)
}

// ext is the lower-case extension of a name without its dot ("" when none).
func ext(name string) string {
	e := path.Ext(name)
	if e == "" {
		return ""
	}
	return strings.ToLower(e[1:])
}
