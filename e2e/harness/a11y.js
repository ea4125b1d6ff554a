// Accessibility checks with axe-core (the library only, from node_modules; nothing is fetched).
// scanPage() injects axe into the page and returns the violations of impact serious or
// critical; expectAccessible() fails with a readable list of them.
import { createRequire } from 'node:module';
import assert from 'node:assert/strict';

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');

/** The impacts that fail a screen. */
export const BLOCKING_IMPACTS = ['serious', 'critical'];

/**
 * Runs axe-core on the page as it is now (WCAG 2.x A and AA rules plus best practices).
 * @returns {Promise<Array<{id: string, impact: string, help: string, targets: string[]}>>}
 */
export async function scanPage(page) {
  // A violation must hold twice, half a second apart: a toast sliding in or a button between
  // states is not what the screen shows.
  const first = await scanOnce(page);
  if (!first.length) return first;
  await page.waitForTimeout(500);
  const again = await scanOnce(page);
  const key = (v) => `${v.id} ${v.targets.join('|')}`;
  const kept = new Set(first.map(key));
  return again.filter((v) => kept.has(key(v)));
}

async function scanOnce(page) {
  // Colours are measured as shown: let transitions (a dialog fading in, a ripple) finish.
  await page
    .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), null, { timeout: 3000 })
    .catch(() => {});
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.addScriptTag({ path: AXE_PATH });
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} ${n.html.slice(0, 120)}`),
    }));
  });
  return violations.filter((v) => BLOCKING_IMPACTS.includes(v.impact));
}

/** Fails when the page has serious or critical accessibility violations. */
export async function expectAccessible(page, screen = page.url()) {
  const violations = await scanPage(page);
  assert.deepEqual(
    violations.map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.targets.join(' | ')}`),
    [],
    `accessibility violations on ${screen}`,
  );
}
