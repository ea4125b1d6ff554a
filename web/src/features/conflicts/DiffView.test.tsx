import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FileReview } from '../../api/conflicts';
import { mockFetch, queryOf } from '../../test/helpers';
import { renderWithProviders, signIn } from '../../test/render';
import { DiffView } from './DiffView';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const review = (over: Partial<FileReview>): FileReview => ({
  path: 'data/menu.json',
  change: 'MODIFY',
  kind: 'json',
  image: false,
  page: false,
  tooLarge: false,
  diff: { kind: 'json', fields: [], hunks: [], binary: false, truncated: false },
  before: null,
  after: null,
  ...over,
});

function show(r: FileReview, subject = {}) {
  signIn();
  return renderWithProviders(<DiffView d={1} p={2} review={r} subject={subject} />);
}

describe('DiffView', () => {
  it("says when the file's mode changed, also when its text did not", () => {
    show(
      review({
        path: 'docs/run.sh',
        kind: 'text',
        diff: { kind: 'text', fields: [], hunks: [], binary: false, truncated: false },
        modeChange: { old: '100644', new: '100755' },
      }),
    );
    const file = screen.getByRole('region', { name: /docs\/run\.sh/ });
    expect(within(file).getByText('Mode changed from 100644 to 100755')).toBeInTheDocument();
  });

  it('says nothing of the mode when it did not change', () => {
    show(review({}));
    expect(screen.queryByText(/Mode changed/)).not.toBeInTheDocument();
  });

  it('shows a JSON file as a table of field changes with the change as a chip', () => {
    show(
      review({
        diff: {
          kind: 'json',
          binary: false,
          truncated: true,
          hunks: [],
          fields: [
            { pointer: '/menu/2/title', path: 'menu › Lunch › title', op: 'change', old: '"Lunch"', new: '"Midday"' },
            { pointer: '/menu/3', path: 'menu › 3', op: 'add', old: null, new: '{"title":"Tea"}' },
          ],
        },
      }),
    );
    const table = screen.getByRole('table', { name: 'Field changes of data/menu.json' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Path', 'Change', 'Old', 'New']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]).getByRole('rowheader')).toHaveTextContent('menu › Lunch › title');
    expect(rows[0]).toHaveTextContent('Changed');
    expect(rows[0]).toHaveTextContent('"Lunch"');
    expect(rows[0]).toHaveTextContent('"Midday"');
    expect(rows[1]).toHaveTextContent('Added');
    expect(rows[1]).toHaveTextContent('None');
    expect(rows[1]).toHaveTextContent('"title": "Tea"');
    expect(screen.getByText('The diff is too long and was cut short.')).toBeInTheDocument();
  });

  it('calls a translation field a Key', () => {
    show(
      review({
        path: 'translations/en_GB.json',
        kind: 'translation',
        diff: {
          kind: 'translation',
          binary: false,
          truncated: false,
          hunks: [],
          fields: [{ pointer: '/TXT_HELLO', path: 'TXT_HELLO', op: 'remove', old: '"Hello"', new: null }],
        },
      }),
    );
    const table = screen.getByRole('table', { name: 'Key changes of translations/en_GB.json' });
    expect(within(table).getAllByRole('columnheader')[0]).toHaveTextContent('Key');
    expect(table).toHaveTextContent('Removed');
  });

  it('shows text as hunks of added and removed lines', () => {
    show(
      review({
        path: 'css/site.css',
        kind: 'text',
        diff: {
          kind: 'text',
          binary: false,
          truncated: false,
          fields: [],
          hunks: [
            {
              oldStart: 3,
              oldLines: 2,
              newStart: 3,
              newLines: 2,
              lines: [
                { op: ' ', text: 'body {' },
                { op: '-', text: '  color: red;' },
                { op: '+', text: '  color: blue;' },
              ],
            },
          ],
        },
      }),
    );
    const region = screen.getByRole('region', { name: 'Line changes of css/site.css' });
    expect(region).toHaveTextContent('@@ -3,2 +3,2 @@');
    const lines = [...region.querySelectorAll('[data-op]')];
    expect(lines.map((l) => [l.getAttribute('data-op'), l.textContent])).toEqual([
      [' ', ' body {'],
      ['-', '-removed:   color: red;'],
      ['+', '+added:   color: blue;'],
    ]);
  });

  it('renders a page before and after in sandboxed frames, with no script surviving', () => {
    show(
      review({
        path: 'pages/home.html',
        kind: 'text',
        page: true,
        diff: { kind: 'text', binary: false, truncated: false, fields: [], hunks: [] },
        before: '<h1>Old</h1>',
        after:
          '<h1>New</h1><script>alert(1)</script><a href="javascript:alert(2)">x</a><img src="a.png" onerror="alert(3)"><iframe src="https://evil.example"></iframe>',
      }),
    );
    const before = screen.getByTitle('Before (rendered)') as HTMLIFrameElement;
    const after = screen.getByTitle('After (rendered)') as HTMLIFrameElement;
    for (const frame of [before, after]) {
      expect(frame.tagName).toBe('IFRAME');
      expect(frame.getAttribute('sandbox')).toBe('');
    }
    expect(before.getAttribute('srcdoc')).toContain('<h1>Old</h1>');
    const doc = after.getAttribute('srcdoc') ?? '';
    expect(doc).toContain('<h1>New</h1>');
    expect(doc).not.toMatch(/<script|javascript:|onerror|<iframe/i);
  });

  it('shows an added page with no before side', () => {
    show(
      review({
        path: 'pages/new.html',
        change: 'ADD',
        kind: 'text',
        page: true,
        diff: { kind: 'text', binary: false, truncated: false, fields: [], hunks: [] },
        before: null,
        after: '<p>Fresh</p>',
      }),
    );
    expect(screen.queryByTitle('Before (rendered)')).toBeNull();
    expect(screen.getByTitle('After (rendered)')).toBeInTheDocument();
  });

  it('shows an image before and after from blobs as object URLs, revoked on unmount', async () => {
    const fetch = mockFetch({
      'GET api/v1/workspace-review/1/2/raw': () =>
        new Response(new Blob(['png'], { type: 'image/png' }), { headers: { 'Content-Type': 'image/png' } }),
    });
    let n = 0;
    const created = vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:test/${++n}`);
    const revoked = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const { unmount } = show(
      review({
        path: 'images/logo.png',
        kind: 'binary',
        image: true,
        diff: { kind: 'binary', binary: true, truncated: false, fields: [], hunks: [] },
      }),
      { commit: 'abc' },
    );
    const before = await screen.findByRole('img', { name: 'images/logo.png before' });
    const after = await screen.findByRole('img', { name: 'images/logo.png after' });
    expect([before.getAttribute('src'), after.getAttribute('src')].sort()).toEqual(['blob:test/1', 'blob:test/2']);
    expect(created).toHaveBeenCalledTimes(2);
    const sides = fetch.mock.calls.map(([url]) => new URLSearchParams(String(url).split('?')[1]));
    expect(sides.map((q) => q.get('side')).sort()).toEqual(['after', 'before']);
    expect(queryOf(fetch, 'GET api/v1/workspace-review/1/2/raw').get('commit')).toBe('abc');
    unmount();
    await waitFor(() => expect(revoked.mock.calls.map(([u]) => u).sort()).toEqual(['blob:test/1', 'blob:test/2']));
  });
});
