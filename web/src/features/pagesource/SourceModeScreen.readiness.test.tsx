/** Source mode's readiness findings (issue 29 item 2): Ace's gutter, the list, and ?line=n. */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, readinessAnswer } from '../../test/helpers';
import { editor, GET_HOME, pageAnswer, renderSourceMode, resetSourceMode } from './testing';

vi.mock('../editors/AceField', () => import('../../test/aceTextarea'));

afterEach(() => {
  vi.unstubAllGlobals();
  resetSourceMode();
});

const html = '<h1>Home</h1>\n<p>\n<img src="a.png">\n</p>\n<a href="#/gone">x</a>';

function routes() {
  mockFetch({
    [GET_HOME]: () => jsonResponse(pageAnswer('home', html, 'v1')),
    'GET api/v1/readiness/1/2': () =>
      readinessAnswer([
        {
          rule: 'page.img-alt',
          path: 'pages/home.html',
          line: 3,
          severity: 'warning',
          message: 'An image without alt',
        },
        { rule: 'link.page-missing', path: 'pages/home.html', line: 5, message: "No page 'gone'" },
        { rule: 'asset.missing', path: 'pages/news.html', line: 1, message: 'Another page' },
      ]),
  });
}

describe('Source mode readiness', () => {
  it("marks the page's findings in the gutter and lists them; a line link goes to it", async () => {
    routes();
    const { user } = renderSourceMode();
    const source = await editor();
    await waitFor(() =>
      expect(source).toHaveAttribute('data-annotations', "3:warning:An image without alt|5:error:No page 'gone'"),
    );
    const list = screen.getByTestId('readiness-findings');
    expect(list).toHaveTextContent('Readiness: 1 error, 1 warning');
    expect(list).not.toHaveTextContent('Another page');
    expect(source).not.toHaveAttribute('data-goto-line');
    await user.click(within(list).getByRole('button', { name: 'Line 5' }));
    expect(source).toHaveAttribute('data-goto-line', '5');
    expect(source).toHaveFocus();
  });

  it('arrives at ?line=n: the editor at that line, focused', async () => {
    routes();
    renderSourceMode('home', undefined, [], '?line=3');
    const source = await editor();
    expect(source).toHaveAttribute('data-goto-line', '3');
    await waitFor(() => expect(source).toHaveFocus());
  });
});
