import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setSelectedBranch } from '../../core/selectionStore';
import { jsonResponse, mockFetch } from '../../test/helpers';
import { FileWatcherMenu } from './FileWatcherMenu';
import { RealtimeMount } from './RealtimeMount';
import { FakeRealtime, me, note, openPortal, otherUser, renderApp, setUp, tearDown } from './testing';

let fake: FakeRealtime;
let release: () => void;
beforeEach(() => {
  fake = setUp();
});
afterEach(tearDown);

const ownChange = (changes: Record<string, string>, branch = 'master') => ({
  user: me,
  aheadCount: 0,
  behindCount: 0,
  hasChanges: Object.keys(changes).length > 0,
  branch,
  domainName: 'Ops',
  portalName: 'Crew Portal',
  changes,
});

describe('FileWatcherMenu', () => {
  it('spins while LOADING, then counts the files changed in my workspace', async () => {
    const gate = new Promise<void>((resolve) => (release = resolve));
    const fetch = mockFetch({
      'GET api/v1/portal/1/3/local-changes': async () => {
        await gate;
        return jsonResponse({ branch: 'master', changes: { 'a.json': 'ADD' }, aheadCount: 0, behindCount: 0 });
      },
    });
    const view = (
      <>
        <RealtimeMount />
        <FileWatcherMenu />
      </>
    );
    renderApp(view);
    expect(screen.queryByRole('button', { name: /Changed files/ })).toBeNull(); // no portal open

    act(() => openPortal('master', 3));
    expect(screen.getByRole('button', { name: 'Changed files: loading' })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Watching files' })).toBeInTheDocument();
    await act(async () => release());
    expect(await screen.findByRole('button', { name: 'Changed files: 1' })).toBeInTheDocument();
    expect(fetch).toHaveBeenCalledTimes(1);

    // my own change event updates the count; another user's does not
    act(() => {
      fake.message(
        note(
          'portal-3',
          'WORKSPACE_LOCAL_CHANGES',
          ownChange({ 'a.json': 'ADD', 'b.json': 'MODIFY', 'c.json': 'DELETE' }),
        ),
      );
      fake.message(note('portal-3', 'WORKSPACE_LOCAL_CHANGES', { ...ownChange({}), user: otherUser }));
    });
    expect(screen.getByRole('button', { name: 'Changed files: 3' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Changed files: 3' }));
    const list = screen.getByRole('list', { name: 'Changed files' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    expect(within(list).getByText('b.json')).toBeInTheDocument();
  });

  it('goes back to LOADING when the branch changes and takes the first event as READY', async () => {
    mockFetch({
      'GET api/v1/portal/1/3/local-changes': () => new Promise<Response>(() => {}), // never answers
    });
    openPortal('master', 3);
    renderApp(
      <>
        <RealtimeMount />
        <FileWatcherMenu />
      </>,
    );
    expect(screen.getByRole('button', { name: 'Changed files: loading' })).toBeInTheDocument();
    act(() => fake.message(note('portal-3', 'WORKSPACE_LOCAL_CHANGES', ownChange({ 'x.json': 'ADD' }))));
    expect(screen.getByRole('button', { name: 'Changed files: 1' })).toBeInTheDocument();

    act(() => setSelectedBranch('feature/y'));
    expect(screen.getByRole('button', { name: 'Changed files: loading' })).toBeInTheDocument();
    // an event of the old branch does not count for the new one
    act(() => fake.message(note('portal-3', 'WORKSPACE_LOCAL_CHANGES', ownChange({ 'x.json': 'ADD' }, 'master'))));
    expect(screen.getByRole('button', { name: 'Changed files: loading' })).toBeInTheDocument();
    act(() => fake.message(note('portal-3', 'WORKSPACE_LOCAL_CHANGES', ownChange({}, 'feature/y'))));
    expect(screen.getByRole('button', { name: 'Changed files: 0' })).toBeInTheDocument();
  });
});
