// Portal previews (issue 13 item 4; spec 3 §2 "Preview detail dialog (350 x 400): a link and a
// QR code", §4 "Previews", §7 "Preview"): on the demo Passenger Portal's dashboard, 'Live
// preview' and then 'Locked preview' are generated on the server; the Previews card shows each
// ready; Details opens the dialog with the link and its QR code. The link opens in a NEW browser
// context with no sign-in and shows the portal; the QR code, decoded here (pngjs + jsQR), is
// that link.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { useE2E, apiSession, signIn, expectVisible, expectHidden, eventually, passengerPortal } from '../harness/index.js';

const DOMAIN_ID = 1;

/** The text a QR code image (a data:image/png;base64 URL) encodes. */
function decodeQr(src) {
  const match = /^data:image\/png;base64,(.+)$/.exec(src ?? '');
  assert.ok(match, `the QR image is an inline PNG: ${String(src).slice(0, 60)}`);
  const png = PNG.sync.read(Buffer.from(match[1], 'base64'));
  // jsQR needs a quiet zone around the code: draw the image on a white canvas 32 px larger.
  const pad = 32;
  const width = png.width + 2 * pad;
  const height = png.height + 2 * pad;
  const data = new Uint8ClampedArray(width * height * 4).fill(255);
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      const from = (y * png.width + x) * 4;
      const to = ((y + pad) * width + (x + pad)) * 4;
      const alpha = png.data[from + 3] / 255;
      for (let c = 0; c < 3; c++) data[to + c] = Math.round(png.data[from + c] * alpha + 255 * (1 - alpha));
    }
  }
  const code = jsQR(data, width, height);
  assert.ok(code, 'the QR code decodes');
  return code.data;
}

describe('portal previews', { timeout: 300_000 }, () => {
  const e2e = useE2E();
  let portalId;
  let branch;

  before(async () => {
    const admin = await apiSession(e2e.server);
    ({ id: portalId, branch } = await passengerPortal(admin, DOMAIN_ID));
  });

  const card = (page) => page.getByRole('region', { name: 'Previews' });
  const latest = (page, label) => card(page).getByRole('listitem', { name: `Latest ${label}` });

  /** Generates a preview from the card, opens its details, checks link and QR; returns the link. */
  async function generate(page, label) {
    const button = card(page).getByRole('button', { name: label === 'live preview' ? 'Live preview' : 'Locked preview' });
    await expectVisible(button, { timeout: 20_000 });
    await button.click();
    const entry = latest(page, label);
    // PROGRESS, then READY (the card reads the preview again on CREATE_PREVIEW SUCCESS).
    await eventually(async () => {
      assert.equal(await entry.getAttribute('data-status'), 'READY');
    }, { timeout: 120_000, message: `the ${label} becomes ready` });
    const open = entry.getByRole('link', { name: 'Open' });
    await expectVisible(open);
    assert.equal(await open.getAttribute('target'), '_blank');
    assert.match((await open.getAttribute('rel')) ?? '', /noopener/);
    // (read now: the open dialog hides the page behind it from the accessibility tree)
    const openHref = await open.getAttribute('href');

    await entry.getByRole('button', { name: 'Details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Preview' });
    await expectVisible(dialog);
    const box = await dialog.boundingBox();
    assert.ok(box && Math.round(box.width) === 350 && Math.round(box.height) === 400, `the dialog is 350 x 400: ${JSON.stringify(box)}`);
    const anchor = dialog.getByRole('link', { name: 'Preview link' });
    const link = (await anchor.textContent())?.trim() ?? '';
    assert.match(link, /^https?:\/\/[^/]+\/api\/v1\/preview\//, `an absolute preview link: ${link}`);
    assert.equal(await anchor.getAttribute('href'), link);
    assert.equal(openHref, link, "the card's Open link is the dialog's link");

    const qr = dialog.getByRole('img', { name: 'QR code of the preview link' });
    await expectVisible(qr);
    assert.equal(decodeQr(await qr.getAttribute('src')), link, 'the QR code encodes the link');

    await dialog.getByRole('button', { name: 'Close' }).click();
    await expectHidden(dialog);
    return link;
  }

  /** Opens `link` in a fresh browser context (no sign-in) and checks it shows the portal. */
  async function view(link) {
    const viewer = await e2e.newPage();
    const stored = await viewer.context().storageState();
    assert.deepEqual([stored.cookies.length, stored.origins.length], [0, 0], 'the viewer is not signed in');
    const response = await viewer.goto(link);
    assert.equal(response?.status(), 200, `GET ${link}`);
    // The starter's index names the portal (and forwards to en_GB/index.html: 'Welcome on board').
    await eventually(async () => {
      const text = `${await viewer.title()}\n${await viewer.locator('body').innerText()}`;
      assert.match(text, /Passenger Portal|Welcome on board|Destinations/);
    }, { timeout: 20_000, message: `the preview at ${link} shows the portal` });
    await viewer.context().close();
  }

  it('generates a live and a locked preview, opens each link signed out, and the QR code is the link', { timeout: 280_000 }, async () => {
    const page = await e2e.newPage();
    await signIn(page);
    await page.goto(`/#/domain/${DOMAIN_ID}/portal/${portalId}/branch/${branch.replace(/\//g, ':')}/en_GB/dashboard`);
    await expectVisible(card(page), { timeout: 30_000 });

    const live = await generate(page, 'live preview');
    assert.match(live, /PORTAL_LIVE/);
    await view(live);

    const locked = await generate(page, 'locked preview');
    assert.notEqual(locked, live, 'the locked preview has its own link');
    await view(locked);

    // Both stay listed as the caller's latest.
    assert.equal(await latest(page, 'live preview').getAttribute('data-status'), 'READY');
    assert.equal(await latest(page, 'locked preview').getAttribute('data-status'), 'READY');
  });
});
