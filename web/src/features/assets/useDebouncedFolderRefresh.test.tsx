import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assetKeys } from '../../api/assets';
import { createQueryClient } from '../../core/queryClient';
import { useDebouncedFolderRefresh } from './useDebouncedFolderRefresh';

afterEach(() => vi.useRealTimers());

describe('useDebouncedFolderRefresh', () => {
  it('refreshes the folder once, 5000 ms after the last upload', () => {
    vi.useFakeTimers();
    const client = createQueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries').mockResolvedValue();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useDebouncedFolderRefresh('1', '2', '/images'), { wrapper });
    act(() => result.current());
    act(() => vi.advanceTimersByTime(4000));
    act(() => result.current());
    act(() => vi.advanceTimersByTime(4999));
    expect(invalidate).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: assetKeys.folder('1', '2', '/images') });
  });
});
