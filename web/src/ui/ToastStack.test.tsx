import { act, fireEvent, screen, within } from '@testing-library/react';
import { renderWithProviders } from '../test/render';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastStack, TOAST_STACK_OFFSET } from './ToastStack';
import {
  clearToasts,
  HTTP_ERROR_TOAST_TIMEOUT_MS,
  scaleToastTimeOuts,
  showToast,
  toasts,
  useToastStore,
} from '../core/toastService';

const visible = () => useToastStore.getState().toasts;

// The time-outs as the app has them (test/setup.ts stretches them for the screens' tests).
beforeEach(() => {
  scaleToastTimeOuts(1);
  vi.useFakeTimers();
});
afterEach(() => {
  act(() => clearToasts());
  vi.useRealTimers();
  scaleToastTimeOuts(100);
});

describe('repeated toasts', () => {
  it('collapse into one with a count, and the time-out starts again', () => {
    renderWithProviders(<ToastStack />);
    act(() => {
      toasts.danger('Disk full', 'Failed to save changes');
      vi.advanceTimersByTime(2000);
      toasts.danger('Disk full', 'Failed to save changes');
      toasts.danger('Disk full', 'Failed to save changes');
    });
    expect(visible()).toHaveLength(1);
    expect(visible()[0].count).toBe(3);
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText('×3')).toBeInTheDocument();
    expect(alert).toHaveTextContent('(shown 3 times)');
    // 3000 ms from the last one, not the first.
    act(() => vi.advanceTimersByTime(2999));
    expect(visible()).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(visible()).toHaveLength(0);
  });

  it('keep different toasts apart, keep the longer time-out, and never collapse prompts', () => {
    renderWithProviders(<ToastStack />);
    act(() => {
      toasts.info('Saved');
      toasts.success('Saved');
      toasts.info('Saved', 'Other title');
      showToast({ type: 'DANGER', message: 'Down' });
      showToast({ type: 'DANGER', message: 'Down', timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS });
      void toasts.prompt('Reload?');
      void toasts.prompt('Reload?');
    });
    expect(visible().map((t) => [t.type, t.count])).toEqual([
      ['INFO', 1],
      ['SUCCESS', 1],
      ['INFO', 1],
      ['DANGER', 2],
      ['INFO', 1],
      ['INFO', 1],
    ]);
    expect(visible()[3].timeOut).toBe(HTTP_ERROR_TOAST_TIMEOUT_MS);
    expect(screen.queryByText('×1')).not.toBeInTheDocument();
  });

  it('answer the first toast\u2019s handle for a repeat, so dismissing it removes the one shown', () => {
    renderWithProviders(<ToastStack />);
    let first = 0;
    let second = 0;
    act(() => {
      first = toasts.info('Please wait')!.id;
      second = toasts.info('Please wait')!.id;
    });
    expect(second).toBe(first);
    act(() => toasts.dismiss(second));
    expect(visible()).toHaveLength(0);
  });
});

describe('the toast stack', () => {
  it('sits at the bottom left, clear of the header and of the right-aligned action rows', () => {
    renderWithProviders(<ToastStack />);
    act(() => void toasts.info('Hello'));
    const stack = screen.getByRole('status').parentElement!;
    const style = getComputedStyle(stack);
    expect(style.position).toBe('fixed');
    expect(style.left).toBe(`${TOAST_STACK_OFFSET}px`);
    expect(style.bottom).toBe(`${TOAST_STACK_OFFSET}px`);
    expect(style.right === '' || style.right === 'auto').toBe(true);
    expect(style.top === '' || style.top === 'auto').toBe(true);
  });

  it('shows a prompt\u2019s buttons under its message', () => {
    renderWithProviders(<ToastStack />);
    act(() => void toasts.prompt('Another user committed changes', { promptAcceptText: 'Reload Now' }));
    const prompt = screen.getByRole('alertdialog', { name: 'Another user committed changes' });
    expect(within(prompt).getByRole('button', { name: 'Reload Now' })).toBeInTheDocument();
    expect(within(prompt).getByRole('button', { name: 'No' })).toBeInTheDocument();
  });

  it('takes the focus on its safe answer; Escape answers no and gives the focus back to the asker', async () => {
    renderWithProviders(
      <>
        <button>Delete branch</button>
        <ToastStack />
      </>,
    );
    const asker = screen.getByRole('button', { name: 'Delete branch' });
    act(() => asker.focus());
    let answer: Promise<boolean> = Promise.resolve(true);
    act(() => {
      answer = toasts.prompt('Delete the branch?', { title: 'Delete Branch' });
    });
    const prompt = screen.getByRole('alertdialog', { name: 'Delete Branch' });
    expect(prompt).toHaveAccessibleDescription('Delete the branch?');
    expect(within(prompt).getByRole('button', { name: 'No' })).toHaveFocus();
    fireEvent.keyDown(within(prompt).getByRole('button', { name: 'No' }), { key: 'Escape' });
    await expect(answer).resolves.toBe(false);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await act(async () => {});
    expect(asker).toHaveFocus();
  });
});
