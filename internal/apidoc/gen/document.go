// Package gen makes the API's description from the route table: the OpenAPI 3.1 document
// (Document), and docs/api.md's route tables from that document (Tables). internal/app's
// TestAPIDescription runs it over the wired routes and fails when a checked-in file differs;
// with -update-api it writes them (`make api`, which also makes the browser's types).
//
// Rules:
//   - Everything about a route comes from its httpx.Route: method, pattern, access rule, and
//     the Go types it takes and answers (In, Out, Status), reflected into JSON Schema
//     (2020-12, as OpenAPI 3.1 has it) by github.com/swaggest/jsonschema-go through
//     swaggest/openapi-go's 3.1 reflector; only the words (the note of each route, its table)
//     come from docs/api-notes.md.
//   - In what a route answers, a field is required unless its JSON tag says omitempty
//     (encoding/json writes it always); a type only read from request bodies requires nothing
//     (the decoder takes what is there). A pointer may be null; a slice or map is never null:
//     a whole answer never is (httpx.JSON writes a nil one as [] or {}), and a service fills
//     the lists inside its answers (the contract the web app has always relied on).
//   - Schemas are named after their package and type (access.Domain → AccessDomain).
//   - The output is deterministic: the same routes and notes give the same bytes.
package gen

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/swaggest/jsonschema-go"
	"github.com/swaggest/openapi-go"
	"github.com/swaggest/openapi-go/openapi31"

	"portalwright/internal/httpx"
)

// Route is one route of the table, as registered (Pattern relative to /api/v1).
type Route struct {
	Method  string
	Pattern string
	Access  httpx.Access
	In, Out any
	Status  int
}

// Prefix is where the API lives; the document's server.
const Prefix = "/api/v1"

