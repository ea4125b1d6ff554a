package editing

import (
	"context"

	"portalwright/internal/caller"
	"portalwright/internal/portalaccess"
)

// What the editing unit needs of the portal package, as small interfaces so that features
// import editing without importing portal: the checked portal's record (Records) and people.

// Records answers what editing needs of a checked portal's record (the portal service).
type Records interface {
	// ActiveBranch is the branch the portal opens on: the record's active branch (as the
	// check loaded it), when the repository still has it.
	ActiveBranch(ctx context.Context, pa portalaccess.Portal) (string, error)
	// Touch marks the portal modified (after a commit reached its branch).
	Touch(ctx context.Context, pa portalaccess.Portal)
	// KeptSettings reads the settings kept for the portal outside its repository (JSON) and
	// their revision: nil, 0 when none are kept (settings.go).
	KeptSettings(ctx context.Context, pa portalaccess.Portal) ([]byte, int64, error)
	// KeepSettings replaces the kept settings if they are still at revision base (0: none
	// kept yet) and answers the new revision; ErrSettingsMoved when they are not.
	KeepSettings(ctx context.Context, c caller.Caller, pa portalaccess.Portal, data []byte, base int64) (int64, error)
}

// People answers who a user is, for commit authors and other users' changes.
type People interface {
	Person(ctx context.Context, userID int64) (Person, error)
}

// Person is a user as portals show them.
type Person struct {
	ID        int64  `json:"id"`
	UserName  string `json:"userName"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Email     string `json:"-"`
}

// PeopleBatch is implemented by People that look many users up in one query (the app's,
// from identity). Other People are asked one user at a time.
type PeopleBatch interface {
	// People answers the users of ids that exist; unknown ids are left out.
	People(ctx context.Context, ids []int64) (map[int64]Person, error)
}

// WorkspaceChange is one user's workspace of a portal as others see it (spec 3 §3).
type WorkspaceChange struct {
	User        Person            `json:"user"`
	AheadCount  int               `json:"aheadCount"`
	BehindCount int               `json:"behindCount"`
	HasChanges  bool              `json:"hasChanges"`
	Branch      string            `json:"branch"`
	DomainName  string            `json:"domainName"`
	PortalName  string            `json:"portalName"`
	Changes     map[string]string `json:"changes"`
}
