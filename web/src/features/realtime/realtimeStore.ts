/**
 * The app's one realtime connection (spec 3 §4 "Realtime channel and notifications"; docs/api.md
 * "Realtime"). The store holds the RealtimeClient (tests inject a fake with setRealtimeClient) and
 * its connection status; useRealtimeConnection() connects while signed in, joins user-<id>, and
 * follows the selected domain and portal with domain-<id> / portal-<id>.
 */
import { useEffect, useRef } from 'react';
import { create } from 'zustand';
import { RealtimeClient, type RealtimeEvent, type RealtimeStatus, type RoomMessage } from '../../api/realtime';
import { useSelectionStore } from '../../core/selectionStore';
import { selectSessionLive, useSessionStore } from '../../core/sessionStore';
import { toasts } from '../../core/toastService';

/** What the app needs of a realtime client (RealtimeClient, or a fake in tests). */
export type RealtimeLike = Pick<RealtimeClient, 'connect' | 'disconnect' | 'join' | 'leave' | 'on' | 'status'>;

export interface RealtimeState {
  client: RealtimeLike;
  status: RealtimeStatus;
}

export const useRealtimeStore = create<RealtimeState>(() => ({
  client: new RealtimeClient(),
  status: 'DISCONNECTED',
}));

/** Replaces the client (tests pass a fake); the status starts over from the client's. */
export function setRealtimeClient(client: RealtimeLike): void {
  useRealtimeStore.setState({ client, status: client.status });
}

export const userRoom = (id: string | number) => `user-${id}`;
export const domainRoom = (id: string | number) => `domain-${id}`;
export const portalRoom = (id: string | number) => `portal-${id}`;

/** The id in a room name such as 'portal-12' (null when the room is of another kind). */
export function roomId(room: string, kind: 'user' | 'domain' | 'portal'): string | null {
  return room.startsWith(`${kind}-`) ? room.slice(kind.length + 1) : null;
}

/** The start of the client's message when a room could not be joined or left (spec 3 §4). */
export const FAILED_ROOM_PREFIX = 'After many failed attempts';

/** Calls `handler` with every room message while mounted (the latest handler is used). */
export function useRoomMessages(handler: (message: RoomMessage) => void): void {
  const client = useRealtimeStore((s) => s.client);
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(
    () =>
      client.on((event: RealtimeEvent) => {
        if (event.type === 'MESSAGE') ref.current(event.message);
      }),
    [client],
  );
}

/**
 * Connects while signed in and joins the user's room; joins domain-<id> and portal-<id> as the
 * selection changes (leaving the previous ones); leaves and disconnects on sign-out.
 */
export function useRealtimeConnection(): void {
  const client = useRealtimeStore((s) => s.client);
  // Connected only while the session is live: after a 401 (logout) or a session replaced by
  // another sign-in the socket closes and stops reconnecting.
  const userId = useSessionStore((s) => (selectSessionLive(s) && s.user ? String(s.user.id) : null));
  const domainId = useSelectionStore((s) => (s.domain ? String(s.domain.id) : null));
  const portalId = useSelectionStore((s) => (s.portal ? String(s.portal.id) : null));

  useEffect(() => {
    if (!userId) return;
    const off = client.on((event) => {
      if (event.type === 'CONNECTED' || event.type === 'DISCONNECTED')
        useRealtimeStore.setState({ status: client.status });
      if (event.type === 'ERROR' && event.message.startsWith(FAILED_ROOM_PREFIX)) toasts.danger(event.message);
    });
    client.connect();
    useRealtimeStore.setState({ status: client.status });
    const room = userRoom(userId);
    void client.join(room);
    return () => {
      void client.leave(room);
      off();
      client.disconnect();
      useRealtimeStore.setState({ status: client.status });
    };
  }, [client, userId]);

  useEffect(() => {
    if (!userId || !domainId) return;
    const room = domainRoom(domainId);
    void client.join(room);
    return () => void client.leave(room);
  }, [client, userId, domainId]);

  useEffect(() => {
    if (!userId || !portalId) return;
    const room = portalRoom(portalId);
    void client.join(room);
    return () => void client.leave(room);
  }, [client, userId, portalId]);
}

/** The realtime connection status (DISCONNECTED, CONNECTED, ERROR). */
export function useRealtimeStatus(): RealtimeStatus {
  return useRealtimeStore((s) => s.status);
}
