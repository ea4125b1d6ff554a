import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Finding, IgnoredFinding } from '../../api/readiness';
import { clearToasts } from '../../core/toastService';
import { bodyOf, called, errorResponse, jsonResponse, mockFetch, sampleUser } from '../../test/helpers';
import { renderScreen } from '../../test/render';
import { READINESS_MESSAGES as MSG } from './messages';
import ReadinessScreen from './ReadinessScreen';
import { finding, openPortal, PATTERN, PORTAL_PATH, R, report, resetReadinessTests } from './testing';

afterEach(() => {
  vi.unstubAllGlobals();
  resetReadinessTests();
  clearToasts();
});

const link = finding();
const alt = finding({
  id: 'f-alt',
  rule: 'page.img-alt',
  severity: 'warning',
  path: 'pages/about.html',
  line: 3,
  message: 'Image without an alt attribute',
});
const placeholder = finding({
  id: 'f-ph',
  rule: 'translation.placeholder',
  severity: 'error',
  path: 'translations/fr_FR.json',
  line: undefined,
  key: 'TXT_HELLO',
  language: 'fr_FR',
  message: 'The placeholders differ from the default language: {name} is missing',
});
const ignoredOne: IgnoredFinding = {
  ...finding({ id: 'f-old', path: 'pages/old.html', message: 'Old link to a retired page' }),
  reason: 'The page comes back next sprint',
  by: 'ada',
  at: '2026-11-22T09:00:00Z',
};

function routes(findings: Finding[] = [link, alt, placeholder], extra: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    [`GET ${R}`]: () => jsonResponse(report(findings, [ignoredOne])),
    [`GET ${R}/others`]: () =>
      jsonResponse([
        {
          user: { id: 9, userName: 'grace', firstName: 'Grace', lastName: 'Hopper' },
          branch: 'master',
          summary: { errors: 1, warnings: 0, infos: 0, ignored: 0, files: 1, byRule: {} },
          findings: [finding({ id: 'f-grace', path: 'pages/news.html', message: 'Missing image assets/x.png' })],
        },
      ]),
    'GET api/v1/page/1/2/sitemap': () =>
      jsonResponse({ id: 'master-page', isMaster: true, children: [{ id: 'home', url: '/pages/home.html' }] }),
    [`POST ${R}/ignore`]: () => jsonResponse(report([alt, placeholder], [ignoredOne])),
    [`DELETE ${R}/ignore/f-old`]: () => jsonResponse(report([link, alt, placeholder, ignoredOne])),
    [`GET ${R}/settings`]: () =>
      jsonResponse({
        gate: false,
        lengthBudgets: [{ pattern: 'TXT_SEAT_*', maxChars: 40 }],
        sizeBudgetBytes: 0,
        version: 'v1',
      }),
    [`PUT ${R}/settings`]: ({ init }) => jsonResponse({ ...JSON.parse(String(init.body)), version: 'v2' }),
    ...extra,
  });
}

function render(user?: typeof sampleUser) {
  const utils = renderScreen(ReadinessScreen, `${PATTERN}/readiness`, `${PORTAL_PATH}/readiness`, user);
  return { ...utils, user: userEvent.setup() };
}

/** A row header's name starts with the finding's message (a rule or fix may follow). */
const named = (text: string) => (name: string) => name.startsWith(text);
const row = async (text: string) =>
  (await screen.findByRole('rowheader', { name: named(text) })).closest('tr') as HTMLElement;

