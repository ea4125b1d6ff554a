package asset

import (
	"context"
	"errors"
	"io/fs"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/portalaccess"
	"portalwright/internal/schemacheck"
	"portalwright/internal/validate"
	"portalwright/internal/workspace"
)

// RuleError is one reason content was refused.
type RuleError struct {
	Message string `json:"message"`
}

// contentInvalid is the 400 CONTENT_VALIDATION_FAILED with the rule errors.
func contentInvalid(msgs ...string) *apperr.Error {
	rules := make([]RuleError, 0, len(msgs))
	for _, m := range msgs {
		rules = append(rules, RuleError{Message: m})
	}
	return apperr.BadRequest(CodeContentInvalid, msgs[0]).WithData(map[string]any{"ruleErrors": rules})
}

// validateJSON checks that data is JSON and, when the file has a companion schema, that it
// keeps it.
func (s *Service) validateJSON(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path, data []byte) error {
	if where := validate.JSONSyntax(data); where != "" {
		return contentInvalid("Wrong JSON Format: " + where)
	}
	doc, err := schemacheck.ParseJSON(data)
	if err != nil {
		return contentInvalid("Wrong JSON Format: " + err.Error())
	}
	sp, err := workspace.CleanPath(p.String() + ".schema")
	if err != nil {
		return nil
	}
	raw, _, err := s.ws.Files().Read(ctx, c, pa, sp)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return checkSchema(doc, raw, APIPath(sp))
}

// checkSchema validates a parsed JSON document against a schema's text (named in messages):
// the one validator (schemacheck). The schema may not refer to other documents.
func checkSchema(doc any, raw []byte, name string) error {
	problems, err := schemacheck.Check(doc, raw, name)
	if err != nil {
		return contentInvalid(err.Error())
	}
	if len(problems) == 0 {
		return nil
	}
	msgs := make([]string, len(problems))
	for i, p := range problems {
		msgs[i] = p.String()
	}
	return contentInvalid(msgs...)
}

// SchemaProblems is the check a JSON save runs (checkSchema), for the commit-time content check
// (workspace.SchemaCheck): what is wrong with doc against schema, nothing when it keeps it.
func SchemaProblems(doc, schema []byte) []string {
	parsed, err := schemacheck.ParseJSON(doc)
	if err != nil {
		return []string{"the file is not valid JSON."}
	}
	err = checkSchema(parsed, schema, "its schema")
	if err == nil {
		return nil
	}
	var rules []string
	if ae := apperr.AsError(err); ae != nil {
		if data, ok := ae.Data.(map[string]any); ok {
			if list, ok := data["ruleErrors"].([]RuleError); ok {
				for _, r := range list {
					rules = append(rules, r.Message)
				}
			}
		}
	}
	if len(rules) == 0 {
		rules = []string{err.Error()}
	}
	return rules
}
