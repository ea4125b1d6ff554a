package portal

import (
	"context"
	"errors"
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
		s.record(ctx, p, "CATEGORY_CREATED", domainID, categoryEntity(c.ID), name)
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
	case err != nil:
		return err
	}
	s.record(ctx, p, "CATEGORY_RENAMED", domainID, categoryEntity(id), name)
	return nil
}

// DeleteCategory removes a category; its portals become uncategorized.
func (s *Service) DeleteCategory(ctx context.Context, p caller.Caller, domainID, id int64) error {
	name := s.categoryName(ctx, domainID, id)
	if err := s.store.DeleteCategory(ctx, domainID, id); errors.Is(err, store.ErrNotFound) {
		return errCategoryNotFound
	} else if err != nil {
		return err
	}
	s.record(ctx, p, "CATEGORY_DELETED", domainID, categoryEntity(id), name)
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

// categoryName is a category's name for the record of its deletion (” when unknown).
func (s *Service) categoryName(ctx context.Context, domainID, id int64) string {
	categories, err := s.store.Categories(ctx, domainID)
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