describe('Readiness screen', () => {
  it('shows the counts and the findings by rule, each with where it is and Open', async () => {
    openPortal();
    routes();
    render();
    expect(await screen.findByRole('heading', { level: 1, name: 'Readiness' })).toBeInTheDocument();
    expect(await screen.findByLabelText('Errors')).toHaveTextContent('2');
    expect(screen.getByLabelText('Warnings')).toHaveTextContent('1');
    expect(screen.getByLabelText('Ignored')).toHaveTextContent('1');

    expect(screen.getByRole('table', { name: 'Links to missing pages' })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Placeholders that differ' })).toBeInTheDocument();
    const l = await row(link.message);
    expect(within(l).getByText('pages/home.html:12')).toBeInTheDocument();
    expect(within(l).getByRole('link', { name: 'Open' })).toHaveAttribute(
      'href',
      `${PORTAL_PATH}/pages/home/source-mode?line=12`,
    );
    const p = await row(placeholder.message);
    expect(within(p).getByText('translations/fr_FR.json · TXT_HELLO')).toBeInTheDocument();
    expect(within(p).getByRole('link', { name: 'Open' })).toHaveAttribute(
      'href',
      `${PORTAL_PATH}/translations?key=TXT_HELLO&language=fr_FR`,
    );
  });

  it('groups by file and filters by severity and language', async () => {
    openPortal();
    const german = finding({
      id: 'f-de',
      rule: 'translation.missing',
      severity: 'warning',
      path: 'translations/de_DE.json',
      line: undefined,
      key: 'TXT_BYE',
      language: 'de_DE',
      message: 'TXT_BYE has no value in de_DE',
    });
    routes([link, alt, placeholder, german]);
    const { user } = render();
    await row(link.message);
    await user.click(screen.getByRole('button', { name: 'File' }));
    expect(screen.getByRole('table', { name: 'pages/home.html' })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'translations/fr_FR.json' })).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Severity' }));
    await user.click(await screen.findByRole('option', { name: 'Warnings' }));
    await waitFor(() => expect(screen.queryByRole('rowheader', { name: named(link.message) })).not.toBeInTheDocument());
    expect(screen.getByRole('rowheader', { name: named(alt.message) })).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Severity' }));
    await user.click(await screen.findByRole('option', { name: 'All' }));
    await user.click(screen.getByRole('combobox', { name: 'Language' }));
    await user.click(await screen.findByRole('option', { name: /fr_FR|French/ }));
    await waitFor(() =>
      expect(screen.queryByRole('rowheader', { name: named(german.message) })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('rowheader', { name: named(placeholder.message) })).toBeInTheDocument();
    // A broken link is broken in every language.
    expect(screen.getByRole('rowheader', { name: named(link.message) })).toBeInTheDocument();
  });

  it('ignores a finding with a reason: required, at most 500 characters', async () => {
    openPortal();
    const fetch = routes();
    const { user } = render();
    await user.click(within(await row(link.message)).getByRole('button', { name: 'Ignore' }));
    const dialog = await screen.findByRole('dialog');
    const submit = within(dialog).getByRole('button', { name: 'Ignore' });
    expect(submit).toBeDisabled();
    const reason = within(dialog).getByRole('textbox', { name: /Reason/ });
    await user.click(reason);
    await user.paste('x'.repeat(501));
    expect(await within(dialog).findByText(MSG.reasonTooLong)).toBeInTheDocument();
    expect(submit).toBeDisabled();
    await user.clear(reason);
    await user.type(reason, 'Page is added in the next release');
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    await waitFor(() =>
      expect(bodyOf(fetch, `POST ${R}/ignore`)).toEqual({
        findingId: 'f-link',
        reason: 'Page is added in the next release',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('rowheader', { name: named(link.message) })).not.toBeInTheDocument());
  });

  it('lists the ignored findings with reason, who and when, and undoes one', async () => {
    openPortal();
    const fetch = routes();
    const { user } = render();
    const ignored = await screen.findByRole('table', { name: MSG.ignored });
    const r = within(ignored)
      .getByRole('rowheader', { name: named(ignoredOne.message) })
      .closest('tr') as HTMLElement;
    expect(within(r).getByText(ignoredOne.reason)).toBeInTheDocument();
    expect(within(r).getByText('ada')).toBeInTheDocument();
    await user.click(within(r).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(called(fetch, `DELETE ${R}/ignore/f-old`)).toBe(true));
  });

  it("shows other authors' findings in their uncommitted changes with their name", async () => {
    openPortal();
    routes();
    render();
    const section = await screen.findByRole('region', { name: MSG.others });
    expect(await within(section).findByRole('heading', { name: /Grace Hopper/ })).toBeInTheDocument();
    expect(within(section).getByText('Missing image assets/x.png')).toBeInTheDocument();
  });

  it('offers neither Ignore nor Settings to a reader', async () => {
    openPortal(['asset:r']);
    routes();
    render({ ...sampleUser, admin: false });
    await row(link.message);
    expect(screen.queryByRole('button', { name: 'Ignore' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Settings' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument();
  });

  it('shows progress while the portal is checked, and a failed check with Retry', async () => {
    openPortal();
    let answer: (r: Response) => void = () => {};
    routes(undefined, { [`GET ${R}`]: () => new Promise<Response>((resolve) => (answer = resolve)) });
    render();
    expect(await screen.findByText(MSG.checking)).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: MSG.checking })).toBeInTheDocument();
    answer(errorResponse(400, { errorTitle: 'Check failed', errorMessage: 'The engine stopped' }));
    expect(await screen.findByText(/The engine stopped/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('saves the settings: the gate, a budget added, the size in MB', async () => {
    openPortal();
    const fetch = routes();
    const { user } = render();
    await row(link.message);
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByDisplayValue('TXT_SEAT_*');
    await user.click(within(dialog).getByRole('switch', { name: MSG.gate }));
    await user.click(within(dialog).getByRole('button', { name: MSG.addBudget }));
    const patterns = within(dialog).getAllByRole('textbox', { name: /Key pattern/ });
    await user.type(patterns[1], 'TXT_MENU_*');
    await user.type(within(dialog).getAllByRole('textbox', { name: /Max characters/ })[1], '24');
    await user.type(within(dialog).getByRole('textbox', { name: MSG.sizeBudget }), '250');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(bodyOf(fetch, `PUT ${R}/settings`)).toEqual({
        gate: true,
        lengthBudgets: [
          { pattern: 'TXT_SEAT_*', maxChars: 40 },
          { pattern: 'TXT_MENU_*', maxChars: 24 },
        ],
        sizeBudgetBytes: 250 * 1024 * 1024,
        version: 'v1',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('says to reopen the settings when they changed meanwhile (409)', async () => {
    openPortal();
    routes(undefined, {
      [`PUT ${R}/settings`]: () => errorResponse(409, { errorTitle: 'Conflict', errorMessage: 'stale' }),
    });
    const { user } = render();
    await row(link.message);
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByDisplayValue('TXT_SEAT_*');
    await user.click(within(dialog).getByRole('switch', { name: MSG.gate }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(MSG.settingsStale)).toBeInTheDocument();
  });
});
