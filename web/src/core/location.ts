/**
 * Thin wrappers over window.location so flows that reload or leave the page
 * can be tested (vi.mock this module).
 */

/** The base path the app is served from (the URL without its hash route). */
export function basePath(): string {
  return window.location.pathname || '/';
}

/**
 * The hash route the browser is at now (`#/…`). It moves on as soon as a navigation starts
 * (a link, the address bar, the router's own), ahead of the route rendered.
 */
export function currentRoute(): string {
  return window.location.hash;
}

export function reloadPage(): void {
  window.location.reload();
}

/** Full navigation to another URL (leaves the single-page app). */
export function assignLocation(url: string): void {
  window.location.assign(url);
}

/**
 * Resets the hash route to the root (`#/`), replacing the current history
 * entry. Only the fragment changes, so the page does not reload; the router
 * follows through the popstate event.
 */
export function resetHashToRoot(): void {
  if (window.location.hash !== '#/') {
    window.location.replace(`${basePath()}${window.location.search}#/`);
  }
}
