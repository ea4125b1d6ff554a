import { api } from './client';
import type * as gen from './types.gen';

export type BannerStatus = 'BANNER_ON' | 'BANNER_OFF';

/** The system preferences (spec 1 §3): the banner. */
export type Preference = gen.AdminPreference;

/** Preference calls (spec 1 §7 "Preference"). */
export const preferenceApi = {
  list: async () => (await api.get<Preference[] | null>('preference/all')) ?? [],
  update: (body: { id: Preference['id']; bannerStatus: BannerStatus; bannerMessage: string }) =>
    api.put<Preference>('preference/update', body),
};

/** The banner (app/shell/BannerSlot) and System Preferences share this key. */
export const preferenceKeys = {
  all: ['preferences'] as const,
};
