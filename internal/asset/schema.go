package asset

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"sort"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/portalaccess"
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

// noLoader refuses every $ref outside the schema: a portal's schema must not make the
// server read its files or call other hosts.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, errors.New("schemas may not refer to other documents (" + url + ")")
}

// validateJSON checks that data is JSON and, when the file has a companion schema, that it
// keeps it.
func (s *Service) validateJSON(ctx context.Context, c caller.Caller, pa portalaccess.Portal, p workspace.Path, data []byte) error {
	if where := validate.JSONSyntax(data); where != "" {
		return contentInvalid("Wrong JSON Format: " + where)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return contentInvalid("Wrong JSON Format: " + err.Error())
	}
	sp, err := workspace.CleanPath(p.String() + ".schema")
	if err != nil {
		return nil
	}
	raw, _, err := s.ws.Read(ctx, c, pa, sp)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return checkSchema(doc, raw, APIPath(sp))
}

// checkSchema validates a parsed JSON document against a schema's text (named in messages).
// The schema may not refer to other documents.
func checkSchema(doc any, raw []byte, name string) error {
	if len(raw) > maxSchema {
		return contentInvalid("The schema " + name + " is too large to check the file against.")
	}
	sdoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return contentInvalid("The schema " + name + " is not valid JSON: " + err.Error())
	}
	comp := jsonschema.NewCompiler()
	comp.UseLoader(noLoader{})
	const loc = "urn:portalwright:schema"
	if err := comp.AddResource(loc, sdoc); err != nil {
		return contentInvalid("The schema " + name + " could not be read: " + err.Error())
	}
	sch, err := comp.Compile(loc)
	if err != nil {
		return contentInvalid("The schema " + name + " could not be read: " + err.Error())
	}
	err = sch.Validate(doc)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return contentInvalid(err.Error())
	}
	var msgs []string
	var collect func(u jsonschema.OutputUnit)
	collect = func(u jsonschema.OutputUnit) {
		if u.Error != nil && len(u.Errors) == 0 {
			where := u.InstanceLocation
			if where == "" {
				where = "/"
			}
			msgs = append(msgs, where+": "+u.Error.String())
		}
		for _, e := range u.Errors {
			collect(e)
		}
	}
	collect(*ve.BasicOutput())
	if len(msgs) == 0 {
		msgs = []string{ve.Error()}
	}
	sort.Strings(msgs)
	return contentInvalid(msgs...)
}

// SchemaProblems is the check a JSON save runs (checkSchema), for the commit-time content check
// (workspace.SchemaCheck): what is wrong with doc against schema, nothing when it keeps it.
func SchemaProblems(doc, schema []byte) []string {
	parsed, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
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
