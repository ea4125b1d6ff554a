package portal

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/notice"
	"portalwright/internal/store"
	"portalwright/internal/validate"
	"portalwright/internal/workspace"
)

// Progress message types of templates (spec 3 §3).
const (
	MessageCreateTemplate = "CREATE_TEMPLATE"
	MessageUpdateTemplate = "UPDATE_TEMPLATE"
)

var (
	errTemplateNotFound = apperr.NotFound("TEMPLATE_NOT_FOUND", "The template does not exist.")
	errTemplateUpdating = apperr.Conflict("TEMPLATE_UPDATING", "The template is being updated; try again when it is done.")
)

// Templates are what new portals are made from: the shipped starters and a domain's own
// templates (made from a starter or from one of its portals, whose repository is read again
// on update). They are a type of their own beside Service, over its store, repositories,
// audit and notices; a portal made from a template is Service.CreateFromTemplate.
type Templates struct {
	svc *Service
}

// NewTemplates serves the templates over the portal service's dependencies.
func NewTemplates(svc *Service) *Templates { return &Templates{svc: svc} }

// Templates lists the shipped starters and the domain's own templates.
func (s *Templates) Templates(ctx context.Context, domainID int64) ([]Template, error) {
	own, err := s.svc.templates.Templates(ctx, domainID)
	if err != nil {
		return nil, err
	}
	out := make([]Template, 0, len(own)+3)
	for _, st := range s.svc.starters.List() {
		out = append(out, starterTemplate(st))
	}
	return append(out, own...), nil
}

func starterTemplate(st Starter) Template {
	return Template{Name: st.Name, TemplateName: st.Name, Starter: st.ID, EngineType: st.EngineType, BuiltIn: true, Accounts: []int64{}}
}

func checkTemplateName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if err := validate.Required(name); err != nil {
		return "", apperr.Validation("templateName: " + err.Error())
	}
	if err := validate.PortalName(name); err != nil {
		return "", apperr.Validation(err.Error())
	}
	return name, nil
}

// CreateTemplate adds a template made from a starter or from one of the domain's portals.
// Made from a portal, it reports CREATE_TEMPLATE progress cards while it reads the portal's
// repository, with updating true on the row meanwhile; if that fails, the row is removed.
func (s *Templates) CreateTemplate(ctx context.Context, p caller.Caller, domainID int64, name, starter string, portalID *int64) (*Template, error) {
	name, err := checkTemplateName(name)
	if err != nil {
		return nil, err
	}
	t := &Template{Name: name}
	switch {
	case portalID != nil:
		if _, err := s.svc.Portal(ctx, domainID, *portalID); err != nil {
			return nil, err
		}
		t.PortalID, t.Updating = portalID, true
	case starter != "":
		if _, err := s.svc.starters.FS(starter); err != nil {
			return nil, apperr.NotFound("TEMPLATE_NOT_FOUND", "The starter template does not exist.")
		}
		t.Starter = starter
	default:
		return nil, apperr.Validation("Choose a starter template or a portal to make the template from.")
	}
	if err := s.svc.templates.CreateTemplate(ctx, domainID, t); errors.Is(err, ErrDuplicate) {
		return nil, apperr.Conflict("TEMPLATE_EXISTS", "Could not create template '"+name+"': the name is taken.")
	} else if err != nil {
		return nil, err
	}
	if t.PortalID != nil {
		if err := s.refreshTemplate(ctx, p, domainID, t, MessageCreateTemplate); err != nil {
			_ = s.svc.templates.DeleteTemplate(context.WithoutCancel(ctx), domainID, t.ID)
			return nil, err
		}
	}
	s.svc.record(ctx, p, "TEMPLATE_CREATED", domainID, templateEntity(t.ID), name)
	s.svc.notices.Publish(ctx, notice.Domain(domainID), EventTemplate, *t)
	return t, nil
}

