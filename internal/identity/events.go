package identity

import "context"

// SessionEvents hears that sessions of a user ended or that the user changed (logout, a
// password set or reset, a newer sign-in ending the older session, the user deleted, the
// admin flag changed), after the change is stored, so that what was granted to those
// sessions (open realtime sockets) can be re-checked.
type SessionEvents interface {
	SessionsChanged(ctx context.Context, userID int64)
}

// WithSessionEvents sets who hears about ended sessions.
func (s *Service) WithSessionEvents(e SessionEvents) *Service { s.events = e; return s }

func (s *Service) sessionsChanged(ctx context.Context, userID int64) {
	if s.events != nil {
		s.events.SessionsChanged(ctx, userID)
	}
}
