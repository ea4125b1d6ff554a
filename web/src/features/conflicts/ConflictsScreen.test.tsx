import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WorkspaceConflicts } from '../../api/conflicts';
import { overlay } from '../../core/overlayStore';
import { patterns } from '../../core/paths';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { ToastStack } from '../../ui/ToastStack';
import { clearToasts, useToastStore } from '../../core/toastService';
import { bodyOf, errorResponse, jsonResponse, mockFetch } from '../../test/helpers';
import { renderRoute, signIn } from '../../test/render';
import ConflictsScreen from './ConflictsScreen';
import { CONFLICT_MESSAGES as MSG } from './messages';
import { retainPicks, subSchemaAt, toChoices, unresolvedCount } from './model';

const C = 'api/v1/workspace-conflicts/1/2';
const URL = '/domain/1/portal/2/branch/master/en_GB/conflicts';

const CONFLICTS: WorkspaceConflicts = {
  inConflict: true,
  branch: 'master',
  tip: 't1',
  merged: ['css/site.css'],
  files: [
    {
      path: 'translations/en_GB.json',
      kind: 'translation',
      binary: false,
      hasSchema: false,
      conflicts: [{ id: '/TXT_HELLO', path: 'TXT_HELLO', base: '"Hello"', mine: '"Hi"', theirs: '"Hey"' }],
    },
    {
      path: 'data/menu.json',
      kind: 'json',
      binary: false,
      hasSchema: false,
      conflicts: [
        {
          id: '/menu/2/title',
          path: 'menu › Lunch › title',
          base: '"Lunch"',
          mine: '"Lunch menu"',
          theirs: '"Midday"',
        },
        { id: '/menu/2/price', path: 'menu › Lunch › price', base: '10', mine: '12', theirs: '11' },
      ],
    },
    {
      path: 'images/logo.png',
      kind: 'binary',
      binary: true,
      hasSchema: false,
      conflicts: [{ id: 'file', path: 'whole file', base: null, mine: null, theirs: null }],
    },
  ],
};

const OPENED = {
  portal: { id: 2, name: 'Crew Portal', scope: 'FULL', status: 'active', activeBranch: 'master' },
  branch: 'master',
  settings: {
    engineType: 'PORTAL_ENGINE',
    supportLevel: 'FULL',
    scope: 'FULL',
    languageSettings: { languages: ['en_GB'], defaultLanguage: 'en_GB', languageMode: 'MULTILANGUAGE' },
  },
  status: { branch: 'master', changes: {}, aheadCount: 0, behindCount: 0 },
};

beforeEach(() => {
  vi.spyOn(overlay, 'show').mockImplementation(() => undefined);
  useSelectionStore.setState({
    ...initialSelectionState,
    domain: { id: 1, name: 'Demo Airline' },
    portal: { id: 2, name: 'Crew Portal', supportLevel: 'FULL', engineType: 'PORTAL_ENGINE', scope: 'full' },
    branch: 'master',
    language: 'en_GB',
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
});

function server(extra: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    [`GET ${C}`]: () => jsonResponse(CONFLICTS),
    [`POST ${C}/resolve`]: () => jsonResponse({ commitId: 'c9', ruleWarnings: [] }),
    'GET api/v1/portal/1/2/open': () => jsonResponse(OPENED),
    ...extra,
  });
}

function render() {
  clearToasts();
  signIn();
  return renderRoute(
    [
      {
        path: patterns.portalConflicts,
        element: (
          <>
            <ConflictsScreen />
            <ToastStack />
          </>
        ),
      },
      { path: '*', element: <p>Elsewhere</p> },
    ],
    URL,
  );
}
const conflict = (file: string, label: string) =>
  screen.findByRole('region', { name: MSG.conflictRegion(file, label) });
const toastTexts = () => useToastStore.getState().toasts.map((t) => [t.type, t.message]);

