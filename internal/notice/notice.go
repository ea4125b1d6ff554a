// Package notice is the one outlet for what the product tells people while it works:
//
//   - progress cards: a long operation's PROGRESS → SUCCESS / ERROR card in the user's
//     notification centre (creating a portal, generating a loadable, preparing a preview,
//     handing a package over);
//   - error blocks: why a piece of background work failed, as its record keeps it and the
//     screens show it (errorTitle, errorMessage, and for builds a code and the tasks' output);
//   - events: a titled message to a room (a user's, a portal's, a domain's, everyone's), which
//     open screens react to (a workspace changed, a commit landed, a loadable was approved).
//
// Features publish through a Publisher and know nothing of the realtime hub; internal/app
// holds the one adapter that turns a notice into a hub message. This package imports nothing
// of the product, so every feature may use it.
package notice

import "context"

// Card statuses.
const (
	StatusProgress = "PROGRESS"
	StatusSuccess  = "SUCCESS"
	StatusError    = "ERROR"
)

// Card is a progress or result card (spec 1 §4 notification centre). ID names the operation:
// later cards with the same ID replace the earlier one on screen.
type Card struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Details     string `json:"details"`
	Status      string `json:"status"` // PROGRESS, SUCCESS, ERROR
	Progress    int    `json:"progress"`
	MessageType string `json:"messageType"` // CREATE_PORTAL, GENERATE_LOADABLE, PREVIEW, UPLOAD_LOADABLE, …
	Data        any    `json:"data,omitempty"`
}

// Clamped is the card with its progress within 0…100.
func (c Card) Clamped() Card {
	c.Progress = min(max(c.Progress, 0), 100)
	return c
}

// ErrorInfo is why a piece of background work failed, as its record keeps it (a loadable's
// generation, a preview's preparation). Code and Output are set by builds: the error's code
// and the tail of the tasks' output.
type ErrorInfo struct {
	Title   string `json:"errorTitle"`
	Message string `json:"errorMessage"`
	Code    string `json:"errorCode,omitempty"`
	Output  string `json:"output,omitempty"`
}

// RoomKind says whose room a notice goes to.
type RoomKind int

const (
	EveryoneRoom RoomKind = iota // every signed-in client
	UserRoom                     // one user's clients
	PortalRoom                   // everyone with the portal open
	DomainRoom                   // the domain's members
)

// Room is where a notice goes. Build it with User, Portal, Domain or Everyone.
type Room struct {
	Kind RoomKind
	ID   int64
}

// User is the room of one user's clients.
func User(id int64) Room { return Room{Kind: UserRoom, ID: id} }

// Portal is the room of everyone who has the portal open.
func Portal(id int64) Room { return Room{Kind: PortalRoom, ID: id} }

// Domain is the room of a domain's members.
func Domain(id int64) Room { return Room{Kind: DomainRoom, ID: id} }

// Everyone is the room of every signed-in client.
var Everyone = Room{Kind: EveryoneRoom}

// Publisher is the outlet. Both calls return at once and never fail: a notice that cannot be
// delivered is dropped (clients that missed it read the state again when they reconnect).
type Publisher interface {
	// Progress sends a progress card to a user (the card's MessageType is its title).
	Progress(ctx context.Context, userID int64, c Card)
	// Publish sends an event titled title with data to a room.
	Publish(ctx context.Context, to Room, title string, data any)
}

// Discard is a Publisher that sends nothing (tools, and tests that do not listen).
var Discard Publisher = discard{}

type discard struct{}

func (discard) Progress(context.Context, int64, Card)      {}
func (discard) Publish(context.Context, Room, string, any) {}

// Or is p, or Discard when p is nil: services built without an outlet publish nowhere.
func Or(p Publisher) Publisher {
	if p == nil {
		return Discard
	}
	return p
}
