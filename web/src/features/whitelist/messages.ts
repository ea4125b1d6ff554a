/** The whitelist screen's texts (spec 3 §2, §5, §8). */
export const WHITELIST_MESSAGES = {
  title: 'Whitelist',
  // Spec 3 §8 and spec 1 §5.
  loadFailed: 'Could not load Whitelist',
  invalidUrl: 'Please make sure the URL is valid and starts with http:// or https://',

  // Not fixed by the spec.
  saveFailed: 'Could not save Whitelist',
  checkFailed: 'Could not check the portal',
  saved: 'Whitelist saved to your workspace.',
  intro:
    'The external addresses this portal may load. The whitelist is part of the portal (whitelist.json): a save is a local change, committed with your other changes.',
  notAvailable: 'The whitelist is not available for this portal: limited, captive and UNIVERSAL portals have none.',
  duplicate: 'This URL is already in the whitelist.',
  tooLong: (max: number) => `A whitelist URL may be at most ${String(max)} characters long.`,
  tooMany: (max: number) => `A whitelist may hold at most ${String(max)} URLs.`,
  empty: 'The whitelist is empty: no external URL is allowed.',
  readOnly: 'You may view the whitelist; saving it needs the whitelist write permission.',
  checkTitle: 'Check portal',
  checkIntro:
    'Finds every external URL in the pages, widget data, translations, JSON content and CSS of your workspace.',
  checkIdle: 'Run the check to list the external URLs of the portal.',
  noUrls: 'No external URLs found.',
  summary: (urls: number, files: number, notAllowed: number) =>
    `${String(urls)} external URL${urls === 1 ? '' : 's'} in ${String(files)} file${files === 1 ? '' : 's'} scanned; ${String(notAllowed)} not allowed.`,
  truncated: 'The portal holds more URLs or places than are listed here.',
  unsavedCheck: 'Your whitelist has unsaved changes: the check compares with the saved whitelist.',
  allowed: 'Allowed',
  notAllowed: 'Not allowed',
  addToWhitelist: 'Add to whitelist',
  added: 'Added',
  originsTitle: 'Not allowed, by origin',
  addAllFromOrigin: 'Add all from this origin',
  /** Accessible names hold the visible text first (axe label-content-name-mismatch). */
  addOriginLabel: (origin: string, n: number) =>
    `Add all from this origin: ${origin} (${String(n)} URL${n === 1 ? '' : 's'})`,
  addUrlOriginLabel: (origin: string) => `Add to whitelist: ${origin}`,
  addSelected: (n: number) => `Add selected (${String(n)})`,
  addAllOrigins: (n: number) => `Add all ${String(n)} origin${n === 1 ? '' : 's'}`,
} as const;
