import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, noContent } from '../../test/helpers';
import {
  renderApp,
  me,
  note,
  openPortal,
  otherUser,
  setUp,
  tearDown,
  thirdUser,
  type FakeRealtime,
} from '../realtime/testing';
import { receiveOtherUserChange } from '../realtime/workspaceStore';
import { OthersMark } from './OthersMark';
import { PresenceBar } from './PresenceBar';
import { liveEntries, receivePresence, resetPresenceStore, usePresenceStore } from './presenceStore';

const bob = { id: 21, userName: 'bob', firstName: 'Bob', lastName: 'Builder' };
const carl = { id: 22, userName: 'carl', firstName: 'Carl', lastName: '' };

const change = (user: typeof bob, changes: Record<string, 'ADD' | 'MODIFY' | 'DELETE'>, branch = 'master') => ({
  user,
  aheadCount: 0,
  behindCount: 0,
  hasChanges: true,
  branch,
  domainName: 'Ops',
  portalName: 'Crew Portal',
  changes,
});

let fake: FakeRealtime;

beforeEach(() => {
  fake = setUp();
  resetPresenceStore();
  openPortal('master', 3);
});
afterEach(() => {
  tearDown();
  resetPresenceStore();
});

function mockServer(presence: unknown[] = [], wsChanges: unknown[] = []) {
  return mockFetch({
    'GET api/v1/presence/1/3': () => jsonResponse(presence),
    'GET api/v1/portal/1/3/wsChanges/master': () => jsonResponse(wsChanges),
    'PUT api/v1/presence/1/3': () => noContent(),
  });
}

const bar = () => screen.findByRole('status', { name: 'Other people on this file' });

describe('PresenceBar', () => {
  it('names who has uncommitted changes to the file (wsChanges), then who edits it (a PRESENCE message)', async () => {
    mockServer(
      [{ user: me, path: 'content/menu.json', state: 'editing', since: '2024-01-01T00:00:00Z' }],
      [change(carl, { 'content/menu.json': 'MODIFY' }), change(bob, { 'content/other.json': 'ADD' })],
    );
    renderApp(<PresenceBar domain={1} portal={3} path="/content/menu.json" />);
    expect(await bar()).toHaveTextContent('Carl has uncommitted changes to this file');
    // My own entry is left out; Bob's changes are to another file.
    expect(screen.queryByText(/Ada Lovelace/)).not.toBeInTheDocument();
    expect(screen.queryByText(/Bob Builder/)).not.toBeInTheDocument();

    act(() =>
      fake.message(
        note('portal-3', 'PRESENCE', { portalId: 3, user: bob, path: 'content/menu.json', state: 'editing' }),
      ),
    );
    expect(await screen.findByText('Bob Builder is editing this file')).toBeInTheDocument();
    const lines = within(await bar())
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(lines).toEqual(['Bob Builder is editing this file', 'Carl has uncommitted changes to this file']);

    act(() =>
      fake.message(note('portal-3', 'PRESENCE', { portalId: 3, user: bob, path: 'content/menu.json', state: 'left' })),
    );
    await waitFor(() => expect(screen.queryByText('Bob Builder is editing this file')).not.toBeInTheDocument());
  });

  it('shows viewers from the presence list and live WORKSPACE_LOCAL_CHANGES entries', async () => {
    mockServer([{ user: otherUser, path: 'portal.json', state: 'viewing', since: '2024-01-01T00:00:00Z' }]);
    renderApp(<PresenceBar domain={1} portal={3} path="portal.json" />);
    expect(await screen.findByText('Grace Hopper is viewing this file')).toBeInTheDocument();
    act(() => receiveOtherUserChange(3, change(thirdUser, { 'portal.json': 'MODIFY' })));
    expect(await screen.findByText('Alan Turing has uncommitted changes to this file')).toBeInTheDocument();
    // Another file's or another portal's presence does not show here.
    act(() =>
      fake.message(note('portal-3', 'PRESENCE', { portalId: 3, user: bob, path: 'whitelist.json', state: 'editing' })),
    );
    act(() =>
      fake.message(note('portal-4', 'PRESENCE', { portalId: 4, user: bob, path: 'portal.json', state: 'editing' })),
    );
    expect(screen.queryByText(/Bob Builder/)).not.toBeInTheDocument();
  });

  it('shows nothing when nobody else is on the file', async () => {
    const fetch = mockServer([], [change(me as unknown as typeof bob, { 'portal.json': 'MODIFY' })]);
    renderApp(<PresenceBar domain={1} portal={3} path="portal.json" />);
    await waitFor(() => expect(fetch.mock.calls.some(([u]) => String(u).includes('wsChanges'))).toBe(true));
    expect(screen.queryByRole('status', { name: 'Other people on this file' })).not.toBeInTheDocument();
  });
});

describe('OthersMark', () => {
  it('names who changes a file in its label; viewers alone give no mark', () => {
    const { rerender } = renderApp(
      <OthersMark
        activity={[
          { user: bob, kind: 'editing' },
          { user: carl, kind: 'uncommitted' },
          { user: otherUser, kind: 'viewing' },
        ]}
      />,
    );
    expect(
      screen.getByRole('img', {
        name: 'Other users are changing this file: Bob Builder (editing), Carl (uncommitted changes)',
      }),
    ).toBeInTheDocument();
    rerender(<OthersMark activity={[{ user: otherUser, kind: 'viewing' }]} />);
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });
});

describe('presence store', () => {
  it('drops entries not heard of for 60 s', () => {
    receivePresence(3, { portalId: 3, user: bob, path: '/pages/home.html', state: 'editing' }, 1_000);
    receivePresence(3, { portalId: 3, user: carl, path: 'pages/home.html', state: 'viewing' }, 30_000);
    const entries = usePresenceStore.getState().byPortal['3'];
    expect(liveEntries(entries, 60_999).map((e) => [e.user.userName, e.path])).toEqual([
      ['bob', 'pages/home.html'],
      ['carl', 'pages/home.html'],
    ]);
    expect(liveEntries(entries, 61_000).map((e) => e.user.userName)).toEqual(['carl']);
  });
});
