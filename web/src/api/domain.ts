import { api } from './client';
import type { Domain } from './types';

/** Domain calls (spec 1 §7 "Domain"). */
export const domainApi = {
  /** The domains the signed-in user may see, in server order (possibly empty). */
  list: async (): Promise<Domain[]> => (await api.get<Domain[] | null>('domain/')) ?? [],
};
