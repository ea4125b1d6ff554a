package access

import "context"

// AccessEvents hears that rights may have been lost, after the change is stored, so that what
// was granted under the old rights (open realtime sockets in domain and portal rooms) can be
// re-checked. userID 0 means any user of the domain.
type AccessEvents interface {
	AccessChanged(ctx context.Context, domainID, userID int64)
}

// WithAccessEvents sets who hears about lost rights.
func (s *Service) WithAccessEvents(e AccessEvents) *Service { s.events = e; return s }

func (s *state) accessChanged(ctx context.Context, domainID, userID int64) {
	if s.events != nil {
		s.events.AccessChanged(ctx, domainID, userID)
	}
}
