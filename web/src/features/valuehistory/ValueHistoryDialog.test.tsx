import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useCommitReviewRequest } from '../../lib/commitReview';
import { bodyOf, jsonResponse, mockFetch, queryOf } from '../../test/helpers';
import { renderWithProviders, signIn } from '../../test/render';
import { BlameDialog } from './BlameDialog';
import { ValueHistoryDialog } from './ValueHistoryDialog';

const HISTORY = 'GET api/v1/history/1/1/translation';
const RESTORE = 'POST api/v1/history/1/1/translation/restore';

const change = (over: Record<string, unknown>) => ({
  commit: 'c1c1c1c1c1',
  uncommitted: false,
  author: 'Ann Author',
  email: 'ann@example.com',
  time: '2025-03-01T10:00:00Z',
  message: 'Ann retitles',
  path: 'translations/en_GB.json',
  old: null,
  new: '"x"',
  ...over,
});

let shown: ReturnType<typeof useCommitReviewRequest> = null;
function ReviewSpy() {
  shown = useCommitReviewRequest();
  return null;
}

afterEach(() => {
  vi.unstubAllGlobals();
  shown = null;
});

describe('ValueHistoryDialog', () => {
  it('lists the changes newest first, languages side by side; restores one language; shows a commit', async () => {
    signIn();
    const fetch = mockFetch({
      [HISTORY]: () =>
        jsonResponse({
          key: 'TXT_T',
          path: '',
          entries: [
            change({
              uncommitted: true,
              commit: '',
              time: null,
              author: 'Bob Builder',
              message: '',
              lang: 'en_GB',
              old: '"Bob"',
              new: '"Mine"',
            }),
            change({
              commit: 'b2b2b2b2b2',
              author: 'Bob Builder',
              message: 'Bob retitles',
              lang: 'en_GB',
              old: '"Ann"',
              new: '"Bob"',
            }),
            change({ lang: 'en_GB', old: '"Start"', new: '"Ann"' }),
            change({ lang: 'ar_SA', old: null, new: '"عنوان"' }),
          ],
        }),
      [RESTORE]: () => jsonResponse({ path: 'translations/en_GB.json', version: 'v2', changed: true, value: '"Ann"' }),
    });
    renderWithProviders(
      <>
        <ValueHistoryDialog
          open
          onClose={() => {}}
          d={1}
          p={1}
          subject={{ kind: 'translation', key: 'TXT_T' }}
          what="txt_t"
          canRestore
        />
        <ReviewSpy />
      </>,
    );
    const list = await screen.findByRole('list', { name: 'Changes of this value, newest first' });
    expect(queryOf(fetch, HISTORY).get('key')).toBe('TXT_T');
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('Uncommitted (your work)');
    expect(within(items[0]).queryByRole('button', { name: /Restore/ })).toBeNull();
    expect(items[1]).toHaveTextContent(/Bob Builder.*Bob retitles/);
    expect(items[2]).toHaveTextContent(/Ann Author.*Ann retitles.*en_GB.*Start.*Ann.*ar_SA.*\(not set\).*عنوان/);

    const user = userEvent.setup();
    await user.click(within(items[2]).getByRole('button', { name: 'Restore en_GB: Ann retitles' }));
    const confirm = await screen.findByRole('dialog', { name: 'Restore this value?' });
    expect(confirm).toHaveTextContent('"Ann"');
    await user.click(within(confirm).getByRole('button', { name: 'Restore this value' }));
    await waitFor(() => expect(bodyOf(fetch, RESTORE)).toEqual({ key: 'TXT_T', lang: 'en_GB', commit: 'c1c1c1c1c1' }));

    // The history is read again after the restore.
    const again = within(await screen.findByRole('list', { name: 'Changes of this value, newest first' })).getAllByRole(
      'listitem',
    );
    await user.click(within(again[1]).getByRole('button', { name: /^Show commit b2b2b2b2/ }));
    await waitFor(() => expect(shown).toMatchObject({ d: 1, p: 1, commit: 'b2b2b2b2b2' }));
  });

  it('says so when no commit changed the value', async () => {
    signIn();
    mockFetch({ 'GET api/v1/history/1/1/file': () => jsonResponse({ path: 'a.json', pointer: '/x', entries: [] }) });
    renderWithProviders(
      <ValueHistoryDialog
        open
        onClose={() => {}}
        d={1}
        p={1}
        subject={{ kind: 'file', path: 'a.json', pointer: '/x' }}
        what="x"
      />,
    );
    expect(await screen.findByText('No commit of this branch changed this value.')).toBeInTheDocument();
  });
});

describe('BlameDialog', () => {
  it('sorts and filters by author', async () => {
    signIn();
    const row = (pointer: string, author: string, time: string) => ({
      pointer,
      path: pointer.slice(1),
      value: `"${pointer}"`,
      commit: 'c1c1c1c1c1',
      uncommitted: false,
      author,
      email: '',
      time,
      message: `by ${author}`,
    });
    mockFetch({
      'GET api/v1/history/1/1/translation/blame': () =>
        jsonResponse({
          path: 'translations/en_GB.json',
          rows: [row('/A', 'Ann', '2025-01-01T00:00:00Z'), row('/B', 'Bob', '2025-02-01T00:00:00Z')],
        }),
    });
    renderWithProviders(
      <BlameDialog open onClose={() => {}} d={1} p={1} of={{ kind: 'translation', lang: 'en_GB' }} name="English" />,
    );
    const table = await screen.findByRole('table', { name: 'Blame of English' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    // Newest first by default.
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('Bob');
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: /Author/ }));
    await user.click(await screen.findByRole('option', { name: 'Ann' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('Ann');
  });
});
