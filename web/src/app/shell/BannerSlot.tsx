import Alert from '@mui/material/Alert';
import { useQuery } from '@tanstack/react-query';
import { configApi } from '../../api/config';
import { preferenceApi, preferenceKeys, type Preference } from '../../api/preference';
import { pollEvery, useSessionLive } from '../../core/polling';
import { isBannerOn } from '../../core/banner';
import { useSessionStore } from '../../core/sessionStore';

/**
 * The system-wide banner (spec 1 §4.3, spec 3 §7 "Admin-related"): the first
 * preference of GET /preference/all decides. It shows while bannerStatus is on
 * ('BANNER_ON', or 'ON' as one reading of spec 1 §3 has it) and the message is
 * not blank. The message is rendered as plain text, never as HTML.
 *
 * The preference is refetched on window focus and every 60 s; System
 * Preferences invalidates preferenceKeys.all after a save, so the admin sees
 * the change at once. Polling stops when the session is over (core/polling.ts).
 *
 * Below it, the operator's information message (GET /config/infoMessage, a text file in the
 * data dir's web-config), also as plain text, read with the banner.
 */
export const BANNER_REFETCH_MS = 60_000;

/** The message to show, or null when the banner is off or empty. */
export function bannerMessage(preferences: readonly Preference[] | undefined): string | null {
  const first = preferences?.[0];
  if (!first || !isBannerOn(first.bannerStatus)) return null;
  const message = first.bannerMessage ?? '';
  return message.trim() ? message : null;
}

export const infoMessageKey = ['config', 'infoMessage'] as const;

export function BannerSlot() {
  const loggedIn = useSessionStore((s) => s.status === 'loggedIn');
  const live = useSessionLive();
  const { data } = useQuery({
    queryKey: preferenceKeys.all,
    queryFn: preferenceApi.list,
    enabled: live,
    refetchOnWindowFocus: true,
    refetchInterval: pollEvery(BANNER_REFETCH_MS),
  });
  const info = useQuery({
    queryKey: infoMessageKey,
    queryFn: configApi.infoMessage,
    enabled: live,
    refetchInterval: pollEvery(BANNER_REFETCH_MS),
  });
  const message = loggedIn ? bannerMessage(data) : null;
  const infoText = loggedIn ? (info.data?.message ?? '').trim() : '';
  if (!message && !infoText) return null;
  return (
    <>
      {message && (
        <Alert
          severity="info"
          variant="filled"
          square
          role="status"
          aria-label="System banner"
          sx={{ borderRadius: 0, whiteSpace: 'pre-line', wordBreak: 'break-word' }}
        >
          {message}
        </Alert>
      )}
      {infoText && (
        <Alert
          severity="info"
          square
          role="note"
          aria-label="Information"
          sx={{ borderRadius: 0, whiteSpace: 'pre-line', wordBreak: 'break-word' }}
        >
          {infoText}
        </Alert>
      )}
    </>
  );
}
