import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PRESENCE_HEARTBEAT_MS } from '../../api/presence';
import { mockFetch, noContent } from '../../test/helpers';
import { signIn } from '../../test/render';
import { usePresence } from './usePresence';

const PRESENCE = 'api/v1/presence/1/2';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The presence calls sent: method, state or path. */
function calls(fetch: { mock: { calls: unknown[][] } }) {
  return fetch.mock.calls
    .filter(([url]) => String(url).split('?')[0] === PRESENCE)
    .map(([url, init]) => {
      const { method, body, keepalive } = init as RequestInit;
      if (method === 'DELETE')
        return `DELETE ${new URL(String(url), 'http://x/').searchParams.get('path')}${keepalive ? ' keepalive' : ''}`;
      const sent = JSON.parse(String(body)) as { path: string; state: string };
      return `${method} ${sent.path} ${sent.state}`;
    });
}

function setUp() {
  signIn();
  return mockFetch({ [`PUT ${PRESENCE}`]: () => noContent(), [`DELETE ${PRESENCE}`]: () => noContent() });
}

describe('usePresence', () => {
  it('PUTs viewing on open, editing once on the first change, and DELETEs on close', async () => {
    const fetch = setUp();
    const { result, unmount } = renderHook(() => usePresence(1, 2, '/content/menu.json'));
    await waitFor(() => expect(calls(fetch)).toEqual(['PUT content/menu.json viewing']));
    act(() => {
      result.current.markEditing();
      result.current.markEditing();
    });
    await waitFor(() => expect(calls(fetch)).toHaveLength(2));
    act(() => result.current.markEditing());
    unmount();
    await waitFor(() => expect(calls(fetch)).toHaveLength(3));
    expect(calls(fetch)).toEqual([
      'PUT content/menu.json viewing',
      'PUT content/menu.json editing',
      'DELETE content/menu.json',
    ]);
  });

  it('says it is still there every 20 s with its current state', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetch = setUp();
    const { result, unmount } = renderHook(() => usePresence(1, 2, 'translations/en_GB.json'));
    await waitFor(() => expect(calls(fetch)).toHaveLength(1));
    act(() => result.current.markEditing());
    await waitFor(() => expect(calls(fetch)).toHaveLength(2));
    await act(() => vi.advanceTimersByTimeAsync(PRESENCE_HEARTBEAT_MS));
    await waitFor(() => expect(calls(fetch)).toHaveLength(3));
    expect(calls(fetch)[2]).toBe('PUT translations/en_GB.json editing');
    unmount();
  });

  it('DELETEs at once (keepalive) when the page goes away, and sends nothing without a path', async () => {
    const fetch = setUp();
    const { unmount } = renderHook(() => usePresence(1, 2, 'whitelist.json'));
    await waitFor(() => expect(calls(fetch)).toHaveLength(1));
    act(() => void window.dispatchEvent(new Event('pagehide')));
    await waitFor(() => expect(calls(fetch)).toContain('DELETE whitelist.json keepalive'));
    unmount();

    const none = setUp();
    const idle = renderHook(() => usePresence(1, 2, null));
    idle.unmount();
    await Promise.resolve();
    expect(calls(none)).toEqual([]);
  });
});
