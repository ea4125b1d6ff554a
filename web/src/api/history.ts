import { api } from './client';

export const HISTORY_CATEGORIES = ['SIGN_IN', 'USER', 'DOMAIN', 'GROUP', 'PREFERENCE', 'PORTAL'] as const;
export type HistoryCategory = (typeof HISTORY_CATEGORIES)[number];

import type { LookupEntry } from './lookup';
import type * as gen from './types.gen';

export type HistoryEntry = gen.AuditEntry;

/** Audit history (spec 3 §7 "Admin-related" lookups). */
export const historyApi = {
  types: async (category: HistoryCategory) =>
    (await api.get<LookupEntry[] | null>(`lookup/type/historyType/category/${encodeURIComponent(category)}`)) ?? [],
  list: async (historyType: string) =>
    (await api.get<HistoryEntry[] | null>('lookup/accounts/0/0/entities/ALL/history', {
      query: { historyType: historyType || undefined },
    })) ?? [],
};

export const historyKeys = {
  types: (category: string) => ['history', 'types', category] as const,
  list: (type: string) => ['history', 'entries', type] as const,
};
