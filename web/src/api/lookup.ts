import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import type * as gen from './types.gen';

/**
 * Enumerations and their display names (spec 3 §7 `GET /lookup/{enum}`): the key is what the
 * API stores and sends, the value what screens show. The server's list is the truth; the
 * built-in one below (the same entries) shows until it arrives or when it cannot be read, so a
 * select never renders empty.
 */
export type LookupEnum = 'PortalType' | 'ScopeType' | 'PreviewType' | 'PayloadType';

export type LookupEntry = gen.AppinfoKeyValue;

const BUILT_IN: Record<LookupEnum, LookupEntry[]> = {
  PortalType: [
    { key: 'CREW', value: 'Crew' },
    { key: 'PASSENGER', value: 'Passenger' },
  ],
  ScopeType: [
    { key: 'FULL', value: 'Full' },
    { key: 'MICROSITE', value: 'Microsite' },
    { key: 'CAPTIVE', value: 'Captive' },
  ],
  PreviewType: [
    { key: 'PORTAL_LOCKED', value: 'Locked snapshot' },
    { key: 'PORTAL_LIVE', value: 'Live' },
    { key: 'LOADABLE', value: 'Loadable' },
  ],
  PayloadType: [
    { key: 'PORTAL', value: 'Portal' },
    { key: 'MICROSITE', value: 'Microsite' },
    { key: 'CAPTIVE', value: 'Captive portal' },
    { key: 'MEDIA', value: 'Media' },
  ],
};

export const lookupApi = {
  enumeration: async (name: LookupEnum) => (await api.get<LookupEntry[] | null>(`lookup/${name}`)) ?? [],
};

export const lookupKeys = {
  enumeration: (name: LookupEnum) => ['lookup', name] as const,
};

/** An enumeration's entries: the server's once read (once per session), the built-in ones until then. */
export function useLookup(name: LookupEnum): LookupEntry[] {
  const query = useQuery({
    queryKey: lookupKeys.enumeration(name),
    queryFn: () => lookupApi.enumeration(name),
    staleTime: Infinity,
    retry: false,
  });
  return query.data && query.data.length > 0 ? query.data : BUILT_IN[name];
}

/** The display name of a key ('FULL' → 'Full'); the key itself when the enumeration lacks it. */
export function lookupLabel(entries: readonly LookupEntry[], key: string | null | undefined): string {
  if (!key) return '—';
  return entries.find((e) => e.key === key.toUpperCase())?.value ?? key;
}