// refreshTemplate reads a portal-made template's source (its portal and the portal's
// branches), reporting messageType progress cards to the caller; updating is true on the row
// while it runs. It ends with updating false and url set, or updateError set.
func (s *Templates) refreshTemplate(ctx context.Context, p caller.Caller, domainID int64, t *Template, messageType string) error {
	verb, done := "Updating", "Template updated successfully"
	if messageType == MessageCreateTemplate {
		verb, done = "Creating", "Template created successfully"
	}
	note := notice.Card{ID: messageType + "-" + strconv.FormatInt(domainID, 10) + "-" + strconv.FormatInt(t.ID, 10), Title: t.Name,
		MessageType: messageType, Status: "PROGRESS", Progress: 10, Details: verb + " the template"}
	if err := s.svc.templates.SetTemplateState(ctx, domainID, t.ID, true, t.URL, ""); err != nil {
		return err
	}
	s.svc.report(ctx, p.UserID, note)
	url, err := s.templateSource(ctx, domainID, t)
	ctx = context.WithoutCancel(ctx) // the state must be written even if the client went away
	t.Updating = false
	if err != nil {
		t.UpdateError = err.Error()
		var ae *apperr.Error
		if errors.As(err, &ae) {
			t.UpdateError = ae.Message
		}
		_ = s.svc.templates.SetTemplateState(ctx, domainID, t.ID, false, t.URL, t.UpdateError)
		note.Status, note.Progress, note.Details = "ERROR", 100, t.UpdateError
		s.svc.report(ctx, p.UserID, note)
		return err
	}
	t.URL, t.UpdateError = url, ""
	if err := s.svc.templates.SetTemplateState(ctx, domainID, t.ID, false, t.URL, ""); err != nil {
		return err
	}
	note.Status, note.Progress, note.Details = "SUCCESS", 100, done
	note.Data = map[string]any{"domainId": domainID, "templateId": t.ID, "template": *t}
	s.svc.report(ctx, p.UserID, note)
	return nil
}

// templateSource checks that a portal-made template's source can be read and returns its
// url: the source portal's upstream git URL ("" when it was not imported from one).
func (s *Templates) templateSource(ctx context.Context, domainID int64, t *Template) (string, error) {
	fail := "Could not read the source portal of template '" + t.Name + "'"
	if t.PortalID == nil {
		return "", apperr.BadRequest("TEMPLATE_SOURCE_MISSING", fail+": the portal it was made from was deleted.")
	}
	pt, err := s.svc.Portal(ctx, domainID, *t.PortalID)
	if err != nil {
		return "", err
	}
	branches, err := s.svc.core.Branches(ctx, pt.ID)
	if err != nil {
		return "", apperr.Internal(err).WithData(map[string]string{"message": fail})
	}
	if len(branches) == 0 {
		return "", apperr.BadRequest("TEMPLATE_SOURCE_EMPTY", fail+": the portal has no branch.")
	}
	return pt.URL, nil
}

// TemplateChange is a template's PUT body: the whole template object. Name and portalId
// may change; starter, url and accounts may only repeat what the template has; updating,
// updateError, engineType and builtIn are the server's state and are ignored.
type TemplateChange struct {
	ID           int64
	Name         string  // templateName, or name
	PortalID     *int64  // nil: unchanged (absent)
	PortalIDNull bool    // portalId: null was sent
	Starter      *string // nil when absent
	URL          *string
	Accounts     []int64 // nil when absent
}

// UpdateTemplate applies a template's PUT: renames it and, for a template made from a
// portal, points it at the (possibly other) portal and reads that portal again, reporting
// UPDATE_TEMPLATE progress cards. A failed read leaves the template with updateError set.
func (s *Templates) UpdateTemplate(ctx context.Context, p caller.Caller, domainID int64, c TemplateChange) (*Template, error) {
	if c.ID == 0 {
		return nil, apperr.Validation("id: a built-in starter template cannot be changed; give the id of one of the domain's templates.")
	}
	t, err := s.svc.templates.Template(ctx, domainID, c.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errTemplateNotFound
	} else if err != nil {
		return nil, err
	}
	if t.Updating {
		return nil, errTemplateUpdating
	}
	if err := refuseTemplateChange(*t, c, domainID); err != nil {
		return nil, err
	}
	if t.Name, err = checkTemplateName(c.Name); err != nil {
		return nil, err
	}
	if c.PortalID != nil {
		if _, err := s.svc.Portal(ctx, domainID, *c.PortalID); err != nil {
			return nil, err
		}
		t.PortalID = c.PortalID
	}
	fromPortal := t.Starter == ""
	if fromPortal { // one update at a time: a second PUT meanwhile is refused
		if err := s.svc.templates.ClaimTemplateUpdate(ctx, domainID, t.ID); errors.Is(err, store.ErrNotFound) {
			return nil, errTemplateUpdating
		} else if err != nil {
			return nil, err
		}
	}
	err = s.svc.templates.UpdateTemplate(ctx, domainID, t)
	if err != nil && fromPortal { // nothing changed: give the claim back
		_ = s.svc.templates.SetTemplateState(context.WithoutCancel(ctx), domainID, t.ID, false, t.URL, t.UpdateError)
	}
	switch {
	case errors.Is(err, ErrDuplicate):
		return nil, apperr.Conflict("TEMPLATE_EXISTS", "A template with this name already exists.")
	case errors.Is(err, store.ErrNotFound):
		return nil, errTemplateNotFound
	case err != nil:
		return nil, err
	}
	if fromPortal { // read the source again
		if err := s.refreshTemplate(ctx, p, domainID, t, MessageUpdateTemplate); err != nil {
			return nil, err
		}
	}
	s.svc.record(ctx, p, "TEMPLATE_UPDATED", domainID, templateEntity(t.ID), t.Name)
	return t, nil
}

