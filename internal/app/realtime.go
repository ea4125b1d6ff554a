package app

import (
	"context"

	"portalwright/internal/notice"
	"portalwright/internal/realtime"
)

// hubNotices is the one adapter from the notice outlet to the realtime hub: progress cards go
// to the user's room as progress messages, events to their room as notifications.
type hubNotices struct{ hub *realtime.Hub }

func (h hubNotices) Progress(ctx context.Context, userID int64, c notice.Card) {
	h.hub.Publish(ctx, realtime.Message{Room: realtime.UserRoom(userID), Title: c.MessageType, Data: c, MessageType: realtime.TypeProgress})
}

func (h hubNotices) Publish(ctx context.Context, to notice.Room, title string, data any) {
	h.hub.Publish(ctx, realtime.Message{Room: room(to), Title: title, Data: data, MessageType: realtime.TypeNotification})
}

func room(r notice.Room) string {
	switch r.Kind {
	case notice.UserRoom:
		return realtime.UserRoom(r.ID)
	case notice.PortalRoom:
		return realtime.PortalRoom(r.ID)
	case notice.DomainRoom:
		return realtime.DomainRoom(r.ID)
	default:
		return realtime.Everyone
	}
}

// revalidation asks every instance to re-check the sockets that an ended session or a lost
// right concerns (identity.SessionEvents, access.AccessEvents).
type revalidation struct{ hub *realtime.Hub }

func (r revalidation) SessionsChanged(ctx context.Context, userID int64) {
	r.hub.Revalidate(ctx, realtime.Scope{UserID: userID})
}

func (r revalidation) AccessChanged(ctx context.Context, domainID, userID int64) {
	r.hub.Revalidate(ctx, realtime.Scope{DomainID: domainID, UserID: userID})
}