// Check says what a route's declaration lacks: every route names its answer, and a route
// whose method carries a body names its body (httpx.NoBody when it reads none).
func Check(routes []Route) error {
	var errs []string
	for _, r := range routes {
		name := r.Method + " " + r.Pattern
		if r.Out == nil {
			errs = append(errs, name+" names no answer (Out)")
		}
		switch r.Method {
		case http.MethodPost, http.MethodPut, http.MethodPatch:
			if r.In == nil {
				errs = append(errs, name+" names no body (In; httpx.NoBody when it reads none)")
			}
		default:
			if r.In != nil && r.In != httpx.NoBody {
				errs = append(errs, name+" names a body, but "+r.Method+" carries none")
			}
		}
		if r.Out == httpx.NoBody && r.Status != 0 {
			errs = append(errs, name+": a NoBody answer is 204, it takes no Status")
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("the route table: %s", strings.Join(errs, "; "))
	}
	return nil
}

// Document builds the OpenAPI 3.1 document of routes, with the notes as the operations'
// descriptions and sections as their tags, as indented JSON.
func Document(routes []Route, notes *Notes) ([]byte, error) {
	if err := Check(routes); err != nil {
		return nil, err
	}
	if err := notes.check(routes); err != nil {
		return nil, err
	}
	answered := map[reflect.Type]bool{}
	for _, rt := range routes {
		if _, ok := rt.Out.(httpx.Body); !ok && rt.Out != nil {
			collectStructs(reflect.TypeOf(rt.Out), answered)
		}
	}
	collectStructs(reflect.TypeOf(httpx.ErrorBody{}), answered)
	r := openapi31.NewReflector()
	r.DefaultOptions = append(r.DefaultOptions,
		jsonschema.InterceptSchema(requireWritten(answered)),
		jsonschema.InterceptNullability(listsNotNull),
		// A pointer to a struct without omitempty is null when nil: anyOf [null, $ref].
		func(rc *jsonschema.ReflectContext) { rc.EnvelopNullability = true },
	)
	s := r.Spec
	s.Info.WithTitle("Portalwright API").WithVersion("v1").
		WithDescription("The JSON API of Portalwright under /api/v1. The words are docs/api.md's; " +
			"this document is generated from the route table (internal/apidoc).")
	s.WithServers(openapi31.Server{URL: Prefix})
	s.SetHTTPBearerTokenSecurity(bearer, "", "an access token from POST /user/login (`id_token`), as `Authorization: Bearer <token>`")
	s.SetAPIKeySecurity(readToken, "t", openapi.InQuery, "a short-lived read token minted by a route that required the permission (thumbnails: `<img src>` sends no header)")
	s.WithSecurity(map[string][]string{bearer: {}})
	tags := make([]openapi31.Tag, 0, len(notes.Sections))
	for _, sec := range notes.Sections {
		tags = append(tags, openapi31.Tag{Name: sec})
	}
	s.WithTags(tags...) // in the order of docs/api.md

	byKey := map[string]Route{}
	for _, rt := range routes {
		byKey[rt.Method+" "+rt.Pattern] = rt
	}
	// Every call can fail with the API's error body (docs/api.md "Errors").
	errSchema, err := schemaRef(r, httpx.ErrorBody{})
	if err != nil {
		return nil, err
	}
	s.ComponentsEns().WithResponsesItem("Error", openapi31.ResponseOrReference{Response: &openapi31.Response{
		Description: "an error: its status, code and message (docs/api.md \"Errors\")",
		Content:     map[string]openapi31.MediaType{"application/json": {Schema: errSchema}},
	}})
	for _, rt := range routes {
		if err := addOperation(r, rt, byKey, notes); err != nil {
			return nil, fmt.Errorf("%s %s: %w", rt.Method, rt.Pattern, err)
		}
	}
	out, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

const (
	bearer    = "bearer"
	readToken = "readToken"
)

var chiParam = regexp.MustCompile(`\{([^}:]+)(?::([^}]*))?\}`)

// OpenAPIPath is a chi pattern as an OpenAPI path: {name:regexp} → {name}, a trailing * →
// {path}.
func OpenAPIPath(pattern string) string {
	p := chiParam.ReplaceAllString(pattern, "{$1}")
	if strings.HasSuffix(p, "*") {
		p = strings.TrimSuffix(p, "*") + "{path}"
	}
	return p
}

func addOperation(r *openapi31.Reflector, rt Route, byKey map[string]Route, notes *Notes) error {
	oc, err := r.NewOperationContext(rt.Method, OpenAPIPath(rt.Pattern))
	if err != nil {
		return err
	}
	nt := notes.byRoute[rt.Method+" "+rt.Pattern]
	oc.SetTags(nt.section)
	oc.SetDescription(nt.text)
	op := oc.(openapi31.OperationExposer).Operation()
	op.WithID(operationID(rt))
	op.WithMapOfAnythingItem("x-access", accessValue(rt.Access))

	for _, m := range chiParam.FindAllStringSubmatch(rt.Pattern, -1) {
		schema := map[string]any{"type": "string"}
		if m[1] == "domainId" || m[1] == "portalId" {
			schema = map[string]any{"type": "integer", "format": "int64", "minimum": 1}
		} else if m[2] != "" {
			schema["pattern"] = "^" + m[2] + "$"
		}
		op.Parameters = append(op.Parameters, pathParam(m[1], "", schema))
	}
	if strings.HasSuffix(rt.Pattern, "*") {
		op.Parameters = append(op.Parameters, pathParam("path", "the rest of the path, segments escaped one by one (it may contain /)", map[string]any{"type": "string"}))
	}
	switch {
	case rt.Access.Kind == httpx.AccessPublic:
		op.WithSecurity(map[string][]string{})
	case rt.Access.Kind == httpx.AccessReadToken && rt.Access.TokenParam == "" && rt.Access.TokenCookie == "":
		op.WithSecurity(map[string][]string{readToken: {}})
	case rt.Access.Kind == httpx.AccessReadToken:
		op.WithSecurity(map[string][]string{}) // the token is in the path or a cookie (x-access)
	}

	switch in := rt.In.(type) {
	case nil:
	case httpx.Body:
		if in != httpx.NoBody {
			op.RequestBodyEns().RequestBodyEns().WithRequired(true).WithContentItem(string(in), openapi31.MediaType{Schema: rawSchema(in)})
		}
	default:
		oc.AddReqStructure(in, openapi.WithContentType("application/json"))
	}

	out, status := rt.Out, rt.Status
	if ref, ok := out.(httpx.AnswerOf); ok {
		other, found := byKey[ref.Method+" "+ref.Pattern]
		if !found {
			return fmt.Errorf("answers as %s %s, which is no route", ref.Method, ref.Pattern)
		}
		out = other.Out
		if status == 0 {
			status = other.Status
		}
	}
	if status == 0 {
		status = http.StatusOK
	}
	switch o := out.(type) {
	case httpx.Body:
		resp := openapi31.Response{}
		switch o {
		case httpx.NoBody:
			status = http.StatusNoContent
		case httpx.Redirect:
			status = http.StatusFound
			resp.Description = "Found: the browser is sent on (Location)"
		case httpx.WebSocket:
			status = http.StatusSwitchingProtocols
			resp.Description = "Switching Protocols: the connection is a WebSocket from here on"
		default:
			resp.WithContentItem(string(o), openapi31.MediaType{Schema: rawSchema(o)})
		}
		if resp.Description == "" {
			resp.Description = http.StatusText(status)
		}
		op.ResponsesEns().WithMapOfResponseOrReferenceValuesItem(strconv.Itoa(status), openapi31.ResponseOrReference{Response: &resp})
	default:
		oc.AddRespStructure(out, openapi.WithHTTPStatus(status))
	}
	if err := r.AddOperation(oc); err != nil {
		return err
	}
	added, _ := r.Spec.Paths.MapOfPathItemValues[OpenAPIPath(rt.Pattern)].Operation(rt.Method)
	added.Responses.WithDefault(openapi31.ResponseOrReference{Reference: &openapi31.Reference{Ref: "#/components/responses/Error"}})
	return nil
}

// schemaRef reflects v into the components and answers a reference to it.
func schemaRef(r *openapi31.Reflector, v any) (map[string]any, error) {
	s, err := r.Reflect(v, jsonschema.DefinitionsPrefix("#/components/schemas/"), jsonschema.CollectDefinitions(func(name string, schema jsonschema.Schema) {
		sm, err := schema.ToSchemaOrBool().ToSimpleMap()
		if err == nil {
			r.Spec.ComponentsEns().WithSchemasItem(name, sm)
		}
	}), jsonschema.RootRef)
	if err != nil {
		return nil, err
	}
	return s.ToSchemaOrBool().ToSimpleMap()
}

func pathParam(name, desc string, schema map[string]any) openapi31.ParameterOrReference {
	p := openapi31.Parameter{Name: name, In: openapi31.ParameterInPath, Required: ptr(true), Schema: schema}
	if desc != "" {
		p.Description = &desc
	}
	return openapi31.ParameterOrReference{Parameter: &p}
}

func ptr[T any](v T) *T { return &v }

// rawSchema is the schema of a body that is not JSON.
func rawSchema(b httpx.Body) map[string]any {
	if b == httpx.AnyJSON {
		return map[string]any{}
	}
	binary := map[string]any{"type": "string", "format": "binary"}
	switch b {
	case httpx.File:
		return binary
	case httpx.Upload: // the field files, one part per file (the asset upload)
		return map[string]any{"type": "object", "properties": map[string]any{"files": map[string]any{"type": "array", "items": binary}}}
	}
	return map[string]any{"type": "string"}
}

// operationID names an operation after its method and path: GET /user/profile → getUserProfile.
func operationID(rt Route) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(rt.Method))
	for _, part := range strings.FieldsFunc(OpenAPIPath(rt.Pattern), func(r rune) bool {
		return r == '/' || r == '{' || r == '}' || r == '-' || r == '_' || r == '.'
	}) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// accessValue is the x-access extension: who may call the route (httpx.Access).
func accessValue(a httpx.Access) map[string]any {
	v := map[string]any{"rule": AccessLabel(a)}
	kinds := map[httpx.AccessKind]string{httpx.AccessPublic: "public", httpx.AccessAuthenticated: "signedIn",
		httpx.AccessPermission: "permission", httpx.AccessAdmin: "admin", httpx.AccessMember: "member", httpx.AccessReadToken: "readToken"}
	v["kind"] = kinds[a.Kind]
	if a.Permission != "" {
		v["permission"] = a.Permission
	}
	if a.DomainParam != "" {
		v["domainParam"] = a.DomainParam
	}
	if a.TokenParam != "" {
		v["tokenParam"] = a.TokenParam
	}
	if a.TokenCookie != "" {
		v["tokenCookie"] = a.TokenCookie
	}
	return v
}

// AccessLabel is how docs/api.md writes an access rule.
func AccessLabel(a httpx.Access) string {
	switch a.Kind {
	case httpx.AccessPublic:
		return "public"
	case httpx.AccessAuthenticated:
		return "signed in"
	case httpx.AccessAdmin:
		return "admin"
	case httpx.AccessMember:
		return "member of `{" + a.DomainParam + "}`"
	case httpx.AccessReadToken:
		where := "`t`"
		switch {
		case a.TokenParam != "":
			where = "`{" + a.TokenParam + "}`"
		case a.TokenCookie != "":
			where = "cookie `" + a.TokenCookie + "`"
		}
		return "read token " + where + " (`" + a.Permission + "` in `{" + a.DomainParam + "}`)"
	default:
		return "`" + a.Permission + "` in `{" + a.DomainParam + "}`"
	}
}

// requireWritten lists as required the fields of an answered type that encoding/json always
// writes (no omitempty). A type only ever read from a request body requires nothing: the
// decoder takes what is there, and the service says what is missing.
func requireWritten(answered map[reflect.Type]bool) jsonschema.InterceptSchemaFunc {
	return func(p jsonschema.InterceptSchemaParams) (bool, error) {
		if !p.Processed || !p.Value.IsValid() {
			return false, nil
		}
		t := p.Value.Type()
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || !answered[t] {
			return false, nil
		}
		p.Schema.Required = nil
		for _, name := range writtenFields(t) {
			if _, ok := p.Schema.Properties[name]; ok {
				p.Schema.Required = append(p.Schema.Required, name)
			}
		}
		return false, nil
	}
}

// writtenFields are the JSON names of t's fields that encoding/json always writes, in order,
// embedded structs' fields in their place.
func writtenFields(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag, hasTag := f.Tag.Lookup("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" && opts == "" {
			continue
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			names = append(names, writtenFields(ft)...)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" || !hasTag {
			name = f.Name
		}
		if !slices.Contains(strings.Split(opts, ","), "omitempty") && !slices.Contains(strings.Split(opts, ","), "omitzero") {
			names = append(names, name)
		}
	}
	return names
}

// collectStructs adds the struct types t is made of (t included) to set.
func collectStructs(t reflect.Type, set map[reflect.Type]bool) {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		collectStructs(t.Elem(), set)
	case reflect.Map:
		collectStructs(t.Elem(), set)
	case reflect.Struct:
		if set[t] {
			return
		}
		set[t] = true
		for i := range t.NumField() {
			collectStructs(t.Field(i).Type, set)
		}
	}
}

// listsNotNull keeps slices and maps from being null (see the package rules); pointers may be.
func listsNotNull(p jsonschema.InterceptNullabilityParams) {
	if p.Type == nil || (p.Type.Kind() != reflect.Slice && p.Type.Kind() != reflect.Map) {
		return
	}
	if p.NullAdded {
		p.Schema.RemoveType(jsonschema.Null)
	}
	// A named list or map type is a $ref the reflector wraps as anyOf [null, $ref].
	if len(p.Schema.AnyOf) == 2 && p.Schema.AnyOf[1].TypeObject != nil && p.Schema.AnyOf[1].TypeObject.Ref != nil {
		p.Schema.Ref = p.Schema.AnyOf[1].TypeObject.Ref
		p.Schema.AnyOf = nil
	}
}
