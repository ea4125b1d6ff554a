import { API_BASE } from './client';

/** URL of a public document (GET /api/v1/document/pub/{name}); documents open in a new tab. */
export function publicDocumentUrl(name: string): string {
  return `${API_BASE}document/pub/${encodeURIComponent(name)}`;
}

export const TERMS_URL = publicDocumentUrl('terms');
