import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSettledValue } from './useSettledValue';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('useSettledValue', () => {
  it('follows the value only once it has been still for the delay', () => {
    const { result, rerender } = renderHook(({ v }) => useSettledValue(v, 150), { initialProps: { v: 1 } });
    expect(result.current).toBe(1);
    rerender({ v: 2 });
    act(() => vi.advanceTimersByTime(100));
    rerender({ v: 3 }); // a burst: the timer starts again
    act(() => vi.advanceTimersByTime(100));
    expect(result.current).toBe(1);
    act(() => vi.advanceTimersByTime(50));
    expect(result.current).toBe(3);
  });
});
