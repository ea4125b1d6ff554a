import { describe, expect, it, vi } from 'vitest';
import {
  acceptEngineMessage,
  designerFrameSrc,
  frameBase,
  frameOrigin,
  frameSandbox,
  parseShortCode,
  PREVIEW_SANDBOX,
  previewUrl,
  sendToEngine,
} from './protocol';

const BASE = '/api/v1/workspace/pwp1.t/1/2/';
const ORIGIN = 'http://app.example';

function fakeFrame(src = BASE + 'index.html') {
  const contentWindow = { postMessage: vi.fn() };
  const frame = { contentWindow, getAttribute: (name: string) => (name === 'src' ? src : null) };
  return { frame: frame as unknown as HTMLIFrameElement, contentWindow };
}

describe('acceptEngineMessage', () => {
  const msg = JSON.stringify({ type: 'engineEvent', payload: { step: 'Loading Page', progress: 33 } });

  it('accepts a JSON message from the frame window with the opaque origin', () => {
    const { frame, contentWindow } = fakeFrame();
    expect(
      acceptEngineMessage({ source: contentWindow as unknown as Window, origin: 'null', data: msg }, frame),
    ).toEqual({
      type: 'engineEvent',
      payload: { step: 'Loading Page', progress: 33 },
    });
  });

  it('ignores another window, another origin, non-strings, bad JSON and messages without a type', () => {
    const { frame, contentWindow } = fakeFrame();
    const src = contentWindow as unknown as Window;
    expect(acceptEngineMessage({ source: window, origin: 'null', data: msg }, frame)).toBeNull();
    expect(acceptEngineMessage({ source: src, origin: ORIGIN, data: msg }, frame)).toBeNull();
    expect(acceptEngineMessage({ source: src, origin: 'https://evil.example', data: msg }, frame)).toBeNull();
    expect(acceptEngineMessage({ source: src, origin: 'null', data: { type: 'engineEvent' } }, frame)).toBeNull();
    expect(acceptEngineMessage({ source: src, origin: 'null', data: '{not json' }, frame)).toBeNull();
    expect(
      acceptEngineMessage({ source: src, origin: 'null', data: JSON.stringify({ payload: {} }) }, frame),
    ).toBeNull();
    expect(acceptEngineMessage({ source: src, origin: 'null', data: msg }, null)).toBeNull();
    // The app's own origin never: a frame that shares it is not sandboxed.
    expect(acceptEngineMessage({ source: src, origin: window.location.origin, data: msg }, frame)).toBeNull();
    // A frame without a window accepts nothing (a null source cannot match it).
    const unloaded = { contentWindow: null } as unknown as HTMLIFrameElement;
    expect(acceptEngineMessage({ source: null, origin: 'null', data: msg }, unloaded)).toBeNull();
  });

  it('on the frame origin, accepts that origin only', () => {
    const { frame, contentWindow } = fakeFrame('http://frames.example:8081/api/v1/workspace/pwf1.t/1/2/index.html');
    const src = contentWindow as unknown as Window;
    expect(
      acceptEngineMessage({ source: src, origin: 'http://frames.example:8081', data: msg }, frame, ORIGIN),
    ).toEqual({
      type: 'engineEvent',
      payload: { step: 'Loading Page', progress: 33 },
    });
    expect(acceptEngineMessage({ source: src, origin: 'null', data: msg }, frame, ORIGIN)).toBeNull();
    expect(acceptEngineMessage({ source: src, origin: ORIGIN, data: msg }, frame, ORIGIN)).toBeNull();
    expect(
      acceptEngineMessage({ source: src, origin: 'http://frames.example:8082', data: msg }, frame, ORIGIN),
    ).toBeNull();
  });

  it('gives an empty payload when the message has none', () => {
    const { frame, contentWindow } = fakeFrame();
    expect(
      acceptEngineMessage({ source: contentWindow as unknown as Window, origin: 'null', data: '{"type":"x"}' }, frame),
    ).toEqual({ type: 'x', payload: {} });
  });
});

