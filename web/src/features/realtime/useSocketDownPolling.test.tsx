import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setRealtimeClient, useRealtimeStore } from './realtimeStore';
import { FakeRealtime } from './testing';
import { useSocketDownPolling } from './useSocketDownPolling';

beforeEach(() => {
  vi.useFakeTimers();
  setRealtimeClient(new FakeRealtime());
});
afterEach(() => vi.useRealTimers());

const setStatus = (status: 'CONNECTED' | 'DISCONNECTED' | 'ERROR') => act(() => useRealtimeStore.setState({ status }));

describe('useSocketDownPolling', () => {
  it('runs every 10 s while the socket is down and stops on reconnect', () => {
    const fn = vi.fn();
    renderHook(() => useSocketDownPolling(fn, 10_000));
    vi.advanceTimersByTime(9_999);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(20_000);
    expect(fn).toHaveBeenCalledTimes(3);

    setStatus('CONNECTED');
    vi.advanceTimersByTime(60_000);
    expect(fn).toHaveBeenCalledTimes(3);

    setStatus('ERROR');
    vi.advanceTimersByTime(10_000);
    expect(fn).toHaveBeenCalledTimes(4);
  });

  it('does not poll while connected or disabled, and uses the latest callback', () => {
    setStatus('CONNECTED');
    const first = vi.fn();
    const second = vi.fn();
    const { rerender, unmount } = renderHook(({ fn, enabled }) => useSocketDownPolling(fn, 10_000, enabled), {
      initialProps: { fn: first, enabled: true },
    });
    vi.advanceTimersByTime(30_000);
    expect(first).not.toHaveBeenCalled();
    setStatus('DISCONNECTED');
    rerender({ fn: second, enabled: true });
    vi.advanceTimersByTime(10_000);
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
    rerender({ fn: second, enabled: false });
    vi.advanceTimersByTime(30_000);
    expect(second).toHaveBeenCalledTimes(1);
    rerender({ fn: second, enabled: true });
    unmount();
    vi.advanceTimersByTime(30_000);
    expect(second).toHaveBeenCalledTimes(1);
  });
});
