import { api } from './client';
import type * as gen from './types.gen';
import type { Narrow } from './types';

export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'held' | 'skipped';
export const OUTBOX_STATUSES: readonly OutboxStatus[] = ['pending', 'sending', 'sent', 'failed', 'held', 'skipped'];

export type OutboxMail = Narrow<gen.NotifyMessage, { status: OutboxStatus }>;

/** The mail outbox (our design, docs/api.md). */
export const outboxApi = {
  list: async (status: OutboxStatus | '', limit = 200) =>
    (await api.get<OutboxMail[] | null>('admin/outbox', { query: { status: status || undefined, limit } })) ?? [],
  retry: (id: OutboxMail['id']) => api.post<unknown>(`admin/outbox/${encodeURIComponent(String(id))}/retry`),
};

export const outboxKeys = {
  all: ['outbox'] as const,
  list: (status: string) => ['outbox', status] as const,
};
