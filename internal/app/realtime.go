package app

import (
	"context"

	"portalwright/internal/loadable"
	"portalwright/internal/portal"
	"portalwright/internal/presence"
	"portalwright/internal/realtime"
)

// hubEvents turns portal progress and workspace events into room messages.
type hubEvents struct{ hub *realtime.Hub }

func (h hubEvents) Report(ctx context.Context, userID int64, n portal.Notification) {
	h.hub.Publish(ctx, realtime.Message{Room: realtime.UserRoom(userID), Title: n.MessageType, Data: n, MessageType: realtime.TypeProgress})
}

func (h hubEvents) WorkspaceChanged(ctx context.Context, domainID, portalID int64, change portal.WorkspaceChange) {
	h.hub.Publish(ctx, realtime.Message{Room: realtime.PortalRoom(portalID), Title: portal.EventLocalChanges, Data: change, MessageType: realtime.TypeNotification})
	h.hub.Publish(ctx, realtime.Message{Room: realtime.UserRoom(change.User.ID), Title: portal.EventLocalCommits,
		Data: map[string]any{"domainId": domainID, "portalId": portalID, "branch": change.Branch, "aheadCount": change.AheadCount}, MessageType: realtime.TypeNotification})
}

func (h hubEvents) Committed(ctx context.Context, domainID, portalID int64, by portal.Person, branch, commitID string) {
	h.hub.Publish(ctx, realtime.Message{Room: realtime.PortalRoom(portalID), Title: portal.EventCommit,
		Data: map[string]any{"domainId": domainID, "portalId": portalID, "branch": branch, "commitId": commitID, "user": by}, MessageType: realtime.TypeNotification})
}

func (h hubEvents) TemplateCreated(ctx context.Context, domainID int64, t portal.Template) {
	h.hub.Publish(ctx, realtime.Message{Room: realtime.DomainRoom(domainID), Title: portal.EventTemplate, Data: t, MessageType: realtime.TypeNotification})
}

// presenceEvents publishes who has which file open to the portal's room.
type presenceEvents struct{ hub *realtime.Hub }

func (h presenceEvents) PresenceChanged(ctx context.Context, portalID int64, e presence.Event) {
	h.hub.Publish(ctx, realtime.Message{Room: realtime.PortalRoom(portalID), Title: presence.EventPresence, Data: e, MessageType: realtime.TypeNotification})
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

// LoadableChanged tells the portal's room that a loadable was created, generated or decided
// (LOADABLE_CHANGED): open Manage Loadables lists refresh.
func (h hubEvents) LoadableChanged(ctx context.Context, domainID, portalID int64, change loadable.Change) {
	h.hub.Publish(ctx, realtime.Message{Room: realtime.PortalRoom(portalID), Title: loadable.EventChanged, Data: change, MessageType: realtime.TypeNotification})
}
