package access

import "context"

// DomainName is a domain's name (one indexed row; Meta also counts members, groups and
// portals, which other users' changes and other portal answers do not need).
func (s *Service) DomainName(ctx context.Context, id int64) (string, error) {
	d, err := s.domain(ctx, id)
	if err != nil {
		return "", err
	}
	return d.Name, nil
}
