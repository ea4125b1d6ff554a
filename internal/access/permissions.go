// Package access owns domains, their members, permission groups (the spec's roles) and the
// decision whether a user holds a permission in a domain (spec 1 §6, spec 3 §6).
package access

import (
	"slices"
	"strings"
)

// shortLetters expands the letter of a short code 'resource:letter' (spec 1 §6).
var shortLetters = map[string]string{
	"c": "create", "r": "read", "w": "write", "d": "delete", "t": "deactivate",
	"a": "approve", "l": "link", "u": "user_create", "k": "user_delete", "ac": "activate",
}

// Expand turns a short code such as "asset:w" into "asset_write"; a bare name is used as is.
// Permissions are compared in lowercase.
func Expand(code string) string {
	code = strings.ToLower(strings.TrimSpace(code))
	resource, letter, ok := strings.Cut(code, ":")
	if !ok {
		return code
	}
	if verb, known := shortLetters[letter]; known {
		return resource + "_" + verb
	}
	return code
}

// PermUserCreate lets a user add members to a domain and give them groups.
const PermUserCreate = "domain_user_create"

// Catalogue lists the permissions groups can hold, in the order the admin screens show them.
// It names every permission a route or a screen of the product checks.
var Catalogue = []string{
	"domain_read", "domain_write", "domain_user_create", "domain_user_delete",
	"portal_create", "portal_read", "portal_write", "portal_delete", "portal_activate", "portal_deactivate",
	"portal_settings_read", "portal_settings_write",
	"branch_create", "branch_read", "branch_write", "branch_delete",
	"template_create", "template_read", "template_write", "template_delete",
	"category_create", "category_read", "category_write", "category_delete", "category_link",
	"microsite_read", "microsite_link",
	"asset_create", "asset_read", "asset_write", "asset_delete",
	"page_create", "page_read", "page_write", "page_delete",
	"code_read", "code_write",
	"translation_read", "translation_write",
	"link_read", "link_write",
	"task_read", "task_write",
	"preview_create", "preview_read",
	"loadable_create", "loadable_read", "loadable_approve", "loadable_delete",
	"whitelist_read", "whitelist_write",
}

// Known tells whether an expanded permission is in the catalogue.
func Known(permission string) bool { return slices.Contains(Catalogue, permission) }

// normalise expands, lowercases, deduplicates and sorts a permission list, and returns the
// first unknown entry, if any.
func normalise(perms []string) (out []string, unknown string) {
	seen := map[string]bool{}
	for _, p := range perms {
		e := Expand(p)
		if e == "" || seen[e] {
			continue
		}
		if !Known(e) {
			return nil, p
		}
		seen[e] = true
		out = append(out, e)
	}
	slices.Sort(out)
	return out, ""
}
