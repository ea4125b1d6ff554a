import { describe, expect, it } from 'vitest';
import {
  canReset,
  canRetry,
  initialOverlay,
  overlayReducer,
  parameterErrors,
  type OverlayEvent,
  type OverlayState,
} from './overlay';

const run = (events: OverlayEvent[], from: OverlayState = initialOverlay) => events.reduce(overlayReducer, from);
const ev = (payload: Record<string, unknown>): OverlayEvent => ({ type: 'engineEvent', payload });

describe('overlay state machine', () => {
  it("starts with the 'Please Wait' spinner", () => {
    expect(run([{ type: 'start' }])).toEqual({
      phase: 'loading',
      mode: 'spinner',
      message: 'Please Wait',
      progress: null,
      heard: false,
    });
  });

  it('shows the steps in progress mode and is ready at 100', () => {
    const s = run([ev({ step: 'Parsing Master Page', progress: 5 }), ev({ step: 'Loading Page', progress: 33 })]);
    expect(s).toEqual({ phase: 'loading', mode: 'progress', message: 'Loading Page', progress: 33, heard: true });
    expect(run([ev({ step: 'Preparing To Render', progress: 100 })], s)).toEqual({ phase: 'ready', heard: true });
  });

  it('a page change shows the spinner again and keeps that the engine talks', () => {
    const ready = run([ev({ step: 'Preparing To Render', progress: 100 })]);
    expect(run([{ type: 'navigate' }], ready)).toMatchObject({ phase: 'loading', mode: 'spinner', heard: true });
    // No host time-out once the engine has talked.
    expect(run([{ type: 'navigate' }, { type: 'hostTimeout' }], ready)).toMatchObject({ phase: 'loading' });
  });

  it('opens the missing-parameters screen on MISSING_PARAMETERS', () => {
    const s = run([
      ev({
        error: {
          errorCode: 'MISSING_PARAMETERS',
          errorMessage: 'Required parameters are missing: airport',
          httpStatus: 0,
          data: {
            pageId: 'weather',
            title: 'Weather',
            missing: [{ name: 'airport', required: true }],
            parameters: [
              { name: 'airport', description: 'IATA code', required: true, value: '' },
              { name: 'unit', required: false, value: 'C' },
            ],
          },
        },
      }),
    ]);
    expect(s).toEqual({
      phase: 'missingParameters',
      heard: true,
      missing: {
        pageId: 'weather',
        title: 'Weather',
        missing: ['airport'],
        parameters: [
          { name: 'airport', description: 'IATA code', required: true, value: '' },
          { name: 'unit', description: '', required: false, value: 'C' },
        ],
      },
    });
  });

  it('opens the failure overlay on any other error', () => {
    const s = run([ev({ error: { errorCode: 'UNKNOWN_ERROR', errorMessage: 'Page not found: x', httpStatus: 404 } })]);
    expect(s).toMatchObject({
      phase: 'failed',
      error: { errorCode: 'UNKNOWN_ERROR', httpStatus: 404, errorMessage: 'Page not found: x' },
    });
    const odd = run([ev({ error: 'boom' })]);
    expect(odd).toMatchObject({
      phase: 'failed',
      error: { errorCode: 'UNKNOWN_ERROR', errorMessage: 'An unknown error occurred', httpStatus: 0 },
    });
  });

  it('host time-out: TIMED_OUT when no engineEvent came at all', () => {
    expect(run([{ type: 'start' }, { type: 'hostTimeout' }])).toMatchObject({
      phase: 'failed',
      error: { errorCode: 'TIMED_OUT' },
    });
    expect(
      run([{ type: 'start' }, ev({ step: 'Parsing Master Page', progress: 5 }), { type: 'hostTimeout' }]),
    ).toMatchObject({
      phase: 'loading',
    });
  });

  it('MISSING_ENGINE when the frame loaded but never talked', () => {
    expect(run([{ type: 'start' }, { type: 'frameSilent' }])).toMatchObject({
      phase: 'failed',
      error: { errorCode: 'MISSING_ENGINE' },
    });
    expect(run([{ type: 'start' }, ev({ warning: 'x' }), { type: 'frameSilent' }])).toMatchObject({
      phase: 'loading',
      heard: true,
    });
  });

  it('a warning changes nothing else', () => {
    const s = run([ev({ step: 'Loading Page', progress: 33 })]);
    expect(run([ev({ warning: 'Widget x: broken' })], s)).toBe(s);
  });
});

describe('retry and reset', () => {
  const error = (errorCode: string, httpStatus = 0) => ({ errorCode, errorMessage: 'x', httpStatus });
  it('offers Reset for the listed codes only', () => {
    for (const code of ['19', '20', '61', '112', '113', '114', '115', '134']) expect(canReset(error(code))).toBe(true);
    expect(canReset(error('TIMED_OUT'))).toBe(false);
    expect(canReset(error('UNKNOWN_ERROR', 404))).toBe(false);
    expect(canReset(error('18'))).toBe(false);
  });
  it('cannot retry without an engine', () => {
    expect(canRetry(error('MISSING_ENGINE'))).toBe(false);
    expect(canRetry(error('TIMED_OUT'))).toBe(true);
  });
});

describe('parameterErrors', () => {
  it("blocks a required parameter left empty with '{name} is required.'", () => {
    const params = [
      { name: 'airport', required: true },
      { name: 'unit', required: false },
    ];
    expect(parameterErrors(params, { airport: ' ', unit: '' })).toEqual({ airport: 'airport is required.' });
    expect(parameterErrors(params, { airport: 'CDG' })).toEqual({});
  });
});
