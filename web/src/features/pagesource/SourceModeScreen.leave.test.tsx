/** Source mode's leave prompt and the unbalanced-markup warning before a save. */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bodyOf, jsonResponse, mockFetch } from '../../test/helpers';
import { SOURCE_MESSAGES as MSG } from './messages';
import { BASE, BATCH, editor, GET_HOME, pageAnswer, renderSourceMode as render, resetSourceMode } from './testing';

vi.mock('../editors/AceField', () => import('../../test/aceTextarea'));

afterEach(() => {
  vi.unstubAllGlobals();
  resetSourceMode();
});

describe('source mode: leaving and unbalanced markup', () => {
  it('switches to designer mode at once when nothing changed', async () => {
    mockFetch({ [GET_HOME]: () => jsonResponse(pageAnswer('home', '<h1>Home</h1>', 'v1')) });
    const { user, router } = render();
    await editor();
    await user.click(screen.getByRole('button', { name: 'Designer mode' }));
    expect(await screen.findByRole('heading', { name: 'Designer of the page' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`${BASE}/home/designer-mode`);
  });

  it('asks before leaving with changes: Continue leaves without saving', async () => {
    const fetch = mockFetch({ [GET_HOME]: () => jsonResponse(pageAnswer('home', '<h1>Home</h1>', 'v1')) });
    const { user } = render();
    await user.type(await editor(), '!');
    await user.click(screen.getByRole('button', { name: 'Designer mode' }));
    const prompt = await screen.findByRole('dialog', { name: MSG.leaveTitle });
    expect(within(prompt).getByText(MSG.leaveQuestion)).toBeInTheDocument();
    await user.click(within(prompt).getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Designer of the page' })).toBeInTheDocument();
    expect(fetch.mock.calls.some(([u]) => String(u).includes('batch'))).toBe(false);
  });

  it('asks before leaving with changes: Save saves, then leaves', async () => {
    const fetch = mockFetch({
      [GET_HOME]: () => jsonResponse(pageAnswer('home', '<h1>Home</h1>', 'v1')),
      [BATCH]: () => jsonResponse([{ file: 'home', path: 'pages/home.html', version: 'v2' }]),
    });
    const { user } = render();
    await user.type(await editor(), '!');
    await user.click(screen.getByRole('button', { name: 'Designer mode' }));
    const prompt = await screen.findByRole('dialog', { name: MSG.leaveTitle });
    await user.click(within(prompt).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { name: 'Designer of the page' })).toBeInTheDocument();
    expect(bodyOf(fetch, BATCH)).toEqual([{ file: 'home', data: '<h1>Home</h1>!', type: 'page', version: 'v1' }]);
  });

  it('warns before saving unbalanced markup: Keep editing writes nothing, Save anyway writes it', async () => {
    const fetch = mockFetch({
      [GET_HOME]: () => jsonResponse(pageAnswer('home', '<h1>Home</h1>', 'v1')),
      [BATCH]: () => jsonResponse([{ file: 'home', path: 'pages/home.html', version: 'v2' }]),
    });
    const { user } = render();
    await user.type(await editor(), '<div>');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    let warning = await screen.findByRole('dialog', { name: MSG.unbalancedTitle });
    expect(
      within(warning).getByText(MSG.unbalancedText({ kind: 'unclosed', tag: 'div', line: 1 })),
    ).toBeInTheDocument();
    await user.click(within(warning).getByRole('button', { name: MSG.keepEditing }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetch.mock.calls.some(([u]) => String(u).includes('batch'))).toBe(false);
    expect(await editor()).toHaveValue('<h1>Home</h1><div>');

    await user.click(screen.getByRole('button', { name: 'Save' }));
    warning = await screen.findByRole('dialog', { name: MSG.unbalancedTitle });
    await user.click(within(warning).getByRole('button', { name: MSG.saveAnyway }));
    expect(await screen.findByText(MSG.saved)).toBeInTheDocument();
    expect(bodyOf(fetch, BATCH)).toEqual([{ file: 'home', data: '<h1>Home</h1><div>', type: 'page', version: 'v1' }]);
  });

  it('asks before leaving with unbalanced markup: Keep editing stays on the page', async () => {
    const fetch = mockFetch({ [GET_HOME]: () => jsonResponse(pageAnswer('home', '<h1>Home</h1>', 'v1')) });
    const { user, router } = render();
    await user.type(await editor(), '</p>');
    await user.click(screen.getByRole('button', { name: 'Designer mode' }));
    const prompt = await screen.findByRole('dialog', { name: MSG.leaveTitle });
    await user.click(within(prompt).getByRole('button', { name: 'Save' }));
    const warning = await screen.findByRole('dialog', { name: MSG.unbalancedTitle });
    await user.click(within(warning).getByRole('button', { name: MSG.keepEditing }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe(`${BASE}/home/source-mode`);
    expect(fetch.mock.calls.some(([u]) => String(u).includes('batch'))).toBe(false);
  });
});
