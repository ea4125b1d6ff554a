import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { useToastStore } from '../../core/toastService';
import { bodyOf, errorResponse, jsonResponse, mockFetch, sampleUser } from '../../test/helpers';
import { renderScreen } from '../../test/render';
import { WHITELIST_MESSAGES as MSG } from './messages';
import { isDirty, newUrlError, reapply } from './model';
import WhitelistScreen from './WhitelistScreen';

afterEach(() => {
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
});

const pattern = '/domain/:domain/portal/:portal/branch/:branch/:language/whitelist';
const B = 'api/v1/whitelist/1/2';
const CHECK = {
  urls: [
    { url: 'https://cdn.example.com/lib/a.js', allowed: false, usedIn: [{ path: 'pages/home.html', line: 3 }] },
    {
      url: 'https://example.org/handbook',
      allowed: true,
      usedIn: [
        { path: 'pages/about.html', line: 5 },
        { path: 'translations/en_GB.json', line: 6 },
      ],
    },
  ],
  notAllowed: 1,
  scanned: 12,
};

function routes(extra: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    [`GET ${B}/get-whitelist`]: () => jsonResponse({ whitelist: [{ url: 'https://example.org' }], version: 'v1' }),
    [`PUT ${B}/save-whitelist`]: ({ init }) => {
      const body = JSON.parse(String(init.body)) as { whitelist: { url: string }[] };
      return jsonResponse({ whitelist: body.whitelist, version: 'v2' });
    },
    [`GET ${B}/check-portal`]: () => jsonResponse(CHECK),
    ...extra,
  });
}

type PortalShape = {
  supportLevel?: 'FULL' | 'LIMITED';
  engineType?: 'PORTAL_ENGINE' | 'UNIVERSAL';
  scope?: 'full' | 'captive';
};

function render({
  user,
  permissions = [],
  portal = { supportLevel: 'FULL', engineType: 'PORTAL_ENGINE', scope: 'full' },
}: { user?: typeof sampleUser; permissions?: string[]; portal?: PortalShape } = {}) {
  useSelectionStore.setState({ portal: { id: 2, name: 'Crew Portal', ...portal }, branch: 'master', permissions });
  const utils = renderScreen(WhitelistScreen, pattern, '/domain/1/portal/2/branch/master/en_GB/whitelist', user);
  return { ...utils, user: userEvent.setup() };
}

const member = { ...sampleUser, admin: false };
const toastTexts = () => useToastStore.getState().toasts.map((t) => t.title ?? t.message);
const saveButton = () => screen.getByRole('button', { name: 'Save' });
const entries = () => screen.findByRole('table', { name: 'Whitelist' });

