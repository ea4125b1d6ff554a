package portal

import (
	"context"
	"errors"
	"slices"
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

// Catalog is how a domain's portals are grouped: its categories (created, renamed, deleted,
// portals linked to them, each change recorded in the audit) and the portal selector's
// grouping of the portals by category. It is a type of its own beside Service, over its
// store and audit.
type Catalog struct {
	svc *Service
}

// NewCatalog serves the categories over the portal service's dependencies.
func NewCatalog(svc *Service) *Catalog { return &Catalog{svc: svc} }

var errCategoryNotFound = apperr.NotFound("CATEGORY_NOT_FOUND", "The category does not exist.")

// Categories lists a domain's categories (without portals; see Categorized).
func (s *Catalog) Categories(ctx context.Context, domainID int64) ([]Category, error) {
	return s.svc.categories.Categories(ctx, domainID)
}

// CreateCategory adds a category.
func (s *Catalog) CreateCategory(ctx context.Context, p caller.Caller, domainID int64, name string) (*Category, error) {
	name, err := checkGroupName(name)
	if err != nil {
		return nil, err
	}
	c, err := s.svc.categories.CreateCategory(ctx, domainID, name)
	if errors.Is(err, ErrDuplicate) {
		return nil, apperr.Conflict("CATEGORY_EXISTS", "A category with this name already exists.")
	}
	if err == nil {
		s.svc.record(ctx, p, "CATEGORY_CREATED", domainID, categoryEntity(c.ID), name)
	}
	return c, err
}

// RenameCategory changes a category's name.
func (s *Catalog) RenameCategory(ctx context.Context, p caller.Caller, domainID, id int64, name string) error {
	name, err := checkGroupName(name)
	if err != nil {
		return err
	}
	switch err := s.svc.categories.RenameCategory(ctx, domainID, id, name); {
	case errors.Is(err, ErrDuplicate):
		return apperr.Conflict("CATEGORY_EXISTS", "A category with this name already exists.")
	case errors.Is(err, store.ErrNotFound):
		return errCategoryNotFound
	case err != nil:
		return err
	}
	s.svc.record(ctx, p, "CATEGORY_RENAMED", domainID, categoryEntity(id), name)
	return nil
}

// DeleteCategory removes a category; its portals become uncategorized.
func (s *Catalog) DeleteCategory(ctx context.Context, p caller.Caller, domainID, id int64) error {
	name := s.categoryName(ctx, domainID, id)
	if err := s.svc.categories.DeleteCategory(ctx, domainID, id); errors.Is(err, store.ErrNotFound) {
		return errCategoryNotFound
	} else if err != nil {
		return err
	}
	s.svc.record(ctx, p, "CATEGORY_DELETED", domainID, categoryEntity(id), name)
	return nil
}

// LinkPortals puts portals into a category (link) or takes them out (unlink).
func (s *Catalog) LinkPortals(ctx context.Context, domainID, categoryID int64, portalIDs []int64, link bool) error {
	if len(portalIDs) == 0 {
		return apperr.Validation("Choose at least one portal.")
	}
	ok, err := s.svc.categories.CategoryExists(ctx, domainID, categoryID)
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
	if err := s.svc.categories.LinkPortals(ctx, domainID, target, portalIDs); errors.Is(err, store.ErrNotFound) {
		return errPortalNotFound
	} else if err != nil {
		return err
	}
	return nil
}

// categoryName is a category's name for the record of its deletion (” when unknown).
func (s *Catalog) categoryName(ctx context.Context, domainID, id int64) string {
	categories, err := s.svc.categories.Categories(ctx, domainID)
	if err != nil {
		return ""
	}
	for _, c := range categories {
		if c.ID == id {
			return c.Name
		}
	}
	return ""
}

// Categorized groups a domain's portals by category for the portal selector: inactive
// portals under 'Inactive Portals', active ones without a category under 'Uncategorized'.
// A category is deactivated when none of its portals is active.
func (s *Catalog) Categorized(ctx context.Context, domainID int64) ([]Category, error) {
	portals, err := s.svc.store.Portals(ctx, domainID)
	if err != nil {
		return nil, err
	}
	cats, err := s.svc.categories.Categories(ctx, domainID)
	if err != nil {
		return nil, err
	}
	byID := map[int64]int{}
	for i, c := range cats {
		byID[c.ID] = i
	}
	uncategorized := Category{Name: UncategorizedGroup, Children: []Portal{}}
	inactive := Category{Name: InactiveGroup, Deactivated: true, Children: []Portal{}}
	for _, p := range portals {
		switch {
		case p.Status != StatusActive:
			inactive.Children = append(inactive.Children, p)
		case p.CategoryID != nil:
			cats[byID[*p.CategoryID]].Children = append(cats[byID[*p.CategoryID]].Children, p)
		default:
			uncategorized.Children = append(uncategorized.Children, p)
		}
	}
	out := []Category{}
	for _, c := range cats {
		c.Deactivated = !slices.ContainsFunc(c.Children, func(p Portal) bool { return p.Status == StatusActive })
		out = append(out, c)
	}
	if len(uncategorized.Children) > 0 {
		out = append(out, uncategorized)
	}
	if len(inactive.Children) > 0 {
		out = append(out, inactive)
	}
	return out, nil
}
