/**
 * Version rules (spec 1 §7 "Configuration and versions").
 *
 * - A version is reduced to digits and dots.
 * - A four-part version has its last part zero-padded to 3 digits
 *   (3.4.10.42 → 3.4.10.042).
 * - A version whose lookup failed shows N/A.
 * - A looked-up version that does not have at least three numeric parts after
 *   normalisation is a format error: 'Versions are not in correct format.
 *   Please contact admin.'
 *
 * Combined version (Portalwright's own rule; the spec names it without
 * defining it): the front-end's first three parts followed by the back-end's
 * fourth part, zero-padded to 3 digits — front 3.4.10 + back 3.4.10.42 gives
 * 3.4.10.042. The fourth part is the back-end build number, so the combined
 * version identifies both what the browser runs and which server build
 * answers it. When the back-end has only three parts the combined version is
 * the front-end version. When either version is unavailable or malformed the
 * combined version is N/A.
 */

export const NOT_AVAILABLE = 'N/A';
export const VERSION_FORMAT_ERROR = 'Versions are not in correct format. Please contact admin.';

/** Digits and dots only; a four-part version gets its last part padded to 3 digits. */
export function normalizeVersion(raw: string): string {
  const reduced = raw.replace(/[^0-9.]/g, '');
  const parts = reduced.split('.');
  if (parts.length === 4) parts[3] = parts[3].padStart(3, '0');
  return parts.join('.');
}

/** At least three parts, each a non-empty run of digits. */
export function isWellFormedVersion(normalized: string): boolean {
  const parts = normalized.split('.');
  return parts.length >= 3 && parts.every((part) => /^\d+$/.test(part));
}

/** The short form shown in the side navigation: v + the first three parts. */
export function shortVersion(raw: string): string {
  const parts = normalizeVersion(raw).split('.').slice(0, 3);
  return `v${parts.join('.')}`;
}

/** Combines two well-formed, normalised versions (see the module comment). */
export function combineVersions(frontend: string, backend: string): string {
  const front = frontend.split('.').slice(0, 3);
  const build = backend.split('.')[3];
  return build === undefined ? front.join('.') : [...front, build.padStart(3, '0')].join('.');
}

export interface VersionInfo {
  frontend: string;
  backend: string;
  combined: string;
  /** VERSION_FORMAT_ERROR when a looked-up version is malformed. */
  error: string | null;
}

/**
 * Builds what the version dialog shows. A null input means the lookup failed.
 */
export function resolveVersions(frontendRaw: string | null, backendRaw: string | null): VersionInfo {
  const frontend = frontendRaw === null ? null : normalizeVersion(frontendRaw.trim());
  const backend = backendRaw === null ? null : normalizeVersion(backendRaw.trim());
  const malformed = [frontend, backend].some((v) => v !== null && !isWellFormedVersion(v));
  const combined =
    frontend !== null && backend !== null && !malformed ? combineVersions(frontend, backend) : NOT_AVAILABLE;
  return {
    frontend: frontend || NOT_AVAILABLE,
    backend: backend || NOT_AVAILABLE,
    combined,
    error: malformed ? VERSION_FORMAT_ERROR : null,
  };
}
