import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../core/queryClient';
import { mockFetch } from '../../test/helpers';
import { signIn } from '../../test/render';
import { savedResponse } from './testUtils';
import { useFileSave } from './useFileSave';

afterEach(() => vi.unstubAllGlobals());

describe('useFileSave', () => {
  it('sends one save when asked twice before it answers (a double click)', async () => {
    signIn();
    const fetch = mockFetch({ 'POST api/v1/assets/1/2/src/css/site.css': () => savedResponse('/css/site.css', 'v2') });
    const client = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useFileSave(1, 2, '/css/site.css', vi.fn()), { wrapper });
    let answers: unknown[] = [];
    const base = { text: 'old', version: 'v1' };
    await act(async () => {
      // Both calls in one tick: the second sees the same render as the first.
      answers = await Promise.all([result.current.save('a', base), result.current.save('a', base)]);
    });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(answers.filter(Boolean)).toHaveLength(1);
    expect(result.current.conflict).toBe(false);
  });
});
