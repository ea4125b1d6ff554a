import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, queryOf } from '../../../test/helpers';
import { renderWithProviders, signIn } from '../../../test/render';
import { RecentCommits } from './RecentCommits';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const SHA = 'abcdef0123456789';

describe('recent commits', () => {
  it("reviews a commit's changes: its files, then each file's diff (commit=SHA)", async () => {
    const fetch = mockFetch({
      'GET api/v1/portal/1/2/commits': () =>
        jsonResponse([
          {
            commitId: SHA,
            author: 'Bob',
            email: 'bob@example.com',
            time: new Date(2026, 2, 5, 9, 7).toISOString(),
            message: 'Menu',
            files: [{ path: 'data/menu.json', change: 'MODIFY' }],
            filesTotal: 1,
          },
        ]),
      'GET api/v1/workspace-review/1/2/files': () =>
        jsonResponse({ files: { 'data/menu.json': 'MODIFY', 'css/site.css': 'MODIFY' } }),
      'GET api/v1/workspace-review/1/2': ({ url }) => {
        const path = new URLSearchParams(url.split('?')[1]).get('path');
        const json = path === 'data/menu.json';
        return jsonResponse({
          path,
          change: 'MODIFY',
          kind: json ? 'json' : 'text',
          image: false,
          page: false,
          diff: {
            kind: json ? 'json' : 'text',
            binary: false,
            truncated: false,
            fields: json ? [{ pointer: '/title', path: 'title', op: 'change', old: '"A"', new: '"B"' }] : [],
            hunks: json
              ? []
              : [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: [{ op: '+', text: 'a {}' }] }],
          },
          before: null,
          after: null,
        });
      },
    });
    signIn();
    renderWithProviders(<RecentCommits d={1} p={2} branch="master" canWrite={false} />);
    const table = await screen.findByRole('table', { name: 'Recent commits table' });
    await userEvent.click(within(table).getByRole('button', { name: 'Review changes of abcdef0123' }));
    const dialog = await screen.findByRole('dialog', { name: 'Changes of commit abcdef0123' });
    const files = await within(dialog).findByRole('list', { name: 'Changed files' });
    expect(
      within(files)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['css/site.cssMODIFY', 'data/menu.jsonMODIFY']);
    expect(await within(dialog).findByRole('region', { name: 'Line changes of css/site.css' })).toBeInTheDocument();
    await userEvent.click(within(files).getByRole('button', { name: /data\/menu\.json/ }));
    expect(await within(dialog).findByRole('table', { name: 'Field changes of data/menu.json' })).toHaveTextContent(
      '"B"',
    );
    expect(queryOf(fetch, 'GET api/v1/workspace-review/1/2/files').get('commit')).toBe(SHA);
    await waitFor(() => expect(queryOf(fetch, 'GET api/v1/workspace-review/1/2').get('commit')).toBe(SHA));
  });
});