describe('the frame src', () => {
  it('is the engine README previewUrl', () => {
    expect(previewUrl(BASE, 'home', ORIGIN)).toBe(
      `${BASE}index.html?designMode=1&parentOrigin=${encodeURIComponent(ORIGIN)}#/home`,
    );
    expect(PREVIEW_SANDBOX).toBe('allow-scripts allow-forms');
  });

  it('keeps the frame opaque on the app origin, and its own origin on the frame origin', () => {
    expect(frameOrigin(`${BASE}index.html`, ORIGIN)).toBeNull();
    expect(frameOrigin(`${ORIGIN}${BASE}index.html`, ORIGIN)).toBeNull();
    expect(frameSandbox(`${BASE}index.html`, ORIGIN)).toBe('allow-scripts allow-forms');
    const elsewhere = 'http://app.example:8081/api/v1/workspace/pwf1.t/1/2/index.html';
    expect(frameOrigin(elsewhere, ORIGIN)).toBe('http://app.example:8081');
    expect(frameSandbox(elsewhere, ORIGIN)).toBe('allow-scripts allow-forms allow-same-origin');
    expect(frameOrigin(null, ORIGIN)).toBeNull();
  });

  it('adds the output path only when the task runner is active', () => {
    expect(frameBase(BASE, { taskRunnerActive: false, outputPath: 'out' })).toBe(BASE);
    expect(frameBase(BASE, { taskRunnerActive: true, outputPath: 'out' })).toBe(`${BASE}out/`);
    expect(frameBase(BASE, { taskRunnerActive: true, outputPath: '/build/site/' })).toBe(`${BASE}build/site/`);
    expect(frameBase(BASE, { taskRunnerActive: true, outputPath: '' })).toBe(`${BASE}pw-dist/`);
  });

  it('adds the language only in MULTILANGUAGE mode, after the output path', () => {
    expect(frameBase(BASE, { languageMode: 'TRANSLATION', language: 'fr_FR' })).toBe(BASE);
    expect(frameBase(BASE, { languageMode: 'SINGLE_LANGUAGE', language: 'fr_FR' })).toBe(BASE);
    expect(frameBase(BASE, { languageMode: 'MULTILANGUAGE', language: 'fr_FR' })).toBe(`${BASE}fr_FR/`);
    expect(
      frameBase(BASE, {
        languageMode: 'MULTILANGUAGE',
        language: 'fr_FR',
        taskRunnerActive: true,
        outputPath: 'pw-dist',
      }),
    ).toBe(`${BASE}pw-dist/fr_FR/`);
  });

  it('opens the page, or #/master-page', () => {
    const opts = { languageMode: 'MULTILANGUAGE', language: 'en_GB' };
    expect(designerFrameSrc(BASE, opts, 'weather', ORIGIN)).toBe(
      `${BASE}en_GB/index.html?designMode=1&parentOrigin=${encodeURIComponent(ORIGIN)}#/weather`,
    );
    expect(designerFrameSrc(BASE, {}, 'master-page', ORIGIN)).toMatch(
      /index\.html\?designMode=1&parentOrigin=.*#\/master-page$/,
    );
    expect(designerFrameSrc(BASE, {}, '', ORIGIN)).toMatch(/#\/master-page$/);
  });

  it('names the language as ?lang= in TRANSLATION mode', () => {
    expect(designerFrameSrc(BASE, { languageMode: 'TRANSLATION', language: 'fr_FR' }, 'home', ORIGIN)).toBe(
      `${BASE}index.html?designMode=1&parentOrigin=${encodeURIComponent(ORIGIN)}&lang=fr_FR#/home`,
    );
  });
});

describe('sendToEngine and parseShortCode', () => {
  it('posts a JSON string to the frame window only', () => {
    const { frame, contentWindow } = fakeFrame();
    sendToEngine(frame, 'dataChanged', { id: 'w', data: { a: 1 } });
    expect(contentWindow.postMessage).toHaveBeenCalledWith(
      '{"type":"dataChanged","payload":{"id":"w","data":{"a":1}}}',
      '*',
    );
    expect(() => sendToEngine(null, 'x', {})).not.toThrow();
  });

  it('checks a registerShortCode payload field by field', () => {
    expect(parseShortCode({ id: 'hero', type: 'hero', query: '', rect: { x: 1, y: 2, width: 3, height: 4 } })).toEqual({
      id: 'hero',
      type: 'hero',
      query: 'Full Size',
      rect: { x: 1, y: 2, width: 3, height: 4 },
    });
    expect(parseShortCode({ id: 'w', rect: { x: 'a', width: -5 } })?.rect).toEqual({ x: 0, y: 0, width: 0, height: 0 });
    expect(parseShortCode({ type: 'x' })).toBeNull();
  });
});
