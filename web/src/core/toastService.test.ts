import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, errorFromResponse } from '../api/errors';
import {
  clearToasts,
  dismissToast,
  isRawHttpTitle,
  showHttpError,
  showToast,
  scaleToastTimeOuts,
  toasts,
  useToastStore,
} from './toastService';

const visible = () => useToastStore.getState().toasts;

// The time-outs as the app has them (test/setup.ts stretches them for the screens' tests).
beforeEach(() => {
  scaleToastTimeOuts(1);
  vi.useFakeTimers();
});
afterEach(() => {
  clearToasts();
  vi.useRealTimers();
  scaleToastTimeOuts(100);
});

describe('toast service', () => {
  it('applies the defaults: 3000 ms, auto dismiss, Yes/No', () => {
    toasts.info('Saved');
    expect(visible()[0]).toMatchObject({
      type: 'INFO',
      message: 'Saved',
      timeOut: 3000,
      autoDismiss: true,
      tapToDismiss: true,
      closeButton: false,
      showDismissIcon: false,
      isPrompt: false,
      promptAcceptText: 'Yes',
      promptRejectText: 'No',
    });
  });

  it('hides a toast after its time-out', () => {
    toasts.success('Done');
    vi.advanceTimersByTime(2999);
    expect(visible()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(visible()).toHaveLength(0);
  });

  it('honours a custom time-out', () => {
    showToast({ type: 'WARNING', message: 'Careful', timeOut: 500 });
    vi.advanceTimersByTime(500);
    expect(visible()).toHaveLength(0);
  });

  it('keeps a toast without auto dismiss until it is dismissed', () => {
    const handle = showToast({ type: 'DANGER', message: 'Down', autoDismiss: false });
    vi.advanceTimersByTime(60_000);
    expect(visible()).toHaveLength(1);
    dismissToast(handle!.id);
    expect(visible()).toHaveLength(0);
  });

  it('never auto-dismisses a prompt and resolves true when accepted', async () => {
    const answer = toasts.prompt('Discard changes?');
    expect(visible()[0]).toMatchObject({
      isPrompt: true,
      autoDismiss: false,
      promptAcceptText: 'Yes',
      promptRejectText: 'No',
    });
    vi.advanceTimersByTime(60_000);
    expect(visible()).toHaveLength(1);
    dismissToast(visible()[0].id, true);
    await expect(answer).resolves.toBe(true);
  });

  it('resolves a prompt with false when rejected, with custom labels', async () => {
    const answer = toasts.prompt('Proceed?', { promptAcceptText: 'Proceed', promptRejectText: 'Cancel' });
    expect(visible()[0]).toMatchObject({ promptAcceptText: 'Proceed', promptRejectText: 'Cancel' });
    dismissToast(visible()[0].id, false);
    await expect(answer).resolves.toBe(false);
  });

  it('logs an error and shows nothing for an unknown type', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const handle = showToast({ type: 'FANCY' as never, message: 'x' });
    expect(handle).toBeNull();
    expect(visible()).toHaveLength(0);
    expect(error).toHaveBeenCalledWith('Unknown toast type: FANCY');
  });

  it('shows an HTTP error as a 30000 ms danger toast with a close button', () => {
    showHttpError(
      new ApiError(
        { httpStatus: 500, errorTitle: 'Save failed', errorMessage: 'Disk full' },
        { errorTitle: 'Save failed' },
      ),
    );
    expect(visible()[0]).toMatchObject({
      type: 'DANGER',
      title: 'Save failed',
      message: 'Disk full',
      timeOut: 30000,
      closeButton: true,
    });
    vi.advanceTimersByTime(29_999);
    expect(visible()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(visible()).toHaveLength(0);
  });

  it('falls back to the default title and message for an HTTP error without details', () => {
    showHttpError(new TypeError('Failed to fetch'));
    expect(visible()[0]).toMatchObject({ title: 'Something went wrong', message: 'An unknown error occurred' });
  });

  it('never titles a toast with a raw HTTP phrase: the case title is used instead', () => {
    const conflict = errorFromResponse(409, JSON.stringify({ errorTitle: 'Conflict', errorMessage: 'Taken' }));
    showHttpError(conflict, 'Could not save');
    const bad = errorFromResponse(400, JSON.stringify({ errorTitle: 'Bad Request', errorMessage: 'No' }));
    showHttpError(bad, 'Could not create the user');
    const own = errorFromResponse(409, JSON.stringify({ errorTitle: 'Name taken', errorMessage: 'Pick another' }));
    showHttpError(own, 'Could not save');
    expect(visible().map((t) => t.title)).toEqual(['Could not save', 'Could not create the user', 'Name taken']);
    expect(isRawHttpTitle('Not Found')).toBe(true);
    expect(isRawHttpTitle('Could not open domain')).toBe(false);
  });
});
