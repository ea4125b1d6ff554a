import { api } from './client';
import type { Features, ProbeConfig } from './types';

/** Configuration and version calls (spec 1 §7 "Configuration and versions"). */
export const configApi = {
  /** The deployed front-end version, from version.json next to index.html. */
  frontendVersion: async (): Promise<string> => {
    const body = await api.get<{ version?: unknown }>('version.json', {
      auth: false,
      base: '',
      responseType: 'json',
      // Cache-busting: always ask for the version that is deployed now.
      query: { version: Date.now() },
    });
    if (typeof body?.version !== 'string') throw new Error('version.json has no version');
    return body.version;
  },
  backendVersion: () => api.get<string>('config/backend-version', { responseType: 'text' }),
  features: () => api.get<Features>('config/features', { auth: false, responseType: 'json' }),
  /** The operator's information message (`<data>/web-config/info-message.txt`); '' when none. */
  infoMessage: () => api.get<{ message?: string }>('config/infoMessage', { auth: false, responseType: 'json' }),
  probeConfig: () =>
    api.get<ProbeConfig>('assets/config/probe.config.json', {
      auth: false,
      base: '',
      responseType: 'json',
      query: { version: __APP_VERSION__ },
    }),
};
