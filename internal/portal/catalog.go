package portal

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/store"
	"portalwright/internal/validate"
)

func checkGroupName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if err := validate.Required(name); err != nil {
		return "", apperr.Validation(err.Error())
	}
	if err := validate.Alphanumeric(name); err != nil {
		return "", apperr.Validation(err.Error())
	}
	if len(name) > validate.MaxNameLength {
		return "", apperr.Validation("The name must be at most 100 characters.")
	}
	return name, nil
}

var errCategoryNotFound = apperr.NotFound("CATEGORY_NOT_FOUND", "The category does not exist.")

// Categories lists a domain's categories (without portals; see Categorized).
func (s *Service) Categories(ctx context.Context, domainID int64) ([]Category, error) {
	return s.store.Categories(ctx, domainID)
}

// CreateCategory adds a category.
func (s *Service) CreateCategory(ctx context.Context, p caller.Caller, domainID int64, name string) (*Category, error) {
	name, err := checkGroupName(name)
	if err != nil {
		return nil, err
	}
	c, err := s.store.CreateCategory(ctx, domainID, name)
	if errors.Is(err, ErrDuplicate) {
		return nil, apperr.Conflict("CATEGORY_EXISTS", "A category with this name already exists.")
	}
	if err == nil {
		s.record(ctx, p, "CATEGORY_CREATED", domainID, 0, name)
	}
	return c, err
}

// RenameCategory changes a category's name.
func (s *Service) RenameCategory(ctx context.Context, p caller.Caller, domainID, id int64, name string) error {
	name, err := checkGroupName(name)
	if err != nil {
		return err
	}
	switch err := s.store.RenameCategory(ctx, domainID, id, name); {
	case errors.Is(err, ErrDuplicate):
		return apperr.Conflict("CATEGORY_EXISTS", "A category with this name already exists.")
	case errors.Is(err, store.ErrNotFound):
		return errCategoryNotFound
	default:
		return err
	}
}

// DeleteCategory removes a category; its portals become uncategorized.
func (s *Service) DeleteCategory(ctx context.Context, p caller.Caller, domainID, id int64) error {
	if err := s.store.DeleteCategory(ctx, domainID, id); errors.Is(err, store.ErrNotFound) {
		return errCategoryNotFound
	} else if err != nil {
		return err
	}
	s.record(ctx, p, "CATEGORY_DELETED", domainID, 0, strconv.FormatInt(id, 10))
	return nil
}

// LinkPortals puts portals into a category (link) or takes them out (unlink).
func (s *Service) LinkPortals(ctx context.Context, domainID, categoryID int64, portalIDs []int64, link bool) error {
	if len(portalIDs) == 0 {
		return apperr.Validation("Choose at least one portal.")
	}
	ok, err := s.store.CategoryExists(ctx, domainID, categoryID)
	if err != nil {
		return err
	}
	if !ok {
		return errCategoryNotFound
	}
	var target *int64
	if link {
		target = &categoryID
	}
	if err := s.store.LinkPortals(ctx, domainID, target, portalIDs); errors.Is(err, store.ErrNotFound) {
		return errPortalNotFound
	} else if err != nil {
		return err
	}
	return nil
}

// Templates lists the shipped starters and the domain's own templates.
func (s *Service) Templates(ctx context.Context, domainID int64) ([]Template, error) {
	own, err := s.store.Templates(ctx, domainID)
	if err != nil {
		return nil, err
	}
	out := make([]Template, 0, len(own)+3)
	for _, st := range s.starters.List() {
		out = append(out, Template{Name: st.Name, TemplateName: st.Name, Starter: st.ID, EngineType: st.EngineType, BuiltIn: true, Accounts: []int64{}})
	}
	return append(out, own...), nil
}

// CreateTemplate adds a template made from a starter or from one of the domain's portals.
func (s *Service) CreateTemplate(ctx context.Context, p caller.Caller, domainID int64, name, starter string, portalID *int64) (*Template, error) {
	name = strings.TrimSpace(name)
	if err := validate.Required(name); err != nil {
		return nil, apperr.Validation("templateName: " + err.Error())
	}
	if err := validate.PortalName(name); err != nil {
		return nil, apperr.Validation(err.Error())
	}
	t := &Template{Name: name}
	switch {
	case portalID != nil:
		if _, err := s.Portal(ctx, domainID, *portalID); err != nil {
			return nil, err
		}
		t.PortalID = portalID
	case starter != "":
		if _, err := s.starters.FS(starter); err != nil {
			return nil, apperr.NotFound("TEMPLATE_NOT_FOUND", "The starter template does not exist.")
		}
		t.Starter = starter
	default:
		return nil, apperr.Validation("Choose a starter template or a portal to make the template from.")
	}
	if err := s.store.CreateTemplate(ctx, domainID, t); errors.Is(err, ErrDuplicate) {
		return nil, apperr.Conflict("TEMPLATE_EXISTS", "Could not create template '"+name+"': the name is taken.")
	} else if err != nil {
		return nil, err
	}
	s.record(ctx, p, "TEMPLATE_CREATED", domainID, 0, name)
	if s.events != nil {
		s.events.TemplateCreated(ctx, domainID, *t)
	}
	return t, nil
}

// RenameTemplate changes a template's name.
func (s *Service) RenameTemplate(ctx context.Context, domainID, id int64, name string) error {
	name = strings.TrimSpace(name)
	if err := validate.PortalName(name); err != nil {
		return apperr.Validation(err.Error())
	}
	switch err := s.store.RenameTemplate(ctx, domainID, id, name); {
	case errors.Is(err, ErrDuplicate):
		return apperr.Conflict("TEMPLATE_EXISTS", "A template with this name already exists.")
	case errors.Is(err, store.ErrNotFound):
		return apperr.NotFound("TEMPLATE_NOT_FOUND", "The template does not exist.")
	default:
		return err
	}
}

// DeleteTemplate removes a template (portals made from it stay).
func (s *Service) DeleteTemplate(ctx context.Context, p caller.Caller, domainID, id int64) error {
	t, err := s.store.Template(ctx, domainID, id)
	if errors.Is(err, store.ErrNotFound) {
		return apperr.NotFound("TEMPLATE_NOT_FOUND", "The template does not exist.")
	}
	if err != nil {
		return err
	}
	if err := s.store.DeleteTemplate(ctx, domainID, id); err != nil {
		return apperr.Internal(err).WithData(map[string]string{"message": "Could not delete template '" + t.Name + "'"})
	}
	s.record(ctx, p, "TEMPLATE_DELETED", domainID, 0, t.Name)
	return nil
}
