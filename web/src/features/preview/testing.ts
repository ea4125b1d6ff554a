/** Test helpers of the preview feature (imported by *.test.tsx only). */
import type { Preview } from '../../api/preview';

export const LIVE_LINK = 'http://host/api/v1/preview/pwv1.abc/1/2/PORTAL_LIVE/master/index.html#/home';

/** A ready live preview of domain 1 / portal 2 (override any field). */
export const samplePreview = (fields: Partial<Preview> = {}): Preview => ({
  id: 5,
  type: 'PORTAL_LIVE',
  status: 'READY',
  domainId: 1,
  portalId: 2,
  userId: 1,
  domainName: 'Demo Airline',
  portalName: 'Passenger Portal',
  branch: 'master',
  commitId: '',
  language: 'en_GB',
  page: '',
  link: LIVE_LINK,
  createdAt: '2026-11-22T10:00:00Z',
  expiresAt: '2026-11-23T10:00:00Z',
  error: null,
  ...fields,
});

/** A tiny valid PNG (1x1), base64. */
export const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
