/**
 * Browser support (spec 1 §1): Chrome and Firefox are supported. Internet
 * Explorer, the old (EdgeHTML) Edge and Safari that is not Chrome-based are
 * flagged unsupported. Chromium-based browsers (new Edge "Edg/", Opera "OPR/",
 * Brave, Vivaldi, headless Chrome) report "Chrome/" and are supported. A
 * browser we cannot identify is not flagged.
 */
export type BrowserVerdict = 'supported' | 'ie' | 'legacy-edge' | 'safari';

export function classifyBrowser(userAgent: string): BrowserVerdict {
  const ua = userAgent || '';
  if (/MSIE |Trident\//.test(ua)) return 'ie';
  if (/Edge\/\d/.test(ua)) return 'legacy-edge';
  const chromium = /(Chrome|Chromium|CriOS)\/\d/.test(ua);
  const firefox = /(Firefox|FxiOS)\/\d/.test(ua);
  if (!chromium && !firefox && /Safari\/\d/.test(ua)) return 'safari';
  return 'supported';
}

export function isSupportedBrowser(userAgent: string): boolean {
  return classifyBrowser(userAgent) === 'supported';
}
