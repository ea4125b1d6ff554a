/** Test helpers of the realtime feature (imported by *.test.tsx only). */
import type { QueryClient } from '@tanstack/react-query';
import { cleanup } from '@testing-library/react';
import type { ReactElement } from 'react';
import { vi } from 'vitest';
import type { RealtimeEvent, RealtimeStatus, RoomMessage } from '../../api/realtime';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { initialSessionState, useSessionStore } from '../../core/sessionStore';
import { clearToasts } from '../../core/toastService';
import { storeTokens } from '../../api/authStorage';
import { loginResponse, sampleUser } from '../../test/helpers';
import { renderWithProviders } from '../../test/render';
import { resetNotifications } from './notificationsStore';
import { setRealtimeClient, type RealtimeLike } from './realtimeStore';
import { resetWorkspaceStore } from './workspaceStore';

/** A RealtimeClient stand-in: records connects, joins and leaves; tests push events into it. */
export class FakeRealtime implements RealtimeLike {
  status: RealtimeStatus = 'DISCONNECTED';
  readonly rooms = new Set<string>();
  readonly joins: string[] = [];
  readonly leaves: string[] = [];
  private readonly listeners = new Set<(event: RealtimeEvent) => void>();
  connect = vi.fn(() => {});
  disconnect = vi.fn(() => {
    if (this.status !== 'DISCONNECTED') this.drop();
  });

  on(listener: (event: RealtimeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  async join(room: string): Promise<boolean> {
    this.joins.push(room);
    this.rooms.add(room);
    return this.status === 'CONNECTED';
  }
  async leave(room: string): Promise<boolean> {
    this.leaves.push(room);
    this.rooms.delete(room);
    return this.status === 'CONNECTED';
  }
  emit(event: RealtimeEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
  open(): void {
    this.status = 'CONNECTED';
    this.emit({ type: 'CONNECTED' });
  }
  drop(): void {
    this.status = 'DISCONNECTED';
    this.emit({ type: 'DISCONNECTED' });
  }
  message(message: RoomMessage): void {
    this.emit({ type: 'MESSAGE', message });
  }
  get listenerCount(): number {
    return this.listeners.size;
  }
}

export const me = sampleUser; // id 7
export const otherUser = { id: 9, userName: 'grace', firstName: 'Grace', lastName: 'Hopper' };
export const thirdUser = { id: 11, userName: 'alan', firstName: 'Alan', lastName: 'Turing' };

/** A fresh fake client, signed-in user 7, empty selection, no cards, no toasts. */
export function setUp(): FakeRealtime {
  const fake = new FakeRealtime();
  setRealtimeClient(fake);
  useSessionStore.setState({ ...initialSessionState, status: 'loggedIn', user: me });
  storeTokens(loginResponse(me));
  useSelectionStore.setState({ ...initialSelectionState });
  resetNotifications();
  resetWorkspaceStore();
  clearToasts();
  return fake;
}

export function tearDown(): void {
  cleanup();
  useSessionStore.setState({ ...initialSessionState });
  useSelectionStore.setState({ ...initialSelectionState });
  resetNotifications();
  resetWorkspaceStore();
  clearToasts();
  vi.unstubAllGlobals();
}

/** Opens domain 1 / portal 3 on `branch` in the selection store. */
export function openPortal(branch = 'master', portalId = 3): void {
  useSelectionStore.setState({
    domain: { id: 1, name: 'Ops' },
    portal: { id: portalId, name: 'Crew Portal' },
    branch,
    language: 'en_GB',
  });
}

/** Renders `ui` in a query client and a memory router; returns both. */
export const renderApp = (ui: ReactElement, queryClient?: QueryClient) => renderWithProviders(ui, queryClient);

export const progress = (data: Record<string, unknown>, room = 'user-7'): RoomMessage => ({
  room,
  title: String(data.messageType ?? 'CREATE_PORTAL'),
  data,
  messageType: 'PROGRESS',
});

export const note = (room: string, title: string, data: unknown): RoomMessage => ({
  room,
  title,
  data,
  messageType: 'NOTIFICATION',
});
