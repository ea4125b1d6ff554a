import { create } from 'zustand';
import type { DomainRole, Features, ProbeConfig, User } from '../api/types';

/**
 * Session lifecycle (spec 1 §4.1):
 * checking / verifying (auto-login) → loggedOut | preparing → loggedIn → loggingOut.
 */
export type SessionStatus = 'checking' | 'verifying' | 'loggedOut' | 'preparing' | 'loggedIn' | 'loggingOut';

export interface SessionState {
  status: SessionStatus;
  user: User | null;
  /** Domain roles from the profile, when the server sends them. */
  roles: DomainRole[];
  /** True when this session was restored automatically (remember-me or external login). */
  autoLogin: boolean;
  features: Features;
  probeConfig: ProbeConfig | null;
  /** The server reported that this session was replaced by another login. */
  sessionConflict: boolean;
}

export const initialSessionState: SessionState = {
  status: 'checking',
  user: null,
  roles: [],
  autoLogin: false,
  features: {},
  probeConfig: null,
  sessionConflict: false,
};

export const useSessionStore = create<SessionState>(() => ({ ...initialSessionState }));

export const selectIsLoggedIn = (s: SessionState) => s.status === 'loggedIn';

/** The server's limits the screens state or time by (GET config/features); undefined when unknown. */
export const selectLimits = (s: SessionState) => s.features.limits;

/**
 * Signed in and the session still ours: not replaced by another sign-in (401 SESSION_EXPIRED,
 * the conflict dialog is up) and not ending. Background work (polls, intervals, the socket)
 * runs only while this holds (core/polling.ts).
 */
export const selectSessionLive = (s: SessionState) => s.status === 'loggedIn' && !s.sessionConflict;

export function fullName(user: Pick<User, 'firstName' | 'middleName' | 'lastName'>): string {
  return [user.firstName, user.middleName, user.lastName].filter((part) => part && part.trim()).join(' ');
}