describe('conflict resolution screen', () => {
  it('lists every conflict with Theirs and Mine, Base on request, and the files merged automatically', async () => {
    server();
    render();
    const hello = await conflict('translations/en_GB.json', 'TXT_HELLO');
    expect(hello).toHaveTextContent('Theirs');
    expect(hello).toHaveTextContent('"Hey"');
    expect(hello).toHaveTextContent('"Hi"');
    expect(hello).not.toHaveTextContent('"Hello"');
    await userEvent.click(within(hello).getByRole('switch', { name: 'Show base' }));
    expect(hello).toHaveTextContent('"Hello"');

    const logo = await conflict('images/logo.png', 'whole file');
    expect(
      within(logo)
        .getAllByRole('radio')
        .map((r) => r.closest('label')?.textContent),
    ).toEqual(['Keep mine', 'Keep theirs']);
    expect(screen.getByRole('list', { name: 'Merged automatically' })).toHaveTextContent('css/site.css');
    expect(screen.getByRole('button', { name: 'Resolve and commit' })).toBeDisabled();
    expect(screen.getByText('Choose what to keep for 4 more conflicts.')).toBeInTheDocument();
  });

  it('posts exactly the choices (mine, theirs, base, an edited JSON value) with the tip, then goes to the dashboard', async () => {
    const fetch = server();
    const { router } = render();
    await userEvent.click(
      within(await conflict('translations/en_GB.json', 'TXT_HELLO')).getByRole('radio', { name: 'Keep mine' }),
    );
    await userEvent.click(
      within(await conflict('images/logo.png', 'whole file')).getByRole('radio', { name: 'Keep theirs' }),
    );
    await userEvent.click(
      within(await conflict('data/menu.json', 'menu › Lunch › price')).getByRole('radio', { name: 'Use base' }),
    );

    const title = await conflict('data/menu.json', 'menu › Lunch › title');
    await userEvent.click(within(title).getByRole('radio', { name: 'Edit' }));
    const field = within(title).getByRole('textbox', { name: 'Merged value' });
    expect(field).toHaveValue('"Lunch menu"');
    await userEvent.clear(field);
    await userEvent.type(field, 'Lunch & more');
    expect(within(title).getByText('This is not valid JSON.')).toBeInTheDocument();
    const resolve = screen.getByRole('button', { name: 'Resolve and commit' });
    expect(resolve).toBeDisabled();
    await userEvent.clear(field);
    await userEvent.type(field, '"Lunch & more"');
    expect(resolve).toBeEnabled();

    await userEvent.click(resolve);
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/domain/1/portal/2/branch/master/en_GB/dashboard'),
    );
    expect(bodyOf(fetch, `POST ${C}/resolve`)).toEqual({
      tip: 't1',
      choices: {
        'translations/en_GB.json': { '/TXT_HELLO': { take: 'mine' } },
        'data/menu.json': {
          '/menu/2/title': { take: 'value', value: '"Lunch & more"' },
          '/menu/2/price': { take: 'base' },
        },
        'images/logo.png': { file: { take: 'theirs' } },
      },
    });
    expect(toastTexts()).toContainEqual(['SUCCESS', 'Changes committed']);
    // The workspace was opened again (every view refreshes).
    expect(fetch.mock.calls.some(([url]) => String(url).startsWith('api/v1/portal/1/2/open'))).toBe(true);
  });

  it('tells as information, not success, that keeping theirs left nothing to commit', async () => {
    const nothing =
      'Nothing was left to commit: your changes are already on the branch. Your local commit is kept under Recover discarded work.';
    server({
      [`GET ${C}`]: () => jsonResponse({ ...CONFLICTS, files: [CONFLICTS.files[0]] }),
      [`POST ${C}/resolve`]: () =>
        jsonResponse({ commitId: 't1', ruleWarnings: [], committed: false, discarded: '17', message: nothing }),
    });
    const { router } = render();
    await userEvent.click(
      within(await conflict('translations/en_GB.json', 'TXT_HELLO')).getByRole('radio', { name: 'Keep theirs' }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Resolve and commit' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/domain/1/portal/2/branch/master/en_GB/dashboard'),
    );
    expect(toastTexts()).toContainEqual(['INFO', nothing]);
    expect(toastTexts().some(([type]) => type === 'SUCCESS')).toBe(false);
    expect(useToastStore.getState().toasts.find((t) => t.type === 'INFO')?.title).toBe('Nothing committed');
  });

  it('when the branch moved on, shows the message, loads the conflicts again and keeps the unchanged choices', async () => {
    const moved = 'The branch changed while you were resolving. Review the conflicts again.';
    const again: WorkspaceConflicts = {
      ...CONFLICTS,
      tip: 't2',
      files: CONFLICTS.files.map((f) =>
        f.path === 'translations/en_GB.json' ? { ...f, conflicts: [{ ...f.conflicts[0], theirs: '"Howdy"' }] } : f,
      ),
    };
    let loads = 0;
    let posts = 0;
    const fetch = server({
      [`GET ${C}`]: () => jsonResponse(loads++ === 0 ? CONFLICTS : again),
      [`POST ${C}/resolve`]: () =>
        posts++ === 0
          ? errorResponse(409, { errorCode: 'CONFLICT_TIP_MOVED', errorMessage: moved })
          : jsonResponse({ commitId: 'c9', ruleWarnings: [] }),
    });
    const { router } = render();
    await userEvent.click(
      within(await conflict('translations/en_GB.json', 'TXT_HELLO')).getByRole('radio', { name: 'Keep mine' }),
    );
    await userEvent.click(
      within(await conflict('images/logo.png', 'whole file')).getByRole('radio', { name: 'Keep mine' }),
    );
    await userEvent.click(
      within(await conflict('data/menu.json', 'menu › Lunch › price')).getByRole('radio', { name: 'Keep theirs' }),
    );
    await userEvent.click(
      within(await conflict('data/menu.json', 'menu › Lunch › title')).getByRole('radio', { name: 'Keep theirs' }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Resolve and commit' }));

    expect(await screen.findByText(moved)).toBeInTheDocument();
    await waitFor(() => expect(loads).toBe(2));
    const hello = await conflict('translations/en_GB.json', 'TXT_HELLO');
    await waitFor(() => expect(hello).toHaveTextContent('"Howdy"'));
    // The changed conflict is asked again; the others keep their choice.
    expect(within(hello).getByRole('radio', { name: 'Keep mine' })).not.toBeChecked();
    expect(
      within(await conflict('images/logo.png', 'whole file')).getByRole('radio', { name: 'Keep mine' }),
    ).toBeChecked();
    const resolve = screen.getByRole('button', { name: 'Resolve and commit' });
    expect(resolve).toBeDisabled();
    await userEvent.click(within(hello).getByRole('radio', { name: 'Keep theirs' }));
    await userEvent.click(resolve);
    await waitFor(() => expect(router.state.location.pathname).toMatch(/\/dashboard$/));
    const bodies = fetch.mock.calls
      .filter(([url, init]) => String(url) === `${C}/resolve` && init?.method === 'POST')
      .map(([, init]) => JSON.parse(String(init?.body)) as { tip: string; choices: unknown });
    expect(bodies.map((b) => b.tip)).toEqual(['t1', 't2']);
    expect(bodies[1].choices).toEqual({
      'translations/en_GB.json': { '/TXT_HELLO': { take: 'theirs' } },
      'data/menu.json': { '/menu/2/title': { take: 'theirs' }, '/menu/2/price': { take: 'theirs' } },
      'images/logo.png': { file: { take: 'mine' } },
    });
  });

  it('compares a page rendered, sandboxed and without scripts', async () => {
    const page: WorkspaceConflicts = {
      ...CONFLICTS,
      merged: [],
      files: [
        {
          path: 'pages/home.html',
          kind: 'text',
          binary: false,
          hasSchema: false,
          conflicts: [
            { id: 'hunk:0', path: 'lines 3–4', base: '<p>a</p>', mine: '<p>mine</p>', theirs: '<p>theirs</p>' },
          ],
        },
      ],
    };
    server({
      [`GET ${C}`]: () => jsonResponse(page),
      [`GET ${C}/file`]: () =>
        jsonResponse({
          path: 'pages/home.html',
          kind: 'text',
          binary: false,
          base: '<p>base</p>',
          mine: '<h1>Mine</h1><script>alert(1)</script><img src="x" onerror="alert(2)">',
          theirs: '<h1>Theirs</h1>',
          schema: null,
          conflicts: page.files[0].conflicts,
        }),
    });
    render();
    await userEvent.click(await screen.findByRole('switch', { name: 'Compare rendered' }));
    const mine = (await screen.findByTitle('Mine (rendered)')) as HTMLIFrameElement;
    const theirs = screen.getByTitle('Theirs (rendered)') as HTMLIFrameElement;
    for (const frame of [mine, theirs]) expect(frame.getAttribute('sandbox')).toBe('');
    const doc = mine.getAttribute('srcdoc') ?? '';
    expect(doc).toContain('<h1>Mine</h1>');
    expect(doc).not.toMatch(/script|onerror/i);
  });

  it('shows a value in its field widget when the file has a schema', async () => {
    const schema = JSON.stringify({
      type: 'object',
      properties: {
        menu: { type: 'array', items: { $ref: '#/definitions/dish' } },
      },
      definitions: { dish: { type: 'object', properties: { title: { type: 'string', title: 'Dish title' } } } },
    });
    const withSchema: WorkspaceConflicts = {
      ...CONFLICTS,
      merged: [],
      files: [{ ...CONFLICTS.files[1], hasSchema: true, conflicts: [CONFLICTS.files[1].conflicts[0]] }],
    };
    server({
      [`GET ${C}`]: () => jsonResponse(withSchema),
      [`GET ${C}/file`]: () =>
        jsonResponse({
          path: 'data/menu.json',
          kind: 'json',
          binary: false,
          base: '',
          mine: '',
          theirs: '',
          schema,
          conflicts: [],
        }),
    });
    render();
    const title = await conflict('data/menu.json', 'menu › Lunch › title');
    const theirs = await within(title).findByRole('group', { name: 'Theirs' });
    expect(within(theirs).getByRole('textbox', { name: /Dish title/ })).toHaveValue('Midday');
  });

  it('says so when there is nothing to resolve', async () => {
    server({
      [`GET ${C}`]: () => jsonResponse({ inConflict: false, branch: 'master', tip: 't1', files: [], merged: [] }),
    });
    render();
    expect(await screen.findByText(MSG.nothing)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resolve and commit' })).toBeNull();
  });
});

describe('conflict model', () => {
  it('finds the sub-schema at a pointer through properties, items, additionalProperties and $refs', () => {
    const schema = {
      type: 'object',
      properties: {
        menu: { type: 'array', items: { $ref: '#/definitions/dish' } },
        labels: { type: 'object', additionalProperties: { type: 'string', title: 'Label' } },
      },
      definitions: { dish: { type: 'object', properties: { title: { type: 'string' } } } },
    };
    expect(subSchemaAt(schema, '/menu/2/title')).toMatchObject({ type: 'string' });
    expect(subSchemaAt(schema, '/labels/a~1b')).toMatchObject({ title: 'Label' });
    expect(subSchemaAt(schema, 'file')).toMatchObject({ type: 'object' });
    expect(subSchemaAt(schema, '/nope/x')).toBeNull();
    expect(subSchemaAt(schema, 'hunk:1')).toBeNull();
  });

  it('counts what is left, builds the choices and keeps picks of unchanged conflicts', () => {
    const files = CONFLICTS.files;
    expect(unresolvedCount(files, {})).toBe(4);
    const picks = { 'data/menu.json': { '/menu/2/title': { take: 'value' as const, value: '{ "a": 1 }' } } };
    expect(unresolvedCount(files, picks)).toBe(3);
    expect(toChoices(files, picks)).toEqual({
      'data/menu.json': { '/menu/2/title': { take: 'value', value: '{"a":1}' } },
    });
    expect(unresolvedCount(files, { 'data/menu.json': { '/menu/2/title': { take: 'value', value: '{' } } })).toBe(4);
    const changed = files.map((f) =>
      f.path === 'data/menu.json' ? { ...f, conflicts: [{ ...f.conflicts[0], mine: '"x"' }] } : f,
    );
    expect(retainPicks(files, changed, picks)).toEqual({});
    expect(retainPicks(files, files, picks)).toEqual(picks);
  });
});