describe('Whitelist screen', () => {
  it('lists, adds with the URL rule, removes and saves with the version read', async () => {
    const fetch = routes();
    const { user } = render();
    expect(await screen.findByRole('heading', { level: 1, name: 'Whitelist' })).toBeInTheDocument();
    expect(await within(await entries()).findByText('https://example.org')).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();

    const field = screen.getByRole('textbox', { name: 'URL' });
    await user.click(field);
    await user.paste('ftp://bad.example.com');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText(MSG.invalidUrl)).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();

    await user.clear(field);
    await user.click(field);
    await user.paste('  https://cdn.example.com  ');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(within(await entries()).getByText('https://cdn.example.com')).toBeInTheDocument();
    expect(field).toHaveValue('');

    await user.click(field);
    await user.paste('https://cdn.example.com');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText(MSG.duplicate)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove https://example.org' }));
    expect(within(await entries()).queryByText('https://example.org')).not.toBeInTheDocument();
    expect(saveButton()).toBeEnabled();
    await user.click(saveButton());
    await waitFor(() => expect(toastTexts()).toContain(MSG.saved));
    expect(bodyOf(fetch, `PUT ${B}/save-whitelist`)).toEqual({
      whitelist: [{ url: 'https://cdn.example.com' }],
      baseVersion: 'v1',
    });
    expect(saveButton()).toBeDisabled();
  });

  it('checks the portal and adds the origin of a URL that is not allowed', async () => {
    const fetch = routes();
    const { user } = render();
    await entries();
    expect(screen.getByText(MSG.checkIdle)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Check portal' }));
    const table = await screen.findByRole('table', { name: 'External URLs' });
    expect(await screen.findByRole('status')).toHaveTextContent(MSG.summary(2, 12, 1));
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]).getByText(MSG.notAllowed)).toBeInTheDocument();
    expect(within(rows[0]).getByText('pages/home.html:3')).toBeInTheDocument();
    expect(within(rows[1]).getByText(MSG.allowed)).toBeInTheDocument();
    expect(within(rows[1]).getByText('translations/en_GB.json:6')).toBeInTheDocument();
    expect(within(rows[1]).queryByRole('button')).not.toBeInTheDocument();

    await user.click(within(rows[0]).getByRole('button', { name: 'Add to whitelist: https://cdn.example.com' }));
    expect(within(await entries()).getByText('https://cdn.example.com')).toBeInTheDocument();
    expect(within(rows[0]).getByRole('button', { name: 'Added: https://cdn.example.com' })).toBeDisabled();
    expect(screen.getByText(MSG.unsavedCheck)).toBeInTheDocument();

    await user.click(saveButton());
    await waitFor(() => expect(toastTexts()).toContain(MSG.saved));
    // The check follows the save.
    await waitFor(() =>
      expect(fetch.mock.calls.filter(([url]) => String(url).includes('check-portal')).length).toBe(2),
    );
  });

  it('shows the conflict dialog on a stale save and reapplies the edit', async () => {
    let version = 'v1';
    let list = [{ url: 'https://example.org' }];
    const fetch = routes({
      [`GET ${B}/get-whitelist`]: () => jsonResponse({ whitelist: list, version }),
      [`PUT ${B}/save-whitelist`]: ({ init }) => {
        const body = JSON.parse(String(init.body)) as { baseVersion: string; whitelist: { url: string }[] };
        if (body.baseVersion !== version)
          return errorResponse(409, {
            errorCode: 'FILE_CHANGED',
            data: { path: 'whitelist.json', currentVersion: version },
          });
        version = 'v3';
        return jsonResponse({ whitelist: body.whitelist, version });
      },
    });
    const { user } = render();
    await within(await entries()).findByText('https://example.org');
    // Someone else saved meanwhile.
    version = 'v2';
    list = [{ url: 'https://example.org' }, { url: 'https://other.example.net' }];
    await user.click(screen.getByRole('textbox', { name: 'URL' }));
    await user.paste('https://mine.example.com');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await user.click(saveButton());
    const dialog = await screen.findByRole('dialog', { name: 'The file changed' });
    await user.click(within(dialog).getByRole('button', { name: 'Reload and reapply my edit' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const table = await entries();
    expect(within(table).getByText('https://other.example.net')).toBeInTheDocument();
    expect(within(table).getByText('https://mine.example.com')).toBeInTheDocument();
    await user.click(saveButton());
    await waitFor(() => expect(toastTexts()).toContain(MSG.saved));
    const puts = fetch.mock.calls.filter(
      ([url, init]) => String(url).includes('save-whitelist') && init?.method === 'PUT',
    );
    expect(JSON.parse(String(puts[1][1]?.body))).toEqual({
      whitelist: [
        { url: 'https://example.org' },
        { url: 'https://other.example.net' },
        { url: 'https://mine.example.com' },
      ],
      baseVersion: 'v2',
    });
  });

  it("shows 'Could not load Whitelist' when the load fails", async () => {
    routes({ [`GET ${B}/get-whitelist`]: () => errorResponse(422, { errorMessage: 'Broken' }) });
    render();
    await waitFor(() => expect(toastTexts()).toContain(MSG.loadFailed));
    // The toast, and the screen's own message in place of the list.
    expect(await screen.findAllByText(MSG.loadFailed)).toHaveLength(2);
  });

  it('is read-only without whitelist_write', async () => {
    routes();
    render({ user: member, permissions: ['whitelist_read'] });
    await within(await entries()).findByText('https://example.org');
    expect(screen.queryByRole('textbox', { name: 'URL' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
    expect(screen.getByText(MSG.readOnly)).toBeInTheDocument();
  });

  it('needs whitelist_read', async () => {
    const fetch = routes();
    render({ user: member, permissions: [] });
    expect(await screen.findByRole('alert')).toHaveTextContent(/do not have the right permission/);
    expect(fetch).not.toHaveBeenCalled();
  });

  it.each([
    ['limited', { supportLevel: 'LIMITED' }],
    ['captive', { supportLevel: 'FULL', scope: 'captive' }],
    ['UNIVERSAL', { supportLevel: 'FULL', engineType: 'UNIVERSAL' }],
  ] as const)('shows a notice for a %s portal', async (_, portal) => {
    const fetch = routes();
    render({ portal });
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.notAvailable);
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('whitelist model', () => {
  it('checks a new URL', () => {
    expect(newUrlError('https://a.example.com', [])).toBeNull();
    expect(newUrlError('  http://a.example.com/x  ', [])).toBeNull();
    expect(newUrlError('', [])).toBe(MSG.invalidUrl);
    expect(newUrlError('a.example.com', [])).toBe(MSG.invalidUrl);
    expect(newUrlError('https://', [])).toBe(MSG.invalidUrl);
    expect(newUrlError('https://a b.com', [])).toBe(MSG.invalidUrl);
    expect(newUrlError('https://a.example.com', ['https://a.example.com'])).toBe(MSG.duplicate);
    expect(newUrlError(`https://a.com/${'x'.repeat(2048)}`, [])).toBe(MSG.tooLong(2048));
  });

  it('tells a changed draft and reapplies an edit', () => {
    expect(isDirty(['a'], ['a'])).toBe(false);
    expect(isDirty(['a'], ['a', 'b'])).toBe(true);
    expect(isDirty(['a', 'b'], ['b', 'a'])).toBe(true);
    expect(reapply(['a', 'b', 'c'], ['a', 'b'], ['b', 'd'])).toEqual(['b', 'c', 'd']);
  });
});