// refuseTemplateChange says which field of a PUT may not change.
func refuseTemplateChange(t Template, c TemplateChange, domainID int64) error {
	refuse := func(msg string) error { return apperr.Validation(msg) }
	switch {
	case c.Starter != nil && *c.Starter != t.Starter:
		return refuse("starter cannot be changed: create a new template from the other starter.")
	case c.URL != nil && *c.URL != t.URL:
		return refuse("url cannot be set: it is read from the template's source portal.")
	case c.Accounts != nil && !slices.Equal(c.Accounts, []int64{domainID}):
		return refuse("accounts cannot be changed: a template belongs to the domain it was created in.")
	case t.Starter != "" && (c.PortalID != nil || c.PortalIDNull):
		return refuse("portalId cannot be set on a template made from a starter: create a new template from the portal.")
	case t.Starter == "" && c.PortalIDNull:
		return refuse("portalId cannot be removed: a template made from a portal needs one.")
	}
	return nil
}

// DeleteTemplate removes a template (portals made from it stay).
func (s *Templates) DeleteTemplate(ctx context.Context, p caller.Caller, domainID, id int64) error {
	t, err := s.svc.templates.Template(ctx, domainID, id)
	if errors.Is(err, store.ErrNotFound) {
		return errTemplateNotFound
	}
	if err != nil {
		return err
	}
	if err := s.svc.templates.DeleteTemplate(ctx, domainID, id); err != nil {
		return apperr.Internal(err).WithData(map[string]string{"message": "Could not delete template '" + t.Name + "'"})
	}
	s.svc.record(ctx, p, "TEMPLATE_DELETED", domainID, templateEntity(id), t.Name)
	return nil
}

// TemplateRef names a template in a branch lookup: the domain's template by id or name, or a
// built-in starter by its id or name.
type TemplateRef struct {
	ID      int64
	Name    string
	Starter string
}

// TemplateBranches lists the branches a portal made from the template would have, for the
// create-from-template dialog: the source portal's branches, or the starter's one branch.
func (s *Templates) TemplateBranches(ctx context.Context, domainID int64, ref TemplateRef) ([]string, error) {
	t, err := s.resolveTemplate(ctx, domainID, ref)
	if err != nil {
		return nil, err
	}
	if t.Starter != "" {
		return []string{workspace.DefaultBranch}, nil
	}
	fail := "Failed to load branches from Template " + t.Name
	if t.PortalID == nil {
		return nil, apperr.BadRequest("TEMPLATE_SOURCE_MISSING", fail+": the portal it was made from was deleted.")
	}
	branches, err := s.svc.core.Branches(ctx, *t.PortalID)
	if err != nil {
		return nil, apperr.Internal(err).WithData(map[string]string{"message": fail})
	}
	return branches, nil
}

func (s *Templates) resolveTemplate(ctx context.Context, domainID int64, ref TemplateRef) (*Template, error) {
	var t *Template
	var err error
	name := strings.TrimSpace(ref.Name)
	switch {
	case ref.ID != 0:
		t, err = s.svc.templates.Template(ctx, domainID, ref.ID)
	case ref.Starter != "" || name != "":
		for _, st := range s.svc.starters.List() {
			if st.ID == ref.Starter || (ref.Starter == "" && strings.EqualFold(st.Name, name)) {
				v := starterTemplate(st)
				return &v, nil
			}
		}
		if ref.Starter != "" {
			return nil, apperr.NotFound("TEMPLATE_NOT_FOUND", "The starter template does not exist.")
		}
		t, err = s.svc.templates.TemplateByName(ctx, domainID, name)
	default:
		return nil, apperr.Validation("Give the template's id or templateName.")
	}
	if errors.Is(err, store.ErrNotFound) {
		return nil, errTemplateNotFound
	}
	return t, err
}
